package sqlstore

import (
	"context"
	"database/sql"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/portico/portico/internal/portal"
	"github.com/portico/portico/internal/records"
)

// List queries: one page of a kind's records, keyset-paged on any sortable
// field (a promoted column, a reference by the referenced record's name,
// a document field) and filtered on any field. Every sort is a walk of an
// index: the promoted columns' (migrations 0001 and 0020) or a document
// field's (IndexDocumentFields, partial per kind). Counts and totals of a
// list's whole result are in summary.go.

// keyType is how a sort key's value compares: as text, an integer or a
// floating-point number.
type keyType int

const (
	keyText keyType = iota
	keyInt
	keyReal
)

// sortKey is one part of a list's keyset order: its SQL expression (as the
// index has it), its type, and, for a promoted column, the column it is
// and how to read it from a record for the next cursor; a key without one
// is selected by the list query itself.
type sortKey struct {
	expr  string
	typ   keyType
	col   records.Column
	value func(records.Record) string
}

var (
	keyTitle = sortKey{expr: "title", col: records.ColTitle, value: func(r records.Record) string { return r.Title }}
	// sortKeys gives each sortable promoted column its keys, matching an
	// index on (tenant_id, kind, keys..., id). Status sorts by (status,
	// title); a reference by the referenced record's name.
	sortKeys = map[records.Column][]sortKey{
		records.ColTitle: {keyTitle},
		records.ColCode:  {{expr: "code", col: records.ColCode, value: func(r records.Record) string { return r.Code }}},
		records.ColStatus: {{expr: "status", col: records.ColStatus, value: func(r records.Record) string { return r.Status }},
			keyTitle},
		records.ColDate: {{expr: "occurred_on", col: records.ColDate, value: func(r records.Record) string { return r.Date }}},
		records.ColAmount: {{expr: "COALESCE(amount, 0)", typ: keyInt, col: records.ColAmount, value: func(r records.Record) string {
			if r.Amount == nil {
				return "0"
			}
			return strconv.FormatInt(*r.Amount, 10)
		}}},
		records.ColModified: {{expr: "modified_at", typ: keyInt, col: records.ColModified, value: func(r records.Record) string {
			return strconv.FormatInt(r.ModifiedAt.UnixMilli(), 10)
		}}},
		records.ColParent:  {{expr: "parent_name", col: records.ColParent, value: func(r records.Record) string { return r.ParentName }}},
		records.ColProject: {{expr: "project_name", col: records.ColProject, value: func(r records.Record) string { return r.ProjectName }}},
	}
	// listColumnSQL is the SQL of each promoted column a list row reads
	// (rowScan's destinations, in the same order).
	listColumnSQL = map[records.Column]string{
		records.ColTitle: "title", records.ColCode: "code", records.ColStatus: "status",
		records.ColParent: "parent_id, parent_name", records.ColProject: "project_id, project_name",
		records.ColAmount: "amount", records.ColDate: "occurred_on", records.ColModified: "modified_at",
		records.ColCurrency: "currency",
	}
	// allListColumns are what a list query reads when it names no columns.
	allListColumns = []records.Column{records.ColTitle, records.ColCode, records.ColStatus, records.ColParent,
		records.ColProject, records.ColAmount, records.ColDate, records.ColModified, records.ColCurrency}
	// filterColumns are the promoted columns a filter may name, with their SQL.
	filterColumns = map[records.Column]string{
		records.ColTitle: "title", records.ColCode: "code", records.ColStatus: "status",
		records.ColParent: "parent_id", records.ColProject: "project_id",
		records.ColAmount: "amount", records.ColDate: "occurred_on", records.ColID: "id",
	}
	comparisons = map[records.Op]string{
		records.OpEq: "=", records.OpNe: "<>", records.OpLt: "<", records.OpLe: "<=", records.OpGt: ">", records.OpGe: ">=",
	}
)

