package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/portico/portico/internal/sqlstore"
)

func TestTenantsCommands(t *testing.T) {
	env := map[string]string{"PORTICO_DATA_DIR": t.TempDir(), "PORTICO_LOG_LEVEL": "warn"}
	must := func(args ...string) string {
		t.Helper()
		out, err := runWith(t, env, args...)
		if err != nil {
			t.Fatalf("%s: %v", strings.Join(args, " "), err)
		}
		return out
	}
	refused := func(want string, args ...string) {
		t.Helper()
		_, err := runWith(t, env, args...)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want an error saying %q", strings.Join(args, " "), err, want)
		}
		// A sentence for the operator: no error code, no database's words.
		if err == nil {
			return
		}
		first, _, _ := strings.Cut(err.Error(), "\n")
		for _, w := range []string{"conflict:", "invalid:", "not_found:", "constraint", "SQLSTATE", "UNIQUE", "INSERT"} {
			if strings.Contains(first, w) {
				t.Errorf("%s: %q is not a plain sentence", strings.Join(args, " "), first)
			}
		}
	}

	if out := must("tenants", "list"); !strings.Contains(out, "no tenants yet") {
		t.Errorf("empty list: %q", out)
	}
	if out := must("tenants", "add", "portico-demo", "-name", "Demo"); !strings.Contains(out, "added tenant portico-demo (Demo)") {
		t.Errorf("add the default tenant without a host: %q", out)
	}
	if out := must("tenants", "list"); !strings.Contains(out, "One tenant: it answers at every address.") {
		t.Errorf("one tenant: %q", out)
	}
	out := must("tenants", "add", "acme", "-name", "Acme Water", "-host", "Portal.Acme.example", "-host", "acme.localhost:8080", "-identity-tenant", "acme-x7k2p")
	if !strings.Contains(out, "added tenant acme (Acme Water) at acme.localhost, portal.acme.example") {
		t.Errorf("add: %q", out)
	}
	// Flags before the ID work too.
	must("tenants", "add", "-name", "Globex", "-host", "globex.example", "globex")

	refused("tenant acme exists", "tenants", "add", "acme", "-name", "Again", "-host", "again.example")
	refused("host globex.example belongs to tenant globex", "tenants", "add", "initech", "-name", "Initech", "-host", "initech.example", "-host", "GLOBEX.example")
	refused(`"not a host" is not a host name`, "tenants", "add", "initech", "-name", "Initech", "-host", "not a host")
	refused(`"Initech" is not a tenant ID`, "tenants", "add", "Initech", "-name", "Initech", "-host", "initech.example")
	refused("give the company's name", "tenants", "add", "initech", "-host", "initech.example")
	refused("give at least one host name", "tenants", "add", "initech", "-name", "Initech")
	refused("give the tenant's ID", "tenants", "suspend")
	refused(`unexpected "extra"`, "tenants", "suspend", "acme", "extra")
	refused("there is no tenant nobody", "tenants", "suspend", "nobody")
	refused("there is no tenant nobody", "tenants", "hosts", "nobody", "-add", "nobody.example")
	refused("give a host name to add or one to remove", "tenants", "hosts", "acme")
	if out := must("tenants", "environment", "acme", "Sandbox"); !strings.Contains(out, `tenant acme shows the environment badge "Sandbox"`) {
		t.Errorf("environment: %s", out)
	}
	if out := must("tenants", "environment", "acme"); !strings.Contains(out, "tenant acme shows the deployment's environment") {
		t.Errorf("environment reset: %s", out)
	}
	refused("there is no tenant nobody", "tenants", "environment", "nobody", "Sandbox")
	refused("tenants list", "tenants", "frobnicate")
	refused("tenants list", "tenants")

	// Hosts: added, removed, another tenant's refused.
	if out := must("tenants", "hosts", "acme", "-add", "www.acme.example", "-remove", "acme.localhost"); !strings.Contains(out, "tenant acme answers at portal.acme.example, www.acme.example") {
		t.Errorf("hosts: %q", out)
	}
	refused("host globex.example belongs to tenant globex", "tenants", "hosts", "acme", "-remove", "globex.example")
	refused("host globex.example belongs to tenant globex", "tenants", "hosts", "acme", "-add", "globex.example")

	if out := must("tenants", "suspend", "globex"); !strings.Contains(out, "tenant globex is suspended") {
		t.Errorf("suspend: %q", out)
	}
	table := must("tenants", "list")
	for _, want := range []string{
		"ID", "NAME", "HOSTS", "IDENTITY TENANT", "STATE",
		"acme", "Acme Water", "portal.acme.example, www.acme.example", "acme-x7k2p", "active",
		"globex", "suspended", "portico-demo (default)",
		"the default tenant also at the server's own addresses",
	} {
		if !strings.Contains(table, want) {
			t.Errorf("list does not show %q:\n%s", want, table)
		}
	}
	lines := strings.Split(table, "\n")
	if len(lines) < 4 || !strings.HasPrefix(lines[1], "acme ") || !strings.HasPrefix(lines[2], "globex ") || !strings.HasPrefix(lines[3], "portico-demo ") {
		t.Errorf("list is not one line per tenant, by id:\n%s", table)
	}

	var listed []struct {
		ID             string   `json:"id"`
		Name           string   `json:"name"`
		Hosts          []string `json:"hosts"`
		IdentityTenant string   `json:"identityTenant"`
		Suspended      bool     `json:"suspended"`
		Default        bool     `json:"default"`
	}
	if err := json.Unmarshal([]byte(must("tenants", "list", "-json")), &listed); err != nil {
		t.Fatal(err)
	}
	if len(listed) != 3 || listed[0].ID != "acme" || listed[0].IdentityTenant != "acme-x7k2p" || len(listed[0].Hosts) != 2 ||
		!listed[1].Suspended || listed[2].ID != "portico-demo" || !listed[2].Default || listed[2].Hosts == nil || listed[2].IdentityTenant != "portico-demo" {
		t.Errorf("list -json: %+v", listed)
	}

	if out := must("tenants", "resume", "globex"); !strings.Contains(out, "tenant globex is active") {
		t.Errorf("resume: %q", out)
	}
	if out := must("tenants", "list"); strings.Contains(out, "suspended") {
		t.Errorf("still suspended:\n%s", out)
	}
	// The seed still runs on a tenant made here.
	if out := must("seed", "-per-kind", "1", "-projects", "1"); !strings.Contains(out, "seeded tenant portico-demo") {
		t.Errorf("seed: %q", out)
	}
}

