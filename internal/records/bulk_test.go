package records_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/portico/portico/internal/access"
	"github.com/portico/portico/internal/erpsync"
	"github.com/portico/portico/internal/records"
	"github.com/portico/portico/internal/sqlstore"
)

// twoInstances runs fn on SQLite always, and on PostgreSQL when
// PORTICO_TEST_DATABASE_URL is set, with two stores opened on one
// database (two portal instances sharing it), tenant acme in it.
func twoInstances(t *testing.T, fn func(t *testing.T, a, b *sqlstore.Tenant)) {
	open := func(t *testing.T, url string) {
		var ts [2]*sqlstore.Tenant
		for i := range ts {
			s, err := sqlstore.Open(context.Background(), url, "")
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { s.Close() })
			if i == 0 {
				if err := s.EnsureTenant(context.Background(), "acme", "acme"); err != nil {
					t.Fatal(err)
				}
			}
			ts[i] = s.Tenant("acme")
		}
		fn(t, ts[0], ts[1])
	}
	t.Run("sqlite", func(t *testing.T) {
		open(t, "sqlite:"+filepath.Join(t.TempDir(), "portico.db"))
	})
	t.Run("postgres", func(t *testing.T) {
		base := os.Getenv("PORTICO_TEST_DATABASE_URL")
		if base == "" {
			t.Skip("PORTICO_TEST_DATABASE_URL is not set")
		}
		url, drop, err := sqlstore.ScratchURL(context.Background(), base)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(drop)
		open(t, url)
	})
}

// projects stores projects first..first+n-1, each "Proposed".
func projects(t *testing.T, ten *sqlstore.Tenant, first int64, n int) []int64 {
	t.Helper()
	ids := make([]int64, n)
	rs := make([]records.Record, n)
	for i := range rs {
		id := first + int64(i)
		ids[i] = id
		rs[i] = records.Record{Kind: "project", ID: id, Title: fmt.Sprintf("Project %d", id), Status: "Proposed",
			ModifiedAt: time.UnixMilli(1_700_000_000_000 + id).UTC(), Fields: json.RawMessage(`{}`)}
	}
	if err := ten.PutRecords(context.Background(), rs); err != nil {
		t.Fatal(err)
	}
	return ids
}

// editsOf counts the audited edits of a project.
func editsOf(t *testing.T, ten *sqlstore.Tenant, id int64) int {
	t.Helper()
	evs, err := ten.AuditEvents(context.Background(), access.AuditFilter{Event: "record_edit", Kind: "project", RecordID: id})
	if err != nil {
		t.Fatal(err)
	}
	return len(evs)
}

// pendingUpdates counts the outbox's pending updates per project.
func pendingUpdates(t *testing.T, ten *sqlstore.Tenant) map[int64]int {
	t.Helper()
	es, err := ten.OutboxEntries(context.Background(), []string{erpsync.EntryPending}, 100_000)
	if err != nil {
		t.Fatal(err)
	}
	out := map[int64]int{}
	for _, e := range es {
		if e.Kind == "project" && e.Op == records.OpUpdate {
			out[e.RecordID]++
		}
	}
	return out
}

