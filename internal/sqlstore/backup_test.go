package sqlstore

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// A backup taken in the middle of a burst of creates holds every create
// acknowledged before it began, each with its audit entry (one
// transaction, one snapshot), and restores into a fresh data directory
// that opens and passes the integrity check.
func TestBackupUnderWritesHoldsEveryAcknowledgedCreate(t *testing.T) {
	ctx := context.Background()
	s, err := Open(ctx, "", migratedCopy(t))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ten := seedTenant(t, s, "acme")

	var (
		mu    sync.Mutex
		acked []int64
		errs  []error
		wg    sync.WaitGroup
	)
	stop := make(chan struct{})
	for w := range 16 {
		wg.Go(func() {
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				r, err := create(ctx, ten, 1, fmt.Sprintf("Burst client %d-%d", w, i), "", time.Now())
				mu.Lock()
				if err != nil {
					errs = append(errs, err)
				} else {
					acked = append(acked, r.ID)
				}
				mu.Unlock()
				if err != nil {
					return
				}
			}
		})
	}
	ackedSoFar := func() []int64 {
		mu.Lock()
		defer mu.Unlock()
		return append([]int64(nil), acked...)
	}
	for len(ackedSoFar()) < 400 {
		time.Sleep(10 * time.Millisecond)
	}
	before := ackedSoFar() // every create acknowledged before the backup began
	file := filepath.Join(t.TempDir(), "portico-backup.db")
	start := time.Now()
	info, err := s.Backup(ctx, file)
	took := time.Since(start)
	if err != nil {
		t.Fatal(err)
	}
	during := len(ackedSoFar()) - len(before)
	time.Sleep(100 * time.Millisecond) // the burst goes on after it
	close(stop)
	wg.Wait()
	if len(errs) > 0 {
		t.Fatalf("%d creates failed; the first: %v", len(errs), errs[0])
	}
	total := len(ackedSoFar())
	t.Logf("backup of %d bytes in %s, %d creates acknowledged before it, %d during it, %d in all",
		info.Bytes, took.Round(time.Millisecond), len(before), during, total)
	if info.Path != file || info.Bytes == 0 || info.Schema == 0 {
		t.Errorf("info = %+v", info)
	}
	if fi, err := os.Stat(file); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("backup file: %v %v", fi, err)
	}
	if _, err := os.Stat(file + ".partial"); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the partial file is left: %v", err)
	}

	dir := t.TempDir()
	restored, err := Restore(ctx, "", dir, file)
	if err != nil {
		t.Fatal(err)
	}
	if restored.Schema != info.Schema || restored.Tenants != 1 || restored.Records < int64(len(before)) || restored.Records > int64(total) {
		t.Errorf("restored %+v: %d acknowledged before, %d in all", restored, len(before), total)
	}
	r, err := Open(ctx, "", dir)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	for _, id := range before {
		if _, err := r.Tenant("acme").Record(ctx, "customer", id); err != nil {
			t.Fatalf("create %d, acknowledged before the backup, is not in it: %v", id, err)
		}
	}
	// Each record with its audit entry: the copy is one snapshot.
	var recs, audited int
	if err := r.rdb.QueryRowContext(ctx, `SELECT (SELECT COUNT(*) FROM records), (SELECT COUNT(*) FROM audit_log WHERE event = 'record_create')`).Scan(&recs, &audited); err != nil {
		t.Fatal(err)
	}
	if recs != audited || int64(recs) != restored.Records {
		t.Errorf("%d records, %d create entries in the audit log, %d counted by Restore", recs, audited, restored.Records)
	}
}

