package sqlstore

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"sync"
	"testing"
	"time"

	"github.com/portico/portico/internal/erpsync"
	"github.com/portico/portico/internal/records"
)

var projectStatuses = []string{"Active", "Closed", "Planning"}

// ownedProjects makes projects first..first+n-1 managed by owner(i) (0:
// no manager), in EUR when foreign(i), with an amount and acres, of a
// status that varies with i and at.
func ownedProjects(first, n int64, owner func(int64) int64, foreign func(int64) bool, at time.Time) []records.Record {
	var out []records.Record
	for i := first; i < first+n; i++ {
		doc := map[string]any{"custentity_res_acres": float64(i%13) + 0.25}
		if o := owner(i); o != 0 {
			doc["projectmanager"] = map[string]any{"id": fmt.Sprint(o), "refName": fmt.Sprintf("Manager %d", o)}
		}
		r := records.Record{Kind: "project", ID: i, Title: fmt.Sprintf("Project %05d", i), Status: projectStatuses[(i+at.Unix())%3], ModifiedAt: at}
		if i%5 != 0 {
			r.Amount = ptr(i * 1000)
		}
		if foreign(i) {
			r.Currency = "EUR"
		}
		r.Fields, _ = json.Marshal(doc)
		out = append(out, r)
	}
	return out
}

// ownerWant is what a list of owner's projects among rs (of status, unless
// "") counts and totals: the count, the amounts by currency ("" the
// base), the acres.
func ownerWant(rs map[int64]records.Record, owner int64, status string) (n int64, amounts map[string]float64, acres float64) {
	amounts = map[string]float64{}
	for _, r := range rs {
		if status != "" && r.Status != status {
			continue
		}
		var doc struct {
			Projectmanager struct{ ID string }
			Acres          float64 `json:"custentity_res_acres"`
		}
		json.Unmarshal(r.Fields, &doc)
		if doc.Projectmanager.ID != fmt.Sprint(owner) {
			continue
		}
		n++
		if r.Amount != nil {
			amounts[r.Currency] += float64(*r.Amount) / 100
		} else {
			amounts[r.Currency] += 0
		}
		acres += doc.Acres
	}
	return n, amounts, acres
}

// everyRecord is a condition every record meets: with it, a list is no
// longer one owner's records only (ownerScopeOf), and is counted.
var everyRecord = records.Filter{Any: [][]records.Cond{{{Column: records.ColID, Op: records.OpGt, Value: int64(0)}}}}

