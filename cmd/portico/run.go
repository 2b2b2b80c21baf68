package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/portico/portico/internal/config"
	"github.com/portico/portico/internal/demo"
	"github.com/portico/portico/internal/httpapi"
	"github.com/portico/portico/internal/sqlstore"
	"github.com/portico/portico/web"
)

const usage = `Usage: portico <command> [flags]

Commands:
  serve     start the web server (applies pending migrations first)
  migrate   apply pending database migrations and exit
  seed      fill the default tenant with deterministic demo data
  help      show this text

Configuration comes from PORTICO_* environment variables (see README).
`

// run is the whole program behind main, with its inputs explicit so tests
// can drive it.
func run(ctx context.Context, args []string, getenv func(string) string, stdout io.Writer) error {
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
		fmt.Fprint(stdout, usage)
		return nil
	}
	cmd, rest := args[0], args[1:]
	fs := flag.NewFlagSet(cmd, flag.ContinueOnError)
	fs.SetOutput(stdout)
	var seedOpt struct {
		projects, perKind int
		ifEmpty           bool
	}
	switch cmd {
	case "serve", "migrate":
	case "seed":
		fs.IntVar(&seedOpt.projects, "projects", 0, "number of projects (default: -per-kind); other kinds scale with it")
		fs.IntVar(&seedOpt.perKind, "per-kind", 1000, "records of every other kind")
		fs.BoolVar(&seedOpt.ifEmpty, "if-empty", false, "do nothing when the tenant already has projects")
	default:
		return fmt.Errorf("unknown command %q\n\n%s", cmd, usage)
	}
	cfg, _, err := config.Load(getenv, fs, rest)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil
		}
		return err
	}
	log := newLogger(cfg, stdout)
	store, err := sqlstore.Open(ctx, cfg.DatabaseURL, cfg.DataDir)
	if err != nil {
		return err
	}
	defer store.Close()
	switch cmd {
	case "migrate":
		v, err := store.Migrate(ctx)
		if err == nil {
			fmt.Fprintf(stdout, "%s schema at version %d\n", store.Engine(), v)
		}
		return err
	case "seed":
		return seed(ctx, store, cfg, seedOpt.projects, seedOpt.perKind, seedOpt.ifEmpty, stdout)
	}
	return serve(ctx, cfg, store, log)
}

func newLogger(cfg config.Config, w io.Writer) *slog.Logger {
	opts := &slog.HandlerOptions{Level: cfg.LogLevel}
	if cfg.LogFormat == "json" {
		return slog.New(slog.NewJSONHandler(w, opts))
	}
	return slog.New(slog.NewTextHandler(w, opts))
}

// serve runs the HTTP server until ctx is cancelled (SIGINT/SIGTERM), then
// lets in-flight requests finish within the shutdown timeout.
func serve(ctx context.Context, cfg config.Config, store *sqlstore.Store, log *slog.Logger) error {
	h, err := httpapi.NewServer(httpapi.Options{
		Logger: log,
		Store:  store,
		UI:     web.Dist(),
		Client: httpapi.ClientConfig{
			ProductName: cfg.ProductName, Environment: cfg.Environment, ERP: cfg.ERP, Product: cfg.Product,
		},
	})
	if err != nil {
		return err
	}
	srv := &http.Server{
		Addr:              cfg.Addr,
		Handler:           h,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       60 * time.Second,
		WriteTimeout:      120 * time.Second,
		IdleTimeout:       120 * time.Second,
		MaxHeaderBytes:    64 << 10,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelWarn),
		BaseContext:       func(net.Listener) context.Context { return ctx },
	}
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
	// The base context is cancelled already; give in-flight requests a
	// fresh deadline to finish in.
	shutdownCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), cfg.ShutdownTimeout)
	defer cancel()
	if err := srv.Shutdown(shutdownCtx); err != nil {
		return fmt.Errorf("shutdown: %w", err)
	}
	if err := <-errc; !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	log.Info("stopped")
	return nil
}

// seed fills the default tenant with demo data.
func seed(ctx context.Context, store *sqlstore.Store, cfg config.Config, projects, perKind int, ifEmpty bool, stdout io.Writer) error {
	if perKind < 1 || projects < 0 {
		return errors.New("seed: -per-kind must be at least 1 and -projects not negative")
	}
	if err := store.EnsureTenant(ctx, cfg.DefaultTenant, "Portico Demo"); err != nil {
		return err
	}
	tenant := store.Tenant(cfg.DefaultTenant)
	if ifEmpty {
		n, err := tenant.CountRecords(ctx, "project")
		if err != nil {
			return err
		}
		if n > 0 {
			fmt.Fprintf(stdout, "tenant %s already has %d projects; not seeding\n", cfg.DefaultTenant, n)
			return nil
		}
	}
	last := time.Now()
	stats, err := demo.Generate(ctx, tenant, demo.Options{
		Projects: projects,
		PerKind:  perKind,
		Progress: func(kind string, done, total int) {
			if time.Since(last) > 2*time.Second || done == total {
				last = time.Now()
				fmt.Fprintf(stdout, "  %-36s %9d / %d\n", kind, done, total)
			}
		},
	})
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "seeded tenant %s on %s: %s\n", cfg.DefaultTenant, store.Engine(), strings.TrimSpace(stats.String()))
	return nil
}
