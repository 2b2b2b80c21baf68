package httpapi

import (
	"archive/tar"
	"compress/gzip"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/portico/portico/internal/sqlstore"
	"github.com/portico/portico/internal/tenancy"
)

const operatorToken = "op-0123456789abcdef0123456789abcdef"

// newOperatorServer is a server routing by address over a new SQLite
// store with tenants acme (the default, no host) and globex; token ""
// configures no operator token.
func newOperatorServer(t *testing.T, token string) *Server {
	t.Helper()
	ctx := context.Background()
	store, err := sqlstore.Open(ctx, "", t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	for _, tn := range []tenancy.Tenant{{ID: "acme", Name: "Acme"}, {ID: "globex", Name: "Globex", Hosts: []string{"globex.example"}}} {
		if err := store.AddTenant(ctx, tn); err != nil {
			t.Fatal(err)
		}
	}
	s, err := NewServer(Options{
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
		Store:  fakeStore{},
		Client: ClientConfig{ProductName: "Portico", TenantID: "acme", ERP: "netsuite", Product: "portal"},
		ERP:    "netsuite", Product: "portal",
		Directory:     store,
		DefaultHosts:  []string{"127.0.0.1"},
		OperatorToken: token,
		Operator:      &tenancy.Admin{Store: store, Default: "acme"},
	})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// operatorCall calls the operator API as automation would, at a host no
// tenant answers at (the API answers at any).
func operatorCall(s *Server, method, target, token, body string) *httptest.ResponseRecorder {
	r := httptest.NewRequest(method, target, strings.NewReader(body))
	r.Host = "ops.internal:8080"
	if token != "" {
		r.Header.Set("Authorization", "Bearer "+token)
	}
	if body != "" {
		r.Header.Set("Content-Type", "application/json")
	}
	w := httptest.NewRecorder()
	s.ServeHTTP(w, r)
	return w
}

func TestOperatorAPIIsAbsentWithoutAToken(t *testing.T) {
	s := newOperatorServer(t, "")
	for _, route := range []string{"GET /operator/v1/tenants", "POST /operator/v1/tenants/globex/suspend", "DELETE /operator/v1/tenants/globex?confirm=globex"} {
		method, target, _ := strings.Cut(route, " ")
		if w := operatorCall(s, method, target, operatorToken, ""); w.Code != 404 || w.Header().Get("Content-Type") != "application/problem+json" {
			t.Errorf("%s without a configured token: %d %s", route, w.Code, w.Body)
		}
	}
}

func TestOperatorAPINeedsItsToken(t *testing.T) {
	s := newOperatorServer(t, operatorToken)
	for _, token := range []string{"", "wrong", operatorToken + "x", operatorToken[:10]} {
		w := operatorCall(s, "GET", "/operator/v1/tenants", token, "")
		if w.Code != 401 || w.Header().Get("WWW-Authenticate") == "" || strings.Contains(w.Body.String(), "acme") {
			t.Errorf("token %q: %d %s", token, w.Code, w.Body)
		}
	}
	// A session's bearer token or the Basic scheme is no operator token.
	r := httptest.NewRequest("GET", "/operator/v1/tenants", nil)
	r.Header.Set("Authorization", "Basic "+operatorToken)
	w := httptest.NewRecorder()
	s.ServeHTTP(w, r)
	if w.Code != 401 {
		t.Errorf("Basic: %d", w.Code)
	}
}

// Every operation, as automation runs them; refusals are problem
// documents with the use case's words.
func TestOperatorAPIOperations(t *testing.T) {
	s := newOperatorServer(t, operatorToken)
	call := func(method, target, body string, want int) map[string]any {
		t.Helper()
		w := operatorCall(s, method, target, operatorToken, body)
		if w.Code != want {
			t.Fatalf("%s %s: %d %s, want %d", method, target, w.Code, w.Body, want)
		}
		var out map[string]any
		if err := json.Unmarshal(w.Body.Bytes(), &out); err != nil {
			t.Fatalf("%s %s: %v %s", method, target, err, w.Body)
		}
		return out
	}
	tenant := func(out map[string]any) map[string]any { return out["data"].(map[string]any) }
	detail := func(out map[string]any) string { d, _ := out["detail"].(string); return d }

	list := call("GET", "/operator/v1/tenants", "", 200)["data"].([]any)
	if len(list) != 2 || list[0].(map[string]any)["id"] != "acme" || list[0].(map[string]any)["default"] != true {
		t.Errorf("list: %v", list)
	}
	added := tenant(call("POST", "/operator/v1/tenants", `{"id": "initech", "name": "Initech", "hosts": ["Initech.example:443"]}`, 201))
	if added["id"] != "initech" || added["hosts"].([]any)[0] != "initech.example" || added["identityTenant"] != "initech" {
		t.Errorf("add: %v", added)
	}
	if d := detail(call("POST", "/operator/v1/tenants", `{"id": "hooli", "hosts": ["hooli.example"]}`, 400)); d != "give the company's name" {
		t.Errorf("add without a name: %q", d)
	}
	if d := detail(call("POST", "/operator/v1/tenants", `{"id": "hooli", "name": "Hooli"}`, 400)); !strings.Contains(d, "give at least one host name") {
		t.Errorf("add without a host: %q", d)
	}
	if d := detail(call("POST", "/operator/v1/tenants", `{"id": "initech", "name": "Again", "hosts": ["again.example"]}`, 409)); d != "tenant initech exists" {
		t.Errorf("add again: %q", d)
	}
	call("POST", "/operator/v1/tenants", `{"id": "Not An ID", "name": "X", "hosts": ["x.example"]}`, 400)
	call("POST", "/operator/v1/tenants", `{"id": "x", "name": "X", "extra": 1}`, 400)

	if got := tenant(call("POST", "/operator/v1/tenants/initech/suspend", "", 200)); got["suspended"] != true {
		t.Errorf("suspend: %v", got)
	}
	if got := tenant(call("GET", "/operator/v1/tenants/initech", "", 200)); got["suspended"] != true {
		t.Errorf("get: %v", got)
	}
	if got := tenant(call("POST", "/operator/v1/tenants/initech/resume", "", 200)); got["suspended"] != false {
		t.Errorf("resume: %v", got)
	}
	call("POST", "/operator/v1/tenants/nobody/suspend", "", 404)
	got := tenant(call("POST", "/operator/v1/tenants/initech/hosts", `{"add": ["www.initech.example"], "remove": ["initech.example"]}`, 200))
	if got := tenant(call("POST", "/operator/v1/tenants/initech/environment", `{"environment": "Sandbox"}`, 200)); got["environment"] != "Sandbox" {
		t.Errorf("environment: %v", got)
	}
	call("POST", "/operator/v1/tenants/initech/environment", `{"environment": "`+strings.Repeat("x", 30)+`"}`, 400)
	if hosts := got["hosts"].([]any); len(hosts) != 1 || hosts[0] != "www.initech.example" {
		t.Errorf("hosts: %v", got)
	}
	if d := detail(call("POST", "/operator/v1/tenants/initech/hosts", `{"add": ["globex.example"]}`, 409)); !strings.Contains(d, "belongs to tenant globex") {
		t.Errorf("another tenant's host: %q", d)
	}
	call("POST", "/operator/v1/tenants/initech/hosts", `{}`, 400)

	// The export: a tar.gz of the command's files.
	w := operatorCall(s, "GET", "/operator/v1/tenants/initech/export", operatorToken, "")
	if w.Code != 200 || w.Header().Get("Content-Type") != "application/gzip" || !strings.Contains(w.Header().Get("Content-Disposition"), "tenant-initech.tar.gz") {
		t.Fatalf("export: %d %v", w.Code, w.Header())
	}
	names := tarNames(t, w.Body)
	for _, want := range []string{"tenant.json", "access.yaml", "audit.jsonl", "sequences.jsonl"} {
		if !slices.Contains(names, want) {
			t.Errorf("the export's archive has no %s: %v", want, names)
		}
	}
	call("GET", "/operator/v1/tenants/nobody/export", "", 404)

	// Deletion: confirmed by the id, never the default tenant.
	for _, target := range []string{"/operator/v1/tenants/initech", "/operator/v1/tenants/initech?confirm=globex"} {
		if d := detail(call("DELETE", target, "", 400)); !strings.Contains(d, "confirm with its ID (initech)") {
			t.Errorf("DELETE %s: %q", target, d)
		}
	}
	if d := detail(call("DELETE", "/operator/v1/tenants/acme?confirm=acme", "", 403)); !strings.Contains(d, "default tenant") {
		t.Errorf("deleting the default tenant: %q", d)
	}
	// What a tenant left behind: refused for one served from this
	// database (none is placed elsewhere here), and a clear word on a bad
	// flag.
	if d := detail(call("DELETE", "/operator/v1/tenants/initech?confirm=initech&leftBehind=true", "", 409)); !strings.Contains(d, "served from the main database") {
		t.Errorf("a left-behind delete of a tenant served here: %q", d)
	}
	call("DELETE", "/operator/v1/tenants/initech?confirm=initech&leftBehind=yes", "", 400)
	deleted := call("DELETE", "/operator/v1/tenants/initech?confirm=initech", "", 200)["data"].(map[string]any)
	if rows := deleted["deleted"].(map[string]any); rows["tenant_hosts"] != float64(1) {
		t.Errorf("delete: %v", deleted)
	}
	call("GET", "/operator/v1/tenants/initech", "", 404)
	call("DELETE", "/operator/v1/tenants/initech?confirm=initech", "", 404)
}

// tarNames lists the entries of a tar.gz stream.
func tarNames(t *testing.T, r io.Reader) []string {
	t.Helper()
	gz, err := gzip.NewReader(r)
	if err != nil {
		t.Fatal(err)
	}
	tr := tar.NewReader(gz)
	var names []string
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return names
		}
		if err != nil {
			t.Fatal(err)
		}
		names = append(names, h.Name)
	}
}