// TestConformanceOwnerTotals: the count and totals of one owner's records
// (a rule's "owner eq $me"), all or of one status, are read from
// migration 0031's owner_totals,
// exactly, per currency, through inserts, a sync's changes of owner,
// amount and currency, deletions, and a bulk load; and they agree with
// the same list counted record by record.
func TestConformanceOwnerTotals(t *testing.T) {
	engines(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		ten := seedTenant(t, s, "acme")
		k, _ := records.Lookup("project")
		amount, _ := k.FieldNamed("projectedtotal")
		acres, _ := k.FieldNamed("custentity_res_acres")
		sum := []records.Field{amount, acres}
		checkStatus := func(what string, ten *Tenant, current map[int64]records.Record, owner int64, status string) {
			t.Helper()
			expr := fmt.Sprintf("projectmanager eq %d", owner)
			if status != "" {
				expr += " and entitystatus eq " + status
			}
			f := mustFilter(t, k, expr)
			o, only := ownerScopeOf(k, records.ListQuery{Kind: "project", Filter: f})
			if !only {
				t.Fatalf("%s: projectmanager eq %d is not read as one owner's records", what, owner)
			}
			kept, ok, err := ten.keptOwnerSummary(ctx, k, o, sum, records.Summary{Totals: map[string][]records.UnitTotal{}})
			if err != nil || !ok {
				t.Fatalf("%s: kept owner summary: %v, %v", what, ok, err)
			}
			// The same list, counted: a second condition that holds for
			// every record takes it off the kept path.
			counted, err := ten.Summarize(ctx, records.SummaryQuery{List: records.ListQuery{Kind: "project",
				Filter: f.And(everyRecord)}, Count: true, Sum: sum})
			if err != nil {
				t.Fatal(err)
			}
			n, amounts, wantAcres := ownerWant(current, owner, status)
			if kept.Total != n || kept.TotalEstimated || counted.Total != n {
				t.Errorf("%s, owner %d: kept %d, counted %d, want %d", what, owner, kept.Total, counted.Total, n)
			}
			if got := base(kept, "custentity_res_acres"); math.Abs(got-wantAcres) > 0.001 {
				t.Errorf("%s, owner %d: acres %.2f, want %.2f", what, owner, got, wantAcres)
			}
			got := map[string]float64{}
			for _, u := range kept.Totals["projectedtotal"] {
				got[u.Unit] = u.Total
			}
			if n > 0 && fmt.Sprint(got) != fmt.Sprint(amounts) {
				t.Errorf("%s, owner %d: amounts %v, want %v (counted: %v)", what, owner, got, amounts, counted.Totals["projectedtotal"])
			}
			if fmt.Sprint(kept.Totals) != fmt.Sprint(counted.Totals) && n > 0 {
				t.Errorf("%s, owner %d: kept totals %v, counted %v", what, owner, kept.Totals, counted.Totals)
			}
		}
		check := func(what string, ten *Tenant, current map[int64]records.Record, owner int64) {
			t.Helper()
			checkStatus(what, ten, current, owner, "")
			for _, status := range projectStatuses {
				checkStatus(what+", "+status, ten, current, owner, status)
			}
		}
		at := time.UnixMilli(1_700_000_000_000).UTC()
		rs := ownedProjects(1, 400, func(i int64) int64 { return i % 4 }, func(i int64) bool { return i%7 == 0 }, at)
		if err := ten.PutRecords(ctx, rs); err != nil {
			t.Fatal(err)
		}
		current := map[int64]records.Record{}
		for _, r := range rs {
			current[r.ID] = r
		}
		for owner := int64(1); owner <= 4; owner++ {
			check("inserted", ten, current, owner)
		}
		// A sync moves projects to other managers, changes amounts and
		// currencies, and deletes some.
		changed := ownedProjects(1, 120, func(i int64) int64 { return 1 + (i+1)%4 }, func(i int64) bool { return i%3 == 0 }, at.Add(time.Minute))
		deleted := []int64{200, 201, 202, 203, 399}
		if err := ten.ApplyPull(ctx, "project", changed, deleted, erpsync.State{Kind: "project"}); err != nil {
			t.Fatal(err)
		}
		for _, r := range changed {
			current[r.ID] = r
		}
		for _, id := range deleted {
			delete(current, id)
		}
		for owner := int64(1); owner <= 4; owner++ {
			check("after a sync", ten, current, owner)
		}
		// A bulk load (without the triggers) totals afresh.
		bulk := seedTenant(t, s, "bulk")
		loaded := ownedProjects(1, 300, func(i int64) int64 { return i % 3 }, func(i int64) bool { return i%11 == 0 }, at)
		if err := s.BulkLoad(ctx, func() error { return bulk.PutRecords(ctx, loaded) }); err != nil {
			t.Fatal(err)
		}
		bulkNow := map[int64]records.Record{}
		for _, r := range loaded {
			bulkNow[r.ID] = r
		}
		for owner := int64(1); owner <= 2; owner++ {
			check("bulk loaded", bulk, bulkNow, owner)
		}
		check("the first tenant, after the other's bulk load", ten, current, 1)
	})
}

