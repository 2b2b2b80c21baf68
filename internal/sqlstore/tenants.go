package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"slices"
	"strings"
	"time"

	"github.com/portico/portico/internal/portal"
	"github.com/portico/portico/internal/tenancy"
)

// EnsureTenant creates tenant id with a display name, or leaves an existing
// one as it is (its hosts, identity tenant and suspension too).
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

// The deployment's tenants (issue 39): their host names, identity tenant
// and suspension, written by `portico tenants` and read by the server's
// tenant map (package tenancy).

var _ tenancy.Directory = (*Store)(nil)

// Tenants lists every tenant of the deployment, ordered by id, each with
// its host names (sorted; none is an empty, not a nil, list), its identity
// tenant ("" when it is the id), whether it is suspended and when it was
// created. It reads one consistent state: a host is never listed without
// its tenant. It is the tenancy.Directory the server's map is built from.
func (s *Store) Tenants(ctx context.Context) ([]tenancy.Tenant, error) {
	rows, err := s.rdb.QueryContext(ctx, `SELECT t.id, t.name, t.identity_tenant, t.suspended_at, t.created_at, t.environment, h.host
		FROM tenants t LEFT JOIN tenant_hosts h ON h.tenant_id = t.id`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	byID := map[portal.TenantID]*tenancy.Tenant{}
	var out []*tenancy.Tenant
	for rows.Next() {
		var (
			t         tenancy.Tenant
			suspended sql.NullInt64
			created   int64
			host      sql.NullString
		)
		if err := rows.Scan(&t.ID, &t.Name, &t.IdentityTenant, &suspended, &created, &t.Environment, &host); err != nil {
			return nil, err
		}
		have := byID[t.ID]
		if have == nil {
			t.Suspended = suspended.Valid
			t.CreatedAt = time.UnixMilli(created).UTC()
			t.Hosts = []string{}
			have = &t
			byID[t.ID] = have
			out = append(out, have)
		}
		if host.Valid {
			have.Hosts = append(have.Hosts, host.String)
		}
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	// Sorted here, not by the engines: PostgreSQL's text order follows the
	// database's collation, SQLite's the bytes.
	tenants := make([]tenancy.Tenant, len(out))
	for i, t := range out {
		slices.Sort(t.Hosts)
		tenants[i] = *t
	}
	slices.SortFunc(tenants, func(a, b tenancy.Tenant) int { return strings.Compare(string(a.ID), string(b.ID)) })
	return tenants, nil
}

// AddTenant creates tenant t with its host names, in one transaction: all
// of it is stored or none. Its id must be a valid tenant id, its name not
// empty, its identity tenant ("" for its id) a valid tenant id, and each
// host a host name (normalised by tenancy.ParseHost; the same host twice
// counts once): otherwise a CodeInvalid error names what is wrong. An id
// the deployment has is a CodeConflict error ("tenant acme exists"), and
// so is a host another tenant answers at, naming the host and that tenant.
// Of concurrent calls claiming one id or one host, on either engine,
// exactly one succeeds and the others get that CodeConflict error.
// CreatedAt defaults to now; a Suspended tenant is created suspended.
func (s *Store) AddTenant(ctx context.Context, t tenancy.Tenant) error {
	id, err := portal.ParseTenantID(string(t.ID))
	if err != nil {
		return err
	}
	name := strings.TrimSpace(t.Name)
	if name == "" {
		return portal.Errorf(portal.CodeInvalid, "tenant %s needs a name", id)
	}
	identity := strings.TrimSpace(t.IdentityTenant)
	if identity != "" {
		if _, err := portal.ParseTenantID(identity); err != nil {
			return portal.Errorf(portal.CodeInvalid, "%q is not a valid identity tenant", t.IdentityTenant)
		}
	}
	environment, err := tenancy.ParseEnvironment(t.Environment)
	if err != nil {
		return err
	}
	hosts, err := parseHosts(t.Hosts)
	if err != nil {
		return err
	}
	created := t.CreatedAt
	if created.IsZero() {
		created = time.Now()
	}
	var suspendedAt any
	if t.Suspended {
		suspendedAt = created.UnixMilli()
	}
	return s.inTx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, s.d.rebind(`INSERT INTO tenants (id, name, identity_tenant, suspended_at, created_at, environment)
			VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING`), string(id), name, identity, suspendedAt, created.UnixMilli(), environment)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil || n == 0 {
			if err != nil {
				return err
			}
			return portal.Errorf(portal.CodeConflict, "tenant %s exists", id)
		}
		return s.claimHosts(ctx, tx, id, hosts)
	})
}

// AddTenantHosts makes tenant id answer at hosts too, in one transaction,
// by the rules of AddTenant: a host it has already is left as it is; a
// host another tenant has is a CodeConflict error naming both, and then
// none is added. An unknown tenant is a CodeNotFound error.
func (s *Store) AddTenantHosts(ctx context.Context, id portal.TenantID, hosts ...string) error {
	return s.ChangeTenantHosts(ctx, id, hosts, nil)
}

// RemoveTenantHosts stops tenant id answering at hosts, in one
// transaction. A host it does not have is left as it is (the outcome is
// the one asked for); a host another tenant has is a CodeConflict error
// naming both, and then none is removed. An unknown tenant is a
// CodeNotFound error; a host that is not a host name, CodeInvalid.
func (s *Store) RemoveTenantHosts(ctx context.Context, id portal.TenantID, hosts ...string) error {
	return s.ChangeTenantHosts(ctx, id, nil, hosts)
}

