package sqlstore

import (
	"context"
	"errors"
	"testing"
	"time"
)

// The request deadline (issue 17) only bounds a request if the driver
// stops a statement that is running when it passes. A recursive CTE that
// would count for minutes must end, with an error, soon after the
// deadline on both engines; the connection goes back to the pool usable.
func TestConformanceDeadlineInterruptsARunningQuery(t *testing.T) {
	engines(t, func(t *testing.T, s *Store) {
		const slow = `WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 2000000000) SELECT COUNT(*) FROM c`
		s.db.SetMaxOpenConns(1) // the next query must reuse the interrupted connection
		ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
		defer cancel()
		start := time.Now()
		var n int64
		err := s.db.QueryRowContext(ctx, slow).Scan(&n)
		took := time.Since(start)
		if err == nil {
			t.Fatalf("the slow query finished (%d) in %s", n, took)
		}
		if took > 2*time.Second {
			t.Errorf("the query ran %s past a 200ms deadline (%v)", took, err)
		}
		if !errors.Is(err, context.DeadlineExceeded) && ctx.Err() == nil {
			t.Errorf("err = %v, and the deadline had not passed", err)
		}
		if err := s.db.QueryRowContext(context.Background(), `SELECT 1`).Scan(&n); err != nil || n != 1 {
			t.Errorf("the connection after the interrupt: %d, %v", n, err)
		}
		t.Logf("interrupted after %s: %v", took, err)
	})
}

// A bounded tenant's statement that runs past its bound is interrupted
// on both engines, in about the bound, with an error that says it was
// the deadline; a statement that ends in time is untouched.
func TestConformanceBoundedStatementsEndInTime(t *testing.T) {
	engines(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		ten := seedTenant(t, s, "acme")
		bounded := ten.Bounded(100 * time.Millisecond)
		slow := scope(`WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 2000000000) SELECT count(*) FROM c WHERE :tenant <> ''`)
		check := func(what string, run func() error) {
			t.Helper()
			start := time.Now()
			err := run()
			if took := time.Since(start); !errors.Is(err, context.DeadlineExceeded) || took > 3*time.Second {
				t.Errorf("%s: %v after %s", what, err, took)
			}
		}
		check("query", func() error {
			rows, err := bounded.query(ctx, slow)
			if err != nil {
				return err
			}
			defer rows.Close()
			for rows.Next() {
			}
			return rows.Err()
		})
		check("queryRow", func() error {
			var n int64
			return bounded.queryRow(ctx, slow).Scan(&n)
		})
		check("a transaction", func() error {
			return bounded.inTx(ctx, func(tx *Tenant) error {
				var n int64
				return tx.queryRow(ctx, slow).Scan(&n)
			})
		})
		var name string
		if err := ten.Bounded(10*time.Second).queryRow(ctx, tenantName).Scan(&name); err != nil || name != "acme" {
			t.Errorf("a quick statement: %q, %v", name, err)
		}
	})
}

// outOfTime says "deadline" only when the bound ran out and the caller's
// context did not.
func TestOutOfTime(t *testing.T) {
	interrupted := errors.New("interrupted (9)")
	live := context.Background()
	ended, cancel := context.WithDeadline(live, time.Now())
	defer cancel()
	running, stop := context.WithTimeout(live, time.Minute)
	defer stop()
	for _, c := range []struct {
		ctx, bound context.Context
		err        error
		deadline   bool
	}{
		{live, ended, interrupted, true},
		{live, running, interrupted, false},
		{ended, ended, interrupted, false}, // the caller's own end
		{live, ended, nil, false},
	} {
		got := outOfTime(c.ctx, c.bound, c.err)
		if errors.Is(got, context.DeadlineExceeded) != c.deadline || !errors.Is(got, c.err) {
			t.Errorf("%v: %v, want deadline %v", c, got, c.deadline)
		}
	}
}
