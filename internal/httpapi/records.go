package httpapi

import (
	"context"
	"encoding/csv"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/portico/portico/internal/access"
	"github.com/portico/portico/internal/feedback"
	"github.com/portico/portico/internal/portal"
	"github.com/portico/portico/internal/records"
	"github.com/portico/portico/internal/search"
	"github.com/portico/portico/internal/shortlist"
)

// RecordStore is what the record handlers need inside a tenant.
type RecordStore interface {
	ListRecords(ctx context.Context, q records.ListQuery) (records.Page, error)
	Summarize(ctx context.Context, q records.SummaryQuery) (records.Summary, error)
	Record(ctx context.Context, kind string, id int64) (records.Record, error)
	RecordSummary(ctx context.Context, kind string, id int64) (records.Record, error)
	Files(ctx context.Context, kind string, recordID int64) ([]records.File, error)
	File(ctx context.Context, kind string, recordID, fileID int64) (records.File, error)
	VisibleLists(ctx context.Context, kind string, userID, roleID int64) ([]records.ListConfig, error)
	List(ctx context.Context, id string) (records.ListConfig, error)
	PutList(ctx context.Context, l records.ListConfig) error
	DeleteList(ctx context.Context, id string) error
	SaveRecord(ctx context.Context, w records.Write) (records.Record, error)
	KeptKey(ctx context.Context, userID int64, key string) (records.Idempotency, int64, error)
	records.AttachmentStore
	RecordHistory(ctx context.Context, kind string, id int64, limit int) ([]records.HistoryEntry, error)
	VisibleReports(ctx context.Context, userID, roleID int64) ([]records.ListConfig, error)
	PutFeedback(ctx context.Context, s feedback.Submission) (int64, error)
	Feedback(ctx context.Context, limit int) ([]feedback.Submission, error)
	FeedbackFile(ctx context.Context, id int64) (feedback.Submission, error)
	AuditEvents(ctx context.Context, f access.AuditFilter) ([]access.AuditEvent, error)
	AuditUsers(ctx context.Context) ([]access.User, error)
	GroupRecords(ctx context.Context, q records.GroupQuery) ([]records.Group, error)
	Tally(ctx context.Context, q records.TallyQuery) (records.Tally, error)
	// BaseCurrency is the tenant's base currency as its ERP account gave
	// it, "" when none did (Options.Currency then).
	BaseCurrency(ctx context.Context) (string, error)
}

// baseCurrency is the ISO 4217 code of the caller's tenant's base
// currency: the money of a record whose currency is "" is in it.
func (s *Server) baseCurrency(r *http.Request) (string, error) {
	code, err := s.recordStore(r).BaseCurrency(r.Context())
	if code == "" {
		code = s.currency
	}
	return code, err
}

// kind reads the record type from ?type= (a record-type name or a route
// segment) and checks the caller's role may see it.
func (s *Server) kind(r *http.Request, name string) (*records.Kind, error) {
	kinds := caller(r).Guard.Registry()
	k, ok := kinds.Lookup(name)
	if !ok {
		k, ok = kinds.LookupRoute(name)
	}
	if !ok {
		return nil, portal.Invalid(fmt.Sprintf("Unknown record type %q.", name), portal.FieldError{Field: "type", Message: "Unknown record type."})
	}
	return k, caller(r).Guard.Require(k, records.ActView)
}

// recordStore is the caller's tenant's store as the caller sees it: its
// reads of records go through the caller's Guard.
func (s *Server) recordStore(r *http.Request) TenantStore {
	p := caller(r)
	if p.Guard == nil { // a route outside withAuth
		return s.tenants(p.Tenant)
	}
	return guarded{s.tenants(p.Tenant), p.Guard}
}

// guarded is a tenant store whose reads of records are narrowed to what
// the Guard lets its caller see: every list, count, total, tally and
// grouping gets the caller's scope of its kind, a record (its page,
// files, history) outside it is not found, and an edit, note or file
// outside the edit scope is refused as not found. The decisions are the
// Guard's; this only routes the store's reads through it.
type guarded struct {
	TenantStore
	g *records.Guard
}

func (s guarded) ListRecords(ctx context.Context, q records.ListQuery) (records.Page, error) {
	var err error
	if q.Filter, err = s.g.Narrow(ctx, q.Kind, q.Filter); err != nil {
		return records.Page{}, err
	}
	return s.TenantStore.ListRecords(ctx, q)
}

func (s guarded) Summarize(ctx context.Context, q records.SummaryQuery) (records.Summary, error) {
	var err error
	if q.List.Filter, err = s.g.Narrow(ctx, q.List.Kind, q.List.Filter); err != nil {
		return records.Summary{}, err
	}
	return s.TenantStore.Summarize(ctx, q)
}

