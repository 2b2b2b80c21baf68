package httpapi

import (
	"context"
	"encoding/base64"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"mime"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/portico/portico/internal/access"
	"github.com/portico/portico/internal/feedback"
	"github.com/portico/portico/internal/portal"
	"github.com/portico/portico/internal/records"
)

// RecordStore is what the record handlers need inside a tenant.
type RecordStore interface {
	ListRecords(ctx context.Context, q records.ListQuery) (records.Page, error)
	CountMatching(ctx context.Context, q records.ListQuery) (int64, error)
	Record(ctx context.Context, kind string, id int64) (records.Record, error)
	RecordSummary(ctx context.Context, kind string, id int64) (records.Record, error)
	Files(ctx context.Context, kind string, recordID int64) ([]records.File, error)
	File(ctx context.Context, kind string, recordID, fileID int64) (records.File, error)
	VisibleLists(ctx context.Context, kind string, userID, roleID int64) ([]records.ListConfig, error)
	List(ctx context.Context, id string) (records.ListConfig, error)
	PutList(ctx context.Context, l records.ListConfig) error
	DeleteList(ctx context.Context, id string) error
	DefaultList(ctx context.Context, kind string) (string, error)
	SaveRecord(ctx context.Context, w records.Write) (records.Record, error)
	RecordHistory(ctx context.Context, kind string, id int64, limit int) ([]records.HistoryEntry, error)
	VisibleReports(ctx context.Context, userID, roleID int64) ([]records.ListConfig, error)
	PutFeedback(ctx context.Context, s feedback.Submission) (int64, error)
	Feedback(ctx context.Context, limit int) ([]feedback.Submission, error)
	FeedbackFile(ctx context.Context, id int64) (feedback.Submission, error)
	AuditEvents(ctx context.Context, f access.AuditFilter) ([]access.AuditEvent, error)
	GroupRecords(ctx context.Context, q records.GroupQuery) ([]records.Group, error)
}

// kind reads the record type from ?type= (a record-type name or a route
// segment) and checks the caller's role may see it.
func (s *Server) kind(r *http.Request, name string) (*records.Kind, error) {
	k, ok := records.Lookup(name)
	if !ok {
		k, ok = records.LookupRoute(name)
	}
	if !ok {
		return nil, portal.Invalid(fmt.Sprintf("Unknown record type %q.", name), portal.FieldError{Field: "type", Message: "Unknown record type."})
	}
	if !caller(r).Role.Can(k.Route + ".view") {
		return nil, portal.Errorf(portal.CodeForbidden, "Your role may not see %s.", strings.ToLower(k.Plural))
	}
	return k, nil
}

func (s *Server) recordStore(r *http.Request) TenantStore { return s.tenants(caller(r).Tenant) }

// listAnswer is the answer of a list call.
type listAnswer struct {
	List       listRef              `json:"list"`
	Columns    []records.ColumnInfo `json:"columns"`
	Rows       []records.Row        `json:"rows"`
	HasMore    bool                 `json:"hasMore"`
	NextCursor *string              `json:"nextCursor"`
	Total      *int64               `json:"total,omitempty"`
}

type listRef struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

// list answers one page of a kind's records through a saved list, with the
// caller's sort, filter and text search on top (SPEC §7 {product}-list).
func (s *Server) list(w http.ResponseWriter, r *http.Request) {
	s.serveList(w, r, q(r, "type"), records.Filter{})
}

// serveList answers a list of kind, narrowed by scope on top of the saved
// list and the request's own filter.
func (s *Server) serveList(w http.ResponseWriter, r *http.Request, kind string, scope records.Filter) {
	q := r.URL.Query()
	k, err := s.kind(r, kind)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	cfg, lq, err := s.listQuery(r, k, q)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	lq.Filter = lq.Filter.And(scope) // the store refuses a query over the cost bound
	cols := k.Columns(cfg.Columns)
	st := s.recordStore(r)
	if q.Get("format") == "csv" {
		s.writeCSV(w, r, st, k, cfg, cols, lq)
		return
	}
	page, err := st.ListRecords(r.Context(), lq)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	ans := listAnswer{List: listRef{cfg.ID, cfg.Name}, Columns: cols, Rows: make([]records.Row, 0, len(page.Records)), HasMore: page.HasMore}
	for _, rec := range page.Records {
		ans.Rows = append(ans.Rows, k.Row(rec, cols))
	}
	if page.Next != nil {
		c := encodeCursor(page.Next)
		ans.NextCursor = &c
	}
	if q.Get("count") == "true" {
		n, err := st.CountMatching(r.Context(), lq)
		if err != nil {
			s.writeError(w, r, err)
			return
		}
		ans.Total = &n
	}
	writeData(w, http.StatusOK, ans)
}

