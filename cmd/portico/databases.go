package main

import (
	"context"
	"fmt"
	"maps"
	"slices"

	"github.com/portico/portico/internal/config"
	"github.com/portico/portico/internal/portal"
	"github.com/portico/portico/internal/sqlstore"
	"github.com/portico/portico/internal/tenancy"
)

// databases are where a deployment's tenants live (issue 39, placement):
// the main database (PORTICO_DATABASE_URL), which keeps every tenant's
// directory entry (name, hosts, suspension, NetSuite connection) and the
// deployment's secrets and the data of the tenants placed nowhere else,
// and the databases PORTICO_TENANT_DATABASES places tenants in, each
// holding those tenants' data (records, users, sessions, events, sync
// state) under its own copy of their tenant row. The instances serving
// them share all of them.
type databases struct {
	main   *sqlstore.Store
	placed map[portal.TenantID]*sqlstore.Store
	all    []*sqlstore.Store // main first, each once
}

// openDatabases opens (migrating each) the databases cfg places tenants
// in, beside main. Every tenant placed must be in main's directory
// (`portico tenants add`); its row is made in its database (the data's
// references need it) with the directory's name.
func openDatabases(ctx context.Context, cfg config.Config, main *sqlstore.Store) (d *databases, err error) {
	d = &databases{main: main, placed: map[portal.TenantID]*sqlstore.Store{}, all: []*sqlstore.Store{main}}
	if len(cfg.TenantDatabases) == 0 {
		return d, nil
	}
	defer func() {
		if err != nil {
			d.close()
		}
	}()
	tenants, err := main.Tenants(ctx)
	if err != nil {
		return nil, err
	}
	byURL := map[string]*sqlstore.Store{}
	for _, id := range slices.Sorted(maps.Keys(cfg.TenantDatabases)) {
		i := slices.IndexFunc(tenants, func(t tenancy.Tenant) bool { return t.ID == id })
		if i < 0 {
			return nil, fmt.Errorf("PORTICO_TENANT_DATABASES places tenant %s, which is not in the main database: `portico tenants add %s` first", id, id)
		}
		url := cfg.TenantDatabases[id]
		st, ok := byURL[url]
		if !ok {
			if st, err = sqlstore.Open(ctx, url, ""); err != nil {
				return nil, fmt.Errorf("tenant %s's database: %w", id, err)
			}
			st.SetMaxConns(cfg.DatabaseMaxConns)
			byURL[url] = st
			d.all = append(d.all, st)
		}
		if err := st.EnsureTenant(ctx, id, tenants[i].Name); err != nil {
			return nil, fmt.Errorf("tenant %s's database: %w", id, err)
		}
		d.placed[id] = st
	}
	return d, nil
}

// of is the database tenant t's data lives in.
func (d *databases) of(t portal.TenantID) *sqlstore.Store {
	if st, ok := d.placed[t]; ok {
		return st
	}
	return d.main
}

// tenant is tenant t's handle, in its database.
func (d *databases) tenant(t portal.TenantID) *sqlstore.Tenant { return d.of(t).Tenant(t) }

// Ping checks that every database answers, the main one and each a
// tenant is placed in: the health check's (a deployment whose tenants'
// database is down is not healthy, though its main one answers).
func (d *databases) Ping(ctx context.Context) error {
	for i, st := range d.all {
		if err := st.Ping(ctx); err != nil {
			if i > 0 {
				return fmt.Errorf("a database tenants are placed in: %w", err)
			}
			return err
		}
	}
	return nil
}

// Engine is the main database's engine.
func (d *databases) Engine() string { return d.main.Engine() }

// close closes the databases opened beside main.
func (d *databases) close() {
	for _, st := range d.all[1:] {
		st.Close()
	}
}
