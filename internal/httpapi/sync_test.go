package httpapi

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/portico/portico/internal/access"
	"github.com/portico/portico/internal/erpsync"
	"github.com/portico/portico/internal/portal"
	"github.com/portico/portico/internal/records"
)

type syncStatusAnswer struct {
	Data struct {
		Connected bool
		Message   string
		erpsync.Status
		Names map[int64]string
	}
}

func TestStandaloneTenantHasNoSync(t *testing.T) {
	e, tok := recordsEnv(t)
	// Not an error: the status of a portal without an ERP is that it has none.
	var st syncStatusAnswer
	if code := e.getJSON(t, tok, 10, "/api/v1/sync/status", &st); code != 200 || st.Data.Connected ||
		!strings.Contains(st.Data.Message, "not connected to an ERP") || st.Data.Kinds != nil {
		t.Fatalf("status of a standalone tenant: %d %+v", code, st.Data)
	}
	// Its menus do not offer the sync page.
	ctx := context.Background()
	ten := e.store.Tenant("acme")
	file, err := ten.ExportAccess(ctx)
	if err != nil {
		t.Fatal(err)
	}
	file.Layouts[0].Items = append(file.Layouts[0].Items, access.MenuItem{Text: "Admin", Items: []access.MenuItem{
		{Text: "Audit log", Href: "/audit"}, {Separator: true}, {Text: "ERP sync", Href: "/sync"}}})
	if err := ten.ImportAccess(ctx, file); err != nil {
		t.Fatal(err)
	}
	var menu struct {
		Data struct{ Items []access.MenuItem }
	}
	e.getJSON(t, tok, 10, "/api/v1/layout/configurations/"+file.Layouts[0].ID, &menu)
	if b, _ := json.Marshal(menu.Data.Items); strings.Contains(string(b), "/sync") || !strings.Contains(string(b), "/audit") {
		t.Fatalf("menu of a standalone tenant: %s", b)
	}
	e.syncs = map[portal.TenantID]Syncer{"acme": erpsync.New(nil, ten, erpsync.Options{})}
	e.getJSON(t, tok, 10, "/api/v1/layout/configurations/"+file.Layouts[0].ID, &menu)
	if b, _ := json.Marshal(menu.Data.Items); !strings.Contains(string(b), "/sync") {
		t.Fatalf("menu of a tenant with an ERP: %s", b)
	}
	e.syncs = nil
	// Writes are done at once: the portal's store is the system of record.
	k, _ := records.Lookup("customer")
	code, v, p := e.save(t, tok, 10, "POST", "/api/v1/netsuite/portal-crud?type=customer", map[string]any{"fields": validFields(k, "Standalone Co")})
	if code != 201 || v.Data.Write.State != records.WriteSynced || v.Data.ID >= records.ProvisionalBase {
		t.Fatalf("standalone create: %d %+v %+v", code, v.Data, p)
	}
}

