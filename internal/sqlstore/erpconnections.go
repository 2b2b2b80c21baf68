package sqlstore

import (
	"context"
	"time"

	"github.com/portico/portico/internal/erpconn"
	"github.com/portico/portico/internal/portal"
)

// Tenants' NetSuite connections (migration 0035): the store keeps what
// package erpconn gives it, credentials already sealed.

var _ erpconn.Store = (*Store)(nil)

// PutERPConnection implements erpconn.Store.
func (s *Store) PutERPConnection(ctx context.Context, c erpconn.Stored) error {
	ok, err := s.TenantExists(ctx, c.Tenant)
	if err != nil {
		return err
	}
	if !ok {
		return portal.Errorf(portal.CodeNotFound, "there is no tenant %s", c.Tenant)
	}
	_, err = s.db.ExecContext(ctx, s.d.rebind(`INSERT INTO erp_connections (tenant_id, settings, mapping, secrets, updated_at)
		VALUES (?, ?, ?, ?, ?) ON CONFLICT (tenant_id) DO UPDATE SET settings = excluded.settings, mapping = excluded.mapping,
		secrets = excluded.secrets, updated_at = excluded.updated_at`),
		string(c.Tenant), c.Settings, c.Mapping, c.Secrets, c.UpdatedAt.UnixMilli())
	return err
}

// ERPConnections implements erpconn.Store.
func (s *Store) ERPConnections(ctx context.Context) ([]erpconn.Stored, error) {
	rows, err := s.rdb.QueryContext(ctx, `SELECT tenant_id, settings, mapping, secrets, updated_at FROM erp_connections ORDER BY tenant_id`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []erpconn.Stored
	for rows.Next() {
		var (
			c  erpconn.Stored
			id string
			at int64
		)
		if err := rows.Scan(&id, &c.Settings, &c.Mapping, &c.Secrets, &at); err != nil {
			return nil, err
		}
		c.Tenant, c.UpdatedAt = portal.TenantID(id), time.UnixMilli(at).UTC()
		out = append(out, c)
	}
	return out, rows.Err()
}

// DeleteERPConnection implements erpconn.Store.
func (s *Store) DeleteERPConnection(ctx context.Context, tenant portal.TenantID) error {
	_, err := s.db.ExecContext(ctx, s.d.rebind(`DELETE FROM erp_connections WHERE tenant_id = ?`), string(tenant))
	return err
}
