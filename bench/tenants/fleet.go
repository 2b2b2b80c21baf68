package main

import (
	"context"
	"fmt"
	"io"
	"maps"
	"math/rand/v2"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"text/tabwriter"
	"time"

	"github.com/portico/portico/bench/internal/harness"
	"github.com/portico/portico/internal/demo"
	"github.com/portico/portico/internal/erp/netsuite"
	"github.com/portico/portico/internal/erp/netsuitetest"
	"github.com/portico/portico/internal/portal"
	"github.com/portico/portico/internal/records"
	"github.com/portico/portico/internal/secretbox"
	"github.com/portico/portico/internal/sqlstore"
)

// The fleet part: -companies companies, each with its own fake NetSuite
// account of about 20,000 records (-per-kind), connected with `portico
// netsuite connect -tenant`, half of them placed in a second database
// (-second-database-url, PORTICO_TENANT_DATABASES), synced by three
// `portico serve` instances sharing both databases. It measures how long
// the first full pull of every company takes, how the companies' leases
// spread over the instances, and then, for -duration, the lag of changes
// made in random accounts (five a second) until the company's database
// has them: the sync keeps up when that lag stays near the interval.

// fleetResult is the fleet part's figures.
type fleetResult struct {
	companies, records int
	firstPull          time.Duration // until every company had every project and client
	firstPulls         []time.Duration
	leases             map[string]int // instance → leases held
	lags               []time.Duration
	missed             int
	notes              []string
}

func runFleet(ctx context.Context, o options, bin string, dir string) (fleetResult, error) {
	var r fleetResult
	mainDB, err := harness.NewDatabase("postgres", o.databaseURL, dir, "portico_bench_tenants")
	if err != nil {
		return r, err
	}
	second, err := harness.NewDatabase("postgres", o.secondURL, dir, "portico_bench_tenants")
	if err != nil {
		return r, fmt.Errorf("-second-database-url: %w", err)
	}
	for _, d := range []*harness.Database{mainDB, second} {
		if err := d.Recreate(ctx); err != nil {
			return r, err
		}
		defer d.Remove(context.WithoutCancel(ctx))
	}
	harness.Progress("fleet: %d fake accounts of %d records of every kind ...", o.companies, o.perKind)
	fakes := make([]*netsuitetest.Server, o.companies)
	urls := make([]string, o.companies)
	var wg sync.WaitGroup
	errs := make([]error, o.companies)
	sem := make(chan struct{}, 2)
	for i := range o.companies {
		wg.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			f, err := netsuitetest.New(netsuitetest.Config{TBA: &netsuitetest.TBAVerifier{Realm: netsuite.Realm("123456_SB1"),
				Lookup: func(ck, tid string) (string, string, bool) { return "cs", "ts", ck == "ck" && tid == "tid" }}})
			if err == nil {
				_, err = demo.Generate(ctx, f, demo.Options{PerKind: o.perKind, Seed: uint64(i + 1)})
			}
			fakes[i], errs[i] = f, err
		})
	}
	wg.Wait()
	for i, f := range fakes {
		if errs[i] != nil {
			return r, errs[i]
		}
		srv := httptest.NewServer(f)
		defer srv.Close()
		urls[i] = srv.URL
		for _, k := range records.All() {
			r.records += f.Count(k.ERPType)
		}
	}
	r.companies = len(fakes)
	tenant := func(i int) portal.TenantID { return portal.TenantID(fmt.Sprintf("company-%02d", i+1)) }
	keys := "PORTICO_SECRET_KEYS=" + secretbox.NewKey()
	harness.Progress("fleet: adding and connecting %d companies ...", o.companies)
	if err := mainDB.Run(ctx, bin, nil, "migrate"); err != nil {
		return r, err
	}
	var placed []string
	for i := range fakes {
		t := string(tenant(i))
		if err := mainDB.Run(ctx, bin, nil, "tenants", "add", t, "-name", "Company "+t, "-host", t+".localhost"); err != nil {
			return r, err
		}
		env := []string{keys, "PORTICO_NETSUITE_ACCOUNT=123456_SB1", "PORTICO_NETSUITE_BASE_URL=" + urls[i], "PORTICO_NETSUITE_AUTH=tba",
			"PORTICO_NETSUITE_CONSUMER_KEY=ck", "PORTICO_NETSUITE_CONSUMER_SECRET=cs", "PORTICO_NETSUITE_TOKEN_ID=tid", "PORTICO_NETSUITE_TOKEN_SECRET=ts"}
		if err := mainDB.Run(ctx, bin, env, "netsuite", "connect", "-tenant", t); err != nil {
			return r, err
		}
		if i%2 == 1 {
			placed = append(placed, t+"="+second.URL)
		}
	}
	harness.Progress("fleet: three instances sync them all ...")
	start := time.Now()
	all, err := harness.StartInstances(bin, mainDB, "fleet", 3, keys, "PORTICO_SYNC_INTERVAL="+o.interval.String(), "PORTICO_LOG_LEVEL="+o.logLevel,
		"PORTICO_TENANT_DATABASES="+strings.Join(placed, " "))
	if err != nil {
		return r, err
	}
	defer harness.Stop(all)
	for _, in := range all {
		if err := in.WaitHealthy(ctx, 2*time.Minute); err != nil {
			return r, fmt.Errorf("%s did not come up: %v (its log: %s)", in.Name, err, in.Log)
		}
	}
	stores := map[string]*sqlstore.Store{}
	for _, d := range []*harness.Database{mainDB, second} {
		st, err := sqlstore.OpenExisting(ctx, d.URL, d.DataDir)
		if err != nil {
			return r, err
		}
		defer st.Close()
		stores[d.URL] = st
	}
	storeOf := func(i int) *sqlstore.Tenant {
		if i%2 == 1 {
			return stores[second.URL].Tenant(tenant(i))
		}
		return stores[mainDB.URL].Tenant(tenant(i))
	}
	// The first pull: every company's every kind.
	done := make([]time.Duration, len(fakes))
	for left := len(fakes); left > 0; {
		if time.Since(start) > 15*time.Minute || ctx.Err() != nil {
			return r, fmt.Errorf("fleet: %d companies not pulled within 15 minutes", left)
		}
		time.Sleep(time.Second)
		for i, f := range fakes {
			if done[i] != 0 {
				continue
			}
			// Every kind pulled once, and projects and clients all there.
			states, err := storeOf(i).SyncStates(ctx)
			whole := err == nil && len(states) == len(records.All())
			for _, st := range states {
				if st.LastSuccess.IsZero() && st.Unavailable == "" {
					whole = false
				}
			}
			for _, kind := range []string{"project", "customer"} {
				k, _ := records.Lookup(kind)
				n, err := storeOf(i).CountMatching(ctx, records.ListQuery{Kind: kind})
				if err != nil || int(n) != f.Count(k.ERPType) {
					whole = false
				}
			}
			if whole {
				done[i], left = time.Since(start), left-1
			}
		}
	}
	r.firstPulls, r.firstPull = done, slices.Max(done)
	harness.Progress("fleet: all pulled in %s; now changes in random accounts for %s ...", r.firstPull.Round(time.Second), o.duration)

	// Steady state: five changes a second in random accounts, each looked
	// for in its company's database every 100 ms from the moment it is made
	// (a change not there 3 intervals after the last is missed).
	type change struct {
		i    int
		id   int64
		name string
		at   time.Time
	}
	var (
		changes []change
		seen    []time.Duration
		pending int
		next    time.Time
	)
	changed := map[[2]int64]bool{}
	rng := rand.New(rand.NewPCG(1, 2))
	end := time.Now().Add(o.duration)
	deadline := end.Add(3 * o.interval)
	for n := 0; ; time.Sleep(100 * time.Millisecond) {
		now := time.Now()
		if now.Before(end) && !now.Before(next) {
			// A project changed once only: a second change of it would hide the first.
			i := rng.IntN(len(fakes))
			jobs := fakes[i].All("job")
			id := jobs[rng.IntN(len(jobs))].ID
			if !changed[[2]int64{int64(i), id}] {
				changed[[2]int64{int64(i), id}] = true
				name := fmt.Sprintf("Fleet change %d", n)
				n++
				if err := fakes[i].Update("job", id, map[string]any{"companyname": name}); err != nil {
					return r, err
				}
				changes, seen = append(changes, change{i, id, name, time.Now()}), append(seen, 0)
				next = now.Add(200 * time.Millisecond)
			}
		}
		pending = 0
		for j, c := range changes {
			if seen[j] != 0 {
				continue
			}
			if rec, err := storeOf(c.i).Record(ctx, "project", c.id); err == nil && rec.Title == c.name {
				seen[j] = time.Since(c.at)
			} else {
				pending++
			}
		}
		if now.After(end) && (pending == 0 || now.After(deadline)) || ctx.Err() != nil {
			break
		}
	}
	for _, s := range seen {
		if s == 0 {
			r.missed++
		} else {
			r.lags = append(r.lags, s)
		}
	}
	r.leases = map[string]int{}
	for _, d := range []*harness.Database{mainDB, second} {
		if err := countLeases(ctx, d, r.leases); err != nil {
			return r, err
		}
	}
	for _, in := range all {
		if n := in.LogNote(300); n != "" {
			r.notes = append(r.notes, n)
		}
	}
	return r, nil
}

