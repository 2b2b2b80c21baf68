package sqlstore

import (
	"cmp"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/portico/portico/internal/records"
	"github.com/portico/portico/internal/search"
)

// candidateIDs runs SearchCandidates and returns the distinct kind/id keys.
func candidateIDs(t *testing.T, ten *Tenant, text string, kinds ...string) []string {
	t.Helper()
	found, err := ten.SearchCandidates(context.Background(), text, kinds, search.Candidates)
	if err != nil {
		t.Fatalf("search %q: %v", text, err)
	}
	var out []string
	for _, e := range found {
		key := e.Kind + ":" + e.Name
		if !slices.Contains(out, key) {
			out = append(out, key)
		}
	}
	slices.Sort(out)
	return out
}

// searchPlans runs fn on both engines with each of their plans. SQLite:
// the kinds' partitions, the tenant's, and the tenant's stopping short (a
// walk of 1) so that the kinds' follow. PostgreSQL: a window that holds
// every entry, one of 1 (every stage through its own index) and one of 40
// (on more than 40 entries, some stages answered in the window, some not).
func searchPlans(t *testing.T, fn func(t *testing.T, s *Store)) {
	for _, p := range []struct{ few, walk, window int }{{searchFewKinds, searchWalk, searchWindow}, {0, searchWalk, 1}, {0, 1, 40}} {
		t.Run(fmt.Sprintf("few-kinds-%d-walk-%d-window-%d", p.few, p.walk, p.window), func(t *testing.T) {
			defer func(few, walk, window int) { searchFewKinds, searchWalk, searchWindow = few, walk, window }(searchFewKinds, searchWalk, searchWindow)
			searchFewKinds, searchWalk, searchWindow = p.few, p.walk, p.window
			enginesAlone(t, fn)
		})
	}
}

func TestConformanceSearchIndexFollowsWrites(t *testing.T) {
	searchPlans(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		acme, other := seedTenant(t, s, "acme"), seedTenant(t, s, "other")
		put := func(ten *Tenant, rs ...records.Record) {
			t.Helper()
			if err := ten.PutRecords(ctx, rs); err != nil {
				t.Fatal(err)
			}
		}
		put(acme,
			testRecord("project", 1, "Cedar Creek Wetland", "Active"),
			testRecord("project", 2, "Wetland Survey North", "Active"),
			testRecord("customer", 3, "Wetlands Trust", "Active"),
			testRecord("project", 4, "Prairie Burn 100% \"done\"_x", "Closed"),
		)
		put(other, testRecord("project", 1, "Other Wetland Secret", "Active"))

		if got, want := candidateIDs(t, acme, "wetland", "project", "customer"),
			[]string{"customer:Wetlands Trust", "project:Cedar Creek Wetland", "project:Wetland Survey North"}; !slices.Equal(got, want) {
			t.Fatalf("wetland: %v, want %v (never the other tenant's)", got, want)
		}
		if got := candidateIDs(t, acme, "WETLAND", "customer"); !slices.Equal(got, []string{"customer:Wetlands Trust"}) {
			t.Fatalf("kind filter and case: %v", got)
		}
		// Numbers and ids are searched too; FTS and LIKE syntax is literal.
		if got := candidateIDs(t, acme, "C-0004", "project"); !slices.Equal(got, []string{"project:Prairie Burn 100% \"done\"_x"}) {
			t.Fatalf("number: %v", got)
		}
		for _, odd := range []string{`100%`, `"done"`, `e"_x`, `NEAR(a b)`, `*`, `a OR b`, `^wet`, `\`, `'; DROP TABLE records; --`} {
			if _, err := acme.SearchCandidates(ctx, odd, []string{"project"}, 10); err != nil {
				t.Fatalf("%q: %v", odd, err)
			}
		}
		if got := candidateIDs(t, acme, `100% "done"`, "project"); len(got) != 1 {
			t.Fatalf("literal syntax characters: %v", got)
		}
		if got := candidateIDs(t, acme, `0% "do`, "project"); len(got) != 1 {
			t.Fatalf("substring with syntax characters: %v", got)
		}

		// A rename re-indexes; the old name no longer matches.
		renamed := testRecord("project", 2, "Riverbank Survey North", "Active")
		put(acme, renamed)
		if got := candidateIDs(t, acme, "wetland survey", "project"); len(got) != 0 {
			t.Fatalf("old name still found: %v", got)
		}
		if got := candidateIDs(t, acme, "riverbank", "project"); !slices.Equal(got, []string{"project:Riverbank Survey North"}) {
			t.Fatalf("new name: %v", got)
		}
		// A write makes the record the most recent (largest Seq).
		put(acme, testRecord("project", 1, "Cedar Creek Wetland", "Closed"))
		found, _ := acme.SearchCandidates(ctx, "wetland", []string{"project", "customer"}, 10)
		var newest search.Entry
		for _, e := range found {
			if e.Seq > newest.Seq {
				newest = e
			}
		}
		if newest.ID != 1 || newest.Status != "Closed" {
			t.Fatalf("newest after rewrite: %+v", newest)
		}
		// Writing the same values again (a sync re-reading it) keeps the entry.
		put(acme, testRecord("project", 1, "Cedar Creek Wetland", "Closed"))
		again, _ := acme.SearchCandidates(ctx, "cedar creek", []string{"project"}, 10)
		if len(again) == 0 || again[0].Seq != newest.Seq {
			t.Fatalf("unchanged rewrite re-indexed: %+v, was seq %d", again, newest.Seq)
		}
		// A deletion removes the entry.
		if _, err := s.db.ExecContext(ctx, s.d.rebind(`DELETE FROM records WHERE tenant_id = ? AND kind = ? AND id = ?`), "acme", "customer", 3); err != nil {
			t.Fatal(err)
		}
		if got := candidateIDs(t, acme, "wetlands trust", "customer"); len(got) != 0 {
			t.Fatalf("deleted record still found: %v", got)
		}
	})
}

