package httpapi

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/portico/portico/internal/access"
	"github.com/portico/portico/internal/identity"
	"github.com/portico/portico/internal/portal"
	"github.com/portico/portico/internal/records"
	"github.com/portico/portico/internal/session"
	"github.com/portico/portico/internal/sqlstore"
)

// authEnv is a server over a real SQLite store with two tenants, verifying
// unsigned emulator-style tokens.
type authEnv struct {
	srv   *Server
	store *sqlstore.Store
	logs  *strings.Builder
	skew  time.Duration // added to the session manager's clock
	// syncs are the tenants' ERP syncs; a tenant without one is standalone.
	syncs map[portal.TenantID]Syncer
}

var acmeAccess = access.File{
	Layouts: []access.Layout{
		{ID: "pm", Name: "PM", Items: []access.MenuItem{{Text: "Projects", Href: "/project/list"}}},
		{ID: "acc", Name: "Accounting", Items: []access.MenuItem{{Text: "Invoices", Href: "/invoice/list"}}},
		{ID: "secret", Name: "Nobody's", Items: []access.MenuItem{{Text: "Hidden", Href: "/"}}},
	},
	Roles: []access.Role{
		{Key: "pm", ID: 10, Name: "Project Manager", Type: "staff", Layout: "pm", Permissions: allPermissions()},
		{Key: "acc", ID: 11, Name: "Accountant", Type: "finance", Layout: "acc", Permissions: []string{"invoice.view"}},
		{Key: "lead", ID: 12, Name: "Field Lead", Type: "staff"},
		{Key: "spy", ID: 13, Name: "Spy", Type: "staff", Layout: "secret"},
		{Key: "viewer", ID: 14, Name: "Viewer", Type: "staff", Layout: "pm", Permissions: allViews()},
	},
	Users: []access.FileUser{
		{ID: 1, Email: "ada@acme.test", FullName: "Ada Admin", Roles: []int64{10, 11}},
		{ID: 2, Email: "lou@acme.test", FullName: "Lou Layout", Roles: []int64{12}},
		{ID: 3, Email: "nora@acme.test", FullName: "Nora Noroles", Roles: []int64{}},
		{ID: 4, Email: "dis@acme.test", FullName: "Dis Abled", Roles: []int64{10}, Disabled: true},
		{ID: 5, Email: "vic@acme.test", FullName: "Vic Viewer", Roles: []int64{14}},
	},
}

// allViews grants the view permission of every record kind.
func allViews() []string {
	var out []string
	for _, k := range records.All() {
		out = append(out, k.Route+".view")
	}
	return out
}

// allPermissions adds create and edit of every kind that has them.
func allPermissions() []string {
	out := append(allViews(), "reports.view", "feedback.create", "feedback.admin", "audit.view", "sync.view", "sync.admin", records.PermEditLists, access.PermAdmin)
	for _, k := range records.All() {
		if k.CanCreate {
			out = append(out, k.Route+".create")
		}
		if k.CanEdit {
			out = append(out, k.Route+".edit")
		}
	}
	return out
}

// authTemplate is the store of newAuthEnv: tenants acme (acmeAccess) and globex (Gus).
var authTemplate = &storeTemplate{build: buildAuthStore}

func buildAuthStore(ctx context.Context, store *sqlstore.Store) error {
	for _, tenant := range []portal.TenantID{"acme", "globex"} {
		if err := store.EnsureTenant(ctx, tenant, string(tenant)); err != nil {
			return err
		}
	}
	if err := store.Tenant("acme").ImportAccess(ctx, acmeAccess); err != nil {
		return err
	}
	globex := access.File{Roles: []access.Role{{Key: "g", ID: 10, Name: "Globex PM", Type: "staff"}},
		Users: []access.FileUser{{ID: 1, Email: "gus@globex.test", FullName: "Gus", Roles: []int64{10}}}}
	return store.Tenant("globex").ImportAccess(ctx, globex)
}

func newAuthEnv(t *testing.T, perMinute int) *authEnv {
	t.Helper()
	return authEnvFrom(t, perMinute, authTemplate)
}