func (s guarded) Tally(ctx context.Context, q records.TallyQuery) (records.Tally, error) {
	var err error
	if q.Filter, err = s.g.Narrow(ctx, q.Kind, q.Filter); err != nil {
		return records.Tally{}, err
	}
	q.Buckets = slices.Clone(q.Buckets)
	for i := range q.Buckets {
		if q.Buckets[i], err = s.g.Resolve(ctx, q.Buckets[i]); err != nil {
			return records.Tally{}, err
		}
	}
	return s.TenantStore.Tally(ctx, q)
}

func (s guarded) GroupRecords(ctx context.Context, q records.GroupQuery) ([]records.Group, error) {
	var err error
	if q.Filter, err = s.g.Narrow(ctx, q.Kind, q.Filter); err != nil {
		return nil, err
	}
	return s.TenantStore.GroupRecords(ctx, q)
}

func (s guarded) Record(ctx context.Context, kind string, id int64) (records.Record, error) {
	if err := s.g.CheckRecord(ctx, kind, id); err != nil {
		return records.Record{}, err
	}
	return s.TenantStore.Record(ctx, kind, id)
}

// SearchCandidates is the index's candidates narrowed to what the caller
// may see (search.Narrowed).
func (s guarded) SearchCandidates(ctx context.Context, text string, kinds []string, limit int) ([]search.Entry, error) {
	return search.Narrowed{Index: s.TenantStore, Lists: s, Scope: s.g}.SearchCandidates(ctx, text, kinds, limit)
}

// AuditEvents leaves out the events about records the caller may not see
// (Guard.AuditEvents).
func (s guarded) AuditEvents(ctx context.Context, f access.AuditFilter) ([]access.AuditEvent, error) {
	return s.g.AuditEvents(ctx, s.TenantStore, f)
}

// Shortlist keeps, of the user's recent or favourite records, those the
// caller may see now (in this role, under its rules).
func (s guarded) Shortlist(ctx context.Context, userID int64, shelf shortlist.Shelf) ([]shortlist.Entry, error) {
	entries, err := s.TenantStore.Shortlist(ctx, userID, shelf)
	if err != nil {
		return nil, err
	}
	byKind := map[string][]int64{}
	for _, e := range entries {
		byKind[e.Kind] = append(byKind[e.Kind], e.ID)
	}
	seen, err := s.g.Seen(ctx, byKind)
	if err != nil {
		return nil, err
	}
	return slices.DeleteFunc(entries, func(e shortlist.Entry) bool { return !seen[e.Kind][e.ID] }), nil
}

// ShortlistAdd shelves only a record the caller may see.
func (s guarded) ShortlistAdd(ctx context.Context, userID int64, shelf shortlist.Shelf, kind string, id int64, at time.Time) error {
	if err := s.g.CheckRecord(ctx, kind, id); err != nil {
		return err
	}
	return s.TenantStore.ShortlistAdd(ctx, userID, shelf, kind, id, at)
}

// RecordSummary (a record's id and name) of a kind the caller sees is
// narrowed like the record (a bulk edit's outcome names it); of a kind
// the role does not see at all it is not: it is what a reference shows,
// on every record that holds it, and what a save checks the references
// it is sent against.
func (s guarded) RecordSummary(ctx context.Context, kind string, id int64) (records.Record, error) {
	if err := s.g.CheckReference(ctx, kind, id); err != nil {
		return records.Record{}, err
	}
	return s.TenantStore.RecordSummary(ctx, kind, id)
}

func (s guarded) SaveRecord(ctx context.Context, w records.Write) (records.Record, error) {
	if err := s.g.CheckWrite(ctx, w); err != nil {
		return records.Record{}, err
	}
	return s.TenantStore.SaveRecord(ctx, w)
}

func (s guarded) AddNote(ctx context.Context, w records.NoteWrite) error {
	if err := s.g.CheckAddition(ctx, w.Kind, w.RecordID); err != nil {
		return err
	}
	return s.TenantStore.AddNote(ctx, w)
}

func (s guarded) AddFile(ctx context.Context, w records.FileWrite) (records.File, error) {
	if err := s.g.CheckAddition(ctx, w.File.Kind, w.File.RecordID); err != nil {
		return records.File{}, err
	}
	return s.TenantStore.AddFile(ctx, w)
}

func (s guarded) Files(ctx context.Context, kind string, recordID int64) ([]records.File, error) {
	if err := s.g.CheckRecord(ctx, kind, recordID); err != nil {
		return nil, err
	}
	return s.TenantStore.Files(ctx, kind, recordID)
}

func (s guarded) File(ctx context.Context, kind string, recordID, fileID int64) (records.File, error) {
	if err := s.g.CheckRecord(ctx, kind, recordID); err != nil {
		return records.File{}, err
	}
	return s.TenantStore.File(ctx, kind, recordID, fileID)
}

