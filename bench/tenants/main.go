// Command tenants is issue 39's benchmark of many companies on one
// deployment, in two parts.
//
// The fleet (fleet.go): -companies (50) companies, each with its own fake
// NetSuite account of about 20,000 records (-per-kind 1,400), connected
// with `portico netsuite connect -tenant`, half of them placed in a second
// database (-second-database-url; on another PostgreSQL server for a real
// spread), synced by three `portico serve` instances sharing both. It
// prints how long the first full pull of every company took, how the
// companies' sync leases spread over the instances, and the lag of changes
// made in random accounts (five a second for -duration) until the
// company's database has them.
//
// The flood: two companies on one `portico serve` on PostgreSQL, each with
// the demo (`portico seed -per-kind N`), the second at its own host name.
// A quiet user of the second company pages through its project list
// (-quiet workers, one request at a time each, -think apart: 40 requests a
// second at the defaults, within the company's request rate) for -duration
// alone, then again while -flood workers send the first company's
// heaviest reads as fast as they are answered (project lists filtered by
// text and sorted by a document field, and global searches). It prints the
// quiet company's list latency (p50, p99) alone and under the flood, and
// what the flood got (requests answered, refused with 429), in three
// configurations of the same server, -runs times in turn (the table gives
// the medians):
//
//   - budgets: the defaults (PORTICO_TENANT_*: a quarter of the database
//     pool's connections, an eighth of its time, for each company);
//   - half the pool's connections and time (on a 2-core machine two
//     requests at once, 2 s of database time a second: the defaults
//     before);
//   - no budgets: limits no flood reaches.
//
// Issue 39's target: the flooded neighbour's list p99 within 20 % of its
// quiet figure.
//
//	go run ./bench/tenants [-only fleet|flood] [-companies 50] [-interval 30s] [-per-kind 1400] [-duration 20s]
//	                       [-flood 32] [-quiet 2] [-runs 3] [-database-url postgres://...]
//	                       [-second-database-url postgres://...]
//
// Run it from the repository's root: it builds ./cmd/portico (which needs
// web/dist) and writes the servers' logs under bench/out/tenants. The
// databases -database-url and -second-database-url name are dropped and
// recreated (their names must start with portico_bench_tenants) and
// removed at the end.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"text/tabwriter"
	"time"

	"github.com/portico/portico/bench/internal/harness"
)

type options struct {
	perKind      int
	duration     time.Duration
	think        time.Duration
	flood, quiet int
	runs         int
	databaseURL  string
	secondURL    string
	companies    int
	interval     time.Duration
	only         string
	logLevel     string
}

const (
	outDir     = "bench/out/tenants"
	second     = "kestrel"
	secondHost = "kestrel.localhost"
)

func main() {
	var o options
	flag.IntVar(&o.perKind, "per-kind", 1400, "demo records of every kind per company (1,400: about 20,000 records)")
	flag.DurationVar(&o.duration, "duration", 20*time.Second, "how long each measurement runs")
	flag.IntVar(&o.flood, "flood", 32, "concurrent workers flooding the first company")
	flag.IntVar(&o.quiet, "quiet", 2, "the second company's users, one request at a time each")
	flag.IntVar(&o.runs, "runs", 3, "runs of every configuration, in turn; the table gives their medians")
	flag.DurationVar(&o.think, "think", 50*time.Millisecond, "a quiet user's pause between requests")
	flag.StringVar(&o.databaseURL, "database-url", "postgres://postgres@127.0.0.1:5432/portico_bench_tenants",
		"PostgreSQL database (dropped and recreated; its name must start with portico_bench_tenants)")
	flag.StringVar(&o.secondURL, "second-database-url", "postgres://postgres@127.0.0.1:5432/portico_bench_tenants_b",
		"the fleet's second database, where half the companies live; on another server for a real spread (e.g. a cluster on port 5433)")
	flag.IntVar(&o.companies, "companies", 50, "the fleet's companies")
	flag.DurationVar(&o.interval, "interval", 30*time.Second, "the fleet's sync interval (PORTICO_SYNC_INTERVAL)")
	flag.StringVar(&o.only, "only", "", "run only one part: flood or fleet")
	flag.StringVar(&o.logLevel, "log-level", "warn", "the fleet's instances' PORTICO_LOG_LEVEL (info: every pull and lease change)")
	flag.Parse()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, o); err != nil {
		fmt.Fprintln(os.Stderr, "bench/tenants:", err)
		os.Exit(1)
	}
}

// result is one configuration's figures.
type result struct {
	name                 string
	quiet, flooded       latencies
	floodOK, floodRefuse int64
	notes                []string
}