func TestConformanceSearchRanking(t *testing.T) {
	searchPlans(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		ten := seedTenant(t, s, "acme")
		var rs []records.Record
		for i, name := range []string{"Old Marsh Study", "Marsh", "Marshland Plan", "Saltmarsh Repair", "New Marsh Study"} {
			rs = append(rs, testRecord("project", int64(i+1), name, "Active"))
		}
		if err := ten.PutRecords(ctx, rs); err != nil {
			t.Fatal(err)
		}
		q, _ := search.Parse("proj: marsh")
		got, err := search.Search(ctx, ten, q, []*records.Kind{mustKind(t, "project"), mustKind(t, "customer")})
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, r := range got {
			names = append(names, r.Name)
		}
		// Exact, prefix, word prefix (newest first: New before Old), substring.
		want := []string{"Marsh", "Marshland Plan", "New Marsh Study", "Old Marsh Study", "Saltmarsh Repair"}
		if !slices.Equal(names, want) {
			t.Fatalf("ranking: %v, want %v", names, want)
		}
		if got[0].Domain != "/project/view?id=2" || got[0].Type != "project" {
			t.Fatalf("result: %+v", got[0])
		}
	})
}

// Both engines answer exactly the true ranking (every entry containing
// the text, by class, then newest first) on a few hundred records whose
// names share words, whichever way each engine's stages are answered: so
// they answer the same, in the same order.
func TestConformanceSearchAnswersTheTrueRanking(t *testing.T) {
	searchPlans(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		ten := seedTenant(t, s, "acme")
		first := []string{"Cedar", "Willow", "Marsh", "Wetland", "Saltmarsh", "Creek", "Heron"}
		second := []string{"Creek", "Wetland Survey", "Marsh Study", "Bank", "Cedar Creek", "Wetlands"}
		batch := make([]records.Record, 0, 420)
		for i := range 420 {
			kind := "project"
			if i%7 == 3 {
				kind = "customer"
			}
			// Written in an order unrelated to the names: recency is not name order.
			n := (i * 151) % 420
			name := first[n%len(first)] + " " + second[(n/len(first))%len(second)]
			if n%5 == 0 {
				name += fmt.Sprintf(" %d", n)
			}
			batch = append(batch, testRecord(kind, int64(1000+i), name, "Active"))
		}
		// One write: each record still gets its own entry and seq, in this order.
		if err := ten.PutRecords(ctx, batch); err != nil {
			t.Fatal(err)
		}
		// Every entry, to rank by hand.
		all, err := ten.searchQuery(ctx, scope(`SELECT `+searchColumns+` FROM search_entries e WHERE e.tenant_id = :tenant`))
		if err != nil {
			t.Fatal(err)
		}
		project, customer := mustKind(t, "project"), mustKind(t, "customer")
		for _, typed := range []string{"wetland", "Cedar", "cedar creek", "creek", "etlan", "marsh", "saltmarsh", "arsh", "C-11", "105",
			"heron bank", "wetlands", "proj: cedar", "cus: creek", "cus: marsh study", "cus: etla", "proj: 210"} {
			q, _ := search.Parse(typed)
			kinds := q.Kinds([]*records.Kind{project, customer})
			got, err := search.Search(ctx, ten, q, kinds)
			if err != nil {
				t.Fatal(err)
			}
			var want []search.Entry
			for _, e := range all {
				if slices.ContainsFunc(kinds, func(k *records.Kind) bool { return k.Name == e.Kind }) &&
					strings.Contains(search.Fold(fmt.Sprintf("%s %s %d", e.Name, e.Code, e.ID)), search.Fold(q.Text)) {
					want = append(want, e)
				}
			}
			slices.SortFunc(want, func(a, b search.Entry) int {
				return cmp.Or(cmp.Compare(search.Classify(a, q.Text), search.Classify(b, q.Text)), cmp.Compare(b.Seq, a.Seq))
			})
			var gotKeys, wantKeys []string
			for _, r := range got {
				gotKeys = append(gotKeys, fmt.Sprintf("%s/%d %s", r.Type, r.ID, r.Name))
			}
			for _, e := range want[:min(len(want), search.Limit)] {
				wantKeys = append(wantKeys, fmt.Sprintf("%s/%d %s", e.Kind, e.ID, e.Name))
			}
			if !slices.Equal(gotKeys, wantKeys) {
				t.Errorf("%q:\n got %q\nwant %q", typed, gotKeys, wantKeys)
			}
		}
	})
}

