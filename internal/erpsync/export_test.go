package erpsync

import "context"

// EnrichNow does at once, and waits for, what Enrich queues for Run: the
// record's whole document fetched from the ERP and stored.
func (e *Engine) EnrichNow(ctx context.Context, kind string, id int64) error {
	return e.fetchWhole(ctx, kind, id)
}
