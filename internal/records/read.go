package records

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/portico/portico/internal/portal"
)

// The read use cases, beside the writes (Kind.Save): a page of a list,
// the whole of a list, a record's related tab, a report. Handlers parse
// the request, check the role and write the answer; what is read, in
// which order, counted and totalled is decided here.

// ReadStore is what lists, tabs and reports read from the store.
type ReadStore interface {
	ListRecords(ctx context.Context, q ListQuery) (Page, error)
	Tallier
}

// ListRequest is what a list call asks on top of its saved list, as
// sent (the list call's query parameters): columns (comma-separated
// field names), filter (ParseFilter's grammar), sort (a sortable field)
// and dir (asc, desc), pageSize (1–500, default 50), text (the q= search),
// cursor (a page's NextCursor), count and totals.
type ListRequest struct {
	Columns, Filter, Sort, Dir, PageSize, Text, Cursor string
	Count, Totals                                      bool
}

// ListRef names the saved list a page comes from.
type ListRef struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

// ListPage is one page of a list, as the list call answers it. Total
// (count=true) and Totals (totals=true: the sum of each summable column
// over the whole result, by field name, per unit: UnitTotal) are exact unless TotalEstimated
// or TotalsEstimated says they are estimates (see Summary).
type ListPage struct {
	List            ListRef                `json:"list"`
	Columns         []ColumnInfo           `json:"columns"`
	Rows            RecordRows             `json:"rows"`
	HasMore         bool                   `json:"hasMore"`
	NextCursor      *string                `json:"nextCursor"`
	Total           *int64                 `json:"total,omitempty"`
	TotalEstimated  bool                   `json:"totalEstimated,omitempty"`
	Totals          map[string][]UnitTotal `json:"totals,omitzero"` // {} when totals were asked for and no column is summable
	TotalsEstimated *bool                  `json:"totalsEstimated,omitempty"`
}

// DefaultPageSize is a list page's size when the call names none.
const DefaultPageSize = 50

// Query resolves a list call: saved list cfg (or a report) with req's
// overrides. It returns the list as answered (its columns) and the
// store's query: cfg's filter and req's, each kept whole; req's sort,
// else cfg's, else the kind's DefaultSort. A saved filter that no longer
// parses (a field since removed) is dropped, but one over the cost bound
// is refused, never dropped: the list would show what its filter hides.
func (k *Kind) Query(cfg ListConfig, req ListRequest) (ListConfig, ListQuery, error) {
	lq := ListQuery{Kind: k.Name, Limit: DefaultPageSize}
	if req.Columns != "" {
		cols := strings.Split(req.Columns, ",")
		if msgs := k.CheckColumns(cols); len(msgs) > 0 {
			return cfg, lq, portal.Invalid(msgs[0], portal.FieldError{Field: "columns", Message: strings.Join(msgs, " ")})
		}
		cfg.Columns = cols
	}
	switch saved, err := ParseFilter(k, cfg.Filter); {
	case errors.Is(err, ErrTooManyConditions):
		return cfg, lq, err
	case err == nil:
		lq.Filter = saved
	}
	extra, err := ParseFilter(k, req.Filter)
	if err != nil {
		return cfg, lq, err
	}
	// (saved) AND (request), each kept whole; the store holds the query
	// to the cost bound (Filter.CheckCost) before any SQL runs.
	lq.Filter = lq.Filter.And(extra)
	sort := cfg.Sort
	if sort.Field == "" {
		sort = k.DefaultSort
	}
	if req.Sort != "" {
		sort = SortSpec{Field: req.Sort, Dir: "asc"}
	}
	if req.Dir != "" {
		sort.Dir = req.Dir
	}
	f, ok := k.FieldNamed(sort.Field)
	if !ok || !f.Sortable {
		return cfg, lq, portal.Invalid(fmt.Sprintf("Cannot sort %s by %q.", strings.ToLower(k.Plural), sort.Field),
			portal.FieldError{Field: "sort", Message: "Not a sortable column."})
	}
	lq.Sort = f.Column
	switch sort.Dir {
	case "", "asc":
	case "desc":
		lq.Desc = true
	default:
		return cfg, lq, portal.Invalid("Sort direction is asc or desc.", portal.FieldError{Field: "dir", Message: "Use asc or desc."})
	}
	if req.PageSize != "" {
		n, err := strconv.Atoi(req.PageSize)
		if err != nil || n < 1 || n > 500 {
			return cfg, lq, portal.Invalid("Page size must be a number from 1 to 500.", portal.FieldError{Field: "pageSize", Message: "1 to 500."})
		}
		lq.Limit = n
	}
	if v := strings.TrimSpace(req.Text); v != "" {
		if len(v) > 200 {
			return cfg, lq, portal.Invalid("The search text is longer than 200 characters.", portal.FieldError{Field: "q", Message: "At most 200 characters."})
		}
		lq.Text = v
	}
	if req.Cursor != "" {
		c, err := DecodeCursor(req.Cursor)
		if err != nil {
			return cfg, lq, err
		}
		lq.After = c
	}
	lq.Fields, lq.Columns = k.readNames(cfg.Columns)
	return cfg, lq, nil
}

// readNames are the document fields and the promoted columns among the
// named columns (never nil: a list reads nothing it does not show), and
// the record's currency when one of them is money.
func (k *Kind) readNames(cols []string) (docs []string, promoted []Column) {
	docs, promoted = []string{}, []Column{}
	money := false
	for _, c := range cols {
		f, ok := k.FieldNamed(c)
		switch {
		case !ok:
			continue
		case f.Doc():
			docs = append(docs, c)
		default:
			promoted = append(promoted, f.Column)
		}
		money = money || k.UnitOf(f).Currency
	}
	if money {
		promoted = append(promoted, ColCurrency)
	}
	return docs, promoted
}

