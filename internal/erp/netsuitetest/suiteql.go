package netsuitetest

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/portico/portico/internal/jsonenc"
)

// SuiteQL's paging limits.
const (
	maxPageSize = 1000
	// RowCap is the most rows one SuiteQL query can page through
	// (offset + limit); longer reads need narrower queries.
	RowCap = 100_000
)

const maxQueryBody = 1 << 20

// serveSuiteQL answers POST /services/rest/query/v1/suiteql.
func (s *Server) serveSuiteQL(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		writeError(w, newAPIError(http.StatusMethodNotAllowed, "METHOD_NOT_ALLOWED", "SuiteQL queries are run with POST."))
		return
	}
	if !strings.EqualFold(strings.TrimSpace(r.Header.Get("Prefer")), "transient") {
		writeError(w, newAPIError(http.StatusBadRequest, "INVALID_PARAMETER", "SuiteQL requests must carry the header Prefer: transient."))
		return
	}
	limit, offset, aerr := pageParams(r)
	if aerr != nil {
		writeError(w, aerr)
		return
	}
	var body struct {
		Q string `json:"q"`
	}
	raw, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxQueryBody))
	if err != nil || json.Unmarshal(raw, &body) != nil || strings.TrimSpace(body.Q) == "" {
		writeError(w, newAPIError(http.StatusBadRequest, "INVALID_CONTENT", `The request body must be a JSON object {"q": "<SuiteQL query>"}.`))
		return
	}
	out, aerr := s.runQuery(body.Q, limit, offset, baseURL(r)+SuiteQLPath)
	if aerr != nil {
		writeError(w, aerr)
		return
	}
	if fail, truncate := s.faults.pageFault(limit, offset); fail {
		s.stats.pageFaults.Add(1)
		if truncate {
			head := "HTTP/1.1 200 OK\r\nContent-Type: " + contentTypeJSON + "\r\nContent-Length: " +
				strconv.Itoa(len(out)) + "\r\n\r\n"
			drop(w, append([]byte(head), out[:len(out)/2]...))
			return
		}
		writeError(w, newAPIError(http.StatusInternalServerError, "UNEXPECTED_ERROR", "An unexpected error occurred while running the query."))
		return
	}
	writeJSON(w, out)
}

// pageParams reads limit (1..1000, default 1000) and offset (>= 0,
// default 0), refusing pages past the row cap.
func pageParams(r *http.Request) (limit, offset int, _ *apiError) {
	q := r.URL.Query()
	limit, offset = maxPageSize, 0
	if v := q.Get("limit"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > maxPageSize {
			return 0, 0, newAPIError(http.StatusBadRequest, "INVALID_PARAMETER",
				fmt.Sprintf("Invalid value %q for the query parameter limit: it must be an integer from 1 to %d.", v, maxPageSize))
		}
		limit = n
	}
	if v := q.Get("offset"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			return 0, 0, newAPIError(http.StatusBadRequest, "INVALID_PARAMETER",
				fmt.Sprintf("Invalid value %q for the query parameter offset: it must be a non-negative integer.", v))
		}
		offset = n
	}
	if offset > RowCap-limit {
		return 0, 0, newAPIError(http.StatusBadRequest, "INVALID_PARAMETER",
			fmt.Sprintf("The offset %d with limit %d exceeds the limit of %d rows a query can return. Narrow the query instead of paging further.", offset, limit, RowCap))
	}
	return limit, offset, nil
}

func searchError(format string, args ...any) *apiError {
	return newAPIError(http.StatusBadRequest, "INVALID_PARAMETER",
		"Invalid search query. Detailed unprocessed description follows. "+fmt.Sprintf(format, args...))
}

// colKind says where a column's value comes from.
type colKind uint8

const (
	cNone       colKind = iota // not a column of this record type: null
	cID                        // the internal id
	cExt                       // the external id
	cType                      // the table's type discriminator (transaction.type)
	cModified                  // the last-modified time
	cCreated                   // the creation time
	cField                     // a member of the record document
	cDelID                     // deletedrecord.recordid
	cDelType                   // deletedrecord.type
	cDelDate                   // deletedrecord.deleteddate
	cDelName                   // deletedrecord.name
	cDelBy                     // deletedrecord.deletedby
	cDelContext                // deletedrecord.context
)

