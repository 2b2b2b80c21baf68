package sqlstore

import (
	"context"
	"os"
	"sync"
	"testing"
)

// migrated is a SQLite data directory migrated once per test binary, then
// copied for each SQLite run of engines: under -race, migrating a fresh store
// takes about a second, which every such run paid before. A copy is the store
// a fresh Open would have made, opened again as a restarted server opens its
// data; a fresh Open is still exercised, by the copy's template and by the
// tests that open their own.
var migrated struct {
	once sync.Once
	dir  string
	err  error
}

func TestMain(m *testing.M) {
	code := m.Run()
	if migrated.dir != "" {
		os.RemoveAll(migrated.dir)
	}
	os.Exit(code)
}

// migratedCopy answers a new directory of the test's holding a copy of the
// migrated store.
func migratedCopy(t *testing.T) string {
	t.Helper()
	migrated.once.Do(func() {
		if migrated.dir, migrated.err = os.MkdirTemp("", "sqlstore-migrated-"); migrated.err != nil {
			return
		}
		s, err := Open(context.Background(), "", migrated.dir)
		if migrated.err = err; err == nil {
			migrated.err = s.Close()
		}
	})
	if migrated.err != nil {
		t.Fatalf("migrated store: %v", migrated.err)
	}
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS(migrated.dir)); err != nil {
		t.Fatal(err)
	}
	return dir
}