// listQuery resolves the saved list (the one asked for, else the tenant's
// default, else the kind's built-in) and applies the request's overrides:
// columns (a comma-separated list of the kind's fields), filter, sort, dir,
// pageSize, q and cursor.
func (s *Server) listQuery(r *http.Request, k *records.Kind, q url.Values) (records.ListConfig, records.ListQuery, error) {
	cfg, err := s.resolveList(r, k, q.Get("list"))
	if err != nil {
		return cfg, records.ListQuery{}, err
	}
	return applyQuery(k, cfg, q)
}

// applyQuery turns a saved list (or report) and a request's overrides
// into a list query.
func applyQuery(k *records.Kind, cfg records.ListConfig, q url.Values) (records.ListConfig, records.ListQuery, error) {
	lq := records.ListQuery{Kind: k.Name, Limit: 50}
	if v := q.Get("columns"); v != "" {
		cols := strings.Split(v, ",")
		if msgs := k.CheckColumns(cols); len(msgs) > 0 {
			return cfg, lq, portal.Invalid(msgs[0], portal.FieldError{Field: "columns", Message: strings.Join(msgs, " ")})
		}
		cfg.Columns = cols
	}
	// A saved filter that no longer parses (a field since removed) is
	// dropped, but one over the cost bound is refused, never dropped: the
	// list would show what its filter hides.
	switch saved, err := records.ParseFilter(k, cfg.Filter); {
	case errors.Is(err, records.ErrTooManyConditions):
		return cfg, lq, err
	case err == nil:
		lq.Filter = saved
	}
	extra, err := records.ParseFilter(k, q.Get("filter"))
	if err != nil {
		return cfg, lq, err
	}
	// (saved) AND (request), each kept whole; the store holds the query
	// to the cost bound (records.Filter.CheckCost) before any SQL runs.
	lq.Filter = lq.Filter.And(extra)
	sortField, dir := cfg.Sort.Field, cfg.Sort.Dir
	if v := q.Get("sort"); v != "" {
		sortField, dir = v, "asc"
	}
	if v := q.Get("dir"); v != "" {
		dir = v
	}
	if sortField != "" {
		f, ok := k.FieldNamed(sortField)
		if !ok || !f.Sortable {
			return cfg, lq, portal.Invalid(fmt.Sprintf("Cannot sort %s by %q.", strings.ToLower(k.Plural), sortField),
				portal.FieldError{Field: "sort", Message: "Not a sortable column."})
		}
		lq.Sort = f.Column
	}
	switch dir {
	case "", "asc":
	case "desc":
		lq.Desc = true
	default:
		return cfg, lq, portal.Invalid("Sort direction is asc or desc.", portal.FieldError{Field: "dir", Message: "Use asc or desc."})
	}
	if v := q.Get("pageSize"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > 500 {
			return cfg, lq, portal.Invalid("Page size must be a number from 1 to 500.", portal.FieldError{Field: "pageSize", Message: "1 to 500."})
		}
		lq.Limit = n
	}
	if v := strings.TrimSpace(q.Get("q")); v != "" {
		if len(v) > 200 {
			return cfg, lq, portal.Invalid("The search text is longer than 200 characters.", portal.FieldError{Field: "q", Message: "At most 200 characters."})
		}
		lq.Text = v
	}
	if v := q.Get("cursor"); v != "" {
		c, err := decodeCursor(v)
		if err != nil {
			return cfg, lq, err
		}
		lq.After = c
	}
	return cfg, lq, nil
}