func mustKind(t *testing.T, name string) *records.Kind {
	k, ok := records.Lookup(name)
	if !ok {
		t.Fatalf("no kind %s", name)
	}
	return k
}

// The reindex writes exactly what the triggers write, in recency order.
func TestConformanceReindexMatchesTriggers(t *testing.T) {
	engines(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		ten := seedTenant(t, s, "acme")
		if err := ten.PutRecords(ctx, []records.Record{testRecord("project", 2, "Écluse Mill", "Active"), testRecord("customer", 1, "Acme Ltd", "")}); err != nil {
			t.Fatal(err)
		}
		dump := func() []string {
			const cols = "tenant_id, kind, record_id, name, code, status, norm, hay"
			rows, err := s.db.QueryContext(ctx, `SELECT `+cols+` FROM search_entries ORDER BY seq`)
			if err != nil {
				t.Fatal(err)
			}
			defer rows.Close()
			var out []string
			for rows.Next() {
				vals := make([]string, strings.Count(cols, ",")+1)
				ptrs := make([]any, len(vals))
				for i := range vals {
					ptrs[i] = &vals[i]
				}
				rows.Scan(ptrs...)
				out = append(out, strings.Join(vals, "|"))
			}
			return out
		}
		byTriggers := dump()
		n, err := s.ReindexSearch(ctx)
		if err != nil || n != 2 {
			t.Fatalf("reindex: %d, %v", n, err)
		}
		// Oldest first: testRecord's modified time grows with the id.
		if got := dump(); !slices.Equal(got, []string{byTriggers[1], byTriggers[0]}) {
			t.Fatalf("reindexed %v\ntriggers  %v", got, byTriggers)
		}
		if got := candidateIDs(t, ten, "cluse", "project"); len(got) != 1 {
			t.Fatalf("after reindex: %v", got)
		}
		// The triggers the reindex set aside are back.
		ten.PutRecords(ctx, []records.Record{testRecord("project", 3, "Later Mill", "Active")})
		if got := candidateIDs(t, ten, "later mill", "project"); len(got) != 1 {
			t.Fatalf("a write after reindex: %v", got)
		}
	})
}

