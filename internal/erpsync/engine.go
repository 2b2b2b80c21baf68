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
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"slices"
	"strings"
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
	Logger  *slog.Logger
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

// Metrics are the engine's counters since start.
type Metrics struct {
	Pulled      atomic.Int64 // new or changed records stored by pulls (not the overlap's re-reads)
	Deleted     atomic.Int64 // deletions applied
	PullErrors  atomic.Int64 // kind pulls that failed
	PushSynced  atomic.Int64 // outbox entries that reached the ERP
	PushFailed  atomic.Int64 // entries the ERP refused (or gave up on)
	PushRetries atomic.Int64 // transient failures, retried later
	PullMillis  atomic.Int64 // wall time of pulls, milliseconds
	IndexMillis atomic.Int64 // of which building indexes after a bulk load
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

// Metrics returns the engine's counters.
func (e *Engine) Metrics() *Metrics { return &e.m }

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
		kinds = records.All()
	}
	start := e.opt.Now()
	defer func() { e.m.PullMillis.Add(e.opt.Now().Sub(start).Milliseconds()) }()
	return e.hold(ctx, func(ctx context.Context, l Lease) error {
		if err := e.baseCurrency(ctx); err != nil {
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
		if errors.Is(err, ErrLeaseLost) {
			return st.LastPulled, err // the kind's state is the new holder's
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

// pushBatch bounds the entries one Push reads at a time.
const pushBatch = 50

// Push sends every due outbox entry and returns how many it handled. It
// returns ErrBusy, sending nothing, when another instance holds the
// lease, and ErrLeaseLost, sending nothing more, when another instance
// took the lease over meanwhile.
func (e *Engine) Push(ctx context.Context) (int, error) {
	done := 0
	err := e.hold(ctx, func(ctx context.Context, l Lease) error {
		w := e.store.Fence(l)
		for {
			due, err := e.store.DueOutbox(ctx, e.opt.Now(), pushBatch)
			if err != nil || len(due) == 0 {
				return err
			}
			for _, en := range due {
				// Renewed before every send: an instance that lost the
				// lease (paused, cut off) must not send an entry its
				// successor may be sending too.
				if err := e.renew(ctx, l); err != nil {
					return err
				}
				if err := e.send(ctx, w, en); err != nil {
					return err
				}
				done++
			}
			if len(due) < pushBatch {
				return nil
			}
		}
	})
	return done, err
}

// waitForRef is how long an entry waits when it refers to a record whose
// own create has not reached the ERP yet.
const waitForRef = 5 * time.Second

// send delivers one entry. It returns an error only when the store fails;
// ERP failures are recorded on the entry.
func (e *Engine) send(ctx context.Context, w LeasedWrites, en Entry) error {
	k, ok := records.Lookup(en.Kind)
	if !ok {
		return w.FailOutbox(ctx, en, "This kind of record is no longer synced.", e.opt.Now())
	}
	if !records.ChangesFields(en.Op) {
		return e.sendAttachment(ctx, w, en, k)
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(en.Fields, &raw); err != nil {
		return w.FailOutbox(ctx, en, "The queued change is unreadable.", e.opt.Now())
	}
	in, errs := k.ParseInput(raw, en.Op == records.OpCreate)
	if len(errs) > 0 {
		return w.FailOutbox(ctx, en, errs[0].Message, e.opt.Now())
	}
	// References to records created in the portal go out with the ids
	// the ERP gave them: this entry waits while such a create is on its
	// way, and fails if it never will arrive.
	for field, kind := range k.Refs(in) {
		id := in[field].(int64)
		if id < records.ProvisionalBase {
			continue
		}
		erpID, state, err := e.store.CreatedID(ctx, kind, id)
		if err != nil {
			return err
		}
		switch state {
		case EntrySynced:
			in[field] = erpID
		case EntryPending:
			return w.DeferOutbox(ctx, en.ID, en.Attempts, e.opt.Now().Add(waitForRef), "Waiting for a record it refers to.", e.opt.Now())
		default:
			f, _ := k.FieldNamed(field)
			return w.FailOutbox(ctx, en, f.Label+" refers to a new record that NetSuite does not have: correct or send that one first.", e.opt.Now())
		}
	}
	write := erp.Write{Fields: in, Key: en.Key}
	id := en.RecordID
	var err error
	if en.Op == records.OpCreate {
		id, err = e.conn.Create(ctx, k, write)
	} else {
		err = e.conn.Update(ctx, k, id, write)
	}
	if err != nil {
		return e.failed(ctx, w, en, err)
	}
	rec, err := e.conn.Fetch(ctx, k, id)
	if err != nil {
		// The write landed; the next pull brings the ERP's values.
		e.log.Warn("read back after write", "kind", k.Name, "id", id, "err", err)
		if rec, err = e.unread(ctx, k, en.RecordID, id); err != nil {
			return err
		}
	}
	e.m.PushSynced.Add(1)
	return w.CompleteOutbox(ctx, en, rec, e.opt.Now())
}

// unread is what a write whose record could not be read back from the
// ERP stores: the portal's own version (local, its currency as stored)
// under the ERP's id, dated so that the ERP's version wins at the next
// pull: no later than where that pull starts reading, the kind's
// checkpoint less the overlap (zero before the kind's first pull). The
// portal's clock is not in the connector's time base: with the ERP's
// times read behind it (a NetSuite mapping's zone wrong west of UTC), a
// version dated by it would refuse the ERP's for as many hours.
func (e *Engine) unread(ctx context.Context, k *records.Kind, local, id int64) (records.Record, error) {
	rec, err := e.store.Record(ctx, k.Name, local)
	if err != nil {
		return rec, err
	}
	st, err := e.state(ctx, k.Name)
	if err != nil {
		return rec, err
	}
	var from time.Time
	if !st.Checkpoint.IsZero() {
		from = st.Checkpoint.Modified.Add(-e.opt.Overlap)
	}
	rec.ID = id
	if rec.ModifiedAt.After(from) {
		rec.ModifiedAt = from
	}
	return rec, nil
}

// sendAttachment delivers a note or a file added to a record: through the
// connector's Attachments, to the record's ERP id (the entry waited for
// the record's own create, which gave it that id).
func (e *Engine) sendAttachment(ctx context.Context, w LeasedWrites, en Entry, k *records.Kind) error {
	now := e.opt.Now()
	ac, ok := e.conn.(erp.Attachments)
	switch {
	case !ok:
		return w.FailOutbox(ctx, en, "This ERP connection cannot add notes or files.", now)
	case en.RecordID >= records.ProvisionalBase:
		return w.FailOutbox(ctx, en, "The record is not in NetSuite: send or discard its creation first.", now)
	}
	var (
		id  int64
		err error
	)
	switch en.Op {
	case records.OpNote:
		var nf records.NoteFields
		if json.Unmarshal(en.Fields, &nf) != nil || nf.Text == "" {
			return w.FailOutbox(ctx, en, "The queued note is unreadable.", now)
		}
		id, err = ac.AddNote(ctx, k, en.RecordID, erp.Note{Author: nf.Author, Text: nf.Text, Key: en.Key})
	case records.OpFile:
		var ff records.FileFields
		if json.Unmarshal(en.Fields, &ff) != nil {
			return w.FailOutbox(ctx, en, "The queued file is unreadable.", now)
		}
		f, ferr := e.store.File(ctx, k.Name, en.RecordID, ff.FileID)
		if portal.IsNotFound(ferr) {
			return w.FailOutbox(ctx, en, "The file to send is no longer stored: attach it again.", now)
		}
		if ferr != nil {
			return ferr
		}
		id, err = ac.AddFile(ctx, k, en.RecordID, f, en.Key)
	default:
		return w.FailOutbox(ctx, en, "The queued change is of an unknown kind.", now)
	}
	if err != nil {
		return e.failed(ctx, w, en, err)
	}
	e.m.PushSynced.Add(1)
	return w.CompleteAttachment(ctx, en, id, e.opt.Now())
}

// failed records an ERP failure: the ERP's refusal ends the entry failed
// with its message; a transient failure is retried with back-off until
// MaxAttempts.
func (e *Engine) failed(ctx context.Context, w LeasedWrites, en Entry, err error) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	attempts := en.Attempts + 1
	if erp.IsPermanent(err) || attempts >= e.opt.MaxAttempts {
		e.m.PushFailed.Add(1)
		e.log.Warn("write refused", "kind", en.Kind, "record", en.RecordID, "err", err)
		return w.FailOutbox(ctx, en, userMessage(err), e.opt.Now())
	}
	e.m.PushRetries.Add(1)
	delay := erp.Backoff(time.Second, attempts, 15*time.Minute)
	e.log.Info("write deferred", "kind", en.Kind, "record", en.RecordID, "attempt", attempts, "retry_in", delay, "err", err)
	return w.DeferOutbox(ctx, en.ID, attempts, e.opt.Now().Add(delay), errorText(err), e.opt.Now())
}

// userMessage is what the record shows about a failed write: the ERP's
// words for a validation error (the user's to fix), a plain sentence
// otherwise (the details are in the log).
func userMessage(err error) string {
	if ee, ok := errors.AsType[*erp.Error](err); ok && ee.Permanent && ee.Detail != "" {
		if ee.Path != "" {
			return ee.Detail + " (field " + ee.Path + ")"
		}
		return ee.Detail
	}
	return "No answer after several attempts. Try again later."
}

// RetryRecord sends a record's refused change again, soon.
func (e *Engine) RetryRecord(ctx context.Context, kind string, id int64) error {
	en, err := e.store.FailedEntry(ctx, kind, id)
	if err != nil {
		return err
	}
	if err := e.store.RetryOutbox(ctx, en.ID, e.opt.Now()); err != nil {
		return err
	}
	e.Notify()
	return nil
}

// DiscardRecord drops a record's refused change and the changes queued
// after it: a create that never reached the ERP disappears, an edited
// record goes back to the ERP's version (or away, when the ERP deleted
// it meanwhile). Only a refused change can be discarded: one still on its
// way may be landing.
func (e *Engine) DiscardRecord(ctx context.Context, kind string, id int64) error {
	en, err := e.store.FailedEntry(ctx, kind, id)
	if err != nil {
		return err
	}
	k, ok := records.Lookup(kind)
	if !ok {
		return portal.Errorf(portal.CodeNotFound, "No such kind.")
	}
	if en.Op == records.OpCreate {
		return e.store.DiscardOutbox(ctx, en, nil, e.opt.Now())
	}
	rec, err := e.conn.Fetch(ctx, k, en.RecordID)
	if portal.IsNotFound(err) {
		// Deleted in the ERP meanwhile (which is likely why the edit
		// failed): the record goes here too.
		return e.store.DiscardOutbox(ctx, en, nil, e.opt.Now())
	}
	if err != nil {
		return err
	}
	return e.store.DiscardOutbox(ctx, en, &rec, e.opt.Now())
}

// enrichRequest names one version of a record.
type enrichRequest struct {
	kind    string
	id      int64
	version int64 // unix milliseconds
}

// enrichQueue bounds the documents waiting to be fetched; enrichMemory
// how many versions the engine remembers having asked for.
const (
	enrichQueue  = 256
	enrichMemory = 10_000
)

// Enrich asks, without waiting, for a record's whole document from the
// ERP: a pull reads the promoted and extra columns through SuiteQL, not
// sublists (notes, answers, communication...) nor every custom field,
// which the record API gives. Record pages ask when they are opened; each
// version is fetched at most once per process, in the background (Run),
// and merged into the stored document. When the queue is full the request
// is dropped: the next view asks again. It reports whether it queued a
// fetch (false: this version was asked for already, or cannot be).
func (e *Engine) Enrich(kind string, id int64, version time.Time) bool {
	if id >= records.ProvisionalBase {
		return false
	}
	req := enrichRequest{kind, id, version.UnixMilli()}
	e.enrichMu.Lock()
	if e.enriched[req] {
		e.enrichMu.Unlock()
		return false
	}
	if len(e.enriched) >= enrichMemory {
		clear(e.enriched)
	}
	e.enriched[req] = true
	e.enrichMu.Unlock()
	select {
	case e.enrich <- req:
		return true
	default:
		e.enrichMu.Lock()
		delete(e.enriched, req)
		e.enrichMu.Unlock()
		return false
	}
}

func (e *Engine) enrichLoop(ctx context.Context) {
	for {
		select {
		case <-ctx.Done():
			return
		case req := <-e.enrich:
			if err := e.fetchWhole(ctx, req.kind, req.id); err != nil && ctx.Err() == nil {
				e.log.Warn("fetch a whole record", "kind", req.kind, "id", req.id, "err", err)
			}
		}
	}
}

// fetchWhole reads a record's whole document from the ERP and stores it
// (merged into the stored one, which it replaces only if it is not
// older).
func (e *Engine) fetchWhole(ctx context.Context, kind string, id int64) error {
	k, ok := records.Lookup(kind)
	if !ok {
		return nil
	}
	rec, err := e.conn.Fetch(ctx, k, id)
	if err != nil {
		return err
	}
	return e.store.PutRecords(ctx, []records.Record{rec})
}

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
		e.logRound("pull", ctx, e.Pull(ctx, req.kinds, req.full))
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
		_, err := e.Push(ctx)
		e.logRound("push", ctx, err)
	}
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

// WritePrometheus writes the engine's counters, whether it holds the
// sync lease, and each kind's sync status as gauges, in Prometheus' text
// exposition format. Every series carries the instance label (Options'
// Instance): counters are this instance's; the status gauges, read from
// the shared database, are alike in every instance.
func (e *Engine) WritePrometheus(ctx context.Context, w io.Writer) error {
	m := &e.m
	inst := fmt.Sprintf("instance=%q", e.opt.Instance)
	for _, c := range []struct {
		name, help string
		v          int64
	}{
		{"portico_sync_pulled_records_total", "New or changed records stored by ERP pulls.", m.Pulled.Load()},
		{"portico_sync_deleted_records_total", "ERP deletions applied.", m.Deleted.Load()},
		{"portico_sync_pull_errors_total", "Kind pulls that failed.", m.PullErrors.Load()},
		{"portico_sync_push_synced_total", "Outbox writes the ERP took.", m.PushSynced.Load()},
		{"portico_sync_push_failed_total", "Outbox writes the ERP refused or that were given up.", m.PushFailed.Load()},
		{"portico_sync_push_retries_total", "Transient write failures, retried later.", m.PushRetries.Load()},
	} {
		fmt.Fprintf(w, "# HELP %s %s\n# TYPE %s counter\n%s{%s} %d\n", c.name, c.help, c.name, c.name, inst, c.v)
	}
	if cw, ok := e.conn.(clockWatcher); ok {
		n, _ := cw.ClockDisagreement()
		fmt.Fprintf(w, "# HELP portico_sync_erp_clock_disagreements_total Records whose last-modified times from the ERP's two APIs disagreed (a wrong time zone in the mapping; see the sync status).\n# TYPE portico_sync_erp_clock_disagreements_total counter\nportico_sync_erp_clock_disagreements_total{%s} %d\n",
			inst, n)
	}
	fmt.Fprintf(w, "# HELP portico_sync_pull_seconds_total Wall time spent pulling.\n# TYPE portico_sync_pull_seconds_total counter\nportico_sync_pull_seconds_total{%s} %.3f\n",
		inst, float64(m.PullMillis.Load())/1000)
	holder := 0
	if e.holds() {
		holder = 1
	}
	fmt.Fprintf(w, "# HELP portico_sync_lease_holder 1 when this instance holds the sync lease (it pulls and pushes).\n# TYPE portico_sync_lease_holder gauge\nportico_sync_lease_holder{%s} %d\n",
		inst, holder)
	st, err := e.Status(ctx)
	if err != nil {
		return err
	}
	gauges := []struct {
		name, help string
		value      func(KindStatus) float64
	}{
		{"portico_sync_lag_seconds", "Seconds since the kind's last successful pull (-1: never).", func(k KindStatus) float64 { return float64(k.LagSeconds) }},
		{"portico_sync_last_success_timestamp_seconds", "When the kind's last successful pull ran (0: never).", func(k KindStatus) float64 {
			if k.LastSuccess.IsZero() {
				return 0
			}
			return float64(k.LastSuccess.Unix())
		}},
		{"portico_sync_kind_pulled_records", "Records the kind's pulls have stored.", func(k KindStatus) float64 { return float64(k.PulledTotal) }},
		{"portico_sync_kind_failing", "1 when the kind's last pull failed.", func(k KindStatus) float64 {
			if k.LastError != "" {
				return 1
			}
			return 0
		}},
		{"portico_sync_kind_unavailable", "1 when the account does not have the kind as mapped, or the mapping turns it off.", func(k KindStatus) float64 {
			if k.Unavailable != "" || k.Off {
				return 1
			}
			return 0
		}},
	}
	for _, g := range gauges {
		fmt.Fprintf(w, "# HELP %s %s\n# TYPE %s gauge\n", g.name, g.help, g.name)
		for _, k := range st.Kinds {
			fmt.Fprintf(w, "%s{%s,kind=%q} %g\n", g.name, inst, k.Kind, g.value(k))
		}
	}
	fmt.Fprintf(w, "# HELP portico_sync_outbox_entries Outbox entries by state.\n# TYPE portico_sync_outbox_entries gauge\n")
	for _, state := range []string{EntryPending, EntryFailed, EntrySynced, EntryDiscarded} {
		fmt.Fprintf(w, "portico_sync_outbox_entries{%s,state=%q} %d\n", inst, state, st.Outbox[state])
	}
	return nil
}
