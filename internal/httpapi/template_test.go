package httpapi

import (
	"context"
	"os"
	"sync"
	"testing"

	"github.com/portico/portico/internal/sqlstore"
)

// A storeTemplate is a SQLite data directory built once per test binary, then
// copied for every test that starts from it. Under -race, migrating a fresh
// store takes about a second and the demo records about three more, which every
// such test paid before. The copy holds what the test would have built itself
// (build is deterministic and sees a fresh store); the test opens it as a
// restarted server opens its data, and writes only to its own copy.
type storeTemplate struct {
	build func(ctx context.Context, s *sqlstore.Store) error

	once sync.Once
	dir  string
	err  error
}

// templatesDir holds the templates; TestMain removes it.
var templatesDir struct {
	once sync.Once
	path string
	err  error
}

func TestMain(m *testing.M) {
	code := m.Run()
	if templatesDir.path != "" {
		os.RemoveAll(templatesDir.path)
	}
	os.Exit(code)
}

// copy answers a new directory of the test's holding a copy of the template.
func (tp *storeTemplate) copy(t *testing.T) string {
	t.Helper()
	tp.once.Do(func() {
		templatesDir.once.Do(func() { templatesDir.path, templatesDir.err = os.MkdirTemp("", "httpapi-templates-") })
		if tp.err = templatesDir.err; tp.err != nil {
			return
		}
		if tp.dir, tp.err = os.MkdirTemp(templatesDir.path, "store-"); tp.err != nil {
			return
		}
		ctx := context.Background()
		s, err := sqlstore.Open(ctx, "", tp.dir)
		if tp.err = err; err != nil {
			return
		}
		tp.err = tp.build(ctx, s)
		if err := s.Close(); tp.err == nil {
			tp.err = err
		}
	})
	if tp.err != nil {
		t.Fatalf("store template: %v", tp.err)
	}
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS(tp.dir)); err != nil {
		t.Fatal(err)
	}
	return dir
}