// A list's text search answers the same through either plan: the index
// lookup (few matches) and the per-record probe (common text), for a text
// in the name, the number or the id, or across them.
func TestConformanceListTextSearchPlansAgree(t *testing.T) {
	enginesAlone(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		ten := seedTenant(t, s, "acme")
		var rs []records.Record
		for i, name := range []string{"Marsh One", "Big Marsh", "Saltmarsh", "Prairie", "MARSHLAND", "Other"} {
			rs = append(rs, testRecord("project", int64(i+1), name, "Active"))
		}
		fen := testRecord("project", 7, "Fen", "Active")
		fen.Code = "F-1"
		rs = append(rs, fen, testRecord("customer", 9, "Marsh Client", "Active"))
		if err := ten.PutRecords(ctx, rs); err != nil {
			t.Fatal(err)
		}
		titles := func(text string) []string {
			page, err := ten.ListRecords(ctx, records.ListQuery{Kind: "project", Text: text, Limit: 50})
			if err != nil {
				t.Fatal(err)
			}
			var out []string
			for _, r := range page.Records {
				out = append(out, r.Title)
			}
			return out
		}
		// Hays are "name C-000n n", and "Fen F-1 7".
		want := map[string][]string{
			"marsh":     {"Big Marsh", "MARSHLAND", "Marsh One", "Saltmarsh"},
			"marsh c-0": {"Big Marsh", "Saltmarsh"}, // name and number
			"c-0005":    {"MARSHLAND"},
			"0006 6":    {"Other"}, // number and id
			"4":         {"Prairie"},
			"7":         {"Fen"}, // the id alone
		}
		check := func(plan string) {
			t.Helper()
			for text, w := range want {
				if got := titles(text); !slices.Equal(got, w) {
					t.Errorf("%s plan, %q: %v, want %v", plan, text, got, w)
				}
			}
		}
		check("index")
		defer func(old int) { listTextCap = old }(listTextCap)
		listTextCap = 0
		check("probe")
		// The text is known to be common now: the next list goes
		// straight to the probe, with the same rows.
		if !s.commonTexts.has(commonText{"acme", "project", hayPattern("marsh")}) {
			t.Error("the common text was not remembered")
		}
		listTextCap = 2000
		check("remembered probe")
	})
}

// A common text's list sorted by name starts where its first match stood
// (SQLite: fromFirstMatch), and a record added or renamed since, before
// that start, is still listed: the hint never hides a record, whichever
// way the list runs, with or without another filter.
func TestConformanceListTextStartFollowsWrites(t *testing.T) {
	enginesAlone(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		ten := seedTenant(t, s, "acme")
		k, _ := records.Lookup("project")
		defer func(old int) { listTextCap = old }(listTextCap)
		listTextCap = 0
		stored := map[int64]records.Record{} // what the list should find
		version := int64(1_800_000_000_000)
		put := func(id int64, title, status string) {
			t.Helper()
			r := testRecord("project", id, title, status)
			version++
			r.ModifiedAt = time.UnixMilli(version).UTC()
			if err := ten.PutRecords(ctx, []records.Record{r}); err != nil {
				t.Fatal(err)
			}
			stored[id] = r
		}
		for i, name := range []string{"Fen", "Marsh", "North Wetland", "Prairie", "South Wetland", "Wetland Park", "Zinc"} {
			put(int64(i+1), name, "Active")
		}
		check := func() {
			t.Helper()
			for _, desc := range []bool{false, true} {
				for _, f := range []string{"", "entitystatus eq Active"} {
					var want []string
					for _, r := range stored {
						if strings.Contains(strings.ToLower(r.Title), "wetland") && (f == "" || r.Status == "Active") {
							want = append(want, r.Title)
						}
					}
					slices.Sort(want)
					if desc {
						slices.Reverse(want)
					}
					filter, err := records.ParseFilter(k, f)
					if err != nil {
						t.Fatal(err)
					}
					page, err := ten.ListRecords(ctx, records.ListQuery{Kind: "project", Text: "wetland", Desc: desc, Filter: filter, Limit: 50})
					if err != nil {
						t.Fatal(err)
					}
					var got []string
					for _, r := range page.Records {
						got = append(got, r.Title)
					}
					if !slices.Equal(got, want) {
						t.Errorf("desc %v, filter %q: %v, want %v", desc, f, got, want)
					}
				}
			}
		}
		check()
		if s.d.name == sqlite.name {
			h, known := s.commonTexts.hint(commonText{"acme", "project", hayPattern("wetland")}, false)
			if !known || !h.found || h.title != "North Wetland" {
				t.Fatalf("no start kept: %+v, %v", h, known)
			}
		}
		put(20, "Big Wetland", "Active") // added before the start
		check()
		put(4, "Prairie Wetland", "Active") // renamed into the text, between
		put(1, "Fen Wetland", "Active")     // and before the start
		put(21, "Zed Wetland", "Active")    // after the last
		check()
		put(20, "Big Meadow", "Active")    // renamed out of it
		put(3, "North Wetland", "Closed")  // the names alike: no new version
		put(22, "Alder Wetland", "Closed") // before the start, filtered out
		check()
	})
}