// listKind returns the tenant's kind a query names (with its account's
// fields), or an invalid-query error. Its name is spliced into list
// statements, as "kind = '<name>'", so that a document field's index,
// which is partial (one per kind), can serve them: only the registry's
// names (lower-case letters and _) reach one.
func (d dialect) listKind(name string) (*records.Kind, error) {
	reg := d.kinds
	if reg == nil {
		reg = records.Code()
	}
	k, ok := reg.Lookup(name)
	if !ok || strings.ContainsFunc(name, func(r rune) bool { return r != '_' && (r < 'a' || r > 'z') }) {
		return nil, portal.Errorf(portal.CodeInvalid, "Unknown record type %q.", name)
	}
	return k, nil
}

// kindIs is the predicate "the row is of kind k", with k's name spliced.
func kindIs(k *records.Kind) string { return "kind = '" + k.Name + "'" }

// docField returns k's document field on column c.
func docField(k *records.Kind, c records.Column) (records.Field, bool) {
	name, ok := c.DocField()
	if !ok {
		return records.Field{}, false
	}
	f, ok := k.FieldNamed(name)
	return f, ok && f.Doc()
}

// The SQL of document fields. A field's name is a checked field id (lower
// case letters, digits and _: records' registry and CheckAccountField),
// safe to splice into a JSON path.

// docPath is the JSON path literal of a document member, or of a member
// of it (a list value's refName).
func docPath(name, member string) string {
	if member != "" {
		name += "." + member
	}
	return "'$." + name + "'"
}

// docNumber is a document member as a number, NULL when missing (0 on
// SQLite, NULL on PostgreSQL when it is not a number: both sort, compare
// and total as 0 behind COALESCE).
func (d dialect) docNumber(name string) string { return fmt.Sprintf(d.number, docPath(name, "")) }

// docSortExpr is the SQL a list sorts a document field by, as its index
// holds it: a list value or reference by its display text, a number as a
// number, a boolean as 1 or 0, the rest as text. It is never NULL (a
// keyset comparison with NULL would skip rows): a missing value sorts
// first, as "", 0 or false.
func (d dialect) docSortExpr(f records.Field) (string, keyType) {
	switch {
	case f.Named():
		return "COALESCE(json_extract(fields, " + docPath(f.Name, "refName") + "), '')", keyText
	case f.Type.Numeric():
		return "COALESCE(" + d.docNumber(f.Name) + ", 0)", keyReal
	case f.Type == records.TypeBoolean:
		return "CASE WHEN CAST(json_extract(fields, " + docPath(f.Name, "") + ") AS TEXT) IN ('1', 'true', 'T') THEN 1 ELSE 0 END", keyInt
	}
	return "COALESCE(CAST(json_extract(fields, " + docPath(f.Name, "") + ") AS TEXT), '')", keyText
}

// docReadExprs are the SQL a list row reads a document field's value by:
// a reference's id and name, a list value's name, else the member as
// stored (records.Field.FromText reads them).
func docReadExprs(f records.Field) []string {
	switch {
	case f.Type == records.TypeRef:
		return []string{"json_extract(fields, " + docPath(f.Name, "id") + ")", "json_extract(fields, " + docPath(f.Name, "refName") + ")"}
	case f.Named():
		return []string{"json_extract(fields, " + docPath(f.Name, "refName") + ")"}
	}
	return []string{"json_extract(fields, " + docPath(f.Name, "") + ")"}
}

// sortKeysOf returns the keys a list of kind k sorts on by column c: a
// promoted column's, or a sortable document field's value.
func (d dialect) sortKeysOf(k *records.Kind, c records.Column) ([]sortKey, bool) {
	if keys, ok := sortKeys[c]; ok {
		return keys, true
	}
	f, ok := docField(k, c)
	if !ok || !f.Sortable {
		return nil, false
	}
	expr, typ := d.docSortExpr(f)
	return []sortKey{{expr: expr, typ: typ}}, true
}

// listPlan is a page query and how to read its rows: the id, the
// promoted columns read (cols, then external_id when ext), then each read
// document field's expressions, then the sort keys the query selects
// (those without a value function).
type listPlan struct {
	st    scoped
	args  []any
	kind  string
	keys  []sortKey
	cols  []records.Column
	ext   bool
	reads []records.Field
}

