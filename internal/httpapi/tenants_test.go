package httpapi

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
	"time"

	"github.com/portico/portico/internal/tenancy"
)

// directory is a fake tenancy.Directory whose tenants a test changes.
type directory struct {
	mu      sync.Mutex
	tenants []tenancy.Tenant
}

func (d *directory) Tenants(context.Context) ([]tenancy.Tenant, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	return append([]tenancy.Tenant(nil), d.tenants...), nil
}

func (d *directory) suspend(id string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	for i := range d.tenants {
		if string(d.tenants[i].ID) == id {
			d.tenants[i].Suspended = true
		}
	}
}

// Two companies on one deployment, each at its own address: the app's
// configuration, sign-in and sessions are the address's tenant's; another
// address names no company.
func TestTenantsByAddress(t *testing.T) {
	dir := &directory{tenants: []tenancy.Tenant{
		{ID: "acme", Name: "Acme", Hosts: []string{"acme.example.com"}},
		{ID: "globex", Name: "Globex", Hosts: []string{"portal.globex.example"}, IdentityTenant: "globex", Environment: "Sandbox"},
	}}
	ui := fstest.MapFS{"index.html": {Data: []byte("<!doctype html><head><!--portico:head--></head><body></body>")}}
	e := authEnvFrom(t, 1000, authTemplate, func(o *Options) {
		o.Directory, o.DefaultHosts, o.UI = dir, []string{"127.0.0.1", "localhost"}, ui
		o.Client.TenantID, o.Client.ProductName = "acme", "Portico"
	})
	at := func(host string) http.Header { return http.Header{"Host": {host}} }
	login := func(host, tenant, uid, email string) (loginAnswer, int, string) {
		w := e.callWith("GET", "/api/v1/auth/login?idToken="+url.QueryEscape(idToken(tenant, uid, email)), "", 0, "", at(host))
		var a loginAnswer
		if w.Code == 200 {
			if err := json.Unmarshal(w.Body.Bytes(), &a); err != nil {
				t.Fatal(err)
			}
		}
		return a, w.Code, w.Body.String()
	}

	// The app's configuration names the address's tenant.
	for host, tenant := range map[string]string{"acme.example.com": "acme", "portal.globex.example:443": "globex", "127.0.0.1:8080": "acme"} {
		w := e.callWith("GET", "/", "", 0, "", at(host))
		name := map[string]string{"acme": "Acme", "globex": "Globex"}[tenant]
		if w.Code != 200 || !strings.Contains(w.Body.String(), `"tenantId":"`+tenant+`"`) || !strings.Contains(w.Body.String(), `"companyName":"`+name+`"`) {
			t.Errorf("%s: %d, want tenant %s and company %s in %s", host, w.Code, tenant, name, w.Body)
		}
		// Each its own badge: globex's, acme the deployment's.
		if strings.Contains(w.Body.String(), `"environment":"Sandbox"`) != (tenant == "globex") {
			t.Errorf("%s: globex's badge, and only its, is Sandbox: %s", host, w.Body)
		}
	}
	// Another address: a plain page and a plain problem, naming no company;
	// health still answers there.
	for _, path := range []string{"/", "/project/list", "/api/v1/kinds"} {
		w := e.callWith("GET", path, "", 0, "", at("unknown.example.org"))
		if body := w.Body.String(); w.Code != 404 || !strings.Contains(body, msgNoPortal) || strings.Contains(strings.ToLower(body), "acme") || strings.Contains(strings.ToLower(body), "globex") {
			t.Errorf("%s at an unknown host: %d %s", path, w.Code, body)
		}
	}
	if w := e.callWith("GET", "/api/v1/health", "", 0, "", at("10.0.0.5:8080")); w.Code != 200 {
		t.Errorf("health at the instance's address: %d", w.Code)
	}

	// Sign-in: a company's account at its address (or the default's
	// loopback for acme), never at the other's.
	ada, code, _ := login("acme.example.com", "acme", "uid-ada", "ada@acme.test")
	if code != 200 {
		t.Fatalf("acme at its address: %d", code)
	}
	if _, code, body := login("portal.globex.example", "acme", "uid-ada", "ada@acme.test"); code != 403 || !strings.Contains(body, "another company") {
		t.Errorf("acme at globex's address: %d %s", code, body)
	}
	gus, code, _ := login("portal.globex.example", "globex", "uid-gus", "gus@globex.test")
	if code != 200 {
		t.Fatalf("globex at its address: %d", code)
	}
	if _, code, _ := login("127.0.0.1:8080", "acme", "uid-ada", "ada@acme.test"); code != 200 {
		t.Errorf("acme at the loopback: %d", code)
	}

	// A session is used at its tenant's address only; a refresh token
	// presented elsewhere is refused before it is rotated.
	if w := e.callWith("GET", "/api/v1/kinds", ada.Data.Token, 10, "", at("acme.example.com")); w.Code != 200 {
		t.Errorf("acme session at acme: %d %s", w.Code, w.Body)
	}
	if w := e.callWith("GET", "/api/v1/kinds", ada.Data.Token, 10, "", at("portal.globex.example")); w.Code != 511 {
		t.Errorf("acme session at globex: %d %s", w.Code, w.Body)
	}
	if w := e.callWith("GET", "/api/v1/kinds", gus.Data.Token, 10, "", at("acme.example.com")); w.Code != 511 {
		t.Errorf("globex session at acme: %d", w.Code)
	}
	refresh := `{"refreshToken":"` + ada.Data.RefreshToken + `"}`
	if w := e.callWith("POST", "/api/v1/auth/refresh", "", 0, refresh, at("portal.globex.example")); w.Code != 511 {
		t.Errorf("acme refresh at globex: %d", w.Code)
	}
	if w := e.callWith("POST", "/api/v1/auth/refresh", "", 0, refresh, at("acme.example.com")); w.Code != 200 {
		t.Errorf("acme refresh at acme after a refusal elsewhere: %d %s", w.Code, w.Body)
	}

	// Suspended: sign-in and sessions stop within the tenants' TTL; the
	// other company carries on.
	dir.suspend("globex")
	time.Sleep(TenantsTTL)
	if _, code, body := login("portal.globex.example", "globex", "uid-gus", "gus@globex.test"); code != 403 || !strings.Contains(body, "suspended") {
		t.Errorf("sign-in while suspended: %d %s", code, body)
	}
	if w := e.callWith("GET", "/api/v1/kinds", gus.Data.Token, 10, "", at("portal.globex.example")); w.Code != 511 || !strings.Contains(w.Body.String(), "suspended") {
		t.Errorf("session while suspended: %d %s", w.Code, w.Body)
	}
	if _, code, _ := login("acme.example.com", "acme", "uid-ada", "ada@acme.test"); code != 200 {
		t.Errorf("acme while globex is suspended: %d", code)
	}
}
