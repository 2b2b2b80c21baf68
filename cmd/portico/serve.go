package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"runtime/debug"
	"time"

	"github.com/portico/portico/internal/config"
	"github.com/portico/portico/internal/equipment"
	"github.com/portico/portico/internal/events"
	"github.com/portico/portico/internal/httpapi"
	"github.com/portico/portico/internal/identity"
	"github.com/portico/portico/internal/portal"
	"github.com/portico/portico/internal/session"
	"github.com/portico/portico/internal/sqlstore"
	"github.com/portico/portico/internal/tenancy"
	"github.com/portico/portico/web"
)

// serve runs the HTTP server until ctx is cancelled (SIGINT/SIGTERM), then
// lets in-flight requests finish within the shutdown timeout.
func serve(ctx context.Context, cfg config.Config, store *sqlstore.Store, log *slog.Logger) error {
	if cfg.GCPercent > 0 {
		debug.SetGCPercent(cfg.GCPercent)
	}
	verifier, err := identity.NewVerifier(ctx, identity.Config{
		ProjectID: cfg.Identity.ProjectID, KeysURL: cfg.Identity.KeysURL, EmulatorHost: cfg.Identity.EmulatorHost,
	}, log)
	if err != nil {
		return err
	}
	key, err := store.Secret(ctx, "session-signing-key", 32)
	if err != nil {
		return fmt.Errorf("session key: %w", err)
	}
	// The tenants placed in databases of their own are served from them
	// (PORTICO_TENANT_DATABASES); the rest, and the directory, from store.
	dbs, err := openDatabases(ctx, cfg, store)
	if err != nil {
		return err
	}
	defer dbs.close()
	sessions := session.NewManager(func(t portal.TenantID) session.Store { return dbs.tenant(t) }, session.Options{
		Key: key, AccessTTL: cfg.AccessTokenTTL, RefreshTTL: cfg.RefreshTokenTTL, MaxAge: cfg.SessionMaxAge,
	})
	// The instances on the database signal each other through it (the
	// sync engine's wake-ups); closed after the engine stopped.
	sig := sqlstore.NewSignals(store, log.With("component", "signals"))
	defer sig.Close()
	// Live updates: writes announce their events through sig; the hub
	// follows the tenants this instance has streams of. (Streams end with
	// ctx, the requests' base context.)
	for _, st := range dbs.all {
		st.AnnounceEvents(sig)
	}
	hub := events.NewHub(func(t portal.TenantID) events.Log { return dbs.tenant(t) }, sig, log.With("component", "events"))
	// Every tenant with a NetSuite account has its engine (fleet); each
	// takes its tenant's lease, so the instances share the tenants' syncs.
	syncs, waitSyncs, err := startFleet(ctx, cfg, dbs, sig, log)
	if err != nil {
		return err
	}
	defer waitSyncs()
	// /metrics: the store's gauges (SQLite's log size), then the sync
	// engines'.
	writeMetrics := func(ctx context.Context, w io.Writer) error {
		if err := store.WritePrometheus(w, cfg.Instance); err != nil {
			return err
		}
		return syncs.writeMetrics(ctx, w)
	}
	h, err := httpapi.NewServer(httpapi.Options{
		Logger: log,
		Store:  dbs,
		UI:     web.Dist(),
		Client: httpapi.ClientConfig{
			ProductName: cfg.ProductName, Environment: cfg.Environment, ERP: cfg.ERP, Product: cfg.Product,
			TenantID: string(cfg.DefaultTenant), ApplicationID: cfg.ApplicationID,
			Identity: httpapi.IdentityClient{
				APIKey: cfg.Identity.APIKey, AuthDomain: cfg.Identity.AuthDomain, ProjectID: cfg.Identity.ProjectID,
				AppID: cfg.Identity.AppID, EmulatorHost: cfg.Identity.EmulatorHost,
			},
		},
		CSP:                   identityCSP(cfg.Identity),
		Identity:              verifier,
		Sessions:              sessions,
		Tenants:               func(t portal.TenantID) httpapi.TenantStore { return dbs.tenant(t) },
		Directory:             store,
		DefaultHosts:          defaultHosts(cfg),
		ERP:                   cfg.ERP,
		Product:               cfg.Product,
		ERPBaseURL:            cfg.ERPUIURL,
		ERPBaseURLOf:          syncs.link,
		LoginPerMinuteIP:      cfg.LoginPerMinuteIP,
		LoginPerMinuteAccount: cfg.LoginPerMinuteAccount,
		SessionCacheTTL:       cfg.SessionCacheTTL,
		Syncs:                 syncs.syncer,
		MetricsToken:          cfg.MetricsToken,
		OperatorToken:         cfg.OperatorToken,
		Operator:              &tenancy.Admin{Store: store, Default: cfg.DefaultTenant, Placed: cfg.Placed},
		WriteMetrics:          writeMetrics,
		Equipment:             equipmentCharges(cfg.Equipment),
		DBTimeout:             cfg.DBTimeout,
		Budget:                tenantBudget(cfg, store.MaxConns()),
		PublicURL:             cfg.PublicURL,
		RateLimits:            store,
		TrustedProxies:        cfg.TrustedProxies,
		Instance:              cfg.Instance,
		Events:                hub,
		Currency:              cfg.Currency,
		DBUnavailable:         sqlstore.Unavailable,
	})
	if err != nil {
		return err
	}
	requests, endRequests := context.WithCancel(context.WithoutCancel(ctx))
	defer endRequests()
	srv := &http.Server{
		Addr:              cfg.Addr,
		Handler:           h,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       60 * time.Second,
		WriteTimeout:      120 * time.Second,
		IdleTimeout:       120 * time.Second,
		MaxHeaderBytes:    64 << 10,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelWarn),
		// Requests do not end with the signal: in the shutdown below,
		// those in flight finish and answer (a write cut off there
		// would have been done without its answer).
		BaseContext: func(net.Listener) context.Context { return requests },
	}
	srv.RegisterOnShutdown(h.Drain)
	ln, err := net.Listen("tcp", cfg.Addr)
	if err != nil {
		return err
	}
	log.Info("serving", "url", "http://"+ln.Addr().String(), "database", store.Engine(), "environment", cfg.Environment)
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	log.Info("shutting down", "grace", cfg.ShutdownTimeout)
	shutdownCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), cfg.ShutdownTimeout)
	defer cancel()
	if err := srv.Shutdown(shutdownCtx); err != nil {
		return fmt.Errorf("shutdown: %w", err) // the requests still running are cancelled on return
	}
	if err := <-errc; !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	log.Info("stopped")
	return nil
}

