package harness

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/portico/portico/internal/demo"
	"github.com/portico/portico/internal/portal"
	"github.com/portico/portico/internal/session"
	"github.com/portico/portico/internal/sqlstore"
)

// Tenant is the demo tenant `portico seed` fills.
const Tenant portal.TenantID = "portico-demo"

// Database is one engine's benchmark database: an SQLite file under the
// program's output directory, or a PostgreSQL database the program may
// drop and recreate. Its fields are set by NewDatabase and read-only after.
type Database struct {
	Engine  string // sqlite or postgres
	URL     string // PORTICO_DATABASE_URL for the portico processes
	Driver  string // the database/sql driver for Open
	DSN     string // and its data source name
	DataDir string // PORTICO_DATA_DIR for the portico processes; their logs go here too
	path    string // sqlite: the file
	admin   string // postgres: the maintenance database, to create and drop name
	name    string // postgres: the database's name
}

// NewDatabase describes the database for engine ("sqlite" or "postgres");
// it touches nothing. SQLite's is dataDir/portico.db. PostgreSQL's is the
// one pgURL names, which must start with prefix (lower case, digits and _
// after it), since Recreate and Remove drop it; an error names the
// -database-url flag.
func NewDatabase(engine, pgURL, dataDir, prefix string) (*Database, error) {
	if engine == "sqlite" {
		path, err := filepath.Abs(filepath.Join(dataDir, "portico.db"))
		if err != nil {
			return nil, err
		}
		return &Database{Engine: engine, URL: "sqlite:" + path, Driver: "sqlite", DSN: "file:" + path + "?_pragma=busy_timeout(10000)",
			DataDir: dataDir, path: path}, nil
	}
	u, err := url.Parse(pgURL)
	if err != nil {
		return nil, fmt.Errorf("-database-url: %w", err)
	}
	name := strings.TrimPrefix(u.Path, "/")
	if !regexp.MustCompile(`^` + regexp.QuoteMeta(prefix) + `[a-z0-9_]*$`).MatchString(name) {
		return nil, fmt.Errorf("-database-url: the database %q is dropped and recreated: its name must start with %s (lower case, digits, _)", name, prefix)
	}
	admin := *u
	admin.Path = "/postgres"
	return &Database{Engine: engine, URL: pgURL, Driver: "pgx", DSN: pgURL, DataDir: dataDir, admin: admin.String(), name: name}, nil
}

// Recreate removes the database and creates it empty (SQLite: removes the
// file only; the first process to open it creates it).
func (d *Database) Recreate(ctx context.Context) error {
	if err := d.Remove(ctx); err != nil {
		return err
	}
	if d.path != "" {
		return nil
	}
	return d.adminExec(ctx, "CREATE DATABASE "+d.name)
}

// Seed runs `bin seed args...` on the database (after Recreate) and, when
// it fails, returns the end of its output with the error.
func (d *Database) Seed(ctx context.Context, bin string, args ...string) error {
	return d.Run(ctx, bin, nil, append([]string{"seed"}, args...)...)
}

// Run runs `bin args...` on the database with env added, and when it
// fails returns the end of its output with the error.
func (d *Database) Run(ctx context.Context, bin string, env []string, args ...string) error {
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Env = append(append(CleanEnv(), "PORTICO_DATABASE_URL="+d.URL, "PORTICO_DATA_DIR="+d.DataDir), env...)
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("%s %s: %v\n%s", args[0], d.Engine, err, lastLines(string(out), 5))
	}
	return nil
}

// Exists reports whether the SQLite file is there; a PostgreSQL database
// is taken to exist (opening it fails when it does not).
func (d *Database) Exists() bool {
	if d.path == "" {
		return true
	}
	_, err := os.Stat(d.path)
	return err == nil
}