// pageColumns are the promoted columns a list query reads: those it
// names and those of its sort keys, or all of them (and the external id)
// when it names none.
func pageColumns(q records.ListQuery, keys []sortKey) (cols []records.Column, ext bool) {
	if q.Columns == nil {
		return allListColumns, true
	}
	cols = make([]records.Column, 0, len(q.Columns)+len(keys))
	add := func(c records.Column) {
		if _, ok := listColumnSQL[c]; ok && !slices.Contains(cols, c) {
			cols = append(cols, c)
		}
	}
	for _, c := range q.Columns {
		add(c)
	}
	for _, k := range keys {
		add(k.col)
	}
	return cols, false
}

// readFields are the document fields a list query reads: those it names,
// or every one of the kind's.
func readFields(k *records.Kind, names []string) []records.Field {
	if names == nil {
		return k.DocFields()
	}
	var out []records.Field
	for _, n := range names {
		if f, ok := k.FieldNamed(n); ok && f.Doc() {
			out = append(out, f)
		}
	}
	return out
}

// ListRecords returns one page of a kind's records, keyset-paged on
// (sort keys, id). It fetches Limit+1 rows to learn whether more exist,
// so no count is ever needed. The values of the document fields the query
// asks for (all the kind's when it names none) come in Extra, typed as
// records.Field.FromText makes them.
func (t *Tenant) ListRecords(ctx context.Context, q records.ListQuery) (records.Page, error) {
	text, err := t.textMatch(ctx, q)
	if err != nil {
		return records.Page{}, err
	}
	if text.byName != nil && sortsByName(q) && q.Filter.Conditions() == 0 {
		text = text.byName(q.Desc, q.After, q.Limit+1)
	}
	d, err := t.planFollowed(ctx, q)
	if err != nil {
		return records.Page{}, err
	}
	p, err := listStatement(d, q, text)
	if err != nil {
		return records.Page{}, err
	}
	rows, err := t.query(ctx, p.st, p.args...)
	if err != nil {
		return records.Page{}, fmt.Errorf("list records: %w", err)
	}
	defer rows.Close()
	// Room for the whole page: growing it row by row copied each record
	// (a few hundred bytes) about twice.
	page := records.Page{Records: make([]records.Record, 0, q.Limit+1)}
	keyVals := make([][]string, 0, q.Limit+1) // the selected sort keys of each row
	scan := p.newScan()
	for rows.Next() {
		r, kv, err := scan.scan(rows)
		if err != nil {
			return records.Page{}, err
		}
		page.Records, keyVals = append(page.Records, r), append(keyVals, kv)
	}
	if err := rows.Err(); err != nil {
		return records.Page{}, fmt.Errorf("list records: %w", err)
	}
	if len(page.Records) > q.Limit {
		page.Records = page.Records[:q.Limit]
		page.HasMore = true
		last, selected := page.Records[q.Limit-1], keyVals[q.Limit-1]
		c := &records.Cursor{ID: last.ID}
		for _, k := range p.keys {
			if k.value != nil {
				c.Values = append(c.Values, k.value(last))
			} else {
				c.Values, selected = append(c.Values, selected[0]), selected[1:]
			}
		}
		page.Next = c
	}
	return page, nil
}

// sortsByName reports whether q's page is in name order (its default).
func sortsByName(q records.ListQuery) bool { return q.Sort == "" || q.Sort == records.ColTitle }

// rowScan is where a list query's rows are scanned to: one set of
// destinations, reused row after row.
type rowScan struct {
	p             *listPlan
	r             records.Record
	n             nullColumns
	modified      int64
	readsModified bool
	more          []sql.NullString // the document fields' values, then the selected sort keys
	dest          []any
}

