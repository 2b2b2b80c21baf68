package sqlstore

import (
	"context"
	"time"

	"github.com/portico/portico/internal/portal"
)

// EnsureTenant creates tenant id with a display name, or leaves an existing
// one as it is.
func (s *Store) EnsureTenant(ctx context.Context, id portal.TenantID, name string) error {
	_, err := s.db.ExecContext(ctx, s.d.rebind(`INSERT INTO tenants (id, name, created_at) VALUES (?, ?, ?)
		ON CONFLICT (id) DO NOTHING`), string(id), name, time.Now().UnixMilli())
	return err
}