// Writers adding records that sort before a common text's first match,
// each listing right after its own write while others list and write:
// every writer sees its record, on both engines, hint or none.
func TestConformanceListTextStartUnderConcurrentWrites(t *testing.T) {
	enginesAlone(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		ten := seedTenant(t, s, "acme")
		defer func(old int) { listTextCap = old }(listTextCap)
		listTextCap = 0
		var rs []records.Record
		for i := range 40 {
			rs = append(rs, testRecord("project", int64(1000+i), fmt.Sprintf("M %02d Wetland", i), "Active"))
		}
		if err := ten.PutRecords(ctx, rs); err != nil {
			t.Fatal(err)
		}
		const writers, each = 8, 5
		errs := make(chan error, writers)
		for w := range writers {
			go func() {
				errs <- func() error {
					for i := range each {
						// Each name sorts before every earlier one: the start
						// any other list found is now past it.
						n := writers*each - (w*each + i)
						r := testRecord("project", int64(n), fmt.Sprintf("A %03d Wetland", n), "Active")
						if err := ten.PutRecords(ctx, []records.Record{r}); err != nil {
							return err
						}
						page, err := ten.ListRecords(ctx, records.ListQuery{Kind: "project", Text: "wetland", Limit: 100})
						if err != nil {
							return err
						}
						if !slices.ContainsFunc(page.Records, func(got records.Record) bool { return got.ID == r.ID }) {
							return fmt.Errorf("writer %d does not see its %q", w, r.Title)
						}
					}
					return nil
				}()
			}()
		}
		for range writers {
			if err := <-errs; err != nil {
				t.Error(err)
			}
		}
		page, err := ten.ListRecords(ctx, records.ListQuery{Kind: "project", Text: "wetland", Limit: 100})
		if err != nil || len(page.Records) != 40+writers*each {
			t.Fatalf("%d records, %v", len(page.Records), err)
		}
	})
}

// While a bulk load's indexes and triggers are pending, no start is kept
// (name_versions does not move meanwhile); the load's recount moves every
// kind's version on (SQLite's name_versions).
func TestListTextStartWaitsForBulkLoads(t *testing.T) {
	s, err := Open(context.Background(), "", migratedCopy(t))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	ten := seedTenant(t, s, "acme")
	if err := ten.PutRecords(ctx, []records.Record{testRecord("project", 1, "Wetland", "Active")}); err != nil {
		t.Fatal(err)
	}
	probe := recordHayContains("wetland")
	if h, err := ten.firstMatch(ctx, "project", probe, false); err != nil || !h.found || h.id != 1 {
		t.Fatalf("%+v, %v", h, err)
	}
	if _, err := s.db.ExecContext(ctx, `INSERT INTO pending_indexes (name, ddl) VALUES ('x', 'SELECT 1')`); err != nil {
		t.Fatal(err)
	}
	if h, err := ten.firstMatch(ctx, "project", probe, false); err != nil || h.found {
		t.Fatalf("found during a bulk load: %+v, %v", h, err)
	}
	if _, err := s.db.ExecContext(ctx, `DELETE FROM pending_indexes`); err != nil {
		t.Fatal(err)
	}
	version := func() (v int64) {
		t.Helper()
		if err := s.db.QueryRowContext(ctx, `SELECT version FROM name_versions WHERE tenant_id = 'acme' AND kind = 'project'`).Scan(&v); err != nil {
			t.Fatal(err)
		}
		return v
	}
	before := version()
	if err := s.recount(ctx); err != nil {
		t.Fatal(err)
	}
	if after := version(); after <= before {
		t.Fatalf("recount left the version at %d (was %d)", after, before)
	}
}

