package httpapi

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"log/slog"
	"maps"
	"net/http/httptest"
	"net/url"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/portico/portico/internal/access"
	"github.com/portico/portico/internal/erpsync"
	"github.com/portico/portico/internal/events"
	"github.com/portico/portico/internal/identity"
	"github.com/portico/portico/internal/portal"
	"github.com/portico/portico/internal/records"
	"github.com/portico/portico/internal/search"
	"github.com/portico/portico/internal/session"
	"github.com/portico/portico/internal/shortlist"
	"github.com/portico/portico/internal/sqlstore"
)

// Issue 35: every read path of the HTTP API, as a project manager whose
// role has the demo's rules (the money of the projects he manages, and
// only those), answers exactly the records the rules allow, on both
// engines.

// The roles of the access-rule tenant: Pete's (rules like the demo's
// Project Manager, plus reports) and Ada's (everything, no rule).
const (
	rulesPM  = 20
	rulesAll = 21
)

var rulesAccess = access.File{
	Layouts: []access.Layout{{ID: "pm", Name: "PM", Items: []access.MenuItem{{Text: "Projects", Href: "/project/list"}}}},
	Roles: []access.Role{
		{Key: "pm", ID: rulesPM, Name: "Project Manager", Type: "staff", Layout: "pm",
			Permissions: []string{"project.view", "project.edit", "customer.view", "invoice.view", "vendorbill.view", "vendorbill.approve", "billing.view", "reports.view"},
			Rules: map[string]string{
				"invoice.view":       "job.projectmanager eq $me",
				"vendorbill.view":    "custbody_res_project.projectmanager eq $me",
				"vendorbill.approve": "nextapprover eq $me",
				"billing.view":       "custrecord_res_bil_project.projectmanager eq $me",
				"project.edit":       "projectmanager eq $me",
			}},
		{Key: "all", ID: rulesAll, Name: "Administrator", Type: "admin", Layout: "pm", Permissions: allPermissions()},
	},
	Users: []access.FileUser{
		{ID: 1, Email: "ada@acme.test", FullName: "Ada Admin", Roles: []int64{rulesAll}},
		{ID: 2, Email: "pete@acme.test", FullName: "Pete Manager", Roles: []int64{rulesPM}},
	},
}

// The records: employees Ada (1) and Pete (2); client 5; Pete's projects
// 10 and 11, Ada's 20; per project an invoice (400, 401 in CAD, 402; 403
// of no project), a vendor bill (500, 510, 520) and a milestone to bill
// (600, 610, 620). Every money record's title has "Quokka" in it.
var (
	petesInvoices    = []int64{400, 401}
	petesBills       = []int64{500, 510}
	petesMilestones  = []int64{600, 610}
	othersInvoices   = []int64{402, 403}
	othersBills      = []int64{520}
	othersMilestones = []int64{620}
)

func ruleRecord(kind string, id int64, title, status string, doc map[string]any) records.Record {
	if doc == nil {
		doc = map[string]any{}
	}
	b, _ := json.Marshal(doc)
	return records.Record{Kind: kind, ID: id, Title: title, Status: status, ModifiedAt: time.UnixMilli(1_700_000_000_000 + id).UTC(), Fields: b}
}

func seedRulesStore(t *testing.T, store *sqlstore.Store) {
	t.Helper()
	ctx := context.Background()
	if err := store.EnsureTenant(ctx, "acme", "acme"); err != nil {
		t.Fatal(err)
	}
	ten := store.Tenant("acme")
	if err := ten.ImportAccess(ctx, rulesAccess); err != nil {
		t.Fatal(err)
	}
	rs := []records.Record{
		ruleRecord("employee", 1, "Ada Admin", "Administration", map[string]any{"email": "ada@acme.test"}),
		ruleRecord("employee", 2, "Pete Manager", "Ecology", map[string]any{"email": "pete@acme.test"}),
		ruleRecord("customer", 5, "Acme Water", "Active", nil),
	}
	for _, p := range []struct {
		id, manager int64
		title       string
	}{{10, 2, "Willow Creek"}, {11, 2, "Heron Marsh"}, {20, 1, "Fox Hollow"}} {
		r := ruleRecord("project", p.id, p.title, "Active", map[string]any{"projectmanager": map[string]any{"id": fmt.Sprint(p.manager), "refName": "x"}})
		r.ParentID, r.ParentName = 5, "Acme Water"
		rs = append(rs, r)
	}
	for i, project := range []int64{10, 11, 20, 0} {
		amount := int64(10000 * (i + 1)) // 100.00, 200.00, 300.00, 400.00
		inv := ruleRecord("invoice", int64(400+i), fmt.Sprintf("Quokka invoice %d", 400+i), "Open",
			map[string]any{"duedate": "2026-01-15", "amountremaining": float64(amount) / 100})
		inv.ProjectID, inv.ProjectName, inv.ParentID, inv.ParentName, inv.Amount = project, "x", 5, "Acme Water", &amount
		if i == 1 {
			inv.Currency = "CAD"
		}
		rs = append(rs, inv)
	}
	for i, project := range []int64{10, 11, 20} {
		amount := int64(1000 * (i + 1))
		bill := ruleRecord("vendorbill", int64(500+10*i), fmt.Sprintf("Quokka bill %d", 500+10*i), "Open",
			map[string]any{"duedate": "2026-01-15", "amountremaining": float64(amount) / 100})
		bill.ProjectID, bill.ProjectName, bill.Amount = project, "x", &amount
		ms := ruleRecord("billing", int64(600+10*i), fmt.Sprintf("Quokka milestone %d", 600+10*i), "Ready to bill", nil)
		ms.ProjectID, ms.ProjectName, ms.Amount = project, "x", &amount
		rs = append(rs, bill, ms)
	}
	if err := ten.PutRecords(ctx, rs); err != nil {
		t.Fatal(err)
	}
}

