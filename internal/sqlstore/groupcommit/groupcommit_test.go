package groupcommit

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"path/filepath"
	"sync"
	"testing"

	_ "modernc.org/sqlite"
)

// Many writes at once, some failing their own way, each keep their own
// outcome; a write whose context ended is not run; none runs after Close.
func TestGroupCommitKeepsEachWritesOutcome(t *testing.T) {
	ctx := context.Background()
	db, err := sql.Open("sqlite", filepath.Join(t.TempDir(), "g.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	if _, err := db.ExecContext(ctx, `CREATE TABLE g (n INTEGER PRIMARY KEY)`); err != nil {
		t.Fatal(err)
	}
	w := New(db)
	refused := errors.New("refused")
	const n = 200
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			errs[i] = w.Do(ctx, func(tx *sql.Tx) error {
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
	var got map[int]bool
	var readErr error
	if err := w.Pause(ctx, func() { got, readErr = stored(ctx, db) }); err != nil || readErr != nil {
		t.Fatal(err, readErr)
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("stored %d rows, want the %d that succeeded", len(got), len(want))
	}
	// A write whose context ended while it waited is not run.
	done, cancel := context.WithCancel(ctx)
	cancel()
	if err := w.Do(done, func(*sql.Tx) error { t.Fatal("ran"); return nil }); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled: %v", err)
	}
	w.Close()
	if err := w.Do(ctx, func(*sql.Tx) error { return nil }); !errors.Is(err, sql.ErrConnDone) {
		t.Fatalf("after Close: %v", err)
	}
}

// stored is the numbers in table g.
func stored(ctx context.Context, db *sql.DB) (map[int]bool, error) {
	rows, err := db.QueryContext(ctx, `SELECT n FROM g`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	got := map[int]bool{}
	for rows.Next() {
		var v int
		if err := rows.Scan(&v); err != nil {
			return nil, err
		}
		got[v] = true
	}
	return got, rows.Err()
}
