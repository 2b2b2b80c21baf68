package main

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

	"github.com/portico/portico/internal/portal"
	"github.com/portico/portico/internal/session"
	"github.com/portico/portico/internal/sqlstore"
)

// tenant is the demo tenant `portico seed` fills.
const tenant portal.TenantID = "portico-demo"

// database is one engine's benchmark database.
type database struct {
	engine  string   // sqlite or postgres
	url     string   // PORTICO_DATABASE_URL for the instances
	driver  string   // the database/sql driver of the checks
	dsn     string   // and its data source name
	path    string   // sqlite: the file
	admin   string   // postgres: the maintenance database, to create and drop name
	name    string   // postgres: the database's name
	callers []caller // demo users signed in on it
}

// caller is a demo user signed in, in one of their roles.
type caller struct {
	token   string
	role    int64
	creates []string // the kinds the role may create
}

// demoCallers are the demo users the load signs in as (internal/demo's
// access.yaml): the administrator, who may create clients too, and two
// project managers.
var demoCallers = []struct {
	email   string
	role    int64
	creates []string
}{
	{"ada.admin@portico.test", 1001, []string{"customer", "projectrequest", "customrecord_res_opportunity"}},
	{"pete.pm@portico.test", 1002, []string{"projectrequest", "customrecord_res_opportunity"}},
	{"sam.sso@portico.test", 1002, []string{"projectrequest", "customrecord_res_opportunity"}},
}

// prepareDatabases seeds one database per engine the configurations use
// and signs the demo users in on it. The map holds every database created,
// also when an error stops the preparation, so the caller can remove them.
func prepareDatabases(ctx context.Context, bin string, o options, chosen []config) (map[string]*database, error) {
	dbs := map[string]*database{}
	for _, c := range chosen {
		if dbs[c.engine] != nil {
			continue
		}
		d, err := newDatabase(c.engine, o.databaseURL)
		if err != nil {
			return dbs, err
		}
		dbs[c.engine] = d
		if err := d.ensureSeeded(ctx, bin, o.projects); err != nil {
			return dbs, err
		}
		if d.callers, err = signIn(ctx, d); err != nil {
			return dbs, fmt.Errorf("%s: sign in: %w", d.engine, err)
		}
	}
	return dbs, nil
}

var benchDatabaseName = regexp.MustCompile(`^portico_bench_mixed[a-z0-9_]*$`)

func newDatabase(engine, pgURL string) (*database, error) {
	if engine == "sqlite" {
		path, err := filepath.Abs(filepath.Join(outDir, "portico.db"))
		if err != nil {
			return nil, err
		}
		return &database{engine: engine, url: "sqlite:" + path, driver: "sqlite", dsn: "file:" + path + "?_pragma=busy_timeout(10000)", path: path}, nil
	}
	u, err := url.Parse(pgURL)
	if err != nil {
		return nil, fmt.Errorf("-database-url: %w", err)
	}
	name := strings.TrimPrefix(u.Path, "/")
	if !benchDatabaseName.MatchString(name) {
		return nil, fmt.Errorf("-database-url: the database %q is dropped and recreated: its name must start with portico_bench_mixed (lower case, digits, _)", name)
	}
	admin := *u
	admin.Path = "/postgres"
	return &database{engine: engine, url: pgURL, driver: "pgx", dsn: pgURL, admin: admin.String(), name: name}, nil
}

// ensureSeeded keeps a database that holds the projects asked for (from an
// earlier run with -keep), else recreates and seeds it.
func (d *database) ensureSeeded(ctx context.Context, bin string, projects int) error {
	if n, err := d.countProjects(ctx); err == nil && n == projects {
		progress("%s: reusing the database seeded earlier (%d projects)", d.engine, n)
		return nil
	}
	if err := d.remove(ctx); err != nil {
		return err
	}
	if err := d.create(ctx); err != nil {
		return err
	}
	progress("%s: seeding %d projects ...", d.engine, projects)
	start := time.Now()
	cmd := exec.CommandContext(ctx, bin, "seed", "-projects", strconv.Itoa(projects))
	cmd.Env = append(cleanEnv(), "PORTICO_DATABASE_URL="+d.url, "PORTICO_DATA_DIR="+outDir)
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("seed %s: %v\n%s", d.engine, err, lastLines(string(out), 5))
	}
	progress("%s: seeded in %s", d.engine, time.Since(start).Round(time.Second))
	return nil
}

func (d *database) countProjects(ctx context.Context) (int, error) {
	if d.path != "" {
		if _, err := os.Stat(d.path); err != nil {
			return 0, err
		}
	}
	db, err := d.open()
	if err != nil {
		return 0, err
	}
	defer db.Close()
	var n int
	err = db.QueryRowContext(ctx, d.rebind(`SELECT COUNT(*) FROM records WHERE tenant_id = ? AND kind = 'project'`), string(tenant)).Scan(&n)
	return n, err
}

func (d *database) create(ctx context.Context) error {
	if d.path != "" {
		return nil
	}
	return d.adminExec(ctx, "CREATE DATABASE "+d.name)
}

// remove deletes the SQLite file or drops the PostgreSQL database.
func (d *database) remove(ctx context.Context) error {
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

func (d *database) adminExec(ctx context.Context, stmt string) error {
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

func (d *database) open() (*sql.DB, error) { return sql.Open(d.driver, d.dsn) }

// rebind turns a query's ? placeholders into PostgreSQL's $1, $2, ...
func (d *database) rebind(query string) string {
	if d.engine != "postgres" {
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

// signIn issues real session tokens for the demo users, with the signing
// key every instance reads from the same database.
func signIn(ctx context.Context, d *database) ([]caller, error) {
	store, err := sqlstore.Open(ctx, d.url, outDir)
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
	var out []caller
	for _, u := range demoCallers {
		user, err := store.Tenant(tenant).UserByEmail(ctx, u.email)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", u.email, err)
		}
		tokens, _, err := sessions.Issue(ctx, tenant, user.ID)
		if err != nil {
			return nil, err
		}
		out = append(out, caller{token: tokens.Access, role: u.role, creates: u.creates})
	}
	return out, nil
}

// lastLines is the end of a command's output, for an error message.
func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}
