package erpsync

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/portico/portico/internal/erp"
	"github.com/portico/portico/internal/records"
)

// accountFit is what a connector can tell of how the account fits its
// mapping (*netsuite.Client does).
type accountFit interface {
	// Off reports a kind the mapping turns off.
	Off(k *records.Kind) bool
	// MappingVersion identifies the kind's mapping.
	MappingVersion(k *records.Kind) string
	// Missing lists the optional columns of the kind the account lacks.
	Missing(k *records.Kind) []string
}

// Pull brings the given kinds (every kind when empty) up to date; full
// starts them from the beginning. A kind that fails does not hold the
// others back: their errors are joined. Kinds the mapping turns off are
// skipped, and so is a kind found not in the account, until its mapping
// changes, unless it is named in kinds or full is set; a kind found not
// in the account is reported in its state and logged, not returned as an
// error. It returns ErrBusy, pulling nothing, when another instance holds
// the lease, and ErrLeaseLost, pulling nothing more, when another
// instance took the lease over meanwhile.
func (e *Engine) Pull(ctx context.Context, kinds []*records.Kind, full bool) error {
	e.pullMu.Lock()
	defer e.pullMu.Unlock()
	force := full || len(kinds) > 0
	if len(kinds) == 0 {
		kinds = e.store.Kinds().All()
	}
	start := e.opt.Now()
	defer func() { e.m.PullMillis.Add(e.opt.Now().Sub(start).Milliseconds()) }()
	return e.hold(ctx, func(ctx context.Context, l Lease) error {
		if err := e.baseCurrency(ctx); err != nil {
			return err
		}
		if err := e.company(ctx); err != nil {
			return err
		}
		pull := func() error {
			var errs []error
			for _, k := range kinds {
				if skip, err := e.skip(ctx, k, force); err != nil || skip {
					if err != nil {
						errs = append(errs, fmt.Errorf("%s: %w", k.Name, err))
					}
					continue
				}
				if _, err := e.pullKind(ctx, l, k, full); err != nil {
					if erp.IsNotInAccount(err) {
						continue // not an error: reported in the kind's state
					}
					if errors.Is(err, ErrLeaseLost) {
						return ErrLeaseLost
					}
					e.m.PullErrors.Add(1)
					errs = append(errs, fmt.Errorf("%s: %w", k.Name, err))
					if ctx.Err() != nil {
						break
					}
				}
			}
			return errors.Join(errs...)
		}
		if bl, ok := e.store.(BulkLoader); ok && full {
			var loaded time.Time
			err := bl.BulkLoad(ctx, func() error {
				defer func() { loaded = e.opt.Now() }()
				return pull()
			})
			if !loaded.IsZero() {
				e.m.IndexMillis.Add(e.opt.Now().Sub(loaded).Milliseconds())
			}
			return err
		}
		return pull()
	})
}

// baseCurrency hands the ERP account's base currency to the store, when
// the connector reads it: the records it gives carry their currency
// relative to it. A failure to read it is logged (the store keeps the one
// it has); one to store it fails the pull.
func (e *Engine) baseCurrency(ctx context.Context) error {
	cur, ok := e.conn.(erp.Currencies)
	if !ok {
		return nil
	}
	code, err := cur.BaseCurrency(ctx)
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		e.log.Warn("the ERP account's base currency could not be read; the stored one stands", "err", err)
		return nil
	}
	if err := e.store.SetBaseCurrency(ctx, code); err != nil {
		return fmt.Errorf("store the base currency %s: %w", code, err)
	}
	return nil
}

// company hands the ERP account's company profile to the store, when
// the connector reads it (erp.Company). An account that keeps none (not
// in this account) is logged at debug level, another failure to read it
// as a warning; the store keeps the profile it has. A failure to store it
// fails the pull.
func (e *Engine) company(ctx context.Context) error {
	co, ok := e.conn.(erp.Company)
	if !ok {
		return nil
	}
	p, err := co.CompanyProfile(ctx)
	switch {
	case err != nil && ctx.Err() != nil:
		return ctx.Err()
	case erp.IsNotInAccount(err):
		e.log.Debug("the ERP account keeps no company profile; the stored one stands", "err", err)
		return nil
	case err != nil:
		e.log.Warn("the ERP account's company profile could not be read; the stored one stands", "err", err)
		return nil
	}
	if err := e.store.SetCompany(ctx, p); err != nil {
		return fmt.Errorf("store the company profile: %w", err)
	}
	return nil
}

// BulkLoader is a store that loads faster when told a load is coming:
// *sqlstore.Tenant, whose BulkLoad builds indexes after, not during, the
// first load into an empty store.
type BulkLoader interface {
	BulkLoad(ctx context.Context, load func() error) error
}

