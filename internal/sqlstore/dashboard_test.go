package sqlstore

import (
	"context"
	"encoding/json"
	"fmt"

	"slices"
	"strings"
	"testing"
	"time"

	"github.com/portico/portico/internal/records"
)

// asOf is the fixture's today: aging counts days past due from it.
var asOf = time.Date(2026, 11, 25, 15, 0, 0, 0, time.UTC)

// docRecord is a record of kind with a document.
func docRecord(kind string, id int64, title, status string, doc map[string]any) records.Record {
	if doc == nil {
		doc = map[string]any{}
	}
	b, _ := json.Marshal(doc)
	return records.Record{Kind: kind, ID: id, Title: title, Status: status, ModifiedAt: time.UnixMilli(1_700_000_000_000 + id).UTC(), Fields: b}
}

// totals writes totals per unit as "1250.50 + USD 75.00" (the base
// currency's, or a quantity of one unit, without a unit).
func totals(ts []records.UnitTotal) string {
	var parts []string
	for _, u := range ts {
		parts = append(parts, strings.TrimSpace(fmt.Sprintf("%s %.2f", u.Unit, u.Total)))
	}
	return strings.Join(parts, " + ")
}

func manager(id int64, name string) map[string]any {
	return map[string]any{"id": fmt.Sprint(id), "refName": name}
}

// dashboardFixture: employees Ada (1) and Pete (2); projects managed by
// each; billing of Pete's projects; invoices due on known days.
func dashboardFixture(t *testing.T, s *Store) *Tenant {
	t.Helper()
	ten := seedTenant(t, s, "acme")
	rs := []records.Record{
		docRecord("employee", 1, "Ada Admin", "Administration", map[string]any{"email": "ada@acme.test"}),
		docRecord("employee", 2, "Pete Manager", "Ecology", map[string]any{"email": "pete@acme.test"}),
	}
	// Pete manages 10, 11 (active), 12 (planning), 13 (closed); Ada 20, 21 (active).
	for _, p := range []struct {
		id      int64
		title   string
		status  string
		manager int64
	}{{10, "Willow Creek", "Active", 2}, {11, "Heron Marsh", "Active", 2}, {12, "Bear Run", "Planning", 2}, {13, "Old Mill", "Closed", 2},
		{20, "Fox Hollow", "Active", 1}, {21, "Elk Ridge", "Active", 1}} {
		r := docRecord("project", p.id, p.title, p.status, map[string]any{"projectmanager": manager(p.manager, "x")})
		r.ParentID, r.ParentName = 5, "Acme Water"
		rs = append(rs, r)
	}
	// Billing: two milestones to bill on Willow Creek, one billed; one to bill on Ada's Fox Hollow.
	for i, b := range []struct {
		project int64
		status  string
	}{{10, "Ready to bill"}, {10, "Scheduled"}, {10, "Billed"}, {20, "Ready to bill"}} {
		r := docRecord("billing", int64(100+i), fmt.Sprintf("Milestone %d", i), b.status, nil)
		r.ProjectID, r.ProjectName = b.project, "x"
		rs = append(rs, r)
	}
	// Invoices by due date and amount remaining.
	for i, inv := range []struct {
		due       string
		remaining float64
	}{
		{"2026-12-10", 100}, {"2026-11-25", 50}, // current: due later, due today
		{"2026-11-24", 10}, {"2026-10-26", 20}, // 1 and 30 days past due
		{"2026-10-25", 30},     // 31
		{"2026-08-27", 40},     // 90
		{"2026-08-26", 1000.5}, // 91
		{"2026-01-01", 0},      // paid
	} {
		rs = append(rs, docRecord("invoice", int64(200+i), fmt.Sprintf("Invoice %d", i), "Open",
			map[string]any{"duedate": inv.due, "amountremaining": inv.remaining}))
	}
	// One in another currency than the base, 85 days past due: never
	// added to the others.
	usd := docRecord("invoice", 299, "Invoice in dollars", "Open", map[string]any{"duedate": "2026-09-01", "amountremaining": 75.0})
	usd.Currency = "USD"
	rs = append(rs, usd)
	for i := range 3 {
		r := docRecord("creditavailability", int64(300+i), fmt.Sprintf("Pool %d", i), []string{"Wetland", "Wetland", "Stream"}[i], nil)
		r.Amount = ptr(int64([]int{3412, 120, 1}[i]))
		rs = append(rs, r)
	}
	if err := ten.PutRecords(context.Background(), rs); err != nil {
		t.Fatal(err)
	}
	return ten
}

var (
	petesRole = func(p string) bool { return p == "project.view" || p == "billing.view" }
	accounts  = func(p string) bool { return p == "invoice.view" || p == "creditavailability.view" }
)

