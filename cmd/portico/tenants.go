package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/portico/portico/internal/config"
	"github.com/portico/portico/internal/portal"
	"github.com/portico/portico/internal/sqlstore"
	"github.com/portico/portico/internal/tenancy"
)

// The operator's commands for the deployment's companies (issue 39):
// `portico tenants add|list|suspend|resume|hosts|export|import|delete`.
// Which tenant a request's host picks is the server's (package tenancy);
// these change the tenants, their hosts and data in the database. What is
// checked before each change is tenancy.Admin's, shared with the operator
// API; these only read flags and print.

// tenantsSubcommands are the words after `portico tenants`.
var tenantsSubcommands = []string{"add", "list", "suspend", "resume", "hosts", "environment", "export", "import", "delete"}

// tenantsOptions are the flags and the ID of a tenants command.
type tenantsOptions struct {
	id             string // the ID argument (not list); import's DIR
	name           string
	identityTenant string
	environment    string   // add's -environment
	hosts          hostList // add's and import's -host
	add, remove    hostList // hosts' -add and -remove
	asJSON         bool
	out            string // export's -o
	as             string // import's -as
	confirm        string // delete's -confirm
	leftBehind     bool   // delete's -left-behind
}

// hostList is a flag given any number of times.
type hostList []string

func (h *hostList) String() string { return strings.Join(*h, ",") }

func (h *hostList) Set(v string) error {
	*h = append(*h, v)
	return nil
}

// tenantsCommand names the tenants command of args (which start after
// "tenants") and takes its ID off them when it comes before the flags (the
// flag package stops at the first argument that is not one).
func tenantsCommand(args []string) (cmd string, rest []string, o *tenantsOptions, err error) {
	if len(args) == 0 || !slices.Contains(tenantsSubcommands, args[0]) {
		return "", nil, nil, fmt.Errorf("tenants: use `tenants add`, `tenants list`, `tenants suspend`, `tenants resume`, `tenants hosts`, `tenants environment`, `tenants export`, `tenants import` or `tenants delete`\n\n%s", usage)
	}
	cmd, rest, o = "tenants "+args[0], args[1:], &tenantsOptions{}
	if cmd != "tenants list" && len(rest) > 0 && !strings.HasPrefix(rest[0], "-") {
		o.id, rest = rest[0], rest[1:]
	}
	return cmd, rest, o, nil
}

// flags adds the flags of tenants command cmd to fs.
func (o *tenantsOptions) flags(cmd string, fs *flag.FlagSet) {
	switch cmd {
	case "tenants add":
		fs.StringVar(&o.name, "name", "", "the company's name, as the portal shows it (required)")
		fs.Var(&o.hosts, "host", "a host name it answers at, such as portal.acme.example (repeat for more; required but for the default tenant)")
		fs.StringVar(&o.identityTenant, "identity-tenant", "", "the identity service's tenant its users sign in to (default: the ID)")
		fs.StringVar(&o.environment, "environment", "", "the badge its app shows, such as Sandbox (default: PORTICO_ENVIRONMENT's)")
	case "tenants list":
		fs.BoolVar(&o.asJSON, "json", false, "print JSON instead of a table")
	case "tenants hosts":
		fs.Var(&o.add, "add", "a host name to answer at (repeat for more)")
		fs.Var(&o.remove, "remove", "a host name to stop answering at (repeat for more)")
	case "tenants export":
		fs.StringVar(&o.out, "o", "", "the new (or empty) directory to write the export into (required)")
	case "tenants import":
		fs.StringVar(&o.as, "as", "", "import it under this ID instead of its own (a copy)")
		fs.Var(&o.hosts, "host", "a host name it answers at instead of the export's (repeat for more)")
	case "tenants delete":
		fs.StringVar(&o.confirm, "confirm", "", "the tenant's ID again: deleting removes all its data (required)")
		fs.BoolVar(&o.leftBehind, "left-behind", false,
			"delete only what the tenant left in the main database when PORTICO_TENANT_DATABASES placed it in its own; its directory entry (name, hosts, suspension, NetSuite connection) stays")
	}
}

