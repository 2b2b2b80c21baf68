// Command events is the live-update benchmark of issue 18: -clients
// (1,000) server-sent event streams held open on real `portico serve`
// processes while one edit a second is made, in two configurations:
//
//   - sqlite: one instance on an SQLite file (events in-process);
//   - postgres-3: three instances on one PostgreSQL database (events
//     between them through LISTEN/NOTIFY). The streams are spread over
//     the three instances directly (stream i on instance i mod 3) and
//     every edit is made on the first, so two thirds of the deliveries
//     cross an instance.
//
// The streams (GET /api/v1/events) are held by this process with a small
// HTTP/1.1 client of its own, signed in as three demo users in turn with
// real session tokens (issued with the signing key the instances share
// through the database). An editor renames one project a second (a read of
// its version, then the PUT the app sends) and notes when it sent each
// PUT; every stream notes when the record event naming that project
// arrived. It prints, per configuration:
//
//   - delivery: p50, p99 and max from sending the write to the event's
//     arrival, over every (stream, acknowledged edit) pair; on postgres-3
//     also over the pairs that crossed an instance; and the pairs missed
//     (no event within 5 s after the last edit);
//   - memory: the instances' resident set (VmRSS) before the streams
//     connected and with all of them connected and idle, and the growth
//     divided by the streams;
//   - CPU: the instances' CPU time (utime+stime) over the edits, as a
//     percentage of one core; on 3 instances the sum.
//
// Targets (issue 18): p99 at most 1 s with 1,000 clients, at most 64 KB per
// idle connection. The process raises its own open-file limit to the hard
// limit (each stream is one descriptor here and one in an instance).
//
// Databases: bench/out/events/portico.db, and the PostgreSQL database
// -database-url names (its name must start with portico_bench_events: it is
// dropped and recreated); each seeded with the demo (`portico seed`) and
// removed at the end.
//
//	go run ./bench/events [-only sqlite,postgres-3] [-clients 1000] [-duration 20s]
//	                      [-edits-per-second 1] [-database-url postgres://...]
//
// Run it from the repository's root: it builds ./cmd/portico (which needs
// web/dist) and writes the instances' logs under bench/out/events.
package main

import (
	"context"
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

type options struct {
	only        string
	clients     int
	duration    time.Duration
	rate        float64
	databaseURL string
}

type config struct {
	name      string
	engine    string
	instances int
}

var configs = []config{{"sqlite", "sqlite", 1}, {"postgres-3", "postgres", 3}}

const outDir = "bench/out/events"

func main() {
	var o options
	flag.StringVar(&o.only, "only", "", "run only these configurations, comma-separated: sqlite, postgres-3")
	flag.IntVar(&o.clients, "clients", 1000, "event streams held open")
	flag.DurationVar(&o.duration, "duration", 20*time.Second, "how long the edits go on per configuration")
	flag.Float64Var(&o.rate, "edits-per-second", 1, "edits a second")
	flag.StringVar(&o.databaseURL, "database-url", "postgres://postgres@127.0.0.1:5432/portico_bench_events",
		"PostgreSQL database for postgres-3 (dropped and recreated; its name must start with portico_bench_events)")
	flag.Parse()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, o); err != nil {
		fmt.Fprintln(os.Stderr, "bench/events:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, o options) error {
	var chosen []config
	for _, c := range configs {
		if o.only == "" || slices.Contains(strings.Split(o.only, ","), c.name) {
			chosen = append(chosen, c)
		}
	}
	if len(chosen) == 0 {
		return errors.New("-only: name sqlite or postgres-3")
	}
	if o.clients < 1 || o.rate <= 0 || o.duration <= 0 {
		return errors.New("-clients, -edits-per-second and -duration must be positive")
	}
	if edits := int(o.duration.Seconds()*o.rate) + 1; edits > editPool {
		return fmt.Errorf("-duration × -edits-per-second makes %d edits; at most %d (one per project)", edits, editPool)
	}
	files := raiseFileLimit()
	if err := os.MkdirAll(outDir, 0o750); err != nil {
		return err
	}
	tmp, err := os.MkdirTemp("", "portico-bench-events-")
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
	var results []*result
	var notes []string
	for _, c := range chosen {
		res, err := runConfig(ctx, o, bin, c)
		if res != nil {
			results = append(results, res)
			notes = append(notes, res.notes...)
		}
		if err != nil {
			report(o, rev, files, results, notes)
			return err
		}
	}
	report(o, rev, files, results, notes)
	return nil
}

// runConfig prepares c's database, starts its instances, connects the
// streams, measures, and removes the database again.
func runConfig(ctx context.Context, o options, bin string, c config) (*result, error) {
	d, err := harness.NewDatabase(c.engine, o.databaseURL, outDir, "portico_bench_events")
	if err != nil {
		return nil, err
	}
	defer func() {
		if err := d.Remove(context.WithoutCancel(ctx)); err != nil {
			harness.Progress("remove the %s database: %v", c.engine, err)
		}
	}()
	if err := seed(ctx, d, bin); err != nil {
		return nil, err
	}
	callers, err := harness.SignIn(ctx, d)
	if err != nil {
		return nil, fmt.Errorf("%s: sign in: %w", c.name, err)
	}
	harness.Progress("%s: starting %d instance(s)", c.name, c.instances)
	instances, err := startInstances(ctx, bin, d, c)
	if err != nil {
		return nil, err
	}
	res, err := measure(ctx, o, c, instances, callers)
	harness.Stop(instances)
	if res != nil {
		res.notes = append(res.notes, instanceNotes(instances)...)
	}
	return res, err
}

// raiseFileLimit lifts this process's open-file limit to its hard limit
// (the streams are one descriptor each here) and says what it is.
func raiseFileLimit() string {
	var l syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &l); err != nil {
		return "open files: unknown"
	}
	was := l.Cur
	if l.Cur < l.Max {
		l.Cur = l.Max
		if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &l); err != nil {
			return fmt.Sprintf("open files: %d (raising to %d failed: %v)", was, l.Max, err)
		}
	}
	if was == l.Cur {
		return fmt.Sprintf("open files: %d", l.Cur)
	}
	return fmt.Sprintf("open files: %d, raised from %d", l.Cur, was)
}