func run(ctx context.Context, o options) error {
	if o.perKind < 1 || o.duration <= 0 || o.flood < 1 || o.quiet < 1 || o.runs < 1 {
		return errors.New("-per-kind, -duration, -flood, -quiet and -runs must be positive")
	}
	dir, err := filepath.Abs(outDir)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o750); err != nil {
		return err
	}
	bin := filepath.Join(dir, "portico")
	harness.Progress("building ./cmd/portico ...")
	if out, err := exec.CommandContext(ctx, "go", "build", "-o", bin, "./cmd/portico").CombinedOutput(); err != nil {
		return fmt.Errorf("build: %v\n%s", err, out)
	}
	if o.only != "flood" {
		f, err := runFleet(ctx, o, bin, dir)
		if err != nil {
			return err
		}
		reportFleet(os.Stdout, o, f)
		if o.only == "fleet" {
			return nil
		}
	}
	d, err := harness.NewDatabase("postgres", o.databaseURL, dir, "portico_bench_tenants")
	if err != nil {
		return err
	}
	if err := d.Recreate(ctx); err != nil {
		return err
	}
	defer d.Remove(context.WithoutCancel(ctx))
	start := time.Now()
	harness.Progress("seeding two companies, %d records of every kind each ...", o.perKind)
	if err := d.Run(ctx, bin, nil, "tenants", "add", second, "-name", "Kestrel Consulting", "-host", secondHost); err != nil {
		return err
	}
	if err := d.Run(ctx, bin, []string{"PORTICO_DEFAULT_TENANT=" + second}, "seed", "-per-kind", fmt.Sprint(o.perKind)); err != nil {
		return err
	}
	if err := d.Seed(ctx, bin, "-per-kind", fmt.Sprint(o.perKind)); err != nil {
		return err
	}
	harness.Progress("seeded in %s", time.Since(start).Round(time.Second))
	first, err := harness.SignIn(ctx, d)
	if err != nil {
		return err
	}
	quiet, err := harness.SignInAt(ctx, d, second)
	if err != nil {
		return err
	}
	configs := []struct {
		name string
		env  []string
	}{
		{"budgets (defaults)", nil},
		{"half the pool (2 at once, 2 s/s)", []string{"PORTICO_TENANT_CONCURRENCY=2", "PORTICO_TENANT_DB_TIME=2s"}},
		{"no budgets", []string{"PORTICO_TENANT_CONCURRENCY=10000", "PORTICO_TENANT_RATE=0", "PORTICO_TENANT_DB_TIME=10000s"}},
	}
	results := make([][]result, len(configs))
	for run := range o.runs {
		for i, c := range configs {
			r, err := measure(ctx, o, bin, d, fmt.Sprintf("%s, run %d", c.name, run+1), c.env, first[0], quiet[0])
			if err != nil {
				return err
			}
			r.name = c.name
			results[i] = append(results[i], r)
		}
	}
	report(os.Stdout, o, results)
	return nil
}

// measure starts the server with env, measures the quiet company alone and
// under the flood, and stops it.
func measure(ctx context.Context, o options, bin string, d *harness.Database, name string, env []string, flooder, user harness.Caller) (result, error) {
	r := result{name: name}
	harness.Progress("%s: starting the server ...", name)
	all, err := harness.StartInstances(bin, d, "tenants", 1, env...)
	if err != nil {
		return r, err
	}
	in := all[0]
	defer harness.Stop(all)
	if err := in.WaitHealthy(ctx, time.Minute); err != nil {
		return r, fmt.Errorf("the server did not come up: %v (its log: %s)", err, in.Log)
	}
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: o.flood + o.quiet + 4}, Timeout: 30 * time.Second}
	quietList := func(i int) request { // the first page of the list, by one column or another
		sorts := []string{"sort=entityid", "sort=entityid&dir=desc", "sort=companyname", "sort=startdate&dir=desc"}
		return request{host: secondHost, caller: user, path: "/api/v1/netsuite/portal-list?type=project&pageSize=50&" + sorts[i%len(sorts)]}
	}
	// Warm up both companies' caches and plans.
	for i := range 20 {
		do(ctx, client, in.URL, quietList(i))
		do(ctx, client, in.URL, floodRequest(i, flooder))
	}
	harness.Progress("%s: the quiet company alone for %s ...", name, o.duration)
	r.quiet = drive(ctx, client, in.URL, o.quiet, o.duration, o.think, quietList)
	harness.Progress("%s: the same under a flood of %d workers ...", name, o.flood)
	floodCtx, stopFlood := context.WithCancel(ctx)
	var wg sync.WaitGroup
	var ok, refused atomic.Int64
	for w := range o.flood {
		wg.Go(func() {
			for i := w; floodCtx.Err() == nil; i += o.flood {
				switch code := do(floodCtx, client, in.URL, floodRequest(i, flooder)); {
				case code == 429 || code == 503:
					refused.Add(1)
					time.Sleep(50 * time.Millisecond) // a client that honours Retry-After a little
				case code == 200:
					ok.Add(1)
				}
			}
		})
	}
	time.Sleep(2 * time.Second) // the flood at full pressure first
	r.flooded = drive(ctx, client, in.URL, o.quiet, o.duration, o.think, quietList)
	stopFlood()
	wg.Wait()
	r.floodOK, r.floodRefuse = ok.Load(), refused.Load()
	if n := in.LogNote(300); n != "" {
		r.notes = append(r.notes, n)
	}
	return r, nil
}