// runTenants runs tenants command cmd; rest are the arguments left after
// its flags.
func runTenants(ctx context.Context, store *sqlstore.Store, cfg config.Config, cmd string, o *tenantsOptions, rest []string, stdout io.Writer) error {
	if o.id == "" && len(rest) > 0 && cmd != "tenants list" {
		o.id, rest = rest[0], rest[1:]
	}
	if cmd == "tenants environment" && len(rest) > 0 {
		o.environment, rest = strings.Join(rest, " "), nil
	}
	if len(rest) > 0 {
		return fmt.Errorf("%s: unexpected %q (flags go after the ID: portico %s)", cmd, strings.Join(rest, " "), tenantsUsage[cmd])
	}
	if cmd == "tenants list" {
		return sentence(cmd, listTenants(ctx, store, cfg, o.asJSON, stdout))
	}
	if o.id == "" {
		what := "the tenant's ID"
		if cmd == "tenants import" {
			what = "the export's directory"
		}
		return fmt.Errorf("%s: give %s: portico %s", cmd, what, tenantsUsage[cmd])
	}
	admin := &tenancy.Admin{Store: store, Default: cfg.DefaultTenant, Placed: cfg.Placed}
	if cmd == "tenants import" {
		return sentence(cmd, importTenant(ctx, admin, o, stdout))
	}
	id, err := tenancy.ParseID(o.id)
	if err != nil {
		return sentence(cmd, err)
	}
	switch cmd {
	case "tenants add":
		t, err := admin.Add(ctx, tenancy.Tenant{ID: id, Name: o.name, Hosts: o.hosts, IdentityTenant: o.identityTenant, Environment: o.environment})
		if err != nil {
			return sentence(cmd, err)
		}
		fmt.Fprintf(stdout, "added tenant %s (%s) at %s\n", id, t.Name, hostsText(t.Hosts, "the server's own addresses (the default tenant)"))
		return nil
	case "tenants suspend", "tenants resume":
		suspend := cmd == "tenants suspend"
		if _, err := admin.SetSuspended(ctx, id, suspend); err != nil {
			return sentence(cmd, err)
		}
		if suspend {
			fmt.Fprintf(stdout, "tenant %s is suspended: its users cannot sign in and its sync stops; its data stays (portico tenants resume %s)\n", id, id)
		} else {
			fmt.Fprintf(stdout, "tenant %s is active\n", id)
		}
		return nil
	case "tenants hosts":
		t, err := admin.ChangeHosts(ctx, id, o.add, o.remove)
		if err != nil {
			return sentence(cmd, err)
		}
		fmt.Fprintf(stdout, "tenant %s answers at %s\n", id, hostsText(t.Hosts, "no host name of its own"))
		return nil
	case "tenants environment":
		t, err := admin.SetEnvironment(ctx, id, o.environment)
		if err != nil {
			return sentence(cmd, err)
		}
		if t.Environment == "" {
			fmt.Fprintf(stdout, "tenant %s shows the deployment's environment (PORTICO_ENVIRONMENT)\n", id)
		} else {
			fmt.Fprintf(stdout, "tenant %s shows the environment badge %q\n", id, t.Environment)
		}
		return nil
	case "tenants export":
		return sentence(cmd, exportTenant(ctx, admin, id, o.out, stdout))
	case "tenants delete":
		if o.leftBehind {
			sum, err := admin.DeleteLeftBehind(ctx, id, o.confirm)
			if err != nil {
				return sentence(cmd, err)
			}
			fmt.Fprintf(stdout, "deleted what tenant %s left in the main database: %s\n", id, countsText(sum.Rows))
			return nil
		}
		sum, err := admin.Delete(ctx, id, o.confirm)
		if err != nil {
			return sentence(cmd, err)
		}
		fmt.Fprintf(stdout, "deleted tenant %s: %s\n", id, countsText(sum.Rows))
		return nil
	}
	return fmt.Errorf("unknown command %q", cmd)
}

// exportTenant writes tenant id's export into the new directory dir.
func exportTenant(ctx context.Context, admin *tenancy.Admin, id portal.TenantID, dir string, stdout io.Writer) error {
	if dir == "" {
		return fmt.Errorf("give the directory to write it into: portico %s", tenantsUsage["tenants export"])
	}
	if _, err := admin.Find(ctx, id); err != nil {
		return err
	}
	sink, err := tenancy.NewDirSink(dir)
	if err != nil {
		return err
	}
	start := time.Now()
	sum, err := admin.Export(ctx, id, sink)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "exported tenant %s into %s in %s: %s; %d attached files (%d bytes)\n",
		id, dir, time.Since(start).Round(time.Millisecond), countsText(sum.Rows), sum.Files, sum.Bytes)
	if sum.OpenWrites > 0 {
		fmt.Fprintf(stdout, "warning: %d edits still wait to be sent to the ERP and are not in the export: run `portico sync -once` and export again if the export is to move the tenant\n", sum.OpenWrites)
	}
	return nil
}

