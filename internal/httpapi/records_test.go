package httpapi

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"math"
	"mime"
	"net/http/httptest"
	"net/url"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/portico/portico/internal/demo"
	"github.com/portico/portico/internal/records"
	"github.com/portico/portico/internal/sqlstore"
)

// recordsTemplate is newAuthEnv's store with 30 demo records of every kind in acme.
var recordsTemplate = &storeTemplate{build: func(ctx context.Context, store *sqlstore.Store) error {
	if err := buildAuthStore(ctx, store); err != nil {
		return err
	}
	_, err := demo.Generate(ctx, store.Tenant("acme"), demo.Options{PerKind: 30, Now: time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)})
	return err
}}

// recordsEnv is the auth environment with 30 demo records of every kind in
// tenant acme, signed in as Ada (role 10 sees every kind; role 11 only
// invoices).
func recordsEnv(t *testing.T) (*authEnv, string) {
	t.Helper()
	e := authEnvFrom(t, 1000, recordsTemplate)
	a, _ := e.login(t, "acme", "uid-ada", "ada@acme.test")
	return e, a.Data.Token
}

type listPage struct {
	Data struct {
		List       struct{ ID, Name string }
		Columns    []records.ColumnInfo
		Rows       []map[string]any
		HasMore    bool
		NextCursor *string
		Total      *int64
		// totals=true
		TotalEstimated  bool
		Totals          map[string][]records.UnitTotal
		TotalsEstimated *bool
	}
}

// one is a total in the base currency alone (-1 when there are others).
func one(ts []records.UnitTotal) float64 {
	if len(ts) == 1 && ts[0].Unit == "" {
		return ts[0].Total
	}
	return -1
}

func (e *authEnv) getJSON(t *testing.T, token string, role int64, target string, into any) int {
	t.Helper()
	w := e.call("GET", target, token, role, "")
	if w.Code == 200 && into != nil {
		if err := json.Unmarshal(w.Body.Bytes(), into); err != nil {
			t.Fatalf("%s: %v", target, err)
		}
	}
	return w.Code
}

func TestListsForEveryKind(t *testing.T) {
	e, tok := recordsEnv(t)
	for _, k := range records.All() {
		var p listPage
		if code := e.getJSON(t, tok, 10, "/api/v1/netsuite/portal-list?type="+k.Name+"&pageSize=7&count=true", &p); code != 200 {
			t.Fatalf("%s: list %d", k.Name, code)
		}
		if len(p.Data.Rows) != 7 || !p.Data.HasMore || p.Data.Total == nil || *p.Data.Total != 30 ||
			p.Data.List.ID != k.DefaultList || len(p.Data.Columns) != len(k.Fields) {
			t.Fatalf("%s: first page %+v", k.Name, p.Data)
		}
		// Page to the end through cursors: every record exactly once.
		seen := map[float64]bool{}
		cursor := ""
		for range 10 {
			var pg listPage
			e.getJSON(t, tok, 10, "/api/v1/netsuite/portal-list?type="+k.Name+"&pageSize=7&cursor="+cursor, &pg)
			for _, r := range pg.Data.Rows {
				if seen[r["id"].(float64)] {
					t.Fatalf("%s: row %v twice", k.Name, r["id"])
				}
				seen[r["id"].(float64)] = true
			}
			if !pg.Data.HasMore {
				break
			}
			cursor = *pg.Data.NextCursor
		}
		if len(seen) != 30 {
			t.Errorf("%s: paged through %d records, want 30", k.Name, len(seen))
		}
		// Every sortable column, both ways, is ordered.
		for _, c := range p.Data.Columns {
			if !c.Sortable {
				continue
			}
			for _, dir := range []string{"asc", "desc"} {
				var pg listPage
				if code := e.getJSON(t, tok, 10, fmt.Sprintf("/api/v1/netsuite/portal-list?type=%s&sort=%s&dir=%s&pageSize=30", k.Name, c.Name, dir), &pg); code != 200 {
					t.Fatalf("%s sort %s: %d", k.Name, c.Name, code)
				}
				vals := make([]string, len(pg.Data.Rows))
				for i, r := range pg.Data.Rows {
					vals[i] = sortable(r[c.Name])
				}
				ok := sort.StringsAreSorted(vals)
				if dir == "desc" {
					ok = sort.SliceIsSorted(vals, func(i, j int) bool { return vals[i] > vals[j] })
				}
				if !ok {
					t.Errorf("%s sorted by %s %s: %v", k.Name, c.Name, dir, vals)
				}
			}
		}
	}
}