func reportFleet(w io.Writer, o options, r fleetResult) {
	fmt.Fprintf(w, "\n%d companies, %d records in all (%d of every kind each), each its own fake NetSuite account; half in a second database; three instances on both; sync interval %s\n\n",
		r.companies, r.records, o.perKind, o.interval)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "first pull, all\tfirst pull p50\tleases by instance\tchanges\tlag p50\tlag p99\tlag max\tmissed\t")
	var leases []string
	for _, name := range slices.Sorted(maps.Keys(r.leases)) {
		leases = append(leases, fmt.Sprintf("%s %d", name, r.leases[name]))
	}
	fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%s\t%s\t%s\t%d\t\n", r.firstPull.Round(time.Second), median(r.firstPulls).Round(time.Second),
		strings.Join(leases, ", "), len(r.lags)+r.missed, ms(pct(r.lags, 0.5)), ms(pct(r.lags, 0.99)), ms(pct(r.lags, 1)), r.missed)
	tw.Flush()
	for _, n := range r.notes {
		fmt.Fprintln(w, strings.TrimSpace(n))
	}
}

// pct is the p-th quantile of ds (0 for none).
func pct(ds []time.Duration, p float64) time.Duration {
	return latencies{times: ds}.pct(p)
}

// countLeases adds the sync leases held now in d to by, by instance (a
// lease's owner is its engine's instance name and a random suffix).
func countLeases(ctx context.Context, d *harness.Database, by map[string]int) error {
	db, err := d.Open()
	if err != nil {
		return err
	}
	defer db.Close()
	rows, err := db.QueryContext(ctx, d.Rebind(`SELECT owner FROM sync_leases WHERE until > ?`), time.Now().UnixMilli())
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var owner string
		if err := rows.Scan(&owner); err != nil {
			return err
		}
		by[owner[:max(0, strings.LastIndex(owner, "-"))]]++
	}
	return rows.Err()
}