// A list's text search pages in name order, both ways, with and without
// another filter, and its count is the whole result's: on SQLite the
// index plan picks a page sorted by name among the search entries
// (predicate.byName), and must not lose, repeat or cap a record.
func TestConformanceListTextPagesInNameOrder(t *testing.T) {
	engines(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		ten := seedTenant(t, s, "acme")
		k, _ := records.Lookup("project")
		var rs []records.Record
		names := []string{"Alder Fen", "Twin Fen", "Prairie", "Fenwick", "Twin Fen", "Cedar", "Bog", "Fen", "Twin Fen", "Zed Fen"}
		for i := range 60 {
			status := []string{"Active", "Closed", "Active"}[i%3]
			rs = append(rs, testRecord("project", int64(100-i), fmt.Sprintf("%s %d", names[i%len(names)], i%7), status))
		}
		if err := ten.PutRecords(ctx, rs); err != nil {
			t.Fatal(err)
		}
		want := func(desc bool, keep func(records.Record) bool) []string {
			var out []records.Record
			for _, r := range rs {
				if strings.Contains(strings.ToLower(r.Title), "fen") && keep(r) {
					out = append(out, r)
				}
			}
			slices.SortFunc(out, func(a, b records.Record) int {
				c := cmp.Or(strings.Compare(a.Title, b.Title), cmp.Compare(a.ID, b.ID))
				if desc {
					return -c
				}
				return c
			})
			var ids []string
			for _, r := range out {
				ids = append(ids, fmt.Sprint(r.Title, "#", r.ID))
			}
			return ids
		}
		active := mustFilter(t, k, "entitystatus eq Active")
		for _, desc := range []bool{false, true} {
			for _, f := range []records.Filter{{}, active} {
				q := records.ListQuery{Kind: "project", Text: "fen", Desc: desc, Filter: f, Limit: 4}
				var got []string
				for pages := 0; ; pages++ {
					if pages > 20 {
						t.Fatal("no end of pages")
					}
					page, err := ten.ListRecords(ctx, q)
					if err != nil {
						t.Fatal(err)
					}
					for _, r := range page.Records {
						got = append(got, fmt.Sprint(r.Title, "#", r.ID))
					}
					if !page.HasMore {
						break
					}
					q.After = page.Next
				}
				exp := want(desc, func(r records.Record) bool { return f.Conditions() == 0 || r.Status == "Active" })
				if !slices.Equal(got, exp) {
					t.Errorf("desc %v, filter %v:\n got %v\nwant %v", desc, f.Conditions() > 0, got, exp)
				}
			}
		}
		sum, err := ten.Summarize(ctx, records.SummaryQuery{List: records.ListQuery{Kind: "project", Text: "fen"}, Count: true})
		if n := int64(len(want(false, func(records.Record) bool { return true }))); err != nil || sum.Total != n || sum.TotalEstimated {
			t.Errorf("count %+v, %v; want %d", sum, err, n)
		}
	})
}

// A list's text filter finds exactly the records whose name, number or
// id holds the text (ASCII case folded, as LIKE folds), whichever plan
// answers it: random names and numbers, and texts cut from them anywhere
// (a word's end too: "ch" of "Birch", "23" of "PRJ-0123"), or made up.
func TestConformanceListTextIsExact(t *testing.T) {
	enginesAlone(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		ten := seedTenant(t, s, "acme")
		rnd := rand.New(rand.NewPCG(16, 2))
		syllables := []string{"bi", "rch", "ch", "an", "wet", "land", "ko", "e", "lo", "x", "23", "ab"}
		word := func() string {
			var b strings.Builder
			for range 1 + rnd.IntN(3) {
				b.WriteString(syllables[rnd.IntN(len(syllables))])
			}
			return b.String()
		}
		var rs []records.Record
		var hays []string
		for i := range 200 {
			name := word()
			for range rnd.IntN(3) {
				name += " " + word()
			}
			name = strings.ToUpper(name[:1]) + name[1:]
			r := testRecord("project", int64(1000+i), name, "Active")
			r.Code = fmt.Sprintf("%s-%04d", strings.ToUpper(word()), rnd.IntN(10000))
			rs = append(rs, r)
			hays = append(hays, strings.ToLower(fmt.Sprint(r.Title, " ", r.Code, " ", r.ID)))
		}
		if err := ten.PutRecords(ctx, rs); err != nil {
			t.Fatal(err)
		}
		var texts []string
		for range 300 {
			h := hays[rnd.IntN(len(hays))]
			from := rnd.IntN(len(h))
			texts = append(texts, h[from:min(len(h), from+1+rnd.IntN(6))])
		}
		for range 50 {
			texts = append(texts, word())
		}
		// Through the search index (every text is rare among 200
		// records), then a hundred of them checked along the sort.
		check := func(texts []string) {
			t.Helper()
			for _, text := range texts {
				var want []int64
				for i, h := range hays {
					if strings.Contains(h, strings.ToLower(text)) {
						want = append(want, rs[i].ID)
					}
				}
				page, err := ten.ListRecords(ctx, records.ListQuery{Kind: "project", Text: text, Limit: 500})
				if err != nil {
					t.Fatalf("%q: %v", text, err)
				}
				var got []int64
				for _, r := range page.Records {
					got = append(got, r.ID)
				}
				slices.Sort(got)
				if !slices.Equal(got, want) {
					t.Errorf("%q: %d records %v, want %d %v", text, len(got), got, len(want), want)
				}
			}
		}
		check(texts)
		defer func(old int) { listTextCap = old }(listTextCap)
		listTextCap = 0
		check(texts[:100])
	})
}