// rulesInstance serves store with live updates and, when set in its
// syncs, an ERP sync per tenant.
func rulesInstance(t *testing.T, store *sqlstore.Store) *eventsInstance {
	t.Helper()
	var logs strings.Builder
	log := slog.New(slog.NewTextHandler(&logs, nil))
	verifier, err := identity.NewVerifier(context.Background(), identity.Config{ProjectID: "demo-test", EmulatorHost: "127.0.0.1:1"}, log)
	if err != nil {
		t.Fatal(err)
	}
	sig := sqlstore.NewSignals(store, log)
	t.Cleanup(func() { sig.Close() })
	store.AnnounceEvents(sig)
	hub := events.NewHub(func(t portal.TenantID) events.Log { return store.Tenant(t) }, sig, log)
	sessions := session.NewManager(func(t portal.TenantID) session.Store { return store.Tenant(t) }, session.Options{
		Key: []byte(strings.Repeat("k", 32)), AccessTTL: 15 * time.Minute, RefreshTTL: time.Hour, MaxAge: 24 * time.Hour,
	})
	e := &authEnv{store: store, logs: &logs}
	srv, err := NewServer(Options{
		Logger: log, Store: store, Identity: verifier, Sessions: sessions,
		Tenants:          func(t portal.TenantID) TenantStore { return store.Tenant(t) },
		LoginPerMinuteIP: 1000, LoginPerMinuteAccount: 1000, ERP: "netsuite", Product: "portal",
		Syncs:  func(t portal.TenantID) Syncer { return e.syncs[t] },
		Events: hub, EventsHeartbeat: 200 * time.Millisecond, Currency: "USD",
	})
	if err != nil {
		t.Fatal(err)
	}
	e.srv = srv
	ts := httptest.NewServer(srv)
	t.Cleanup(ts.Close)
	return &eventsInstance{authEnv: e, url: ts.URL, server: ts}
}

// onRuleEngines runs fn over the access-rule tenant on SQLite, and on
// PostgreSQL when PORTICO_TEST_DATABASE_URL is set.
func onRuleEngines(t *testing.T, fn func(t *testing.T, in *eventsInstance)) {
	t.Run("sqlite", func(t *testing.T) {
		store := sqliteStore(t)
		seedRulesStore(t, store)
		fn(t, rulesInstance(t, store))
	})
	t.Run("postgres", func(t *testing.T) {
		base := os.Getenv("PORTICO_TEST_DATABASE_URL")
		if base == "" {
			t.Skip("PORTICO_TEST_DATABASE_URL is not set")
		}
		store, drop, err := sqlstore.OpenScratch(context.Background(), base)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { store.Close(); drop() })
		seedRulesStore(t, store)
		fn(t, rulesInstance(t, store))
	})
}

// rowIDs are the ids of a list's or tab's rows, sorted.
func rowIDs(rows []map[string]any) []int64 {
	out := []int64{}
	for _, r := range rows {
		if id, ok := r["id"].(float64); ok {
			out = append(out, int64(id))
		}
	}
	slices.Sort(out)
	return out
}

// unitTotals writes totals as {unit: total} ("" the base currency).
func unitTotals(ts []records.UnitTotal) map[string]float64 {
	out := map[string]float64{}
	for _, u := range ts {
		out[u.Unit] += u.Total
	}
	return out
}

func sameTotals(got []records.UnitTotal, want map[string]float64) bool {
	g := unitTotals(got)
	if len(g) != len(want) {
		return false
	}
	for u, v := range want {
		if d := g[u] - v; d > 0.005 || d < -0.005 {
			return false
		}
	}
	return true
}

// Lists, counts, totals, CSV exports, bulk exports and the named list
// paths of the kinds under a rule hold Pete's records only, however they
// are filtered, searched, sorted or paged; a kind without a rule is whole.
func TestAccessRulesLists(t *testing.T) {
	onRuleEngines(t, func(t *testing.T, in *eventsInstance) {
		pete := in.token(t, "acme", "uid-pete", "pete@acme.test")
		ada := in.token(t, "acme", "uid-ada", "ada@acme.test")
		for _, c := range []struct {
			kind, amount string
			pete, all    []int64
			totals       map[string]float64
		}{
			{"invoice", "total", petesInvoices, append(slices.Clone(petesInvoices), othersInvoices...), map[string]float64{"": 100, "CAD": 200}},
			{"vendorbill", "total", petesBills, append(slices.Clone(petesBills), othersBills...), map[string]float64{"": 30}},
			{"billing", "custrecord_res_bil_amount", petesMilestones, append(slices.Clone(petesMilestones), othersMilestones...), map[string]float64{"": 30}},
		} {
			for _, query := range []string{"", "&q=Quokka", "&sort=" + c.amount + "&dir=desc", "&filter=" + url.QueryEscape(c.amount+" gt 0")} {
				var p listPage
				target := "/api/v1/netsuite/portal-list?type=" + c.kind + "&pageSize=50&count=true&totals=true" + query
				if code := in.getJSON(t, pete, rulesPM, target, &p); code != 200 {
					t.Fatalf("%s: %d", target, code)
				}
				if got := rowIDs(p.Data.Rows); !slices.Equal(got, c.pete) || p.Data.Total == nil || *p.Data.Total != int64(len(c.pete)) {
					t.Errorf("%s: rows %v count %v, want %v", target, got, p.Data.Total, c.pete)
				}
				if !sameTotals(p.Data.Totals[c.amount], c.totals) {
					t.Errorf("%s: totals %+v, want %v", target, p.Data.Totals[c.amount], c.totals)
				}
			}
			// Paged one by one: the same records, no more.
			var paged []int64
			cursor := ""
			for range 10 {
				var p listPage
				in.getJSON(t, pete, rulesPM, "/api/v1/netsuite/portal-list?type="+c.kind+"&pageSize=1&cursor="+url.QueryEscape(cursor), &p)
				paged = append(paged, rowIDs(p.Data.Rows)...)
				if !p.Data.HasMore {
					break
				}
				cursor = *p.Data.NextCursor
			}
			if slices.Sort(paged); !slices.Equal(paged, c.pete) {
				t.Errorf("%s paged: %v, want %v", c.kind, paged, c.pete)
			}
			// Ada, without a rule, sees them all.
			var all listPage
			in.getJSON(t, ada, rulesAll, "/api/v1/netsuite/portal-list?type="+c.kind+"&pageSize=50&count=true", &all)
			if got := rowIDs(all.Data.Rows); !slices.Equal(got, c.all) {
				t.Errorf("%s for Ada: %v, want %v", c.kind, got, c.all)
			}
			// The CSV export: a line per record of his, none of the others.
			w := in.call("GET", "/api/v1/netsuite/portal-list?type="+c.kind+"&format=csv", pete, rulesPM, "")
			lines, err := csv.NewReader(strings.NewReader(w.Body.String())).ReadAll()
			if w.Code != 200 || err != nil || len(lines) != len(c.pete)+1 {
				t.Errorf("%s CSV: %d %v %q", c.kind, w.Code, err, w.Body)
			}
			for _, id := range c.all {
				if has := strings.Contains(w.Body.String(), " "+strconv.FormatInt(id, 10)); has != slices.Contains(c.pete, id) {
					t.Errorf("%s CSV: record %d there %v", c.kind, id, has)
				}
			}
			// The bulk export of a selection naming every record.
			var ids []string
			for _, id := range c.all {
				ids = append(ids, strconv.FormatInt(id, 10))
			}
			w = in.call("GET", "/api/v1/netsuite/portal-bulk?type="+c.kind+"&ids="+strings.Join(ids, ","), pete, rulesPM, "")
			for _, id := range c.all {
				if has := strings.Contains(w.Body.String(), " "+strconv.FormatInt(id, 10)); has != slices.Contains(c.pete, id) {
					t.Errorf("%s bulk export: record %d there %v (%d %q)", c.kind, id, has, w.Code, w.Body)
				}
			}
			// A filter naming another manager's project finds nothing.
			proj, _ := func() (records.Field, bool) { k, _ := records.Lookup(c.kind); return k.Field(records.ColProject) }()
			var theirs listPage
			in.getJSON(t, pete, rulesPM, "/api/v1/netsuite/portal-list?type="+c.kind+"&count=true&totals=true&filter="+url.QueryEscape(proj.Name+" eq 20"), &theirs)
			if len(theirs.Data.Rows) != 0 || theirs.Data.Total == nil || *theirs.Data.Total != 0 || !sameTotals(theirs.Data.Totals[c.amount], map[string]float64{"": 0}) {
				t.Errorf("%s of project 20: %+v", c.kind, theirs.Data)
			}
		}
		// The named list path with ?projectId=: his project's milestones,
		// none of another's.
		for project, want := range map[int64][]int64{10: {600}, 11: {610}, 20: {}} {
			var p listPage
			in.getJSON(t, pete, rulesPM, fmt.Sprintf("/api/v1/netsuite/billing?projectId=%d&count=true", project), &p)
			if got := rowIDs(p.Data.Rows); !slices.Equal(got, want) || *p.Data.Total != int64(len(want)) {
				t.Errorf("billing of project %d: %v, want %v", project, got, want)
			}
		}
		// Projects have no view rule: all three.
		var projects listPage
		in.getJSON(t, pete, rulesPM, "/api/v1/netsuite/projects?count=true", &projects)
		if got := rowIDs(projects.Data.Rows); !slices.Equal(got, []int64{10, 11, 20}) {
			t.Errorf("projects: %v", got)
		}
	})
}