// listOf answers what the list a card opens shows: its count and the
// total of the card's amount, through the list use case.
func listOf(t *testing.T, ten *Tenant, c records.Card) (int64, []records.UnitTotal) {
	t.Helper()
	k, _ := records.Lookup(c.Kind)
	req := records.ListRequest{Filter: c.Filter, Count: true, Totals: c.Amount != ""}
	if cols := k.BuiltInList().Columns; c.Amount != "" && !slices.Contains(cols, c.Amount) {
		req.Columns = strings.Join(append(cols, c.Amount), ",")
	}
	page, err := k.List(context.Background(), ten, k.BuiltInList(), req, records.Filter{})
	if err != nil || page.Total == nil {
		t.Fatalf("list of %s %q: %+v %v", c.Kind, c.Filter, page, err)
	}
	return *page.Total, page.Totals[c.Amount]
}

// sameAsList holds a card to the list it opens.
func sameAsList(t *testing.T, ten *Tenant, c records.Card) {
	t.Helper()
	n, total := listOf(t, ten, c)
	if n != c.Count || (c.Totals != nil && totals(c.Totals) != totals(total)) {
		t.Errorf("card %q (%s %q): %d / %v, its list %d / %v", c.Label, c.Kind, c.Filter, c.Count, totals(c.Totals), n, totals(total))
	}
}

func TestConformanceDashboardMine(t *testing.T) {
	engines(t, func(t *testing.T, s *Store) {
		ten := dashboardFixture(t, s)
		ctx := context.Background()
		d, err := records.BuildDashboard(ctx, ten, records.Viewer{Can: petesRole, Email: "Pete@Acme.test"}, asOf)
		if err != nil {
			t.Fatal(err)
		}
		if d.Employee == nil || d.Employee.ID != 2 || len(d.Aging) != 0 || d.Credits != nil {
			t.Fatalf("Pete's dashboard: %+v", d)
		}
		// Only his projects, not every project.
		if len(d.Mine) != 1 || d.Mine[0].Kind != "project" || d.Mine[0].All.Count != 4 {
			t.Fatalf("mine: %+v", d.Mine)
		}
		var statuses []string
		for _, c := range d.Mine[0].ByStatus {
			statuses = append(statuses, fmt.Sprintf("%s %d", c.Label, c.Count))
			sameAsList(t, ten, c)
		}
		if got := strings.Join(statuses, ", "); got != "Planning 1, Active 2, Closed 1" {
			t.Errorf("by status: %s", got)
		}
		sameAsList(t, ten, d.Mine[0].All)
		// His active projects by name, each with its open items.
		p := d.Projects
		if p == nil || p.All.Count != 2 || len(p.Rows) != 2 || p.Rows[0].Name != "Heron Marsh" || p.Rows[1].Name != "Willow Creek" {
			t.Fatalf("active projects: %+v", p)
		}
		sameAsList(t, ten, p.All)
		if len(p.Rows[0].Open) != 0 || len(p.Rows[1].Open) != 1 || p.Rows[1].Open[0].Count != 2 || p.Rows[1].Open[0].Kind != "billing" ||
			p.Rows[1].Open[0].Label != "Milestones to bill" || p.Rows[1].Open[0].One != "Milestone to bill" ||
			p.Rows[1].Client == nil || p.Rows[1].Client.RefName != "Acme Water" {
			t.Fatalf("open items: %+v", p.Rows)
		}
		sameAsList(t, ten, p.Rows[1].Open[0])

		// Ada's are hers; a user who is no employee has none.
		d, _ = records.BuildDashboard(ctx, ten, records.Viewer{Can: petesRole, Email: "ada@acme.test"}, asOf)
		if d.Mine[0].All.Count != 2 || len(d.Projects.Rows) != 2 || d.Projects.Rows[0].Name != "Elk Ridge" || len(d.Projects.Rows[1].Open) != 1 {
			t.Errorf("Ada's: %+v %+v", d.Mine, d.Projects)
		}
		d, err = records.BuildDashboard(ctx, ten, records.Viewer{Can: petesRole, Email: "nobody@acme.test"}, asOf)
		if err != nil || d.Employee != nil || len(d.Mine) != 0 || d.Projects != nil {
			t.Errorf("no employee: %+v %v", d, err)
		}
		// Another tenant sees none of it.
		if d, _ := records.BuildDashboard(ctx, seedTenant(t, s, "other"), records.Viewer{Can: petesRole, Email: "pete@acme.test"}, asOf); d.Employee != nil {
			t.Errorf("other tenant: %+v", d)
		}
	})
}

