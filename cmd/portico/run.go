package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/portico/portico/internal/access"
	"github.com/portico/portico/internal/config"
	"github.com/portico/portico/internal/demo"
	"github.com/portico/portico/internal/identity"
	"github.com/portico/portico/internal/portal"
	"github.com/portico/portico/internal/sqlstore"
)

const usage = `Usage: portico <command> [flags]

Commands:
  serve                 start the web server (applies pending migrations first)
  migrate               apply pending database migrations and exit
  seed                  fill the default tenant with deterministic demo data and the demo access file
                        [-per-kind 1000] [-projects N] [-if-empty]
  roles import FILE     replace a tenant's layouts, roles and user grants with a YAML or JSON file
  roles export [-json]  print a tenant's access setup as YAML (or JSON)
  search reindex        rebuild the global search index from the stored records
  tenants add ID        add a company: the host names it answers at, its name, its users' identity
                        tenant: -name NAME -host HOST [-host HOST2 …] [-identity-tenant T]
                        [-environment NAME]
  tenants list          list the companies: id, name, hosts, identity tenant, active or suspended [-json]
  tenants suspend ID    stop a company's sign-in, sessions and sync; its data stays
  tenants resume ID     let a suspended company sign in and sync again
  tenants hosts ID      change the host names a company answers at [-add HOST] [-remove HOST]
  tenants environment ID [NAME]  the environment badge its app shows (Sandbox); none: the deployment's
  tenants export ID     write everything of a company (never its secrets) into a new directory: -o DIR
  tenants import DIR    re-create a company from an export, in a database that lacks it
                        [-as ID] [-host HOST …]
  tenants delete ID     delete a company and all its data, in one transaction: -confirm ID
                        [-left-behind: only its rows left in the main database once placed in its own]
  backup FILE           write a consistent copy of the SQLite database into the new FILE, also
                        while serve runs on it (PostgreSQL: prints the pg_dump recipe)
  restore FILE          put a backup in place as the database of a data directory that has none,
                        after an integrity check, and open it
  sync                  sync a tenant (the default one) with NetSuite: the pull/push loop, or one
                        round [-tenant T] [-kind K] [-full] [-once]
  netsuite check        check the NetSuite mapping against the account: every kind's table, column,
                        record field and the RESTlet; names the mapping entry to fix [-tenant T] [-v]
  netsuite mapping      write a starting mapping from the account's metadata catalog [-tenant T] [-o FILE]
  netsuite connect      store the account PORTICO_NETSUITE_* configure as a tenant's, its credentials
                        sealed with PORTICO_SECRET_KEYS: -tenant T [-mapping FILE]
  netsuite disconnect   delete a tenant's stored NetSuite connection: -tenant T
  secrets rekey         seal every stored credential again with the first of PORTICO_SECRET_KEYS
  emulator-accounts     create the demo sign-in accounts in the Auth Emulator (demo- projects only)
  help                  show this text

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
	if cmd == "roles" {
		if len(rest) == 0 || (rest[0] != "import" && rest[0] != "export") {
			return fmt.Errorf("roles: use `roles import FILE` or `roles export`\n\n%s", usage)
		}
		cmd, rest = "roles "+rest[0], rest[1:]
	}
	if cmd == "search" {
		if len(rest) == 0 || rest[0] != "reindex" {
			return fmt.Errorf("search: use `search reindex`\n\n%s", usage)
		}
		cmd, rest = "search reindex", rest[1:]
	}
	var tenantsOpts *tenantsOptions
	if cmd == "tenants" {
		var err error
		if cmd, rest, tenantsOpts, err = tenantsCommand(rest); err != nil {
			return err
		}
	}
	if cmd == "netsuite" {
		if len(rest) == 0 || !slices.Contains([]string{"check", "mapping", "connect", "disconnect"}, rest[0]) {
			return fmt.Errorf("netsuite: use `netsuite check`, `netsuite mapping`, `netsuite connect` or `netsuite disconnect`\n\n%s", usage)
		}
		cmd, rest = "netsuite "+rest[0], rest[1:]
	}
	if cmd == "secrets" {
		if len(rest) == 0 || rest[0] != "rekey" {
			return fmt.Errorf("secrets: use `secrets rekey`\n\n%s", usage)
		}
		cmd, rest = "secrets rekey", rest[1:]
	}
	fs := flag.NewFlagSet(cmd, flag.ContinueOnError)
	fs.SetOutput(stdout)
	var (
		projects, perKind int
		ifEmpty, asJSON   bool
		syncKind          string
		full, once        bool
		verbose           bool
		outFile           string
		tenant, mapping   string
	)
	switch cmd {
	case "serve", "migrate", "emulator-accounts", "roles import", "search reindex":
	case "backup", "restore":
	case "sync":
		fs.StringVar(&tenant, "tenant", "", "the tenant to sync (default: PORTICO_DEFAULT_TENANT)")
		fs.StringVar(&syncKind, "kind", "", "only this kind (e.g. project, customrecord_res_opportunity)")
		fs.BoolVar(&full, "full", false, "pull from the beginning instead of from the checkpoints")
		fs.BoolVar(&once, "once", false, "one pull and push, then exit")
	case "netsuite check":
		fs.StringVar(&tenant, "tenant", "", "the tenant whose stored connection to check (default: PORTICO_NETSUITE_*)")
		fs.BoolVar(&verbose, "v", false, "list every check, and NetSuite's words on warnings")
	case "netsuite mapping":
		fs.StringVar(&tenant, "tenant", "", "the tenant whose stored connection to read (default: PORTICO_NETSUITE_*)")
		fs.StringVar(&outFile, "o", "", "write the mapping into this new file instead of to stdout")
	case "netsuite connect":
		fs.StringVar(&tenant, "tenant", "", "the tenant whose account it is (required)")
		fs.StringVar(&mapping, "mapping", "", "the account's mapping file (default: PORTICO_NETSUITE_MAPPING, else the shipped one)")
	case "netsuite disconnect":
		fs.StringVar(&tenant, "tenant", "", "the tenant (required)")
	case "secrets rekey":
	case "roles export":
		fs.BoolVar(&asJSON, "json", false, "print JSON instead of YAML")
	case "tenants add", "tenants list", "tenants suspend", "tenants resume", "tenants hosts",
		"tenants environment", "tenants export", "tenants import", "tenants delete":
		tenantsOpts.flags(cmd, fs)
	case "seed":
		fs.IntVar(&projects, "projects", 0, "number of projects (default: -per-kind); other kinds scale with it")
		fs.IntVar(&perKind, "per-kind", 1000, "records of every other kind")
		fs.BoolVar(&ifEmpty, "if-empty", false, "do nothing when the tenant already has projects")
	default:
		return fmt.Errorf("unknown command %q\n\n%s", cmd, usage)
	}
	cfg, rest, err := config.Load(getenv, fs, rest)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil
		}
		return err
	}
	logTo := stdout
	if strings.HasPrefix(cmd, "netsuite ") {
		logTo = os.Stderr // stdout is the report or the mapping, kept clean of log lines
	}
	log := newLogger(cfg, logTo)
	switch cmd {
	case "emulator-accounts":
		return emulatorAccounts(ctx, cfg, stdout)
	case "backup":
		return backup(ctx, cfg, rest, stdout)
	case "restore": // then opened below, as every command opens it
		if err := restore(ctx, cfg, rest, stdout); err != nil {
			return err
		}
	case "netsuite check", "netsuite mapping": // without -tenant, the variables' account: no database
		if tenant == "" {
			a, err := envOnly(cmd, cfg)
			if err != nil {
				return err
			}
			return netsuiteCommand(ctx, cmd, a, log, verbose, outFile, stdout)
		}
	}
	store, err := sqlstore.Open(ctx, cfg.DatabaseURL, cfg.DataDir, sqlstore.WALLimit(cfg.SQLiteWALLimit))
	if err != nil {
		return err
	}
	defer store.Close()
	store.SetMaxConns(cfg.DatabaseMaxConns)
	switch cmd {
	case "migrate":
		v, err := store.Migrate(ctx)
		if err == nil {
			fmt.Fprintf(stdout, "%s schema at version %d\n", store.Engine(), v)
		}
		return err
	case "restore":
		v, err := store.Migrate(ctx)
		if err == nil {
			fmt.Fprintf(stdout, "the restored database opens: %s schema at version %d\n", store.Engine(), v)
		}
		return err
	case "search reindex":
		start := time.Now()
		n, err := store.ReindexSearch(ctx)
		if err == nil {
			fmt.Fprintf(stdout, "search index rebuilt: %d records in %s\n", n, time.Since(start).Round(time.Millisecond))
		}
		return err
	case "sync":
		return syncCommand(ctx, cfg, store, log, tenant, syncKind, full, once, stdout)
	case "netsuite check", "netsuite mapping":
		a, err := tenantAccount(ctx, cfg, store, tenant)
		if err != nil {
			return fmt.Errorf("%s: %w", cmd, err)
		}
		return netsuiteCommand(ctx, cmd, a, log, verbose, outFile, stdout)
	case "netsuite connect":
		return netsuiteConnect(ctx, cfg, store, tenant, mapping, stdout)
	case "netsuite disconnect":
		return netsuiteDisconnect(ctx, store, tenant, stdout)
	case "secrets rekey":
		return secretsRekey(ctx, cfg, store, stdout)
	case "seed":
		return seed(ctx, store, cfg, projects, perKind, ifEmpty, stdout)
	case "roles import":
		if len(rest) != 1 {
			return errors.New("roles import: give exactly one FILE")
		}
		return importRoles(ctx, store, rest[0], stdout)
	case "tenants add", "tenants list", "tenants suspend", "tenants resume", "tenants hosts",
		"tenants environment", "tenants export", "tenants import", "tenants delete":
		return runTenants(ctx, store, cfg, cmd, tenantsOpts, rest, stdout)
	case "roles export":
		f, err := store.Tenant(cfg.DefaultTenant).ExportAccess(ctx)
		if err != nil {
			return err
		}
		out, err := f.Marshal(asJSON)
		if err == nil {
			_, err = stdout.Write(out)
		}
		return err
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

// seed fills the default tenant with demo records and the demo access file.
func seed(ctx context.Context, store *sqlstore.Store, cfg config.Config, projects, perKind int, ifEmpty bool, stdout io.Writer) error {
	if perKind < 1 || projects < 0 {
		return errors.New("seed: -per-kind must be at least 1 and -projects not negative")
	}
	if err := store.EnsureTenant(ctx, cfg.DefaultTenant, demo.CompanyName); err != nil {
		return err
	}
	tenant := store.Tenant(cfg.DefaultTenant)
	// The demo company's letterhead, unless the tenant has one (its
	// ERP's, or one given before): also on a database seeded before
	// profiles existed, which -if-empty leaves otherwise as it is. A
	// company of its own (`tenants add` named it) keeps its name alone.
	if demoCompany, err := isDemoCompany(ctx, store, cfg.DefaultTenant); err != nil {
		return err
	} else if demoCompany {
		if err := tenant.EnsureCompany(ctx, demo.Company()); err != nil {
			return err
		}
	}
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
	start := time.Now()
	f := demo.Access()
	f.Tenant = string(cfg.DefaultTenant)
	if err := tenant.ImportAccess(ctx, f); err != nil {
		return err
	}
	// The demo company's amounts are in its own base currency, whatever
	// PORTICO_CURRENCY says (as a connected ERP account's would be).
	if err := tenant.SetBaseCurrency(ctx, demo.BaseCurrency); err != nil {
		return err
	}
	last := time.Now()
	var stats demo.Stats
	err := store.BulkLoad(ctx, func() (err error) {
		stats, err = demo.Generate(ctx, tenant, demo.Options{
			Projects: projects,
			PerKind:  perKind,
			Progress: func(kind string, done, total int) {
				if time.Since(last) > 2*time.Second || done == total {
					last = time.Now()
					fmt.Fprintf(stdout, "  %-36s %9d / %d\n", kind, done, total)
				}
			},
		})
		return err
	})
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "seeded tenant %s on %s: %d records, %d files, %d users in %s\n",
		cfg.DefaultTenant, store.Engine(), stats.Total(), stats.Files, len(f.Users), time.Since(start).Round(time.Millisecond))
	return nil
}

// importRoles reads an access file and replaces the setup of the tenant it
// names (created when new).
func importRoles(ctx context.Context, store *sqlstore.Store, path string, stdout io.Writer) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	f, err := access.ParseFile(data)
	if err != nil {
		return err
	}
	tenant, err := portal.ParseTenantID(f.Tenant)
	if err != nil {
		return err
	}
	name := f.Name
	if name == "" {
		name = f.Tenant
	}
	if err := store.EnsureTenant(ctx, tenant, name); err != nil {
		return err
	}
	if err := store.Tenant(tenant).ImportAccess(ctx, f); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "imported %d layouts, %d roles, %d users into tenant %s\n", len(f.Layouts), len(f.Roles), len(f.Users), tenant)
	return nil
}

// emulatorAccounts creates the demo users' password accounts in the Auth
// Emulator; the work-account (SSO) user signs in through the simulated
// Microsoft credential instead.
func emulatorAccounts(ctx context.Context, cfg config.Config, stdout io.Writer) error {
	if cfg.Identity.EmulatorHost == "" {
		return errors.New("emulator-accounts: set PORTICO_IDENTITY_EMULATOR_HOST")
	}
	var accounts []identity.EmulatorAccount
	for _, u := range demo.Access().Users {
		if !u.SSO {
			accounts = append(accounts, identity.EmulatorAccount{Email: u.Email, Password: demo.Password, DisplayName: u.FullName})
		}
	}
	n, err := identity.SeedEmulator(ctx, cfg.Identity.EmulatorHost, cfg.Identity.ProjectID, string(cfg.DefaultTenant), accounts)
	if err == nil {
		fmt.Fprintf(stdout, "auth emulator: %d demo accounts created (%d already there)\n", n, len(accounts)-n)
	}
	return err
}

// isDemoCompany reports whether tenant id is named as the demo company
// (seed creates it so), not a company `tenants add` named.
func isDemoCompany(ctx context.Context, store *sqlstore.Store, id portal.TenantID) (bool, error) {
	tenants, err := store.Tenants(ctx)
	if err != nil {
		return false, err
	}
	for _, t := range tenants {
		if t.ID == id {
			return t.Name == demo.CompanyName, nil
		}
	}
	return false, nil
}