// resolveList finds the saved list a list call uses.
func (s *Server) resolveList(r *http.Request, k *records.Kind, id string) (records.ListConfig, error) {
	st := s.recordStore(r)
	if id == "" {
		var err error
		if id, err = st.DefaultList(r.Context(), k.Name); err != nil {
			return records.ListConfig{}, err
		}
	}
	if id == "" || id == k.DefaultList {
		return k.BuiltInList(), nil
	}
	l, err := st.List(r.Context(), id)
	if err != nil || l.Kind != k.Name || !visibleTo(l, caller(r)) {
		if id == q(r, "list") {
			return l, portal.Errorf(portal.CodeNotFound, "No such saved list.")
		}
		return k.BuiltInList(), nil // the tenant default was deleted or is not shared with this role
	}
	return l, nil
}

func q(r *http.Request, key string) string { return r.URL.Query().Get(key) }

func visibleTo(l records.ListConfig, p principal) bool {
	return (l.Visibility == records.Private && l.OwnerID == p.User.ID) ||
		(l.Visibility == records.SharedRole && l.RoleID == p.Role.ID)
}

// startCSV sends the headers of a CSV download named after name (and
// today's date) and its header line, the columns' labels.
func startCSV(w http.ResponseWriter, name string, cols []records.ColumnInfo) *csv.Writer {
	file := strings.ToLower(strings.ReplaceAll(name, " ", "-")) + "-" + time.Now().UTC().Format("2006-01-02") + ".csv"
	w.Header().Set("Content-Type", "text/csv; charset=utf-8")
	w.Header().Set("Content-Disposition", mime.FormatMediaType("attachment", map[string]string{"filename": file}))
	w.Header().Set("Cache-Control", "no-store")
	out := csv.NewWriter(w)
	header := make([]string, len(cols))
	for i, c := range cols {
		header[i] = c.Label
	}
	out.Write(header)
	return out
}

// writeCSVRows writes records as CSV lines, one cell per column.
func writeCSVRows(out *csv.Writer, k *records.Kind, cols []records.ColumnInfo, recs []records.Record) {
	line := make([]string, len(cols))
	for _, rec := range recs {
		row := k.Row(rec, cols)
		for i, c := range cols {
			line[i] = csvValue(row[c.Name])
		}
		out.Write(line)
	}
}

// writeCSV streams the whole result of a list (not just a page) as CSV.
func (s *Server) writeCSV(w http.ResponseWriter, r *http.Request, st RecordStore, k *records.Kind,
	cfg records.ListConfig, cols []records.ColumnInfo, lq records.ListQuery) {
	lq.Limit, lq.After = 500, nil
	page, err := st.ListRecords(r.Context(), lq)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	out := startCSV(w, cfg.Name, cols)
	for {
		writeCSVRows(out, k, cols, page.Records)
		out.Flush()
		if !page.HasMore || r.Context().Err() != nil {
			return
		}
		lq.After = page.Next
		if page, err = st.ListRecords(r.Context(), lq); err != nil {
			// Headers are gone; end the stream short and log why (on the
			// request's line; not at all when the client left).
			streamFailed(r, err)
			return
		}
	}
}

// csvValue renders a cell, neutralised (csvSafe) so that a spreadsheet
// never runs it as a formula.
func csvValue(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case records.Ref:
		return csvSafe(x.RefName)
	case float64:
		return strconv.FormatFloat(x, 'f', 2, 64)
	default:
		return csvSafe(fmt.Sprint(x))
	}
}

// Formula neutralisation follows OWASP's CSV Injection guidance: a cell
// whose first character is = + - @ tab or CR is prefixed with a single
// quote, which spreadsheets read as "text". Beyond the list: LF and NUL; |
// (DDE payloads such as |cmd); the full-width forms of these signs, which
// spreadsheets in East Asian locales fold to ASCII; and invisible or blank
// characters before the sign (a byte-order mark, zero-width spaces and
// joiners, spaces), which a spreadsheet may skip before it looks.
const (
	formulaStart = "=+-@\t\r\n\x00|\uFF1D\uFF0B\uFF0D\uFF20\uFF5C"
	skippedLead  = "\uFEFF\u200B\u200C\u200D\u2060 \u00A0\u3000"
)