// sortable renders a cell so that string order is the list's order.
func sortable(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case float64:
		return fmt.Sprintf("%020.2f", x)
	case map[string]any: // a reference sorts by the referenced record's name
		return fmt.Sprint(x["refName"])
	}
	return fmt.Sprint(v)
}

// TestListAnyFieldSortedAndTotalled: a list shows, sorts and filters
// document fields (an invoice's due date and amount remaining), totals
// its summable columns over the whole result and counts it; with no sort
// asked, transactions come newest first.
func TestListAnyFieldSortedAndTotalled(t *testing.T) {
	e, tok := recordsEnv(t)
	base := "/api/v1/netsuite/portal-list?type=invoice"
	var all listPage
	e.getJSON(t, tok, 10, base+"&pageSize=500&columns=memo,trandate,duedate,amountremaining,total", &all)
	if len(all.Data.Rows) != 30 {
		t.Fatalf("%d invoices", len(all.Data.Rows))
	}
	var sumTotal, sumRemaining float64
	for i, r := range all.Data.Rows {
		if i > 0 && all.Data.Rows[i-1]["trandate"].(string) < r["trandate"].(string) {
			t.Fatalf("not newest first: %v before %v", all.Data.Rows[i-1]["trandate"], r["trandate"])
		}
		sumTotal += r["total"].(float64)
		sumRemaining += r["amountremaining"].(float64)
	}
	check := func(target string, n int64, total, remaining float64) listPage {
		t.Helper()
		var p listPage
		if code := e.getJSON(t, tok, 10, target, &p); code != 200 {
			t.Fatalf("%s: %d", target, code)
		}
		d := p.Data
		if d.Total == nil || *d.Total != n || d.TotalEstimated || d.TotalsEstimated == nil || *d.TotalsEstimated ||
			len(d.Totals) != 2 || math.Abs(one(d.Totals["total"])-total) > 0.005 || math.Abs(one(d.Totals["amountremaining"])-remaining) > 0.005 {
			t.Errorf("%s: total %v (estimated %v), totals %v (estimated %v); want %d, %.2f, %.2f", target, d.Total, d.TotalEstimated,
				d.Totals, d.TotalsEstimated, n, total, remaining)
		}
		return p
	}
	p := check(base+"&pageSize=5&columns=memo,duedate,amountremaining,total,terms&sort=duedate&totals=true&count=true", 30, sumTotal, sumRemaining)
	for i, r := range p.Data.Rows {
		if i > 0 && p.Data.Rows[i-1]["duedate"].(string) > r["duedate"].(string) {
			t.Errorf("not sorted by due date: %v", p.Data.Rows)
		}
	}
	var open, openTotal, openRemaining float64
	for _, r := range all.Data.Rows {
		if r["amountremaining"].(float64) > 0 {
			open, openTotal, openRemaining = open+1, openTotal+r["total"].(float64), openRemaining+r["amountremaining"].(float64)
		}
	}
	if open == 0 {
		t.Fatal("no open invoice: the filter proves nothing")
	}
	check(base+"&columns=memo,amountremaining,total&sort=amountremaining&dir=desc&totals=true&count=true&filter="+
		url.QueryEscape("amountremaining gt 0"), int64(open), openTotal, openRemaining)
	// Totals of a list without summable columns: none, and said so.
	if w := e.call("GET", base+"&columns=memo,duedate&totals=true", tok, 10, ""); !strings.Contains(w.Body.String(), `"totals":{},"totalsEstimated":false`) {
		t.Errorf("totals without summable columns: %s", w.Body)
	}
	if w := e.call("GET", base+"&columns=memo,duedate", tok, 10, ""); strings.Contains(w.Body.String(), `"total`) {
		t.Errorf("no count or totals asked for: %s", w.Body)
	}
}