// The global search and the grouped search find, of the records under a
// rule, Pete's only, and count only those.
func TestAccessRulesSearch(t *testing.T) {
	onRuleEngines(t, func(t *testing.T, in *eventsInstance) {
		pete := in.token(t, "acme", "uid-pete", "pete@acme.test")
		allowed := map[string][]int64{"invoice": petesInvoices, "vendorbill": petesBills, "billing": petesMilestones}
		check := func(what string, results []search.Result, only ...string) {
			t.Helper()
			got := map[string][]int64{}
			for _, r := range results {
				got[r.Type] = append(got[r.Type], r.ID)
			}
			for kind, want := range allowed {
				if len(only) > 0 && !slices.Contains(only, kind) {
					continue
				}
				slices.Sort(got[kind])
				if !slices.Equal(got[kind], want) {
					t.Errorf("%s: %s %v, want %v", what, kind, got[kind], want)
				}
			}
		}
		code, results := in.search(t, pete, rulesPM, "Quokka")
		if code != 200 {
			t.Fatalf("search: %d", code)
		}
		check("search", results)
		for kind := range allowed {
			_, typed := in.search(t, pete, rulesPM, "Quokka", "&type="+kind)
			check("search of "+kind, typed, kind)
		}
		for _, id := range othersInvoices { // by the exact title
			if _, found := in.search(t, pete, rulesPM, fmt.Sprintf("Quokka invoice %d", id)); slices.ContainsFunc(found, func(r search.Result) bool { return r.Type == "invoice" && r.ID == id }) {
				t.Errorf("search by its title found invoice %d", id)
			}
		}
		var g struct{ Data search.Grouped }
		if code := in.getJSON(t, pete, rulesPM, "/api/v1/netsuite/portal?method=search&groups=true&query=Quokka", &g); code != 200 {
			t.Fatalf("grouped search: %d", code)
		}
		check("grouped search", g.Data.Results)
		counts := map[string]int{}
		for _, gr := range g.Data.Groups {
			counts[gr.Type] = gr.Count
		}
		for kind, want := range allowed {
			if counts[kind] != len(want) {
				t.Errorf("grouped search counts %d %s, want %d", counts[kind], kind, len(want))
			}
		}
		// Buried: the index's best answers become newer invoices of Ada's
		// project, which the rule drops (more than either engine's index
		// reads: SQLite walks 40 deep, PostgreSQL a window of 300); Pete's
		// still come up.
		var later []records.Record
		for i := range 400 {
			amount := int64(100)
			inv := ruleRecord("invoice", int64(1000+i), fmt.Sprintf("Quokka invoice later %d", i), "Open", nil)
			inv.ProjectID, inv.ProjectName, inv.ParentID, inv.ParentName, inv.Amount = 20, "x", 5, "Acme Water", &amount
			inv.ModifiedAt = time.Now().UTC()
			later = append(later, inv)
		}
		if err := in.store.Tenant("acme").PutRecords(context.Background(), later); err != nil {
			t.Fatal(err)
		}
		_, buried := in.search(t, pete, rulesPM, "Quokka invoice", "&type=invoice")
		check("search among newer invoices of another manager", buried, "invoice")
		// Found by the list, not the index: after what the index answers, in
		// the list's order (by name), whatever their times.
		if len(buried) != 2 || buried[0].ID != 400 || buried[1].ID != 401 {
			t.Errorf("buried invoices ranked %+v, want 400 then 401", buried)
		}
	})
}