type colRef struct {
	k     colKind
	field *Field // cField: the field
}

// resolve finds a SuiteQL column of a record type: its system columns
// (id, externalid, the family's created and last-modified columns, a
// transaction's type) and the columns of its fields (account.yaml).
func (ts *typeStore) resolve(col string) colRef {
	sc := ts.schema
	switch {
	case col == "id":
		return colRef{k: cID}
	case col == "externalid":
		return colRef{k: cExt}
	case sc.Family == FamilyTransaction && col == TypeColumn:
		return colRef{k: cType}
	case col == sc.ModifiedColumn():
		return colRef{k: cModified}
	case col == sc.CreatedColumn():
		return colRef{k: cCreated}
	}
	if f, ok := sc.byColumn[col]; ok {
		return colRef{k: cField, field: f}
	}
	return colRef{}
}

// resolveDeleted finds a column of DeletedRecord (account.yaml's [4]).
func resolveDeleted(col string) colRef {
	switch col {
	case "recordid":
		return colRef{k: cDelID}
	case "type":
		return colRef{k: cDelType}
	case "deleteddate":
		return colRef{k: cDelDate}
	case "name":
		return colRef{k: cDelName}
	case "deletedby":
		return colRef{k: cDelBy}
	case "context":
		return colRef{k: cDelContext}
	}
	return colRef{}
}

// unknownIdentifier is SuiteQL's answer to a column the table lacks
// (account.yaml's [1]).
func unknownIdentifier(col, table string) *apiError {
	return searchError("Search error occurred: Unknown identifier '%s'. Available identifiers are: {%s=%s}.", col, table, table)
}

// plan is a query bound to the account: columns numbered, resolved per
// record type.
type plan struct {
	q          *query
	loc        *time.Location
	dateLayout string // the user's date format, as a Go layout
	cols       map[string]int
	items      []int        // the column of each SELECT item
	types      []*typeStore // the table's record types; nil for deletedrecord
	deleted    bool
	static     *static // currency or subsidiary
	stRes      []int   // static: each plan column's column in static
	res        map[*typeStore]*binding
	delRes     []colRef
	where      cnode
	order      []corder
}

// binding is the plan's columns for one record type.
type binding struct {
	refs   []colRef
	fields []fieldCol // the document members to read, in one pass
}

type fieldCol struct {
	name string
	idx  int
}

// cnode is a compiled condition.
type cnode interface{ isCNode() }

type cbool struct {
	or   bool
	args []cnode
}

type ccmp struct {
	idx int
	op  string
	lit value
}

func (*cbool) isCNode() {}
func (*ccmp) isCNode()  {}

type corder struct {
	idx  int
	desc bool
}

// compile binds q to the account. The caller holds a lock.
func (s *Server) compile(q *query) (*plan, *apiError) {
	p := &plan{q: q, loc: s.loc, dateLayout: s.dateLayout, cols: map[string]int{}, res: map[*typeStore]*binding{}}
	if q.table == "deletedrecord" {
		p.deleted = true
	} else if p.static = s.statics[q.table]; p.static == nil {
		if p.types = s.tables[q.table]; p.types == nil {
			return nil, searchError("Search error occurred: Record '%s' was not found.", q.table)
		}
	}
	col := func(name string) int {
		i, ok := p.cols[name]
		if !ok {
			i = len(p.cols)
			p.cols[name] = i
		}
		return i
	}
	for _, it := range q.items {
		p.items = append(p.items, col(it.col))
	}
	p.where = compileNode(q.where, col)
	for _, k := range q.order {
		p.order = append(p.order, corder{idx: col(k.col), desc: k.desc})
	}
	names := make([]string, len(p.cols))
	for n, i := range p.cols {
		names[i] = n
	}
	if p.static != nil {
		p.stRes = make([]int, len(names))
		for i, n := range names {
			c, ok := p.static.cols[n]
			if !ok {
				return nil, unknownIdentifier(n, q.table)
			}
			p.stRes[i] = c
		}
		return p, nil
	}
	if p.deleted {
		p.delRes = make([]colRef, len(names))
		for i, n := range names {
			if p.delRes[i] = resolveDeleted(n); p.delRes[i].k == cNone {
				return nil, unknownIdentifier(n, q.table)
			}
		}
		return p, nil
	}
	known := make([]bool, len(names))
	for _, ts := range p.types {
		b := &binding{refs: make([]colRef, len(names))}
		for i, n := range names {
			ref := ts.resolve(n)
			b.refs[i] = ref
			known[i] = known[i] || ref.k != cNone
			if ref.k == cField {
				b.fields = append(b.fields, fieldCol{ref.field.ID, i})
			}
		}
		p.res[ts] = b
	}
	for i, ok := range known {
		if !ok {
			return nil, unknownIdentifier(names[i], q.table)
		}
	}
	return p, nil
}

