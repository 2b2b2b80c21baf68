package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"
	"time"

	"github.com/portico/portico/internal/config"
	"github.com/portico/portico/internal/erp/netsuite"
	"github.com/portico/portico/internal/erpsync"
	"github.com/portico/portico/internal/httpapi"
	"github.com/portico/portico/internal/portal"
	"github.com/portico/portico/internal/records"
	"github.com/portico/portico/internal/signals"
	"github.com/portico/portico/internal/sqlstore"
)

var _ httpapi.Syncer = (*erpsync.Engine)(nil)

// connectNetSuite builds the NetSuite connector from the configuration,
// and the kinds of the tenant it syncs: the code's plus the fields the
// mapping declares of the account.
func connectNetSuite(cfg config.NetSuite, log *slog.Logger) (*netsuite.Client, *records.Registry, error) {
	mapping := netsuite.DefaultMapping
	if cfg.MappingFile != "" {
		b, err := os.ReadFile(cfg.MappingFile)
		if err != nil {
			return nil, nil, fmt.Errorf("PORTICO_NETSUITE_MAPPING: %w", err)
		}
		mapping = b
	}
	m, err := netsuite.ParseMapping(mapping)
	if err != nil {
		return nil, nil, err
	}
	kinds, err := m.Registry()
	if err != nil {
		return nil, nil, fmt.Errorf("PORTICO_NETSUITE_MAPPING: %w", err)
	}
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
		pem, err := os.ReadFile(cfg.PrivateKeyFile)
		if err != nil {
			return nil, nil, fmt.Errorf("PORTICO_NETSUITE_PRIVATE_KEY_FILE: %w", err)
		}
		key, err := netsuite.ParsePrivateKey(pem)
		if err != nil {
			return nil, nil, fmt.Errorf("PORTICO_NETSUITE_PRIVATE_KEY_FILE: %w", err)
		}
		auth = &netsuite.M2M{TokenURL: strings.TrimRight(base, "/") + "/services/rest/auth/oauth2/v1/token",
			ClientID: cfg.ClientID, CertID: cfg.CertificateID, Key: key}
	}
	conn, err := netsuite.New(netsuite.Config{Account: cfg.Account, BaseURL: cfg.BaseURL, Auth: auth, Mapping: m,
		Concurrency: cfg.Concurrency, RESTletScript: cfg.RESTletScript, RESTletDeploy: cfg.RESTletDeploy,
		Logger: log.With("component", "netsuite")})
	return conn, kinds, err
}

// syncEngine returns the default tenant's sync engine, or nil when no ERP
// is configured. The tenant must exist (for `serve` too): its replica,
// checkpoints and outbox belong to it. sig, when not nil, carries its
// wake-ups to and from the other instances on the database.
func syncEngine(cfg config.Config, store *sqlstore.Store, sig *signals.Signals, log *slog.Logger) (*erpsync.Engine, error) {
	if !cfg.NetSuite.Enabled() {
		return nil, nil
	}
	if err := requireTenant(context.Background(), cfg, store); err != nil {
		return nil, err
	}
	conn, kinds, err := connectNetSuite(cfg.NetSuite, log)
	if err != nil {
		return nil, err
	}
	store.SetKinds(map[portal.TenantID]*records.Registry{cfg.DefaultTenant: kinds})
	if err := store.IndexDocumentFields(context.Background(), kinds); err != nil {
		return nil, err
	}
	opt := erpsync.Options{Interval: cfg.NetSuite.SyncInterval, Instance: cfg.Instance, Logger: log.With("component", "erpsync"),
		Suspended: func(ctx context.Context) bool { return tenantSuspended(ctx, store, cfg.DefaultTenant) }}
	if sig != nil {
		opt.Signals = sig
	}
	return erpsync.New(conn, store.Tenant(cfg.DefaultTenant), opt), nil
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

// requireTenant fails, saying what to run, when the default tenant has
// not been created: the sync does not create it, because its display name
// comes from the access file (`roles import`, which never renames a
// tenant that exists) and a mistyped PORTICO_DEFAULT_TENANT must not pull
// the whole account into a tenant nobody can sign in to.
func requireTenant(ctx context.Context, cfg config.Config, store *sqlstore.Store) error {
	ok, err := store.TenantExists(ctx, cfg.DefaultTenant)
	if err != nil {
		return err
	}
	if !ok {
		return fmt.Errorf("tenant %q does not exist in this database yet: first run `portico roles import FILE` "+
			"with the access file naming it (its users, roles and menus; `portico roles export` shows the form), "+
			"or set PORTICO_DEFAULT_TENANT to the tenant you imported", cfg.DefaultTenant)
	}
	return nil
}

// syncCommand is `portico sync`: one pull and push with --once, else the
// sync loop until interrupted.
func syncCommand(ctx context.Context, cfg config.Config, store *sqlstore.Store, log *slog.Logger, kind string, full, once bool, stdout io.Writer) error {
	// The loop hears the serving instances' wake-ups; -once needs none.
	var sig *signals.Signals
	if !once {
		sig = sqlstore.NewSignals(store, log.With("component", "signals"))
		defer sig.Close()
	}
	eng, err := syncEngine(cfg, store, sig, log)
	if err != nil {
		return err
	}
	if eng == nil {
		return errors.New("sync: no ERP is configured (set PORTICO_NETSUITE_ACCOUNT; see docs/netsuite.md)")
	}
	var kinds []*records.Kind
	if kind != "" {
		k, ok := store.Tenant(cfg.DefaultTenant).Kinds().Lookup(kind)
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