// Under a rule that is the owner's alone ("projectmanager eq $me"), the
// search answers the user's matches, though everyone else's newer ones
// fill what the index answers, and never another's: the first of his list
// with the text, in its order (by name).
func TestAccessRulesSearchOwnRecords(t *testing.T) {
	const rulesOwn = 22
	onRuleEngines(t, func(t *testing.T, in *eventsInstance) {
		ctx := context.Background()
		ten := in.store.Tenant("acme")
		f := rulesAccess
		f.Roles = append(slices.Clone(f.Roles), access.Role{Key: "own", ID: rulesOwn, Name: "Own projects", Type: "staff", Layout: "pm",
			Permissions: []string{"project.view", "customer.view"}, Rules: map[string]string{"project.view": "projectmanager eq $me"}})
		f.Users = slices.Clone(f.Users)
		f.Users[1].Roles = []int64{rulesPM, rulesOwn}
		if err := ten.ImportAccess(ctx, f); err != nil {
			t.Fatal(err)
		}
		// Pete's 25 ponds, then 400 newer hills of Ada's.
		project := func(id, manager int64, title string) records.Record {
			return ruleRecord("project", id, title, "Active", map[string]any{"projectmanager": map[string]any{"id": fmt.Sprint(manager), "refName": "x"}})
		}
		var petes, adas []records.Record
		for i := range 25 {
			petes = append(petes, project(int64(1000+i), 2, fmt.Sprintf("Quokka Pond %d", i)))
		}
		for i := range 400 {
			adas = append(adas, project(int64(2000+i), 1, fmt.Sprintf("Quokka Hill %d", i)))
		}
		for _, rs := range [][]records.Record{petes, adas} {
			if err := ten.PutRecords(ctx, rs); err != nil {
				t.Fatal(err)
			}
		}
		pete := in.token(t, "acme", "uid-pete", "pete@acme.test")
		code, results := in.search(t, pete, rulesOwn, "Quokka")
		if code != 200 {
			t.Fatalf("search: %d", code)
		}
		var got []int64
		for _, r := range results {
			if r.Type != "project" || r.ID < 1000 || r.ID >= 1025 {
				t.Fatalf("not one of Pete's ponds: %+v", r)
			}
			got = append(got, r.ID)
		}
		// His first 20 by name.
		slices.SortFunc(petes, func(a, b records.Record) int { return strings.Compare(a.Title, b.Title) })
		var want []int64
		for _, r := range petes[:search.Limit] {
			want = append(want, r.ID)
		}
		if !slices.Equal(got, want) {
			t.Errorf("Pete's ponds %v, want his first %d by name: %v", got, search.Limit, want)
		}
	})
}

// A record outside the rule is not found, the same answer as a record
// that does not exist, on its page, its tabs and its files, with or
// without an ERP behind the portal; the tabs of a project (and a client)
// hold Pete's records of each kind only.
func TestAccessRulesRecordPagesAndTabs(t *testing.T) {
	onRuleEngines(t, func(t *testing.T, in *eventsInstance) {
		ctx := context.Background()
		pete := in.token(t, "acme", "uid-pete", "pete@acme.test")
		// A file on an invoice of each manager.
		for _, id := range []int64{400, 402} {
			if _, err := in.store.Tenant("acme").AddFile(ctx, records.FileWrite{File: records.File{Kind: "invoice", RecordID: id, Name: fmt.Sprintf("scan-%d.pdf", id),
				ContentType: "application/pdf", ModifiedAt: time.Now().UTC(), Content: []byte("%PDF-1.4")}, By: records.Author{UserID: 1, RoleID: rulesAll}}); err != nil {
				t.Fatal(err)
			}
		}
		problem := func(target string) (int, string) {
			w := in.call("GET", target, pete, rulesPM, "")
			var p Problem
			json.Unmarshal(w.Body.Bytes(), &p)
			return w.Code, p.Title + "|" + p.Detail
		}
		for _, erp := range []bool{false, true} {
			if erp {
				in.syncs = map[portal.TenantID]Syncer{"acme": erpsync.New(nil, in.store.Tenant("acme"), erpsync.Options{})}
			}
			for kind, ids := range map[string][2][]int64{"invoice": {petesInvoices, othersInvoices}, "vendorbill": {petesBills, othersBills}, "billing": {petesMilestones, othersMilestones}} {
				for _, id := range ids[0] {
					if code, p := problem(fmt.Sprintf("/api/v1/netsuite/portal-record?type=%s&id=%d", kind, id)); code != 200 {
						t.Errorf("erp %v: his %s %d: %d %s", erp, kind, id, code, p)
					}
				}
				k, _ := records.Lookup(kind)
				for _, id := range ids[1] {
					targets := []string{fmt.Sprintf("/api/v1/netsuite/portal-record?type=%s&id=%%d", kind), fmt.Sprintf("/api/v1/netsuite/portal-file?type=%s&id=%%d", kind)}
					for _, tab := range k.Tabs {
						targets = append(targets, fmt.Sprintf("/api/v1/netsuite/portal-record?type=%s&id=%%d&tab=%s", kind, tab.Name))
					}
					for _, target := range targets {
						code, p := problem(fmt.Sprintf(target, id))
						missingCode, missing := problem(fmt.Sprintf(target, 999999))
						if code != 404 || code != missingCode || p != strings.ReplaceAll(missing, "999999", strconv.FormatInt(id, 10)) {
							t.Errorf("erp %v: %s: %d %q; a missing record: %d %q", erp, fmt.Sprintf(target, id), code, p, missingCode, missing)
						}
					}
				}
			}
			// His invoice's files are his to see (with an ERP, the ERP's:
			// none here).
			var files struct{ Data []fileInfo }
			if code := in.getJSON(t, pete, rulesPM, "/api/v1/netsuite/portal-file?type=invoice&id=400", &files); code != 200 || len(files.Data) != map[bool]int{false: 1, true: 0}[erp] {
				t.Errorf("erp %v: files of his invoice: %d %+v", erp, code, files.Data)
			}
		}
		in.syncs = nil

		type tab struct {
			kind string
			id   int64
			name string
		}
		for c, want := range map[tab][]int64{
			{"project", 10, "invoices"}: {400}, {"project", 10, "costdetails"}: {500}, {"project", 10, "billing"}: {600},
			{"project", 11, "invoices"}: {401}, {"project", 11, "costdetails"}: {510}, {"project", 11, "billing"}: {610},
			{"project", 20, "invoices"}: {}, {"project", 20, "costdetails"}: {}, {"project", 20, "billing"}: {},
			{"customer", 5, "invoices"}: petesInvoices,
		} {
			var a tabAnswerJSON
			target := fmt.Sprintf("/api/v1/netsuite/portal-record?type=%s&id=%d&tab=%s", c.kind, c.id, c.name)
			if code := in.getJSON(t, pete, rulesPM, target, &a); code != 200 {
				t.Errorf("%s: %d", target, code)
				continue
			}
			if got := rowIDs(a.Data.Rows); !slices.Equal(got, want) {
				t.Errorf("%s: %v, want %v", target, got, want)
			}
		}
		// The equipment charges beside the vendor bills are the project's
		// costs too: his projects' (and the accountant's, who sees every
		// bill), never another manager's (asked of the service or not).
		asked := equipmentService(t, in.authEnv, 200, `{"data": [{"id": 9, "date": "2026-03-07", "equipment": "Excavator 320", "hours": 6.5, "rate": 120, "amount": 780}]}`)
		for _, c := range []struct {
			token  string
			role   int64
			id     int64
			charge bool
		}{{pete, rulesPM, 10, true}, {pete, rulesPM, 11, true}, {pete, rulesPM, 20, false}, {in.token(t, "acme", "uid-ada", "ada@acme.test"), rulesAll, 20, true}} {
			var cost costDetails
			target := fmt.Sprintf("/api/v1/netsuite/portal-record?type=project&id=%d&tab=costdetails", c.id)
			if code := in.getJSON(t, c.token, c.role, target, &cost); code != 200 || (cost.Data.Equipment != nil) != c.charge ||
				(c.charge && len(cost.Data.Equipment.Rows) != 1) {
				t.Errorf("role %d, %s: %d, equipment %+v", c.role, target, code, cost.Data.Equipment)
			}
		}
		if got := strings.Join(*asked, ","); got != "10,11,20" {
			t.Errorf("the service was asked for projects %s, want 10,11,20 (Ada's)", got)
		}
		// Another manager's project itself is his to see (no rule on
		// projects).
		if code, p := problem("/api/v1/netsuite/project?id=20"); code != 200 {
			t.Errorf("project 20: %d %s", code, p)
		}
	})
}