func TestListFiltersAndSearch(t *testing.T) {
	e, tok := recordsEnv(t)
	base := "/api/v1/netsuite/portal-list?type=project&pageSize=100&filter="
	var all listPage
	e.getJSON(t, tok, 10, base, &all)
	active := 0
	for _, r := range all.Data.Rows {
		if r["entitystatus"] == "Active" {
			active++
		}
	}
	var pg listPage
	if code := e.getJSON(t, tok, 10, base+url.QueryEscape("entitystatus eq active"), &pg); code != 200 || len(pg.Data.Rows) != active || active == 0 {
		t.Errorf("status filter: %d rows of %d active (code %d)", len(pg.Data.Rows), active, code)
	}
	e.getJSON(t, tok, 10, base+url.QueryEscape(`entitystatus eq Active or entitystatus eq "Closed" and startdate ge 2000-01-01`), &pg)
	for _, r := range pg.Data.Rows {
		if r["entitystatus"] != "Active" && r["entitystatus"] != "Closed" {
			t.Errorf("or filter let through %v", r["entitystatus"])
		}
	}
	first := all.Data.Rows[0]["companyname"].(string)
	word := strings.Fields(first)[0]
	e.getJSON(t, tok, 10, "/api/v1/netsuite/portal-list?type=project&pageSize=100&q="+url.QueryEscape(strings.ToLower(word)), &pg)
	if len(pg.Data.Rows) == 0 {
		t.Errorf("text search for %q found nothing", word)
	}
	for _, r := range pg.Data.Rows {
		if !strings.Contains(strings.ToLower(r["companyname"].(string)+r["entityid"].(string)), strings.ToLower(word)) {
			t.Errorf("search %q matched %v", word, r["companyname"])
		}
	}
	for filter, want := range map[string]string{
		"nosuchfield eq 1":              `Unknown field \"nosuchfield\"`,
		"entitystatus is Active":        `Unknown operator \"is\"`,
		"entitystatus eq Sleeping":      `is not one of`,
		"startdate ge yesterday":        "is not a date",
		"projectedtotal gt lots":        "is not a number",
		"entitystatus contains Act":     "text fields only",
		"entitystatus eq":               "ends early",
		`companyname eq "unterminated`:  "unterminated quote",
		"entitystatus eq Active nand x": `Expected \"and\" or \"or\"`,
		"'; DROP TABLE records; --":     "Unknown field",
	} {
		w := e.call("GET", base+url.QueryEscape(filter), tok, 10, "")
		if w.Code != 400 || !strings.Contains(w.Body.String(), want) || strings.Contains(strings.ToLower(w.Body.String()), "select") {
			t.Errorf("filter %q: %d %s", filter, w.Code, w.Body)
		}
	}
	if w := e.call("GET", "/api/v1/netsuite/portal-list?type=nokind", tok, 10, ""); w.Code != 400 {
		t.Errorf("unknown type: %d", w.Code)
	}
	// A field without a sort index is refused, never scanned.
	if w := e.call("GET", "/api/v1/netsuite/portal-list?type=projectrequest&sort=custrecord_res_pr_description", tok, 10, ""); w.Code != 400 ||
		!strings.Contains(w.Body.String(), `"field":"sort"`) {
		t.Errorf("sorted by a field without an index: %d %s", w.Code, w.Body)
	}
	for _, bad := range []string{"sort=nope", "dir=sideways", "pageSize=0", "pageSize=501", "cursor=%21%21", "list=list-missing"} {
		w := e.call("GET", "/api/v1/netsuite/portal-list?type=project&"+bad, tok, 10, "")
		if w.Code != 400 && w.Code != 404 {
			t.Errorf("%s: %d %s", bad, w.Code, w.Body)
		}
	}
}

