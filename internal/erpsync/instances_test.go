package erpsync_test

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"net/url"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/portico/portico/internal/erp/netsuitetest"
	"github.com/portico/portico/internal/erpsync"
	"github.com/portico/portico/internal/records"
	"github.com/portico/portico/internal/signals"
	"github.com/portico/portico/internal/sqlstore"
)

// sharedDatabase runs fn with the tenant stores and signals of two
// instances on one database: on SQLite, whose file one instance serves,
// one store and its signals given twice; on PostgreSQL (when
// PORTICO_TEST_DATABASE_URL is set) two stores on one fresh schema, each
// with its own signals, as two processes have. It runs in parallel with the
// package's other tests that do (see stores).
func sharedDatabase(t *testing.T, fn func(t *testing.T, a, b *sqlstore.Tenant, sa, sb *signals.Signals)) {
	t.Parallel()
	t.Run("sqlite", func(t *testing.T) {
		s, err := sqlstore.Open(context.Background(), "", t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		sig := sqlstore.NewSignals(s, nil)
		t.Cleanup(func() { sig.Close(); s.Close() })
		ten := tenant(t, s)
		fn(t, ten, ten, sig, sig)
	})
	t.Run("postgres", func(t *testing.T) {
		base := os.Getenv("PORTICO_TEST_DATABASE_URL")
		if base == "" {
			t.Skip("PORTICO_TEST_DATABASE_URL is not set")
		}
		u := scratchSchema(t, base)
		var tens [2]*sqlstore.Tenant
		var sigs [2]*signals.Signals
		for i := range 2 {
			s, err := sqlstore.Open(context.Background(), u, "")
			if err != nil {
				t.Fatal(err)
			}
			sig := sqlstore.NewSignals(s, nil)
			t.Cleanup(func() { sig.Close(); s.Close() })
			tens[i], sigs[i] = tenant(t, s), sig
		}
		fn(t, tens[0], tens[1], sigs[0], sigs[1])
	})
}

// scratchSchema makes an empty schema in the database at base, dropped
// after the test, and returns base's URL with it as the search path.
func scratchSchema(t *testing.T, base string) string {
	t.Helper()
	db, err := sql.Open("pgx", base)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	b := make([]byte, 6)
	rand.Read(b)
	schema := "portico_test_" + hex.EncodeToString(b)
	if _, err := db.Exec("CREATE SCHEMA " + schema); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if db, err := sql.Open("pgx", base); err == nil {
			db.Exec("DROP SCHEMA " + schema + " CASCADE")
			db.Close()
		}
	})
	u, err := url.Parse(base)
	if err != nil {
		t.Fatal(err)
	}
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	return u.String()
}

// killed is a tenant store as a process killed with SIGKILL leaves it:
// its lease is never released, only left to lapse.
type killed struct{ *sqlstore.Tenant }

func (killed) ReleaseLease(context.Context, string, string) error { return nil }

// run starts eng.Run and returns what stops it.
func run(t *testing.T, eng *erpsync.Engine) (stop func()) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); eng.Run(ctx) }()
	stop = func() { cancel(); <-done }
	t.Cleanup(stop)
	return stop
}

// holds reports whether eng says it holds the lease (its metric).
func holds(eng *erpsync.Engine) bool {
	var b strings.Builder
	eng.WritePrometheus(context.Background(), &b)
	for line := range strings.Lines(b.String()) {
		if strings.HasPrefix(line, "portico_sync_lease_holder{") {
			return strings.HasSuffix(line, " 1\n")
		}
	}
	return false
}

// waitFor polls cond every 2 ms until it holds and returns how long that
// took, failing after within.
func waitFor(t *testing.T, within time.Duration, what string, cond func() bool) time.Duration {
	t.Helper()
	start := time.Now()
	for !cond() {
		if time.Since(start) > within {
			t.Fatalf("%s: not within %s", what, within)
		}
		time.Sleep(2 * time.Millisecond)
	}
	return time.Since(start)
}

// inNetSuite reports whether the account's project id has title.
func inNetSuite(a *fakeAccount, id int64, title string) bool {
	r, _ := a.fake.Get("job", id)
	return r.Fields["companyName"] == title
}

func TestWakeUpsReachTheHolderFromAnyInstance(t *testing.T) {
	sharedDatabase(t, func(t *testing.T, tenA, tenB *sqlstore.Tenant, sigA, sigB *signals.Signals) {
		ctx := context.Background()
		acc := newAccount(t, 5)
		a := erpsync.New(acc.connector(t, 1000), tenA, erpsync.Options{Interval: time.Hour, Signals: sigA, Instance: "a"})
		b := erpsync.New(acc.connector(t, 1000), tenB, erpsync.Options{Interval: time.Hour, Signals: sigB, Instance: "b"})
		run(t, a)
		// a holds the lease and has pulled (so it listens) before b starts.
		waitFor(t, 20*time.Second, "a's first pull", func() bool {
			st, _ := a.Status(ctx)
			return holds(a) && !st.Kinds[len(st.Kinds)-1].LastSuccess.IsZero()
		})
		run(t, b)

		// "Sync now" on b: a pulls the change made in NetSuite.
		acc.clock.Advance(time.Minute)
		if err := acc.fake.Update("job", 3, map[string]any{"companyname": "Renamed in NetSuite"}); err != nil {
			t.Fatal(err)
		}
		// The wake-up is timed to the holder's first call to NetSuite;
		// the pull it starts takes what it takes (more under -race).
		calls := acc.fake.Stats().Requests
		b.Trigger([]*records.Kind{mustKind(t, "project")}, false)
		took := waitFor(t, time.Second, "sync now on b reaching a", func() bool { return acc.fake.Stats().Requests > calls })
		pulled := waitFor(t, 10*time.Second, "sync now on b pulled by a", func() bool {
			r, _ := tenB.Record(ctx, "project", 3)
			return r.Title == "Renamed in NetSuite"
		})
		t.Logf("sync now on the other instance: the holder pulling after %s, done after %s", took.Round(time.Millisecond), (took + pulled).Round(time.Millisecond))

		// A write queued on b: a pushes it.
		editProjectAt(t, tenB, 2, `{"companyname": "Edited on b"}`, time.Now())
		b.Notify()
		took = waitFor(t, time.Second, "write queued on b pushed by a", func() bool { return inNetSuite(acc, 2, "Edited on b") })
		t.Logf("write queued on the other instance: in NetSuite in %s", took.Round(time.Millisecond))
		waitFor(t, time.Second, "a's push recorded", func() bool { return a.Metrics().PushSynced.Load() == 1 })
		if b.Metrics().PushSynced.Load() != 0 || holds(b) {
			t.Fatalf("pushed by a %d, by b %d (b holds: %v): only the holder works",
				a.Metrics().PushSynced.Load(), b.Metrics().PushSynced.Load(), holds(b))
		}
	})
}

