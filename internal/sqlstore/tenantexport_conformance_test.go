package sqlstore

import (
	"bytes"
	"context"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/portico/portico/internal/access"
	"github.com/portico/portico/internal/demo"
	"github.com/portico/portico/internal/erp"
	"github.com/portico/portico/internal/erpconn"
	"github.com/portico/portico/internal/erpsync"
	"github.com/portico/portico/internal/portal"
	"github.com/portico/portico/internal/records"
	"github.com/portico/portico/internal/shortlist"
	"github.com/portico/portico/internal/tenancy"
)

// schemaTenantTables lists the tables of the live schema that have a
// tenant_id column, from the engine's own catalog (not views: their rows
// are their tables').
func schemaTenantTables(t *testing.T, s *Store) []string {
	t.Helper()
	q := `SELECT c.table_name FROM information_schema.columns c JOIN information_schema.tables t
		ON t.table_schema = c.table_schema AND t.table_name = c.table_name AND t.table_type = 'BASE TABLE'
		WHERE c.table_schema = current_schema() AND c.column_name = 'tenant_id'`
	if s.Engine() == "sqlite" {
		q = `SELECT m.name FROM sqlite_master m, pragma_table_info(m.name) p
			WHERE m.type = 'table' AND m.sql NOT LIKE 'CREATE VIRTUAL%' AND p.name = 'tenant_id'`
	}
	rows, err := s.db.QueryContext(context.Background(), q)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			t.Fatal(err)
		}
		out = append(out, name)
	}
	slices.Sort(out)
	return out
}

// A table with a tenant's rows that the export, import and deletion do
// not know would be left behind by a deletion and silently missing from
// an export: every one must be listed, exported to a file or not, and
// why.
func TestConformanceTenantTablesAreAllListed(t *testing.T) {
	engines(t, func(t *testing.T, s *Store) {
		tables := schemaTenantTables(t, s)
		if len(tables) < 20 {
			t.Fatalf("the catalog lists only %v", tables)
		}
		for _, name := range tables {
			if !slices.ContainsFunc(tenantTables, func(tt tenantTable) bool { return tt.name == name }) {
				t.Errorf("table %s has a tenant_id column but is not in tenantTables (tenantexport.go): "+
					"export it (a file and its columns) or say why not", name)
			}
		}
		for _, tt := range tenantTables {
			switch {
			case tt.file == "" && tt.why == "", tt.file != "" && tt.why != "":
				t.Errorf("%s: give it a file or a reason it is not exported, not both or neither", tt.name)
			case tt.file != "" && tt.file != "access.yaml" && tt.file != tenancy.HeaderFile && len(tt.cols) == 0:
				t.Errorf("%s: exported to %s without columns", tt.name, tt.file)
			case len(tt.cols) > 0 && !slices.Contains(exportOrder, tt.name) && tt.file != tenancy.HeaderFile:
				t.Errorf("%s: has columns but is not in exportOrder", tt.name)
			}
		}
	})
}

