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