func TestRecordViewTabsAndFiles(t *testing.T) {
	e, tok := recordsEnv(t)
	for _, k := range records.All() {
		var v struct {
			Data struct {
				ID     int64
				Title  string
				ErpURL *string
				Groups []struct {
					Label  string
					Fields []map[string]any
				}
				Tabs []records.Tab
			}
		}
		if code := e.getJSON(t, tok, 10, "/api/v1/netsuite/portal-record?type="+k.Name+"&id=1", &v); code != 200 {
			t.Fatalf("%s view: %d", k.Name, code)
		}
		if v.Data.ID != 1 || v.Data.Title == "" || len(v.Data.Groups) == 0 || len(v.Data.Tabs) != len(k.Tabs) {
			t.Errorf("%s view: %+v", k.Name, v.Data)
		}
		if (k.ERPLink != "") != (v.Data.ErpURL != nil) || (v.Data.ErpURL != nil && !strings.HasPrefix(*v.Data.ErpURL, "https://1234567.app.netsuite.com/")) {
			t.Errorf("%s erpUrl: %v", k.Name, v.Data.ErpURL)
		}
		for _, tab := range k.Tabs {
			w := e.call("GET", "/api/v1/netsuite/portal-record?type="+k.Name+"&id=1&tab="+tab.Name, tok, 10, "")
			if w.Code != 200 || !strings.HasPrefix(w.Body.String(), `{"data":`) {
				t.Errorf("%s tab %s: %d %s", k.Name, tab.Name, w.Code, w.Body)
			}
		}
		if w := e.call("GET", "/api/v1/netsuite/portal-record?type="+k.Name+"&id=99999", tok, 10, ""); w.Code != 404 {
			t.Errorf("%s missing record: %d", k.Name, w.Code)
		}
	}
	// The project's billing tab lists billing records of that project only.
	var tab struct {
		Data struct{ Rows []map[string]any }
	}
	e.getJSON(t, tok, 10, "/api/v1/netsuite/portal-record?type=project&id=1&tab=billing", &tab)
	for _, r := range tab.Data.Rows {
		if ref, _ := r["custrecord_res_bil_project"].(map[string]any); ref["id"] != 1.0 {
			t.Errorf("billing tab row of another project: %v", r)
		}
	}
	// Same rows through the named base path.
	var viaBase listPage
	e.getJSON(t, tok, 10, "/api/v1/netsuite/billing?projectId=1&pageSize=500", &viaBase)
	if len(viaBase.Data.Rows) != len(tab.Data.Rows) {
		t.Errorf("/billing?projectId=1 has %d rows, the tab %d", len(viaBase.Data.Rows), len(tab.Data.Rows))
	}
	// Files: list, then download one.
	var files struct {
		Data []struct {
			ID          int64
			Name        string
			Size        int64
			ContentType string
		}
	}
	e.getJSON(t, tok, 10, "/api/v1/netsuite/portal-file?type=project&id=1", &files)
	if len(files.Data) == 0 {
		t.Fatal("project 1 has no files")
	}
	f := files.Data[0]
	w := e.call("GET", fmt.Sprintf("/api/v1/netsuite/portal-file?type=project&id=1&fileId=%d", f.ID), tok, 10, "")
	if w.Code != 200 || int64(w.Body.Len()) != f.Size || w.Header().Get("Content-Type") != f.ContentType ||
		!strings.HasPrefix(w.Header().Get("Content-Disposition"), "attachment") {
		t.Errorf("download: %d %d bytes %v", w.Code, w.Body.Len(), w.Header())
	}
	if w := e.call("GET", fmt.Sprintf("/api/v1/netsuite/portal-file?type=project&id=2&fileId=%d", f.ID), tok, 10, ""); w.Code != 404 {
		t.Errorf("a file through another record: %d", w.Code)
	}
}

func TestCSVExportIsTheWholeFilteredList(t *testing.T) {
	e, tok := recordsEnv(t)
	filter := url.QueryEscape("entitystatus ne Closed")
	var all listPage
	e.getJSON(t, tok, 10, "/api/v1/netsuite/portal-list?type=project&pageSize=500&filter="+filter, &all)
	w := e.call("GET", "/api/v1/netsuite/portal-list?type=project&format=csv&pageSize=2&filter="+filter, tok, 10, "")
	if w.Code != 200 || !strings.HasPrefix(w.Header().Get("Content-Type"), "text/csv") {
		t.Fatalf("csv: %d %s", w.Code, w.Body)
	}
	rows := csvFile(t, w, "projects-filtered")
	if len(rows) != len(all.Data.Rows)+1 || rows[0][0] != "Project name" {
		t.Errorf("csv has %d lines for %d records; header %v", len(rows), len(all.Data.Rows), rows[0])
	}
	// The whole list is named after the kind alone.
	csvFile(t, e.call("GET", "/api/v1/netsuite/portal-list?type=project&format=csv", tok, 10, ""), "projects")
}