// The dashboard's receivables and payables, and his projects' open
// items, count only the records under his rules.
func TestAccessRulesDashboard(t *testing.T) {
	onRuleEngines(t, func(t *testing.T, in *eventsInstance) {
		pete := in.token(t, "acme", "uid-pete", "pete@acme.test")
		var d struct{ Data records.Dashboard }
		if code := in.getJSON(t, pete, rulesPM, "/api/v1/dashboard", &d); code != 200 {
			t.Fatalf("dashboard: %d", code)
		}
		if d.Data.Employee == nil || d.Data.Employee.ID != 2 {
			t.Fatalf("employee: %+v", d.Data.Employee)
		}
		want := map[string]struct {
			count  int64
			totals map[string]float64
		}{"invoice": {2, map[string]float64{"": 100, "CAD": 200}}, "vendorbill": {2, map[string]float64{"": 30}}}
		for _, a := range d.Data.Aging {
			w, ok := want[a.Kind]
			if !ok {
				continue
			}
			delete(want, a.Kind)
			if a.Outstanding.Count != w.count || a.Overdue.Count != w.count || !sameTotals(a.Outstanding.Totals, w.totals) {
				t.Errorf("%s aging: outstanding %+v overdue %+v, want %d %v", a.Kind, a.Outstanding, a.Overdue, w.count, w.totals)
			}
			var n int64
			for _, b := range a.Buckets {
				n += b.Count
			}
			if n != w.count {
				t.Errorf("%s aging buckets count %d, want %d", a.Kind, n, w.count)
			}
		}
		if len(want) != 0 {
			t.Errorf("no aging of %v: %+v", want, d.Data.Aging)
		}
		if d.Data.Projects == nil || d.Data.Projects.All.Count != 2 || len(d.Data.Projects.Rows) != 2 {
			t.Fatalf("his projects: %+v", d.Data.Projects)
		}
		for _, p := range d.Data.Projects.Rows {
			for _, c := range p.Open {
				if c.Count != 1 {
					t.Errorf("project %d %s: %d, want 1", p.ID, c.Label, c.Count)
				}
			}
		}
		// His projects follow a rule on projects too: one no project of
		// his meets (another client's) leaves him none.
		f := rulesAccess
		f.Roles = slices.Clone(rulesAccess.Roles)
		f.Roles[0].Rules = maps.Clone(f.Roles[0].Rules)
		f.Roles[0].Rules["project.view"] = "customer eq 6"
		if err := in.store.Tenant("acme").ImportAccess(context.Background(), f); err != nil {
			t.Fatal(err)
		}
		d.Data = records.Dashboard{}
		if code := in.getJSON(t, pete, rulesPM, "/api/v1/dashboard", &d); code != 200 || d.Data.Projects == nil ||
			d.Data.Projects.All.Count != 0 || len(d.Data.Projects.Rows) != 0 {
			t.Errorf("his projects under a rule none of them meets: %d %+v", code, d.Data.Projects)
		}
	})
}

