package main

import (
	"bufio"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"time"

	"github.com/portico/portico/internal/portal"
	"github.com/portico/portico/internal/session"
	"github.com/portico/portico/internal/sqlstore"
)

// tenant is the demo tenant `portico seed` fills.
const tenant portal.TenantID = "portico-demo"

// database is one configuration's database.
type database struct {
	engine string // sqlite or postgres
	url    string // PORTICO_DATABASE_URL
	path   string // sqlite: the file
	admin  string // postgres: the maintenance database
	name   string // postgres: the database's name
}

// caller is a demo user signed in, in one of their roles.
type caller struct {
	token string
	role  int64
}

// demoCallers are the users the streams sign in as (internal/demo's
// access.yaml): the administrator and two project managers, every one of
// whom may see projects; the editor is the first project manager.
var demoCallers = []struct {
	email string
	role  int64
}{
	{"ada.admin@portico.test", 1001},
	{"pete.pm@portico.test", 1002},
	{"sam.sso@portico.test", 1002},
}

var benchDatabaseName = regexp.MustCompile(`^portico_bench_events[a-z0-9_]*$`)

func newDatabase(engine, pgURL string) (*database, error) {
	if engine == "sqlite" {
		path, err := filepath.Abs(filepath.Join(outDir, "portico.db"))
		if err != nil {
			return nil, err
		}
		return &database{engine: engine, url: "sqlite:" + path, path: path}, nil
	}
	u, err := url.Parse(pgURL)
	if err != nil {
		return nil, fmt.Errorf("-database-url: %w", err)
	}
	name := strings.TrimPrefix(u.Path, "/")
	if !benchDatabaseName.MatchString(name) {
		return nil, fmt.Errorf("-database-url: the database %q is dropped and recreated: its name must start with portico_bench_events (lower case, digits, _)", name)
	}
	admin := *u
	admin.Path = "/postgres"
	return &database{engine: engine, url: pgURL, admin: admin.String(), name: name}, nil
}

// seed recreates the database with the demo data.
func (d *database) seed(ctx context.Context, bin string) error {
	if err := d.remove(ctx); err != nil {
		return err
	}
	if d.path == "" {
		if err := d.adminExec(ctx, "CREATE DATABASE "+d.name); err != nil {
			return err
		}
	}
	progress("%s: seeding the demo ...", d.engine)
	cmd := exec.CommandContext(ctx, bin, "seed")
	cmd.Env = append(cleanEnv(), "PORTICO_DATABASE_URL="+d.url, "PORTICO_DATA_DIR="+outDir)
	if out, err := cmd.CombinedOutput(); err != nil {
		lines := strings.Split(strings.TrimSpace(string(out)), "\n")
		return fmt.Errorf("seed %s: %v\n%s", d.engine, err, strings.Join(lines[max(0, len(lines)-5):], "\n"))
	}
	return nil
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
		out = append(out, caller{token: tokens.Access, role: u.role})
	}
	return out, nil
}

// instance is one `portico serve` process.
type instance struct {
	name   string
	addr   string
	log    string
	cmd    *exec.Cmd
	exited chan struct{}
	err    error // how it exited, once exited is closed
}

// startInstances starts c.instances processes on d and waits for their
// health checks.
func startInstances(ctx context.Context, bin string, d *database, c config) ([]*instance, error) {
	var all []*instance
	for i := range c.instances {
		addr, err := freeAddr()
		if err != nil {
			stopInstances(all)
			return nil, err
		}
		name := fmt.Sprintf("%s-%d", c.name, i+1)
		in := &instance{name: name, addr: addr, log: filepath.Join(outDir, name+".log"), exited: make(chan struct{})}
		f, err := os.Create(in.log)
		if err != nil {
			stopInstances(all)
			return nil, err
		}
		in.cmd = exec.Command(bin, "serve")
		in.cmd.Env = append(cleanEnv(), "PORTICO_DATABASE_URL="+d.url, "PORTICO_DATA_DIR="+outDir, "PORTICO_ADDR="+addr,
			"PORTICO_LOG_LEVEL=warn", "PORTICO_INSTANCE="+name)
		in.cmd.Stdout, in.cmd.Stderr = f, f
		if err := in.cmd.Start(); err != nil {
			f.Close()
			stopInstances(all)
			return nil, err
		}
		go func() {
			in.err = in.cmd.Wait()
			f.Close()
			close(in.exited)
		}()
		all = append(all, in)
	}
	for _, in := range all {
		if err := in.waitHealthy(ctx, time.Minute); err != nil {
			stopInstances(all)
			return nil, fmt.Errorf("%s did not come up: %v (its log: %s)", in.name, err, in.log)
		}
	}
	return all, nil
}

func (in *instance) waitHealthy(ctx context.Context, limit time.Duration) error {
	deadline := time.Now().Add(limit)
	for time.Now().Before(deadline) {
		select {
		case <-in.exited:
			return fmt.Errorf("exited: %v", in.err)
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
		resp, err := http.Get("http://" + in.addr + "/api/v1/health")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
			}
		}
	}
	return errors.New("no healthy answer within " + limit.String())
}

// stopInstances ends the processes (SIGTERM, a kill after 20 s) and waits.
func stopInstances(all []*instance) {
	for _, in := range all {
		in.cmd.Process.Signal(syscall.SIGTERM)
	}
	for _, in := range all {
		select {
		case <-in.exited:
		case <-time.After(20 * time.Second):
			in.cmd.Process.Kill()
			<-in.exited
		}
	}
}

// instanceNotes reports failed exits and logged warnings and errors.
func instanceNotes(all []*instance) []string {
	var out []string
	for _, in := range all {
		if in.err != nil && !strings.Contains(in.err.Error(), "terminated") {
			out = append(out, fmt.Sprintf("%s exited: %v", in.name, in.err))
		}
		f, err := os.Open(in.log)
		if err != nil {
			continue
		}
		var warns, errs int
		var first string
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			switch line := sc.Text(); {
			case strings.Contains(line, "level=ERROR"):
				if errs++; first == "" {
					first = line
				}
			case strings.Contains(line, "level=WARN"):
				warns++
			}
		}
		f.Close()
		if warns+errs > 0 {
			note := fmt.Sprintf("%s logged %d errors and %d warnings (%s)", in.name, errs, warns, in.log)
			if first != "" {
				note += "; the first error: " + truncate(first, 300)
			}
			out = append(out, note)
		}
	}
	return out
}

// cleanEnv is this process's environment without PORTICO_* variables.
func cleanEnv() []string {
	var out []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "PORTICO_") {
			out = append(out, kv)
		}
	}
	return out
}

func freeAddr() (string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer ln.Close()
	return ln.Addr().String(), nil
}