// csvSafe returns s, prefixed with ' when a spreadsheet could read it as a
// formula.
func csvSafe(s string) string {
	first, _ := utf8.DecodeRuneInString(strings.TrimLeft(s, skippedLead))
	if s != "" && strings.ContainsRune(formulaStart, first) {
		return "'" + s
	}
	return s
}

func encodeCursor(c *records.Cursor) string {
	b, _ := json.Marshal(c)
	return base64.RawURLEncoding.EncodeToString(b)
}

func decodeCursor(s string) (*records.Cursor, error) {
	var c records.Cursor
	b, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil || len(s) > 2048 || json.Unmarshal(b, &c) != nil || c.ID <= 0 {
		return nil, portal.Invalid("The page cursor is not valid; start from the first page.", portal.FieldError{Field: "cursor", Message: "Not a cursor."})
	}
	return &c, nil
}

// recordView answers a record page (SPEC §7 {product}-record), or with
// &tab= one of its tabs.
func (s *Server) recordView(w http.ResponseWriter, r *http.Request) {
	s.serveRecord(w, r, q(r, "type"))
}

func (s *Server) serveRecord(w http.ResponseWriter, r *http.Request, kind string) {
	k, err := s.kind(r, kind)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	// Only the page itself and sublist tabs read the document.
	tab := q(r, "tab")
	t, known := k.TabNamed(tab)
	rec, err := s.loadRecord(r, k, tab == "" || (known && t.Kind == "" && t.Source != records.TabFiles && t.Source != records.TabHistory))
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	if tab != "" {
		s.recordTab(w, r, k, rec, tab)
		return
	}
	v := k.ViewWithDetails(rec, s.erpBase, s.details.of(caller(r).Tenant, k, rec))
	if sy := s.syncer(r); sy != nil {
		v.Completing = sy.Enrich(k.Name, rec.ID, rec.ModifiedAt)
	}
	writeData(w, http.StatusOK, v)
}

// loadRecord reads ?id= of kind k, with its document when withFields.
func (s *Server) loadRecord(r *http.Request, k *records.Kind, withFields bool) (records.Record, error) {
	id, ok := records.ParseID(q(r, "id"))
	if !ok {
		return records.Record{}, portal.Invalid("A record id is required.", portal.FieldError{Field: "id", Message: "A positive number."})
	}
	load := s.recordStore(r).RecordSummary
	if withFields {
		load = s.recordStore(r).Record
	}
	return load(r.Context(), k.Name, id)
}

type tabAnswer struct {
	Columns []records.ColumnInfo `json:"columns"`
	Rows    []records.Row        `json:"rows"`
	HasMore bool                 `json:"hasMore"`
}

// recordTab answers one tab: related records of another kind (the
// project's billing, credits, budget, cost details; a client's invoices),
// a sublist of the document (the catch-all tabs), or the files. The
// project's cost details add its equipment charges (equipment.go).
func (s *Server) recordTab(w http.ResponseWriter, r *http.Request, k *records.Kind, rec records.Record, name string) {
	tab, ok := k.TabNamed(name)
	if !ok {
		s.writeError(w, r, portal.Errorf(portal.CodeNotFound, "%s have no %q tab.", k.Plural, name))
		return
	}
	switch tab.Source {
	case records.TabFiles:
		s.writeFiles(w, r, k, rec.ID)
		return
	case records.TabHistory:
		hs, err := s.recordStore(r).RecordHistory(r.Context(), k.Name, rec.ID, 200)
		if err != nil {
			s.writeError(w, r, err)
			return
		}
		writeData(w, http.StatusOK, tabAnswer{Columns: records.HistoryColumns, Rows: k.HistoryRows(hs), HasMore: len(hs) == 200})
		return
	}
	if tab.Kind == "" {
		cols, rows := records.Sublist(rec, tab.Name)
		writeData(w, http.StatusOK, tabAnswer{Columns: orEmpty(cols), Rows: rows})
		return
	}
	rk, err := s.kind(r, tab.Kind)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	target, id := k.TabTarget(tab, rec)
	col, _ := rk.RelatedColumn(target) // the registry's init checks that it exists
	if id == 0 {
		writeData(w, http.StatusOK, tabAnswer{Columns: rk.Columns(rk.BuiltInList().Columns), Rows: []records.Row{}})
		return
	}
	page, err := s.recordStore(r).ListRecords(r.Context(), records.ListQuery{Kind: rk.Name, Limit: 200,
		Filter: records.Filter{Any: [][]records.Cond{{{Column: col, Op: records.OpEq, Value: id}}}}})
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	cols := rk.Columns(rk.BuiltInList().Columns)
	ans := tabAnswer{Columns: cols, Rows: make([]records.Row, 0, len(page.Records)), HasMore: page.HasMore}
	for _, rr := range page.Records {
		ans.Rows = append(ans.Rows, rk.Row(rr, cols))
	}
	if k.Name == "project" && tab.Name == "costdetails" {
		writeData(w, http.StatusOK, costDetailsAnswer{tabAnswer: ans, Equipment: s.equipmentOf(r, rec.ID)})
		return
	}
	writeData(w, http.StatusOK, ans)
}