func TestConformanceDashboardAging(t *testing.T) {
	engines(t, func(t *testing.T, s *Store) {
		ten := dashboardFixture(t, s)
		d, err := records.BuildDashboard(context.Background(), ten, records.Viewer{Can: accounts, Email: "acc@acme.test"}, asOf)
		if err != nil {
			t.Fatal(err)
		}
		if len(d.Mine) != 0 || d.Projects != nil || len(d.Aging) != 1 || d.AsOf != "2026-11-25" {
			t.Fatalf("accountant: %+v", d)
		}
		a := d.Aging[0]
		got := []string{fmt.Sprintf("outstanding %d %s", a.Outstanding.Count, totals(a.Outstanding.Totals)),
			fmt.Sprintf("overdue %d %s", a.Overdue.Count, totals(a.Overdue.Totals))}
		for _, b := range a.Buckets {
			got = append(got, fmt.Sprintf("%s %d %s", b.Label, b.Count, totals(b.Totals)))
		}
		// Per currency: the dollars beside the base currency's amounts.
		want := []string{"outstanding 8 1250.50 + USD 75.00", "overdue 6 1100.50 + USD 75.00", "Current 2 150.00", "1–30 days 2 30.00",
			"31–60 days 1 30.00", "61–90 days 2 40.00 + USD 75.00", "Over 90 days 1 1000.50"}
		if strings.Join(got, "; ") != strings.Join(want, "; ") || a.Undated != 0 {
			t.Errorf("aging:\n got %v\nwant %v (undated %d)", got, want, a.Undated)
		}
		for _, c := range append([]records.Card{a.Outstanding, a.Overdue}, a.Buckets...) {
			sameAsList(t, ten, c)
			if c.Estimated || c.Sort == nil || c.Sort.Field != "duedate" || !strings.Contains(strings.Join(c.Columns, ","), "amountremaining") {
				t.Errorf("card %s: %+v", c.Label, c)
			}
		}
		// The credits available: every pool's, exact, per credit type.
		if c := d.Credits; c == nil || c.Count != 3 || totals(c.Totals) != "Stream 0.01 + Wetland 35.32" || c.Estimated {
			t.Errorf("credits: %+v", d.Credits)
		} else {
			sameAsList(t, ten, *c)
		}
	})
}

// Beyond SummaryExact records a card is the list's own bounded summary:
// the same numbers, marked estimated when the list's are.
func TestConformanceDashboardLargeScope(t *testing.T) {
	engines(t, func(t *testing.T, s *Store) {
		ten := seedTenant(t, s, "acme")
		var rs []records.Record
		for i := range records.SummaryExact + 100 {
			due := asOf.AddDate(0, 0, -(i % 200)).Format(time.DateOnly)
			rs = append(rs, docRecord("invoice", int64(1+i), fmt.Sprintf("Invoice %05d", i), "Open",
				map[string]any{"duedate": due, "amountremaining": float64(1 + i%7)}))
		}
		if err := ten.PutRecords(context.Background(), rs); err != nil {
			t.Fatal(err)
		}
		if tl, err := ten.Tally(context.Background(), records.TallyQuery{Kind: "invoice", Buckets: []records.Filter{{}}}); err != nil || tl.Exact || tl.Buckets != nil {
			t.Fatalf("tally of %d records: %+v, %v", len(rs), tl, err)
		}
		d, err := records.BuildDashboard(context.Background(), ten, records.Viewer{Can: accounts}, asOf)
		if err != nil {
			t.Fatal(err)
		}
		a := d.Aging[0]
		for _, c := range append([]records.Card{a.Outstanding, a.Overdue}, a.Buckets...) {
			sameAsList(t, ten, c)
		}
		if !a.Outstanding.Estimated || a.Buckets[0].Estimated || a.Buckets[0].Count != 11 {
			t.Errorf("outstanding %+v, current %+v", a.Outstanding, a.Buckets[0])
		}
	})
}

// The dashboard's filters are index ranges: an owner's records and the
// open balances are read through their filter indexes, not a scan of the
// kind.
func TestDashboardFilterPlansUseIndexes(t *testing.T) {
	s, err := Open(context.Background(), "", t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for _, kf := range records.IndexedFilters() {
		f, err := records.ParseFilter(kf.Kind, kf.Field.Name+" gt 0")
		if kf.Field.Type == records.TypeRef {
			f, err = records.ParseFilter(kf.Kind, kf.Field.Name+" eq 2")
		}
		if err != nil {
			t.Fatal(err)
		}
		where, args, err := whereClause(sqlite, kf.Kind, records.ListQuery{Kind: kf.Kind.Name, Filter: f}, predicate{})
		if err != nil {
			t.Fatal(err)
		}
		p := queryPlan(t, s, scope("SELECT id FROM records WHERE "+strings.Join(where, " AND ")+" LIMIT 2001"), args...)
		if !strings.Contains(p, "USING INDEX "+docIndexPrefix) || strings.Contains(p, "SCAN records") {
			t.Errorf("%s.%s: plan %q", kf.Kind.Name, kf.Field.Name, p)
		}
	}
}
