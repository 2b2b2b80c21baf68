package main

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/portico/portico/internal/sqlstore"
)

func TestBackupAndRestoreCommands(t *testing.T) {
	ctx := context.Background()
	data := t.TempDir()
	env := map[string]string{"PORTICO_DATA_DIR": data, "PORTICO_LOG_LEVEL": "warn"}
	if _, err := runWith(t, env, "seed", "-per-kind", "5"); err != nil {
		t.Fatal(err)
	}
	// An instance has the database open, and writes, while it is backed up.
	running, err := sqlstore.Open(ctx, "", data)
	if err != nil {
		t.Fatal(err)
	}
	defer running.Close()
	if _, err := running.Secret(ctx, "session-signing-key", 32); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "portico-backup.db")
	out, err := runWith(t, env, "backup", file)
	if err != nil || !strings.Contains(out, "backup written to "+file+": ") || !strings.Contains(out, "schema version ") {
		t.Fatalf("backup: %v %q", err, out)
	}
	if _, err := runWith(t, env, "backup", file); err == nil || !strings.Contains(err.Error(), "exists; not overwritten") {
		t.Errorf("backup over a file: %v", err)
	}
	if _, err := runWith(t, env, "backup"); err == nil || !strings.Contains(err.Error(), "exactly one FILE") {
		t.Errorf("backup without a file: %v", err)
	}
	empty := filepath.Join(t.TempDir(), "none")
	if _, err := runWith(t, map[string]string{"PORTICO_DATA_DIR": empty}, "backup", file+"2"); err == nil || !strings.Contains(err.Error(), "no database to open") {
		t.Errorf("backup of no database: %v", err)
	}
	if _, err := os.Stat(empty); !os.IsNotExist(err) {
		t.Errorf("backup created the data directory it found no database in: %v", err)
	}

	// Restored into an empty data directory, it opens with the same
	// records and the same signing key (sessions survive a restore).
	fresh := map[string]string{"PORTICO_DATA_DIR": filepath.Join(t.TempDir(), "restored"), "PORTICO_LOG_LEVEL": "warn"}
	out, err = runWith(t, fresh, "restore", file)
	if err != nil || !strings.Contains(out, "1 tenants, 75 records; integrity check ok") || !strings.Contains(out, "the restored database opens: sqlite schema at version") {
		t.Fatalf("restore: %v %q", err, out)
	}
	if _, err := runWith(t, fresh, "restore", file); err == nil || !strings.Contains(err.Error(), "already holds a database; restore into a fresh data directory") {
		t.Errorf("restore over a database: %v", err)
	}
	if _, err := runWith(t, env, "restore", file); err == nil || !strings.Contains(err.Error(), "already holds a database") {
		t.Errorf("restore over the running database: %v", err)
	}
	restored, err := sqlstore.Open(ctx, "", fresh["PORTICO_DATA_DIR"])
	if err != nil {
		t.Fatal(err)
	}
	defer restored.Close()
	a, _ := running.Secret(ctx, "session-signing-key", 32)
	b, _ := restored.Secret(ctx, "session-signing-key", 32)
	if string(a) != string(b) {
		t.Error("the restored database has another session signing key")
	}

	// On PostgreSQL both print the recipe and do nothing.
	pg := map[string]string{"PORTICO_DATABASE_URL": "postgres://nobody@127.0.0.1:1/none", "PORTICO_LOG_LEVEL": "warn"}
	for _, cmd := range []string{"backup", "restore"} {
		out, err := runWith(t, pg, cmd, file)
		if err == nil || !strings.Contains(out, "pg_dump --format=custom") || !strings.Contains(out, "pg_restore --no-owner") {
			t.Errorf("%s on PostgreSQL: %v %q", cmd, err, out)
		}
	}
}

// The PostgreSQL recipe (docs/operations.md), as printed: pg_dump of a database
// instances use, pg_restore into a new one, which opens with the same
// records.
func TestPostgresBackupRecipe(t *testing.T) {
	base := os.Getenv("PORTICO_TEST_DATABASE_URL")
	if base == "" {
		t.Skip("PORTICO_TEST_DATABASE_URL is not set")
	}
	for _, tool := range []string{"pg_dump", "pg_restore"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s is not installed", tool)
		}
	}
	ctx := context.Background()
	admin, err := sql.Open("pgx", base)
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close()
	suffix := make([]byte, 4)
	rand.Read(suffix)
	database := func(name string) string {
		name += "_" + hex.EncodeToString(suffix)
		if _, err := admin.ExecContext(ctx, "CREATE DATABASE "+name); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { admin.ExecContext(context.Background(), "DROP DATABASE "+name+" WITH (FORCE)") })
		u, err := url.Parse(base)
		if err != nil {
			t.Fatal(err)
		}
		u.Path = "/" + name
		return u.String()
	}
	live, copied := database("portico_backup_live"), database("portico_backup_restored")
	env := map[string]string{"PORTICO_DATABASE_URL": live, "PORTICO_LOG_LEVEL": "warn"}
	if _, err := runWith(t, env, "seed", "-per-kind", "5"); err != nil {
		t.Fatal(err)
	}
	dump := filepath.Join(t.TempDir(), "portico.dump")
	for _, c := range [][]string{
		{"pg_dump", "--format=custom", "--no-owner", "--file=" + dump, live},
		{"pg_restore", "--no-owner", "--exit-on-error", "--single-transaction", "--dbname=" + copied, dump},
	} {
		if out, err := exec.CommandContext(ctx, c[0], c[1:]...).CombinedOutput(); err != nil {
			t.Fatalf("%s: %v\n%s", c[0], err, out)
		}
	}
	count := func(u string) (n int64) {
		s, err := sqlstore.Open(ctx, u, "")
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		if n, err = s.Tenant("portico-demo").CountRecords(ctx, "project"); err != nil {
			t.Fatal(err)
		}
		return n
	}
	if a, b := count(live), count(copied); a != 5 || b != a {
		t.Errorf("projects: %d in the database, %d in its restored dump", a, b)
	}
}
