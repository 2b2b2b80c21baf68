package erpsync_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/portico/portico/internal/erp"
	"github.com/portico/portico/internal/erp/netsuite"
	"github.com/portico/portico/internal/erp/netsuitetest"
	"github.com/portico/portico/internal/erpsync"
	"github.com/portico/portico/internal/portal"
	"github.com/portico/portico/internal/records"
	"github.com/portico/portico/internal/sqlstore"
)

// mapped is the same account (fake, clock and server) read with another
// mapping.
func (a *fakeAccount) mapped(t testing.TB, mapping []byte) *fakeAccount {
	t.Helper()
	m, err := netsuite.ParseMapping(mapping)
	if err != nil {
		t.Fatal(err)
	}
	b := *a
	b.m = m
	return &b
}

// editAt saves an edit of a record (fields as the form submits them,
// JSON) through the portal's write path in NetSuite mode, at the time
// at, based on the version stored now.
func editAt(t testing.TB, ten *sqlstore.Tenant, kind string, id int64, fields string, at time.Time) {
	t.Helper()
	ctx := context.Background()
	k, ok := records.Lookup(kind)
	if !ok {
		t.Fatalf("no kind %s", kind)
	}
	cur, err := ten.Record(ctx, kind, id)
	if err != nil {
		t.Fatal(err)
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal([]byte(fields), &raw); err != nil {
		t.Fatal(err)
	}
	if _, err := k.Save(ctx, ten, records.Edit{ID: id, Version: cur.ModifiedAt, Fields: raw}, records.Author{}, at, records.Queued); err != nil {
		t.Fatal(err)
	}
}

// offTimes counts the records of the fetched kinds whose stored
// last-modified time is not the account's, and those the store lacks.
func offTimes(t testing.TB, a *fakeAccount, ten *sqlstore.Tenant) int {
	t.Helper()
	off := 0
	for _, f := range fetched {
		for _, r := range a.fake.All(f.recordType) {
			got, err := ten.Record(context.Background(), f.kind, r.ID)
			if err != nil || !got.ModifiedAt.Equal(r.Modified.UTC()) {
				if off < 3 {
					t.Logf("%s %d: stored time %s, the account's %s (%v)", f.kind, r.ID, got.ModifiedAt.Format(time.RFC3339),
						r.Modified.UTC().Format(time.RFC3339), err)
				}
				off++
			}
		}
	}
	return off
}

// TestCorrectingTheTimeZoneLosesNothing syncs an account read in a wrong
// zone (`timezone: UTC`, what `netsuite mapping` wrote before it measured
// the zone), then with the zone corrected: every kind is pulled again
// from the beginning in the new time base, its records stored under
// their times in that base though these are earlier than the stored ones
// (east of UTC), and the edits and deletions made in NetSuite in the
// hour after the correction all arrive, on both engines. Before the sync
// recorded its time base, the Berlin account lost 5 of 6 edits (all but
// the one made 50 minutes after) and missed 3 of 3 deletions: the
// checkpoint, the deletion mark and the stored records' times were an
// hour ahead of the new base; 116 records' times stayed off. The Los
// Angeles one, whose new base is 8 hours later, lost nothing but kept
// 108 records' times 8 hours off. Pulling again from the beginning
// without storing the records whatever their times (ApplyPull rather than
// ApplyRebasedPull) still loses the 5 edits of records changed in the
// hour before the correction.
func TestCorrectingTheTimeZoneLosesNothing(t *testing.T) {
	for _, tc := range []struct{ zone, format string }{{"Europe/Berlin", "DD/MM/YYYY"}, {"America/Los_Angeles", ""}} {
		t.Run(strings.ReplaceAll(tc.zone, "/", "_"), func(t *testing.T) {
			stores(t, func(t *testing.T, ten *sqlstore.Tenant) {
				ctx := context.Background()
				store := ten
				wrong := zoned(t, 30, tc.zone, tc.format, "UTC")
				eng := erpsync.New(wrong.connector(t, 1000), store, erpsync.Options{Now: wrong.clock.Now})
				if err := eng.Pull(ctx, nil, true); err != nil {
					t.Fatal(err)
				}
				// People work in NetSuite; the sync keeps up, in the
				// wrong zone.
				wrong.clock.Advance(10 * time.Minute)
				for id := int64(1); id <= 5; id++ {
					if err := wrong.fake.Update("customer", id, map[string]any{"companyName": fmt.Sprintf("Before the fix %d", id)}); err != nil {
						t.Fatal(err)
					}
				}
				wrong.clock.Advance(time.Minute)
				if err := eng.Pull(ctx, nil, false); err != nil {
					t.Fatal(err)
				}
				// The administrator corrects the zone and restarts.
				a := wrong.mapped(t, zoneMapping(t, tc.zone))
				eng = erpsync.New(a.connector(t, 1000), store, erpsync.Options{Now: a.clock.Now})
				edit := func(kind, recordType, field string, id int64) {
					t.Helper()
					if err := a.fake.Update(recordType, id, map[string]any{field: fmt.Sprintf("After the fix %d", id)}); err != nil {
						t.Fatal(err)
					}
				}
				pull := func() {
					t.Helper()
					a.clock.Advance(time.Minute)
					if err := eng.Pull(ctx, nil, false); err != nil {
						t.Fatal(err)
					}
				}
				a.clock.Advance(time.Minute)
				edit("customer", "customer", "companyName", 1) // before the first pull after the fix
				pull()
				if n := offTimes(t, a, ten); n > 0 {
					t.Errorf("after the first pull with the zone corrected, %d records' times are not the account's", n)
				}
				// The next hour: edits (of records changed just before the
				// fix and of one untouched for long) and deletions, a pull
				// every ten minutes.
				deleted := []int64{11, 12, 13}
				for i := range 5 {
					a.clock.Advance(9 * time.Minute)
					if i < 4 {
						edit("customer", "customer", "companyName", int64(i+2))
					} else {
						edit("project", "job", "companyName", 1)
					}
					if i < len(deleted) {
						if err := a.fake.Delete("customer", deleted[i]); err != nil {
							t.Fatal(err)
						}
					}
					pull()
				}
				lost, missed := 0, 0
				for _, r := range []struct {
					kind string
					id   int64
				}{{"customer", 1}, {"customer", 2}, {"customer", 3}, {"customer", 4}, {"customer", 5}, {"project", 1}} {
					got, err := ten.Record(ctx, r.kind, r.id)
					if err != nil || got.Title != fmt.Sprintf("After the fix %d", r.id) {
						lost++
						t.Logf("lost: %s %d: %q %v", r.kind, r.id, got.Title, err)
					}
				}
				for _, id := range deleted {
					if _, err := ten.Record(ctx, "customer", id); !portal.IsNotFound(err) {
						missed++
					}
				}
				t.Logf("account in %s, mapping corrected from UTC: %d of 6 edits made in the hour after lost, %d of %d deletions missed",
					tc.zone, lost, missed, len(deleted))
				if lost > 0 || missed > 0 {
					t.Errorf("%d of 6 edits lost, %d of %d deletions missed", lost, missed, len(deleted))
				}
				if n := offTimes(t, a, ten); n > 0 {
					t.Errorf("%d records' times are not the account's", n)
				}
			})
		})
	}
}

// deletionsFailOnce is a connector whose first read of a kind's
// deletions fails.
type deletionsFailOnce struct {
	*netsuite.Client
	kind   string
	failed *bool
}

func (d deletionsFailOnce) Deleted(ctx context.Context, k *records.Kind, since time.Time) ([]erp.Deletion, error) {
	if k.Name == d.kind && !*d.failed {
		*d.failed = true
		return nil, &erp.Error{Status: 503, Detail: "Service Unavailable"}
	}
	return d.Client.Deleted(ctx, k, since)
}

// TestARebaseReadsEveryDeletion: the first pull after the zone was
// corrected reads every deletion NetSuite keeps for the kind, not only
// those after the records it read, so a customer deleted before the
// correction, and before changes made since, goes; and so it does when
// that pull fails at reading the deletions and the next one resumes it.
// (Marked from where the pull read, as a first pull is, the deletion was
// missed, in both cases.)
func TestARebaseReadsEveryDeletion(t *testing.T) {
	for _, failing := range []bool{false, true} {
		t.Run(map[bool]string{false: "at_once", true: "after_a_failure"}[failing], func(t *testing.T) {
			rebaseReadsEveryDeletion(t, failing)
		})
	}
}

func rebaseReadsEveryDeletion(t *testing.T, failing bool) {
	stores(t, func(t *testing.T, ten *sqlstore.Tenant) {
		ctx := context.Background()
		store := ten
		wrong := zoned(t, 30, "Europe/Berlin", "DD/MM/YYYY", "UTC")
		// Deleted before the sync began: never in the store.
		if err := wrong.fake.Delete("customer", 25); err != nil {
			t.Fatal(err)
		}
		eng := erpsync.New(wrong.connector(t, 1000), store, erpsync.Options{Now: wrong.clock.Now})
		if err := eng.Pull(ctx, nil, true); err != nil {
			t.Fatal(err)
		}
		wrong.clock.Advance(time.Minute)
		const gone = 20
		if err := wrong.fake.Delete("customer", gone); err != nil {
			t.Fatal(err)
		}
		wrong.clock.Advance(10 * time.Minute)
		for id := int64(1); id <= 3; id++ {
			if err := wrong.fake.Update("customer", id, map[string]any{"companyName": fmt.Sprintf("Later %d", id)}); err != nil {
				t.Fatal(err)
			}
		}
		a := wrong.mapped(t, zoneMapping(t, "Europe/Berlin"))
		failed := !failing
		eng = erpsync.New(deletionsFailOnce{a.connector(t, 1000), "customer", &failed}, store, erpsync.Options{Now: a.clock.Now})
		if failing {
			a.clock.Advance(time.Minute)
			if err := eng.Pull(ctx, nil, false); err == nil || !failed {
				t.Fatalf("the first pull after the correction: %v, want the customers' failure", err)
			}
		}
		a.clock.Advance(time.Minute)
		if err := eng.Pull(ctx, nil, false); err != nil {
			t.Fatal(err)
		}
		if _, err := ten.Record(ctx, "customer", gone); !portal.IsNotFound(err) {
			t.Errorf("customer %d, deleted before the correction: %v, want not found", gone, err)
		}
		// Of the deletions read, those of records the store had count.
		if n := eng.Metrics().Deleted.Load(); n != 1 {
			t.Errorf("%d deletions applied, want 1", n)
		}
		for id := int64(1); id <= 3; id++ {
			if r, err := ten.Record(ctx, "customer", id); err != nil || r.Title != fmt.Sprintf("Later %d", id) {
				t.Errorf("customer %d: %q %v", id, r.Title, err)
			}
		}
	})
}

// TestADeletionMarkFromTheEnginesClock: before the sync kept one time
// base, a kind's deletion mark was the engine's clock at a pull's start.
// In an account whose times read 8 hours behind it (Los Angeles read as
// UTC) such a mark is 8 hours ahead of every deletion made since, and
// the next pull kept it. A state saved then (its mapping version without
// a time base) has its mark brought back to its checkpoint: deletions
// arrive. Before, 12 of 12 were missed, on both engines.
func TestADeletionMarkFromTheEnginesClock(t *testing.T) {
	stores(t, func(t *testing.T, ten *sqlstore.Tenant) {
		ctx := context.Background()
		a := zoned(t, 30, "America/Los_Angeles", "", "UTC")
		c := a.connector(t, 1000)
		eng := erpsync.New(c, ten, erpsync.Options{Now: a.clock.Now})
		if err := eng.Pull(ctx, nil, true); err != nil {
			t.Fatal(err)
		}
		// As a pull before the time base was recorded left the states.
		a.clock.Advance(10 * time.Minute)
		states, err := ten.SyncStates(ctx)
		if err != nil {
			t.Fatal(err)
		}
		for _, st := range states {
			k, _ := records.Lookup(st.Kind)
			st.Mapping, st.DeletedSince = c.MappingVersion(k), a.clock.Now()
			if err := ten.SaveSyncState(ctx, st); err != nil {
				t.Fatal(err)
			}
		}
		a.clock.Advance(time.Minute)
		deletions := 0
		for _, f := range fetched {
			for id := int64(11); id <= 13; id++ {
				if err := a.fake.Delete(f.recordType, id); err != nil {
					t.Fatal(err)
				}
				deletions++
			}
		}
		a.clock.Advance(time.Minute)
		if err := eng.Pull(ctx, nil, false); err != nil {
			t.Fatal(err)
		}
		missed := 0
		for _, f := range fetched {
			for id := int64(11); id <= 13; id++ {
				if _, err := ten.Record(ctx, f.kind, id); !portal.IsNotFound(err) {
					missed++
				}
			}
		}
		t.Logf("%d of %d deletions missed", missed, deletions)
		if missed > 0 {
			t.Errorf("%d of %d deletions missed", missed, deletions)
		}
	})
}

// unreadable is a connector whose Fetch fails for the given records: a
// write lands, and reading it back does not.
type unreadable struct {
	*netsuite.Client
	ids map[int64]bool
}

func (u unreadable) Fetch(ctx context.Context, k *records.Kind, id int64) (records.Record, error) {
	if u.ids[id] {
		return records.Record{}, &erp.Error{Status: 503, Detail: "Service Unavailable"}
	}
	return u.Client.Fetch(ctx, k, id)
}

// TestAWriteNotReadBackYieldsToTheNextPull: when the record a write
// changed cannot be read back, the portal's own version is stored so
// that the ERP's wins at the next pull, and its money stays in its
// currency. In an account whose times read 8 hours behind the portal's
// clock (Los Angeles read as UTC), a version dated by that clock refused
// the ERP's for 8 hours: before, the edit made in NetSuite a minute after
// the write was lost, on both engines.
func TestAWriteNotReadBackYieldsToTheNextPull(t *testing.T) {
	stores(t, func(t *testing.T, ten *sqlstore.Tenant) {
		ctx := context.Background()
		a := newAccountConfig(t, 30, netsuitetest.Config{Schema: euroSchema(t), Location: mustZone(t, "America/Los_Angeles")},
			zoneMapping(t, "UTC"))
		const british = 2 // a client of the British subsidiary: its money is in pounds
		if err := a.fake.Update("customer", british, map[string]any{"subsidiary": map[string]any{"id": "2"}}); err != nil {
			t.Fatal(err)
		}
		eng := erpsync.New(unreadable{a.connector(t, 1000), map[int64]bool{british: true}}, ten, erpsync.Options{Now: a.clock.Now})
		if err := eng.Pull(ctx, nil, true); err != nil {
			t.Fatal(err)
		}
		a.clock.Advance(time.Minute)
		editAt(t, ten, "customer", british, `{"companyname": "Written from the portal"}`, a.clock.Now())
		if n, err := eng.Push(ctx); err != nil || n != 1 {
			t.Fatalf("push: %d, %v", n, err)
		}
		r, err := ten.Record(ctx, "customer", british)
		if err != nil || r.Title != "Written from the portal" || r.Currency != "GBP" || r.Write.State != "" {
			t.Errorf("after the write, not read back: %q in %q, write %+v, %v", r.Title, r.Currency, r.Write, err)
		}
		a.clock.Advance(time.Minute)
		if err := a.fake.Update("customer", british, map[string]any{"companyName": "Edited in NetSuite after the portal"}); err != nil {
			t.Fatal(err)
		}
		a.clock.Advance(time.Minute)
		if err := eng.Pull(ctx, nil, false); err != nil {
			t.Fatal(err)
		}
		r, err = ten.Record(ctx, "customer", british)
		if err != nil || r.Title != "Edited in NetSuite after the portal" || r.Currency != "GBP" {
			t.Errorf("the edit made in NetSuite after the write: stored %q in %q (%v)", r.Title, r.Currency, err)
		}
	})
}
