package sqlstore

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/portico/portico/internal/search"
)

func TestUpkeepCheckpointsAndMergesOffTheWritePath(t *testing.T) {
	ctx := context.Background()
	s := openSQLite(t)
	ten := seedTenant(t, s, "acme")
	s.upkeep.stop() // passes are run by hand below
	<-s.upkeep.done
	for i := range 60 {
		if _, err := create(ctx, ten, 1, fmt.Sprintf("Upkeep client %02d", i), "", time.Now()); err != nil {
			t.Fatal(err)
		}
	}
	// The writes left the log unchecked and the segments unmerged.
	var busy, logged, done int
	if err := s.upkeep.conn.QueryRowContext(ctx, `PRAGMA wal_checkpoint(NOOP)`).Scan(&busy, &logged, &done); err == nil && logged == 0 {
		t.Fatalf("nothing in the log after 60 writes")
	}
	segments := func() int {
		var n int
		// The index's pages: merging small segments leaves fewer.
		s.upkeep.conn.QueryRowContext(ctx, `SELECT COUNT(*) FROM search_all_data`).Scan(&n)
		return n
	}
	before := segments()
	if err := s.upkeepPass(ctx); err != nil {
		t.Fatal(err)
	}
	if err := s.upkeep.conn.QueryRowContext(ctx, `PRAGMA wal_checkpoint(PASSIVE)`).Scan(&busy, &logged, &done); err != nil || logged != done {
		t.Fatalf("log not checkpointed: %d of %d (%v)", done, logged, err)
	}
	if after := segments(); after >= before {
		t.Fatalf("index pages %d → %d: no merge", before, after)
	}
	var automerge string
	s.upkeep.conn.QueryRowContext(ctx, `SELECT v FROM search_all_config WHERE k = 'automerge'`).Scan(&automerge)
	if automerge != "0" {
		t.Fatalf("automerge %q", automerge)
	}
	// Nothing committed since: the next pass does nothing.
	v := s.upkeep.version
	if err := s.upkeepPass(ctx); err != nil || s.upkeep.version != v {
		t.Fatalf("idle pass: %v", err)
	}
	// The merged index still finds every record.
	for _, i := range []int{0, 37, 59} {
		name := fmt.Sprintf("Upkeep client %02d", i)
		found, err := ten.SearchCandidates(ctx, name, []string{"customer"}, 100)
		if err != nil || !slices.ContainsFunc(found, func(e search.Entry) bool { return e.Name == name }) {
			t.Fatalf("search for %q after merging: %+v %v", name, found, err)
		}
	}
}

// A SQLite file whose write-ahead log needs recovering (copied while open,
// as a crash leaves it) opens whatever the connect deadline: recovery is
// the first connection's work, not a server that does not answer.
func TestOpenRecoversTheLogWithoutTheConnectDeadline(t *testing.T) {
	ctx := context.Background()
	src := t.TempDir()
	s, err := Open(ctx, "", src)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ten := seedTenant(t, s, "acme")
	s.upkeep.stop() // the log stays unchecked
	<-s.upkeep.done
	rec, err := create(ctx, ten, 1, "Logged only", "", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, name := range []string{"portico.db", "portico.db-wal"} {
		b, err := os.ReadFile(filepath.Join(src, name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	defer func(d time.Duration) { connectTimeout = d }(connectTimeout)
	connectTimeout = time.Nanosecond
	copied, err := Open(ctx, "", dir)
	if err != nil {
		t.Fatalf("open with a log to recover: %v", err)
	}
	defer copied.Close()
	if r, err := copied.Tenant("acme").Record(ctx, "customer", rec.ID); err != nil || r.Title != "Logged only" {
		t.Fatalf("the logged record after recovery: %+v %v", r, err)
	}
}
