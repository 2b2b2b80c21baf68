package sqlstore

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"errors"
	"net/url"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/portico/portico/internal/records"
)

// Connections PostgreSQL ends under load (pg_terminate_backend, as an
// administrator or a failover does) fail their statements with errors
// Unavailable recognises, so the API answers them 503, never 500; the
// store goes on working once the terminations stop.
func TestTerminatedConnectionsAreUnavailable(t *testing.T) {
	base := os.Getenv("PORTICO_TEST_DATABASE_URL")
	if base == "" {
		t.Skip("PORTICO_TEST_DATABASE_URL is not set")
	}
	ctx := context.Background()
	u, drop, err := ScratchURL(ctx, base)
	if err != nil {
		t.Fatal(err)
	}
	b := make([]byte, 6)
	rand.Read(b)
	app := "portico_terminated_" + hex.EncodeToString(b) // only this test's connections are ended
	parsed, _ := url.Parse(u)
	q := parsed.Query()
	q.Set("application_name", app)
	parsed.RawQuery = q.Encode()
	s, err := Open(ctx, parsed.String(), "")
	if err != nil {
		drop()
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close(); drop() })
	ten := seedTenant(t, s, "acme")
	var rs []records.Record
	for i := range 200 {
		rs = append(rs, testRecord("project", int64(i+1), "Project", "Active"))
	}
	if err := ten.PutRecords(ctx, rs); err != nil {
		t.Fatal(err)
	}
	admin, err := sql.Open("pgx", base)
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close()

	stop := time.Now().Add(2 * time.Second)
	var mu sync.Mutex
	failed, other := 0, []error{}
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for time.Now().Before(stop) {
				_, err := ten.ListRecords(ctx, records.ListQuery{Kind: "project", Limit: 50})
				if err == nil {
					_, err = ten.Summarize(ctx, records.SummaryQuery{List: records.ListQuery{Kind: "project", Text: "proj"}, Count: true})
				}
				if err != nil {
					mu.Lock()
					failed++
					if !Unavailable(err) {
						other = append(other, err)
					}
					mu.Unlock()
				}
			}
		})
	}
	terminations := 0
	for time.Now().Before(stop) {
		var n int
		if err := admin.QueryRowContext(ctx, `SELECT COUNT(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE application_name = $1`, app).Scan(&n); err != nil {
			t.Fatal(err)
		}
		terminations += n
		time.Sleep(50 * time.Millisecond)
	}
	wg.Wait()
	t.Logf("%d connections ended, %d statements failed", terminations, failed)
	if terminations == 0 {
		t.Fatal("no connection was ended: the test proves nothing")
	}
	if len(other) > 0 {
		t.Errorf("%d failures not recognised as the database out of reach, e.g. %v (%T)", len(other), other[0], errors.Unwrap(other[0]))
	}
	if _, err := ten.ListRecords(ctx, records.ListQuery{Kind: "project", Limit: 50}); err != nil {
		t.Errorf("after the terminations: %v", err)
	}
}

// A transaction PostgreSQL ends to break a deadlock is unavailable for a
// moment, not a fault: two transactions take two locks in opposite
// orders, and the one ended fails with an error Unavailable recognises.
func TestDeadlockIsUnavailable(t *testing.T) {
	base := os.Getenv("PORTICO_TEST_DATABASE_URL")
	if base == "" {
		t.Skip("PORTICO_TEST_DATABASE_URL is not set")
	}
	ctx := context.Background()
	db, err := sql.Open("pgx", base)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	b := make([]byte, 4)
	rand.Read(b)
	key := int64(b[0])<<24 | int64(b[1])<<16 | int64(b[2])<<8 | int64(b[3])
	txs := make([]*sql.Tx, 2)
	for i := range txs {
		if txs[i], err = db.BeginTx(ctx, nil); err != nil {
			t.Fatal(err)
		}
		defer txs[i].Rollback()
		if _, err := txs[i].ExecContext(ctx, `SELECT pg_advisory_xact_lock($1)`, key+int64(i)); err != nil {
			t.Fatal(err)
		}
	}
	errs := make(chan error, 2)
	for i, tx := range txs {
		go func() {
			_, err := tx.ExecContext(ctx, `SELECT pg_advisory_xact_lock($1)`, key+int64(1-i))
			if err != nil {
				tx.Rollback() // frees the other
			}
			errs <- err
		}()
	}
	first, second := <-errs, <-errs
	ended := errors.Join(first, second)
	if ended == nil || (first != nil && second != nil) {
		t.Fatalf("want one transaction ended, got %v and %v", first, second)
	}
	if !Unavailable(ended) {
		t.Fatalf("a deadlock is not unavailable: %v", ended)
	}
}