func TestQueuedWritesAndTheirStatus(t *testing.T) {
	e, tok := recordsEnv(t)
	eng := erpsync.New(nil, e.store.Tenant("acme"), erpsync.Options{})
	e.syncs = map[portal.TenantID]Syncer{"acme": eng}
	k, _ := records.Lookup("customer")
	code, v, p := e.save(t, tok, 10, "POST", "/api/v1/netsuite/portal-crud?type=customer", map[string]any{"fields": validFields(k, "Queued Co")})
	if code != 201 || v.Data.Write.State != records.WritePending || v.Data.ID < records.ProvisionalBase {
		t.Fatalf("queued create: %d %+v %+v", code, v.Data, p)
	}
	// A record page asks once per version for the whole document from the ERP.
	var view struct{ Data struct{ Completing bool } }
	e.getJSON(t, tok, 10, "/api/v1/netsuite/portal-record?type=project&id=1", &view)
	if !view.Data.Completing {
		t.Fatal("first view of a record: not completing")
	}
	view.Data.Completing = false
	e.getJSON(t, tok, 10, "/api/v1/netsuite/portal-record?type=project&id=1", &view)
	if view.Data.Completing {
		t.Fatal("second view of the same version: completing again")
	}
	var st syncStatusAnswer
	e.getJSON(t, tok, 10, "/api/v1/sync/status", &st)
	if !st.Data.Connected || st.Data.Outbox[erpsync.EntryPending] != 1 || len(st.Data.Open) != 1 || st.Data.Open[0].RecordID != v.Data.ID ||
		st.Data.Names[st.Data.Open[0].ID] != "Queued Co" ||
		len(st.Data.Kinds) != len(records.All()) || st.Data.Kinds[0].LagSeconds != -1 {
		t.Fatalf("status: %+v", st.Data)
	}
	// A viewer may not see the status nor touch the write.
	viewer, _ := e.login(t, "acme", "uid-vic", "vic@acme.test")
	if w := e.call("GET", "/api/v1/sync/status", viewer.Data.Token, 14, ""); w.Code != 403 {
		t.Fatalf("viewer status: %d", w.Code)
	}
	target := fmt.Sprintf("/api/v1/sync/writes/discard?type=customer&id=%d", v.Data.ID)
	if w := e.call("POST", target, viewer.Data.Token, 14, ""); w.Code != 403 {
		t.Fatalf("viewer discard: %d", w.Code)
	}
	if w := e.call("POST", "/api/v1/sync/writes/explode?type=customer&id=1", tok, 10, ""); w.Code != 404 {
		t.Fatalf("unknown action: %d", w.Code)
	}
	if w := e.call("POST", "/api/v1/sync/writes/retry?type=customer&id=1", tok, 10, ""); w.Code != 404 {
		t.Fatalf("retry of a record with nothing refused: %d", w.Code)
	}
	// A change on its way cannot be discarded (it may be landing) ...
	if w := e.call("POST", target, tok, 10, ""); w.Code != 404 {
		t.Fatalf("discard of a pending change: %d %s", w.Code, w.Body)
	}
	// ... a refused one can: a create that never reached the ERP goes.
	ten := e.store.Tenant("acme")
	due, _ := ten.DueOutbox(context.Background(), time.Now().Add(time.Hour), 10)
	if len(due) != 1 {
		t.Fatalf("due: %+v", due)
	}
	ten.FailOutbox(context.Background(), due[0], "Refused", time.Now())
	if w := e.call("POST", target, tok, 10, ""); w.Code != 200 {
		t.Fatalf("discard: %d %s", w.Code, w.Body)
	}
	if _, err := ten.Record(context.Background(), "customer", v.Data.ID); err == nil {
		t.Fatal("discarded create still there")
	}
	if w := e.call("POST", "/api/v1/sync/run?kind=nope", tok, 10, ""); w.Code != 400 {
		t.Fatalf("run of an unknown kind: %d", w.Code)
	}
	if w := e.call("POST", "/api/v1/sync/run?kind=customer", tok, 10, ""); w.Code != 202 {
		t.Fatalf("run: %d", w.Code)
	}
}

func TestMetricsNeedTheirToken(t *testing.T) {
	srv, _ := newTestServer(t, fakeStore{})
	if w := do(srv, "GET", "/metrics", "Authorization", "Bearer x"); w.Code != 404 {
		t.Fatalf("metrics without a token configured: %d", w.Code)
	}
	token := strings.Repeat("m", 32)
	srv.metricsToken = token
	srv.writeMetrics = func(_ context.Context, w io.Writer) error {
		_, err := io.WriteString(w, "portico_sync_pulled_records_total 7\n")
		return err
	}
	for _, hdr := range []string{"", "Bearer wrong", "Basic " + token} {
		if w := do(srv, "GET", "/metrics", "Authorization", hdr); w.Code != 401 {
			t.Fatalf("metrics with %q: %d", hdr, w.Code)
		}
	}
	w := do(srv, "GET", "/metrics", "Authorization", "Bearer "+token)
	if w.Code != 200 || !strings.Contains(w.Body.String(), "portico_sync_pulled_records_total 7") ||
		!strings.HasPrefix(w.Header().Get("Content-Type"), "text/plain; version=0.0.4") {
		t.Fatalf("metrics: %d %q %s", w.Code, w.Header().Get("Content-Type"), w.Body)
	}
}

func TestWithoutSyncPage(t *testing.T) {
	sep := access.MenuItem{Separator: true}
	items := []access.MenuItem{
		{Text: "Dashboard", Href: "/"},
		{Text: "Admin", Items: []access.MenuItem{{Text: "Audit log", Href: "/audit"}, sep, {Text: "ERP sync", Href: "/sync"}}},
		{Text: "Sync", Items: []access.MenuItem{{Text: "ERP sync", Href: "/sync/"}}},
		{Text: "Tools", Items: []access.MenuItem{{Text: "ERP sync", Href: "/sync"}, sep, {Text: "Reports", Href: "/reports/list"}}},
	}
	got, _ := json.Marshal(withoutSyncPage(items))
	want := `[{"text":"Dashboard","iconCss":"","href":"/","items":null,"separator":false},` +
		`{"text":"Admin","iconCss":"","href":"","items":[{"text":"Audit log","iconCss":"","href":"/audit","items":null,"separator":false}],"separator":false},` +
		`{"text":"Tools","iconCss":"","href":"","items":[{"text":"Reports","iconCss":"","href":"/reports/list","items":null,"separator":false}],"separator":false}]`
	if string(got) != want {
		t.Errorf("menu without the sync page:\n%s\nwant\n%s", got, want)
	}
}