func compileNode(n node, col func(string) int) cnode {
	switch n := n.(type) {
	case *boolNode:
		b := &cbool{or: n.or}
		for _, a := range n.args {
			b.args = append(b.args, compileNode(a, col))
		}
		return b
	case *cmpNode:
		return &ccmp{idx: col(n.col), op: n.op, lit: n.lit}
	}
	return nil
}

// row is one candidate row: a record of a type, a deletion, or a row of
// a static table (si, from 1).
type row struct {
	ts *typeStore
	r  *rec
	d  *deletion
	si int
}

// eval reads the values of one row, each at most once and the document
// in at most one pass.
type eval struct {
	p      *plan
	vals   []value
	have   []bool
	loaded bool
	row    row
	b      *binding
}

func newEval(p *plan) *eval {
	return &eval{p: p, vals: make([]value, len(p.cols)), have: make([]bool, len(p.cols))}
}

func (e *eval) reset(rw row) {
	e.row = rw
	e.loaded = false
	clear(e.have)
	if rw.ts != nil {
		e.b = e.p.res[rw.ts]
	}
}

func (e *eval) get(i int) value {
	if e.have[i] {
		return e.vals[i]
	}
	var v value
	if e.row.si > 0 {
		v = e.p.static.rows[e.row.si-1][e.p.stRes[i]]
	} else if d := e.row.d; d != nil {
		switch e.p.delRes[i].k {
		case cDelID:
			v = value{k: vNum, f: float64(d.id)}
		case cDelType:
			v = value{k: vStr, s: d.recType}
		case cDelDate:
			v = value{k: vTime, t: d.at}
		case cDelName:
			if d.name != "" {
				v = value{k: vStr, s: d.name}
			}
		case cDelBy:
			v = value{k: vStr, s: d.by}
		case cDelContext:
			v = value{k: vStr, s: d.context}
		}
	} else {
		r := e.row.r
		switch ref := e.b.refs[i]; ref.k {
		case cID:
			v = value{k: vNum, f: float64(r.id)}
		case cExt:
			if r.ext != "" {
				v = value{k: vStr, s: r.ext}
			}
		case cType:
			v = value{k: vStr, s: e.row.ts.schema.TypeValue}
		case cModified:
			v = value{k: vTime, t: r.mod}
		case cCreated:
			v = value{k: vTime, t: r.created}
		case cField:
			e.loadFields()
			return e.vals[i]
		}
	}
	e.vals[i], e.have[i] = v, true
	return v
}

// loadFields reads every document member the plan needs in one pass.
func (e *eval) loadFields() {
	if e.loaded {
		return
	}
	e.loaded = true
	for _, fc := range e.b.fields {
		e.vals[fc.idx], e.have[fc.idx] = value{}, true
	}
	members(e.row.r.doc, func(k, v []byte) bool {
		for _, fc := range e.b.fields {
			if keyIs(k, fc.name) {
				e.vals[fc.idx] = decodeRaw(v)
			}
		}
		return true
	})
}

func (e *eval) match(n cnode) bool {
	switch n := n.(type) {
	case nil:
		return true
	case *cbool:
		for _, a := range n.args {
			if e.match(a) == n.or {
				return n.or
			}
		}
		return !n.or
	case *ccmp:
		c, ok := compareLit(e.get(n.idx), n.lit, e.p.loc)
		if !ok {
			return false
		}
		switch n.op {
		case "=":
			return c == 0
		case "<>":
			return c != 0
		case ">":
			return c > 0
		case ">=":
			return c >= 0
		case "<":
			return c < 0
		case "<=":
			return c <= 0
		}
	}
	return false
}

