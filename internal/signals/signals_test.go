package signals

import (
	"context"
	"database/sql"
	"fmt"
	"net/url"
	"os"
	"strings"
	"testing"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // the "pgx" database/sql driver
)

// signalInstances runs fn with the signals of two instances on one
// database: on PostgreSQL (when PORTICO_TEST_DATABASE_URL is set) two
// pools on one scratch schema, each with its Signals; in-process (as on
// SQLite, whose file one instance serves) one Signals given twice.
func signalInstances(t *testing.T, fn func(t *testing.T, a, b *Signals)) {
	t.Run("in-process", func(t *testing.T) {
		sig := New(nil, false, nil)
		t.Cleanup(func() { sig.Close() })
		fn(t, sig, sig)
	})
	t.Run("postgres", func(t *testing.T) {
		a, b := scratchPools(t)
		sa, sb := New(a, true, nil), New(b, true, nil)
		t.Cleanup(func() { sa.Close(); sb.Close() })
		fn(t, sa, sb)
	})
}

// scratchPools returns two pools whose connections work in one new schema
// of the PostgreSQL database PORTICO_TEST_DATABASE_URL names, dropped at
// the end of the test; it skips the test without that variable. The
// schema keeps the test's channels apart from every other test's.
func scratchPools(t *testing.T) (*sql.DB, *sql.DB) {
	t.Helper()
	base := os.Getenv("PORTICO_TEST_DATABASE_URL")
	if base == "" {
		t.Skip("PORTICO_TEST_DATABASE_URL is not set")
	}
	admin, err := sql.Open("pgx", base)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { admin.Close() })
	schema := fmt.Sprintf("signals_test_%d", time.Now().UnixNano())
	if _, err := admin.Exec(`CREATE SCHEMA ` + schema); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { admin.Exec(`DROP SCHEMA ` + schema + ` CASCADE`) })
	u, err := url.Parse(base)
	if err != nil {
		t.Fatal(err)
	}
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	var pools [2]*sql.DB
	for i := range pools {
		if pools[i], err = sql.Open("pgx", u.String()); err != nil {
			t.Fatal(err)
		}
		db := pools[i]
		t.Cleanup(func() { db.Close() })
	}
	return pools[0], pools[1]
}

// receive waits for one message.
func sigReceive(t *testing.T, ch <-chan string, within time.Duration) (string, bool) {
	t.Helper()
	select {
	case m, ok := <-ch:
		return m, ok
	case <-time.After(within):
		t.Fatalf("no message within %s", within)
		return "", false
	}
}

func sigQuiet(t *testing.T, ch <-chan string) {
	t.Helper()
	select {
	case m := <-ch:
		t.Fatalf("unexpected message %q", m)
	case <-time.After(100 * time.Millisecond):
	}
}

func TestSignalsReachEveryInstance(t *testing.T) {
	signalInstances(t, func(t *testing.T, sa, sb *Signals) {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		onA, err := sa.Subscribe(ctx, "erpsync:acme")
		if err != nil {
			t.Fatal(err)
		}
		onB, err := sb.Subscribe(ctx, "erpsync:acme")
		if err != nil {
			t.Fatal(err)
		}
		other, err := sb.Subscribe(ctx, "erpsync:other")
		if err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		if err := sb.Publish(ctx, "erpsync:acme", "push"); err != nil {
			t.Fatal(err)
		}
		for name, ch := range map[string]<-chan string{"publisher's instance": onB, "other instance": onA} {
			if m, _ := sigReceive(t, ch, 2*time.Second); m != "push" {
				t.Fatalf("%s got %q", name, m)
			}
		}
		t.Logf("publish to delivery in both instances: %s", time.Since(start).Round(time.Microsecond))
		sigQuiet(t, other)

		if err := sa.Publish(ctx, "erpsync:acme", strings.Repeat("x", MaxPayload+1)); err == nil {
			t.Fatal("published an oversized payload")
		}
		if err := sa.Publish(ctx, "erpsync acme; drop", "x"); err == nil {
			t.Fatal("published to an invalid channel")
		}

		// A subscription ends with its context; the others go on.
		subCtx, end := context.WithCancel(ctx)
		gone, err := sa.Subscribe(subCtx, "erpsync:acme")
		if err != nil {
			t.Fatal(err)
		}
		end()
		if _, ok := sigReceive(t, gone, time.Second); ok {
			t.Fatal("channel open after its context ended")
		}
		sb.Publish(ctx, "erpsync:acme", "again")
		if m, _ := sigReceive(t, onA, 2*time.Second); m != "again" {
			t.Fatalf("after another subscription ended: %q", m)
		}
		sa.Close()
		if _, ok := sigReceive(t, onA, time.Second); ok {
			t.Fatal("channel open after Close")
		}
		if err := sa.Publish(ctx, "erpsync:acme", "x"); err != ErrClosed {
			t.Fatalf("publish after close: %v", err)
		}
	})
}