// Remove deletes the SQLite file (and its -wal and -shm) or drops the
// PostgreSQL database, closing its connections. Removing a database that
// is not there is no error.
func (d *Database) Remove(ctx context.Context) error {
	if d.path == "" {
		return d.adminExec(ctx, "DROP DATABASE IF EXISTS "+d.name+" WITH (FORCE)")
	}
	for _, suffix := range []string{"", "-wal", "-shm"} {
		if err := os.Remove(d.path + suffix); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	}
	return nil
}

// adminExec runs stmt on PostgreSQL's maintenance database.
func (d *Database) adminExec(ctx context.Context, stmt string) error {
	db, err := sql.Open("pgx", d.admin)
	if err != nil {
		return err
	}
	defer db.Close()
	if _, err := db.ExecContext(ctx, stmt); err != nil {
		return fmt.Errorf("%s: %w", stmt, err)
	}
	return nil
}

// Open opens the database directly (for checks); the caller closes it.
func (d *Database) Open() (*sql.DB, error) { return sql.Open(d.Driver, d.DSN) }

// Rebind turns a query's ? placeholders into PostgreSQL's $1, $2, ... on
// PostgreSQL, and returns it unchanged on SQLite. It does not skip ?s
// inside string literals.
func (d *Database) Rebind(query string) string {
	if d.Engine != "postgres" {
		return query
	}
	var b strings.Builder
	n := 0
	for _, r := range query {
		if r == '?' {
			n++
			b.WriteString("$" + strconv.Itoa(n))
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// Caller is a demo user signed in, in one of their roles.
type Caller struct {
	Email   string
	Token   string   // an access token, valid for 2 hours
	Role    int64    // for the X-Role-Id header
	Creates []string // the record kinds the role may create
}

// demoCallers are the demo users SignIn signs in (internal/demo's
// access.yaml): the administrator, who may create clients too, and two
// project managers; every one of them may see projects.
var demoCallers = []Caller{
	{Email: "ada.admin@portico.test", Role: 1001, Creates: []string{"customer", "projectrequest", "customrecord_res_opportunity"}},
	{Email: "pete.pm@portico.test", Role: 1002, Creates: []string{"projectrequest", "customrecord_res_opportunity"}},
	{Email: "sam.sso@portico.test", Role: 1002, Creates: []string{"projectrequest", "customrecord_res_opportunity"}},
}

// SignIn issues real session tokens for the demo users of a seeded
// database, in the order above (administrator, then the two project
// managers). The tokens are signed with the key the database holds, which
// every portico process on it reads, so any of them accepts them. It
// leaves the schema as it finds it: the processes may be of another
// release.
func SignIn(ctx context.Context, d *Database) ([]Caller, error) {
	return SignInAt(ctx, d, Tenant)
}

// SignInAt is SignIn for another tenant seeded with the demo access file
// (`PORTICO_DEFAULT_TENANT=T portico seed`).
func SignInAt(ctx context.Context, d *Database, tenant portal.TenantID) ([]Caller, error) {
	store, err := sqlstore.OpenExisting(ctx, d.URL, d.DataDir)
	if err != nil {
		return nil, err
	}
	defer store.Close()
	key, err := store.Secret(ctx, "session-signing-key", 32)
	if err != nil {
		return nil, err
	}
	sessions := session.NewManager(func(t portal.TenantID) session.Store { return store.Tenant(t) }, session.Options{
		Key: key, AccessTTL: 2 * time.Hour, RefreshTTL: 2 * time.Hour, MaxAge: 2 * time.Hour,
	})
	var out []Caller
	// The users' ids are the demo access file's: reading them from the
	// database would read their roles as this tree's schema has them.
	ids := map[string]int64{}
	for _, u := range demo.Access().Users {
		ids[u.Email] = u.ID
	}
	for _, u := range demoCallers {
		id, ok := ids[u.Email]
		if !ok {
			return nil, fmt.Errorf("%s is not a demo user", u.Email)
		}
		tokens, _, err := sessions.Issue(ctx, tenant, id)
		if err != nil {
			return nil, err
		}
		u.Token = tokens.Access
		out = append(out, u)
	}
	return out, nil
}