// Reports run over Pete's records only: grouped, as a table, and as CSV.
func TestAccessRulesReports(t *testing.T) {
	onRuleEngines(t, func(t *testing.T, in *eventsInstance) {
		pete := in.token(t, "acme", "uid-pete", "pete@acme.test")
		grouped := map[string]any{"name": "By status", "columns": []string{"memo", "total"}, "visibility": "private",
			"report": map[string]any{"groupBy": "status", "chart": "bar", "aggregates": []map[string]any{{"fn": "count"}, {"fn": "sum", "field": "total"}}}}
		code, body := in.postJSON(t, pete, rulesPM, "POST", "/api/v1/reports/run?type=invoice", grouped)
		var run reportRun
		json.Unmarshal(body, &run)
		// His two, one a row per currency: counted and summed (100.00,
		// 200.00 CAD), with none of the others' 300.00 and 400.00.
		sums := map[string]float64{}
		var n float64
		for _, r := range run.Data.Rows {
			n += r["v0"].(float64)
			unit, _ := r["_currency"].(string)
			sums[unit] += r["v1"].(float64)
		}
		if code != 200 || !run.Data.Grouped || n != 2 || !maps.Equal(sums, map[string]float64{"": 100, "CAD": 200}) {
			t.Errorf("grouped report: %d %s", code, body)
		}
		table := map[string]any{"name": "All", "columns": []string{"memo", "total"}, "visibility": "private", "report": map[string]any{"chart": "table"}}
		code, body = in.postJSON(t, pete, rulesPM, "POST", "/api/v1/reports/run?type=invoice", table)
		run = reportRun{}
		json.Unmarshal(body, &run)
		if got := rowIDs(run.Data.Rows); code != 200 || run.Data.Total != 2 || !slices.Equal(got, petesInvoices) {
			t.Errorf("table report: %d %v %s", code, got, body)
		}
		// Saved, then run and downloaded.
		code, body = in.postJSON(t, pete, rulesPM, "POST", "/api/v1/reports?type=invoice", table)
		var saved struct{ Data records.ListConfig }
		if json.Unmarshal(body, &saved); code != 201 {
			t.Fatalf("save: %d %s", code, body)
		}
		w := in.call("GET", "/api/v1/reports/run?format=csv&id="+saved.Data.ID, pete, rulesPM, "")
		for _, id := range append(slices.Clone(petesInvoices), othersInvoices...) {
			if has := strings.Contains(w.Body.String(), " "+strconv.FormatInt(id, 10)); has != slices.Contains(petesInvoices, id) {
				t.Errorf("report CSV: invoice %d there %v (%d %q)", id, has, w.Code, w.Body)
			}
		}
	})
}

// Recent and favourites keep only what he may see now; a record outside
// the rule cannot be shelved.
func TestAccessRulesShortlists(t *testing.T) {
	onRuleEngines(t, func(t *testing.T, in *eventsInstance) {
		ctx := context.Background()
		pete := in.token(t, "acme", "uid-pete", "pete@acme.test")
		ten := in.store.Tenant("acme")
		at := time.Now().UTC().Add(-time.Hour)
		// Shelved before the rules (as from another role of his).
		for i, r := range []struct {
			kind string
			id   int64
		}{{"invoice", 400}, {"invoice", 402}, {"invoice", 403}, {"vendorbill", 520}, {"billing", 620}, {"billing", 600}, {"project", 20}} {
			for _, sh := range []shortlist.Shelf{shortlist.Recent, shortlist.Favourites} {
				if err := ten.ShortlistAdd(ctx, 2, sh, r.kind, r.id, at.Add(time.Duration(i)*time.Second)); err != nil {
					t.Fatal(err)
				}
			}
		}
		want := []string{"billing 600", "invoice 400", "project 20"}
		for _, path := range []string{"/api/v1/me/recent", "/api/v1/me/favourites"} {
			var a struct {
				Data []struct {
					Type string
					ID   int64
				}
			}
			if code := in.getJSON(t, pete, rulesPM, path, &a); code != 200 {
				t.Fatalf("%s: %d", path, code)
			}
			var got []string
			for _, e := range a.Data {
				got = append(got, fmt.Sprintf("%s %d", e.Type, e.ID))
			}
			if slices.Sort(got); !slices.Equal(got, want) {
				t.Errorf("%s: %v, want %v", path, got, want)
			}
		}
		for _, c := range []struct {
			method, path string
			code         int
		}{
			{"POST", "/api/v1/me/recent?type=invoice&id=402", 404}, {"PUT", "/api/v1/me/favourites?type=invoice&id=402", 404},
			{"POST", "/api/v1/me/recent?type=vendorbill&id=520", 404}, {"POST", "/api/v1/me/recent?type=invoice&id=401", 204},
		} {
			if w := in.call(c.method, c.path, pete, rulesPM, ""); w.Code != c.code {
				t.Errorf("%s %s: %d, want %d", c.method, c.path, w.Code, c.code)
			}
		}
	})
}