func (p *listPlan) newScan() *rowScan {
	s := &rowScan{p: p}
	s.dest = append(s.dest, &s.r.ID)
	for _, c := range p.cols {
		switch c {
		case records.ColTitle:
			s.dest = append(s.dest, &s.r.Title)
		case records.ColCode:
			s.dest = append(s.dest, &s.r.Code)
		case records.ColStatus:
			s.dest = append(s.dest, &s.r.Status)
		case records.ColParent:
			s.dest = append(s.dest, &s.n.parent, &s.r.ParentName)
		case records.ColProject:
			s.dest = append(s.dest, &s.n.proj, &s.r.ProjectName)
		case records.ColAmount:
			s.dest = append(s.dest, &s.n.amt)
		case records.ColDate:
			s.dest = append(s.dest, &s.r.Date)
		case records.ColModified:
			s.dest, s.readsModified = append(s.dest, &s.modified), true
		case records.ColCurrency:
			s.dest = append(s.dest, &s.r.Currency)
		}
	}
	if p.ext {
		s.dest = append(s.dest, &s.n.ext)
	}
	n := 0
	for _, f := range p.reads {
		n += len(docReadExprs(f))
	}
	for _, k := range p.keys {
		if k.value == nil {
			n++
		}
	}
	s.more = make([]sql.NullString, n)
	for i := range s.more {
		s.dest = append(s.dest, &s.more[i])
	}
	return s
}

// scan reads the current row: the record, with its document fields'
// values in Extra, and the values of the sort keys the query selected.
func (s *rowScan) scan(rows *sql.Rows) (records.Record, []string, error) {
	if err := rows.Scan(s.dest...); err != nil {
		return records.Record{}, nil, err
	}
	r := s.r
	r.Kind = s.p.kind
	s.n.fill(&r)
	if s.readsModified {
		r.ModifiedAt = time.UnixMilli(s.modified).UTC()
	}
	i := 0
	if len(s.p.reads) > 0 {
		r.Extra = make(map[string]any, len(s.p.reads))
	}
	for _, f := range s.p.reads {
		if f.Type == records.TypeRef {
			r.Extra[f.Name] = f.FromText(s.more[i+1].String, s.more[i].String)
			i += 2
			continue
		}
		r.Extra[f.Name] = f.FromText(s.more[i].String, "")
		i++
	}
	var keys []string
	for _, v := range s.more[i:] {
		keys = append(keys, v.String)
	}
	return r, keys, nil
}

// listStatement builds the page query. Sorted pages without filters, and
// status filters sorted by title, are index ranges (the query-plan tests
// hold them to it); other filters walk the sort index within the kind.
func listStatement(d dialect, q records.ListQuery, text predicate) (listPlan, error) {
	k, err := d.listKind(q.Kind)
	if err != nil {
		return listPlan{}, err
	}
	if q.Sort == "" {
		q.Sort = records.ColTitle
	}
	keys, ok := d.sortKeysOf(k, q.Sort)
	if !ok {
		return listPlan{}, portal.Errorf(portal.CodeInvalid, "Cannot sort by %q.", q.Sort)
	}
	if q.Limit < 1 || q.Limit > 500 {
		return listPlan{}, portal.Errorf(portal.CodeInvalid, "Page size must be between 1 and 500.")
	}
	dir, cmp := "ASC", ">"
	if q.Desc {
		dir, cmp = "DESC", "<"
	}
	where, args, err := whereClause(d, k, q, text)
	if err != nil {
		return listPlan{}, err
	}
	var exprs, order []string
	for _, key := range keys {
		exprs = append(exprs, key.expr)
		order = append(order, key.expr+" "+dir)
	}
	if q.After != nil {
		if len(q.After.Values) != len(keys) {
			return listPlan{}, portal.Errorf(portal.CodeInvalid, "The page cursor does not fit this sort; start from the first page.")
		}
		marks := make([]string, 0, len(keys)+1)
		for i, key := range keys {
			v, err := cursorValue(key, q.After.Values[i])
			if err != nil {
				return listPlan{}, err
			}
			marks, args = append(marks, "?"), append(args, v)
		}
		// A row-value comparison, not "a > ? OR (a = ? AND id > ?)": both
		// engines turn it into an index range seek; the OR form scans.
		where = append(where, fmt.Sprintf("(%s, id) %s (%s, ?)", strings.Join(exprs, ", "), cmp, strings.Join(marks, ", ")))
		args = append(args, q.After.ID)
	}
	p := listPlan{args: args, kind: k.Name, keys: keys, reads: readFields(k, q.Fields)}
	p.cols, p.ext = pageColumns(q, keys)
	cols := []string{"id"}
	for _, c := range p.cols {
		cols = append(cols, listColumnSQL[c])
	}
	if p.ext {
		cols = append(cols, "external_id")
	}
	for _, f := range p.reads {
		cols = append(cols, docReadExprs(f)...)
	}
	for _, key := range keys {
		if key.value == nil {
			cols = append(cols, key.expr)
		}
	}
	p.st = scope(fmt.Sprintf(`SELECT %s FROM records WHERE %s ORDER BY %s, id %s LIMIT %d`,
		strings.Join(cols, ", "), strings.Join(where, " AND "), strings.Join(order, ", "), dir, q.Limit+1))
	return p, nil
}

