package sqlstore

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"testing"
	"time"

	"github.com/portico/portico/internal/erpsync"
	"github.com/portico/portico/internal/records"
)

// invoices makes n invoices from id first on: amount i×10.00 (none for
// every 11th), amount remaining i×1.50 for open ones (every third).
func invoices(first, n int64, modified time.Time) []records.Record {
	var out []records.Record
	for i := first; i < first+n; i++ {
		doc := map[string]any{"id": fmt.Sprint(i), "amountremaining": 0.0}
		r := records.Record{Kind: "invoice", ID: i, Title: fmt.Sprintf("Invoice %05d", i), Status: "Paid in full", ModifiedAt: modified}
		if i%11 != 0 {
			r.Amount = ptr(i * 1000)
		}
		if i%3 == 0 {
			r.Status, doc["amountremaining"] = "Open", float64(i)*1.5
		}
		r.Fields, _ = json.Marshal(doc)
		out = append(out, r)
	}
	return out
}

// wantSummary adds up invoices as the store should.
func wantSummary(rs []records.Record, keep func(records.Record) bool) (n int64, total, remaining float64) {
	for _, r := range rs {
		if !keep(r) {
			continue
		}
		n++
		if r.Amount != nil {
			total += float64(*r.Amount) / 100
		}
		var doc struct{ Amountremaining float64 }
		json.Unmarshal(r.Fields, &doc)
		remaining += doc.Amountremaining
	}
	return n, total, remaining
}

// base is a summary's total of field in the base currency (or of one
// unit), -1 when it has totals of other units too.
func base(s records.Summary, field string) float64 {
	if ts := s.Totals[field]; len(ts) == 1 && ts[0].Unit == "" {
		return ts[0].Total
	}
	return -1
}

// TestConformanceSummary counts and totals lists: an unfiltered list from
// the kept count and sums (through inserts, updates, a sync's deletions
// and a bulk load), a small filtered result exactly, a large one as an
// estimate marked so.
func TestConformanceSummary(t *testing.T) {
	engines(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		ten := seedTenant(t, s, "acme")
		other := seedTenant(t, s, "other")
		k, _ := records.Lookup("invoice")
		total, _ := k.FieldNamed("total")
		remaining, _ := k.FieldNamed("amountremaining")
		summarize := func(ten *Tenant, f records.Filter) records.Summary {
			t.Helper()
			sum, err := ten.Summarize(ctx, records.SummaryQuery{List: records.ListQuery{Kind: "invoice", Filter: f}, Count: true,
				Sum: []records.Field{total, remaining}})
			if err != nil {
				t.Fatal(err)
			}
			return sum
		}
		check := func(what string, got records.Summary, n int64, tot, rem float64, estimated bool) {
			t.Helper()
			if estimated {
				if !got.TotalEstimated || !got.TotalsEstimated || math.Abs(float64(got.Total-n)) > 0.25*float64(n) ||
					math.Abs(base(got, "total")-tot) > 0.25*tot || math.Abs(base(got, "amountremaining")-rem) > max(0.3*rem, 1000) {
					t.Errorf("%s: %+v, want an estimate near %d, %.2f, %.2f", what, got, n, tot, rem)
				}
				return
			}
			if got.TotalEstimated || got.TotalsEstimated || got.Total != n || math.Abs(base(got, "total")-tot) > 0.001 ||
				math.Abs(base(got, "amountremaining")-rem) > 0.001 {
				t.Errorf("%s: %+v, want exactly %d, %.2f, %.2f", what, got, n, tot, rem)
			}
		}
		all := func(records.Record) bool { return true }
		rs := invoices(1, 300, time.UnixMilli(1_700_000_000_000).UTC())
		if err := ten.PutRecords(ctx, rs); err != nil {
			t.Fatal(err)
		}
		if err := other.PutRecords(ctx, invoices(1, 40, time.UnixMilli(1_700_000_000_000).UTC())); err != nil {
			t.Fatal(err)
		}
		n, tot, rem := wantSummary(rs, all)
		check("inserted", summarize(ten, records.Filter{}), n, tot, rem, false)
		// A sync re-reads some unchanged and changes others; deletes some.
		changed := invoices(1, 60, time.UnixMilli(1_700_000_100_000).UTC())
		for i := range changed {
			if i%2 == 0 {
				changed[i].Amount = ptr(int64(777))
				changed[i].Fields = json.RawMessage(`{"amountremaining": 3.25}`)
			}
		}
		deleted := []int64{250, 251, 252, 299}
		if err := ten.ApplyPull(ctx, "invoice", changed, deleted, erpsync.State{Kind: "invoice"}); err != nil {
			t.Fatal(err)
		}
		current := map[int64]records.Record{}
		for _, r := range append(rs, changed...) {
			current[r.ID] = r
		}
		for _, id := range deleted {
			delete(current, id)
		}
		var now []records.Record
		for _, r := range current {
			now = append(now, r)
		}
		n, tot, rem = wantSummary(now, all)
		check("after a sync", summarize(ten, records.Filter{}), n, tot, rem, false)
		// A filtered result of up to SummaryExact records is exact.
		open, _ := records.ParseFilter(k, "status eq Open")
		n, tot, rem = wantSummary(now, func(r records.Record) bool { return r.Status == "Open" })
		check("open", summarize(ten, open), n, tot, rem, false)
		// The other tenant's are its own.
		n, tot, rem = wantSummary(invoices(1, 40, time.Time{}), all)
		check("other tenant", summarize(other, records.Filter{}), n, tot, rem, false)
		// Past SummaryExact, an estimate.
		more := invoices(1000, 6000, time.UnixMilli(1_700_000_200_000).UTC())
		if err := ten.PutRecords(ctx, more); err != nil {
			t.Fatal(err)
		}
		now = append(now, more...)
		n, tot, rem = wantSummary(now, func(r records.Record) bool { return r.Status == "Paid in full" })
		check("paid, estimated", summarize(ten, mustFilter(t, k, "status eq \"Paid in full\"")), n, tot, rem, true)
		n, tot, rem = wantSummary(now, all)
		check("all, kept", summarize(ten, records.Filter{}), n, tot, rem, false)
	})
}