// TestConformanceOwnerTotalsConcurrentWriters: many writers moving the
// same projects between managers and changing their amounts at once leave
// every owner's kept count and totals equal to the records', and every
// search entry's owner its record's.
func TestConformanceOwnerTotalsConcurrentWriters(t *testing.T) {
	engines(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		ten := seedTenant(t, s, "acme")
		k, _ := records.Lookup("project")
		amount, _ := k.FieldNamed("projectedtotal")
		at := time.UnixMilli(1_700_000_000_000).UTC()
		if err := ten.PutRecords(ctx, ownedProjects(1, 60, func(i int64) int64 { return i % 3 }, func(int64) bool { return false }, at)); err != nil {
			t.Fatal(err)
		}
		var wg sync.WaitGroup
		errs := make(chan error, 8)
		for w := range 8 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				rng := rand.New(rand.NewPCG(uint64(w), 7))
				for round := range 25 {
					first := 1 + rng.Int64N(50)
					batch := ownedProjects(first, 10, func(int64) int64 { return 1 + rng.Int64N(4) },
						func(int64) bool { return rng.IntN(4) == 0 }, at.Add(time.Duration(round)*time.Second))
					if err := ten.PutRecords(ctx, batch); err != nil {
						errs <- err
						return
					}
				}
			}()
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Fatal(err)
		}
		for owner := int64(1); owner <= 4; owner++ {
			f := mustFilter(t, k, fmt.Sprintf("projectmanager eq %d", owner))
			kept, err := ten.Summarize(ctx, records.SummaryQuery{List: records.ListQuery{Kind: "project", Filter: f}, Count: true, Sum: []records.Field{amount}})
			if err != nil {
				t.Fatal(err)
			}
			counted, err := ten.Summarize(ctx, records.SummaryQuery{List: records.ListQuery{Kind: "project", Filter: f.And(everyRecord)},
				Count: true, Sum: []records.Field{amount}})
			if err != nil {
				t.Fatal(err)
			}
			if kept.Total != counted.Total || fmt.Sprint(kept.Totals) != fmt.Sprint(counted.Totals) {
				t.Errorf("owner %d: kept %d %v, counted %d %v", owner, kept.Total, kept.Totals, counted.Total, counted.Totals)
			}
		}
		var all int64
		if err := s.db.QueryRowContext(ctx, s.d.rebind(`SELECT SUM(total) FROM owner_totals WHERE tenant_id = ? AND kind = 'project' AND field = ''`),
			"acme").Scan(&all); err != nil || all != 60 {
			t.Errorf("every owner's counts (those without one too) add up to %d (%v), want 60", all, err)
		}
		// Every search entry carries its record's owner (migration 0032),
		// however the writes interleaved.
		var entries, wrong int64
		if err := s.db.QueryRowContext(ctx, s.d.rebind(`SELECT COUNT(*), COALESCE(SUM(CASE WHEN e.owner = `+ownerSQL("$.projectmanager.id")+` THEN 0 ELSE 1 END), 0)
			FROM records r JOIN search_entries e ON e.tenant_id = r.tenant_id AND e.kind = r.kind AND e.record_id = r.id
			WHERE r.tenant_id = ? AND r.kind = 'project'`), "acme").Scan(&entries, &wrong); err != nil || entries != 60 || wrong != 0 {
			t.Errorf("search entries: %d, %d of them with another owner than their record's (%v); want 60, none", entries, wrong, err)
		}
	})
}

