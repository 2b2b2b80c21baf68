package erpsync

import (
	"context"
	"errors"
	"time"
)

// Lease is the sync lease as one owner took it. Its token grows whenever
// the lease changes hands, so work begun under a lease can be refused
// once another instance took it over (see Store.Fence).
type Lease struct {
	Name  string
	Owner string
	Token int64
}

// ErrBusy is returned when another instance holds the sync lease.
var ErrBusy = errors.New("erpsync: another instance is syncing")

// ErrLeaseLost is returned by work that began under the sync lease when
// another instance took the lease over meanwhile (this one was paused or
// cut off from the database for longer than the lease): the work stops,
// and what it had not stored is the new holder's to do.
var ErrLeaseLost = errors.New("erpsync: the sync lease passed to another instance")

// leaseName is the one lease per tenant: pulls and pushes of one tenant
// happen in one instance at a time.
const leaseName = "erp-sync"

// renewEvery is how often a holder renews the lease, and how often an
// instance without it tries to take it: a quarter of the lease, so a
// holder survives three failed renewals, and a dead holder is replaced
// within 1¼ leases of its last renewal.
func (e *Engine) renewEvery() time.Duration { return e.opt.Lease / 4 }

// Share is an instance's share of the leases of the tenants it syncs
// (Options.Share): the tenants' engines in one instance share one.
type Share interface {
	// Claim asks whether the instance may take one more lease; when ok,
	// done is called once the claim has ended, won or lost (the claims
	// under way count against the share meanwhile).
	Claim() (done func(), ok bool)
	// GiveUp asks whether the instance holds more than its share, and
	// so one of its engines gives its lease up; when ok, done is called
	// once it has (the give-ups under way count meanwhile).
	GiveUp() (done func(), ok bool)
}

// HoldsLease reports whether this engine holds its tenant's lease, as far
// as its last claim knows.
func (e *Engine) HoldsLease() bool { return e.holds() }

// take claims the lease: renews it when this engine holds it; with a
// Share, takes it only while the instance may take one more.
func (e *Engine) take(ctx context.Context) (Lease, error) {
	if e.holds() || e.opt.Share == nil {
		return e.claim(ctx)
	}
	done, ok := e.opt.Share.Claim()
	if !ok {
		return Lease{}, ErrBusy
	}
	defer done()
	return e.claim(ctx)
}

// giveUp releases the lease between pulls when the instance holds more
// than its share (Options.Share); it reports whether it did.
func (e *Engine) giveUp(ctx context.Context) bool {
	if e.opt.Share == nil || !e.pullMu.TryLock() {
		return false
	}
	defer e.pullMu.Unlock()
	done, ok := e.opt.Share.GiveUp()
	if !ok {
		return false
	}
	defer done()
	if err := e.Release(ctx); err != nil {
		e.log.Warn("give the sync lease up", "err", err)
		return false
	}
	e.log.Info("the sync lease given up: this instance holds more than its share", "owner", e.opt.Owner)
	return true
}

// claim takes or renews the lease.
func (e *Engine) claim(ctx context.Context) (Lease, error) {
	now := e.opt.Now()
	until := now.Add(e.opt.Lease)
	token, ok, err := e.store.AcquireLease(ctx, leaseName, e.opt.Owner, now, until)
	if err != nil {
		return Lease{}, err
	}
	if !ok {
		e.heldUntil.Store(0)
		return Lease{}, ErrBusy
	}
	e.heldUntil.Store(until.UnixNano())
	return Lease{Name: leaseName, Owner: e.opt.Owner, Token: token}, nil
}

// holds reports whether this engine holds the lease, as far as its last
// claim knows.
func (e *Engine) holds() bool {
	return e.opt.Now().UnixNano() < e.heldUntil.Load()
}

// renew renews l; it returns ErrLeaseLost when the lease changed hands
// since l was taken (even if this engine has it again: work begun under
// l must not go on under a token it no longer has).
func (e *Engine) renew(ctx context.Context, l Lease) error {
	cur, err := e.claim(ctx)
	if errors.Is(err, ErrBusy) || (err == nil && cur.Token != l.Token) {
		return ErrLeaseLost
	}
	return err
}

// hold runs fn under the lease: claimed first (ErrBusy when another
// instance holds it) and renewed every renewEvery while fn runs, however
// long fn waits on the ERP. When a renewal finds the lease lost, fn's
// context is cancelled and hold returns ErrLeaseLost; a renewal that
// fails for another reason (the database, briefly) is logged, and the
// writes' fencing still guards the work.
func (e *Engine) hold(ctx context.Context, fn func(ctx context.Context, l Lease) error) error {
	l, err := e.take(ctx)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	stop, stopped := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(stopped)
		tick := time.NewTicker(e.renewEvery())
		defer tick.Stop()
		for {
			select {
			case <-stop:
				return
			case <-tick.C:
			}
			if err := e.renew(ctx, l); errors.Is(err, ErrLeaseLost) {
				cancel(ErrLeaseLost)
				return
			} else if err != nil && ctx.Err() == nil {
				e.log.Warn("renew the sync lease", "err", err)
			}
		}
	}()
	err = fn(ctx, l)
	close(stop)
	<-stopped
	if errors.Is(context.Cause(ctx), ErrLeaseLost) && err != nil {
		return ErrLeaseLost
	}
	return err
}

// leaseLoop keeps the lease while Run runs, or takes it when it lapses: a
// holder keeps it while idle (so one instance stays the worker), and a
// dead holder is replaced within 1¼ leases. Taking it over wakes the push
// loop and, after the first round, asks for a pull: the previous holder
// may have died with work to do. With a Share, the lease is taken only
// while the instance may take one more, and released between pulls while
// it holds more than its share.
func (e *Engine) leaseLoop(ctx context.Context) {
	tick := time.NewTicker(e.renewEvery())
	defer tick.Stop()
	held := false
	for first := true; ; first = false {
		err := ErrBusy
		gaveUp := held && e.giveUp(ctx)
		if !gaveUp {
			_, err = e.take(ctx)
		}
		switch {
		case err == nil && !held:
			e.log.Info("holding the sync lease", "owner", e.opt.Owner)
			e.wakePush()
			if !first {
				e.offerPull(pullRequest{})
			}
		case errors.Is(err, ErrBusy) && held && !gaveUp:
			e.log.Info("the sync lease passed to another instance", "owner", e.opt.Owner)
		case err != nil && !errors.Is(err, ErrBusy) && ctx.Err() == nil:
			e.log.Warn("claim the sync lease", "err", err)
		}
		if err == nil || errors.Is(err, ErrBusy) {
			held = err == nil
		}
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
	}
}

// Release gives the sync lease up if this engine holds it, so another
// instance (or the next `portico sync -once`) need not wait for it to
// lapse. Run releases it itself; a caller of Pull or Push calls Release
// when done.
func (e *Engine) Release(ctx context.Context) error {
	e.heldUntil.Store(0)
	return e.store.ReleaseLease(ctx, leaseName, e.opt.Owner)
}
