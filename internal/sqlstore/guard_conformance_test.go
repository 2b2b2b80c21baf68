package sqlstore

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/portico/portico/internal/access"
	"github.com/portico/portico/internal/portal"
	"github.com/portico/portico/internal/records"
)

// petesGuard is Pete (employee 2) as a project manager whose invoices are
// those of the projects he manages.
func petesGuard(ten *Tenant) *records.Guard {
	return records.NewGuard(ten, access.Role{ID: 1002, Name: "Project Manager",
		Permissions: []string{"project.view", "project.edit", "invoice.view", "billing.view"},
		Rules: map[string]string{
			"invoice.view": "job.projectmanager eq $me",
			"project.edit": "projectmanager eq $me and entitystatus ne Closed",
		}}, "Pete@Acme.test")
}

// guardFixture adds to the dashboard's fixture invoices of projects:
// 400 and 401 of Pete's projects 10 and 11, 402 of Ada's 20, 403 of none.
func guardFixture(t *testing.T, s *Store) *Tenant {
	t.Helper()
	ten := dashboardFixture(t, s)
	var rs []records.Record
	for _, inv := range []struct {
		id, project, amount int64
		status              string
	}{{400, 10, 10000, "Open"}, {401, 11, 5000, "Paid In Full"}, {402, 20, 100000, "Open"}, {403, 0, 700, "Open"}} {
		r := docRecord("invoice", inv.id, fmt.Sprintf("Project invoice %d", inv.id), inv.status, nil)
		r.ProjectID, r.ProjectName, r.Amount = inv.project, "x", ptr(inv.amount)
		rs = append(rs, r)
	}
	if err := ten.PutRecords(context.Background(), rs); err != nil {
		t.Fatal(err)
	}
	return ten
}

func idsOf(recs []records.Record) []int64 {
	var out []int64
	for _, r := range recs {
		out = append(out, r.ID)
	}
	slices.Sort(out)
	return out
}

// A rule that follows a reference narrows every read of its kind to the
// records it matches, on both engines: a list (sorted any way, filtered,
// searched), its count and totals, a tally, a grouping, a check of one
// record and of many; an edit needs the edit rule too; a kind without a
// rule is whole, and one the role lacks is refused.
func TestConformanceGuardNarrowsEveryRead(t *testing.T) {
	engines(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		ten := guardFixture(t, s)
		g := petesGuard(ten)
		inv, _ := records.Lookup("invoice")

		for _, q := range []records.ListQuery{
			{Kind: "invoice", Limit: 50},
			{Kind: "invoice", Limit: 50, Sort: records.ColAmount, Desc: true},
			{Kind: "invoice", Limit: 50, Text: "Project invoice"},
			{Kind: "invoice", Limit: 1}, // and its next page
		} {
			var got []int64
			for {
				f, err := g.Narrow(ctx, q.Kind, q.Filter)
				if err != nil {
					t.Fatal(err)
				}
				q.Filter = f
				page, err := ten.ListRecords(ctx, q)
				if err != nil {
					t.Fatal(err)
				}
				got = append(got, idsOf(page.Records)...)
				if !page.HasMore {
					break
				}
				q.After, q.Filter = page.Next, records.Filter{}
			}
			slices.Sort(got)
			if !slices.Equal(got, []int64{400, 401}) {
				t.Errorf("list %+v: %v, want Pete's 400 and 401", q, got)
			}
		}
		f, _ := g.Narrow(ctx, "invoice", records.Filter{})
		amount, _ := inv.Field(records.ColAmount)
		sum, err := ten.Summarize(ctx, records.SummaryQuery{List: records.ListQuery{Kind: "invoice", Filter: f}, Count: true, Sum: []records.Field{amount}})
		if err != nil || sum.Total != 2 || sum.TotalEstimated {
			t.Errorf("count: %+v %v", sum, err)
		}
		if got := totals(sum.Totals[amount.Name]); got != "150.00" {
			t.Errorf("total: %s, want 150.00 (100 + 50)", got)
		}
		tally, err := ten.Tally(ctx, records.TallyQuery{Kind: "invoice", Filter: f, Buckets: []records.Filter{{}}})
		if err != nil || tally.Buckets[0].Count != 2 {
			t.Errorf("tally: %+v %v", tally, err)
		}
		groups, err := ten.GroupRecords(ctx, records.GroupQuery{Kind: "invoice", Filter: f, GroupBy: records.ColStatus, Fns: []string{"count"}, Of: []records.Column{""}, Limit: 10})
		n := 0.0
		for _, gr := range groups {
			n += gr.Values[0]
		}
		if err != nil || n != 2 {
			t.Errorf("groups: %+v %v", groups, err)
		}
		for id, want := range map[int64]bool{400: true, 401: true, 402: false, 403: false, 999: false} {
			err := g.Check(ctx, inv, id, records.ActView)
			if (err == nil) != want || (err != nil && !portal.IsNotFound(err)) {
				t.Errorf("check %d: %v, want seen %v (else not found)", id, err, want)
			}
		}
		// An edit rule: every project is Pete's to see, his open ones
		// to change.
		prj, _ := records.Lookup("project")
		for id, want := range map[int64]bool{10: true, 12: true, 13: false, 20: false} {
			if err := g.Check(ctx, prj, id, records.ActView); err != nil {
				t.Errorf("view check of project %d: %v", id, err)
			}
			if err := g.Check(ctx, prj, id, records.ActEdit); (err == nil) != want {
				t.Errorf("edit check of project %d: %v, want %v", id, err, want)
			}
		}
		seen, err := g.Seen(ctx, map[string][]int64{"invoice": {400, 401, 402, 403}, "project": {10, 20}})
		if err != nil || len(seen["invoice"]) != 2 || !seen["invoice"][400] || !seen["invoice"][401] || len(seen["project"]) != 2 {
			t.Errorf("seen: %v %v", seen, err)
		}
		// Kinds without a rule are whole; a kind the role lacks is refused.
		if f, err := g.Narrow(ctx, "project", records.Filter{}); err != nil || f.Conditions() != 0 {
			t.Errorf("project scope: %+v %v", f, err)
		}
		if _, err := g.Narrow(ctx, "vendorbill", records.Filter{}); err == nil {
			t.Error("a kind the role lacks was not refused")
		}
		// A user who is no employee sees none of a rule's records.
		nobody := records.NewGuard(ten, access.Role{Permissions: []string{"invoice.view"}, Rules: map[string]string{"invoice.view": "job.projectmanager eq $me"}}, "nobody@acme.test")
		if got, err := nobody.Visible(ctx, inv, []int64{400, 401, 402, 403}, records.ActView); err != nil || len(got) != 0 {
			t.Errorf("nobody sees %v %v", got, err)
		}
	})
}