// The live event stream tells Pete of a change to a record he may see,
// never of one to a record outside his rules; an event naming both is
// cut to his.
func TestAccessRulesEvents(t *testing.T) {
	onRuleEngines(t, func(t *testing.T, in *eventsInstance) {
		ctx := context.Background()
		pete := in.token(t, "acme", "uid-pete", "pete@acme.test")
		s, resp := in.openStream(t, pete, rulesPM, "", nil)
		if s == nil {
			t.Fatalf("stream: %d", resp.StatusCode)
		}
		s.started(t)
		ten := in.store.Tenant("acme")
		file := func(kind string, id int64) {
			t.Helper()
			if _, err := ten.AddFile(ctx, records.FileWrite{File: records.File{Kind: kind, RecordID: id, Name: "x.pdf",
				ContentType: "application/pdf", ModifiedAt: time.Now().UTC(), Content: []byte("%PDF-1.4")}, By: records.Author{UserID: 1, RoleID: rulesAll}}); err != nil {
				t.Fatal(err)
			}
		}
		// Changes outside his rules first, then one inside: the first
		// event he gets is the last change's.
		file("invoice", 402)
		file("invoice", 403)
		file("vendorbill", 520)
		file("billing", 620)
		file("invoice", 401)
		if d := recordEvent(t, s.next(t, 5*time.Second)); d.Kind != "invoice" || !slices.Equal(d.IDs, []int64{401}) {
			t.Errorf("first event: %+v, want invoice 401's", d)
		}
		file("billing", 600)
		if d := recordEvent(t, s.next(t, 5*time.Second)); d.Kind != "billing" || !slices.Equal(d.IDs, []int64{600}) {
			t.Errorf("second event: %+v, want billing 600's", d)
		}
		s.quiet(t, 300*time.Millisecond)

		// One event naming records on both sides of the rule (a sync's):
		// cut to his; one naming only others' dropped; presence on a
		// record he may not see dropped.
		p := access.Role{}
		for _, r := range rulesAccess.Roles {
			if r.ID == rulesPM {
				p = r
			}
		}
		g := records.NewGuard(ten, p, "pete@acme.test")
		mixed := events.RecordChange("invoice", events.ActionSync, []int64{400, 402, 401, 403}, 0, time.Now(), "")
		e, err := (&events.Event{ID: 7, Type: mixed.Type, Kind: mixed.Kind, Data: mixed.Data}).SeenBy(ctx, g)
		var d events.RecordData
		if err != nil || e == nil || json.Unmarshal(e.Data, &d) != nil || !slices.Equal(d.IDs, []int64{400, 401}) || regexp.MustCompile(`[\[,:]402[\],}]`).Match(e.Data) { // not the time's milliseconds
			t.Errorf("mixed event: %+v %v", e, err)
		}
		// A change of more records than one event names (a large sync's)
		// is told him as his alone, never as a count of them all.
		large := []int64{402, 400}
		for i := range events.MaxIDs {
			large = append(large, int64(5000+i))
		}
		var told []int64
		for _, c := range events.RecordChanges("invoice", events.ActionSync, large, 0, time.Now(), "") {
			e, err := (&events.Event{ID: 9, Type: c.Type, Kind: c.Kind, Data: c.Data}).SeenBy(ctx, g)
			if err != nil {
				t.Fatal(err)
			}
			if e != nil {
				var d events.RecordData
				json.Unmarshal(e.Data, &d)
				told = append(told, d.IDs...)
			}
		}
		if !slices.Equal(told, []int64{400}) {
			t.Errorf("a large change told him of %v, want [400]", told)
		}
		theirs := events.RecordChange("vendorbill", events.ActionSync, []int64{520}, 0, time.Now(), "")
		if e, err := (&events.Event{ID: 8, Type: theirs.Type, Kind: theirs.Kind, Data: theirs.Data}).SeenBy(ctx, g); e != nil || err != nil {
			t.Errorf("event of another's bill: %+v %v", e, err)
		}
		editing, _ := json.Marshal(events.EditingData{Kind: "invoice", ID: 402, UserID: 1, User: "Ada Admin", Until: time.Now().Add(time.Minute)})
		if e, err := (&events.Event{Type: events.TypeEditing, Kind: "invoice", Data: editing}).SeenBy(ctx, g); e != nil || err != nil {
			t.Errorf("presence on another's invoice: %+v %v", e, err)
		}
	})
}

// An edit rule: his project saves, by form and by bulk edit; another
// manager's answers not found, and is unchanged.
func TestAccessRulesEdit(t *testing.T) {
	onRuleEngines(t, func(t *testing.T, in *eventsInstance) {
		pete := in.token(t, "acme", "uid-pete", "pete@acme.test")
		for id, want := range map[int64]int{10: 200, 20: 404, 999999: 404} {
			var before viewAnswer
			in.getJSON(t, pete, rulesPM, fmt.Sprintf("/api/v1/netsuite/portal-record?type=project&id=%d", id), &before)
			version := before.Data.Version
			if version.IsZero() {
				version = time.Now()
			}
			code, _, p := in.save(t, pete, rulesPM, "PUT", fmt.Sprintf("/api/v1/netsuite/portal-crud?type=project&id=%d", id),
				map[string]any{"fields": map[string]any{"companyname": "Renamed by Pete"}, "version": version})
			if code != want {
				t.Errorf("edit of project %d: %d %+v, want %d", id, code, p, want)
			}
		}
		code, res, p := in.bulk(t, pete, rulesPM, "project", map[string]any{"ids": []int64{11, 20}, "field": "projectedtotal", "value": 1000}, "")
		if code != 200 || res.Saved != 1 || res.Failed != 1 {
			t.Fatalf("bulk edit: %d %+v %+v", code, res, p)
		}
		for _, o := range res.Results {
			if o.Saved != (o.ID == 11) {
				t.Errorf("bulk edit of %d: %+v", o.ID, o)
			}
		}
		var v viewAnswer
		in.getJSON(t, pete, rulesPM, "/api/v1/netsuite/portal-record?type=project&id=20", &v)
		if v.Data.Title != "Fox Hollow" {
			t.Errorf("Ada's project is now %q", v.Data.Title)
		}
		for id, edited := range map[int64]bool{11: true, 20: false} {
			r, err := in.store.Tenant("acme").Record(context.Background(), "project", id)
			if err != nil || strings.Contains(string(r.Fields), `"projectedtotal"`) != edited {
				t.Errorf("project %d after the bulk edit: %s %v", id, r.Fields, err)
			}
		}
		// A note on another's project needs its edit scope too.
		if code, _, _ := in.addNote(t, pete, rulesPM, noteURL+"?type=project&id=20", "Mine now.", nil); code != 404 {
			t.Errorf("note on project 20: %d", code)
		}
		// So do retrying or discarding its change the ERP has not taken,
		// and saying he is editing it: not found, as a missing project is.
		// Ada's change of her project 20, refused by the ERP, is hers.
		in.syncs = map[portal.TenantID]Syncer{"acme": erpsync.New(nil, in.store.Tenant("acme"), erpsync.Options{})}
		defer func() { in.syncs = nil }()
		ada := in.token(t, "acme", "uid-ada", "ada@acme.test")
		var hers viewAnswer
		in.getJSON(t, ada, rulesAll, "/api/v1/netsuite/portal-record?type=project&id=20", &hers)
		if code, _, p := in.save(t, ada, rulesAll, "PUT", "/api/v1/netsuite/portal-crud?type=project&id=20",
			map[string]any{"fields": map[string]any{"companyname": "Fox Hollow II"}, "version": hers.Data.Version}); code != 200 {
			t.Fatalf("Ada's edit: %d %+v", code, p)
		}
		ten := in.store.Tenant("acme")
		due, err := ten.DueOutbox(context.Background(), time.Now().Add(time.Hour), 10)
		if err != nil || len(due) != 1 {
			t.Fatalf("due: %+v %v", due, err)
		}
		ten.FailOutbox(context.Background(), due[0], "Refused", time.Now())
		for _, target := range []string{"/api/v1/sync/writes/retry?type=project&id=%d", "/api/v1/sync/writes/discard?type=project&id=%d",
			"/api/v1/events/editing?type=project&id=%d"} {
			answer := func(id int64) (int, string) {
				w := in.call("POST", fmt.Sprintf(target, id), pete, rulesPM, "")
				var p Problem
				json.Unmarshal(w.Body.Bytes(), &p)
				return w.Code, strings.ReplaceAll(p.Title+"|"+p.Detail, strconv.FormatInt(id, 10), "{id}")
			}
			code, body := answer(20)
			if missingCode, missing := answer(999999); code != 404 || code != missingCode || body != missing {
				t.Errorf("%s of Ada's project: %d %s; of a missing one: %d %s", target, code, body, missingCode, missing)
			}
			if code, body := answer(10); code == 404 && strings.Contains(body, "No project") {
				t.Errorf("%s of his project: %d %s", target, code, body)
			}
		}
		if en, err := ten.FailedEntry(context.Background(), "project", 20); err != nil || en.RecordID != 20 {
			t.Errorf("Ada's refused change after Pete's tries: %+v %v", en, err)
		}
		if w := in.call("POST", "/api/v1/sync/writes/retry?type=project&id=20", ada, rulesAll, ""); w.Code != 200 {
			t.Errorf("Ada's retry: %d %s", w.Code, w.Body)
		}
	})
}

