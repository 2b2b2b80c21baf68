// Command mixed is the mixed-load benchmark of issue 15: list pages,
// record views, global search, creates and edits at 100 connections
// against real `portico serve` processes, in three configurations:
//
//   - sqlite: one instance on an SQLite file;
//   - postgres: one instance on PostgreSQL;
//   - postgres-3: three instances started at the same moment on the same
//     PostgreSQL database, behind a small round-robin reverse proxy the
//     benchmark runs itself (proxy.go).
//
// Each configuration runs two mixes for -duration each: read-only, and
// -write-percent writes (half creates of clients, project requests and
// opportunities; half edits of a project's name, read then saved with the
// version it was read at). The instances run standalone (no ERP), so the
// portal's database is the system of record and a write is done when it is
// stored. Every request carries a real session token (issued with the
// session signing key the instances share through the database) and a
// role header, as the app sends them; every create carries a unique
// Idempotency-Key.
//
// It prints, per configuration and mix, the requests a second, the p50 and
// p99 latency of all requests and of the writes alone, the errors by
// method and status (a 409 on an edit is two editors racing for one
// record, counted apart, not an error), and the writes acknowledged.
//
// Then, with the instances stopped, it reads the database directly and
// checks that every acknowledged write is stored exactly once:
//
//   - Creates: each create's first field (the record's title) is a marker
//     unique to the run, configuration, connection and attempt. Every
//     acknowledged create (a 201) must be stored exactly once, under the
//     kind and id its answer gave; none lost, none doubled. Creates that
//     were not acknowledged (an error answer, a broken connection) may be
//     stored zero times or once, and are reported apart.
//   - Edits: each edit sets the project's name to a unique marker and sends
//     the version it read. The records' versions form a chain, so the check
//     is: no two acknowledged edits of one record were based on the same
//     version (else one overwrote the other: a lost update); each
//     acknowledged edit is in the audit log exactly once (its marker as the
//     name's new value); and the record as stored has the name and version
//     of its newest acknowledged edit — unless the audit log shows a later
//     edit that was not acknowledged (its answer lost), reported apart.
//
// The reads are 40 % list pages (projects, clients, opportunities, project
// requests, budgets; sorted, filtered, text-searched), 35 % record views
// (some with a tab) and 25 % global searches, all within a project
// manager's role; an edit's read of the record counts as a read. Each
// connection signs in as one of three demo users. After the tables come
// the target for each configuration (the write mix keeps at least
// 50 % of the read-only req/s with p99 at most 250 ms) and notes: the first
// answer of each kind of error, the instances' logged errors, the proxy's
// retries and, on SQLite, the write-ahead log's peak size during each mix
// (the file sampled every 50 ms) and its size at the mix's end.
//
// Databases: the SQLite file is bench/out/mixed/portico.db; PostgreSQL is
// the database -database-url names (its name must start with
// portico_bench_mixed: the benchmark drops and recreates it). Each is
// seeded once per run with `portico seed -projects N` (N = 1000 is the
// demo seed, about 15k records) and removed at the end, or with -keep kept
// and reused by later runs while it holds N projects. The postgres and
// postgres-3 configurations share one database. The edits rename the
// first 50 projects.
//
//	go run ./bench/mixed [-only sqlite,postgres,postgres-3] [-duration 10s] [-conns 100]
//	                     [-projects 1000] [-write-percent 10] [-database-url postgres://...] [-keep]
//
// Run it from the repository's root: it builds ./cmd/portico (which needs
// web/dist) and keeps its files under bench/out/mixed, the instances' logs
// included.
package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/portico/portico/bench/internal/harness"
)

// options are the command line's flags.
type options struct {
	only         string
	duration     time.Duration
	conns        int
	projects     int
	writePercent int
	databaseURL  string
	keep         bool
}

// config is one way of running the product.
type config struct {
	name      string
	engine    string // sqlite or postgres
	instances int
}

var configs = []config{
	{"sqlite", "sqlite", 1},
	{"postgres", "postgres", 1},
	{"postgres-3", "postgres", 3},
}

