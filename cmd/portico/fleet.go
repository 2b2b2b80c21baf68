package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"io"
	"log/slog"
	"maps"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/portico/portico/internal/config"
	"github.com/portico/portico/internal/erpsync"
	"github.com/portico/portico/internal/httpapi"
	"github.com/portico/portico/internal/portal"
	"github.com/portico/portico/internal/signals"
)

// fleetPoll is how often a server looks whether the tenants' NetSuite
// connections changed (`netsuite connect`, `disconnect`): one small read.
// (A variable for the tests.)
var fleetPoll = 10 * time.Second

// fleet is a server's sync engines, one per tenant with a NetSuite
// account, kept in step with the stored connections: every fleetPoll it
// reads when each last changed and, when one did, builds the engines
// again (syncEngines) and swaps those of the tenants whose account
// changed, came or went, leaving the others running. Each engine takes
// its tenant's lease, so the instances share the tenants' syncs.
type fleet struct {
	cfg config.Config
	dbs *databases
	sig *signals.Signals
	log *slog.Logger

	share *share

	mu       sync.RWMutex
	engines  map[portal.TenantID]*erpsync.Engine
	links    map[portal.TenantID]string
	versions map[portal.TenantID]string
	stops    map[portal.TenantID]func() // each running engine's stop, which waits for it
}

// startFleet builds and starts the engines, then follows the connections
// until ctx ends; wait waits for every engine to stop after that.
func startFleet(ctx context.Context, cfg config.Config, dbs *databases, sig *signals.Signals, log *slog.Logger) (f *fleet, wait func(), err error) {
	f = &fleet{cfg: cfg, dbs: dbs, sig: sig, log: log, stops: map[portal.TenantID]func(){}}
	f.share = newShare(f, cfg.Instance)
	// Counted among the instances before its engines claim anything.
	f.share.see(ctx)
	if err := f.refresh(ctx); err != nil {
		return nil, nil, err
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		tick := time.NewTicker(fleetPoll)
		defer tick.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
				if err := f.refresh(ctx); err != nil && ctx.Err() == nil {
					log.Warn("the tenants' NetSuite connections could not be read again; the running syncs carry on", "err", err)
				}
			}
		}
	}()
	seen := make(chan struct{})
	go func() {
		defer close(seen)
		f.share.follow(ctx)
	}()
	return f, func() {
		<-done
		<-seen
		f.mu.Lock()
		stops := slices.Collect(maps.Values(f.stops))
		f.mu.Unlock()
		for _, stop := range stops {
			stop()
		}
	}, nil
}

// versions are when each tenant's account last changed: a stored
// connection's time, or "env" for the PORTICO_NETSUITE_* one.
func (f *fleet) readVersions(ctx context.Context) (map[portal.TenantID]string, error) {
	stored, err := f.dbs.main.ERPConnections(ctx)
	if err != nil {
		return nil, err
	}
	out := map[portal.TenantID]string{}
	for _, c := range stored {
		out[c.Tenant] = c.UpdatedAt.String()
	}
	if f.cfg.NetSuite.Enabled() {
		out[f.cfg.DefaultTenant] += "env"
	}
	return out, nil
}

