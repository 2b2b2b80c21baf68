package httpapi

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/portico/portico/internal/access"
	"github.com/portico/portico/internal/records"
)

// adminEnv is recordsEnv: Ada's role 10 administers access (allPermissions).
func adminEnv(t *testing.T) (*authEnv, string) { return recordsEnv(t) }

type setupAnswer struct {
	Data struct {
		File    access.File
		Version string
		Summary string
	}
}

func (e *authEnv) setup(t *testing.T, tok string) setupAnswer {
	t.Helper()
	var s setupAnswer
	if code := e.getJSON(t, tok, 10, "/api/v1/admin/access", &s); code != 200 || s.Data.Version == "" || len(s.Data.File.Users) != 5 {
		t.Fatalf("setup: %d %+v", code, s)
	}
	return s
}

func (e *authEnv) put(t *testing.T, tok string, f access.File, version string) *httptest.ResponseRecorder {
	t.Helper()
	body, _ := json.Marshal(f)
	h := http.Header{}
	if version != "" {
		h.Set("If-Match", `"`+version+`"`)
	}
	return e.callWith("PUT", "/api/v1/admin/access", tok, 10, string(body), h)
}

func TestAdminAccessReplacesWithIfMatchAndAudits(t *testing.T) {
	e, tok := adminEnv(t)
	vic, _ := e.login(t, "acme", "uid-vic", "vic@acme.test")
	for _, c := range []struct{ method, path string }{{"GET", "/api/v1/admin/access"}, {"PUT", "/api/v1/admin/access"},
		{"GET", "/api/v1/admin/access/preview?role=10&user=1"}} {
		if w := e.call(c.method, c.path, vic.Data.Token, 14, ""); w.Code != 403 {
			t.Errorf("%s %s without access.admin: %d", c.method, c.path, w.Code)
		}
	}
	lou, _ := e.login(t, "acme", "uid-lou", "lou@acme.test")
	if w := e.call("GET", "/api/v1/auth/me", lou.Data.Token, 11, ""); w.Code != 403 {
		t.Fatalf("Lou in a role he does not hold: %d", w.Code)
	}

	s := e.setup(t, tok)
	if w := e.call("GET", "/api/v1/admin/access", tok, 10, ""); w.Header().Get("ETag") != `"`+s.Data.Version+`"` {
		t.Errorf("ETag %q, version %q", w.Header().Get("ETag"), s.Data.Version)
	}
	// Grant Lou the Accountant role.
	f := s.Data.File
	f.Users[1].Roles = []int64{12, 11}
	if w := e.put(t, tok, f, ""); w.Code != 400 {
		t.Errorf("without If-Match: %d %s", w.Code, w.Body)
	}
	w := e.put(t, tok, f, s.Data.Version)
	var saved setupAnswer
	json.Unmarshal(w.Body.Bytes(), &saved)
	if w.Code != 200 || saved.Data.Version == s.Data.Version || saved.Data.Summary != "granted: lou@acme.test: Accountant" {
		t.Fatalf("grant: %d %s", w.Code, w.Body)
	}
	// Lou's next request sees it (the test server caches no session).
	if w := e.call("GET", "/api/v1/auth/me", lou.Data.Token, 11, ""); w.Code != 200 {
		t.Errorf("Lou after the grant: %d %s", w.Code, w.Body)
	}
	// The same version again: 412, nothing changed.
	f.Users[1].Roles = []int64{12}
	if w := e.put(t, tok, f, s.Data.Version); w.Code != 412 || !strings.Contains(w.Body.String(), "Someone else changed") {
		t.Errorf("stale: %d %s", w.Code, w.Body)
	}
	// Audited: who, and what changed.
	var events struct{ Data []access.AuditEvent }
	e.getJSON(t, tok, 10, "/api/v1/audit?event=access_import", &events)
	if len(events.Data) != 1 || events.Data[0].User != "Ada Admin" || events.Data[0].Detail["summary"] != "granted: lou@acme.test: Accountant" {
		t.Errorf("audit: %+v", events.Data)
	}

	// Every problem named, at its place: a bad email, a rule that does not parse.
	s = e.setup(t, tok)
	f = e.setup(t, tok).Data.File
	f.Users[2].Email = "nora"
	f.Roles[1].Rules = map[string]string{"invoice.view": "nosuchfield eq 1"}
	w = e.put(t, tok, f, s.Data.Version)
	p := decodeProblem(t, w)
	fields := map[string]string{}
	for _, fe := range p.Errors {
		fields[fe.Field] = fe.Message
	}
	if w.Code != 422 || fields["users[2]"] == "" || fields["roles[1].rules.invoice.view"] == "" {
		t.Errorf("problems: %d %+v", w.Code, p)
	}
	// No lock-out: Ada cannot disable herself, the last administrator.
	f = e.setup(t, tok).Data.File
	f.Users[0].Disabled = true
	if w := e.put(t, tok, f, s.Data.Version); w.Code != 422 || !strings.Contains(w.Body.String(), "Keep at least one administrator") {
		t.Errorf("lock-out: %d %s", w.Code, w.Body)
	}

	// Disabling Lou ends his session at once.
	f = e.setup(t, tok).Data.File
	f.Users[1].Disabled = true
	if w := e.put(t, tok, f, s.Data.Version); w.Code != 200 || !strings.Contains(w.Body.String(), "users disabled: lou@acme.test") {
		t.Fatalf("disable: %d %s", w.Code, w.Body)
	}
	if w := e.call("GET", "/api/v1/auth/me", lou.Data.Token, 12, ""); w.Code != 511 {
		t.Errorf("Lou after being disabled: %d", w.Code)
	}
}