// An owner's list is read from owner_totals however its conditions come:
// the rule's and a card's alike, once or twice; never two owners or
// statuses, nor any other condition or text.
func TestOwnerScopeOf(t *testing.T) {
	k, _ := records.Lookup("project")
	for expr, want := range map[string]bool{
		"projectmanager eq 7":                                                       true,
		"projectmanager eq 7 and entitystatus eq Active":                            true,
		"entitystatus eq Active and projectmanager eq 7":                            true,
		"projectmanager eq 7 and projectmanager eq 7":                               true,
		"projectmanager eq 7 and projectmanager eq 8":                               false,
		"projectmanager eq 7 and entitystatus eq Active and entitystatus eq Closed": false,
		"projectmanager eq 7 or projectmanager eq 8":                                false,
		"projectmanager ne 7":                                                       false,
		"entitystatus eq Active":                                                    false,
		"projectmanager eq 7 and companyname eq Wetland":                            false,
	} {
		f, err := records.ParseFilter(k, expr)
		if err != nil {
			t.Fatal(err)
		}
		if _, got := ownerScopeOf(k, records.ListQuery{Kind: "project", Filter: f}); got != want {
			t.Errorf("%s: %v, want %v", expr, got, want)
		}
	}
	rule := mustFilter(t, k, "projectmanager eq 7")
	card := mustFilter(t, k, "projectmanager eq 7 and entitystatus eq Active")
	if o, ok := ownerScopeOf(k, records.ListQuery{Kind: "project", Filter: card.And(rule)}); !ok || o.owner != "7" || o.status != "Active" {
		t.Errorf("a card under the rule: %+v, %v", o, ok)
	}
	if _, ok := ownerScopeOf(k, records.ListQuery{Kind: "project", Filter: rule, Text: "wet"}); ok {
		t.Error("a list with text is read as the owner's")
	}
}

// TestConformanceFollowedWalk: a list narrowed through a reference to one
// owner's records (an invoice list under "job.projectmanager eq $me")
// gives the same pages, in the same order, whether the owner's records are
// few (read first) or many (the list's sort walked: planFollowed); and so
// does the owner's own list sorted by status.
func TestConformanceFollowedWalk(t *testing.T) {
	enginesAlone(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		ten := seedTenant(t, s, "acme")
		at := time.UnixMilli(1_700_000_000_000).UTC()
		if err := ten.PutRecords(ctx, ownedProjects(1, 90, func(i int64) int64 { return 1 + i%3 }, func(int64) bool { return false }, at)); err != nil {
			t.Fatal(err)
		}
		var invs []records.Record
		for i := int64(1); i <= 400; i++ {
			invs = append(invs, records.Record{Kind: "invoice", ID: 10_000 + i, Title: fmt.Sprintf("Invoice %d", i), ProjectID: 1 + i%95,
				Date: fmt.Sprintf("2026-%02d-%02d", 1+i%12, 1+i%28), ModifiedAt: at, Fields: json.RawMessage(`{}`)})
		}
		if err := ten.PutRecords(ctx, invs); err != nil {
			t.Fatal(err)
		}
		// Clients of three sales reps, and billing summaries naming them
		// by a document reference: fewer than a rep's clients, so that a
		// summary walks them too (planSummary).
		var clients, sums []records.Record
		for i := int64(1); i <= 60; i++ {
			clients = append(clients, records.Record{Kind: "customer", ID: 20_000 + i, Title: fmt.Sprintf("Client %d", i), ModifiedAt: at,
				Fields: json.RawMessage(fmt.Sprintf(`{"salesrep": {"id": "%d", "refName": "Rep %d"}}`, 1+i%3, 1+i%3))})
		}
		for i := int64(1); i <= 15; i++ {
			sums = append(sums, records.Record{Kind: "billing_summary", ID: 30_000 + i, Title: fmt.Sprintf("Summary %d", i), ModifiedAt: at,
				Date:   fmt.Sprintf("2026-%02d-%02d", 1+i%12, 1+i%28),
				Fields: json.RawMessage(fmt.Sprintf(`{"custrecord_res_bs_customer": {"id": "%d", "refName": "Client %d"}}`, 20_000+1+i%65, 1+i%65))})
		}
		if err := ten.PutRecords(ctx, append(clients, sums...)); err != nil {
			t.Fatal(err)
		}
		ck, _ := records.Lookup("customer")
		k, _ := records.Lookup("invoice")
		pk, _ := records.Lookup("project")
		mine := records.Filter{Any: [][]records.Cond{{{Column: records.ColProject, Type: records.TypeRef, Op: records.OpIn,
			Value: records.Within{Kind: "project", Filter: mustFilter(t, pk, "projectmanager eq 2")}}}}}
		pages := func(q records.ListQuery) [][]int64 {
			t.Helper()
			var out [][]int64
			for {
				page, err := ten.ListRecords(ctx, q)
				if err != nil {
					t.Fatal(err)
				}
				var ids []int64
				for _, r := range page.Records {
					ids = append(ids, r.ID)
				}
				out = append(out, ids)
				if !page.HasMore {
					return out
				}
				q.After = page.Next
			}
		}
		invoicesOf2 := records.ListQuery{Kind: k.Name, Filter: mine, Sort: records.ColDate, Desc: true, Limit: 40, Columns: []records.Column{}, Fields: []string{}}
		projectsOf2 := records.ListQuery{Kind: "project", Filter: mustFilter(t, pk, "projectmanager eq 2"), Sort: records.ColAmount, Limit: 7,
			Columns: []records.Column{}, Fields: []string{}}
		summariesOf2 := records.ListQuery{Kind: "billing_summary", Sort: records.ColDate, Limit: 2, Columns: []records.Column{}, Fields: []string{},
			Filter: records.Filter{Any: [][]records.Cond{{{Column: records.DocColumn("custrecord_res_bs_customer"), Type: records.TypeRef, Op: records.OpIn,
				Value: records.Within{Kind: "customer", Filter: mustFilter(t, ck, "salesrep eq 2")}}}}}}
		defer func(f, o, c, l int64) { walkFollowedOver, walkOwnedOver, correlateOver, lookupCost = f, o, c, l }(
			walkFollowedOver, walkOwnedOver, correlateOver, lookupCost)
		for _, q := range []records.ListQuery{invoicesOf2, projectsOf2, summariesOf2} {
			// Its pages, count and report by month.
			answers := func() string {
				n, err := ten.Summarize(ctx, records.SummaryQuery{List: q, Count: true})
				if err != nil {
					t.Fatal(err)
				}
				groups, err := ten.GroupRecords(ctx, records.GroupQuery{Kind: q.Kind, Filter: q.Filter, GroupBy: records.ColDate,
					Fns: []string{records.AggCount}, Limit: 100})
				if err != nil {
					t.Fatal(err)
				}
				return fmt.Sprint(pages(q), n.Total, groups)
			}
			walkFollowedOver, walkOwnedOver, correlateOver, lookupCost = 1_000_000, 1_000_000, 1_000_000, 1_000_000
			read := answers()
			// Walked, checking each record against the referenced ids.
			walkFollowedOver, walkOwnedOver = 0, 0
			if walked := answers(); read != walked || len(pages(q)) < 2 {
				t.Errorf("%s: read first %v, walked %v", q.Kind, read, walked)
			}
			// Walked, looking up the record each references (summaries too).
			correlateOver, lookupCost = 0, 1
			if walked := answers(); read != walked {
				t.Errorf("%s: read first %v, walked with look-ups %v", q.Kind, read, walked)
			}
		}
	})
}

