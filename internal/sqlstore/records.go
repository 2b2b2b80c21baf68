package sqlstore

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/portico/portico/internal/erpsync"
	"github.com/portico/portico/internal/portal"
	"github.com/portico/portico/internal/records"
)

// summaryColumns are what lists read: everything but the document, which a
// page of 50 would otherwise drag through at a kilobyte or more a row.
const summaryColumns = `kind, id, external_id, title, code, status, parent_id, parent_name, project_id, project_name, amount, occurred_on, modified_at`

const recordColumns = summaryColumns + `, fields`

// upsertBatch is the largest number of rows one INSERT carries: 14 values a
// row stays far below both engines' parameter limits.
const upsertBatch = 400

// upsertStatement returns the multi-row upsert for n rows.
func upsertStatement(n int) scoped {
	var b strings.Builder
	b.WriteString(`INSERT INTO records (tenant_id, ` + recordColumns + `) VALUES `)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString("(:tenant, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
	}
	b.WriteString(` ON CONFLICT (tenant_id, kind, id) DO UPDATE SET external_id = excluded.external_id,
		title = excluded.title, code = excluded.code, status = excluded.status, parent_id = excluded.parent_id,
		project_id = excluded.project_id, parent_name = excluded.parent_name,
		project_name = excluded.project_name, amount = excluded.amount, occurred_on = excluded.occurred_on,
		modified_at = excluded.modified_at, fields = json_patch(records.fields, excluded.fields)
		WHERE records.write_state = '' AND records.modified_at <= excluded.modified_at`)
	return scope(b.String())
}

// upsertFull is the statement for a full batch, built once; a shorter last
// batch builds its own.
var upsertFull = upsertStatement(upsertBatch)

// PutRecords inserts or updates records, in one transaction, batching rows
// into multi-row statements. An update takes the promoted columns and
// merges the given document into the stored one (its top-level fields
// win; fields only the stored one has, such as sublists a pull does not
// read, stay). It never touches a record whose own write to the ERP is
// pending or failed (the outbox owns it until then), nor one with a newer
// version than the one given.
func (t *Tenant) PutRecords(ctx context.Context, rs []records.Record) error {
	return t.inTx(ctx, func(tx *Tenant) error { return tx.putRecords(ctx, rs) })
}

