package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/portico/portico/internal/erpsync"
	"github.com/portico/portico/internal/portal"
	"github.com/portico/portico/internal/records"
)

// summaryColumns are what lists read: everything but the document, which a
// page of 50 would otherwise drag through at a kilobyte or more a row.
const summaryColumns = `kind, id, external_id, title, code, status, parent_id, parent_name, project_id, project_name, amount, occurred_on, modified_at, currency`

const recordColumns = summaryColumns + `, fields`

// upsertBatch is the largest number of rows one INSERT carries: 15 values a
// row stays far below both engines' parameter limits.
const upsertBatch = 400

// upsertStatement returns the multi-row upsert for n rows: an update
// applies when the stored record has no write of its own on its way and,
// unless rebased, is not of a later version (see PutRecords).
func upsertStatement(n int, rebased bool) scoped {
	var b strings.Builder
	b.WriteString(`INSERT INTO records (tenant_id, ` + recordColumns + `) VALUES `)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString("(:tenant, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, :doc)")
	}
	b.WriteString(` ON CONFLICT (tenant_id, kind, id) DO UPDATE SET external_id = excluded.external_id,
		title = excluded.title, code = excluded.code, status = excluded.status, parent_id = excluded.parent_id,
		project_id = excluded.project_id, parent_name = excluded.parent_name,
		project_name = excluded.project_name, amount = excluded.amount, occurred_on = excluded.occurred_on,
		modified_at = excluded.modified_at, currency = excluded.currency, fields = jsonb_patch(records.fields, excluded.fields)
		WHERE records.write_state = ''`)
	if !rebased {
		b.WriteString(` AND records.modified_at <= excluded.modified_at`)
	}
	return scope(b.String())
}

// upsertFull is the statement for a full batch, built once; a shorter last
// batch, or a re-based one, builds its own.
var upsertFull = upsertStatement(upsertBatch, false)

// PutRecords inserts or updates records, in one transaction, batching rows
// into multi-row statements. An update takes the promoted columns and
// merges the given document into the stored one (its top-level fields
// win; fields only the stored one has, such as sublists a pull does not
// read, stay). It never touches a record whose own write to the ERP is
// pending or failed (the outbox owns it until then), nor one with a newer
// version than the one given.
func (t *Tenant) PutRecords(ctx context.Context, rs []records.Record) error {
	return t.inTx(ctx, func(tx *Tenant) error { return tx.putRecords(ctx, rs, false) })
}

// putRecords is PutRecords inside the caller's transaction; rebased, a
// record replaces the stored one whatever their versions' times (the
// ERP's times were re-based: erpsync.LeasedWrites.ApplyRebasedPull). A
// record given twice is stored as its last version (PostgreSQL refuses an
// upsert that touches one row twice).
func (t *Tenant) putRecords(ctx context.Context, rs []records.Record, rebased bool) error {
	rs = lastOfEach(rs)
	args := make([]any, 0, upsertBatch*15)
	for start := 0; start < len(rs); start += upsertBatch {
		batch := rs[start:min(start+upsertBatch, len(rs))]
		args = args[:0]
		for i := range batch {
			r := &batch[i]
			if r.Title == "" || r.ID <= 0 || len(r.Fields) == 0 {
				return portal.Errorf(portal.CodeInvalid, "record %s/%d needs an id, a title and fields", r.Kind, r.ID)
			}
			args = append(args, r.Kind, r.ID, nullString(r.ExternalID), r.Title, r.Code, r.Status,
				nullID(r.ParentID), r.ParentName, nullID(r.ProjectID), r.ProjectName, r.Amount, r.Date,
				r.ModifiedAt.UnixMilli(), r.Currency, string(r.Fields))
		}
		st := upsertFull
		if len(batch) < upsertBatch || rebased {
			st = upsertStatement(len(batch), rebased)
		}
		if _, err := t.exec(ctx, st, args...); err != nil {
			return fmt.Errorf("put records: %w", err)
		}
	}
	return nil
}

// lastOfEach returns rs with only the last of records sharing a kind and
// id (rs itself when there are none).
func lastOfEach(rs []records.Record) []records.Record {
	type key struct {
		kind string
		id   int64
	}
	last := make(map[key]int, len(rs))
	for i, r := range rs {
		last[key{r.Kind, r.ID}] = i
	}
	if len(last) == len(rs) {
		return rs
	}
	out := make([]records.Record, 0, len(last))
	for i, r := range rs {
		if last[key{r.Kind, r.ID}] == i {
			out = append(out, r)
		}
	}
	return out
}

var (
	getRecord        = scope(`SELECT ` + summaryColumns + `, :fields, write_state, write_error FROM records WHERE tenant_id = :tenant AND kind = ? AND id = ?`)
	getRecordSummary = scope(`SELECT ` + summaryColumns + ` FROM records WHERE tenant_id = :tenant AND kind = ? AND id = ?`)
)

// Record returns one record with its document, or a not-found error.
func (t *Tenant) Record(ctx context.Context, kind string, id int64) (records.Record, error) {
	return t.record(ctx, getRecord, kind, id, true)
}

// RecordSummary returns one record without its document (its promoted
// columns only), or a not-found error.
func (t *Tenant) RecordSummary(ctx context.Context, kind string, id int64) (records.Record, error) {
	return t.record(ctx, getRecordSummary, kind, id, false)
}

func (t *Tenant) record(ctx context.Context, st scoped, kind string, id int64, withFields bool) (records.Record, error) {
	r, err := scanRecord(t.queryRow(ctx, st, kind, id), withFields)
	if errors.Is(err, sql.ErrNoRows) {
		// A record created in the portal is known by its provisional id
		// until the ERP gives it its own; old links keep working.
		if id >= records.ProvisionalBase {
			if erpID, state, cerr := t.CreatedID(ctx, kind, id); cerr == nil && state == erpsync.EntrySynced {
				return t.record(ctx, st, kind, erpID, withFields)
			}
		}
		return r, portal.Errorf(portal.CodeNotFound, "No such record.")
	}
	return r, err
}

// rowScanner is *sql.Row or *sql.Rows.
type rowScanner interface{ Scan(dest ...any) error }

// scanRecord reads summaryColumns, and the document too when withFields.
func scanRecord(s rowScanner, withFields bool) (records.Record, error) {
	var (
		r        records.Record
		n        nullColumns
		modified int64
		fields   []byte
	)
	dest := []any{&r.Kind, &r.ID, &n.ext, &r.Title, &r.Code, &r.Status, &n.parent, &r.ParentName, &n.proj, &r.ProjectName,
		&n.amt, &r.Date, &modified, &r.Currency}
	if withFields {
		dest = append(dest, &fields, &r.Write.State, &r.Write.Error)
	}
	if err := s.Scan(dest...); err != nil {
		return r, err
	}
	n.fill(&r)
	r.ModifiedAt = time.UnixMilli(modified).UTC()
	r.Fields = fields
	return r, nil
}

// nullColumns are where a record's nullable columns are scanned to.
type nullColumns struct {
	ext               sql.NullString
	parent, proj, amt sql.NullInt64
}

// fill sets r's fields from the scanned columns: NULL is the zero value,
// and no amount.
func (n *nullColumns) fill(r *records.Record) {
	r.ExternalID, r.ParentID, r.ProjectID = n.ext.String, n.parent.Int64, n.proj.Int64
	r.Amount = nil
	if n.amt.Valid {
		r.Amount = new(n.amt.Int64)
	}
}

func nullString(s string) any {
	if s == "" {
		return nil
	}
	return s
}

func nullID(id int64) any {
	if id == 0 {
		return nil
	}
	return id
}
