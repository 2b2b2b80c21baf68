package httpapi

import (
	"fmt"
	"math"
	"testing"

	"github.com/portico/portico/internal/records"
)

// A record tab of credits (a project's, an opportunity's client's) totals
// them by transaction type over all its entries, never adding released,
// reserved, sold and retired credits together.
func TestCreditTabsTotalByTransactionType(t *testing.T) {
	e, tok := recordsEnv(t)
	checked := 0
	for _, tc := range []struct{ kind, tab string }{{"project", "credits"}, {"customrecord_res_opportunity", "credits"}, {"project", "invoices"}} {
		for id := 1; id <= 30; id++ {
			var ans struct {
				Data struct {
					Rows    []map[string]any
					HasMore bool
					Totals  *records.StatusTotals
				}
			}
			if code := e.getJSON(t, tok, 10, fmt.Sprintf("/api/v1/netsuite/portal-record?type=%s&id=%d&tab=%s", tc.kind, id, tc.tab), &ans); code != 200 {
				t.Fatalf("%s %d %s: %d", tc.kind, id, tc.tab, code)
			}
			tot := ans.Data.Totals
			if tot == nil {
				t.Fatalf("%s %d %s: no totals", tc.kind, id, tc.tab)
			}
			want := map[string]struct {
				n   int64
				sum float64
			}{}
			for _, r := range ans.Data.Rows {
				w := want[r[tot.Field].(string)]
				w.n++
				if v, ok := r[tot.Amount].(float64); ok {
					w.sum += v
				}
				want[r[tot.Field].(string)] = w
			}
			if ans.Data.HasMore || len(tot.Groups) != len(want) {
				t.Fatalf("%s %d %s: totals %+v for rows %v (more: %v)", tc.kind, id, tc.tab, tot.Groups, want, ans.Data.HasMore)
			}
			for i, g := range tot.Groups {
				// Per unit (credits per credit type), adding up to the rows'.
				var sum float64
				for _, u := range g.Totals {
					sum += u.Total
				}
				if w := want[g.Status]; w.n != g.Count || math.Abs(w.sum-sum) > 0.001 {
					t.Errorf("%s %d %s: %s is %d / %v, the rows say %d / %v", tc.kind, id, tc.tab, g.Status, g.Count, g.Totals, w.n, w.sum)
				}
				if i > 0 && g.Status == tot.Groups[i-1].Status {
					t.Errorf("%s twice", g.Status)
				}
			}
			if tc.kind == "project" && tc.tab == "credits" && (tot.Label != "Transaction" || tot.Type != records.TypeQuantity) {
				t.Errorf("credits totals: %+v", tot)
			}
			checked += len(tot.Groups)
		}
	}
	if checked == 0 {
		t.Fatal("no tab had any records to total")
	}
}
