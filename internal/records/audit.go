package records

import (
	"context"

	"github.com/portico/portico/internal/access"
)

// AuditReader reads the tenant's audit log (the store).
type AuditReader interface {
	AuditEvents(ctx context.Context, f access.AuditFilter) ([]access.AuditEvent, error)
}

// auditReads bounds how many pages of the log AuditEvents reads to fill
// one page for a caller who may not see every record the log names.
const auditReads = 20

// AuditEvents reads the audit log as the caller may see it: an event
// about a record they may not see (its name, its changes, its notes and
// files) is left out, others are kept. A page left short by that is
// filled from older events, reading at most auditReads pages of the log,
// so a short page is the end of the log, or of what that bound reaches.
func (g *Guard) AuditEvents(ctx context.Context, st AuditReader, f access.AuditFilter) ([]access.AuditEvent, error) {
	var out []access.AuditEvent
	for range auditReads {
		page, err := st.AuditEvents(ctx, f)
		if err != nil || len(page) == 0 {
			return out, err
		}
		byKind := map[string][]int64{}
		for _, e := range page {
			if e.Kind != "" && e.RecordID != 0 {
				byKind[e.Kind] = append(byKind[e.Kind], e.RecordID)
			}
		}
		seen, err := g.Seen(ctx, byKind)
		if err != nil {
			return nil, err
		}
		for _, e := range page {
			if (e.Kind == "" || e.RecordID == 0 || seen[e.Kind][e.RecordID]) && len(out) < f.Limit {
				out = append(out, e)
			}
		}
		if len(out) >= f.Limit || len(page) < f.Limit {
			return out, nil
		}
		f.Before = page[len(page)-1].ID
	}
	return out, nil
}
