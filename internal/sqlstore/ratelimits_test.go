package sqlstore

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

func TestConformanceRateLimit(t *testing.T) {
	engines(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		now := time.UnixMilli(1_700_000_000_000)
		// 6 a minute: one every 10 s, bursts of 3.
		for i := range 3 {
			if ok, _, err := s.Allow(ctx, "login:ip:192.0.2.7", 6, 3, now); !ok || err != nil {
				t.Fatalf("event %d of the burst: %v %v", i+1, ok, err)
			}
		}
		ok, wait, err := s.Allow(ctx, "login:ip:192.0.2.7", 6, 3, now)
		if ok || err != nil || wait != 10*time.Second {
			t.Errorf("past the burst: ok=%v wait=%v err=%v, want a 10s wait", ok, wait, err)
		}
		if ok, _, _ := s.Allow(ctx, "login:ip:192.0.2.8", 6, 3, now); !ok {
			t.Error("another key was limited")
		}
		if ok, wait, _ := s.Allow(ctx, "login:ip:192.0.2.7", 6, 3, now.Add(4*time.Second)); ok || wait != 6*time.Second {
			t.Errorf("4 s later: ok=%v wait=%v, want a 6s wait", ok, wait)
		}
		if ok, _, _ := s.Allow(ctx, "login:ip:192.0.2.7", 6, 3, now.Add(10*time.Second)); !ok {
			t.Error("one event did not come back after the interval")
		}
		if ok, _, _ := s.Allow(ctx, "login:ip:192.0.2.7", 6, 3, now.Add(10*time.Second)); ok {
			t.Error("more than one event came back after the interval")
		}
		// Long idle: the whole burst again, not more.
		later := now.Add(time.Hour)
		n := 0
		for range 5 {
			if ok, _, _ := s.Allow(ctx, "login:ip:192.0.2.7", 6, 3, later); ok {
				n++
			}
		}
		if n != 3 {
			t.Errorf("after an hour %d events passed, want the burst of 3", n)
		}
		if _, _, err := s.Allow(ctx, "k", 0, 1, now); err == nil {
			t.Error("a limit of 0 a minute was accepted")
		}
	})
}

// Two instances on one database enforce one limit, not one each, even
// when every caller asks at the same moment.
func TestRateLimitSharedByInstances(t *testing.T) {
	instances(t, 2, func(t *testing.T, ss []*Store) {
		a, b := ss[0], ss[1]
		ctx := context.Background()
		now := time.Now()
		var passed atomic.Int32
		var wg sync.WaitGroup
		for i := range 40 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				s := a
				if i%2 == 1 {
					s = b
				}
				ok, _, err := s.Allow(ctx, "login:acct:acme:uid-ada", 10, 5, now)
				if err != nil {
					t.Error(err)
				}
				if ok {
					passed.Add(1)
				}
			}()
		}
		wg.Wait()
		if n := passed.Load(); n != 5 {
			t.Errorf("%d events passed through two instances, want the burst of 5", n)
		}
		// Either instance now refuses, with the same wait.
		_, waitA, _ := a.Allow(ctx, "login:acct:acme:uid-ada", 10, 5, now)
		_, waitB, _ := b.Allow(ctx, "login:acct:acme:uid-ada", 10, 5, now)
		if waitA != 6*time.Second || waitB != waitA {
			t.Errorf("waits %v and %v, want 6s on both", waitA, waitB)
		}
	})
}

// Rows whose time has passed are deleted a bounded batch at a time, and
// deleting them changes no decision.
func TestRateLimitRowsAreSwept(t *testing.T) {
	engines(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		now := time.Now()
		// The live limit first: one Allow in rateLimitSweepOdds also
		// sweeps, and after the spent rows are in that took 500 of them
		// before the sweeps counted here (a 1-in-256 failure).
		s.Allow(ctx, "live", 1, 1, now)
		if _, err := s.db.Exec(s.d.rebind(`INSERT INTO rate_limits (key, tat) SELECT 'spent:' || n, CAST(? AS BIGINT) FROM (
			WITH RECURSIVE ns(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM ns WHERE n < 600) SELECT n FROM ns) AS spent`),
			now.Add(-time.Minute).UnixMilli()); err != nil {
			t.Fatal(err)
		}
		for _, want := range []int{101, 1, 1} {
			if err := s.sweepRateLimits(ctx, now.UnixMilli()); err != nil {
				t.Fatal(err)
			}
			var n int
			if err := s.db.QueryRow(`SELECT COUNT(*) FROM rate_limits`).Scan(&n); err != nil {
				t.Fatal(err)
			}
			if n != want {
				t.Errorf("%d rows left, want %d", n, want)
			}
		}
		if ok, _, _ := s.Allow(ctx, "live", 1, 1, now); ok {
			t.Error("a sweep forgot a live limit")
		}
	})
}