// putRecords is PutRecords inside the caller's transaction. A record
// given twice is stored as its last version (PostgreSQL refuses an upsert
// that touches one row twice).
func (t *Tenant) putRecords(ctx context.Context, rs []records.Record) error {
	rs = lastOfEach(rs)
	args := make([]any, 0, upsertBatch*14)
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
				r.ModifiedAt.UnixMilli(), string(r.Fields))
		}
		st := upsertFull
		if len(batch) < upsertBatch {
			st = upsertStatement(len(batch))
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
	getRecord        = scope(`SELECT ` + recordColumns + `, write_state, write_error FROM records WHERE tenant_id = :tenant AND kind = ? AND id = ?`)
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

// sortKey is one part of a list's keyset order: its SQL expression (as the
// index has it) and how to read it from a record for the next cursor.
type sortKey struct {
	expr    string
	numeric bool // an integer; real: a floating-point number
	real    bool
	value   func(records.Record) string
}

var (
	keyTitle = sortKey{expr: "title", value: func(r records.Record) string { return r.Title }}
	// sortKeys gives each sortable column its keys, matching an index on
	// (tenant_id, kind, keys..., id). Status sorts by (status, title).
	sortKeys = map[records.Column][]sortKey{
		records.ColTitle:  {keyTitle},
		records.ColCode:   {{expr: "code", value: func(r records.Record) string { return r.Code }}},
		records.ColStatus: {{expr: "status", value: func(r records.Record) string { return r.Status }}, keyTitle},
		records.ColDate:   {{expr: "occurred_on", value: func(r records.Record) string { return r.Date }}},
		records.ColAmount: {{expr: "COALESCE(amount, 0)", numeric: true, value: func(r records.Record) string {
			if r.Amount == nil {
				return "0"
			}
			return strconv.FormatInt(*r.Amount, 10)
		}}},
		records.ColModified: {{expr: "modified_at", numeric: true, value: func(r records.Record) string {
			return strconv.FormatInt(r.ModifiedAt.UnixMilli(), 10)
		}}},
		// References sort by the referenced record's name, kept beside
		// its id (records_parent_name, records_project_name).
		records.ColParent:  {{expr: "parent_name", value: func(r records.Record) string { return r.ParentName }}},
		records.ColProject: {{expr: "project_name", value: func(r records.Record) string { return r.ProjectName }}},
	}
	// filterColumns are the columns a filter may name, with their SQL.
	filterColumns = map[records.Column]string{
		records.ColTitle: "title", records.ColCode: "code", records.ColStatus: "status",
		records.ColParent: "parent_id", records.ColProject: "project_id",
		records.ColAmount: "amount", records.ColDate: "occurred_on",
	}
	comparisons = map[records.Op]string{
		records.OpEq: "=", records.OpNe: "<>", records.OpLt: "<", records.OpLe: "<=", records.OpGt: ">", records.OpGe: ">=",
	}
)

// docExpr is the SQL of an account field's document value as lists
// compare and sort it: a status by its display text, an amount as a
// number, others as text; never NULL (a keyset comparison with NULL would
// skip rows), so a missing value sorts first. name is a checked field id
// (records.CheckAccountField), safe to splice.
func docExpr(name string, t records.FieldType) (expr string, numeric bool) {
	switch t {
	case records.TypeStatus:
		return "COALESCE(json_extract(fields, '$." + name + ".refName'), '')", false
	case records.TypeMoney, records.TypeQuantity:
		return "COALESCE(CAST(json_extract(fields, '$." + name + "') AS DOUBLE PRECISION), 0)", true
	}
	return "COALESCE(json_extract(fields, '$." + name + "'), '')", false
}

// accountFields returns the document fields of a list query's kind.
func accountFields(kind string) []records.Field {
	if k, ok := records.Lookup(kind); ok {
		return k.DocFields()
	}
	return nil
}

// sortKeysOf returns the keys a list sorts on: a promoted column's, or an
// account field's document value (then title, for a stable order).
func sortKeysOf(kind string, c records.Column) ([]sortKey, bool) {
	if keys, ok := sortKeys[c]; ok {
		return keys, true
	}
	name, ok := c.DocField()
	if !ok {
		return nil, false
	}
	for _, f := range accountFields(kind) {
		if f.Name == name && f.Sortable {
			expr, numeric := docExpr(name, f.Type)
			return []sortKey{{expr: expr, real: numeric, value: func(r records.Record) string {
				switch v := r.Extra[name].(type) {
				case float64:
					return strconv.FormatFloat(v, 'g', -1, 64)
				case string:
					return v
				}
				if numeric {
					return "0"
				}
				return ""
			}}}, true
		}
	}
	return nil, false
}

// ListRecords returns one page of a kind's records, keyset-paged on
// (sort keys, id). It fetches Limit+1 rows to learn whether more exist,
// so no count is ever needed. Each record's account field values come
// in Extra.
func (t *Tenant) ListRecords(ctx context.Context, q records.ListQuery) (records.Page, error) {
	text, err := t.textMatch(ctx, q)
	if err != nil {
		return records.Page{}, err
	}
	st, args, keys, err := listStatement(t.d, q, text)
	if err != nil {
		return records.Page{}, err
	}
	rows, err := t.query(ctx, st, args...)
	if err != nil {
		return records.Page{}, fmt.Errorf("list records: %w", err)
	}
	defer rows.Close()
	var page records.Page
	extra := accountFields(q.Kind)
	for rows.Next() {
		r, err := scanListRecord(rows, extra)
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
		c := &records.Cursor{ID: last.ID}
		for _, k := range keys {
			c.Values = append(c.Values, k.value(last))
		}
		page.Next = c
	}
	return page, nil
}

// listStatement builds the page query. Sorted pages without filters, and
// status filters sorted by title, are index ranges (the query-plan test
// holds them to it); other filters walk the sort index within the kind.
func listStatement(d dialect, q records.ListQuery, text predicate) (scoped, []any, []sortKey, error) {
	if q.Sort == "" {
		q.Sort = records.ColTitle
	}
	keys, ok := sortKeysOf(q.Kind, q.Sort)
	if !ok {
		return scoped{}, nil, nil, portal.Errorf(portal.CodeInvalid, "Cannot sort by %q.", q.Sort)
	}
	if q.Limit < 1 || q.Limit > 500 {
		return scoped{}, nil, nil, portal.Errorf(portal.CodeInvalid, "Page size must be between 1 and 500.")
	}
	dir, cmp := "ASC", ">"
	if q.Desc {
		dir, cmp = "DESC", "<"
	}
	where, args, err := whereClause(q, text)
	if err != nil {
		return scoped{}, nil, nil, err
	}
	var exprs, order []string
	for _, k := range keys {
		exprs = append(exprs, k.expr)
		order = append(order, k.expr+" "+dir)
	}
	if q.After != nil {
		if len(q.After.Values) != len(keys) {
			return scoped{}, nil, nil, portal.Errorf(portal.CodeInvalid, "The page cursor does not fit this sort; start from the first page.")
		}
		marks := make([]string, 0, len(keys)+1)
		for i, k := range keys {
			v, err := cursorValue(k, q.After.Values[i])
			if err != nil {
				return scoped{}, nil, nil, err
			}
			marks, args = append(marks, "?"), append(args, v)
		}
		// A row-value comparison, not "a > ? OR (a = ? AND id > ?)": both
		// engines turn it into an index range seek; the OR form scans.
		where = append(where, fmt.Sprintf("(%s, id) %s (%s, ?)", strings.Join(exprs, ", "), cmp, strings.Join(marks, ", ")))
		args = append(args, q.After.ID)
	}
	cols := summaryColumns
	for _, f := range accountFields(q.Kind) {
		cols += ", " + docDisplay(f)
	}
	return scope(fmt.Sprintf(`SELECT %s FROM records WHERE %s ORDER BY %s, id %s LIMIT %d`,
		cols, strings.Join(where, " AND "), strings.Join(order, ", "), dir, q.Limit+1)), args, keys, nil
}

// whereClause is the tenant, kind, filter and text part of a list query;
// text is the predicate textMatch chose for q.Text. Each of the filter's
// parts is its own parenthesised disjunction, ANDed with the rest; a
// filter over the cost bound is refused before any SQL runs.
func whereClause(q records.ListQuery, text predicate) ([]string, []any, error) {
	if err := q.Filter.CheckCost(); err != nil {
		return nil, nil, err
	}
	where := []string{"tenant_id = :tenant", "kind = ?"}
	args := []any{q.Kind}
	for _, part := range q.Filter.Parts() {
		sql, fargs, err := filterSQL(part)
		if err != nil {
			return nil, nil, err
		}
		where, args = append(where, sql), append(args, fargs...)
	}
	if text.sql != "" {
		where, args = append(where, text.sql), append(args, text.args...)
	}
	return where, args, nil
}

// CountMatching counts the records a list query matches (ignoring paging).
// It reads every matching index entry: callers ask only when a user asks.
func (t *Tenant) CountMatching(ctx context.Context, q records.ListQuery) (int64, error) {
	text, err := t.textMatch(ctx, q)
	if err != nil {
		return 0, err
	}
	where, args, err := whereClause(q, text)
	if err != nil {
		return 0, err
	}
	var n int64
	err = t.queryRow(ctx, scope(`SELECT COUNT(*) FROM records WHERE `+strings.Join(where, " AND ")), args...).Scan(&n)
	return n, err
}

// filterSQL compiles one part of a filter (its Any; see whereClause for
// All) to a parenthesised predicate with ? placeholders. Values are
// always bound, never spliced.
func filterSQL(f records.Filter) (string, []any, error) {
	var ors []string
	var args []any
	for _, conj := range f.Any {
		var ands []string
		for _, c := range conj {
			col, ok := filterColumns[c.Column]
			if name, doc := c.Column.DocField(); doc {
				col, ok = docFilterExpr(name, c.Type), true
			}
			if !ok {
				return "", nil, portal.Errorf(portal.CodeInvalid, "Cannot filter on %q.", c.Column)
			}
			switch c.Op {
			case records.OpContains, records.OpStartsWith:
				s, _ := c.Value.(string)
				pattern := escapeLike(strings.ToLower(s)) + "%"
				if c.Op == records.OpContains {
					pattern = "%" + pattern
				}
				ands = append(ands, "LOWER("+col+`) LIKE ? ESCAPE '\'`)
				args = append(args, pattern)
			default:
				op, ok := comparisons[c.Op]
				if !ok {
					return "", nil, portal.Errorf(portal.CodeInvalid, "Unknown operator %q.", c.Op)
				}
				ands = append(ands, col+" "+op+" ?")
				args = append(args, c.Value)
			}
		}
		ors = append(ors, "("+strings.Join(ands, " AND ")+")")
	}
	return "(" + strings.Join(ors, " OR ") + ")", args, nil
}

func escapeLike(s string) string {
	return strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(s)
}

func cursorValue(k sortKey, v string) (any, error) {
	if k.real {
		n, err := strconv.ParseFloat(v, 64)
		if err != nil || math.IsNaN(n) || math.IsInf(n, 0) {
			return nil, portal.Errorf(portal.CodeInvalid, "The page cursor is not valid.")
		}
		return n, nil
	}
	if !k.numeric {
		return v, nil
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		return nil, portal.Errorf(portal.CodeInvalid, "The page cursor is not valid.")
	}
	return n, nil
}

// docDisplay is the SQL that reads an account field's value for a list
// row: a status's display text, others as stored (NULL when missing).
func docDisplay(f records.Field) string {
	if f.Type == records.TypeStatus {
		return "json_extract(fields, '$." + f.Name + ".refName')"
	}
	return "json_extract(fields, '$." + f.Name + "')"
}

// docFilterExpr is the SQL a filter compares an account field by, in the
// units of records.Cond values: hundredths for amounts.
func docFilterExpr(name string, t records.FieldType) string {
	expr, numeric := docExpr(name, t)
	if numeric {
		return "ROUND(" + expr + " * 100)"
	}
	return expr
}

// scanListRecord reads summaryColumns and then the given account fields'
// values (docDisplay) into Extra: amounts as numbers (PostgreSQL gives
// them as text), the rest as text.
func scanListRecord(rows *sql.Rows, extra []records.Field) (records.Record, error) {
	if len(extra) == 0 {
		return scanRecord(rows, false)
	}
	vals := make([]sql.NullString, len(extra))
	r, err := scanRecord(scanWith{rows, vals}, false)
	if err != nil {
		return r, err
	}
	r.Extra = make(map[string]any, len(extra))
	for i, f := range extra {
		var v any
		if vals[i].Valid && vals[i].String != "" {
			v = vals[i].String
			if f.Type == records.TypeMoney || f.Type == records.TypeQuantity {
				n, err := strconv.ParseFloat(vals[i].String, 64)
				if err != nil {
					return r, fmt.Errorf("%s %d: %s is not a number", r.Kind, r.ID, f.Name)
				}
				v = n
			}
		}
		r.Extra[f.Name] = v
	}
	return r, nil
}

// scanWith is a row whose Scan also fills more destinations after the
// ones asked for.
type scanWith struct {
	rows *sql.Rows
	more []sql.NullString
}

func (s scanWith) Scan(dest ...any) error {
	for i := range s.more {
		dest = append(dest, &s.more[i])
	}
	return s.rows.Scan(dest...)
}

// rowScanner is *sql.Row or *sql.Rows.
type rowScanner interface{ Scan(dest ...any) error }

// scanRecord reads summaryColumns, and the document too when withFields.
func scanRecord(s rowScanner, withFields bool) (records.Record, error) {
	var (
		r                 records.Record
		ext               sql.NullString
		parent, proj, amt sql.NullInt64
		modified          int64
		fields            []byte
	)
	dest := []any{&r.Kind, &r.ID, &ext, &r.Title, &r.Code, &r.Status, &parent, &r.ParentName, &proj, &r.ProjectName,
		&amt, &r.Date, &modified}
	if withFields {
		dest = append(dest, &fields, &r.Write.State, &r.Write.Error)
	}
	if err := s.Scan(dest...); err != nil {
		return r, err
	}
	r.ExternalID = ext.String
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

// IndexAccountFields makes sure every account field of the registry
// (records.AddAccountFields) has an index on (tenant, kind, its list
// value, id), the expression lists sort and filter it by, so a sorted
// page of a kind is an index range as for the promoted columns. It is
// idempotent; building one over a large table takes a while, once.
func (s *Store) IndexAccountFields(ctx context.Context) error {
	for _, k := range records.All() {
		for _, f := range k.AccountFields() {
			expr, _ := docExpr(f.Name, f.Type)
			sum := sha256.Sum256([]byte(k.Name + "." + f.Name + "." + string(f.Type)))
			name := fmt.Sprintf("records_af_%x", sum[:8])
			ddl := fmt.Sprintf("CREATE INDEX IF NOT EXISTS %s ON records (tenant_id, kind, (%s), id)", name, expr)
			if _, err := s.db.ExecContext(ctx, ddl); err != nil {
				return fmt.Errorf("index account field %s.%s: %w", k.Name, f.Name, err)
			}
		}
	}
	return nil
}