// skip reports whether a pull leaves kind out: the mapping turns it off,
// or (unless force) it was found not in the account with the mapping it
// has now.
func (e *Engine) skip(ctx context.Context, k *records.Kind, force bool) (bool, error) {
	af, ok := e.conn.(accountFit)
	if !ok {
		return false, nil
	}
	if af.Off(k) {
		return true, nil
	}
	if force {
		return false, nil
	}
	st, err := e.state(ctx, k.Name)
	if err != nil {
		return false, err
	}
	return st.Unavailable != "" && parseMark(st.Mapping).version == af.MappingVersion(k), nil
}

// state returns kind's stored state (a fresh one when it has none).
func (e *Engine) state(ctx context.Context, kind string) (State, error) {
	all, err := e.store.SyncStates(ctx)
	if err != nil {
		return State{}, err
	}
	for _, st := range all {
		if st.Kind == kind {
			return st, nil
		}
	}
	return State{Kind: kind}, nil
}

// pullKind pulls one kind under lease l: changed records since the
// checkpoint (less the overlap), then deletions. It returns how many
// records it stored.
func (e *Engine) pullKind(ctx context.Context, l Lease, k *records.Kind, full bool) (int64, error) {
	w := e.store.Fence(l)
	st, err := e.state(ctx, k.Name)
	if err != nil {
		return 0, err
	}
	started := e.opt.Now()
	mk := parseMark(st.Mapping)
	af, fits := e.conn.(accountFit)
	if fits {
		mk.version = af.MappingVersion(k)
	}
	rebasing := e.rebase(&st, &mk)
	st.Mapping = mk.String()
	if full {
		st.Checkpoint, st.DeletedSince = erp.Checkpoint{}, time.Time{}
	}
	st.LastRun, st.LastPulled, st.LastDeleted = started, 0, 0
	from := st.Checkpoint
	if !from.IsZero() {
		from = erp.Checkpoint{Modified: from.Modified.Add(-e.opt.Overlap)}
	}
	// After a change of time base, records are stored whatever their
	// times until the pull has read them all again.
	apply := w.ApplyPull
	if rebasing {
		apply = w.ApplyRebasedPull
	}
	fail := func(err error) (int64, error) {
		if errors.Is(err, ErrLeaseLost) || errors.Is(context.Cause(ctx), ErrLeaseLost) {
			// The kind's state is the new holder's (a read cut short by
			// the renewal that found the lease gone fails "canceled").
			return st.LastPulled, ErrLeaseLost
		}
		st.LastError = errorText(err)
		if st.DeletedSince.IsZero() && !rebasing {
			// (Re-basing, the deletions are read from the beginning.)
			st.DeletedSince = e.readStart(st, started)
		}
		if erp.IsNotInAccount(err) {
			st.Unavailable = st.LastError
			e.log.Warn("kind not in this account; not tried again until its mapping changes", "kind", k.Name, "err", err)
		} else {
			e.log.Error("pull failed", "kind", k.Name, "err", err)
		}
		if serr := w.SaveSyncState(context.WithoutCancel(ctx), st); serr != nil {
			e.log.Error("save sync state", "kind", k.Name, "err", serr)
		}
		return st.LastPulled, err
	}
	// Pages are stored in groups of about storeBatch records: one
	// transaction per group costs the indexes far less than one per page.
	var group []records.Record
	pending := st.Checkpoint // the last record in group
	// Only records after the checkpoint count as pulled: the overlap's
	// re-reads are stored again but are not news.
	seen, fresh := st.Checkpoint, int64(0)
	// A full pull also finds what the ERP no longer has, whatever the
	// deletion log still holds: every id it read is noted.
	var ids []int64
	flush := func() error {
		if len(group) == 0 {
			return nil
		}
		n := fresh
		next := st
		next.Checkpoint = pending
		next.LastPulled += n
		next.PulledTotal += n
		if err := apply(ctx, k.Name, group, nil, next); err != nil {
			return err
		}
		st, group, fresh = next, group[:0], 0
		e.m.Pulled.Add(n)
		return nil
	}
	err = e.conn.Changes(ctx, k, from, func(b erp.Batch) error {
		group = append(group, b.Records...)
		for _, r := range b.Records {
			if full {
				ids = append(ids, r.ID)
			}
			if later(erp.Checkpoint{Modified: r.ModifiedAt, ID: r.ID}, seen) {
				fresh++
			}
		}
		if later(b.Next, pending) {
			pending = b.Next
		}
		if len(group) < storeBatch {
			return nil
		}
		return flush()
	})
	if err == nil {
		err = flush()
	}
	if err != nil {
		return fail(err)
	}
	// Deletions are read in the connector's time base, never the
	// engine's clock: the ERP's times may be read in a zone that is not
	// quite right, and must then still meet the literal they are
	// compared with. After a change of time base every deletion the ERP
	// knows is read: the records deleted before this pull's reading
	// began are in the store.
	since := st.DeletedSince
	if since.IsZero() && !rebasing {
		since = e.readStart(st, started)
	}
	sinceQuery := since
	if !since.IsZero() {
		sinceQuery = since.Add(-e.opt.Overlap)
	}
	dels, err := e.conn.Deleted(ctx, k, sinceQuery)
	if err != nil {
		return fail(err)
	}
	if since.IsZero() && len(dels) > 0 {
		// Every deletion the ERP knows: those of records the store has
		// are the news.
		if dels, err = e.held(ctx, k.Name, dels); err != nil {
			return fail(err)
		}
	}
	if full {
		gone, err := e.missing(ctx, k.Name, ids)
		if err != nil {
			return fail(err)
		}
		for _, id := range gone {
			dels = append(dels, erp.Deletion{ID: id})
		}
	}
	// Whatever is deleted from now on is dated after this pull's read
	// of deletions, and so after every deletion and change it read. The
	// new mark is stored with the deletions, or not at all.
	next := st
	next.DeletedSince = since
	if st.Checkpoint.Modified.After(next.DeletedSince) {
		next.DeletedSince = st.Checkpoint.Modified
	}
	for _, d := range dels {
		if d.DeletedAt.After(next.DeletedSince) {
			next.DeletedSince = d.DeletedAt
		}
	}
	if len(dels) > 0 {
		ids := make([]int64, len(dels))
		for i, d := range dels {
			ids[i] = d.ID
		}
		next.LastDeleted = int64(len(ids))
		if err := w.ApplyPull(ctx, k.Name, nil, ids, next); err != nil {
			return fail(err)
		}
		e.m.Deleted.Add(int64(len(ids)))
	}
	st = next
	mk.rebasing = false
	st.Mapping = mk.String()
	st.LastSuccess, st.LastError, st.Unavailable = e.opt.Now(), "", ""
	if fits {
		st.Missing = strings.Join(af.Missing(k), ", ")
	}
	if err := w.SaveSyncState(ctx, st); err != nil {
		return st.LastPulled, err
	}
	e.log.Info("pulled", "kind", k.Name, "records", st.LastPulled, "deleted", st.LastDeleted,
		"took", e.opt.Now().Sub(started).Round(time.Millisecond))
	return st.LastPulled, nil
}