func TestSignalsSlowSubscriberGetsResync(t *testing.T) {
	signalInstances(t, func(t *testing.T, sa, sb *Signals) {
		ctx := context.Background()
		slow, err := sa.Subscribe(ctx, "events:acme")
		if err != nil {
			t.Fatal(err)
		}
		fast, err := sa.Subscribe(ctx, "events:acme")
		if err != nil {
			t.Fatal(err)
		}
		// The publisher waits for the subscriber that keeps up, never for
		// the slow one.
		const sent = 3 * subscriberBuffer
		for i := range sent {
			if err := sb.Publish(ctx, "events:acme", fmt.Sprint("m", i)); err != nil {
				t.Fatal(err)
			}
			if m, _ := sigReceive(t, fast, 2*time.Second); m != fmt.Sprint("m", i) {
				t.Fatalf("the subscriber that keeps up got %q, want m%d", m, i)
			}
		}
		// The slow one has a full buffer and, last, Resync.
		for i := range subscriberBuffer {
			if m, _ := sigReceive(t, slow, time.Second); m == Resync {
				t.Fatalf("message %d is Resync", i)
			}
		}
		if m, _ := sigReceive(t, slow, time.Second); m != Resync {
			t.Fatalf("after the buffer: %q, want Resync", m)
		}
		sigQuiet(t, slow)
		sb.Publish(ctx, "events:acme", "later")
		if m, _ := sigReceive(t, slow, 2*time.Second); m != "later" {
			t.Fatalf("after catching up: %q", m)
		}
	})
}

func TestSignalsResyncAfterTheListeningConnectionIsLost(t *testing.T) {
	db, _ := scratchPools(t)
	ctx := context.Background()
	sig := New(db, true, nil)
	defer sig.Close()
	ch, err := sig.Subscribe(ctx, "erpsync:acme")
	if err != nil {
		t.Fatal(err)
	}
	// The database ends the listening connection (a restart, a failover,
	// an idle timeout would too).
	var name string
	if err := db.QueryRow(`SELECT `+pgChannel, "erpsync:acme").Scan(&name); err != nil {
		t.Fatal(err)
	}
	res, err := db.Exec(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query = $1`, "LISTEN "+name)
	if n, _ := res.RowsAffected(); err != nil || n != 1 {
		t.Fatalf("terminate the listening connection: %v (%d found)", err, n)
	}
	lost := time.Now()
	if m, _ := sigReceive(t, ch, 10*time.Second); m != Resync {
		t.Fatalf("after the loss: %q, want Resync", m)
	}
	t.Logf("resync %s after the connection was lost", time.Since(lost).Round(time.Millisecond))
	if err := sig.Publish(ctx, "erpsync:acme", "push"); err != nil {
		t.Fatal(err)
	}
	if m, _ := sigReceive(t, ch, 2*time.Second); m != "push" {
		t.Fatalf("after reconnecting: %q", m)
	}
}