// floodRequest is the flood's i-th request: a text-filtered project list
// sorted by a document field, or a global search.
func floodRequest(i int, c harness.Caller) request {
	words := []string{"cedar", "river", "creek", "farm", "restoration", "wetland", "basin", "bank"}
	w := words[i%len(words)]
	if i%2 == 0 {
		return request{caller: c, path: "/api/v1/netsuite/portal-list?type=project&pageSize=50&q=" + w + "&sort=custentity_res_county&dir=desc"}
	}
	return request{caller: c, path: "/api/v1/netsuite/portal?method=search&query=" + w}
}

// request is one GET of a caller at a host ("" for the server's own).
type request struct {
	host, path string
	caller     harness.Caller
}

// do sends r and returns its status (0 when it failed).
func do(ctx context.Context, client *http.Client, base string, r request) int {
	req, err := http.NewRequestWithContext(ctx, "GET", base+r.path, nil)
	if err != nil {
		return 0
	}
	if r.host != "" {
		req.Host = r.host
	}
	req.Header.Set("Authorization", "Bearer "+r.caller.Token)
	req.Header.Set("X-Role-Id", fmt.Sprint(r.caller.Role))
	resp, err := client.Do(req)
	if err != nil {
		return 0
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp.StatusCode
}

// latencies are one measurement's successful requests' times, and its
// failures.
type latencies struct {
	times  []time.Duration
	failed int
}

func (l latencies) pct(p float64) time.Duration {
	if len(l.times) == 0 {
		return 0
	}
	s := slices.Clone(l.times)
	slices.Sort(s)
	return s[min(len(s)-1, int(float64(len(s))*p))]
}

// drive runs workers, each sending next(i) one after another, think
// apart, for d.
func drive(ctx context.Context, client *http.Client, base string, workers int, d, think time.Duration, next func(int) request) latencies {
	var mu sync.Mutex
	var out latencies
	end := time.Now().Add(d)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for i := w; time.Now().Before(end) && ctx.Err() == nil; i += workers {
				start := time.Now()
				code := do(ctx, client, base, next(i))
				took := time.Since(start)
				mu.Lock()
				if code == 200 {
					out.times = append(out.times, took)
				} else {
					out.failed++
				}
				mu.Unlock()
				time.Sleep(think)
			}
		})
	}
	wg.Wait()
	return out
}

// median is the middle of xs (the lower middle of an even count).
func median[T int64 | float64 | time.Duration](xs []T) T {
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[(len(s)-1)/2]
}

// of is f of each run.
func of[T any](runs []result, f func(result) T) []T {
	out := make([]T, len(runs))
	for i, r := range runs {
		out[i] = f(r)
	}
	return out
}

func report(w io.Writer, o options, results [][]result) {
	fmt.Fprintf(w, "\nTwo companies on one instance, PostgreSQL, %d demo records of every kind each; %s; %s\n",
		o.perKind, harness.DescribeMachine(), harness.Revision())
	fmt.Fprintf(w, "The quiet company: %d users paging its project list, %s apart; the flood: %d workers of the other company (text lists sorted by a document field, global search), %s each; medians of %d runs\n\n",
		o.quiet, o.think, o.flood, o.duration, o.runs)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "configuration\tquiet p50\tquiet p99\tflooded p50\tflooded p99\tp99 ratio\tquiet lists\tfailed\tflood answered\tflood refused\t")
	for _, runs := range results {
		ratio := median(of(runs, func(r result) float64 {
			if q := r.quiet.pct(0.99); q > 0 {
				return float64(r.flooded.pct(0.99)) / float64(q)
			}
			return 0
		}))
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%.2f\t%d / %d\t%d\t%d\t%d\t\n", runs[0].name,
			ms(median(of(runs, func(r result) time.Duration { return r.quiet.pct(0.5) }))),
			ms(median(of(runs, func(r result) time.Duration { return r.quiet.pct(0.99) }))),
			ms(median(of(runs, func(r result) time.Duration { return r.flooded.pct(0.5) }))),
			ms(median(of(runs, func(r result) time.Duration { return r.flooded.pct(0.99) }))), ratio,
			median(of(runs, func(r result) int64 { return int64(len(r.quiet.times)) })),
			median(of(runs, func(r result) int64 { return int64(len(r.flooded.times)) })),
			median(of(runs, func(r result) int64 { return int64(r.quiet.failed + r.flooded.failed) })),
			median(of(runs, func(r result) int64 { return r.floodOK })), median(of(runs, func(r result) int64 { return r.floodRefuse })))
	}
	tw.Flush()
	for _, runs := range results {
		for _, r := range runs {
			for _, n := range r.notes {
				fmt.Fprintf(w, "%s: %s\n", r.name, strings.TrimSpace(n))
			}
		}
	}
}

func ms(d time.Duration) string { return fmt.Sprintf("%.1f ms", float64(d.Microseconds())/1000) }
