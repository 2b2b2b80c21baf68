package sqlstore

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/portico/portico/internal/records"
)

// instances runs fn as a subtest on SQLite always, and on PostgreSQL when
// PORTICO_TEST_DATABASE_URL is set, with n stores opened on one database:
// n instances sharing it.
func instances(t *testing.T, n int, fn func(t *testing.T, ss []*Store)) {
	open := func(t *testing.T, url string) []*Store {
		ss := make([]*Store, n)
		for i := range ss {
			s, err := Open(context.Background(), url, "")
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { s.Close() })
			ss[i] = s
		}
		return ss
	}
	t.Run("sqlite", func(t *testing.T) {
		fn(t, open(t, "sqlite:"+filepath.Join(t.TempDir(), "portico.db")))
	})
	t.Run("postgres", func(t *testing.T) {
		base := os.Getenv("PORTICO_TEST_DATABASE_URL")
		if base == "" {
			t.Skip("PORTICO_TEST_DATABASE_URL is not set")
		}
		url, drop, err := ScratchURL(context.Background(), base)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(drop) // after the stores close: cleanups run last-in first-out
		fn(t, open(t, url))
	})
}

// create stores a new client through ten as user, with key when set.
func create(ctx context.Context, ten *Tenant, user int64, title, key string, at time.Time) (records.Record, error) {
	r := testRecord("customer", 0, title, "Active")
	r.ModifiedAt = at
	w := records.Write{Record: r, By: records.Author{UserID: user}, Result: "saved"}
	if key != "" {
		w.Idempotency = &records.Idempotency{Key: key, Fingerprint: "fp:" + title}
	}
	return ten.SaveRecord(ctx, w)
}

func TestConformanceConcurrentCreatesTakeDistinctIDs(t *testing.T) {
	instances(t, 2, func(t *testing.T, ss []*Store) {
		ctx := context.Background()
		seedTenant(t, ss[0], "acme")
		if err := ss[0].Tenant("acme").PutRecords(ctx, []records.Record{testRecord("customer", 500, "Seeded", "Active")}); err != nil {
			t.Fatal(err)
		}
		const n = 100
		ids := make([]int64, n)
		errs := make([]error, n)
		var wg sync.WaitGroup
		start := make(chan struct{})
		for i := range n {
			wg.Go(func() {
				<-start
				r, err := create(ctx, ss[i%2].Tenant("acme"), 1, "Client", "", time.Now())
				ids[i], errs[i] = r.ID, err
			})
		}
		close(start)
		wg.Wait()
		seen := map[int64]bool{}
		for i, id := range ids {
			if errs[i] != nil {
				t.Fatalf("create %d: %v", i, errs[i])
			}
			if seen[id] || id <= 500 {
				t.Fatalf("create %d got id %d (taken, or not above the highest stored)", i, id)
			}
			seen[id] = true
		}
		if c, _ := ss[1].Tenant("acme").CountRecords(ctx, "customer"); c != n+1 {
			t.Fatalf("%d customers stored, want %d", c, n+1)
		}
		// An id is never given twice, even once its record is gone.
		if _, err := ss[0].Tenant("acme").exec(ctx, scope(`DELETE FROM records WHERE tenant_id = :tenant AND kind = 'customer' AND id = ?`), 600); err != nil {
			t.Fatal(err)
		}
		if r, err := create(ctx, ss[0].Tenant("acme"), 1, "After", "", time.Now()); err != nil || r.ID != 601 {
			t.Fatalf("after deleting the newest: %d %v", r.ID, err)
		}
	})
}

func TestConformanceIdempotentCreates(t *testing.T) {
	instances(t, 2, func(t *testing.T, ss []*Store) {
		ctx := context.Background()
		seedTenant(t, ss[0], "acme")
		seedTenant(t, ss[0], "other")
		a, b := ss[0].Tenant("acme"), ss[1].Tenant("acme")
		now := time.Now()
		first, err := create(ctx, a, 1, "Once", "k-1", now)
		if err != nil {
			t.Fatal(err)
		}
		// The same key and request on another instance: the first record.
		var replayed *records.Replayed
		if _, err := create(ctx, b, 1, "Once", "k-1", now); !errors.As(err, &replayed) || replayed.ID != first.ID {
			t.Fatalf("repeat: %v", err)
		}
		// The same key with another request is refused; another user's
		// key, or another tenant's, is theirs.
		if _, err := create(ctx, b, 1, "Different", "k-1", now); !errors.Is(err, records.ErrKeyReused) {
			t.Fatalf("reused key: %v", err)
		}
		if r, err := create(ctx, b, 2, "Once", "k-1", now); err != nil || r.ID == first.ID {
			t.Fatalf("another user's key: %+v %v", r, err)
		}
		if _, err := create(ctx, ss[1].Tenant("other"), 1, "Once", "k-1", now); err != nil {
			t.Fatalf("another tenant's key: %v", err)
		}
		// Kept for a day, then forgotten.
		if r, err := create(ctx, a, 1, "Once", "k-1", now.Add(records.IdempotencyTTL+time.Minute)); err != nil || r.ID == first.ID {
			t.Fatalf("after a day: %+v %v", r, err)
		}

		// Many repeats of one create at once, across instances: one record.
		const n = 20
		ids := make([]int64, n)
		var wg sync.WaitGroup
		for i := range n {
			wg.Go(func() {
				r, err := create(ctx, ss[i%2].Tenant("acme"), 3, "Raced", "k-race", now)
				var again *records.Replayed
				if errors.As(err, &again) {
					r.ID, err = again.ID, nil
				}
				if err != nil {
					t.Errorf("repeat %d: %v", i, err)
				}
				ids[i] = r.ID
			})
		}
		wg.Wait()
		for _, id := range ids {
			if id != ids[0] {
				t.Fatalf("repeats answered different records: %v", ids)
			}
		}
		page, err := a.ListRecords(ctx, records.ListQuery{Kind: "customer", Limit: 100})
		if err != nil {
			t.Fatal(err)
		}
		raced := 0
		for _, r := range page.Records {
			if r.Title == "Raced" {
				raced++
			}
		}
		if raced != 1 {
			t.Fatalf("%d records made by one key", raced)
		}
	})
}

func TestMigrateThreeInstancesAtOnceOnEmptyPostgres(t *testing.T) {
	base := os.Getenv("PORTICO_TEST_DATABASE_URL")
	if base == "" {
		t.Skip("PORTICO_TEST_DATABASE_URL is not set")
	}
	for trial := range 3 {
		url, drop, err := ScratchURL(context.Background(), base)
		if err != nil {
			t.Fatal(err)
		}
		var wg sync.WaitGroup
		errs := make([]error, 3)
		versions := make([]int, 3)
		start := make(chan struct{})
		for i := range 3 {
			wg.Go(func() {
				<-start
				s, err := Open(context.Background(), url, "")
				if err != nil {
					errs[i] = err
					return
				}
				versions[i], errs[i] = s.Migrate(context.Background())
				s.Close()
			})
		}
		close(start)
		wg.Wait()
		drop()
		for i, err := range errs {
			if err != nil {
				t.Fatalf("trial %d, instance %d: %v", trial, i, err)
			}
			if versions[i] != versions[0] || versions[i] == 0 {
				t.Fatalf("trial %d: versions %v", trial, versions)
			}
		}
	}
}
