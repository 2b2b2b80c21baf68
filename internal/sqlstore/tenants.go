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

// TenantExists reports whether tenant id has been created (by `seed` or
// `roles import`).
func (s *Store) TenantExists(ctx context.Context, id portal.TenantID) (bool, error) {
	var n int
	err := s.db.QueryRowContext(ctx, s.d.rebind(`SELECT COUNT(*) FROM tenants WHERE id = ?`), string(id)).Scan(&n)
	return n > 0, err
}