// Writers hand project 11 between Pete and Ada while Pete's lists of
// invoices are read, each read with the guard of its own request: every
// read shows Pete's invoices as of some moment, never Ada's or another
// project's.
func TestConformanceGuardUnderWritersOfTheReference(t *testing.T) {
	engines(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		ten := guardFixture(t, s)
		var wg sync.WaitGroup
		stop := make(chan struct{})
		for w := range 4 {
			wg.Go(func() {
				for i := 0; ; i++ {
					select {
					case <-stop:
						return
					default:
					}
					m := int64(1 + (i+w)%2)
					r := docRecord("project", 11, "Heron Marsh", "Active", map[string]any{"projectmanager": manager(m, "x")})
					r.ParentID, r.ParentName = 5, "Acme Water"
					r.ModifiedAt = time.Now().UTC()
					if err := ten.PutRecords(ctx, []records.Record{r}); err != nil {
						t.Error(err)
						return
					}
				}
			})
		}
		// Each reader reads at least 25 times, and until the reads have
		// seen both of Pete's states (so the writers did write between
		// them), for at most 20 s.
		var states [2]atomic.Int64 // without 401, with it
		deadline := time.Now().Add(20 * time.Second)
		var reads sync.WaitGroup
		for range 4 {
			reads.Go(func() {
				for n := 0; n < 25 || (states[0].Load() == 0 || states[1].Load() == 0) && time.Now().Before(deadline); n++ {
					g := petesGuard(ten)
					f, err := g.Narrow(ctx, "invoice", records.Filter{})
					if err != nil {
						t.Error(err)
						return
					}
					page, err := ten.ListRecords(ctx, records.ListQuery{Kind: "invoice", Filter: f, Limit: 50})
					if err != nil {
						t.Error(err)
						return
					}
					got := idsOf(page.Records)
					switch {
					case slices.Equal(got, []int64{400}):
						states[0].Add(1)
					case slices.Equal(got, []int64{400, 401}):
						states[1].Add(1)
					default:
						t.Errorf("Pete's invoices read %v", got)
					}
					// Their count too, under the guard of the same request.
					sum, err := ten.Summarize(ctx, records.SummaryQuery{List: records.ListQuery{Kind: "invoice", Filter: f}, Count: true})
					if err != nil {
						t.Error(err)
						return
					}
					if sum.Total != 1 && sum.Total != 2 {
						t.Errorf("Pete's invoices counted %d", sum.Total)
					}
				}
			})
		}
		reads.Wait()
		close(stop)
		wg.Wait()
		if states[0].Load() == 0 || states[1].Load() == 0 {
			t.Errorf("the reads saw project 11 %d times not Pete's and %d times his: the writers did not write between them", states[0].Load(), states[1].Load())
		}
	})
}