// List answers one page of saved list cfg with req's overrides, narrowed
// by scope (a page's own condition, such as one project's records),
// with its count and totals when req asks.
func (k *Kind) List(ctx context.Context, st ReadStore, cfg ListConfig, req ListRequest, scope Filter) (ListPage, error) {
	cfg, lq, err := k.Query(cfg, req)
	if err != nil {
		return ListPage{}, err
	}
	lq.Filter = lq.Filter.And(scope) // the store refuses a query over the cost bound
	cols := k.Columns(cfg.Columns)
	page, err := st.ListRecords(ctx, lq)
	if err != nil {
		return ListPage{}, err
	}
	ans := ListPage{List: ListRef{cfg.ID, cfg.Name}, Columns: cols, Rows: k.RecordRows(page.Records, cols), HasMore: page.HasMore}
	if page.Next != nil {
		c := page.Next.Encode()
		ans.NextCursor = &c
	}
	if !req.Count && !req.Totals {
		return ans, nil
	}
	sq := SummaryQuery{List: lq, Count: req.Count}
	if req.Totals {
		for _, c := range cols {
			if f, _ := k.FieldNamed(c.Name); f.Summable {
				sq.Sum = append(sq.Sum, f)
			}
		}
	}
	sum, err := st.Summarize(ctx, sq)
	if err != nil {
		return ListPage{}, err
	}
	if req.Count {
		ans.Total, ans.TotalEstimated = &sum.Total, sum.TotalEstimated
	}
	if req.Totals {
		ans.Totals, ans.TotalsEstimated = map[string][]UnitTotal{}, &sum.TotalsEstimated
		for name, v := range sum.Totals {
			ans.Totals[name] = v
		}
	}
	return ans, nil
}

// Rows renders records as rows of the given columns; never nil.
func (k *Kind) Rows(rs []Record, cols []ColumnInfo) []Row {
	out := make([]Row, 0, len(rs))
	for _, r := range rs {
		out = append(out, k.Row(r, cols))
	}
	return out
}

// ExportPageSize is how many records Export reads a time.
const ExportPageSize = 500

// Export reads the whole result of saved list cfg with req's overrides
// (not a page of it), narrowed by scope, ExportPageSize records a time:
// it calls begin with the list as answered and its columns once the
// first page is read (an error before then means nothing was given),
// then each with every record's row, until the end or the context's.
func (k *Kind) Export(ctx context.Context, st ReadStore, cfg ListConfig, req ListRequest, scope Filter,
	begin func(ListConfig, []ColumnInfo), each func(Row)) error {
	req.Cursor, req.PageSize = "", ""
	cfg, lq, err := k.Query(cfg, req)
	if err != nil {
		return err
	}
	lq.Filter, lq.Limit = lq.Filter.And(scope), ExportPageSize
	cols := k.Columns(cfg.Columns)
	page, err := st.ListRecords(ctx, lq)
	if err != nil {
		return err
	}
	begin(cfg, cols)
	for {
		for _, rec := range page.Records {
			each(k.Row(rec, cols))
		}
		if !page.HasMore {
			return nil
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		lq.After = page.Next
		if page, err = st.ListRecords(ctx, lq); err != nil {
			return err
		}
	}
}

// TabPage is the rows of one tab of a record page.
type TabPage struct {
	Columns []ColumnInfo `json:"columns"`
	Rows    []Row        `json:"rows"`
	HasMore bool         `json:"hasMore"`
	// Totals, on a related tab of records with a status and an amount,
	// are the amounts by status over all the tab's records (TotalsByStatus).
	Totals *StatusTotals `json:"totals,omitempty"`
}

// TabLimit is the most rows a related tab shows.
const TabLimit = 200

// Related answers a related tab of record rec of kind k: the records of
// kind listed (the tab's Kind) that refer to rec, or, for a tab with
// Through, to what rec refers to there; the listed kind's built-in
// columns, in its default order, at most TabLimit.
func (k *Kind) Related(ctx context.Context, st ReadStore, rec Record, tab Tab, listed *Kind) (TabPage, error) {
	target, id := k.TabTarget(tab, rec)
	col, _ := listed.RelatedColumn(target) // the registry's init checks that it exists
	cfg := listed.BuiltInList()
	cols := listed.Columns(cfg.Columns)
	if id == 0 {
		return TabPage{Columns: cols, Rows: []Row{}}, nil
	}
	_, lq, err := listed.Query(cfg, ListRequest{PageSize: strconv.Itoa(TabLimit)})
	if err != nil {
		return TabPage{}, err
	}
	lq.Filter = Filter{Any: [][]Cond{{{Column: col, Type: TypeRef, Op: OpEq, Value: id}}}}
	page, err := st.ListRecords(ctx, lq)
	if err != nil {
		return TabPage{}, err
	}
	totals, err := listed.TotalsByStatus(ctx, st, lq.Filter)
	if err != nil {
		return TabPage{}, err
	}
	return TabPage{Columns: cols, Rows: listed.Rows(page.Records, cols), HasMore: page.HasMore, Totals: totals}, nil
}

// Encode is the cursor as a list call's cursor parameter.
func (c *Cursor) Encode() string {
	b, _ := json.Marshal(c)
	return base64.RawURLEncoding.EncodeToString(b)
}

// DecodeCursor reads a list call's cursor parameter.
func DecodeCursor(s string) (*Cursor, error) {
	var c Cursor
	b, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil || len(s) > 2048 || json.Unmarshal(b, &c) != nil || c.ID <= 0 {
		return nil, portal.Invalid("The page cursor is not valid; start from the first page.", portal.FieldError{Field: "cursor", Message: "Not a cursor."})
	}
	return &c, nil
}