// authEnvFrom is newAuthEnv on a copy of the store built by tmpl; with
// changes to the server's options.
func authEnvFrom(t *testing.T, perMinute int, tmpl *storeTemplate, with ...func(*Options)) *authEnv {
	t.Helper()
	ctx := context.Background()
	store, err := sqlstore.Open(ctx, "", tmpl.copy(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	var logs strings.Builder
	log := slog.New(slog.NewTextHandler(&logs, nil))
	verifier, err := identity.NewVerifier(ctx, identity.Config{ProjectID: "demo-test", EmulatorHost: "127.0.0.1:1"}, log)
	if err != nil {
		t.Fatal(err)
	}
	e := &authEnv{store: store, logs: &logs}
	sessions := session.NewManager(func(t portal.TenantID) session.Store { return store.Tenant(t) }, session.Options{
		Key: []byte(strings.Repeat("k", 32)), AccessTTL: 15 * time.Minute, RefreshTTL: time.Hour, MaxAge: 24 * time.Hour,
		Now: func() time.Time { return time.Now().Add(e.skew) },
	})
	o := Options{
		Logger: log, Store: store, Identity: verifier, Sessions: sessions,
		Tenants:          func(t portal.TenantID) TenantStore { return store.Tenant(t) },
		LoginPerMinuteIP: perMinute, LoginPerMinuteAccount: perMinute, ERP: "netsuite", Product: "portal",
		ERPBaseURL: "https://1234567.app.netsuite.com",
		Syncs:      func(t portal.TenantID) Syncer { return e.syncs[t] },
		Currency:   "USD",
	}
	for _, change := range with {
		change(&o)
	}
	srv, err := NewServer(o)
	if err != nil {
		t.Fatal(err)
	}
	e.srv = srv
	return e
}

// idToken makes an unsigned identity token as the Auth Emulator would.
func idToken(tenant, uid, email string) string {
	now := time.Now()
	tok, _ := jwt.NewWithClaims(jwt.SigningMethodNone, jwt.MapClaims{
		"iss": "https://securetoken.google.com/demo-test", "aud": "demo-test", "sub": uid,
		"iat": now.Unix(), "exp": now.Add(time.Hour).Unix(), "auth_time": now.Unix(),
		"email": email, "email_verified": true,
		"firebase": map[string]any{"tenant": tenant, "sign_in_provider": "password"},
	}).SignedString(jwt.UnsafeAllowNoneSignatureType)
	return tok
}

type loginAnswer struct {
	Data struct {
		Token, RefreshToken string
		User                access.User
		CurrentRole         access.Role
	}
}

func (e *authEnv) call(method, target, token string, role int64, body string) *httptest.ResponseRecorder {
	return e.callWith(method, target, token, role, body, nil)
}

// callWith is call with more request headers.
func (e *authEnv) callWith(method, target, token string, role int64, body string, header http.Header) *httptest.ResponseRecorder {
	r := httptest.NewRequest(method, target, strings.NewReader(body))
	for k, vs := range header {
		r.Header[k] = vs
	}
	r.RemoteAddr = "192.0.2.7:5000"
	if host := header.Get("Host"); host != "" {
		r.Host = host
	}
	if token != "" {
		r.Header.Set("Authorization", "Bearer "+token)
	}
	if role != 0 {
		r.Header.Set("X-Role-Id", fmt.Sprint(role))
	}
	w := httptest.NewRecorder()
	e.srv.ServeHTTP(w, r)
	return w
}

func (e *authEnv) login(t *testing.T, tenant, uid, email string) (loginAnswer, *httptest.ResponseRecorder) {
	t.Helper()
	w := e.call("GET", "/api/v1/auth/login?idToken="+url.QueryEscape(idToken(tenant, uid, email)), "", 0, "")
	var a loginAnswer
	if w.Code == 200 {
		if err := json.Unmarshal(w.Body.Bytes(), &a); err != nil {
			t.Fatal(err)
		}
	}
	return a, w
}

func TestLogin(t *testing.T) {
	e := newAuthEnv(t, 1000)
	a, w := e.login(t, "acme", "uid-ada", "ADA@acme.test")
	if w.Code != 200 || a.Data.Token == "" || a.Data.RefreshToken == "" || a.Data.User.FullName != "Ada Admin" ||
		len(a.Data.User.Roles) != 2 || a.Data.CurrentRole.ID != 10 || a.Data.User.Roles[1].Permissions[0] != "invoice.view" {
		t.Fatalf("login: %d %s", w.Code, w.Body)
	}
	if strings.Contains(w.Body.String(), "uid-ada") {
		t.Error("the identity uid leaked into the answer")
	}
	// The remembered last role is honoured when held, ignored when not.
	w = e.call("GET", "/api/v1/auth/login?roleId=11&idToken="+url.QueryEscape(idToken("acme", "uid-ada", "ada@acme.test")), "", 0, "")
	if !strings.Contains(w.Body.String(), `"currentRole":{"_id":"acc"`) {
		t.Errorf("login with a held roleId: %s", w.Body)
	}
	w = e.call("GET", "/api/v1/auth/login?roleId=13&idToken="+url.QueryEscape(idToken("acme", "uid-ada", "ada@acme.test")), "", 0, "")
	if !strings.Contains(w.Body.String(), `"currentRole":{"_id":"pm"`) {
		t.Errorf("login with a roleId not held: %s", w.Body)
	}
	// Now linked by uid: a later token with another email still finds Ada.
	if _, w := e.login(t, "acme", "uid-ada", "ada.new@acme.test"); w.Code != 200 {
		t.Errorf("login by uid: %d %s", w.Code, w.Body)
	}
	// The same email from another identity does not take Ada over.
	if _, w := e.login(t, "acme", "uid-impostor", "ada@acme.test"); w.Code != 403 {
		t.Errorf("second identity with Ada's email: %d", w.Code)
	}
	for name, c := range map[string]struct {
		tenant, email string
		status        int
		detail        string
	}{
		"no roles":       {"acme", "nora@acme.test", 403, "no roles"},
		"no account":     {"acme", "stranger@acme.test", 403, "do not have a Portico account"},
		"disabled":       {"acme", "dis@acme.test", 403, "disabled"},
		"other tenant":   {"globex", "ada@acme.test", 403, "do not have a Portico account"},
		"unknown tenant": {"initech", "ada@acme.test", 403, "do not have a Portico account"},
	} {
		_, w := e.login(t, c.tenant, "uid-"+name, c.email)
		if w.Code != c.status || !strings.Contains(w.Body.String(), c.detail) {
			t.Errorf("%s: %d %s", name, w.Code, w.Body)
		}
	}
	for name, target := range map[string]string{
		"missing token": "/api/v1/auth/login",
		"garbage":       "/api/v1/auth/login?idToken=abc.def.ghi",
	} {
		w := e.call("GET", target, "", 0, "")
		if w.Code != 400 && w.Code != 401 {
			t.Errorf("%s: %d", name, w.Code)
		}
	}
	if w := e.call("GET", "/api/v1/auth/login?idToken=abc.def.ghi", "", 0, ""); w.Code != 401 {
		t.Errorf("bad identity token: %d, want 401", w.Code)
	}
	events, _ := e.store.Tenant("acme").AuditEvents(context.Background(), access.AuditFilter{Limit: 50})
	var kinds []string
	for _, ev := range events {
		kinds = append(kinds, ev.Event)
	}
	if got := strings.Join(kinds, ","); !strings.Contains(got, "login_failed") || !strings.Contains(got, "login") {
		t.Errorf("audit log: %s", got)
	}
	if events, _ := e.store.Tenant("globex").AuditEvents(context.Background(), access.AuditFilter{Limit: 50}); len(events) != 1 || events[0].Event != "login_failed" {
		t.Errorf("globex audit: %+v", events)
	}
}

// TestEveryPrivateRouteIsGuarded walks every route registered with
// s.handle: no token, a forged or revoked token → 511; a role not held → 403.
func TestEveryPrivateRouteIsGuarded(t *testing.T) {
	e := newAuthEnv(t, 1000)
	a, _ := e.login(t, "acme", "uid-ada", "ada@acme.test")
	revoked, _ := e.login(t, "acme", "uid-ada", "ada@acme.test")
	if w := e.call("POST", "/api/v1/auth/logout", revoked.Data.Token, 0, ""); w.Code != 204 {
		t.Fatalf("logout: %d", w.Code)
	}
	forged := a.Data.Token[:len(a.Data.Token)-4] + "AAAA"
	if len(e.srv.private) < 4 {
		t.Fatalf("only %d private routes registered", len(e.srv.private))
	}
	for _, pattern := range e.srv.private {
		method, path, _ := strings.Cut(pattern, " ")
		path = strings.NewReplacer("{layoutId}", "pm", "{id}", "1").Replace(path)
		for name, c := range map[string]struct {
			token  string
			role   int64
			status int
		}{
			"no token":               {"", 10, 511},
			"forged token":           {forged, 10, 511},
			"revoked":                {revoked.Data.Token, 10, 511},
			"no role":                {a.Data.Token, 0, 403},
			"role not held":          {a.Data.Token, 12, 403},
			"other tenant's role id": {a.Data.Token, 99, 403},
		} {
			w := e.call(method, path, c.token, c.role, "{}")
			if w.Code != c.status {
				t.Errorf("%s %s, %s: %d, want %d", method, path, name, w.Code, c.status)
			}
			if w.Header().Get("Content-Type") != "application/problem+json" {
				t.Errorf("%s %s, %s: not a problem document", method, path, name)
			}
		}
		if w := e.call(method, path, a.Data.Token, 10, `{"roleId": 11}`); w.Code == 511 || w.Code == 403 {
			t.Errorf("%s %s with a good token and role: %d %s", method, path, w.Code, w.Body)
		}
	}
}

func TestRefreshRotationAndReuse(t *testing.T) {
	e := newAuthEnv(t, 1000)
	a, _ := e.login(t, "acme", "uid-ada", "ada@acme.test")
	w := e.call("POST", "/api/v1/auth/refresh", "", 0, `{"refreshToken":"`+a.Data.RefreshToken+`"}`)
	var next loginAnswer
	json.Unmarshal(w.Body.Bytes(), &next)
	if w.Code != 200 || next.Data.Token == "" || next.Data.RefreshToken == a.Data.RefreshToken {
		t.Fatalf("refresh: %d %s", w.Code, w.Body)
	}
	if w := e.call("GET", "/api/v1/auth/me", next.Data.Token, 10, ""); w.Code != 200 {
		t.Fatalf("new token: %d", w.Code)
	}
	// A retry within the grace period (a lost answer) gets the same
	// successor, not a second chain.
	w = e.call("POST", "/api/v1/auth/refresh", "", 0, `{"refreshToken":"`+a.Data.RefreshToken+`"}`)
	var retry loginAnswer
	json.Unmarshal(w.Body.Bytes(), &retry)
	if w.Code != 200 || retry.Data.RefreshToken != next.Data.RefreshToken {
		t.Fatalf("retry within grace: %d %s", w.Code, w.Body)
	}
	// Reusing the first refresh token later revokes the family: both
	// access tokens and the newer refresh token die.
	e.skew = session.ReuseGrace + time.Second
	if w := e.call("POST", "/api/v1/auth/refresh", "", 0, `{"refreshToken":"`+a.Data.RefreshToken+`"}`); w.Code != 511 {
		t.Fatalf("reuse: %d", w.Code)
	}
	for _, tok := range []string{a.Data.Token, next.Data.Token} {
		if w := e.call("GET", "/api/v1/auth/me", tok, 10, ""); w.Code != 511 {
			t.Errorf("access token after reuse: %d", w.Code)
		}
	}
	if w := e.call("POST", "/api/v1/auth/refresh", "", 0, `{"refreshToken":"`+next.Data.RefreshToken+`"}`); w.Code != 511 {
		t.Errorf("sibling refresh after reuse: %d", w.Code)
	}
	for _, body := range []string{`{"refreshToken":"nonsense"}`, `{"refreshToken":"pr1.acme.` + strings.Repeat("x", 43) + `"}`, `not json`, `{"x":1}`} {
		if w := e.call("POST", "/api/v1/auth/refresh", "", 0, body); w.Code != 511 && w.Code != 400 {
			t.Errorf("refresh %s: %d", body, w.Code)
		}
	}
}

func TestLogoutWithExpiredAccessTokenUsesRefreshToken(t *testing.T) {
	e := newAuthEnv(t, 1000)
	a, _ := e.login(t, "acme", "uid-ada", "ada@acme.test")
	if w := e.call("POST", "/api/v1/auth/logout", "garbage", 0, `{"refreshToken":"`+a.Data.RefreshToken+`"}`); w.Code != 204 {
		t.Fatalf("logout: %d", w.Code)
	}
	if w := e.call("GET", "/api/v1/auth/me", a.Data.Token, 10, ""); w.Code != 511 {
		t.Errorf("after logout: %d", w.Code)
	}
	if w := e.call("POST", "/api/v1/auth/logout", "", 0, ""); w.Code != 204 {
		t.Errorf("logout without a session: %d", w.Code)
	}
}

func TestLayoutsAndRoleSwitch(t *testing.T) {
	e := newAuthEnv(t, 1000)
	a, _ := e.login(t, "acme", "uid-ada", "ada@acme.test")
	w := e.call("GET", "/api/v1/layout/configurations/acc", a.Data.Token, 10, "")
	if w.Code != 200 || !strings.Contains(w.Body.String(), `"items":[{"text":"Invoices","iconCss":"","href":"/invoice/list","items":null,"separator":false}]`) {
		t.Errorf("layout: %d %s", w.Code, w.Body)
	}
	if w := e.call("GET", "/api/v1/layout/configurations/secret", a.Data.Token, 10, ""); w.Code != 403 {
		t.Errorf("a layout of a role not held: %d", w.Code)
	}
	w = e.call("POST", "/api/v1/auth/role", a.Data.Token, 10, `{"roleId": 11}`)
	if w.Code != 200 || !strings.Contains(w.Body.String(), `"name":"Accountant"`) {
		t.Errorf("switch: %d %s", w.Code, w.Body)
	}
	if w := e.call("POST", "/api/v1/auth/role", a.Data.Token, 10, `{"roleId": 13}`); w.Code != 403 {
		t.Errorf("switch to a role not held: %d", w.Code)
	}
	events, _ := e.store.Tenant("acme").AuditEvents(context.Background(), access.AuditFilter{Limit: 1})
	if len(events) != 1 || events[0].Event != "role_switch" || fmt.Sprint(events[0].Detail["to"]) != "11" {
		t.Errorf("audit: %+v", events)
	}
	// Lou's role has no layout: the app reports it; the server refuses any.
	lou, _ := e.login(t, "acme", "uid-lou", "lou@acme.test")
	if lou.Data.CurrentRole.Layout != "" {
		t.Errorf("Lou's role has layout %q", lou.Data.CurrentRole.Layout)
	}
}

func TestMissingLayoutConfiguration(t *testing.T) {
	e := newAuthEnv(t, 1000)
	ctx := context.Background()
	f := acmeAccess
	f.Roles = append([]access.Role{}, acmeAccess.Roles...)
	f.Roles[0].Layout = "deleted-layout"
	e.store.Tenant("acme").ImportAccess(ctx, f)
	a, _ := e.login(t, "acme", "uid-ada", "ada@acme.test")
	w := e.call("GET", "/api/v1/layout/configurations/deleted-layout", a.Data.Token, 10, "")
	if w.Code != 404 || !strings.Contains(w.Body.String(), "Missing layout configuration.") {
		t.Errorf("missing layout: %d %s", w.Code, w.Body)
	}
}

func TestLoginRateLimit(t *testing.T) {
	e := newAuthEnv(t, 4) // burst of 2
	var last *httptest.ResponseRecorder
	for range 3 {
		_, last = e.login(t, "acme", "uid-ada", "ada@acme.test")
	}
	if last.Code != 429 || last.Header().Get("Retry-After") == "" {
		t.Fatalf("third attempt: %d, Retry-After %q", last.Code, last.Header().Get("Retry-After"))
	}
	body, _ := io.ReadAll(last.Body)
	if !strings.Contains(string(body), "Too many attempts") {
		t.Errorf("429 body: %s", body)
	}
}

func TestLimiterPerAccount(t *testing.T) {
	l := newLimiter(2) // burst 1
	now := time.Now()
	if ok, _ := l.allow("a", now); !ok {
		t.Fatal("first event refused")
	}
	if ok, wait := l.allow("a", now); ok || wait <= 0 || wait > 31*time.Second {
		t.Errorf("second event: ok=%v wait=%v", ok, wait)
	}
	if ok, _ := l.allow("b", now); !ok {
		t.Error("another key was limited")
	}
	if ok, _ := l.allow("a", now.Add(31*time.Second)); !ok {
		t.Error("the bucket did not refill")
	}
}

// Finding 5 of issue 17: twenty refreshes of one token at once get one
// successor between them, not twenty independent sessions.
func TestConcurrentRefreshesShareOneSuccessor(t *testing.T) {
	e := newAuthEnv(t, 1000)
	a, _ := e.login(t, "acme", "uid-ada", "ada@acme.test")
	const n = 20
	answers := make([]*httptest.ResponseRecorder, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			answers[i] = e.call("POST", "/api/v1/auth/refresh", "", 0, `{"refreshToken":"`+a.Data.RefreshToken+`"}`)
		}()
	}
	wg.Wait()
	successors := map[string]bool{}
	for i, w := range answers {
		var next loginAnswer
		if w.Code != 200 || json.Unmarshal(w.Body.Bytes(), &next) != nil {
			t.Fatalf("refresh %d: %d %s", i, w.Code, w.Body)
		}
		successors[next.Data.RefreshToken] = true
	}
	if len(successors) != 1 {
		t.Fatalf("%d concurrent refreshes gave %d distinct refresh tokens", n, len(successors))
	}
}

// Finding 2 of issue 17: a reuse is audited with the client's address and
// user agent.
func TestRefreshReuseIsAudited(t *testing.T) {
	e := newAuthEnv(t, 1000)
	a, _ := e.login(t, "acme", "uid-ada", "ada@acme.test")
	if w := e.call("POST", "/api/v1/auth/refresh", "", 0, `{"refreshToken":"`+a.Data.RefreshToken+`"}`); w.Code != 200 {
		t.Fatalf("refresh: %d", w.Code)
	}
	e.skew = session.ReuseGrace + time.Second
	r := httptest.NewRequest("POST", "/api/v1/auth/refresh", strings.NewReader(`{"refreshToken":"`+a.Data.RefreshToken+`"}`))
	r.RemoteAddr = "198.51.100.9:4444"
	r.Header.Set("User-Agent", "thief/1.0")
	w := httptest.NewRecorder()
	e.srv.ServeHTTP(w, r)
	if w.Code != 511 {
		t.Fatalf("reuse: %d", w.Code)
	}
	log, err := e.store.Tenant("acme").AuditEvents(context.Background(), access.AuditFilter{Event: "refresh_reuse"})
	if err != nil || len(log) != 1 {
		t.Fatalf("audit = %+v, err %v", log, err)
	}
	if ev := log[0]; ev.UserID != 1 || ev.IP != "198.51.100.9" || ev.Detail["userAgent"] != "thief/1.0" {
		t.Errorf("audit event = %+v", ev)
	}
}

// Finding 6 of issue 17: disabling a user ends their sessions at once, and
// enabling them again does not bring the sessions back.
func TestDisablingAUserEndsTheirSessions(t *testing.T) {
	e := newAuthEnv(t, 1000)
	a, _ := e.login(t, "acme", "uid-ada", "ada@acme.test")
	if w := e.call("GET", "/api/v1/auth/me", a.Data.Token, 10, ""); w.Code != 200 {
		t.Fatalf("me: %d", w.Code)
	}
	disabled := acmeAccess
	disabled.Users = append([]access.FileUser(nil), acmeAccess.Users...)
	disabled.Users[0].Disabled = true
	ctx := context.Background()
	for _, f := range []access.File{disabled, acmeAccess} {
		if err := e.store.Tenant("acme").ImportAccess(ctx, f); err != nil {
			t.Fatal(err)
		}
		if w := e.call("POST", "/api/v1/auth/refresh", "", 0, `{"refreshToken":"`+a.Data.RefreshToken+`"}`); w.Code != 511 {
			t.Errorf("refresh (disabled %v): %d", f.Users[0].Disabled, w.Code)
		}
		if w := e.call("GET", "/api/v1/auth/me", a.Data.Token, 10, ""); w.Code != 511 {
			t.Errorf("access token (disabled %v): %d", f.Users[0].Disabled, w.Code)
		}
	}
	// A new sign-in works once enabled.
	if _, w := e.login(t, "acme", "uid-ada", "ada@acme.test"); w.Code != 200 {
		t.Errorf("sign-in after re-enabling: %d", w.Code)
	}
}