func TestNamesIDs(t *testing.T) {
	ids := records.Cond{Column: records.ColID, Op: records.OpIn, Value: []int64{1, 2}}
	owner := records.Cond{Column: "projectmanager", Op: records.OpEq, Value: int64(7)}
	for _, c := range []struct {
		f    records.Filter
		want bool
	}{
		{records.Filter{Any: [][]records.Cond{{owner, ids}}}, true},
		{records.Filter{Any: [][]records.Cond{{owner}}}.And(records.Filter{Any: [][]records.Cond{{ids}}}), true},
		{records.Filter{Any: [][]records.Cond{{owner}, {ids}}}, false}, // or: not only those ids
		{records.Filter{Any: [][]records.Cond{{owner}}}, false},
	} {
		if got := namesIDs(c.f); got != c.want {
			t.Errorf("namesIDs(%v) = %v, want %v", c.f, got, c.want)
		}
	}
}

// TestConformanceSearchEntriesCarryOwners holds every search entry's
// owner (migration 0032) to its record's manager through inserts, a
// sync that moves projects with their names and dates, one that changes
// the manager alone, deletions, a bulk load, a rebuild of the index and
// the kind's owner joining afresh.
func TestConformanceSearchEntriesCarryOwners(t *testing.T) {
	engines(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		ten := seedTenant(t, s, "acme")
		check := func(what string, tenant string, current map[int64]records.Record) {
			t.Helper()
			rows, err := s.db.QueryContext(ctx, s.d.rebind(`SELECT record_id, owner FROM search_entries WHERE tenant_id = ? AND kind = 'project'`), tenant)
			if err != nil {
				t.Fatal(err)
			}
			defer rows.Close()
			got := map[int64]string{}
			for rows.Next() {
				var id int64
				var owner string
				if err := rows.Scan(&id, &owner); err != nil {
					t.Fatal(err)
				}
				got[id] = owner
			}
			want := map[int64]string{}
			for id, r := range current {
				var doc struct {
					Manager *struct{ ID string } `json:"projectmanager"`
				}
				if err := json.Unmarshal(r.Fields, &doc); err != nil {
					t.Fatal(err)
				}
				want[id] = ""
				if doc.Manager != nil {
					want[id] = doc.Manager.ID
				}
			}
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("%s: entries' owners %v, want %v", what, got, want)
			}
		}
		at := time.UnixMilli(1_700_000_000_000).UTC()
		current := map[int64]records.Record{}
		put := func(rs []records.Record) {
			for _, r := range rs {
				current[r.ID] = r
			}
		}
		rs := ownedProjects(1, 60, func(i int64) int64 { return i % 4 }, func(int64) bool { return false }, at)
		if err := ten.PutRecords(ctx, rs); err != nil {
			t.Fatal(err)
		}
		put(rs)
		check("inserted", "acme", current)
		// Moved with a new modification time: the entries are rewritten.
		moved := ownedProjects(1, 20, func(i int64) int64 { return 1 + (i+1)%4 }, func(int64) bool { return false }, at.Add(time.Minute))
		if err := ten.ApplyPull(ctx, "project", moved, []int64{59, 60}, erpsync.State{Kind: "project"}); err != nil {
			t.Fatal(err)
		}
		put(moved)
		delete(current, 59)
		delete(current, 60)
		check("moved", "acme", current)
		// The manager alone changes: name, status and date stay.
		managerOnly := ownedProjects(21, 20, func(i int64) int64 { return 7 + i%2 }, func(int64) bool { return false }, at)
		if err := ten.ApplyPull(ctx, "project", managerOnly, nil, erpsync.State{Kind: "project"}); err != nil {
			t.Fatal(err)
		}
		put(managerOnly)
		check("manager changed alone", "acme", current)

		bulk := seedTenant(t, s, "bulk")
		loaded := ownedProjects(1, 30, func(i int64) int64 { return i % 3 }, func(int64) bool { return false }, at)
		if err := s.BulkLoad(ctx, func() error { return bulk.PutRecords(ctx, loaded) }); err != nil {
			t.Fatal(err)
		}
		bulkNow := map[int64]records.Record{}
		for _, r := range loaded {
			bulkNow[r.ID] = r
		}
		check("bulk loaded", "bulk", bulkNow)

		if _, err := s.db.ExecContext(ctx, `UPDATE search_entries SET owner = ''`); err != nil {
			t.Fatal(err)
		}
		if _, err := s.ReindexSearch(ctx); err != nil {
			t.Fatal(err)
		}
		check("rebuilt", "acme", current)

		// The kind's owner joins afresh (as a new release's registry
		// names it): its entries are given their owners.
		if _, err := s.db.ExecContext(ctx, `UPDATE search_entries SET owner = ''`); err != nil {
			t.Fatal(err)
		}
		if _, err := s.db.ExecContext(ctx, `DELETE FROM owner_fields WHERE kind = 'project'`); err != nil {
			t.Fatal(err)
		}
		if err := s.IndexDocumentFields(ctx); err != nil {
			t.Fatal(err)
		}
		check("owner joined", "acme", current)
	})
}
