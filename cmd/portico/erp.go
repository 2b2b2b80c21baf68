package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/portico/portico/internal/config"
	"github.com/portico/portico/internal/erp/netsuite"
	"github.com/portico/portico/internal/erpconn"
	"github.com/portico/portico/internal/erpsync"
	"github.com/portico/portico/internal/httpapi"
	"github.com/portico/portico/internal/portal"
	"github.com/portico/portico/internal/records"
	"github.com/portico/portico/internal/signals"
	"github.com/portico/portico/internal/sqlstore"
)

var _ httpapi.Syncer = (*erpsync.Engine)(nil)

// netsuiteAccount is one tenant's NetSuite account as the commands use
// it: the PORTICO_NETSUITE_* settings (the default tenant's, when no
// connection is stored for it) or a connection stored by `portico netsuite
// connect -tenant` (package erpconn).
type netsuiteAccount struct {
	tenant portal.TenantID
	cfg    config.NetSuite
	// key and mapping are the stored connection's; nil: read from
	// cfg.PrivateKeyFile and cfg.MappingFile (the default mapping when
	// that is empty).
	key, mapping []byte
	// stored says it is a stored connection's, not the variables'.
	stored bool
}

// from says where the account came from, for messages.
func (a netsuiteAccount) from() string {
	if a.stored {
		return "the connection stored for tenant " + string(a.tenant)
	}
	return "PORTICO_NETSUITE_*"
}

// envAccount is the account PORTICO_NETSUITE_* configure, the default
// tenant's.
func envAccount(cfg config.Config) netsuiteAccount {
	return netsuiteAccount{tenant: cfg.DefaultTenant, cfg: cfg.NetSuite}
}

// storedAccount is the account of a stored connection.
func storedAccount(c erpconn.Connection) netsuiteAccount {
	return netsuiteAccount{tenant: c.Tenant, cfg: c.NetSuite, key: c.PrivateKey, mapping: c.Mapping, stored: true}
}

// mappingText is the account's mapping: the stored one, the file's, or
// the shipped default.
func (a netsuiteAccount) mappingText() ([]byte, error) {
	switch {
	case a.mapping != nil:
		return a.mapping, nil
	case a.cfg.MappingFile != "":
		b, err := os.ReadFile(a.cfg.MappingFile)
		if err != nil {
			return nil, fmt.Errorf("PORTICO_NETSUITE_MAPPING: %w", err)
		}
		return b, nil
	}
	return netsuite.DefaultMapping, nil
}

// connectNetSuite builds the account's NetSuite connector, and the kinds
// of the tenant it syncs: the code's plus the fields its mapping declares
// of the account.
func connectNetSuite(a netsuiteAccount, log *slog.Logger) (*netsuite.Client, *records.Registry, error) {
	text, err := a.mappingText()
	if err != nil {
		return nil, nil, err
	}
	m, err := netsuite.ParseMapping(text)
	if err != nil {
		return nil, nil, fmt.Errorf("the mapping of %s: %w", a.from(), err)
	}
	kinds, err := m.Registry()
	if err != nil {
		return nil, nil, fmt.Errorf("the mapping of %s: %w", a.from(), err)
	}
	cfg := a.cfg
	base := cfg.BaseURL
	if base == "" {
		base = netsuite.RESTBaseURL(cfg.Account)
	}
	var auth netsuite.Authorizer
	switch cfg.Auth {
	case "tba":
		auth = netsuite.TBA{Account: cfg.Account, ConsumerKey: cfg.ConsumerKey, ConsumerSecret: cfg.ConsumerSecret,
			TokenID: cfg.TokenID, TokenSecret: cfg.TokenSecret}
	default:
		pem := a.key
		if pem == nil {
			if pem, err = os.ReadFile(cfg.PrivateKeyFile); err != nil {
				return nil, nil, fmt.Errorf("PORTICO_NETSUITE_PRIVATE_KEY_FILE: %w", err)
			}
		}
		key, err := netsuite.ParsePrivateKey(pem)
		if err != nil {
			return nil, nil, fmt.Errorf("the private key of %s: %w", a.from(), err)
		}
		auth = &netsuite.M2M{TokenURL: strings.TrimRight(base, "/") + "/services/rest/auth/oauth2/v1/token",
			ClientID: cfg.ClientID, CertID: cfg.CertificateID, Key: key}
	}
	conn, err := netsuite.New(netsuite.Config{Account: cfg.Account, BaseURL: cfg.BaseURL, Auth: auth, Mapping: m,
		Concurrency: cfg.Concurrency, RESTletScript: cfg.RESTletScript, RESTletDeploy: cfg.RESTletDeploy,
		Logger: log.With("component", "netsuite", "tenant", string(a.tenant))})
	return conn, kinds, err
}