// fillTenant gives tenant id a bit of everything an export holds.
func fillTenant(t *testing.T, s *Store, id portal.TenantID, host string) *Tenant {
	t.Helper()
	ctx := context.Background()
	if err := s.AddTenant(ctx, tenancy.Tenant{ID: id, Name: "Acme <R&D> \"Water\"", Hosts: []string{host, "www." + host}, IdentityTenant: string(id) + "-x7k2p", Environment: "Training"}); err != nil {
		t.Fatal(err)
	}
	ten := s.Tenant(id)
	f := demo.Access()
	f.Tenant = string(id)
	if err := ten.ImportAccess(ctx, f); err != nil {
		t.Fatal(err)
	}
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(ten.SetUserUID(ctx, f.Users[0].ID, "uid-"+string(id)))
	must(ten.SetBaseCurrency(ctx, "NZD"))
	must(ten.EnsureCompany(ctx, demo.Company()))
	if _, err := demo.Generate(ctx, ten, demo.Options{Projects: 2, PerKind: 3}); err != nil {
		t.Fatal(err)
	}
	// A document whose members are in no sorted order, with odd text.
	doc := []byte(`{"zeta":1,"alpha":"é <b> & \u0001","nested":{"b":[1,2.50,"x"],"a":null}}`)
	must(ten.PutRecords(ctx, []records.Record{{Kind: "project", ID: 9001, Title: "Tāmaki\tline\nbreak", Code: "P-9001", ModifiedAt: time.UnixMilli(1_700_000_000_123), Fields: doc}}))
	must(ten.PutFiles(ctx, []records.File{
		{ID: 77, Kind: "project", RecordID: 9001, Name: "../../etc/passwd", ContentType: "text/plain", Content: []byte("not a passwd"), ModifiedAt: time.UnixMilli(1_700_000_000_000)},
		{ID: 78, Kind: "project", RecordID: 9001, Name: "empty.txt", ContentType: "text/plain", Content: []byte{}, ModifiedAt: time.UnixMilli(1_700_000_000_000)},
	}))
	if _, err := ten.PutFeedback(ctx, feedbackOf("with a file")); err != nil {
		t.Fatal(err)
	}
	if _, err := ten.PutFeedback(ctx, feedbackOf("")); err != nil { // no file
		t.Fatal(err)
	}
	must(ten.Audit(ctx, access.AuditEvent{At: time.UnixMilli(1_700_000_000_000), Event: "login", UserID: f.Users[0].ID, IP: "10.0.0.1"}))
	must(ten.ShortlistAdd(ctx, f.Users[0].ID, shortlist.Favourites, "project", 9001, time.UnixMilli(1_700_000_000_500)))
	must(ten.PutList(ctx, records.ListConfig{ID: "l1", Kind: "project", Name: "Mine", Columns: []string{"title"}, Sort: records.SortSpec{Field: "title", Dir: "asc"},
		Visibility: records.Private, OwnerID: f.Users[0].ID, UpdatedAt: time.UnixMilli(1_700_000_000_000)}))
	must(ten.SaveSyncState(ctx, erpsync.State{Kind: "project", Checkpoint: erp.Checkpoint{ID: 12}, LastRun: time.UnixMilli(1_700_000_000_000)}))
	// Its NetSuite connection: never exported, deleted with it.
	must(s.PutERPConnection(ctx, erpconn.Stored{Tenant: id, Settings: `{"account":"1234567"}`, Secrets: "sealed-credential-c0ffee", UpdatedAt: time.Now()}))
	must(s.SetTenantSuspended(ctx, id, true, time.UnixMilli(1_700_000_001_000)))
	return ten
}

// tenantRows counts tenant id's rows in every table with a tenant_id
// column.
func tenantRows(t *testing.T, s *Store, id portal.TenantID) map[string]int64 {
	t.Helper()
	out := map[string]int64{}
	for _, name := range schemaTenantTables(t, s) {
		var n int64
		if err := s.db.QueryRowContext(context.Background(), s.d.rebind(`SELECT COUNT(*) FROM `+name+` WHERE tenant_id = ?`), string(id)).Scan(&n); err != nil {
			t.Fatal(err)
		}
		if n > 0 {
			out[name] = n
		}
	}
	return out
}

// readTree is every file under dir, by slash path.
func readTree(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		out[filepath.ToSlash(rel)] = data
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func exportTo(t *testing.T, s *Store, id portal.TenantID) (string, tenancy.ExportSummary) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "export")
	sink, err := tenancy.NewDirSink(dir)
	if err != nil {
		t.Fatal(err)
	}
	sum, err := s.ExportTenant(context.Background(), id, sink)
	if err != nil {
		t.Fatal(err)
	}
	return dir, sum
}

// acmeAndGlobex fills two tenants, and returns globex's rows by table,
// which what is done to acme must leave as they are.
func acmeAndGlobex(t *testing.T, s *Store) map[string]int64 {
	t.Helper()
	fillTenant(t, s, "acme", "acme.example")
	fillTenant(t, s, "globex", "globex.example")
	return tenantRows(t, s, "globex")
}