func TestBackupAndRestoreRefusals(t *testing.T) {
	ctx := context.Background()
	s, err := Open(ctx, "", migratedCopy(t))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	seedTenant(t, s, "acme")
	backups := t.TempDir()
	file := filepath.Join(backups, "b.db")
	if _, err := s.Backup(ctx, file); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Backup(ctx, file); err == nil || !strings.Contains(err.Error(), "exists; not overwritten") {
		t.Errorf("a second backup into the same file: %v", err)
	}

	// Not over a database, nor beside another's write-ahead log.
	dir := t.TempDir()
	if _, err := Restore(ctx, "", dir, file); err != nil {
		t.Fatal(err)
	}
	if _, err := Restore(ctx, "", dir, file); err == nil || !strings.Contains(err.Error(), "already holds a database") {
		t.Errorf("restore over a database: %v", err)
	}
	walDir := t.TempDir()
	os.WriteFile(filepath.Join(walDir, "portico.db-wal"), []byte("x"), 0o600)
	if _, err := Restore(ctx, "", walDir, file); err == nil || !strings.Contains(err.Error(), "portico.db-wal exists") {
		t.Errorf("restore beside a log: %v", err)
	}

	// A damaged file, one that is no Portico database, one from a newer
	// release: each refused, and nothing left in the data directory.
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	damaged := append([]byte(nil), data...)
	for i := len(damaged) / 2; i < len(damaged)/2+8192 && i < len(damaged); i++ {
		damaged[i] = byte(i * 7)
	}
	os.WriteFile(filepath.Join(backups, "damaged.db"), damaged, 0o600)
	os.WriteFile(filepath.Join(backups, "text.db"), []byte("not a database at all"), 0o600)
	other := filepath.Join(backups, "other.db")
	if o, err := OpenExisting(ctx, "sqlite:"+file, ""); err != nil {
		t.Fatal(err)
	} else {
		if _, err := o.db.ExecContext(ctx, `VACUUM INTO ?`, other); err != nil {
			t.Fatal(err)
		}
		o.Close()
	}
	newer := filepath.Join(backups, "newer.db")
	if n, err := OpenExisting(ctx, "sqlite:"+other, ""); err != nil {
		t.Fatal(err)
	} else {
		if _, err := n.db.ExecContext(ctx, `DROP TABLE schema_migrations`); err != nil {
			t.Fatal(err)
		}
		n.Close()
	}
	if err := copyNew(file, newer); err != nil {
		t.Fatal(err)
	}
	if n, err := OpenExisting(ctx, "sqlite:"+newer, ""); err != nil {
		t.Fatal(err)
	} else {
		if _, err := n.db.ExecContext(ctx, `INSERT INTO schema_migrations (version, name, applied_at) VALUES (9999, '9999_future.sql', 0);
			UPDATE schema_floor SET version = 9999`); err != nil {
			t.Fatal(err)
		}
		n.Close()
	}
	for name, want := range map[string]string{
		"damaged.db": "integrity check",
		"text.db":    "not a database",
		"other.db":   "not a Portico database",
		"newer.db":   "schema version 9999, newer than this binary's",
	} {
		fresh := t.TempDir()
		_, err := Restore(ctx, "", fresh, filepath.Join(backups, name))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", name, err, want)
		}
		if left, _ := os.ReadDir(fresh); len(left) > 0 {
			t.Errorf("%s: %s left in the data directory", name, left[0].Name())
		}
	}

	// A missing backup is named; no data directory is made for it.
	missing := filepath.Join(t.TempDir(), "data")
	if _, err := Restore(ctx, "", missing, filepath.Join(backups, "none.db")); err == nil || !strings.Contains(err.Error(), "none.db: no such file") {
		t.Errorf("restore of a missing file: %v", err)
	}
	if _, err := os.Stat(missing); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the data directory was made: %v", err)
	}

	// OpenExisting creates nothing; neither command runs on PostgreSQL.
	if _, err := OpenExisting(ctx, "", t.TempDir()); err == nil || !strings.Contains(err.Error(), "no database to open") {
		t.Errorf("OpenExisting on an empty directory: %v", err)
	}
	if _, err := Restore(ctx, "postgres://x@127.0.0.1/db", "", file); !errors.Is(err, ErrPostgresBackup) {
		t.Errorf("restore on PostgreSQL: %v", err)
	}
}
