package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sync"
	"testing"
)

func TestGroupCommitKeepsEachWritesOutcome(t *testing.T) {
	ctx := context.Background()
	s := openSQLite(t)
	if _, err := s.db.ExecContext(ctx, `CREATE TABLE g (n INTEGER PRIMARY KEY)`); err != nil {
		t.Fatal(err)
	}
	refused := errors.New("refused")
	const n = 200
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			errs[i] = s.inTx(ctx, func(tx *sql.Tx) error {
				if _, err := tx.ExecContext(ctx, `INSERT INTO g (n) VALUES (?)`, i); err != nil {
					return err
				}
				if i%3 == 0 {
					return refused // after its insert: rolled back alone
				}
				if i%7 == 0 {
					_, err := tx.ExecContext(ctx, `INSERT INTO g (n) VALUES (?)`, i) // a constraint error
					return err
				}
				return nil
			})
		})
	}
	wg.Wait()
	want := map[int]bool{}
	for i, err := range errs {
		switch {
		case i%3 == 0:
			if !errors.Is(err, refused) {
				t.Fatalf("write %d: %v, want its own error", i, err)
			}
		case i%7 == 0:
			if err == nil {
				t.Fatalf("write %d: no constraint error", i)
			}
		default:
			if err != nil {
				t.Fatalf("write %d: %v", i, err)
			}
			want[i] = true
		}
	}
	rows, err := s.rdb.QueryContext(ctx, `SELECT n FROM g`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	got := map[int]bool{}
	for rows.Next() {
		var v int
		rows.Scan(&v)
		got[v] = true
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("stored %d rows, want the %d that succeeded", len(got), len(want))
	}
	// A write whose context ended while it waited is not run.
	done, cancel := context.WithCancel(ctx)
	cancel()
	if err := s.inTx(done, func(*sql.Tx) error { t.Fatal("ran"); return nil }); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled: %v", err)
	}
}
