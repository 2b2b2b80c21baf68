package sqlstore

import (
	"context"
	"errors"
	"testing"
	"time"
)

// A bounded tenant's statement that runs past its bound is interrupted
// on both engines, in about the bound, with an error that says it was
// the deadline; a statement that ends in time is untouched.
func TestConformanceBoundedStatementsEndInTime(t *testing.T) {
	engines(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		ten := seedTenant(t, s, "acme")
		bounded := ten.Bounded(100 * time.Millisecond)
		slow := scope(`WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c WHERE :tenant <> ''`)
		if s.d.name == postgres.name {
			slow = scope(`SELECT count(*) FROM pg_sleep(30) WHERE :tenant <> ''`)
		}
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