// csvFile checks that a CSV download is named name and today's date and
// starts with a UTF-8 byte-order mark (Excel reads it as UTF-8 then), and
// returns its rows.
func csvFile(t *testing.T, w *httptest.ResponseRecorder, name string) [][]string {
	t.Helper()
	want := name + "-" + time.Now().UTC().Format("2006-01-02") + ".csv"
	if _, params, err := mime.ParseMediaType(w.Header().Get("Content-Disposition")); err != nil || params["filename"] != want {
		t.Errorf("file name %q, want %s (%v)", w.Header().Get("Content-Disposition"), want, err)
	}
	body, ok := strings.CutPrefix(w.Body.String(), "\ufeff")
	if !ok {
		t.Errorf("no byte-order mark: %.40q", w.Body.String())
	}
	rows, err := csv.NewReader(strings.NewReader(body)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

func TestSavedLists(t *testing.T) {
	e, tok := recordsEnv(t)
	body := `{"name":"Active by value","columns":["companyname","projectedtotal"],"filter":"entitystatus eq Active","sort":{"field":"projectedtotal","dir":"desc"},"visibility":"role"}`
	w := e.call("POST", "/api/v1/netsuite/listConfiguration?type=project", tok, 10, body)
	var created struct{ Data records.ListConfig }
	json.Unmarshal(w.Body.Bytes(), &created)
	if w.Code != 201 || created.Data.ID == "" || created.Data.RoleID != 10 {
		t.Fatalf("create: %d %s", w.Code, w.Body)
	}
	var pg listPage
	e.getJSON(t, tok, 10, "/api/v1/netsuite/portal-list?type=project&list="+created.Data.ID, &pg)
	if len(pg.Data.Columns) != 2 || pg.Data.List.Name != "Active by value" {
		t.Errorf("list through the saved list: %+v", pg.Data)
	}
	for _, r := range pg.Data.Rows {
		if _, ok := r["entitystatus"]; ok {
			t.Error("a column outside the saved list was returned")
		}
	}
	// Visible in the role it is shared with, not in another role.
	var lists struct {
		Data struct{ Lists []records.ListConfig }
	}
	e.getJSON(t, tok, 10, "/api/v1/netsuite/listConfiguration?type=project", &lists)
	if len(lists.Data.Lists) != 2 || !lists.Data.Lists[0].BuiltIn || !lists.Data.Lists[1].Editable {
		t.Errorf("lists in role 10: %+v", lists.Data.Lists)
	}
	// Validation: every problem named.
	w = e.call("POST", "/api/v1/netsuite/listConfiguration?type=project", tok, 10, `{"name":"","columns":["nope"],"filter":"x eq","sort":{"field":"nope"},"visibility":"world"}`)
	for _, field := range []string{`"field":"name"`, `"field":"columns"`, `"field":"filter"`, `"field":"sort"`, `"field":"visibility"`} {
		if w.Code != 422 || !strings.Contains(w.Body.String(), field) {
			t.Errorf("invalid list: %d %s (want %s)", w.Code, w.Body, field)
		}
	}
	// Update, then delete.
	w = e.call("PUT", "/api/v1/netsuite/listConfiguration?type=project&id="+created.Data.ID, tok, 10,
		strings.Replace(body, "Active by value", "Renamed", 1))
	if w.Code != 200 || !strings.Contains(w.Body.String(), `"name":"Renamed"`) {
		t.Errorf("update: %d %s", w.Code, w.Body)
	}
	if w := e.call("PUT", "/api/v1/netsuite/listConfiguration?type=project&id=customsearch_res_project_list", tok, 10, body); w.Code != 403 {
		t.Errorf("editing the built-in list: %d", w.Code)
	}
	if w := e.call("DELETE", "/api/v1/netsuite/listConfiguration?type=project&id="+created.Data.ID, tok, 10, ""); w.Code != 204 {
		t.Errorf("delete: %d", w.Code)
	}
	if w := e.call("DELETE", "/api/v1/netsuite/listConfiguration?type=project&id="+created.Data.ID, tok, 10, ""); w.Code != 404 {
		t.Errorf("delete again: %d", w.Code)
	}
}

// TestPublishingNeedsListsEdit: sharing a list with a role needs
// the role's lists.edit (issue 35); without it the answer is a 403 that
// says why, nothing is saved, and private lists work as before.
func TestPublishingNeedsListsEdit(t *testing.T) {
	e, ada := recordsEnv(t)
	vic, _ := e.login(t, "acme", "uid-vic", "vic@acme.test") // role 14: views only
	tok := vic.Data.Token
	const target = "/api/v1/netsuite/listConfiguration?type=project"
	shared := `{"name":"Mine","columns":["companyname"],"visibility":"role"}`
	private := `{"name":"Mine","columns":["companyname"],"visibility":"private"}`

	w := e.call("POST", target, tok, 14, shared)
	if w.Code != 403 || !strings.Contains(w.Body.String(), "may not share") {
		t.Fatalf("sharing without lists.edit: %d %s", w.Code, w.Body)
	}
	w = e.call("POST", target, tok, 14, private)
	var created struct{ Data records.ListConfig }
	json.Unmarshal(w.Body.Bytes(), &created)
	if w.Code != 201 || created.Data.Visibility != records.Private || !created.Data.Editable {
		t.Fatalf("private list: %d %s", w.Code, w.Body)
	}
	// A private list cannot be shared later either; it stays private and editable.
	if w := e.call("PUT", target+"&id="+created.Data.ID, tok, 14, shared); w.Code != 403 {
		t.Errorf("sharing an existing list without lists.edit: %d %s", w.Code, w.Body)
	}
	if w := e.call("PUT", target+"&id="+created.Data.ID, tok, 14, strings.Replace(private, "Mine", "Renamed", 1)); w.Code != 200 {
		t.Errorf("renaming the private list: %d %s", w.Code, w.Body)
	}
	var lists struct {
		Data struct{ Lists []records.ListConfig }
	}
	e.getJSON(t, tok, 14, target, &lists)
	if len(lists.Data.Lists) != 2 || lists.Data.Lists[1].Name != "Renamed" || lists.Data.Lists[1].Visibility != records.Private {
		t.Errorf("vic's lists: %+v", lists.Data.Lists)
	}
	// A role with lists.edit shares.
	if w := e.call("POST", target, ada, 10, shared); w.Code != 201 {
		t.Errorf("sharing with lists.edit: %d %s", w.Code, w.Body)
	}
}

// A list is shared with any role the user holds that may share lists,
// whichever role they work in; never with a role they do not hold.
func TestSharingWithAnotherHeldRole(t *testing.T) {
	e, ada := recordsEnv(t) // holds 10 (Project Manager, lists.edit) and 11 (Accountant, invoices only)
	const target = "/api/v1/netsuite/listConfiguration?type=invoice"
	share := func(role int64) string {
		return fmt.Sprintf(`{"name":"Open invoices","columns":["tranid"],"visibility":"role","roleId":%d}`, role)
	}
	w := e.call("POST", target, ada, 11, share(10))
	var created struct{ Data records.ListConfig }
	json.Unmarshal(w.Body.Bytes(), &created)
	if w.Code != 201 || created.Data.RoleID != 10 {
		t.Fatalf("working as Accountant, shared with Project Manager: %d %s", w.Code, w.Body)
	}
	names := func(role int64) (out []string) {
		var lists struct {
			Data struct{ Lists []records.ListConfig }
		}
		e.getJSON(t, ada, role, target, &lists)
		for _, l := range lists.Data.Lists {
			out = append(out, l.Name)
		}
		return out
	}
	if in10, in11 := names(10), names(11); !slices.Contains(in10, "Open invoices") || slices.Contains(in11, "Open invoices") {
		t.Errorf("seen in the role shared with only: 10 %v, 11 %v", in10, in11)
	}
	if w := e.call("POST", target, ada, 10, share(11)); w.Code != 403 || !strings.Contains(w.Body.String(), "may not share") {
		t.Errorf("shared with a held role that may not share: %d %s", w.Code, w.Body)
	}
	if w := e.call("POST", target, ada, 10, share(14)); w.Code != 403 || !strings.Contains(w.Body.String(), "only with a role you hold") {
		t.Errorf("shared with a role not held: %d %s", w.Code, w.Body)
	}
}

func TestPermissionsGateKindsEverywhere(t *testing.T) {
	e, tok := recordsEnv(t)
	var kinds struct{ Data []records.Kind }
	e.getJSON(t, tok, 11, "/api/v1/kinds", &kinds)
	if len(kinds.Data) != 1 || kinds.Data[0].Name != "invoice" {
		t.Errorf("kinds for the accountant: %+v", kinds.Data)
	}
	// Every kind's route, to tell "not for your role" from "no such page".
	var routes struct{ Data []records.KindRoute }
	e.getJSON(t, tok, 11, "/api/v1/kinds/routes", &routes)
	if len(routes.Data) != len(records.All()) || !slices.Contains(routes.Data, records.KindRoute{Route: "project", Plural: "Projects"}) {
		t.Errorf("kind routes for the accountant: %+v", routes.Data)
	}
	// Role 11 (Accountant) may see invoices only.
	if w := e.call("GET", "/api/v1/netsuite/portal-list?type=invoice", tok, 11, ""); w.Code != 200 {
		t.Fatalf("invoices as accountant: %d", w.Code)
	}
	for _, target := range []string{
		"/api/v1/netsuite/portal-list?type=project",
		"/api/v1/netsuite/portal-list?type=project&format=csv",
		"/api/v1/netsuite/portal-record?type=project&id=1",
		"/api/v1/netsuite/portal-file?type=project&id=1",
		"/api/v1/netsuite/listConfiguration?type=project",
		"/api/v1/netsuite/projects",
		"/api/v1/netsuite/project?id=1",
		"/api/v1/netsuite/billing",
		"/api/v1/projectRequests",
	} {
		if w := e.call("GET", target, tok, 11, ""); w.Code != 403 {
			t.Errorf("%s as accountant: %d", target, w.Code)
		}
	}
	// A visible kind's tab listing a hidden kind is refused too.
	if w := e.call("GET", "/api/v1/netsuite/portal-record?type=invoice&id=1&tab=files", tok, 11, ""); w.Code != 200 {
		t.Errorf("invoice files as accountant: %d", w.Code)
	}
}

func TestListColumnsOverride(t *testing.T) {
	e, tok := recordsEnv(t)
	var p listPage
	if code := e.getJSON(t, tok, 10, "/api/v1/netsuite/portal-list?type=project&pageSize=2&columns=entityid,companyname", &p); code != 200 {
		t.Fatalf("columns: %d", code)
	}
	if len(p.Data.Columns) != 2 || p.Data.Columns[0].Name != "entityid" || len(p.Data.Rows[0]) < 2 {
		t.Fatalf("columns: %+v", p.Data.Columns)
	}
	for _, bad := range []string{"nosuch", "entityid,entityid", ","} {
		w := e.call("GET", "/api/v1/netsuite/portal-list?type=project&columns="+url.QueryEscape(bad), tok, 10, "")
		if w.Code != 400 || !strings.Contains(w.Body.String(), "columns") {
			t.Errorf("columns=%s: %d %s", bad, w.Code, w.Body)
		}
	}
}

// A record page never shows an older version's details (they are kept by
// version).
func TestRecordDetailsFollowNewVersions(t *testing.T) {
	e, tok := recordsEnv(t)
	ten := e.store.Tenant("acme")
	put := func(value string, at time.Time) {
		rec := records.Record{Kind: "customer", ID: 777, Title: "Versioned", ModifiedAt: at,
			Fields: []byte(`{"custentity_note": "` + value + `"}`)}
		if err := ten.PutRecords(context.Background(), []records.Record{rec}); err != nil {
			t.Fatal(err)
		}
	}
	note := func() any {
		var v struct {
			Data struct {
				Groups []struct {
					Fields []struct {
						Name  string
						Value any
					}
				}
			}
		}
		e.getJSON(t, tok, 10, "/api/v1/netsuite/portal-record?type=customer&id=777", &v)
		for _, g := range v.Data.Groups {
			for _, f := range g.Fields {
				if f.Name == "custentity_note" {
					return f.Value
				}
			}
		}
		return nil
	}
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	put("first", t0)
	if got := note(); got != "first" {
		t.Fatalf("first version: %v", got)
	}
	put("second", t0.Add(time.Second))
	if got := note(); got != "second" {
		t.Fatalf("second version: %v", got)
	}
}