// FuzzSearchCandidates: whatever is typed, the SQLite search answers
// without an error (no FTS5 or LIKE syntax leaks through), through the
// kinds' partitions and the tenant's.
func FuzzSearchCandidates(f *testing.F) {
	s, err := Open(context.Background(), "", f.TempDir())
	if err != nil {
		f.Fatal(err)
	}
	defer s.Close()
	if err := s.EnsureTenant(context.Background(), "acme", "acme"); err != nil {
		f.Fatal(err)
	}
	ten := s.Tenant("acme")
	if err := ten.PutRecords(context.Background(), []records.Record{testRecord("project", 1, `Cedar "Creek" 100% wet_land`, "Active")}); err != nil {
		f.Fatal(err)
	}
	for _, seed := range []string{"cedar", `"creek"`, "100%", "wet_land", "NEAR(a b)", "a OR b", "{hay}: x", "col:umn", "^start", "x*", "((", `\`, "ééé", "\x00\x00\x00"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, text string) {
		q, err := search.Parse(text)
		if err != nil || !q.Searchable() {
			return
		}
		defer func(few int) { searchFewKinds = few }(searchFewKinds)
		for _, few := range []int{3, 0} {
			searchFewKinds = few
			if _, err := ten.SearchCandidates(context.Background(), q.Text, []string{"project", "customer"}, 20); err != nil {
				t.Fatalf("%q: %v", q.Text, err)
			}
		}
	})
}

// The trigram keys a search asks for are among those migration 0017's
// search_keys gives an entry whose hay holds the text (at a word's start,
// for a word-start lookup): else the index would miss it.
func TestPostgresSearchKeysAreTheEntrys(t *testing.T) {
	base := os.Getenv("PORTICO_TEST_DATABASE_URL")
	if base == "" {
		t.Skip("PORTICO_TEST_DATABASE_URL is not set")
	}
	s := openPostgresSchema(t, base)
	for _, c := range []struct {
		hay, text string
		wordStart bool
	}{
		{"cedar creek wetland c-0042 42", "wetland", true},
		{"cedar creek wetland c-0042 42", "etlan", false},
		{"cedar creek wetland c-0042 42", "creek wet", true},
		{"cedar creek wetland c-0042 42", "c-0042", true},
		{"cedar creek wetland c-0042 42", "0042 4", true},
		{"écluse mill (phase 2) c-0007 7", "cluse mi", false},
		{"écluse mill (phase 2) c-0007 7", "(phase", true},
		{"caféteria plan c-0008 8", "féteria", false},
		{"x c-0009 9", "a b", false},
	} {
		var keys string
		if err := s.db.QueryRow(`SELECT array_to_string(search_keys('project', $1), '|')`, c.hay).Scan(&keys); err != nil {
			t.Fatal(err)
		}
		entry := strings.Split(keys, "|")
		for _, k := range searchKeys("project", c.text, c.wordStart) {
			if !slices.Contains(entry, k) {
				t.Errorf("%q in %q: key %q is not the entry's %q", c.text, c.hay, k, entry)
			}
		}
	}
}
