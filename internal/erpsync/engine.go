// Package erpsync keeps the portal's replica in step with the ERP. Pull:
// per kind, incremental by last-modified checkpoint with an overlap window,
// deletions included, each batch stored with its checkpoint in one
// transaction, so a crash resumes where it stopped and converges. Push:
// every create and edit waits in a durable outbox (written with the local
// change) until the ERP has it, sent with its idempotency key and retried
// with back-off, ending synced or failed with the ERP's message. With
// several instances on one database, a short lease lets one of them work
// at a time, a fencing token keeps one that lost the lease from writing
// over its successor, and wake-ups (Signals) reach the holder from any
// instance.
package erpsync

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"log/slog"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/portico/portico/internal/erp"
	"github.com/portico/portico/internal/portal"
	"github.com/portico/portico/internal/records"
)

// Options configure an Engine. Zero values take the defaults given.
type Options struct {
	// Interval is the time between pulls in Run. Default 1 min.
	Interval time.Duration
	// Overlap re-reads this much before the checkpoint on every
	// incremental pull: a change committed late with an earlier
	// last-modified time is not missed. Default 5 min.
	Overlap time.Duration
	// Lease is how long the sync lease lasts unless renewed; its holder
	// renews it every quarter of it, and another instance takes it over
	// within 1¼ leases of the holder's death. Default 10 s.
	Lease time.Duration
	// MaxAttempts is how many transient failures a write survives before
	// it is marked failed (the user can retry it). Default 12.
	MaxAttempts int
	// Instance names this instance in metrics labels; the host name by
	// default.
	Instance string
	// Owner names this engine in the lease, and must be unique among the
	// engines sharing a database: Instance and a random suffix by default.
	Owner string
	// Signals, when set, carries wake-ups to the tenant's engines in the
	// other instances: a queued write and a "sync now" reach the lease
	// holder at once wherever they happen. Without it, another instance's
	// write waits for the holder's next push tick.
	Signals Signals
	// Suspended, when set, is asked before each of Run's rounds: while
	// it answers true (the tenant is suspended) no pull or push runs;
	// the tenant's writes wait in its outbox, and the rounds resume when
	// it answers false again.
	Suspended func(context.Context) bool
	// Share, when set, is this instance's share of several tenants'
	// leases: an engine takes its tenant's lease only while the instance
	// may take one more, and gives it up between pulls while the
	// instance holds more than its share, so the tenants' syncs spread
	// over the instances. Without it an engine takes its lease whenever
	// it is free.
	Share  Share
	Logger *slog.Logger
	// Now is the clock; time.Now by default.
	Now func() time.Time
}

// Engine syncs one tenant with its ERP.
type Engine struct {
	conn  erp.Connector
	store Store
	opt   Options
	log   *slog.Logger
	wake  chan struct{}
	// trigger carries a pull asked for outside the schedule.
	trigger chan pullRequest
	// enrich carries records whose full documents to fetch; enriched
	// remembers which versions were asked for already.
	enrich   chan enrichRequest
	enrichMu sync.Mutex
	enriched map[enrichRequest]bool
	// pullMu lets one pull run at a time in this process (Run's
	// schedule and an admin's "sync now").
	pullMu sync.Mutex
	// heldUntil is when the lease this engine last claimed lapses (unix
	// nanoseconds; 0: not held).
	heldUntil atomic.Int64
	// announcing: a push wake-up is about to be published.
	announcing atomic.Bool
	m          Metrics
}