// TestConformanceBulkLoadCounts: a bulk load runs without the triggers
// that count and sum, and counts and sums afresh when it restores them.
func TestConformanceBulkLoadCounts(t *testing.T) {
	engines(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		ten := seedTenant(t, s, "acme")
		rs := invoices(1, 500, time.UnixMilli(1_700_000_000_000).UTC())
		if err := s.BulkLoad(ctx, func() error { return ten.PutRecords(ctx, rs) }); err != nil {
			t.Fatal(err)
		}
		k, _ := records.Lookup("invoice")
		remaining, _ := k.FieldNamed("amountremaining")
		sum, err := ten.Summarize(ctx, records.SummaryQuery{List: records.ListQuery{Kind: "invoice"}, Count: true, Sum: []records.Field{remaining}})
		n, _, rem := wantSummary(rs, func(records.Record) bool { return true })
		if err != nil || sum.Total != n || math.Abs(base(sum, "amountremaining")-rem) > 0.001 || sum.TotalEstimated {
			t.Errorf("after a bulk load: %+v, %v; want %d, %.2f", sum, err, n, rem)
		}
	})
}

func mustFilter(t *testing.T, k *records.Kind, expr string) records.Filter {
	t.Helper()
	f, err := records.ParseFilter(k, expr)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// A tab's totals by status (records.Kind.TotalsByStatus) are each
// status's count and amount over the tab's records, as the tab's list
// with that status would count and total them: in one tally for a small
// set, and per status beyond records.SummaryExact records (here each
// status has fewer than SummaryExact, so exact too).
func TestConformanceTotalsByStatus(t *testing.T) {
	engines(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		ten := seedTenant(t, s, "acme")
		k, _ := records.Lookup("billing")
		statuses := []string{"Scheduled", "Billed", "On hold"}
		var rs []records.Record
		type sum struct {
			n     int64
			total int64
		}
		want := map[int64]map[string]sum{10: {}, 11: {}}
		add := func(project int64, i int) {
			status := statuses[i%len(statuses)]
			if project == 11 {
				status = statuses[i%2] // no record on hold
			}
			r := docRecord("billing", int64(len(rs)+1), fmt.Sprintf("Milestone %d", len(rs)), status, nil)
			r.ProjectID, r.ProjectName, r.Amount = project, "x", ptr(int64(100+i))
			rs = append(rs, r)
			w := want[project][status]
			want[project][status] = sum{w.n + 1, w.total + 100 + int64(i)}
		}
		for i := range 7 {
			add(10, i)
		}
		for i := range records.SummaryExact + 100 {
			add(11, i)
		}
		if err := ten.PutRecords(ctx, rs); err != nil {
			t.Fatal(err)
		}
		for project, by := range want {
			f := records.Filter{Any: [][]records.Cond{{{Column: records.ColProject, Type: records.TypeRef, Op: records.OpEq, Value: project}}}} // as the project's tab has it
			got, err := k.TotalsByStatus(ctx, ten, f)
			if err != nil {
				t.Fatal(err)
			}
			var seen []string
			for _, g := range got.Groups {
				w := by[g.Status]
				if g.Count != w.n || len(g.Totals) != 1 || math.Abs(g.Totals[0].Total-float64(w.total)/100) > 0.001 || g.Estimated {
					t.Errorf("project %d, %s: %d, %v (estimated %v); want %d, %.2f", project, g.Status, g.Count, g.Totals, g.Estimated, w.n, float64(w.total)/100)
				}
				seen = append(seen, g.Status)
			}
			var wantSeen []string
			for _, c := range []string{"Scheduled", "Ready to bill", "Billed", "On hold"} { // the choices' order
				if by[c].n > 0 {
					wantSeen = append(wantSeen, c)
				}
			}
			if !slices.Equal(seen, wantSeen) {
				t.Errorf("project %d: statuses %v, want %v", project, seen, wantSeen)
			}
		}
	})
}

