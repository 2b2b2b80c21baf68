package sqlstore

import (
	"context"
	"database/sql"
	"errors"
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

var (
	getBaseCurrency = scope(`SELECT base_currency FROM tenants WHERE id = :tenant`)
	setBaseCurrency = scope(`UPDATE tenants SET base_currency = ? WHERE id = :tenant AND base_currency <> ?`)
)

// BaseCurrency returns the ISO 4217 code of the tenant's base currency as
// its ERP account gave it (SetBaseCurrency), "" when none has: records
// whose Currency is "" are in it.
func (t *Tenant) BaseCurrency(ctx context.Context) (string, error) {
	var code string
	err := t.queryRow(ctx, getBaseCurrency).Scan(&code)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	return code, err
}

// SetBaseCurrency records the tenant's base currency as its ERP account
// has it (the sync calls it on every pull; an unchanged one writes
// nothing).
func (t *Tenant) SetBaseCurrency(ctx context.Context, code string) error {
	_, err := t.exec(ctx, setBaseCurrency, code, code)
	return err
}