// runQuery runs a SuiteQL query and returns the page's JSON document.
func (s *Server) runQuery(text string, limit, offset int, self string) ([]byte, *apiError) {
	q, err := parseQuery(text, s.loc)
	if err != nil {
		return nil, searchError("Search error occurred: %s.", err.Error())
	}
	for {
		s.mu.RLock()
		p, aerr := s.compile(q)
		if aerr != nil {
			s.mu.RUnlock()
			return nil, aerr
		}
		if !slices.ContainsFunc(p.types, func(ts *typeStore) bool { return ts.dirty }) {
			out, aerr := s.execute(p, limit, offset, self)
			s.mu.RUnlock()
			return out, aerr
		}
		// A bulk load left a type unsorted: sort it, then run again.
		s.mu.RUnlock()
		s.mu.Lock()
		for _, ts := range p.types {
			ts.sortIfDirty()
		}
		s.mu.Unlock()
	}
}

// execute runs a compiled plan; the caller holds the read lock and the
// plan's types are sorted.
func (s *Server) execute(p *plan, limit, offset int, self string) ([]byte, *apiError) {
	var (
		page  []row
		total int
	)
	if ts, lo, hi, ok := p.keyset(); ok {
		if ts != nil {
			rng := ts.keyRange(lo, hi)
			total = len(rng)
			for _, r := range rng[min(offset, total):min(offset+limit, total)] {
				page = append(page, row{ts: ts, r: r})
			}
		}
	} else if id, ok := p.point(); ok {
		// WHERE id = n [AND ...]: a lookup, not a scan.
		e := newEval(p)
		for _, ts := range p.types {
			if r := ts.byID[id]; r != nil {
				if e.reset(row{ts: ts, r: r}); e.match(p.where) {
					page = append(page, row{ts: ts, r: r})
				}
			}
		}
		total = len(page)
		page = page[min(offset, total):min(offset+limit, total)]
	} else {
		rows := p.scan(s.deleted)
		total = len(rows)
		page = rows[min(offset, total):min(offset+limit, total)]
	}
	b := make([]byte, 0, 512+len(page)*512)
	hasMore := offset+len(page) < total
	b = appendPageLinks(b, self, limit, offset, total, hasMore)
	b = append(b, `,"count":`...)
	b = strconv.AppendInt(b, int64(len(page)), 10)
	b = append(b, `,"hasMore":`...)
	b = strconv.AppendBool(b, hasMore)
	b = append(b, `,"items":[`...)
	e := newEval(p)
	for i, rw := range page {
		if i > 0 {
			b = append(b, ',')
		}
		e.reset(rw)
		var aerr *apiError
		if b, aerr = s.appendItem(b, e); aerr != nil {
			return nil, aerr
		}
	}
	b = append(b, `],"offset":`...)
	b = strconv.AppendInt(b, int64(offset), 10)
	b = append(b, `,"totalResults":`...)
	b = strconv.AppendInt(b, int64(total), 10)
	return append(b, '}'), nil
}

// appendPageLinks writes a page's "links" member as NetSuite's
// collection paging does, in its order: "previous" and "first" when the
// page is not the first, "next" and "last" when more rows follow, then
// "self". Pages are counted from this page's offset, so an offset that
// is not a multiple of the limit is followed by pages that line up with
// it (previous is clamped at offset 0).
func appendPageLinks(b []byte, self string, limit, offset, total int, hasMore bool) []byte {
	link := func(b []byte, rel string, off int) []byte {
		b = append(b, `{"rel":"`...)
		b = append(b, rel...)
		b = append(b, `","href":`...)
		b = jsonenc.AppendString(b, self+"?limit="+strconv.Itoa(limit)+"&offset="+strconv.Itoa(off))
		return append(b, `},`...)
	}
	b = append(b, `{"links":[`...)
	if offset > 0 {
		b = link(b, "previous", max(offset-limit, 0))
		b = link(b, "first", 0)
	}
	if hasMore {
		b = link(b, "next", offset+limit)
		b = link(b, "last", offset+(total-1-offset)/limit*limit)
	}
	b = link(b, "self", offset)
	b[len(b)-1] = ']'
	return b
}