func (s guarded) RecordHistory(ctx context.Context, kind string, id int64, limit int) ([]records.HistoryEntry, error) {
	if err := s.g.CheckRecord(ctx, kind, id); err != nil {
		return nil, err
	}
	return s.TenantStore.RecordHistory(ctx, kind, id, limit)
}

// list answers one page of a kind's records through a saved list, with the
// caller's sort, filter and text search on top (SPEC §7 {product}-list).
func (s *Server) list(w http.ResponseWriter, r *http.Request) {
	s.serveList(w, r, q(r, "type"), records.Filter{})
}

// serveList answers a list of kind (records.Kind.List), narrowed by scope
// on top of the saved list and the request's own filter; format=csv
// downloads its whole result.
func (s *Server) serveList(w http.ResponseWriter, r *http.Request, kind string, scope records.Filter) {
	k, err := s.kind(r, kind)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	v := r.URL.Query()
	cfg, err := s.resolveList(r, k, v.Get("list"))
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	st, req := s.recordStore(r), listRequest(v)
	if v.Get("format") == "csv" {
		s.writeCSV(w, r, st, k, cfg, req, scope)
		return
	}
	ans, err := k.List(r.Context(), st, cfg, req, scope)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	writeData(w, http.StatusOK, ans)
}

// listRequest reads a list call's parameters (records.ListRequest).
func listRequest(v url.Values) records.ListRequest {
	return records.ListRequest{Columns: v.Get("columns"), Filter: v.Get("filter"), Sort: v.Get("sort"), Dir: v.Get("dir"),
		PageSize: v.Get("pageSize"), Text: v.Get("q"), Cursor: v.Get("cursor"), Count: v.Get("count") == "true",
		Totals: v.Get("totals") == "true"}
}

// resolveList finds the saved list a list call uses: the one named (which
// the caller must be able to see), else the kind's built-in list. Each
// user's default list is kept by their app, which names it (SPEC §4).
func (s *Server) resolveList(r *http.Request, k *records.Kind, id string) (records.ListConfig, error) {
	if id == "" || id == k.DefaultList {
		return k.BuiltInList(), nil
	}
	l, err := s.recordStore(r).List(r.Context(), id)
	if err != nil || l.Kind != k.Name || !caller(r).lists().Sees(l) {
		return l, portal.Errorf(portal.CodeNotFound, "No such saved list.")
	}
	return l, nil
}

func q(r *http.Request, key string) string { return r.URL.Query().Get(key) }

// csvTable is a CSV download being written: its columns, with a
// Currency column after those of a table that shows money (an amount
// alone does not say which), filled with the row's currency or base.
type csvTable struct {
	out  *csv.Writer
	cols []records.ColumnInfo
	line []string
	base string
}

// startCSV sends the headers of a CSV download named after name (and
// today's date) and its header line, the columns' labels. The file starts
// with a UTF-8 byte-order mark: without one, Excel reads it in the
// machine's legacy code page and garbles every accented name.
func startCSV(w http.ResponseWriter, name string, cols []records.ColumnInfo, base string) *csvTable {
	file := fileSlug(name) + "-" + time.Now().UTC().Format("2006-01-02") + ".csv"
	w.Header().Set("Content-Type", "text/csv; charset=utf-8")
	w.Header().Set("Content-Disposition", mime.FormatMediaType("attachment", map[string]string{"filename": file}))
	w.Header().Set("Cache-Control", "no-store")
	io.WriteString(w, "\ufeff")
	t := &csvTable{out: csv.NewWriter(w), cols: cols, base: base}
	if slices.ContainsFunc(cols, func(c records.ColumnInfo) bool { return c.Type == records.TypeMoney }) {
		t.cols = append(slices.Clone(cols), records.ColumnInfo{Name: records.RowCurrency, Label: "Currency", Type: records.TypeText})
	}
	t.line = make([]string, len(t.cols))
	for i, c := range t.cols {
		t.line[i] = c.Label
	}
	t.out.Write(t.line)
	return t
}

