package main

import (
	"context"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/portico/portico/internal/demo"
	"github.com/portico/portico/internal/sqlstore"
)

func runWith(t *testing.T, env map[string]string, args ...string) (string, error) {
	t.Helper()
	var out strings.Builder
	err := run(context.Background(), args, func(k string) string { return env[k] }, &out)
	return out.String(), err
}

// mustRun is runWith that fails the test when the command fails.
func mustRun(t *testing.T, env map[string]string, args ...string) string {
	t.Helper()
	out, err := runWith(t, env, args...)
	if err != nil {
		t.Fatalf("portico %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return out
}

// withEnv is env with more's variables over it.
func withEnv(env, more map[string]string) map[string]string {
	out := maps.Clone(env)
	maps.Copy(out, more)
	return out
}

// scratchPostgres is the URL of an empty database on the PostgreSQL
// server at base, dropped when the test ends.
func scratchPostgres(t *testing.T, base string) string {
	t.Helper()
	u, drop, err := sqlstore.ScratchURL(context.Background(), base)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(drop)
	return u
}

// testPostgres is PORTICO_TEST_DATABASE_URL; the test is skipped without
// it, and under -short.
func testPostgres(t *testing.T) string {
	t.Helper()
	base := os.Getenv("PORTICO_TEST_DATABASE_URL")
	if base == "" || testing.Short() {
		t.Skip("PORTICO_TEST_DATABASE_URL is not set, or -short")
	}
	return base
}

func TestCommands(t *testing.T) {
	env := map[string]string{"PORTICO_DATA_DIR": t.TempDir(), "PORTICO_LOG_LEVEL": "warn"}
	if out, err := runWith(t, env, "help"); err != nil || !strings.Contains(out, "roles import FILE") {
		t.Errorf("help: %v %q", err, out)
	}
	if _, err := runWith(t, env, "frobnicate"); err == nil || !strings.Contains(err.Error(), `unknown command "frobnicate"`) {
		t.Errorf("unknown command: %v", err)
	}
	if out, err := runWith(t, env, "migrate"); err != nil || !strings.Contains(out, "sqlite schema at version") {
		t.Errorf("migrate: %v %q", err, out)
	}
	out, err := runWith(t, env, "seed", "-per-kind", "20")
	if err != nil || !strings.Contains(out, "seeded tenant portico-demo on sqlite") || !strings.Contains(out, "5 users") {
		t.Fatalf("seed: %v %q", err, out)
	}
	// 20 of each of 14 kinds plus 20 projects.
	if out, err := runWith(t, env, "search", "reindex"); err != nil || !strings.Contains(out, "search index rebuilt: 300 records") {
		t.Errorf("search reindex: %v %q", err, out)
	}
	if _, err := runWith(t, env, "search"); err == nil || !strings.Contains(err.Error(), "search reindex") {
		t.Errorf("search without reindex: %v", err)
	}
	if out, err := runWith(t, env, "seed", "-if-empty"); err != nil || !strings.Contains(out, "not seeding") {
		t.Errorf("second seed: %v %q", err, out)
	}
	// The seed gave the demo company its letterhead.
	store, err := sqlstore.Open(context.Background(), "", env["PORTICO_DATA_DIR"])
	if err != nil {
		t.Fatal(err)
	}
	profile, err := store.Tenant("portico-demo").Company(context.Background())
	store.Close()
	if err != nil || !reflect.DeepEqual(profile, demo.Company()) {
		t.Errorf("the demo company's profile: %v %#v", err, profile)
	}
	exported, err := runWith(t, env, "roles", "export")
	if err != nil || !strings.Contains(exported, "email: ada.admin@portico.test") || !strings.Contains(exported, "name: Riverbend Ecological Services") {
		t.Fatalf("export: %v\n%s", err, exported)
	}
	// Edit the export (Pete becomes an Accountant too) and import it back.
	edited := strings.Replace(exported, "fullName: Pete Manager\n    roles:\n      - 1002", "fullName: Pete Manager\n    roles:\n      - 1002\n      - 1003", 1)
	if edited == exported {
		t.Fatalf("the export's shape changed; fix the test edit:\n%s", exported)
	}
	file := filepath.Join(t.TempDir(), "access.yaml")
	os.WriteFile(file, []byte(edited), 0o600)
	if out, err := runWith(t, env, "roles", "import", file); err != nil || !strings.Contains(out, "imported 3 layouts, 4 roles, 5 users") {
		t.Fatalf("import: %v %q", err, out)
	}
	again, _ := runWith(t, env, "roles", "export", "-json")
	if !strings.Contains(again, `"roles": [
        1002,
        1003
      ]`) {
		t.Errorf("import did not take:\n%s", again)
	}
	// A broken file is refused with the place of each problem.
	os.WriteFile(file, []byte("tenant: portico-demo\nroles:\n  - {_id: x, id: 1, name: X, type: staff}\nusers:\n  - {id: 1, email: nope, fullName: N, roles: [7]}\n"), 0o600)
	_, err = runWith(t, env, "roles", "import", file)
	if err == nil || !strings.Contains(err.Error(), `users[0]: "nope" is not an email address`) || !strings.Contains(err.Error(), "role 7 is not defined") {
		t.Errorf("bad file: %v", err)
	}
}

func TestBadConfigurationStopsWithTheVariable(t *testing.T) {
	_, err := runWith(t, map[string]string{"PORTICO_ADDR": "nope"}, "serve")
	if err == nil || !strings.Contains(err.Error(), "PORTICO_ADDR") {
		t.Errorf("err = %v", err)
	}
}