// whereClause is the tenant, kind, filter and text part of a list query
// of kind k; text is the predicate textMatch chose for q.Text. Each of the
// filter's parts is its own parenthesised disjunction, ANDed with the
// rest; a filter over the cost bound is refused before any SQL runs.
func whereClause(d dialect, k *records.Kind, q records.ListQuery, text predicate) ([]string, []any, error) {
	if err := q.Filter.CheckCost(); err != nil {
		return nil, nil, err
	}
	where := []string{"tenant_id = :tenant", kindIs(k)}
	var args []any
	for _, part := range q.Filter.Parts() {
		sql, fargs, err := filterSQL(d, k, part)
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
// It reads every matching index entry, so no request calls it (lists
// answer Summarize's bounded count); the benchmark labels its cases with
// it.
func (t *Tenant) CountMatching(ctx context.Context, q records.ListQuery) (int64, error) {
	k, err := t.d.listKind(q.Kind)
	if err != nil {
		return 0, err
	}
	text, err := t.textMatch(ctx, q)
	if err != nil {
		return 0, err
	}
	where, args, err := whereClause(t.d, k, q, text)
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
func filterSQL(d dialect, k *records.Kind, f records.Filter) (string, []any, error) {
	var ors []string
	var args []any
	for _, conj := range f.Any {
		var ands []string
		for _, c := range conj {
			sql, cargs, err := conditionSQL(d, k, c)
			if err != nil {
				return "", nil, err
			}
			ands, args = append(ands, sql), append(args, cargs...)
		}
		ors = append(ors, "("+strings.Join(ands, " AND ")+")")
	}
	return "(" + strings.Join(ors, " OR ") + ")", args, nil
}

// conditionSQL compiles one condition: a promoted column as stored; a
// document field by its sort expression, in the units of records.Cond's
// values (hundredths for money and quantities, 1 and 0 for booleans), a
// reference by its id.
func conditionSQL(d dialect, k *records.Kind, c records.Cond) (string, []any, error) {
	col, ok := filterColumns[c.Column]
	value := c.Value
	f, doc := docField(k, c.Column)
	if doc {
		ok = true
		col, _ = d.docSortExpr(f)
		switch {
		case f.Type == records.TypeRef:
			if c.Op != records.OpEq && c.Op != records.OpNe && c.Op != records.OpIn {
				return "", nil, portal.Errorf(portal.CodeInvalid, "Compare %s with eq or ne.", f.Name)
			}
			col = refIDSQL(docPath(f.Name, "id"))
			id, _ := value.(int64)
			value = strconv.FormatInt(id, 10)
			if c.Op == records.OpEq && d.walkFollowed[ownedKey(k, value.(string))] {
				col = fmt.Sprintf(d.unindexed, col)
			}
		case f.Type == records.TypeMoney || f.Type == records.TypeQuantity:
			col = "ROUND(" + col + " * 100)"
		case f.Type == records.TypeBoolean:
			value = 0
			if b, _ := c.Value.(bool); b {
				value = 1
			}
		}
	}
	if !ok {
		return "", nil, portal.Errorf(portal.CodeInvalid, "Cannot filter on %q.", c.Column)
	}
	if within, ok := c.Value.(records.Within); ok && c.Op == records.OpIn {
		if owner, ok := projectOwned(c, within); ok {
			return projectOwnerSQL(d, owner), []any{owner}, nil
		}
		outer := "records." + col
		if doc {
			outer = "CAST(json_extract(records.fields, " + docPath(f.Name, "id") + ") AS INTEGER)"
		}
		return withinSQL(d, col, outer, doc, within)
	}
	if c.Op == records.OpIn {
		ids, _ := c.Value.([]int64)
		if len(ids) == 0 {
			return "1 = 0", nil, nil
		}
		args := make([]any, len(ids))
		for i, id := range ids {
			args[i] = id
			if doc { // a document reference, compared as text (above)
				args[i] = strconv.FormatInt(id, 10)
			}
		}
		return col + " IN (" + strings.TrimSuffix(strings.Repeat("?, ", len(ids)), ", ") + ")", args, nil
	}
	switch c.Op {
	case records.OpContains, records.OpStartsWith:
		s, _ := value.(string)
		pattern := escapeLike(strings.ToLower(s)) + "%"
		if c.Op == records.OpContains {
			pattern = "%" + pattern
		}
		return d.like("LOWER(" + col + ")"), []any{pattern}, nil
	}
	op, ok := comparisons[c.Op]
	if !ok {
		return "", nil, portal.Errorf(portal.CodeInvalid, "Unknown operator %q.", c.Op)
	}
	return col + " " + op + " ?", []any{value}, nil
}

// withinSQL compiles a reference being one of the records a Within
// matches (col, or outer: the same as the listed row's id, qualified
// by its table) to a subquery over the referenced kind, which its own
// filter's index answers: col IN (SELECT id ...), the id as text for a
// document reference (compared as text, see conditionSQL); unindexed when
// the list walks its own sort (dialect.walkFollowed). When the referenced
// records are very many (dialect.correlated), it is an EXISTS instead,
// correlated on the row's reference: each row walked is checked by one
// look-up of the record it references, where IN gathered all the
// referenced records' ids first, on every page (a manager's 50,000
// projects at a million, for a page of the invoices of a few of them).
func withinSQL(d dialect, col, outer string, doc bool, w records.Within) (string, []any, error) {
	tk, err := d.listKind(w.Kind)
	if err != nil {
		return "", nil, err
	}
	where := []string{"tenant_id = :tenant", kindIs(tk)}
	var args []any
	for _, part := range w.Filter.Parts() {
		sql, pargs, err := filterSQL(d, tk, part)
		if err != nil {
			return "", nil, err
		}
		where, args = append(where, sql), append(args, pargs...)
	}
	if d.correlated[followedKey(w)] {
		// The referenced table is named w, so that the unqualified columns
		// of its filter are its own and "records." is the listed row.
		return "EXISTS (SELECT 1 FROM records w WHERE id = " + outer + " AND " + strings.Join(where, " AND ") + ")", args, nil
	}
	id := "id"
	if doc {
		id = "CAST(id AS TEXT)"
	}
	if d.walkFollowed[followedKey(w)] {
		col = fmt.Sprintf(d.unindexed, col)
	}
	return col + " IN (SELECT " + id + " FROM records WHERE " + strings.Join(where, " AND ") + ")", args, nil
}

func escapeLike(s string) string { return likeEscaper.Replace(s) }

// likeEscaper escapes LIKE's wildcards and its escape character; built
// once (a Replacer builds its tables on first use, and is safe for
// concurrent use).
var likeEscaper = strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`)

func cursorValue(k sortKey, v string) (any, error) {
	switch k.typ {
	case keyReal:
		n, err := strconv.ParseFloat(v, 64)
		if err != nil || math.IsNaN(n) || math.IsInf(n, 0) {
			return nil, portal.Errorf(portal.CodeInvalid, "The page cursor is not valid.")
		}
		return n, nil
	case keyInt:
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return nil, portal.Errorf(portal.CodeInvalid, "The page cursor is not valid.")
		}
		return n, nil
	}
	return v, nil
}
