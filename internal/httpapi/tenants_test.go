package httpapi

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/fstest"
	"time"

	"github.com/portico/portico/internal/portal"
	"github.com/portico/portico/internal/records"
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

// gatedLists is a tenant's store whose list queries first say they
// started (entered) and wait for release, then take spend.
type gatedLists struct {
	TenantStore
	entered, release chan struct{}
	spend            time.Duration
}

func (g gatedLists) ListRecords(ctx context.Context, q records.ListQuery) (records.Page, error) {
	if g.entered != nil {
		g.entered <- struct{}{}
		<-g.release
	}
	time.Sleep(g.spend)
	return g.TenantStore.ListRecords(ctx, q)
}

// One company's flood holds up its own requests, not another's: while
// acme's one request slot is taken, acme's next waits and is refused
// (429, Retry-After) and globex's answers at once; once acme has spent
// its database time, it is rate limited (429) and globex is not.
func TestTenantBudgets(t *testing.T) {
	dir := &directory{tenants: []tenancy.Tenant{
		{ID: "acme", Name: "Acme", Hosts: []string{"acme.example.com"}},
		{ID: "globex", Name: "Globex", Hosts: []string{"portal.globex.example"}, IdentityTenant: "globex"},
	}}
	gate := gatedLists{entered: make(chan struct{}), release: make(chan struct{})}
	var gated atomic.Bool
	e := authEnvFrom(t, 1000, authTemplate, func(o *Options) {
		o.Directory, o.DefaultHosts = dir, []string{"127.0.0.1"}
		o.Client.TenantID = "acme"
		o.Budget = tenancy.Budget{Concurrent: 1, DBTime: 300 * time.Millisecond, Wait: 100 * time.Millisecond}
		plain := o.Tenants
		o.Tenants = func(id portal.TenantID) TenantStore {
			if id == "acme" && gated.Load() {
				g := gate
				g.TenantStore = plain(id)
				return g
			}
			return plain(id)
		}
	})
	at := func(host string) http.Header { return http.Header{"Host": {host}} }
	login := func(host, tenant, uid, email string) string {
		w := e.callWith("GET", "/api/v1/auth/login?idToken="+url.QueryEscape(idToken(tenant, uid, email)), "", 0, "", at(host))
		var a loginAnswer
		if w.Code != 200 || json.Unmarshal(w.Body.Bytes(), &a) != nil {
			t.Fatalf("sign-in at %s: %d %s", host, w.Code, w.Body)
		}
		return a.Data.Token
	}
	ada, gus := login("acme.example.com", "acme", "uid-ada", "ada@acme.test"), login("portal.globex.example", "globex", "uid-gus", "gus@globex.test")
	list := func(token, host string) *httptest.ResponseRecorder { // (gus's role sees no kind: globex asks for kinds)
		return e.callWith("GET", "/api/v1/netsuite/portal-list?type=project&limit=5", token, 10, "", at(host))
	}

	gated.Store(true)
	first := make(chan int)
	go func() { first <- list(ada, "acme.example.com").Code }()
	<-gate.entered
	start := time.Now()
	if w := e.callWith("GET", "/api/v1/kinds", ada, 10, "", at("acme.example.com")); w.Code != 429 || w.Header().Get("Retry-After") == "" || time.Since(start) < 100*time.Millisecond {
		t.Errorf("acme's second request while its slot is taken: %d after %s, Retry-After %q", w.Code, time.Since(start), w.Header().Get("Retry-After"))
	}
	start = time.Now()
	if w := e.callWith("GET", "/api/v1/kinds", gus, 10, "", at("portal.globex.example")); w.Code != 200 || time.Since(start) > 90*time.Millisecond {
		t.Errorf("globex meanwhile: %d after %s", w.Code, time.Since(start))
	}
	close(gate.release)
	if code := <-first; code != 200 {
		t.Errorf("acme's first request: %d", code)
	}

	// Database time: a list that spends 1.5 s (the burst is 600 ms)
	// leaves acme in debt for seconds.
	gate.entered, gate.spend = nil, 1500*time.Millisecond
	if w := list(ada, "acme.example.com"); w.Code != 200 {
		t.Fatalf("acme's slow list: %d", w.Code)
	}
	gated.Store(false)
	if w := e.callWith("GET", "/api/v1/kinds", ada, 10, "", at("acme.example.com")); w.Code != 429 || w.Header().Get("Retry-After") == "" {
		t.Errorf("acme in debt: %d %s", w.Code, w.Body)
	}
	if w := e.callWith("GET", "/api/v1/kinds", gus, 10, "", at("portal.globex.example")); w.Code != 200 {
		t.Errorf("globex while acme is in debt: %d", w.Code)
	}
}