// outDir holds the SQLite database and the instances' logs.
const outDir = "bench/out/mixed"

func main() {
	var o options
	flag.StringVar(&o.only, "only", "", "run only these configurations, comma-separated: sqlite, postgres, postgres-3")
	flag.DurationVar(&o.duration, "duration", 10*time.Second, "load per configuration and mix")
	flag.IntVar(&o.conns, "conns", 100, "concurrent connections")
	flag.IntVar(&o.projects, "projects", 1000, "projects in the database (1000: the demo seed, about 15k records)")
	flag.IntVar(&o.writePercent, "write-percent", 10, "writes in the write mix, percent of operations (half creates, half edits)")
	flag.StringVar(&o.databaseURL, "database-url", "postgres://postgres@127.0.0.1:5432/portico_bench_mixed",
		"PostgreSQL database for the postgres configurations (dropped and recreated; its name must start with portico_bench_mixed)")
	flag.BoolVar(&o.keep, "keep", false, "keep the seeded databases for later runs instead of removing them")
	flag.Parse()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, o); err != nil {
		fmt.Fprintln(os.Stderr, "bench/mixed:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, o options) error {
	chosen, err := choose(o.only)
	if err != nil {
		return err
	}
	if o.conns < 1 || o.projects < editPool || o.writePercent < 0 || o.writePercent > 100 {
		return fmt.Errorf("-conns must be positive, -projects at least %d, -write-percent 0 to 100", editPool)
	}
	if err := os.MkdirAll(outDir, 0o750); err != nil {
		return err
	}
	tmp, err := os.MkdirTemp("", "portico-bench-mixed-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	rev := harness.Revision()
	harness.Progress("building ./cmd/portico (%s)", rev)
	bin := filepath.Join(tmp, "portico")
	if out, err := exec.CommandContext(ctx, "go", "build", "-o", bin, "./cmd/portico").CombinedOutput(); err != nil {
		return fmt.Errorf("go build ./cmd/portico: %v\n%s", err, out)
	}
	dbs, err := prepareDatabases(ctx, bin, o, chosen)
	if !o.keep {
		defer func() {
			for _, d := range dbs {
				if err := d.Remove(context.WithoutCancel(ctx)); err != nil {
					harness.Progress("remove the %s database: %v", d.Engine, err)
				}
			}
		}()
	}
	if err != nil {
		return err
	}
	return measure(ctx, o, rev, bin, chosen, dbs)
}

// measure runs every chosen configuration and prints the tables.
func measure(ctx context.Context, o options, rev, bin string, chosen []config, dbs map[string]*database) error {
	runID := randomHex(3)
	fmt.Printf("\nMixed load: portico %s, %d projects, %d connections, %s per mix, %d%% writes; %s\n\n",
		rev, o.projects, o.conns, o.duration, o.writePercent, harness.DescribeMachine())
	printLoadHeader()
	var checks []checkRow
	var targets, notes []string
	for _, c := range chosen {
		res, err := runConfig(ctx, o, bin, c, dbs[c.engine], "Bench "+runID+" "+c.name+" ")
		notes = append(notes, res.notes...)
		if err != nil {
			printList("Notes:", notes)
			return err
		}
		checks = append(checks, res.check)
		if res.target != "" {
			targets = append(targets, res.target)
		}
	}
	printChecks(checks)
	printList("The write mix against the read-only one:", targets)
	printList("Notes:", notes)
	return nil
}

// choose returns the configurations -only names, all when empty.
func choose(only string) ([]config, error) {
	if only == "" {
		return configs, nil
	}
	var out []config
	for _, c := range configs {
		if slices.Contains(strings.Split(only, ","), c.name) {
			out = append(out, c)
		}
	}
	if len(out) == 0 {
		return nil, errors.New("-only: name sqlite, postgres or postgres-3")
	}
	return out, nil
}

func randomHex(n int) string {
	b := make([]byte, n)
	rand.Read(b)
	return hex.EncodeToString(b)
}
