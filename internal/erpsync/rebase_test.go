package erpsync_test

import (
	"context"
	"testing"
	"time"

	"github.com/portico/portico/internal/erpsync"
	"github.com/portico/portico/internal/portal"
	"github.com/portico/portico/internal/records"
	"github.com/portico/portico/internal/sqlstore"
)

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
