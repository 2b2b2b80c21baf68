package erpsync

import (
	"context"
	"time"

	"github.com/portico/portico/internal/records"
)

// KindStatus is one kind's sync status for the status page.
type KindStatus struct {
	State
	Label string `json:"label"`
	// LagSeconds is how old the replica of this kind may be: the time
	// since its last successful pull (-1 before the first).
	LagSeconds int64 `json:"lagSeconds"`
}

// Status is the tenant's sync status: every kind, the outbox by state and
// its open entries (pending and failed, newest first).
type Status struct {
	IntervalSeconds int64            `json:"intervalSeconds"`
	Kinds           []KindStatus     `json:"kinds"`
	Outbox          map[string]int64 `json:"outbox"`
	Open            []Entry          `json:"open"`
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
	for _, k := range records.All() {
		st, ok := byKind[k.Name]
		if !ok {
			st = State{Kind: k.Name}
		}
		ks := KindStatus{State: st, Label: k.Plural, LagSeconds: -1}
		if !st.LastSuccess.IsZero() {
			ks.LagSeconds = int64(now.Sub(st.LastSuccess) / time.Second)
		}
		out.Kinds = append(out.Kinds, ks)
	}
	if out.Outbox, err = e.store.OutboxCounts(ctx); err != nil {
		return out, err
	}
	out.Open, err = e.store.OutboxEntries(ctx, []string{EntryPending, EntryFailed}, openShown)
	if out.Open == nil {
		out.Open = []Entry{}
	}
	return out, err
}