// TestBulkEditsManyWritersAtOnce runs bulk edits of the same records at
// the same time from two instances: no record is lost or half-written,
// every outcome says what happened to its record (each save is one audited
// write and, in Queued mode, one outbox entry), and repeats of one keyed
// request write each record once.
func TestBulkEditsManyWritersAtOnce(t *testing.T) {
	k, _ := records.Lookup("project")
	statuses := []string{"Planning", "Active", "Monitoring", "Closed", "Planning", "Active"}
	twoInstances(t, func(t *testing.T, a, b *sqlstore.Tenant) {
		ctx := context.Background()
		for mi, mode := range []records.Mode{records.Standalone, records.Queued} {
			t.Run(fmt.Sprintf("mode %d", mode), func(t *testing.T) {
				ids := projects(t, a, int64(1+100*mi), 12)
				instances := []*sqlstore.Tenant{a, b}

				// Writers with values of their own, each in its own order.
				results := make([]records.BulkResult, len(statuses))
				var wg sync.WaitGroup
				start := make(chan struct{})
				for w, status := range statuses {
					order := append([]int64(nil), ids...)
					rand.New(rand.NewPCG(uint64(w), 7)).Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
					wg.Go(func() {
						<-start
						res, err := k.Bulk(ctx, instances[w%2], records.BulkEdit{IDs: order, Field: "entitystatus", Value: json.RawMessage(`"` + status + `"`)},
							records.Author{UserID: int64(w + 1)}, time.Now(), mode)
						if err != nil {
							t.Errorf("writer %d: %v", w, err)
						}
						results[w] = res
					})
				}
				close(start)
				wg.Wait()
				saved, had := map[int64][]string{}, map[int64]bool{}
				for w, res := range results {
					if len(res.Results) != len(ids) || res.Saved+res.Failed != len(ids) {
						t.Fatalf("writer %d: %d outcomes for %d records", w, len(res.Results), len(ids))
					}
					for _, o := range res.Results {
						switch {
						case o.Err != nil:
							t.Fatalf("writer %d, record %d: %v", w, o.ID, o.Err)
						case o.Saved && o.Unchanged:
							had[o.ID] = true
						case o.Saved:
							saved[o.ID] = append(saved[o.ID], statuses[w])
						case o.Message == "":
							t.Fatalf("writer %d, record %d: not saved, no reason", w, o.ID)
						}
					}
				}
				failed := 0
				for _, res := range results {
					failed += res.Failed
				}
				t.Logf("%d of %d saves gave way to others", failed, len(ids)*len(statuses))
				outbox := pendingUpdates(t, a)
				for _, id := range ids {
					if len(saved[id]) == 0 && !had[id] {
						t.Fatalf("record %d: no writer saved it", id)
					}
					if n := editsOf(t, a, id); n != len(saved[id]) {
						t.Fatalf("record %d: %d audited edits, %d saves reported", id, n, len(saved[id]))
					}
					if mode == records.Queued && outbox[id] != len(saved[id]) {
						t.Fatalf("record %d: %d outbox entries, %d saves reported", id, outbox[id], len(saved[id]))
					}
					rec, err := b.Record(ctx, "project", id)
					if err != nil {
						t.Fatal(err)
					}
					if !contains(saved[id], rec.Status) {
						t.Fatalf("record %d is %q, which no saved write set (%v)", id, rec.Status, saved[id])
					}
				}

				// One keyed request sent many times at once, to both
				// instances: every answer has every record saved, each
				// record is written once.
				before, closed := map[int64]int{}, map[int64]bool{}
				for _, id := range ids {
					before[id] = editsOf(t, a, id)
					rec, _ := a.Record(ctx, "project", id)
					closed[id] = rec.Status == "Closed" // then nothing is written
				}
				const repeats = 6
				var rwg sync.WaitGroup
				for i := range repeats {
					rwg.Go(func() {
						res, err := k.Bulk(ctx, instances[i%2], records.BulkEdit{IDs: ids, Field: "entitystatus", Value: json.RawMessage(`"Closed"`),
							IdempotencyKey: fmt.Sprintf("once-%d", mode)}, records.Author{UserID: 99}, time.Now(), mode)
						if err != nil || res.Saved != len(ids) {
							t.Errorf("repeat %d: %+v %v", i, res, err)
						}
					})
				}
				rwg.Wait()
				for _, id := range ids {
					if n, want := editsOf(t, a, id)-before[id], map[bool]int{false: 1, true: 0}[closed[id]]; n != want {
						t.Fatalf("record %d: written %d times by one key", id, n)
					}
					if rec, _ := a.Record(ctx, "project", id); rec.Status != "Closed" {
						t.Fatalf("record %d is %q", id, rec.Status)
					}
				}
			})
		}
	})
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}