// fileSlug is name as a file name: lower case, each run of anything but
// letters and digits one hyphen ("Open invoices (EU)" → open-invoices-eu).
func fileSlug(name string) string {
	words := strings.FieldsFunc(strings.ToLower(name), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	if len(words) == 0 {
		return "export"
	}
	return strings.Join(words, "-")
}

// exportName is what a CSV download of a list is called: the kind's
// plural, then the saved list's name unless it is the built-in list, then
// how the rows were narrowed ("filtered", "selected") when they were.
func exportName(k *records.Kind, cfg records.ListConfig, narrowed string) string {
	name := k.Plural
	if !cfg.BuiltIn {
		name += " " + cfg.Name
	}
	if narrowed != "" {
		name += " " + narrowed
	}
	return name
}

// row writes one row as a CSV line, one cell per column.
func (t *csvTable) row(row records.Row) {
	for i, c := range t.cols {
		v := row[c.Name]
		if c.Name == records.RowCurrency && v == nil {
			v = t.base
		}
		t.line[i] = csvValue(v)
	}
	t.out.Write(t.line)
}

// writeCSV streams the whole result of a list (records.Kind.Export).
func (s *Server) writeCSV(w http.ResponseWriter, r *http.Request, st RecordStore, k *records.Kind,
	cfg records.ListConfig, req records.ListRequest, scope records.Filter) {
	base, err := s.baseCurrency(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	var out *csvTable
	err = k.Export(r.Context(), st, cfg, req, scope, func(cfg records.ListConfig, c []records.ColumnInfo) {
		narrowed := ""
		if req.Filter != "" || req.Text != "" {
			narrowed = "filtered"
		}
		out = startCSV(w, exportName(k, cfg, narrowed), c, base)
	}, func(row records.Row) { out.row(row) })
	switch {
	case out == nil:
		s.writeError(w, r, err)
	case err != nil:
		// Headers are gone; end the stream short and log why (on the
		// request's line; not at all when the client left).
		out.out.Flush()
		streamFailed(r, err)
	default:
		out.out.Flush()
	}
}

// writeRowsCSV answers rows of cols as a CSV download named after name.
func (s *Server) writeRowsCSV(w http.ResponseWriter, r *http.Request, name string, cols []records.ColumnInfo, rows []records.Row) {
	base, err := s.baseCurrency(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	out := startCSV(w, name, cols, base)
	for _, row := range rows {
		out.row(row)
	}
	out.out.Flush()
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
// spreadsheets in East Asian locales fold to ASCII; and any invisible or
// blank characters before the sign — every format character (Unicode
// category Cf: a byte-order mark, zero-width spaces and joiners, bidi
// controls and direction marks, soft hyphens) and every space — which a
// spreadsheet may skip before it looks.
const formulaStart = "=+-@\t\r\n\x00|\uFF1D\uFF0B\uFF0D\uFF20\uFF5C"

// csvSafe returns s, prefixed with ' when a spreadsheet could read it as a
// formula.
func csvSafe(s string) string {
	for _, r := range s {
		if strings.ContainsRune(formulaStart, r) {
			return "'" + s
		}
		if !unicode.Is(unicode.Cf, r) && !unicode.IsSpace(r) {
			return s
		}
	}
	return s
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
	v := k.ViewWithDetails(rec, s.erpBaseOf(caller(r).Tenant), s.details.of(caller(r).Tenant, k, rec))
	if v.CanApprove, err = caller(r).Guard.MayDecide(r.Context(), k, rec); err != nil {
		s.writeError(w, r, err)
		return
	}
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
	if g := caller(r).Guard; !withFields && g != nil {
		// A summary is not narrowed (a reference shows it on any record),
		// but what is read with it here (the record's files, from the ERP
		// too, its history, its related tabs) is the record's: outside the
		// caller's view scope it is not found, as its page is.
		if err := g.CheckRecord(r.Context(), k.Name, id); err != nil {
			return records.Record{}, err
		}
	}
	load := s.recordStore(r).RecordSummary
	if withFields {
		load = s.recordStore(r).Record
	}
	return load(r.Context(), k.Name, id)
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
		writeData(w, http.StatusOK, records.TabPage{Columns: records.HistoryColumns, Rows: k.HistoryRows(hs), HasMore: len(hs) == 200})
		return
	}
	if tab.Kind == "" {
		cols, rows := records.Sublist(rec, tab)
		writeData(w, http.StatusOK, records.TabPage{Columns: orEmpty(cols), Rows: rows})
		return
	}
	rk, err := s.kind(r, tab.Kind)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	ans, err := k.Related(r.Context(), s.recordStore(r), rec, tab, rk)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	if k.Name == "project" && tab.Name == "costdetails" {
		// The equipment charges are the project's costs too: shown to
		// whoever sees all of its vendor bills.
		whole, err := caller(r).Guard.SeesTabWhole(r.Context(), k, rec, tab, rk)
		if err != nil {
			s.writeError(w, r, err)
			return
		}
		var equipment *equipmentSection
		if whole {
			equipment = s.equipmentOf(r, rec.ID)
		}
		writeData(w, http.StatusOK, costDetailsAnswer{TabPage: ans, Equipment: equipment})
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
	// Write is where a file added in the portal stands with the ERP
	// (absent once the ERP has it).
	Write *records.WriteState `json:"write,omitempty"`
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
		out = append(out, fileInfoOf(f))
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