func TestAdminAccessPreview(t *testing.T) {
	e, tok := adminEnv(t)
	var counts struct{ Data []records.KindCount }
	if code := e.getJSON(t, tok, 10, "/api/v1/admin/access/preview?role=11&user=2", &counts); code != 200 ||
		len(counts.Data) != 1 || counts.Data[0].Kind != "invoice" || counts.Data[0].Count != 30 || counts.Data[0].Estimated {
		t.Fatalf("preview: %d %+v", code, counts.Data)
	}
	// An unsaved role: Lou has no employee record, so a rule on $me shows him none.
	body := `{"role":{"_id":"acc","id":11,"name":"Accountant","type":"finance","permissions":["invoice.view","vendor.view"],
		"rules":{"invoice.view":"job.projectmanager eq $me"}}}`
	w := e.call("POST", "/api/v1/admin/access/preview?user=2", tok, 10, body)
	json.Unmarshal(w.Body.Bytes(), &counts)
	byKind := map[string]records.KindCount{}
	for _, c := range counts.Data {
		byKind[c.Kind] = c
	}
	if w.Code != 200 || len(counts.Data) != 2 || byKind["invoice"].Count != 0 || byKind["invoice"].Rule == "" || byKind["vendor"].Count != 30 {
		t.Errorf("preview of an edited role: %d %s", w.Code, w.Body)
	}
	w = e.call("POST", "/api/v1/admin/access/preview?user=2", tok, 10, strings.Replace(body, "job.projectmanager", "nosuch", 1))
	if w.Code != 400 || !strings.Contains(w.Body.String(), "nosuch") {
		t.Errorf("a bad rule: %d %s", w.Code, w.Body)
	}
	if w := e.call("GET", "/api/v1/admin/access/preview?role=11", tok, 10, ""); w.Code != 400 {
		t.Errorf("no user: %d", w.Code)
	}
}

// A change made on another instance (here: straight in the database) is
// in force on an instance that caches sessions within its cache's TTL
// (1 s in production): a grant, then disabling the user.
func TestAccessChangeReachesACachingInstanceWithinASecond(t *testing.T) {
	e, _ := adminEnv(t)
	e.srv.sessionCache = newSessionCache(time.Second)
	lou, _ := e.login(t, "acme", "uid-lou", "lou@acme.test")
	if w := e.call("GET", "/api/v1/auth/me", lou.Data.Token, 12, ""); w.Code != 200 { // cached from here
		t.Fatalf("Lou: %d", w.Code)
	}
	change := func(edit func(*access.File)) time.Time {
		ts := e.store.Tenant("acme")
		f, err := ts.ExportAccess(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		v := access.Version(f)
		edit(&f)
		if _, _, err := ts.ReplaceAccess(t.Context(), f, v); err != nil {
			t.Fatal(err)
		}
		return time.Now()
	}
	within := func(what string, since time.Time, role int64, want int) {
		t.Helper()
		for {
			w := e.call("GET", "/api/v1/auth/me", lou.Data.Token, role, "")
			if w.Code == want {
				t.Logf("%s: in force after %v", what, time.Since(since).Round(time.Millisecond))
				return
			}
			if time.Since(since) > 1200*time.Millisecond {
				t.Fatalf("%s: still %d after %v", what, w.Code, time.Since(since))
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	at := change(func(f *access.File) { f.Users[1].Roles = []int64{12, 11} })
	within("a grant", at, 11, 200)
	at = change(func(f *access.File) { f.Users[1].Disabled = true })
	within("disabling", at, 12, 511)
}

// On the instance that took the change, it is in force at once, cache or not.
func TestAccessChangeIsAtOnceOnItsOwnInstance(t *testing.T) {
	e, tok := adminEnv(t)
	e.srv.sessionCache = newSessionCache(time.Hour)
	lou, _ := e.login(t, "acme", "uid-lou", "lou@acme.test")
	if w := e.call("GET", "/api/v1/auth/me", lou.Data.Token, 11, ""); w.Code != 403 { // cached from here
		t.Fatalf("Lou: %d", w.Code)
	}
	s := e.setup(t, tok)
	f := s.Data.File
	f.Users[1].Roles = []int64{12, 11}
	if w := e.put(t, tok, f, s.Data.Version); w.Code != 200 {
		t.Fatalf("grant: %d %s", w.Code, w.Body)
	}
	if w := e.call("GET", "/api/v1/auth/me", lou.Data.Token, 11, ""); w.Code != 200 {
		t.Errorf("Lou right after the grant: %d", w.Code)
	}
}