// refresh builds the engines again when an account changed since the
// last build, and swaps those that did.
func (f *fleet) refresh(ctx context.Context) error {
	versions, err := f.readVersions(ctx)
	if err != nil {
		return err
	}
	f.mu.RLock()
	same := f.versions != nil && maps.Equal(versions, f.versions)
	f.mu.RUnlock()
	if same {
		return nil
	}
	engines, links, err := syncEngines(ctx, f.cfg, f.dbs, f.sig, f.share, f.log)
	if err != nil {
		return err
	}
	// The engines of accounts that changed or went stop first (each
	// releases its lease), then the new ones start.
	f.mu.Lock()
	var stale []func()
	for t, stop := range f.stops {
		if versions[t] != f.versions[t] || engines[t] == nil {
			stale = append(stale, stop)
			delete(f.stops, t)
			delete(f.engines, t)
		}
	}
	f.mu.Unlock()
	for _, stop := range stale {
		stop()
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	running := map[portal.TenantID]*erpsync.Engine{}
	for t, e := range engines {
		if _, ok := f.stops[t]; ok {
			running[t] = f.engines[t]
			continue
		}
		f.stops[t] = runEngine(ctx, e)
		running[t] = e
		if f.versions != nil {
			f.log.Info("syncing from a new or changed NetSuite connection", "tenant", string(t))
		}
	}
	f.engines, f.links, f.versions = running, links, versions
	return nil
}

// runEngine runs e until ctx ends or the returned stop is called; stop waits
// for it to have stopped.
func runEngine(ctx context.Context, e *erpsync.Engine) (stop func()) {
	engCtx, cancel := context.WithCancel(ctx)
	stopped := make(chan struct{})
	go func() { defer close(stopped); e.Run(engCtx) }()
	return func() { cancel(); <-stopped }
}

// syncer is tenant's engine, nil without one.
func (f *fleet) syncer(t portal.TenantID) httpapi.Syncer {
	f.mu.RLock()
	defer f.mu.RUnlock()
	if e, ok := f.engines[t]; ok {
		return e
	}
	return nil
}

// link is the NetSuite UI origin of tenant's stored account.
func (f *fleet) link(t portal.TenantID) (string, bool) {
	f.mu.RLock()
	defer f.mu.RUnlock()
	l, ok := f.links[t]
	return l, ok
}

// writeMetrics writes the engines' series (erpsync.WritePrometheus).
func (f *fleet) writeMetrics(ctx context.Context, w io.Writer) error {
	f.mu.RLock()
	engines := slices.SortedFunc(maps.Values(f.engines), func(a, b *erpsync.Engine) int {
		return strings.Compare(string(a.Tenant()), string(b.Tenant()))
	})
	f.mu.RUnlock()
	return erpsync.WritePrometheus(ctx, w, engines...)
}

// sharePeriod is how often an instance notes in the main database that
// it runs and counts the instances that do; an instance not seen for
// shareLapse is no longer counted (one killed, say).
const (
	sharePeriod = 2500 * time.Millisecond
	shareLapse  = 4 * sharePeriod
)

// share is an instance's share of its tenants' sync leases
// (erpsync.Share): the tenants with an account ÷ the instances running,
// rounded up. The instances count themselves in the main database
// (sqlstore's SeeInstance) every sharePeriod. The leases held are this
// instance's engines' own view (Engine.HoldsLease), so the share is per
// instance, and the instances' shares together cover every tenant.
type share struct {
	f  *fleet
	id string // unique among the instances: the instance's name and a random suffix

	live atomic.Int64 // instances running, this one included (0: not counted yet)

	mu                  sync.Mutex
	claiming, releasing int // claims and give-ups under way
}

func newShare(f *fleet, instance string) *share {
	b := make([]byte, 4)
	rand.Read(b)
	return &share{f: f, id: instance + "-" + hex.EncodeToString(b)}
}

// see counts the instances running, this one among them.
func (s *share) see(ctx context.Context) {
	now := time.Now()
	n, err := s.f.dbs.main.SeeInstance(ctx, s.id, now, now.Add(shareLapse))
	if err != nil {
		if ctx.Err() == nil {
			s.f.log.Warn("count the instances sharing the syncs; the last count stands", "err", err)
		}
		return
	}
	s.live.Store(int64(n))
}

// follow counts the instances every sharePeriod until ctx ends, then
// takes this one out of the count.
func (s *share) follow(ctx context.Context) {
	tick := time.NewTicker(sharePeriod)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			if err := s.f.dbs.main.ForgetInstance(context.WithoutCancel(ctx), s.id); err != nil {
				s.f.log.Warn("leave the count of the instances sharing the syncs", "err", err)
			}
			return
		case <-tick.C:
			s.f.mu.RLock()
			syncing := len(s.f.engines) > 0
			s.f.mu.RUnlock()
			if syncing { // an instance without engines is not counted: it takes no share
				s.see(ctx)
			}
		}
	}
}

// counts returns the leases this instance's engines hold and its share;
// s.mu is held (and then the fleet's).
func (s *share) counts() (held, limit int) {
	s.f.mu.RLock()
	defer s.f.mu.RUnlock()
	for _, e := range s.f.engines {
		if e.HoldsLease() {
			held++
		}
	}
	n := int(max(1, s.live.Load()))
	return held, (len(s.f.engines) + n - 1) / n
}

// Claim implements erpsync.Share.
func (s *share) Claim() (func(), bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	held, limit := s.counts()
	if held+s.claiming >= limit {
		return nil, false
	}
	s.claiming++
	return func() { s.mu.Lock(); s.claiming--; s.mu.Unlock() }, true
}

// GiveUp implements erpsync.Share.
func (s *share) GiveUp() (func(), bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	held, limit := s.counts()
	if held-s.releasing <= limit {
		return nil, false
	}
	s.releasing++
	return func() { s.mu.Lock(); s.releasing--; s.mu.Unlock() }, true
}