// importTenant re-creates a tenant from the export in directory o.id.
func importTenant(ctx context.Context, admin *tenancy.Admin, o *tenantsOptions, stdout io.Writer) error {
	var as portal.TenantID
	if o.as != "" {
		var err error
		if as, err = tenancy.ParseID(o.as); err != nil {
			return err
		}
	}
	if info, err := os.Stat(o.id); err != nil || !info.IsDir() {
		return fmt.Errorf("%s is not a directory: give the directory `portico tenants export` wrote", o.id)
	}
	sum, err := admin.Import(ctx, os.DirFS(o.id), tenancy.ImportOptions{As: as, Hosts: o.hosts})
	if err != nil {
		return err
	}
	t := sum.Tenant
	fmt.Fprintf(stdout, "imported tenant %s (%s) at %s: %s\n", t.ID, t.Name, hostsText(t.Hosts, "the server's own addresses (the default tenant)"), countsText(sum.Rows))
	if t.Suspended {
		fmt.Fprintf(stdout, "it is suspended, as it was exported (portico tenants resume %s)\n", t.ID)
	}
	fmt.Fprintln(stdout, "its users sign in again; connect its ERP again, if it has one (credentials are never exported)")
	return nil
}

// countsText is "12 records, 3 users", by name.
func countsText(rows map[string]int64) string {
	if len(rows) == 0 {
		return "no rows"
	}
	var parts []string
	for _, name := range slices.Sorted(maps.Keys(rows)) {
		parts = append(parts, fmt.Sprintf("%d %s", rows[name], name))
	}
	return strings.Join(parts, ", ")
}

// tenantsUsage is each tenants command's synopsis, for its errors.
var tenantsUsage = map[string]string{
	"tenants add":         "tenants add ID -name NAME -host HOST [-host HOST2 …] [-identity-tenant T]",
	"tenants list":        "tenants list [-json]",
	"tenants suspend":     "tenants suspend ID",
	"tenants resume":      "tenants resume ID",
	"tenants hosts":       "tenants hosts ID [-add HOST] [-remove HOST]",
	"tenants environment": "tenants environment ID [NAME]",
	"tenants export":      "tenants export ID -o DIR",
	"tenants import":      "tenants import DIR [-as ID] [-host HOST …]",
	"tenants delete":      "tenants delete ID -confirm ID [-left-behind]",
}

// tenantJSON is a tenant as `tenants list -json` prints it.
type tenantJSON struct {
	ID             string    `json:"id"`
	Name           string    `json:"name"`
	Hosts          []string  `json:"hosts"`
	IdentityTenant string    `json:"identityTenant"`
	Suspended      bool      `json:"suspended"`
	Default        bool      `json:"default"`
	CreatedAt      time.Time `json:"createdAt"`
}

// listTenants prints the deployment's tenants: a table, or JSON.
func listTenants(ctx context.Context, store *sqlstore.Store, cfg config.Config, asJSON bool, stdout io.Writer) error {
	tenants, err := store.Tenants(ctx)
	if err != nil {
		return err
	}
	if asJSON {
		out := make([]tenantJSON, len(tenants))
		for i, t := range tenants {
			out[i] = tenantJSON{ID: string(t.ID), Name: t.Name, Hosts: t.Hosts, IdentityTenant: t.SignInTenant(),
				Suspended: t.Suspended, Default: t.ID == cfg.DefaultTenant, CreatedAt: t.CreatedAt}
		}
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(out)
	}
	if len(tenants) == 0 {
		fmt.Fprintln(stdout, "no tenants yet: `portico seed` or `portico roles import` makes the default one, `portico tenants add` others")
		return nil
	}
	w := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(w, "ID\tNAME\tHOSTS\tIDENTITY TENANT\tSTATE")
	for _, t := range tenants {
		state := "active"
		if t.Suspended {
			state = "suspended"
		}
		id := string(t.ID)
		if t.ID == cfg.DefaultTenant {
			id += " (default)"
		}
		fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%s\n", id, oneLine(t.Name), hostsText(t.Hosts, "-"), t.SignInTenant(), state)
	}
	if err := w.Flush(); err != nil {
		return err
	}
	if len(tenants) == 1 {
		fmt.Fprintln(stdout, "\nOne tenant: it answers at every address.")
	} else {
		fmt.Fprintln(stdout, "\nEach tenant answers at its hosts; the default tenant also at the server's own addresses (loopback, PORTICO_PUBLIC_URL).")
	}
	return nil
}

func hostsText(hosts []string, none string) string {
	if len(hosts) == 0 {
		return none
	}
	return strings.Join(hosts, ", ")
}

// oneLine keeps a name's tabs and line breaks out of the table.
func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// sentence is err as the command's user reads it: a portal error's message
// (its code is for programs), after the command's name.
func sentence(cmd string, err error) error {
	if err == nil {
		return nil
	}
	var pe *portal.Error
	if errors.As(err, &pe) {
		return fmt.Errorf("%s: %s", cmd, pe.Message)
	}
	return fmt.Errorf("%s: %w", cmd, err)
}
