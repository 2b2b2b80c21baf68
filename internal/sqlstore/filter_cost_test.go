package sqlstore

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/portico/portico/internal/portal"
	"github.com/portico/portico/internal/records"
)

// filterFixture is 60 projects: record i has client i%12+1, code C-00ii,
// status Active for even i and Closed for odd.
func filterFixture(t testing.TB, s *Store) *Tenant {
	t.Helper()
	ctx := context.Background()
	if err := s.EnsureTenant(ctx, "acme", "acme"); err != nil {
		t.Fatal(err)
	}
	ten := s.Tenant("acme")
	var rs []records.Record
	for i := int64(1); i <= 60; i++ {
		status := "Active"
		if i%2 == 1 {
			status = "Closed"
		}
		r := testRecord("project", i, fmt.Sprintf("Project %c%d", 'A'+rune(i%26), i), status)
		r.ParentID, r.ParentName = i%12+1, fmt.Sprintf("Client %d", i%12+1)
		rs = append(rs, r)
	}
	if err := ten.PutRecords(ctx, rs); err != nil {
		t.Fatal(err)
	}
	return ten
}

// orTerms is n conditions on field joined by "or"; value(i) is the i-th
// value, from 1.
func orTerms(field string, n int, value func(i int) string) string {
	terms := make([]string, n)
	for i := range terms {
		terms[i] = field + " eq " + value(i+1)
	}
	return strings.Join(terms, " or ")
}

func number(i int) string        { return fmt.Sprint(i) }
func codeOf(i int) string        { return fmt.Sprintf("C-%04d", i) }
func projectKind() *records.Kind { k, _ := records.Lookup("project"); return k }

func parse(t testing.TB, expr string) records.Filter {
	t.Helper()
	f, err := records.ParseFilter(projectKind(), expr)
	if err != nil {
		t.Fatalf("%.60q: %v", expr, err)
	}
	return f
}

// ids lists the records a filter matches (the fixture fits one page).
func ids(t testing.TB, ten *Tenant, f records.Filter) ([]int64, error) {
	t.Helper()
	page, err := ten.ListRecords(context.Background(), records.ListQuery{Kind: "project", Sort: records.ColTitle, Filter: f, Limit: 500})
	var out []int64
	for _, r := range page.Records {
		out = append(out, r.ID)
	}
	slices.Sort(out)
	return out, err
}

func intersect(a, b []int64) []int64 {
	var out []int64
	for _, x := range a {
		if slices.Contains(b, x) {
			out = append(out, x)
		}
	}
	return out
}

// The cases on both engines: a saved list of 40 OR terms with a
// request of 30 (a 500 on SQLite, "Expression tree is too large", when
// multiplied out to 1,200 conjunctions) answers the intersection with a
// statement the size of the sum, and so do 8 × 50 and 30 × 50, as much as
// the bound lets through; 8 × 111 (888 conjunctions: 0.39 s a page) is
// refused before any SQL runs, by lists, counts and reports alike.
func TestConformanceCombinedFiltersStayLinear(t *testing.T) {
	engines(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		ten := filterFixture(t, s)
		for _, c := range []struct{ saved, request string }{
			{orTerms("customer", 40, number), orTerms("entityid", 30, codeOf)},
			{orTerms("entityid", 8, codeOf), orTerms("customer", 50, number)},
			{orTerms("customer", 29, number) + " and entitystatus eq Active", orTerms("entityid", 50, codeOf)},
		} {
			saved, request := parse(t, c.saved), parse(t, c.request)
			both := saved.And(request)
			q := records.ListQuery{Kind: "project", Sort: records.ColTitle, Filter: both, Limit: 50}
			plan, err := listStatement(s.d, q, predicate{})
			if err != nil {
				t.Fatal(err)
			}
			st, args := plan.st, plan.args
			if n := saved.Conditions() + request.Conditions(); len(args) != n || len(st.sql) > 2000+60*n {
				t.Errorf("%d + %d conditions bound %d values: not kept as (saved) AND (request)", saved.Conditions(), request.Conditions(), len(args))
			}
			a, err := ids(t, ten, saved)
			if err != nil {
				t.Fatal(err)
			}
			b, _ := ids(t, ten, request)
			got, err := ids(t, ten, both)
			if err != nil || !slices.Equal(got, intersect(a, b)) || len(got) == 0 {
				t.Errorf("%d × %d terms: %v, %v; want %v", len(saved.Any), len(request.Any), got, err, intersect(a, b))
			}
			if n, err := ten.CountMatching(ctx, q); err != nil || n != int64(len(got)) {
				t.Errorf("count: %d, %v; want %d", n, err, len(got))
			}
		}
		// 8 × 111: the request alone is over the bound when parsed; built
		// in code past the parser, the store refuses it all the same.
		if _, err := records.ParseFilter(projectKind(), orTerms("customer", 111, number)); !errors.Is(err, records.ErrTooManyConditions) {
			t.Errorf("111 terms parsed: %v", err)
		}
		request := records.Filter{}
		for i := range 111 {
			request.Any = append(request.Any, []records.Cond{{Column: records.ColParent, Op: records.OpEq, Value: int64(i + 1)}})
		}
		hostile := parse(t, orTerms("customer", 8, number)).And(request)
		_, err := ten.ListRecords(ctx, records.ListQuery{Kind: "project", Filter: hostile, Limit: 50})
		assertRefused(t, "list", err)
		_, err = ten.CountMatching(ctx, records.ListQuery{Kind: "project", Filter: hostile})
		assertRefused(t, "count", err)
		_, err = ten.GroupRecords(ctx, records.GroupQuery{Kind: "project", Filter: hostile, GroupBy: records.ColStatus, Fns: []string{records.AggCount}, Limit: 10})
		assertRefused(t, "report", err)
	})
}

