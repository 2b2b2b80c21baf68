package erpsync

import (
	"context"
	"time"

	"github.com/portico/portico/internal/erp"
	"github.com/portico/portico/internal/portal"
	"github.com/portico/portico/internal/records"
)

// KindStatus is one kind's sync status for the status page.
type KindStatus struct {
	State
	Label string `json:"label"`
	// LagSeconds is how old the replica of this kind may be: the time
	// since its last successful pull (-1 before the first).
	LagSeconds int64 `json:"lagSeconds"`
	// Off: the mapping turns the kind off; it is not synced.
	Off bool `json:"off,omitempty"`
}

// Status is the tenant's sync status: every kind, the outbox by state and
// its open entries (pending and failed, newest first).
type Status struct {
	IntervalSeconds int64            `json:"intervalSeconds"`
	Kinds           []KindStatus     `json:"kinds"`
	Outbox          map[string]int64 `json:"outbox"`
	Open            []Entry          `json:"open"`
	// Clock is the last disagreement between the ERP's two clocks this
	// instance saw ("" when none): a record's last-modified time read
	// through the query API, in the zone the configuration names, is not
	// the record API's. The message names both times and the fix.
	Clock string `json:"clock,omitempty"`
}

// clockWatcher is a connector that notices when the ERP's two ways of
// giving a time disagree (*netsuite.Client does): how often, and its
// last account of it.
type clockWatcher interface {
	ClockDisagreement() (count int64, last string)
}

// openShown bounds the open entries the status lists.
const openShown = 100

// Status reports where every kind and the outbox stand.
func (e *Engine) Status(ctx context.Context) (Status, error) {
	states, err := e.store.SyncStates(ctx)
	if err != nil {
		return Status{}, err
	}
	byKind := map[string]State{}
	for _, st := range states {
		byKind[st.Kind] = st
	}
	now := e.opt.Now()
	out := Status{IntervalSeconds: int64(e.opt.Interval / time.Second)}
	if cw, ok := e.conn.(clockWatcher); ok {
		_, out.Clock = cw.ClockDisagreement()
	}
	for _, k := range e.store.Kinds().All() {
		st, ok := byKind[k.Name]
		if !ok {
			st = State{Kind: k.Name}
		}
		ks := KindStatus{State: st, Label: k.Plural, LagSeconds: -1}
		if af, ok := e.conn.(accountFit); ok {
			ks.Off = af.Off(k)
		}
		if !st.LastSuccess.IsZero() {
			ks.LagSeconds = int64(now.Sub(st.LastSuccess) / time.Second)
		}
		out.Kinds = append(out.Kinds, ks)
	}
	if out.Outbox, err = e.store.OutboxCounts(ctx); err != nil {
		return out, err
	}
	for _, state := range []string{EntryPending, EntryFailed, EntrySynced} {
		out.Outbox[state] += 0 // every count the page shows, zero or not
	}
	out.Open, err = e.store.OutboxEntries(ctx, []string{EntryPending, EntryFailed}, openShown)
	if out.Open == nil {
		out.Open = []Entry{}
	}
	return out, err
}

// Seer tells what the status's reader may see (records.Guard, the one
// place that decides it).
type Seer interface {
	// Seen returns, of the records named by kind and id, those the
	// reader may see, as a set per kind.
	Seen(ctx context.Context, byKind map[string][]int64) (map[string]map[int64]bool, error)
	// SeesAll reports whether the reader sees every record of kind.
	SeesAll(ctx context.Context, kind string) (bool, error)
}

// SeenBy is the status as the reader s decides for may see it: the open
// entries of the records they may see (an entry names its record and
// carries the ERP's message about it), the kinds they see every record
// of (a kind's pull counts count all of its records). A reader who does
// not see every record of every kind gets the outbox's counts of the
// entries they are shown (pending and failed) and no others: the
// tenant's would count records they may not see.
func (st Status) SeenBy(ctx context.Context, s Seer) (Status, error) {
	out, whole := st, true
	out.Kinds = []KindStatus{}
	for _, k := range st.Kinds {
		all, err := s.SeesAll(ctx, k.Kind)
		if err != nil {
			return Status{}, err
		}
		if all {
			out.Kinds = append(out.Kinds, k)
		}
		whole = whole && all
	}
	byKind := map[string][]int64{}
	for _, e := range st.Open {
		byKind[e.Kind] = append(byKind[e.Kind], e.RecordID)
	}
	seen, err := s.Seen(ctx, byKind)
	if err != nil {
		return Status{}, err
	}
	out.Open = []Entry{}
	for _, e := range st.Open {
		if seen[e.Kind][e.RecordID] {
			out.Open = append(out.Open, e)
		}
	}
	if !whole {
		out.Outbox = map[string]int64{EntryPending: 0, EntryFailed: 0}
		for _, e := range out.Open {
			out.Outbox[e.State]++
		}
	}
	return out, nil
}

// Files lists a record's attachments as the ERP has them (none for a
// record the ERP has not created yet, or when the connector cannot reach
// files), then the files added in the portal that the ERP does not have
// yet (pending, or refused with its message).
func (e *Engine) Files(ctx context.Context, kind string, recordID int64) ([]records.File, error) {
	var out []records.File
	fc, ok := e.conn.(erp.Files)
	k, known := e.store.Kinds().Lookup(kind)
	if ok && known && recordID < records.ProvisionalBase {
		var err error
		if out, err = fc.RecordFiles(ctx, k, recordID); err != nil {
			return nil, err
		}
	}
	local, err := e.store.Files(ctx, kind, recordID)
	if err != nil {
		return nil, err
	}
	for _, f := range local {
		if f.Write.State != records.WriteSynced {
			out = append(out, f)
		}
	}
	return out, nil
}

// File returns one attachment of a record, with its content: only a file
// the ERP lists on that record, so a file id alone opens nothing, or one
// the portal added (read from the store, delivered or not).
func (e *Engine) File(ctx context.Context, kind string, recordID, fileID int64) (records.File, error) {
	if fileID >= records.ProvisionalBase {
		return e.store.File(ctx, kind, recordID, fileID)
	}
	files, err := e.Files(ctx, kind, recordID)
	if err != nil {
		return records.File{}, err
	}
	for _, f := range files {
		if f.ID == fileID {
			file, err := e.conn.(erp.Files).File(ctx, fileID)
			file.Kind, file.RecordID = kind, recordID
			return file, err
		}
	}
	return records.File{}, portal.Errorf(portal.CodeNotFound, "This record has no such file.")
}
