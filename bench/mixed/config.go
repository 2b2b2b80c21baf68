package main

import (
	"context"
	"fmt"
	"net/http"
	"time"

	"github.com/portico/portico/bench/internal/harness"
)

// configResult is what one configuration gave: the check of its write mix
// and notes on anything odd.
type configResult struct {
	check  checkRow
	target string // the write mix against the target, when there is one
	notes  []string
}

// runConfig starts c's instances (and proxy), runs the read-only and the
// write mix, prints their rows, stops the instances and checks the writes.
func runConfig(ctx context.Context, o options, bin string, c config, d *database, marker string) (configResult, error) {
	var res configResult
	harness.Progress("%s: starting %d instance(s)", c.name, c.instances)
	instances, notes, err := startInstances(ctx, bin, d, c)
	res.notes = notes
	if err != nil {
		return res, err
	}
	stopped := false
	stop := func() {
		if !stopped {
			harness.Stop(instances)
			stopped = true
		}
	}
	defer stop()
	w := &workload{base: instances[0].URL, callers: d.callers, projects: o.projects, marker: marker}
	var p *proxy
	if c.instances > 1 {
		var srv *http.Server
		if p, srv, w.base, err = startProxy(instances, o.conns); err != nil {
			return res, err
		}
		defer srv.Close()
	}
	if err := w.preflight(ctx); err != nil {
		return res, fmt.Errorf("%s: %w", c.name, err)
	}
	w.run(ctx, o.conns, time.Second) // warm-up: connections, caches, prepared statements
	var measured []*stats
	for _, percent := range mixes(o.writePercent) {
		w.writePercent = percent
		harness.Progress("%s: %s for %s", c.name, mixName(percent), o.duration)
		wal := sampleWAL(d)
		s := w.run(ctx, o.conns, o.duration)
		if wal != nil {
			res.notes = append(res.notes, wal.done(c.name+", "+mixName(percent)))
		}
		if ctx.Err() != nil {
			return res, ctx.Err()
		}
		printLoadRow(c.name, mixName(percent), s)
		res.notes = append(res.notes, errorNotes(c.name+", "+mixName(percent), s)...)
		measured = append(measured, s)
	}
	writes := measured[len(measured)-1]
	if len(measured) == 2 {
		res.target = targetLine(c.name, mixName(o.writePercent), measured[0], writes)
	}
	if p != nil && p.retries.Load() > 0 {
		res.notes = append(res.notes, fmt.Sprintf("%s: the proxy retried %d requests on another instance", c.name, p.retries.Load()))
	}
	stop()
	res.notes = append(res.notes, instanceNotes(instances)...)
	res.check, err = check(ctx, d, writes, c.name, marker)
	return res, err
}

// mixes are the write percentages measured: read-only, then the write mix.
func mixes(writePercent int) []int {
	if writePercent == 0 {
		return []int{0}
	}
	return []int{0, writePercent}
}

func mixName(writePercent int) string {
	if writePercent == 0 {
		return "read-only"
	}
	return fmt.Sprintf("%d%% writes", writePercent)
}