// netsuiteAccounts are every tenant's NetSuite accounts: the stored
// connections (opened with PORTICO_SECRET_KEYS), and the default tenant's
// from PORTICO_NETSUITE_* when it has none stored (both is an error: which
// one syncs it would be a guess).
func netsuiteAccounts(ctx context.Context, cfg config.Config, store *sqlstore.Store) ([]netsuiteAccount, error) {
	stored, err := store.ERPConnections(ctx)
	if err != nil {
		return nil, err
	}
	var out []netsuiteAccount
	if len(stored) > 0 {
		conns, err := erpconn.Load(ctx, store, cfg.SecretKeys)
		if err != nil {
			return nil, err
		}
		for _, c := range conns {
			if c.Tenant == cfg.DefaultTenant && cfg.NetSuite.Enabled() {
				return nil, fmt.Errorf("tenant %s has a NetSuite connection stored and PORTICO_NETSUITE_ACCOUNT set too: unset the variables, or `portico netsuite disconnect -tenant %s`", c.Tenant, c.Tenant)
			}
			out = append(out, storedAccount(c))
		}
	}
	if cfg.NetSuite.Enabled() {
		out = append(out, envAccount(cfg))
	}
	return out, nil
}

// tenantAccount is tenant's NetSuite account (netsuiteAccounts); "" is
// the default tenant.
func tenantAccount(ctx context.Context, cfg config.Config, store *sqlstore.Store, tenant string) (netsuiteAccount, error) {
	id := cfg.DefaultTenant
	if tenant != "" {
		var err error
		if id, err = portal.ParseTenantID(tenant); err != nil {
			return netsuiteAccount{}, fmt.Errorf("-tenant: %q is not a tenant ID", tenant)
		}
	}
	accounts, err := netsuiteAccounts(ctx, cfg, store)
	if err != nil {
		return netsuiteAccount{}, err
	}
	for _, a := range accounts {
		if a.tenant == id {
			return a, nil
		}
	}
	return netsuiteAccount{}, fmt.Errorf("tenant %s has no NetSuite account: store one with `portico netsuite connect -tenant %s` (see docs/netsuite.md)", id, id)
}

// syncEngines are the sync engines of every tenant with a NetSuite
// account (none when there is none), by tenant, and the NetSuite UI
// origins of the stored connections' accounts, for the records' links
// (the default tenant's from PORTICO_NETSUITE_* keeps PORTICO_ERP_UI_URL). The store reads each
// tenant's records as its kinds have them from now on, and the document
// indexes fit them all. Each tenant must exist: its replica, checkpoints
// and outbox belong to it. sig, when not nil, carries wake-ups to and from
// the other instances on the database; share, when not nil, is this
// instance's share of the tenants' leases (erpsync.Options.Share).
func syncEngines(ctx context.Context, cfg config.Config, dbs *databases, sig *signals.Signals, share erpsync.Share, log *slog.Logger) (map[portal.TenantID]*erpsync.Engine, map[portal.TenantID]string, error) {
	store := dbs.main
	accounts, err := netsuiteAccounts(ctx, cfg, store)
	if err != nil || len(accounts) == 0 {
		return nil, nil, err
	}
	links := map[portal.TenantID]string{}
	conns := map[portal.TenantID]*netsuite.Client{}
	kinds := map[portal.TenantID]*records.Registry{}
	for _, a := range accounts {
		if err := requireTenant(ctx, store, a.tenant); err != nil {
			return nil, nil, err
		}
		if conns[a.tenant], kinds[a.tenant], err = connectNetSuite(a, log); err != nil {
			return nil, nil, err
		}
		if a.stored {
			links[a.tenant] = netsuite.UIBaseURL(a.cfg.Account)
		}
	}
	// The kinds first: a tenant's handle reads with those set when it
	// was made. Every database fits every tenant's kinds.
	for _, st := range dbs.all {
		st.SetKinds(kinds)
		if err := st.IndexDocumentFields(ctx, slices.Collect(maps.Values(kinds))...); err != nil {
			return nil, nil, err
		}
	}
	engines := map[portal.TenantID]*erpsync.Engine{}
	for tenant, conn := range conns {
		opt := erpsync.Options{Interval: cfg.NetSuite.SyncInterval, Instance: cfg.Instance,
			Logger:    log.With("component", "erpsync", "tenant", string(tenant)),
			Suspended: func(ctx context.Context) bool { return tenantSuspended(ctx, store, tenant) }, Share: share}
		if sig != nil {
			opt.Signals = sig
		}
		engines[tenant] = erpsync.New(conn, dbs.tenant(tenant), opt)
	}
	return engines, links, nil
}

