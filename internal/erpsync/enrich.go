package erpsync

import (
	"context"
	"time"

	"github.com/portico/portico/internal/records"
)

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
	k, ok := e.store.Kinds().Lookup(kind)
	if !ok {
		return nil
	}
	rec, err := e.conn.Fetch(ctx, k, id)
	if err != nil {
		return err
	}
	return e.store.PutRecords(ctx, []records.Record{rec})
}