// A company that `tenants add` named keeps its own name on its printed
// documents when seeded: the demo's letterhead is the demo company's.
func TestSeedingAnotherCompanyKeepsItsName(t *testing.T) {
	env := map[string]string{"PORTICO_DATA_DIR": t.TempDir(), "PORTICO_LOG_LEVEL": "warn", "PORTICO_DEFAULT_TENANT": "kestrel"}
	if _, err := runWith(t, env, "tenants", "add", "kestrel", "-name", "Kestrel Consulting"); err != nil {
		t.Fatal(err)
	}
	if _, err := runWith(t, env, "seed", "-per-kind", "2"); err != nil {
		t.Fatal(err)
	}
	store, err := sqlstore.Open(context.Background(), "", env["PORTICO_DATA_DIR"])
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	profile, err := store.Tenant("kestrel").Company(context.Background())
	if err != nil || profile.Name != "Kestrel Consulting" || !profile.Address.IsZero() {
		t.Errorf("kestrel's letterhead: %v %+v", err, profile)
	}
}

// Export, import and delete from the command line: the refusals an
// operator meets, and a copy made, then deleted.
func TestTenantsExportImportDelete(t *testing.T) {
	env := map[string]string{"PORTICO_DATA_DIR": t.TempDir(), "PORTICO_LOG_LEVEL": "warn"}
	must := func(want string, args ...string) string {
		t.Helper()
		out, err := runWith(t, env, args...)
		if err != nil || !strings.Contains(out, want) {
			t.Fatalf("%s: %v %q, want %q", strings.Join(args, " "), err, out, want)
		}
		return out
	}
	refused := func(want string, args ...string) {
		t.Helper()
		_, err := runWith(t, env, args...)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want an error saying %q", strings.Join(args, " "), err, want)
		}
		for _, code := range []string{"invalid:", "forbidden:", "conflict:", "not_found:"} {
			if err != nil && strings.Contains(err.Error(), code) {
				t.Errorf("%s: %q is not a plain sentence", strings.Join(args, " "), err)
			}
		}
	}
	must("seeded tenant portico-demo", "seed", "-per-kind", "2", "-projects", "1")
	dir := filepath.Join(t.TempDir(), "demo")
	must("exported tenant portico-demo into "+dir, "tenants", "export", "portico-demo", "-o", dir)
	for _, f := range []string{"tenant.json", "access.yaml", "records/project.jsonl"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Errorf("the export has no %s: %v", f, err)
		}
	}
	refused("is not empty: export into a new directory", "tenants", "export", "portico-demo", "-o", dir)
	refused("give the directory to write it into", "tenants", "export", "portico-demo")
	refused("there is no tenant nobody", "tenants", "export", "nobody", "-o", filepath.Join(t.TempDir(), "x"))
	refused("is the deployment's default tenant", "tenants", "delete", "portico-demo", "-confirm", "portico-demo")
	refused("tenant portico-demo exists", "tenants", "import", dir)
	refused("give at least one host name", "tenants", "import", dir, "-as", "acme")
	refused("is not a directory", "tenants", "import", filepath.Join(dir, "nope"))
	refused("give the export's directory", "tenants", "import")

	out := must("imported tenant acme (", "tenants", "import", dir, "-as", "acme", "-host", "acme.example")
	if !strings.Contains(out, "at acme.example") || !strings.Contains(out, "records") {
		t.Errorf("import: %q", out)
	}
	refused("confirm with its ID (acme)", "tenants", "delete", "acme")
	refused("confirm with its ID (acme)", "tenants", "delete", "acme", "-confirm", "portico-demo")

	// What acme left behind once placed elsewhere: its data goes, it
	// stays listed with its host.
	refused("is served from the main database", "tenants", "delete", "acme", "-confirm", "acme", "-left-behind")
	env["PORTICO_TENANT_DATABASES"] = "acme=postgres://127.0.0.1:1/acme"
	refused("confirm with its ID (acme)", "tenants", "delete", "acme", "-confirm", "portico-demo", "-left-behind")
	out = must("deleted what tenant acme left in the main database: ", "tenants", "delete", "acme", "-confirm", "acme", "-left-behind")
	if !strings.Contains(out, " records") || strings.Contains(out, "tenant_hosts") {
		t.Errorf("a left-behind delete says %q", out)
	}
	delete(env, "PORTICO_TENANT_DATABASES")
	if out := must("acme.example", "tenants", "list"); !strings.Contains(out, "acme") {
		t.Errorf("acme is no longer listed:\n%s", out)
	}
	out = must("deleted tenant acme: ", "tenants", "delete", "acme", "-confirm", "acme")
	if strings.Contains(out, " records") || !strings.Contains(out, "tenant_hosts") {
		t.Errorf("deleting acme after its data: %q", out)
	}
	must("imported tenant acme (", "tenants", "import", dir, "-as", "acme", "-host", "acme.example")
	out = must("deleted tenant acme: ", "tenants", "delete", "acme", "-confirm", "acme")
	if !strings.Contains(out, " records") || !strings.Contains(out, " users") {
		t.Errorf("delete does not say what went: %q", out)
	}
	if out := must("portico-demo", "tenants", "list"); strings.Contains(out, "acme") {
		t.Errorf("acme is still listed:\n%s", out)
	}
	refused("there is no tenant acme", "tenants", "delete", "acme", "-confirm", "acme")
}