// ChangeTenantHosts removes hosts from tenant id and adds others to it in
// one transaction, by the rules of AddTenantHosts and RemoveTenantHosts:
// all of the change is made or, on any error, none. A host both added and
// removed is a CodeInvalid error.
func (s *Store) ChangeTenantHosts(ctx context.Context, id portal.TenantID, add, remove []string) error {
	added, err := parseHosts(add)
	if err != nil {
		return err
	}
	removed, err := parseHosts(remove)
	if err != nil {
		return err
	}
	for _, h := range removed {
		if slices.Contains(added, h) {
			return portal.Errorf(portal.CodeInvalid, "host %s is both added and removed", h)
		}
	}
	return s.inTx(ctx, func(tx *sql.Tx) error {
		var one int
		err := tx.QueryRowContext(ctx, s.d.rebind(`SELECT 1 FROM tenants WHERE id = ?`), string(id)).Scan(&one)
		if errors.Is(err, sql.ErrNoRows) {
			return portal.Errorf(portal.CodeNotFound, "there is no tenant %s", id)
		} else if err != nil {
			return err
		}
		for _, h := range removed {
			res, err := tx.ExecContext(ctx, s.d.rebind(`DELETE FROM tenant_hosts WHERE host = ? AND tenant_id = ?`), h, string(id))
			if err != nil {
				return err
			}
			if n, err := res.RowsAffected(); err != nil {
				return err
			} else if n > 0 {
				continue
			}
			owner, err := s.hostOwner(ctx, tx, h)
			if err != nil {
				return err
			}
			if owner != "" && owner != id {
				return portal.Errorf(portal.CodeConflict, "host %s belongs to tenant %s, not %s", h, owner, id)
			}
		}
		return s.claimHosts(ctx, tx, id, added)
	})
}

// SetTenantSuspended suspends tenant id (its data stays; sign-in, sessions
// and sync stop), as of at (now when zero), or resumes it. Suspending a
// suspended tenant keeps the time it was first suspended; resuming an
// active one changes nothing. An unknown tenant is a CodeNotFound error.
func (s *Store) SetTenantSuspended(ctx context.Context, id portal.TenantID, suspended bool, at time.Time) error {
	if at.IsZero() {
		at = time.Now()
	}
	q, args := `UPDATE tenants SET suspended_at = NULL WHERE id = ?`, []any{string(id)}
	if suspended {
		q, args = `UPDATE tenants SET suspended_at = COALESCE(suspended_at, ?) WHERE id = ?`, []any{at.UnixMilli(), string(id)}
	}
	return s.updateTenant(ctx, id, q, args...)
}

// SetTenantEnvironment sets tenant id's environment badge ("" for the
// deployment's); an unknown tenant is a CodeNotFound error, a badge
// tenancy.ParseEnvironment refuses a CodeInvalid one.
func (s *Store) SetTenantEnvironment(ctx context.Context, id portal.TenantID, environment string) error {
	env, err := tenancy.ParseEnvironment(environment)
	if err != nil {
		return err
	}
	return s.updateTenant(ctx, id, `UPDATE tenants SET environment = ? WHERE id = ?`, env, string(id))
}

// updateTenant runs an UPDATE of tenant id's row; no such row is a
// CodeNotFound error.
func (s *Store) updateTenant(ctx context.Context, id portal.TenantID, q string, args ...any) error {
	res, err := s.db.ExecContext(ctx, s.d.rebind(q), args...)
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil {
		return err
	} else if n == 0 {
		return portal.Errorf(portal.CodeNotFound, "there is no tenant %s", id)
	}
	return nil
}

// parseHosts normalises hosts (tenancy.ParseHost), without repeats, in
// order: concurrent transactions claiming overlapping hosts then claim
// them in the same order, so that on PostgreSQL one waits for the other
// instead of the two deadlocking.
func parseHosts(hosts []string) ([]string, error) {
	out := make([]string, 0, len(hosts))
	for _, h := range hosts {
		p, err := tenancy.ParseHost(h)
		if err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	slices.Sort(out)
	return slices.Compact(out), nil
}

// claimHosts gives tenant id the hosts (parsed, in order) in tx. A host
// another tenant has is a CodeConflict error. The insert does nothing on
// a taken host rather than fail: on PostgreSQL it first waits for a
// concurrent transaction inserting the same host, and then does nothing
// if that one committed, so a race ends in the same error as a sequence
// (and a failed statement would abort the transaction). The owner is read
// afresh after it (READ COMMITTED: a new snapshot per statement).
func (s *Store) claimHosts(ctx context.Context, tx *sql.Tx, id portal.TenantID, hosts []string) error {
	insert := s.d.rebind(`INSERT INTO tenant_hosts (host, tenant_id) VALUES (?, ?) ON CONFLICT (host) DO NOTHING`)
	for _, h := range hosts {
		for attempt := 0; ; attempt++ {
			res, err := tx.ExecContext(ctx, insert, h, string(id))
			if err != nil {
				return err
			}
			n, err := res.RowsAffected()
			if err != nil {
				return err
			}
			if n > 0 {
				break
			}
			owner, err := s.hostOwner(ctx, tx, h)
			if err != nil {
				return err
			}
			if owner == id {
				break
			}
			if owner != "" {
				return portal.Errorf(portal.CodeConflict, "host %s belongs to tenant %s", h, owner)
			}
			// Removed between the two statements: claim it again.
			if attempt == 3 {
				return portal.Errorf(portal.CodeConflict, "host %s is being changed by another command; try again", h)
			}
		}
	}
	return nil
}

// hostOwner is the tenant that answers at host, "" when none does.
func (s *Store) hostOwner(ctx context.Context, tx *sql.Tx, host string) (portal.TenantID, error) {
	var owner string
	err := tx.QueryRowContext(ctx, s.d.rebind(`SELECT tenant_id FROM tenant_hosts WHERE host = ?`), host).Scan(&owner)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	return portal.TenantID(owner), err
}