// TestConformanceSummaryPerUnit: totals never add different units. A
// list's totals are per currency once a kind has records in another than
// the base (its kept sums no longer serve), exact up to SummaryExact and
// estimated per currency beyond; credits are per credit type.
func TestConformanceSummaryPerUnit(t *testing.T) {
	engines(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		ten := seedTenant(t, s, "acme")
		k, _ := records.Lookup("invoice")
		total, _ := k.FieldNamed("total")
		remaining, _ := k.FieldNamed("amountremaining")
		want := map[string]map[string]float64{"total": {}, "amountremaining": {}}
		inCurrencies := func(rs []records.Record) []records.Record {
			for i := range rs {
				switch {
				case rs[i].ID%5 == 0:
					rs[i].Currency = "GBP"
				case rs[i].ID%7 == 0:
					rs[i].Currency = "USD"
				}
				_, tot, rem := wantSummary(rs[i:i+1], func(records.Record) bool { return true })
				want["total"][rs[i].Currency] += tot
				want["amountremaining"][rs[i].Currency] += rem
			}
			if err := ten.PutRecords(ctx, rs); err != nil {
				t.Fatal(err)
			}
			return rs
		}
		inCurrencies(invoices(1, 300, time.UnixMilli(1_700_000_000_000).UTC()))
		check := func(what string, got records.Summary, estimated bool) {
			t.Helper()
			for field, byUnit := range want {
				ts := got.Totals[field]
				if len(ts) != 3 || ts[0].Unit != "" || ts[1].Unit != "GBP" || ts[2].Unit != "USD" {
					t.Fatalf("%s: %s totals %+v, want the base currency, GBP and USD", what, field, ts)
				}
				for _, u := range ts {
					w, d := byUnit[u.Unit], math.Abs(u.Total-byUnit[u.Unit])
					if (!estimated && d > 0.001) || (estimated && d > 0.35*w+200) {
						t.Errorf("%s: %s in %q = %.2f, want %.2f", what, field, u.Unit, u.Total, w)
					}
				}
			}
			if got.TotalsEstimated != estimated {
				t.Errorf("%s: estimated %v", what, got.TotalsEstimated)
			}
		}
		sum := func(f records.Filter) records.Summary {
			got, err := ten.Summarize(ctx, records.SummaryQuery{List: records.ListQuery{Kind: "invoice", Filter: f}, Count: true,
				Sum: []records.Field{total, remaining}})
			if err != nil {
				t.Fatal(err)
			}
			return got
		}
		check("unfiltered", sum(records.Filter{}), false)
		if got := sum(records.Filter{}); got.Total != 300 {
			t.Errorf("count %d", got.Total)
		}
		// Beyond SummaryExact: estimated, still per currency.
		inCurrencies(invoices(301, 3000, time.UnixMilli(1_700_000_000_000).UTC()))
		check("estimated", sum(mustFilter(t, k, "memo startswith Invoice")), true)
		// Unfiltered, past SummaryExact records but with fewer than that in
		// other currencies: exact, the kept sums less theirs.
		check("unfiltered, 3,300", sum(records.Filter{}), false)
		if got := sum(records.Filter{}); got.Total != 3300 || got.TotalEstimated {
			t.Errorf("count %d (estimated %v)", got.Total, got.TotalEstimated)
		}
		// More than SummaryExact in other currencies: estimated, per currency.
		inCurrencies(invoices(3301, 6000, time.UnixMilli(1_700_000_000_000).UTC()))
		check("unfiltered, estimated", sum(records.Filter{}), true)

		// Credits per credit type, in a list and a tab's status totals.
		ck, _ := records.Lookup("creditledger")
		credits, _ := ck.FieldNamed("custrecord_res_cl_credits")
		var entries []records.Record
		for i, typ := range []string{"Wetland", "Stream", "Wetland", "", "Species"} {
			r := docRecord("creditledger", int64(500+i), fmt.Sprintf("Entry %d", i), "Sold", nil)
			if typ != "" {
				r.Fields, _ = json.Marshal(map[string]any{"custrecord_res_cl_credit_type": map[string]any{"id": "1", "refName": typ}})
			}
			r.Amount = ptr(int64(100 * (i + 1)))
			entries = append(entries, r)
		}
		if err := ten.PutRecords(ctx, entries); err != nil {
			t.Fatal(err)
		}
		got, err := ten.Summarize(ctx, records.SummaryQuery{List: records.ListQuery{Kind: "creditledger"}, Count: true, Sum: []records.Field{credits}})
		if err != nil || got.Total != 5 || totals(got.Totals[credits.Name]) != "4.00 + Species 5.00 + Stream 2.00 + Wetland 4.00" {
			t.Errorf("credits: %+v %v", got, err)
		}
		st, err := ck.TotalsByStatus(ctx, ten, records.Filter{})
		if err != nil || st == nil || len(st.Groups) != 1 || totals(st.Groups[0].Totals) != "4.00 + Species 5.00 + Stream 2.00 + Wetland 4.00" {
			t.Errorf("credits by status: %+v %v", st, err)
		}
		// Past SummaryExact entries, an unfiltered list's credits are
		// estimated per credit type (the kept sums add every type).
		entries = entries[:0]
		for i := range records.SummaryExact + 500 {
			r := docRecord("creditledger", int64(1000+i), fmt.Sprintf("Entry %d", i), "Sold", nil)
			r.Fields, _ = json.Marshal(map[string]any{"custrecord_res_cl_credit_type": map[string]any{"id": "1", "refName": []string{"Wetland", "Stream"}[i%2]}})
			r.Amount = ptr(int64(100))
			entries = append(entries, r)
		}
		if err := ten.PutRecords(ctx, entries); err != nil {
			t.Fatal(err)
		}
		got, err = ten.Summarize(ctx, records.SummaryQuery{List: records.ListQuery{Kind: "creditledger"}, Count: true, Sum: []records.Field{credits}})
		if err != nil || !got.TotalsEstimated || len(got.Totals[credits.Name]) < 2 {
			t.Fatalf("credits past SummaryExact: %+v %v", got, err)
		}
		for _, u := range got.Totals[credits.Name] {
			if want := float64(records.SummaryExact+500) / 2; (u.Unit == "Wetland" || u.Unit == "Stream") && math.Abs(u.Total-want) > 0.35*want {
				t.Errorf("credits of %s: %.2f, want about %.0f", u.Unit, u.Total, want)
			}
		}
	})
}