// Export, delete, import, export again: the same files, byte for byte;
// the deletion leaves nothing of the tenant in any table and the other
// tenant as it was.
func TestConformanceTenantExportDeleteImportRoundTrip(t *testing.T) {
	engines(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		globexBefore := acmeAndGlobex(t, s)

		dir, sum := exportTo(t, s, "acme")
		first := readTree(t, dir)
		for _, want := range []string{"tenant.json", "access.yaml", "user_uids.jsonl", "records/project.jsonl", "files.jsonl",
			"files/77-file.._.._etc_passwd", "files/78-empty.txt", "lists.jsonl", "shortlists.jsonl", "feedback.jsonl",
			"feedback/1-with a file.txt", "audit.jsonl", "sync_state.jsonl", "sequences.jsonl"} {
			if _, ok := first[strings.ReplaceAll(want, " ", "_")]; !ok {
				t.Errorf("the export has no %s: %v", want, slices.Sorted(maps.Keys(first)))
			}
		}
		if sum.Rows["records/project.jsonl"] < 3 || sum.Files < 3 {
			t.Errorf("summary %+v", sum)
		}
		header := string(first["tenant.json"])
		for _, want := range []string{`"name": "Acme <R&D> \"Water\""`, `"acme.example"`, `"identityTenant": "acme-x7k2p"`,
			`"suspended": true`, `"baseCurrency": "NZD"`, `"environment": "Training"`, `"legal_name"`} {
			if !strings.Contains(header, want) {
				t.Errorf("tenant.json lacks %s:\n%s", want, header)
			}
		}
		if !bytes.Contains(first["records/project.jsonl"], []byte(`"fields":{"zeta":1,"alpha":"é <b> & \u0001","nested":{"b":[1,2.50,"x"],"a":null}}`)) &&
			!bytes.Contains(first["records/project.jsonl"], []byte(`"fields":{"zeta":1,"alpha":"é <b> & \u0001","nested":{"a":null,"b":[1,2.50,"x"]}}`)) {
			t.Errorf("the document is not as stored:\n%s", first["records/project.jsonl"])
		}
		for name, data := range first {
			for _, secret := range []string{"refresh", "fingerprint", "idem_key", "sealed-credential", "1234567"} {
				if bytes.Contains(data, []byte(secret)) {
					t.Errorf("%s mentions %s", name, secret)
				}
			}
		}

		del, err := s.DeleteTenant(ctx, "acme")
		if err != nil {
			t.Fatal(err)
		}
		if del.Rows["records"] < 3 || del.Rows["users"] == 0 || del.Rows["tenant_hosts"] != 2 || del.Rows["erp_connections"] != 1 {
			t.Errorf("deleted %v", del.Rows)
		}
		if left := tenantRows(t, s, "acme"); len(left) > 0 {
			t.Errorf("left of acme after its deletion: %v", left)
		}
		if ok, _ := s.TenantExists(ctx, "acme"); ok {
			t.Error("acme's row is left")
		}
		if after := tenantRows(t, s, "globex"); !maps.Equal(after, globexBefore) {
			t.Errorf("globex changed: %v, was %v", after, globexBefore)
		}
		if _, err := s.DeleteTenant(ctx, "acme"); !portal.IsNotFound(err) {
			t.Errorf("deleting it again: %v", err)
		}

		imp, err := s.ImportTenant(ctx, os.DirFS(dir), tenancy.ImportOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if imp.Rows["records"] < 3 || imp.Tenant.ID != "acme" {
			t.Errorf("imported %+v", imp)
		}
		again, _ := exportTo(t, s, "acme")
		second := readTree(t, again)
		for name := range first {
			if !bytes.Equal(first[name], second[name]) {
				t.Errorf("%s differs after the round trip:\n%s\n---\n%s", name, first[name], second[name])
			}
		}
		if len(first) != len(second) {
			t.Errorf("files: %v, then %v", slices.Sorted(maps.Keys(first)), slices.Sorted(maps.Keys(second)))
		}
		// What the records' triggers keep is back too: the search finds it.
		ten := s.Tenant("acme")
		if n, err := ten.CountRecords(ctx, "project"); err != nil || n < 3 {
			t.Errorf("count after import: %d, %v", n, err)
		}

		// Again: refused, and nothing changes.
		if _, err := s.ImportTenant(ctx, os.DirFS(dir), tenancy.ImportOptions{}); portal.ErrorCode(err) != portal.CodeConflict {
			t.Errorf("import over an existing tenant: %v", err)
		}
		// A copy needs hosts of its own; with them, it keeps the sign-in
		// tenant of the original.
		if _, err := s.ImportTenant(ctx, os.DirFS(dir), tenancy.ImportOptions{As: "acme-copy"}); portal.ErrorCode(err) != portal.CodeConflict ||
			!strings.Contains(err.Error(), "acme.example") {
			t.Errorf("a copy at the original's hosts: %v", err)
		}
		if left := tenantRows(t, s, "acme-copy"); len(left) > 0 {
			t.Errorf("a refused import left %v", left)
		}
		cp, err := s.ImportTenant(ctx, os.DirFS(dir), tenancy.ImportOptions{As: "acme-copy", Hosts: []string{"copy.example"}})
		if err != nil {
			t.Fatal(err)
		}
		if cp.Tenant.SignInTenant() != "acme-x7k2p" || !slices.Equal(cp.Tenant.Hosts, []string{"copy.example"}) {
			t.Errorf("copy: %+v", cp.Tenant)
		}
		got, want := tenantRows(t, s, "acme-copy"), tenantRows(t, s, "acme")
		want["tenant_hosts"] = 1 // its own one, for the original's two
		if !maps.Equal(got, want) {
			t.Errorf("the copy has %v, the original %v", got, want)
		}
	})
}