func TestLeaseTakeoverAfterTheHolderIsKilled(t *testing.T) {
	if testing.Short() {
		t.Skip("waits for a lease to lapse")
	}
	sharedDatabase(t, func(t *testing.T, tenA, tenB *sqlstore.Tenant, sigA, sigB *signals.Signals) {
		ctx := context.Background()
		acc := newAccount(t, 5)
		// The default lease: the takeover is timed as in production.
		a := erpsync.New(acc.connector(t, 1000), killed{tenA}, erpsync.Options{Interval: time.Hour, Signals: sigA, Instance: "a"})
		b := erpsync.New(acc.connector(t, 1000), tenB, erpsync.Options{Interval: time.Hour, Signals: sigB, Instance: "b"})
		kill := run(t, a)
		waitFor(t, 20*time.Second, "a's first pull", func() bool {
			st, _ := a.Status(ctx)
			return holds(a) && !st.Kinds[len(st.Kinds)-1].LastSuccess.IsZero()
		})
		run(t, b)
		time.Sleep(100 * time.Millisecond) // b is up and finds the lease busy
		if holds(b) {
			t.Fatal("b took a held lease")
		}

		kill()
		died := time.Now()
		editProjectAt(t, tenB, 4, `{"companyname": "Edited while a was dead"}`, time.Now())
		b.Notify()
		took := waitFor(t, 15*time.Second, "b takes the lease over", func() bool { return holds(b) })
		t.Logf("lease taken over %s after the holder was killed", took.Round(time.Millisecond))
		waitFor(t, 15*time.Second-time.Since(died), "the write pushed by b", func() bool { return inNetSuite(acc, 4, "Edited while a was dead") })
		t.Logf("a write queued when the holder was killed reached NetSuite after %s", time.Since(died).Round(time.Millisecond))
	})
}

// An instance that lost the lease while it waited on NetSuite (paused,
// cut off) cannot record the write it sent: its successor owns the entry
// now, and sends it again under the same idempotency key, so NetSuite
// applies it once.
func TestAStaleHolderCannotCompleteItsWrite(t *testing.T) {
	stores(t, func(t *testing.T, ten *sqlstore.Tenant) {
		ctx := context.Background()
		acc := newAccount(t, 5)
		a := erpsync.New(acc.connector(t, 1000), ten, erpsync.Options{Now: acc.clock.Now, Instance: "a"})
		b := erpsync.New(acc.connector(t, 1000), ten, erpsync.Options{Now: acc.clock.Now, Instance: "b"})
		if err := a.Pull(ctx, nil, true); err != nil {
			t.Fatal(err)
		}
		edit := func(title string) {
			p, _ := records.Lookup("project")
			cur, _ := ten.Record(ctx, "project", 2)
			raw := map[string]json.RawMessage{"companyname": json.RawMessage(`"` + title + `"`)}
			if _, err := p.Save(ctx, ten, records.Edit{ID: 2, Version: cur.ModifiedAt, Fields: raw}, records.Author{}, acc.clock.Now(), records.Queued); err != nil {
				t.Fatal(err)
			}
		}
		edit("Sent by a stale holder")

		acc.fake.SetFaults(netsuitetest.Faults{Slow: 1, Latency: 300 * time.Millisecond})
		pushed := make(chan error, 1)
		go func() { _, err := a.Push(ctx); pushed <- err }()
		time.Sleep(100 * time.Millisecond)  // a is sending
		acc.clock.Advance(11 * time.Second) // ... for longer than its lease
		if err := b.Pull(ctx, []*records.Kind{mustKind(t, "customer")}, false); err != nil {
			t.Fatalf("b taking the lapsed lease over: %v", err)
		}
		if err := <-pushed; !errors.Is(err, erpsync.ErrLeaseLost) {
			t.Fatalf("a's push: %v, want ErrLeaseLost", err)
		}
		open, _ := ten.OutboxEntries(ctx, []string{erpsync.EntryPending}, 10)
		if len(open) != 1 || open[0].Attempts != 0 {
			t.Fatalf("the outbox after a's refused completion: %+v", open)
		}
		acc.fake.SetFaults(netsuitetest.Faults{})
		if n, err := b.Push(ctx); err != nil || n != 1 {
			t.Fatalf("b's push: %d %v", n, err)
		}
		if w := acc.fake.Writes(open[0].Key); w.Applied != 1 {
			t.Fatalf("the write applied %d times", w.Applied)
		}
		if r, _ := ten.Record(ctx, "project", 2); r.Write.State != records.WriteSynced {
			t.Fatalf("after b's push: %+v", r.Write)
		}
	})
}