func assertRefused(t *testing.T, what string, err error) {
	t.Helper()
	if !errors.Is(err, records.ErrTooManyConditions) || portal.ErrorCode(err) != portal.CodeInvalid {
		t.Errorf("%s over the bound: %v, want it refused as an invalid filter", what, err)
	}
}

// A combined status filter sorted by title is still an index range: the
// saved list's part and the request's each go to SQLite as their own
// term, so the (status, title) index serves the page.
func TestCombinedStatusFilterPlanUsesIndex(t *testing.T) {
	s, err := Open(context.Background(), "", t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	q := records.ListQuery{Kind: "project", Sort: records.ColTitle, Limit: 50,
		Filter: statusIs("Active").And(parse(t, "projectedtotal gt 100 or startdate ge 2026-01-01"))}
	plan, err := listStatement(sqlite, q, predicate{})
	if err != nil {
		t.Fatal(err)
	}
	st, args := plan.st, plan.args
	if p := queryPlan(t, s, st, args...); strings.Contains(p, "TEMP B-TREE") || !strings.Contains(p, "USING INDEX") {
		t.Errorf("plan %q", p)
	}
}

// FuzzCombinedFilters runs the filter grammar's saved + request pairs
// through the store: a filter either parses or is a 400 naming the filter;
// parsed pairs combine under the cost bound into a statement the size of
// their sum that never fails, and match exactly the records both match
// alone. Its seeds run in every go test; go test -fuzz=FuzzCombinedFilters
// ./internal/sqlstore explores further.
func FuzzCombinedFilters(f *testing.F) {
	for _, seed := range [][2]string{
		{"", ""},
		{"entitystatus eq Active", "startdate ge 2026-01-01"},
		{orTerms("customer", 40, number), orTerms("entityid", 30, codeOf)}, // the 500
		{orTerms("customer", 8, number), orTerms("customer", 111, number)}, // the 0.39 s page
		{orTerms("customer", 50, number), orTerms("customer", 30, number)}, // the most the bound lets through
		{orTerms("customer", 50, number), orTerms("customer", 31, number)}, // one more
		{`companyname contains "a\"b" or companyname startswith Project`, "entitystatus eq closed and projectedtotal gt 100 or entitystatus eq Active"},
		{"customer eq 3 and entitystatus ne Active", `entityid eq "C-0015" or entityid eq C-0003`},
		{"companyname contains %_\\", "projectedtotal le 1e3"},
		{"x eq", `"unterminated`},
		{"customer eq -1", "startdate eq 2026-02-30 or"},
	} {
		f.Add(seed[0], seed[1])
	}
	s, err := Open(context.Background(), "", f.TempDir())
	if err != nil {
		f.Fatal(err)
	}
	defer s.Close()
	ten := filterFixture(f, s)
	k := projectKind()
	f.Fuzz(func(t *testing.T, savedExpr, requestExpr string) {
		saved, err1 := records.ParseFilter(k, savedExpr)
		request, err2 := records.ParseFilter(k, requestExpr)
		for _, err := range []error{err1, err2} {
			var pe *portal.Error
			if err != nil && (!errors.As(err, &pe) || pe.Code != portal.CodeInvalid || len(pe.Fields) != 1 || pe.Fields[0].Field != "filter") {
				t.Fatalf("a bad filter is not an invalid filter: %v", err)
			}
		}
		if err1 != nil || err2 != nil {
			return
		}
		for _, p := range []records.Filter{saved, request} {
			if p.Conditions() > records.MaxFilterConditions {
				t.Fatalf("a parsed filter has %d conditions", p.Conditions())
			}
		}
		both := saved.And(request)
		n := saved.Conditions() + request.Conditions()
		if both.Conditions() != n || len(both.Parts()) > 2 {
			t.Fatalf("combined: %d conditions in %d parts, want %d", both.Conditions(), len(both.Parts()), n)
		}
		if err := both.CheckCost(); err != nil {
			_, err := ids(t, ten, both)
			assertRefused(t, "combined", err)
			return
		}
		q := records.ListQuery{Kind: "project", Filter: both, Limit: 50}
		if plan, err := listStatement(sqlite, q, predicate{}); err != nil || len(plan.args) != n {
			t.Fatalf("%d conditions bound %d values (%v)", n, len(plan.args), err)
		}
		a, err := ids(t, ten, saved)
		if err != nil {
			t.Fatal(err)
		}
		b, err := ids(t, ten, request)
		if err != nil {
			t.Fatal(err)
		}
		got, err := ids(t, ten, both)
		if err != nil || !slices.Equal(got, intersect(a, b)) {
			t.Fatalf("combined: %v, %v; want %v", got, err, intersect(a, b))
		}
	})
}
