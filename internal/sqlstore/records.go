package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/portico/portico/internal/portal"
	"github.com/portico/portico/internal/records"
)

const recordColumns = `kind, id, external_id, title, code, status, parent_id, project_id, amount, occurred_on, modified_at, fields`

// upsertBatch is the largest number of rows one INSERT carries: 12 values a
// row stays far below both engines' parameter limits.
const upsertBatch = 400

var upsertStatements = map[int]scoped{}

// upsertStatement returns the multi-row upsert for n rows, built once per n.
func upsertStatement(n int) scoped {
	if st, ok := upsertStatements[n]; ok {
		return st
	}
	var b strings.Builder
	b.WriteString(`INSERT INTO records (tenant_id, ` + recordColumns + `) VALUES `)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString("(:tenant, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
	}
	b.WriteString(` ON CONFLICT (tenant_id, kind, id) DO UPDATE SET external_id = excluded.external_id,
		title = excluded.title, code = excluded.code, status = excluded.status, parent_id = excluded.parent_id,
		project_id = excluded.project_id, amount = excluded.amount, occurred_on = excluded.occurred_on,
		modified_at = excluded.modified_at, fields = excluded.fields`)
	return scope(b.String())
}

func init() {
	// Built eagerly so the map is read-only while serving.
	for n := 1; n <= upsertBatch; n++ {
		upsertStatements[n] = upsertStatement(n)
	}
}

// PutRecords inserts or replaces records, in one transaction, batching rows
// into multi-row statements.
func (t *Tenant) PutRecords(ctx context.Context, rs []records.Record) error {
	return t.inTx(ctx, func(tx *Tenant) error {
		args := make([]any, 0, upsertBatch*12)
		for start := 0; start < len(rs); start += upsertBatch {
			batch := rs[start:min(start+upsertBatch, len(rs))]
			args = args[:0]
			for i := range batch {
				r := &batch[i]
				if r.Title == "" || r.ID <= 0 || len(r.Fields) == 0 {
					return portal.Errorf(portal.CodeInvalid, "record %s/%d needs an id, a title and fields", r.Kind, r.ID)
				}
				args = append(args, r.Kind, r.ID, nullString(r.ExternalID), r.Title, r.Code, r.Status,
					nullID(r.ParentID), nullID(r.ProjectID), r.Amount, nullString(r.Date),
					r.ModifiedAt.UnixMilli(), string(r.Fields))
			}
			if _, err := tx.exec(ctx, upsertStatements[len(batch)], args...); err != nil {
				return fmt.Errorf("put records: %w", err)
			}
		}
		return nil
	})
}

var getRecord = scope(`SELECT ` + recordColumns + ` FROM records WHERE tenant_id = :tenant AND kind = ? AND id = ?`)

// Record returns one record, or a not-found error.
func (t *Tenant) Record(ctx context.Context, kind string, id int64) (records.Record, error) {
	r, err := scanRecord(t.queryRow(ctx, getRecord, kind, id))
	if errors.Is(err, sql.ErrNoRows) {
		return r, portal.Errorf(portal.CodeNotFound, "No such record.")
	}
	return r, err
}

// sortColumns are the columns a list may be keyset-sorted on: NOT NULL
// columns with an index on (tenant, kind, column, id), so a cursor always
// has a value and every page is an index range. (Status is a filter, not a
// sort key: its index is (status, title, id), which serves "status = X
// ordered by title".)
var sortColumns = map[records.Column]bool{
	records.ColTitle: true, records.ColCode: true, "modified_at": true,
}

// ListRecords returns one page of a kind's records, keyset-paged on
// (sort column, id). It fetches Limit+1 rows to learn whether more exist,
// so no count is ever needed.
func (t *Tenant) ListRecords(ctx context.Context, q records.ListQuery) (records.Page, error) {
	st, args, err := listStatement(q)
	if err != nil {
		return records.Page{}, err
	}
	rows, err := t.query(ctx, st, args...)
	if err != nil {
		return records.Page{}, fmt.Errorf("list records: %w", err)
	}
	defer rows.Close()
	var page records.Page
	for rows.Next() {
		r, err := scanRecord(rows)
		if err != nil {
			return records.Page{}, err
		}
		page.Records = append(page.Records, r)
	}
	if err := rows.Err(); err != nil {
		return records.Page{}, fmt.Errorf("list records: %w", err)
	}
	if len(page.Records) > q.Limit {
		page.Records = page.Records[:q.Limit]
		page.HasMore = true
		last := page.Records[q.Limit-1]
		page.Next = &records.Cursor{Value: sortValue(q.Sort, last), ID: last.ID}
	}
	return page, nil
}

// listStatement builds the page query. Every shape it can produce is served
// by an index range (the query-plan test holds it to that).
func listStatement(q records.ListQuery) (scoped, []any, error) {
	if q.Sort == "" {
		q.Sort = records.ColTitle
	}
	if !sortColumns[q.Sort] {
		return scoped{}, nil, portal.Errorf(portal.CodeInvalid, "Cannot sort by %q.", q.Sort)
	}
	if q.Limit < 1 || q.Limit > 500 {
		return scoped{}, nil, portal.Errorf(portal.CodeInvalid, "Page size must be between 1 and 500.")
	}
	col, dir, cmp := string(q.Sort), "ASC", ">"
	if q.Desc {
		dir, cmp = "DESC", "<"
	}
	where := []string{"tenant_id = :tenant", "kind = ?"}
	args := []any{q.Kind}
	if q.Status != "" {
		where = append(where, "status = ?")
		args = append(args, q.Status)
	}
	if q.After != nil {
		v, err := cursorValue(q.Sort, q.After.Value)
		if err != nil {
			return scoped{}, nil, err
		}
		// A row-value comparison, not "a > ? OR (a = ? AND id > ?)": both
		// engines turn it into an index range seek; the OR form scans.
		where = append(where, fmt.Sprintf("(%s, id) %s (?, ?)", col, cmp))
		args = append(args, v, q.After.ID)
	}
	return scope(fmt.Sprintf(`SELECT %s FROM records WHERE %s ORDER BY %s %s, id %s LIMIT %d`,
		recordColumns, strings.Join(where, " AND "), col, dir, dir, q.Limit+1)), args, nil
}

func cursorValue(c records.Column, v string) (any, error) {
	if c != "modified_at" {
		return v, nil
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		return nil, portal.Errorf(portal.CodeInvalid, "The page cursor is not valid.")
	}
	return n, nil
}

func sortValue(c records.Column, r records.Record) string {
	switch c {
	case "", records.ColTitle:
		return r.Title
	case records.ColCode:
		return r.Code
	case "modified_at":
		return strconv.FormatInt(r.ModifiedAt.UnixMilli(), 10)
	}
	panic("sqlstore: no sort value for column " + string(c))
}

// rowScanner is *sql.Row or *sql.Rows.
type rowScanner interface{ Scan(dest ...any) error }

func scanRecord(s rowScanner) (records.Record, error) {
	var (
		r                 records.Record
		ext, date         sql.NullString
		parent, proj, amt sql.NullInt64
		modified          int64
		fields            []byte
	)
	err := s.Scan(&r.Kind, &r.ID, &ext, &r.Title, &r.Code, &r.Status, &parent, &proj, &amt, &date, &modified, &fields)
	if err != nil {
		return r, err
	}
	r.ExternalID, r.Date = ext.String, date.String
	r.ParentID, r.ProjectID = parent.Int64, proj.Int64
	if amt.Valid {
		r.Amount = &amt.Int64
	}
	r.ModifiedAt = time.UnixMilli(modified).UTC()
	r.Fields = fields
	return r, nil
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
