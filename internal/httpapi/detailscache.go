package httpapi

import (
	"sync"

	"github.com/portico/portico/internal/portal"
	"github.com/portico/portico/internal/records"
)

// detailsCache keeps the "Details" group of record pages by record
// version (tenant, kind, id, modified time, document size): decoding the
// document was a fifth of a record view's time. It is fresh by
// construction: every write and every sync of a changed record changes its
// modified time, and completing a document from the ERP (same version,
// more fields) its size, so a new version never meets an old entry.
// Bounded; when full it starts over.
type detailsCache struct {
	mu sync.Mutex
	m  map[detailsKey]records.FieldGroup
}

type detailsKey struct {
	tenant   portal.TenantID
	kind     string
	id       int64
	modified int64
	size     int
}

const maxCachedDetails = 20_000

// of returns rec's Details group, from the cache when this version was
// rendered before.
func (c *detailsCache) of(tenant portal.TenantID, k *records.Kind, rec records.Record) records.FieldGroup {
	key := detailsKey{tenant, k.Name, rec.ID, rec.ModifiedAt.UnixMilli(), len(rec.Fields)}
	c.mu.Lock()
	d, ok := c.m[key]
	c.mu.Unlock()
	if ok {
		return d
	}
	d = k.Details(rec)
	c.mu.Lock()
	if c.m == nil || len(c.m) >= maxCachedDetails {
		c.m = map[detailsKey]records.FieldGroup{}
	}
	c.m[key] = d
	c.mu.Unlock()
	return d
}