// appendItem writes one result row: every value a string, null columns
// left out.
func (s *Server) appendItem(b []byte, e *eval) ([]byte, *apiError) {
	b = append(b, `{"links":[]`...)
	for n, it := range e.p.q.items {
		i := e.p.items[n]
		v := e.get(i)
		var (
			text string
			ok   bool
		)
		switch it.fn {
		case fnCol:
			text, ok = v.text(e.p.loc, e.p.dateLayout)
		case fnDF:
			text, ok = s.display(e, i, v)
		case fnToChar:
			if v.k == vNull {
				break
			}
			if v.k != vTime && v.k != vDate {
				return nil, searchError("Search error occurred: TO_CHAR(%s) needs a date or date-time column.", it.col)
			}
			t, _ := v.instant(e.p.loc)
			text, ok = time.Unix(t, 0).In(e.p.loc).Format(it.layout), true
		}
		if !ok {
			continue
		}
		b = append(b, ',')
		b = jsonenc.AppendString(b, it.name)
		b = append(b, ':')
		b = jsonenc.AppendString(b, text)
	}
	return append(b, '}'), nil
}

// display is BUILTIN.DF: a reference's or list value's display name (the
// target record's current title, the list's text), other values as they
// are.
func (s *Server) display(e *eval, i int, v value) (string, bool) {
	if v.k != vRef {
		return v.text(e.p.loc, e.p.dateLayout)
	}
	if e.row.ts != nil {
		if ref := e.b.refs[i]; ref.k == cField {
			switch f := ref.field; f.Type {
			case FieldRef:
				if id, err := strconv.ParseInt(v.s, 10, 64); err == nil {
					if r := s.types[f.Arg].byID[id]; r != nil {
						return r.title, true
					}
				}
			case FieldList:
				if text, ok := s.schema.Lists[f.Arg][v.s]; ok {
					return text, true
				}
			case FieldSelect:
				if name, ok := s.selectName(f.Arg, v.s); ok {
					return name, true
				}
			}
		}
	}
	return v.name, v.name != ""
}

// keyset recognises the incremental-read shape — conditions on the
// modified column (including the keyset disjunction M > t OR (M = t AND
// id > n)) and the table's type filter, ordered by (modified, id) — and
// returns the one record type and the key range (lo, hi] it reads, which
// the sorted index answers directly. ts is nil when the type filter
// matches no type. ok is false for any other shape.
func (p *plan) keyset() (ts *typeStore, lo, hi recKey, ok bool) {
	if p.deleted || p.static != nil || len(p.order) != 2 || p.order[0].desc || p.order[1].desc {
		return nil, lo, hi, false
	}
	types := p.types
	all := func(idx int, k colKind) bool {
		for _, t := range types {
			if p.res[t].refs[idx].k != k {
				return false
			}
		}
		return true
	}
	if !all(p.order[0].idx, cModified) || !all(p.order[1].idx, cID) {
		return nil, lo, hi, false
	}
	var conj []cnode
	switch w := p.where.(type) {
	case nil:
	case *cbool:
		if w.or {
			conj = []cnode{w}
		} else {
			conj = w.args
		}
	default:
		conj = []cnode{w}
	}
	lo, hi = minKey, maxKey
	raise := func(k recKey) {
		if k.cmp(lo) > 0 {
			lo = k
		}
	}
	lower := func(k recKey) {
		if k.cmp(hi) < 0 {
			hi = k
		}
	}
	// Type filters first: the other conditions are checked against the
	// types that remain.
	var rest []cnode
	for _, c := range conj {
		if cc, isCmp := c.(*ccmp); isCmp && cc.op == "=" && cc.lit.k == vStr && all(cc.idx, cType) {
			types = slices.DeleteFunc(slices.Clone(types), func(t *typeStore) bool { return t.schema.TypeValue != cc.lit.s })
			continue
		}
		rest = append(rest, c)
	}
	for _, c := range rest {
		if t, ok := p.modifiedBound(c, types); ok {
			switch c.(*ccmp).op {
			case ">":
				raise(recKey{t, math.MaxInt64})
			case ">=":
				raise(recKey{t - 1, math.MaxInt64})
			case "<":
				lower(recKey{t - 1, math.MaxInt64})
			case "<=":
				lower(recKey{t, math.MaxInt64})
			case "=":
				raise(recKey{t - 1, math.MaxInt64})
				lower(recKey{t, math.MaxInt64})
			default:
				return nil, lo, hi, false
			}
			continue
		}
		k, ok := p.keysetBound(c, types)
		if !ok {
			return nil, lo, hi, false
		}
		raise(k)
	}
	switch len(types) {
	case 0:
		return nil, lo, hi, true
	case 1:
		return types[0], lo, hi, true
	}
	return nil, lo, hi, false
}