// tenantSuspended reports whether tenant is suspended (`portico tenants
// suspend`); a directory that cannot be read suspends nothing.
func tenantSuspended(ctx context.Context, store *sqlstore.Store, tenant portal.TenantID) bool {
	tenants, err := store.Tenants(ctx)
	if err != nil {
		return false
	}
	for _, t := range tenants {
		if t.ID == tenant {
			return t.Suspended
		}
	}
	return false
}

// requireTenant fails, saying what to run, when tenant has not been
// created: the sync does not create it, because its display name comes
// from the access file (`roles import`, which never renames a tenant that
// exists) or `tenants add`, and a mistyped PORTICO_DEFAULT_TENANT must not
// pull the whole account into a tenant nobody can sign in to.
func requireTenant(ctx context.Context, store *sqlstore.Store, tenant portal.TenantID) error {
	ok, err := store.TenantExists(ctx, tenant)
	if err != nil {
		return err
	}
	if !ok {
		return fmt.Errorf("tenant %q does not exist in this database yet: first run `portico roles import FILE` "+
			"with the access file naming it (its users, roles and menus; `portico roles export` shows the form), "+
			"`portico tenants add`, or set PORTICO_DEFAULT_TENANT to the tenant you imported", tenant)
	}
	return nil
}

// syncCommand is `portico sync [-tenant T]`: one pull and push of the
// tenant (the default one when tenant is "") with --once, else its sync
// loop until interrupted.
func syncCommand(ctx context.Context, cfg config.Config, store *sqlstore.Store, log *slog.Logger, tenant, kind string, full, once bool, stdout io.Writer) error {
	// The loop hears the serving instances' wake-ups; -once needs none.
	var sig *signals.Signals
	if !once {
		sig = sqlstore.NewSignals(store, log.With("component", "signals"))
		defer sig.Close()
	}
	a, err := tenantAccount(ctx, cfg, store, tenant)
	if err != nil {
		return fmt.Errorf("sync: %w", err)
	}
	dbs, err := openDatabases(ctx, cfg, store)
	if err != nil {
		return err
	}
	defer dbs.close()
	engines, _, err := syncEngines(ctx, cfg, dbs, sig, nil, log)
	if err != nil {
		return err
	}
	eng := engines[a.tenant]
	var kinds []*records.Kind
	if kind != "" {
		k, ok := dbs.tenant(a.tenant).Kinds().Lookup(kind)
		if !ok {
			return fmt.Errorf("sync: unknown kind %q", kind)
		}
		kinds = append(kinds, k)
	}
	if !once {
		if full || kind != "" {
			eng.Trigger(kinds, full)
		}
		eng.Run(ctx)
		return nil
	}
	// Give the lease up when done, even on failure, so the next `sync
	// -once` or a `serve` started now does not wait for it to lapse.
	defer func() {
		if err := eng.Release(context.WithoutCancel(ctx)); err != nil {
			log.Warn("sync: releasing the lease", "err", err)
		}
	}()
	start := time.Now()
	pullErr := eng.Pull(ctx, kinds, full)
	pushed, pushErr := eng.Push(ctx)
	m := eng.Metrics()
	fmt.Fprintf(stdout, "pulled %d records, applied %d deletions, pushed %d changes in %s\n",
		m.Pulled.Load(), m.Deleted.Load(), pushed, time.Since(start).Round(time.Millisecond))
	return errors.Join(pullErr, pushErr)
}