func orEmpty[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

type fileInfo struct {
	ID          int64     `json:"id"`
	Name        string    `json:"name"`
	Size        int64     `json:"size"`
	ContentType string    `json:"contentType"`
	Modified    time.Time `json:"modified"`
}

// files answers a record's attachments, or with &fileId= one file's bytes
// (SPEC §7 {product}-file).
func (s *Server) files(w http.ResponseWriter, r *http.Request) {
	k, err := s.kind(r, q(r, "type"))
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	rec, err := s.loadRecord(r, k, false)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	if v := q(r, "fileId"); v != "" {
		id, ok := records.ParseID(v)
		if !ok {
			s.writeError(w, r, portal.Invalid("The file id must be a positive number.", portal.FieldError{Field: "fileId", Message: "A positive number."}))
			return
		}
		f, err := s.fileSource(r).File(r.Context(), k.Name, rec.ID, id)
		if err != nil {
			s.writeError(w, r, err)
			return
		}
		writeDownload(w, f.Name, f.ContentType, f.Content)
		return
	}
	s.writeFiles(w, r, k, rec.ID)
}

// writeDownload sends a stored file as a download: its type, a safe
// Content-Disposition, never cached, never rendered in our origin.
func writeDownload(w http.ResponseWriter, name, contentType string, content []byte) {
	w.Header().Set("Content-Type", contentType)
	w.Header().Set("Content-Disposition", mime.FormatMediaType("attachment", map[string]string{"filename": name}))
	w.Header().Set("Content-Length", strconv.FormatInt(int64(len(content)), 10))
	w.Header().Set("Cache-Control", "private, no-store")
	w.Header().Set("Content-Security-Policy", "default-src 'none'; sandbox")
	w.Write(content)
}

func (s *Server) writeFiles(w http.ResponseWriter, r *http.Request, k *records.Kind, id int64) {
	fs, err := s.fileSource(r).Files(r.Context(), k.Name, id)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	out := make([]fileInfo, 0, len(fs))
	for _, f := range fs {
		out = append(out, fileInfo{ID: f.ID, Name: f.Name, Size: f.Size, ContentType: f.ContentType, Modified: f.ModifiedAt})
	}
	writeData(w, http.StatusOK, out)
}

// listOf serves a named base path (SPEC §7: /projects, /billing, ...) as
// the list of one kind; ?projectId= narrows it to one project's records.
func (s *Server) listOf(kind string) http.HandlerFunc {
	k, _ := records.Lookup(kind)
	col, hasProject := k.RelatedColumn("project")
	return func(w http.ResponseWriter, r *http.Request) {
		var scope records.Filter
		if v := q(r, "projectId"); v != "" {
			id, ok := records.ParseID(v)
			if !ok || !hasProject {
				s.writeError(w, r, portal.Invalid("projectId must be a project's record id.",
					portal.FieldError{Field: "projectId", Message: "A positive number, for kinds that belong to projects."}))
				return
			}
			scope = records.Filter{Any: [][]records.Cond{{{Column: col, Op: records.OpEq, Value: id}}}}
		}
		s.serveList(w, r, kind, scope)
	}
}

// recordOf serves a named base path (/project?id=) as one kind's record.
func (s *Server) recordOf(kind string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) { s.serveRecord(w, r, kind) }
}