// The sync page of a role under rules that may view it names only the
// open changes of records the rule lets it see, lists only the kinds it
// sees whole, and counts the outbox over what it shows.
func TestAccessRulesSyncStatus(t *testing.T) {
	onRuleEngines(t, func(t *testing.T, in *eventsInstance) {
		ctx := context.Background()
		ten := in.store.Tenant("acme")
		petesRoleMay(t, in, "sync.view")
		in.syncs = map[portal.TenantID]Syncer{"acme": erpsync.New(nil, ten, erpsync.Options{})}
		defer func() { in.syncs = nil }()
		// A refused change of an invoice of each manager's project.
		ada := in.token(t, "acme", "uid-ada", "ada@acme.test")
		for _, id := range []int64{400, 402} {
			fields, _ := json.Marshal(records.FileFields{FileID: id})
			if _, err := ten.AddFile(ctx, records.FileWrite{File: records.File{Kind: "invoice", RecordID: id, Name: fmt.Sprintf("settlement-%d.pdf", id),
				ContentType: "application/pdf", ModifiedAt: time.Now().UTC(), Content: []byte("%PDF-1.4"), Write: records.WriteState{State: records.WritePending}},
				By: records.Author{UserID: 1, RoleID: rulesAll}, Outbound: &records.Outbound{Op: records.OpFile, Fields: fields, Key: fmt.Sprint("k", id)}}); err != nil {
				t.Fatal(err)
			}
		}
		due, err := ten.DueOutbox(ctx, time.Now().Add(time.Hour), 10)
		if err != nil || len(due) != 2 {
			t.Fatalf("due: %+v %v", due, err)
		}
		for _, e := range due {
			ten.FailOutbox(ctx, e, fmt.Sprintf("Invoice %d exceeds the credit limit", e.RecordID), time.Now())
		}
		var st syncStatusAnswer
		pete := in.token(t, "acme", "uid-pete", "pete@acme.test")
		if code := in.getJSON(t, pete, rulesPM, "/api/v1/sync/status", &st); code != 200 {
			t.Fatalf("status: %d", code)
		}
		var open []int64
		for _, e := range st.Data.Open {
			open = append(open, e.RecordID)
		}
		var kinds []string
		for _, k := range st.Data.Kinds {
			kinds = append(kinds, k.Kind)
		}
		if !slices.Equal(open, []int64{400}) || st.Data.Outbox[erpsync.EntryFailed] != 1 || len(st.Data.Outbox) != 2 ||
			slices.Contains(kinds, "invoice") || !slices.Contains(kinds, "project") || slices.Contains(kinds, "vendor") {
			t.Errorf("Pete's sync page: open %v, outbox %v, kinds %v", open, st.Data.Outbox, kinds)
		}
		// Ada sees it all.
		st = syncStatusAnswer{}
		in.getJSON(t, ada, rulesAll, "/api/v1/sync/status", &st)
		if len(st.Data.Open) != 2 || st.Data.Outbox[erpsync.EntryFailed] != 2 || len(st.Data.Kinds) != len(records.All()) {
			t.Errorf("Ada's sync page: %+v", st.Data)
		}
	})
}

// The audit log of a role under rules that may read it leaves out the
// events about records the rule hides (their names and changes).
func TestAccessRulesAuditLog(t *testing.T) {
	onRuleEngines(t, func(t *testing.T, in *eventsInstance) {
		ctx := context.Background()
		ten := in.store.Tenant("acme")
		petesRoleMay(t, in, "audit.view")
		for _, id := range []int64{400, 402} {
			if _, err := ten.AddFile(ctx, records.FileWrite{File: records.File{Kind: "invoice", RecordID: id, Name: fmt.Sprintf("settlement-%d.pdf", id),
				ContentType: "application/pdf", ModifiedAt: time.Now().UTC(), Content: []byte("%PDF-1.4")}, By: records.Author{UserID: 1, RoleID: rulesAll}}); err != nil {
				t.Fatal(err)
			}
		}
		pete := in.token(t, "acme", "uid-pete", "pete@acme.test")
		for _, target := range []string{"/api/v1/audit?kind=invoice", "/api/v1/audit"} {
			var log struct{ Data []access.AuditEvent }
			if code := in.getJSON(t, pete, rulesPM, target, &log); code != 200 {
				t.Fatalf("%s: %d", target, code)
			}
			var named []int64
			for _, e := range log.Data {
				if e.Kind == "invoice" {
					named = append(named, e.RecordID)
				}
			}
			if !slices.Equal(named, []int64{400}) {
				t.Errorf("%s names invoices %v, want [400]", target, named)
			}
		}
	})
}

// petesRoleMay gives Pete's role (its rules unchanged) the permissions too.
func petesRoleMay(t *testing.T, in *eventsInstance, perms ...string) {
	t.Helper()
	f := rulesAccess
	f.Roles = slices.Clone(rulesAccess.Roles)
	f.Roles[0].Permissions = append(slices.Clone(f.Roles[0].Permissions), perms...)
	if err := in.store.Tenant("acme").ImportAccess(context.Background(), f); err != nil {
		t.Fatal(err)
	}
}
