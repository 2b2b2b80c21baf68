package sqlstore

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"slices"
	"sync"
	"testing"
	"time"
)

// Under sustained writes, with readers reading all along, the write-ahead
// log's file stays within its limit plus what is written between two
// upkeep passes (two, allowing for one restart blocked by a read in
// flight), and is back under the limit once the writes stop. Before the
// upkeep restarted the log, it grew by everything written (15 MiB here).
func TestWALStaysWithinItsLimitUnderSustainedWrites(t *testing.T) {
	if testing.Short() {
		t.Skip("seconds of writes")
	}
	ctx := context.Background()
	const limit = 4 << 20
	dir := t.TempDir()
	s, err := Open(ctx, "", dir, WALLimit(limit))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ten := seedTenant(t, s, "acme")
	wal := s.upkeep.wal
	if wal != dir+"/portico.db-wal" {
		t.Fatalf("the log's file: %s", wal)
	}
	size := func() int64 {
		fi, err := os.Stat(wal)
		if err != nil {
			return 0
		}
		return fi.Size()
	}

	stop := make(chan struct{})
	var (
		wg       sync.WaitGroup
		mu       sync.Mutex
		firstErr error
		writes   int
	)
	fail := func(err error) {
		mu.Lock()
		defer mu.Unlock()
		if firstErr == nil {
			firstErr = err
		}
	}
	stopped := func() bool {
		select {
		case <-stop:
			return true
		default:
			return false
		}
	}
	for w := range 32 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; !stopped(); i++ {
				if _, err := create(ctx, ten, 1, fmt.Sprintf("Logged client %d-%d", w, i), "", time.Now()); err != nil {
					fail(err)
					return
				}
				mu.Lock()
				writes++
				mu.Unlock()
			}
		}()
	}
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for !stopped() {
				if _, err := ten.SearchCandidates(ctx, "Logged client", []string{"customer"}, 50); err != nil {
					fail(err)
					return
				}
			}
		}()
	}

	// Sample the file; what it grew by between samples adds up to about
	// all that was logged (less what was written between a sample and a
	// truncation). The load goes on until it has logged four times the
	// limit and the log restarted twice, however long that takes on a
	// busy machine (at most maxLoad).
	const maxLoad = 40 * time.Second
	var peak, last, logged int64
	start := time.Now()
	tested := func() bool { return logged >= 4*limit && s.upkeep.restarts.Load() >= 2 }
	for tick := time.NewTicker(10 * time.Millisecond); !tested() && time.Since(start) < maxLoad; <-tick.C {
		n := size()
		peak = max(peak, n)
		if n > last {
			logged += n - last
		}
		last = n
	}
	elapsed := time.Since(start)
	close(stop)
	wg.Wait()
	if firstErr != nil {
		t.Fatal(firstErr)
	}
	perPass := int64(float64(logged) * upkeepInterval.Seconds() / elapsed.Seconds())
	restarts, refusals := s.upkeep.restarts.Load(), s.upkeep.refusals.Load()
	t.Logf("%d writes in %s; %.1f MiB logged, %.1f MiB between passes; WAL peak %.1f MiB (limit %.0f MiB); %d restarts, %d refused",
		writes, elapsed.Round(time.Millisecond), mib(logged), mib(perPass), mib(peak), mib(limit), restarts, refusals)
	if !tested() {
		t.Fatalf("%.1f MiB logged, %d restarts in %s: the writes did not test the limit", mib(logged), restarts, maxLoad)
	}
	// A restart that readers held off (refused) lets the log take one
	// more pass's writes before the next try.
	if bound := limit + (2+refusals)*perPass; peak > bound {
		t.Fatalf("WAL peak %.1f MiB, past %.1f MiB (the limit and the writes of two passes, and of one more per refused restart)", mib(peak), mib(bound))
	}
	// Once the writes stop, a pass or two bring it back under the limit.
	for deadline := time.Now().Add(4 * upkeepInterval); size() > limit; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("WAL %.1f MiB %s after the writes stopped", mib(size()), 4*upkeepInterval)
		}
	}
}

func mib(n int64) float64 { return float64(n) / (1 << 20) }

// A long read (a backup's) keeps the log from restarting: each try gives
// up after the upkeep's short busy timeout, holding the writes off no
// longer, the tries grow apart, and the first after the read ends
// restarts the log.
func TestWALRestartGivesWayToALongRead(t *testing.T) {
	ctx := context.Background()
	s, err := Open(ctx, "", t.TempDir(), WALLimit(1<<20))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	s.upkeep.stop() // passes are run by hand below
	<-s.upkeep.done
	ten := seedTenant(t, s, "acme")
	conn, err := s.rdb.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	read, err := conn.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	var n int
	if err := read.QueryRowContext(ctx, `SELECT COUNT(*) FROM records`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	for i := 0; s.upkeep.walSize() <= 1<<20; i++ {
		if _, err := create(ctx, ten, 1, fmt.Sprintf("Logged client %d", i), "", time.Now()); err != nil {
			t.Fatal(err)
		}
	}
	var tried []bool
	for range 4 {
		before := s.upkeep.refusals.Load()
		start := time.Now()
		if err := s.boundWAL(ctx); err != nil {
			t.Fatal(err)
		}
		if took := time.Since(start); took > upkeepBusyTimeout+time.Second {
			t.Fatalf("a refused restart held the writes off %s", took)
		}
		tried = append(tried, s.upkeep.refusals.Load() > before)
	}
	// Tried at the first two passes, then one skipped, then tried.
	if want := []bool{true, true, false, true}; !slices.Equal(tried, want) || s.upkeep.restarts.Load() != 0 {
		t.Fatalf("tries %v (want %v), %d restarts", tried, want, s.upkeep.restarts.Load())
	}
	if err := read.Rollback(); err != nil {
		t.Fatal(err)
	}
	for range 8 {
		if err := s.boundWAL(ctx); err != nil {
			t.Fatal(err)
		}
	}
	if s.upkeep.restarts.Load() != 1 || s.upkeep.walSize() != 0 {
		t.Fatalf("after the read: %d restarts, log %d bytes", s.upkeep.restarts.Load(), s.upkeep.walSize())
	}
}