// Migration 0029 makes every kind's next pull start from the beginning,
// so records synced before it come again with their own currency.
func TestMigration0029PullsEveryKindAgain(t *testing.T) {
	for _, engine := range []string{"sqlite", "postgres"} {
		t.Run(engine, func(t *testing.T) {
			ctx := context.Background()
			s := atVersion(t, engine, 28)
			if _, err := s.db.ExecContext(ctx, s.d.rebind(`INSERT INTO tenants (id, name, created_at) VALUES ('acme', 'Acme', 0)`)); err != nil {
				t.Fatal(err)
			}
			if _, err := s.db.ExecContext(ctx, s.d.rebind(`INSERT INTO sync_state (tenant_id, kind, cp_modified, cp_id, deleted_since, pulled_total)
				VALUES ('acme', 'invoice', 1700000000000, 42, 1700000000000, 500)`)); err != nil {
				t.Fatal(err)
			}
			if _, err := s.Migrate(ctx); err != nil {
				t.Fatal(err)
			}
			states, err := s.Tenant("acme").SyncStates(ctx)
			if err != nil || len(states) != 1 || !states[0].Checkpoint.IsZero() || states[0].DeletedSince.UnixMilli() > 0 {
				t.Fatalf("after 0029: %+v %v", states, err)
			}
		})
	}
}