// A damaged export is refused with the file and line, and leaves nothing.
func TestConformanceTenantImportRefusesADamagedExport(t *testing.T) {
	engines(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		fillTenant(t, s, "acme", "acme.example")
		dir, _ := exportTo(t, s, "acme")
		if _, err := s.DeleteTenant(ctx, "acme"); err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dir, "audit.jsonl")
		data, _ := os.ReadFile(path)
		os.WriteFile(path, append(data, []byte(`{"id": "seven"}`+"\n")...), 0o600)
		_, err := s.ImportTenant(ctx, os.DirFS(dir), tenancy.ImportOptions{})
		if err == nil || !strings.Contains(err.Error(), "audit.jsonl line 2") {
			t.Errorf("a bad line: %v", err)
		}
		if left := tenantRows(t, s, "acme"); len(left) > 0 {
			t.Errorf("a failed import left %v", left)
		}
		if ok, _ := s.TenantExists(ctx, "acme"); ok {
			t.Error("a failed import left the tenant")
		}
	})
}

// What a tenant placed in a database of its own left in the main one
// goes, but its directory entry: its row, hosts and NetSuite connection.
// Another tenant is untouched.
func TestConformanceTenantDataLeftBehindIsDeleted(t *testing.T) {
	engines(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		globexBefore := acmeAndGlobex(t, s)
		del, err := s.DeleteTenantData(ctx, "acme")
		if err != nil {
			t.Fatal(err)
		}
		if del.Rows["records"] < 3 || del.Rows["users"] == 0 || del.Rows["tenant_hosts"] != 0 || del.Rows["erp_connections"] != 0 {
			t.Errorf("deleted %v", del.Rows)
		}
		if left := tenantRows(t, s, "acme"); !maps.Equal(left, map[string]int64{"tenant_hosts": 2, "erp_connections": 1}) {
			t.Errorf("left of acme: %v, want its hosts and NetSuite connection", left)
		}
		if ok, _ := s.TenantExists(ctx, "acme"); !ok {
			t.Error("acme's row went")
		}
		if conns, err := s.ERPConnections(ctx); err != nil || len(conns) != 2 {
			t.Errorf("NetSuite connections after: %d, %v", len(conns), err)
		}
		if after := tenantRows(t, s, "globex"); !maps.Equal(after, globexBefore) {
			t.Errorf("globex changed: %v, was %v", after, globexBefore)
		}
	})
}