// point recognises a condition that names one internal id: id = n,
// alone or in a conjunction.
func (p *plan) point() (int64, bool) {
	if p.deleted || p.static != nil {
		return 0, false
	}
	conj := []cnode{p.where}
	if b, ok := p.where.(*cbool); ok && !b.or {
		conj = b.args
	}
	for _, c := range conj {
		cc, ok := c.(*ccmp)
		if !ok || cc.op != "=" || cc.lit.k != vNum || cc.lit.f != math.Trunc(cc.lit.f) {
			continue
		}
		isID := true
		for _, ts := range p.types {
			isID = isID && p.res[ts].refs[cc.idx].k == cID
		}
		if isID {
			return int64(cc.lit.f), true
		}
	}
	return 0, false
}

// modifiedBound matches "M op TO_TIMESTAMP(...)".
func (p *plan) modifiedBound(c cnode, types []*typeStore) (int64, bool) {
	cc, ok := c.(*ccmp)
	if !ok || cc.lit.k != vTime {
		return 0, false
	}
	for _, t := range types {
		if p.res[t].refs[cc.idx].k != cModified {
			return 0, false
		}
	}
	return cc.lit.t, true
}

// keysetBound matches "M > t OR (M = t AND id > n)" in any order and
// returns the key (t, n) it starts after.
func (p *plan) keysetBound(c cnode, types []*typeStore) (recKey, bool) {
	or, ok := c.(*cbool)
	if !ok || !or.or || len(or.args) != 2 {
		return recKey{}, false
	}
	for _, pair := range [][2]cnode{{or.args[0], or.args[1]}, {or.args[1], or.args[0]}} {
		gt, ok1 := pair[0].(*ccmp)
		and, ok2 := pair[1].(*cbool)
		if !ok1 || !ok2 || and.or || len(and.args) != 2 || gt.op != ">" {
			continue
		}
		t, ok := p.modifiedBound(gt, types)
		if !ok {
			continue
		}
		for _, inner := range [][2]cnode{{and.args[0], and.args[1]}, {and.args[1], and.args[0]}} {
			eq, ok1 := inner[0].(*ccmp)
			idGT, ok2 := inner[1].(*ccmp)
			if !ok1 || !ok2 || eq.op != "=" || idGT.op != ">" || idGT.lit.k != vNum {
				continue
			}
			if t2, ok := p.modifiedBound(eq, types); !ok || t2 != t {
				continue
			}
			n := int64(idGT.lit.f)
			if float64(n) != idGT.lit.f {
				continue
			}
			isID := true
			for _, ts := range types {
				isID = isID && p.res[ts].refs[idGT.idx].k == cID
			}
			if isID {
				return recKey{t, n}, true
			}
		}
	}
	return recKey{}, false
}

// scan evaluates the plan over every row of its table and returns the
// matches in ORDER BY order (ties in (modified, id) order).
func (p *plan) scan(deleted []deletion) []row {
	var rows []row
	e := newEval(p)
	consider := func(rw row) {
		e.reset(rw)
		if e.match(p.where) {
			rows = append(rows, rw)
		}
	}
	if p.static != nil {
		for i := range p.static.rows {
			consider(row{si: i + 1})
		}
	} else if p.deleted {
		for i := range deleted {
			consider(row{d: &deleted[i]})
		}
	} else {
		for _, ts := range p.types {
			for _, r := range ts.order {
				consider(row{ts: ts, r: r})
			}
		}
	}
	if len(p.order) == 0 {
		return rows
	}
	keys := make([][]value, len(rows))
	for i, rw := range rows {
		e.reset(rw)
		keys[i] = make([]value, len(p.order))
		for j, o := range p.order {
			keys[i][j] = e.get(o.idx)
		}
	}
	idx := make([]int, len(rows))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int {
		for j, o := range p.order {
			c := compareOrder(keys[a][j], keys[b][j])
			if o.desc {
				c = -c
			}
			if c != 0 {
				return c
			}
		}
		return 0
	})
	out := make([]row, len(rows))
	for i, j := range idx {
		out[i] = rows[j]
	}
	return out
}