// tenantBudget is each tenant's budget on this instance while it serves
// several (PORTICO_TENANT_*). By default, as the pool is twice the CPUs:
// a quarter of the pool's connections at once (half the CPUs, at least
// 1) and a quarter of the CPUs' time a second in the database (at least
// half a second), so one company's flood leaves most of the machine to
// the others. (Half the pool's connections and time kept both of a
// 2-core machine's CPUs busy, and another company's p99 at 2.2 times its
// quiet figure; docs/performance.md, "One company flooded".)
func tenantBudget(cfg config.Config, pool int) tenancy.Budget {
	b := tenancy.Budget{Concurrent: cfg.TenantConcurrency, Rate: cfg.TenantRate, DBTime: cfg.TenantDBTime, Wait: 2 * time.Second}
	if b.Concurrent == 0 {
		b.Concurrent = max(1, pool/4)
	}
	if b.DBTime == 0 {
		b.DBTime = max(time.Second/2, time.Duration(pool)*time.Second/8)
	}
	return b
}

// identityCSP lists the identity service's origins for the
// Content-Security-Policy: the emulator's address in emulator mode, the
// Google endpoints and the auth domain's popup helper otherwise.
func identityCSP(id config.Identity) httpapi.CSPSources {
	if id.EmulatorHost != "" {
		return httpapi.CSPSources{Connect: []string{"http://" + id.EmulatorHost}}
	}
	src := httpapi.CSPSources{
		Script:  []string{"https://apis.google.com"},
		Connect: []string{"https://identitytoolkit.googleapis.com", "https://securetoken.googleapis.com"},
	}
	if id.AuthDomain != "" {
		src.Frame = []string{"https://" + id.AuthDomain}
	}
	return src
}

// equipmentCharges is the equipment-charge service's client, or nil (the
// feature off) when no URL is configured.
func equipmentCharges(cfg config.Equipment) httpapi.EquipmentCharges {
	if cfg.URL == "" {
		return nil
	}
	return equipment.New(cfg.URL, []byte(cfg.Secret))
}

// defaultHosts are the deployment's own addresses, where the default
// tenant answers once there are several: the loopback names and the
// public URL's host.
func defaultHosts(cfg config.Config) []string {
	hosts := []string{"127.0.0.1", "localhost", "::1"}
	if u, err := url.Parse(cfg.PublicURL); err == nil && u.Hostname() != "" {
		hosts = append(hosts, u.Hostname())
	}
	return hosts
}