// New returns an engine for one tenant's store and ERP connection.
func New(conn erp.Connector, store Store, opt Options) *Engine {
	if opt.Interval <= 0 {
		opt.Interval = time.Minute
	}
	if opt.Overlap <= 0 {
		opt.Overlap = 5 * time.Minute
	}
	if opt.Lease <= 0 {
		opt.Lease = 10 * time.Second
	}
	if opt.MaxAttempts <= 0 {
		opt.MaxAttempts = 12
	}
	if opt.Instance == "" {
		opt.Instance, _ = os.Hostname()
	}
	if opt.Owner == "" {
		b := make([]byte, 6)
		rand.Read(b)
		opt.Owner = opt.Instance + "-" + hex.EncodeToString(b)
	}
	if opt.Logger == nil {
		opt.Logger = slog.New(slog.DiscardHandler)
	}
	if opt.Now == nil {
		opt.Now = time.Now
	}
	return &Engine{conn: conn, store: store, opt: opt, log: opt.Logger, wake: make(chan struct{}, 1),
		trigger: make(chan pullRequest, 1), enrich: make(chan enrichRequest, enrichQueue),
		enriched: map[enrichRequest]bool{}}
}

// Tenant is the tenant the engine syncs.
func (e *Engine) Tenant() portal.TenantID { return e.store.ID() }

// Metrics returns the engine's counters.
func (e *Engine) Metrics() *Metrics { return &e.m }

// pushTick is how often Run looks for due entries (retries and entries
// queued by other instances) without being notified.
const pushTick = 5 * time.Second

// pullRequest is a pull asked for outside the schedule.
type pullRequest struct {
	kinds []*records.Kind
	full  bool
}

// Run pulls every Interval (and when triggered) and pushes whenever a
// write is queued (and every few seconds), until ctx is cancelled, while
// it holds the lease: it keeps the lease while it lives, or takes it when
// its holder dies. Pushes run beside pulls, so a long pull never holds a
// user's change back. With Signals it hears the other instances' queued
// writes and "sync now". Failures are logged and retried on the next
// round; another instance holding the lease is not a failure. On return
// the lease is released.
func (e *Engine) Run(ctx context.Context) {
	var wg sync.WaitGroup
	if e.opt.Signals != nil {
		msgs, err := e.opt.Signals.Subscribe(ctx, e.channel())
		if err != nil {
			e.log.Warn("no wake-ups from the other instances", "err", err)
		} else {
			wg.Go(func() { e.listen(msgs) })
		}
	}
	wg.Go(func() { e.leaseLoop(ctx) })
	wg.Go(func() { e.pullLoop(ctx) })
	wg.Go(func() { e.pushLoop(ctx) })
	wg.Go(func() { e.enrichLoop(ctx) })
	wg.Wait()
	if err := e.Release(context.WithoutCancel(ctx)); err != nil {
		e.log.Warn("release the sync lease", "err", err)
	}
}

func (e *Engine) pullLoop(ctx context.Context) {
	timer := time.NewTimer(0)
	defer timer.Stop()
	for {
		req := pullRequest{}
		select {
		case <-ctx.Done():
			return
		case <-timer.C:
		case req = <-e.trigger:
			timer.Stop()
		}
		if !e.suspended(ctx) {
			e.logRound("pull", ctx, e.Pull(ctx, req.kinds, req.full))
		}
		timer.Reset(e.opt.Interval)
	}
}

func (e *Engine) pushLoop(ctx context.Context) {
	tick := time.NewTicker(pushTick)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		case <-e.wake:
		}
		if e.suspended(ctx) {
			continue
		}
		_, err := e.Push(ctx)
		e.logRound("push", ctx, err)
	}
}

// suspended reports whether Run's rounds are to wait (Options.Suspended).
func (e *Engine) suspended(ctx context.Context) bool {
	return e.opt.Suspended != nil && e.opt.Suspended(ctx)
}

// logRound logs how a round of Run's ended: another instance holding
// the lease is no failure, and losing it is a warning.
func (e *Engine) logRound(round string, ctx context.Context, err error) {
	switch {
	case err == nil || errors.Is(err, ErrBusy) || ctx.Err() != nil:
	case errors.Is(err, ErrLeaseLost):
		e.log.Warn(round+" stopped: the sync lease passed to another instance", "owner", e.opt.Owner)
	default:
		e.log.Error(round, "err", err)
	}
}