// readStart is a first pull's start in the ERP's time base (zero when
// it read nothing: then every deletion the ERP knows is read): no later
// than the start of its reading, since the newest change it read was
// made before the reading ended. Deletions before it do not matter: the
// records were not read.
func (e *Engine) readStart(st State, started time.Time) time.Time {
	if st.Checkpoint.IsZero() {
		return time.Time{}
	}
	return st.Checkpoint.Modified.Add(-e.opt.Now().Sub(started))
}

// storeBatch is about how many pulled records one transaction stores.
const storeBatch = 10_000

// missing returns the ids of kind's records in the store that are not in
// seen (the ids a full pull read).
func (e *Engine) missing(ctx context.Context, kind string, seen []int64) ([]int64, error) {
	have, err := e.store.RecordIDs(ctx, kind)
	if err != nil {
		return nil, err
	}
	slices.Sort(seen)
	var gone []int64
	for _, id := range have {
		if _, found := slices.BinarySearch(seen, id); !found && id < records.ProvisionalBase {
			gone = append(gone, id)
		}
	}
	return gone, nil
}

// held returns the deletions of kind's records that the store has.
func (e *Engine) held(ctx context.Context, kind string, dels []erp.Deletion) ([]erp.Deletion, error) {
	have, err := e.store.RecordIDs(ctx, kind)
	if err != nil {
		return nil, err
	}
	slices.Sort(have)
	var out []erp.Deletion
	for _, d := range dels {
		if _, found := slices.BinarySearch(have, d.ID); found {
			out = append(out, d)
		}
	}
	return out, nil
}

// later reports whether a comes after b in (modified, id) order.
func later(a, b erp.Checkpoint) bool {
	return a.Modified.After(b.Modified) || (a.Modified.Equal(b.Modified) && a.ID > b.ID)
}

// errorText is what the status page shows of an error: the ERP's own
// words (status, code, message) when it gave some; anything else (the
// store, a bug) stays in the log.
func errorText(err error) string {
	if ee, ok := errors.AsType[*erp.Error](err); ok {
		return ee.Error()
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return "interrupted"
	}
	return "internal error (see the server log)"
}
