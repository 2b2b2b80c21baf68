package httpapi

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/portico/portico/internal/portal"
	"github.com/portico/portico/internal/records"
)

type fakeStore struct{ err error }

func (f fakeStore) Ping(context.Context) error { return f.err }
func (fakeStore) Engine() string               { return "sqlite" }

var testUI = fstest.MapFS{
	"index.html":           {Data: []byte("<!doctype html><html><head>\n<!--portico:head-->\n</head><body></body></html>")},
	"assets/index-abc1.js": {Data: []byte("console.log(1)")},
	"favicon.svg":          {Data: []byte("<svg/>")},
}

func newTestServer(t *testing.T, store Pinger) (*Server, *strings.Builder) {
	t.Helper()
	var logs strings.Builder
	s, err := NewServer(Options{
		Logger: slog.New(slog.NewJSONHandler(&logs, nil)),
		Store:  store,
		UI:     testUI,
		Client: ClientConfig{ProductName: "Portico", Environment: "Test</script><script>", ERP: "netsuite", Product: "portal"},
		ERP:    "netsuite", Product: "portal",
	})
	if err != nil {
		t.Fatal(err)
	}
	return s, &logs
}

func do(h http.Handler, method, target string, hdr ...string) *httptest.ResponseRecorder {
	r := httptest.NewRequest(method, target, nil)
	for i := 0; i+1 < len(hdr); i += 2 {
		r.Header.Set(hdr[i], hdr[i+1])
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w
}

func decodeProblem(t *testing.T, w *httptest.ResponseRecorder) Problem {
	t.Helper()
	if ct := w.Header().Get("Content-Type"); ct != "application/problem+json" {
		t.Fatalf("content type %q, want application/problem+json; body %s", ct, w.Body)
	}
	var p Problem
	if err := json.Unmarshal(w.Body.Bytes(), &p); err != nil {
		t.Fatal(err)
	}
	if p.Status != w.Code || p.Title == "" || p.Type == "" || p.RequestID == "" {
		t.Errorf("incomplete problem %+v for status %d", p, w.Code)
	}
	return p
}

func TestHealth(t *testing.T) {
	s, _ := newTestServer(t, fakeStore{})
	w := do(s, "GET", "/api/v1/health")
	if w.Code != 200 || !strings.Contains(w.Body.String(), `"status":"ok"`) {
		t.Fatalf("health: %d %s", w.Code, w.Body)
	}
	s, logs := newTestServer(t, fakeStore{err: errors.New("dial tcp 10.0.0.5:5432: connection refused")})
	w = do(s, "GET", "/api/v1/health")
	p := decodeProblem(t, w)
	if w.Code != 503 || strings.Contains(w.Body.String(), "10.0.0.5") {
		t.Errorf("down: %d %+v", w.Code, p)
	}
	if !strings.Contains(logs.String(), "connection refused") {
		t.Error("the cause was not logged")
	}
}

func TestAPINeverFallsBackToTheApp(t *testing.T) {
	s, _ := newTestServer(t, fakeStore{})
	w := do(s, "GET", "/api/v1/nope")
	if p := decodeProblem(t, w); w.Code != 404 || !strings.Contains(p.Detail, "/api/v1/nope") {
		t.Errorf("unknown API path: %d %+v", w.Code, p)
	}
	w = do(s, "DELETE", "/api/v1/health")
	decodeProblem(t, w)
	if w.Code != 405 || w.Header().Get("Allow") != "GET" {
		t.Errorf("wrong method: %d, Allow %q", w.Code, w.Header().Get("Allow"))
	}
}

func TestAppRoutesGetIndexWithNonceAndConfig(t *testing.T) {
	s, _ := newTestServer(t, fakeStore{})
	for _, path := range []string{"/", "/project/list", "/project/view/billing?id=42", "/index.html"} {
		w := do(s, "GET", path)
		body := w.Body.String()
		csp := w.Header().Get("Content-Security-Policy")
		if w.Code != 200 || w.Header().Get("Cache-Control") != "no-cache" {
			t.Fatalf("%s: %d cache %q", path, w.Code, w.Header().Get("Cache-Control"))
		}
		var nonce string
		if i := strings.Index(body, `name="csp-nonce" content="`); i >= 0 {
			nonce, _, _ = strings.Cut(body[i+len(`name="csp-nonce" content="`):], `"`)
		}
		if nonce == "" || !strings.Contains(csp, "'nonce-"+nonce+"'") {
			t.Errorf("%s: nonce %q not in CSP %q", path, nonce, csp)
		}
		if !strings.Contains(body, `<script type="application/json" id="portico-config">{"productName":"Portico"`) {
			t.Errorf("%s: no client config in %s", path, body)
		}
		if strings.Contains(body, "</script><script>") {
			t.Errorf("%s: config value broke out of its script element: %s", path, body)
		}
	}
	a, b := do(s, "GET", "/"), do(s, "GET", "/")
	if a.Header().Get("Content-Security-Policy") == b.Header().Get("Content-Security-Policy") {
		t.Error("the nonce is not fresh per request")
	}
}

func TestAssetsCaching(t *testing.T) {
	s, _ := newTestServer(t, fakeStore{})
	w := do(s, "GET", "/assets/index-abc1.js")
	if w.Code != 200 || w.Header().Get("Cache-Control") != "public, max-age=31536000, immutable" {
		t.Errorf("hashed asset: %d %q", w.Code, w.Header().Get("Cache-Control"))
	}
	if w := do(s, "GET", "/assets/index-old9.js"); w.Code != 404 {
		t.Errorf("missing asset: %d, want 404 (not the index page)", w.Code)
	}
	if w := do(s, "GET", "/favicon.svg"); w.Code != 200 || w.Header().Get("Cache-Control") != "no-cache" {
		t.Errorf("unhashed file: %d %q", w.Code, w.Header().Get("Cache-Control"))
	}
}

func TestSecurityHeadersOnEveryAnswer(t *testing.T) {
	s, _ := newTestServer(t, fakeStore{})
	for _, path := range []string{"/", "/api/v1/health", "/api/v1/nope", "/assets/index-abc1.js"} {
		h := do(s, "GET", path).Header()
		csp := h.Get("Content-Security-Policy")
		script := ""
		for _, d := range strings.Split(csp, ";") {
			if strings.HasPrefix(strings.TrimSpace(d), "script-src") {
				script = d
			}
		}
		if strings.TrimSpace(script) != "script-src 'self'" || !strings.Contains(csp, "frame-ancestors 'none'") ||
			h.Get("X-Content-Type-Options") != "nosniff" || h.Get("Referrer-Policy") == "" {
			t.Errorf("%s: headers %v", path, h)
		}
	}
}

func TestRequestIDs(t *testing.T) {
	s, logs := newTestServer(t, fakeStore{})
	w := do(s, "GET", "/api/v1/health", "X-Request-Id", "proxy-given-1234")
	if w.Header().Get("X-Request-Id") != "proxy-given-1234" || !strings.Contains(logs.String(), "proxy-given-1234") {
		t.Errorf("request id not kept: %q", w.Header().Get("X-Request-Id"))
	}
	w = do(s, "GET", "/api/v1/health", "X-Request-Id", "bad id\n<script>")
	if id := w.Header().Get("X-Request-Id"); id == "" || strings.ContainsAny(id, " <\n") {
		t.Errorf("unsafe request id echoed: %q", id)
	}
}

func TestAccessLogOmitsQueryStrings(t *testing.T) {
	s, logs := newTestServer(t, fakeStore{})
	do(s, "GET", "/api/v1/health?idToken=secret-token-value")
	if strings.Contains(logs.String(), "secret-token-value") {
		t.Errorf("a query string reached the log: %s", logs)
	}
}

func TestInternalErrorsDoNotLeak(t *testing.T) {
	s, logs := newTestServer(t, fakeStore{})
	s.mux.HandleFunc("GET /api/v1/test-panic", func(http.ResponseWriter, *http.Request) {
		panic("SELECT secret FROM db")
	})
	s.mux.HandleFunc("GET /api/v1/test-error", func(w http.ResponseWriter, r *http.Request) {
		s.writeError(w, r, errors.New("pq: relation secret_table does not exist"))
	})
	s.mux.HandleFunc("GET /api/v1/test-invalid", func(w http.ResponseWriter, r *http.Request) {
		s.writeError(w, r, portal.Invalid("Check the highlighted fields.", portal.FieldError{Field: "name", Message: "Name is required."}))
	})
	for _, path := range []string{"/api/v1/test-panic", "/api/v1/test-error"} {
		w := do(s, "GET", path)
		p := decodeProblem(t, w)
		body, _ := io.ReadAll(w.Body)
		if w.Code != 500 || strings.Contains(p.Detail+string(body), "secret") || !strings.Contains(p.Detail, p.RequestID) {
			t.Errorf("%s: %d %+v", path, w.Code, p)
		}
	}
	if !strings.Contains(logs.String(), "secret_table") {
		t.Error("the internal cause was not logged")
	}
	w := do(s, "GET", "/api/v1/test-invalid")
	if p := decodeProblem(t, w); w.Code != 400 || len(p.Errors) != 1 || p.Errors[0].Field != "name" {
		t.Errorf("field errors: %d %+v", w.Code, p)
	}
}

func TestEveryCodeHasAStatus(t *testing.T) {
	for _, c := range []portal.Code{portal.CodeInvalid, portal.CodeUnprocessable, portal.CodeUnauthenticated, portal.CodeInvalidCredentials,
		portal.CodeForbidden, portal.CodeNotFound, portal.CodeConflict, portal.CodeRateLimited,
		portal.CodeUnavailable, portal.CodeInternal} {
		if statusOf[c] == 0 {
			t.Errorf("code %s has no HTTP status", c)
		}
	}
	if statusOf[portal.CodeUnauthenticated] != 511 {
		t.Error("an expired session must answer 511 (SPEC §8)")
	}
}

func TestUIWithoutMarkerIsRefused(t *testing.T) {
	_, err := NewServer(Options{Logger: slog.Default(), Store: fakeStore{}, UI: fstest.MapFS{"index.html": {Data: []byte("<html>")}}})
	if err == nil {
		t.Error("an index.html without the head marker was accepted")
	}
}

// logLines parses the JSON log lines of one request id.
func logLines(t *testing.T, logs string, id string) []map[string]any {
	t.Helper()
	var out []map[string]any
	for line := range strings.Lines(logs) {
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("log line %q: %v", line, err)
		}
		if m["request_id"] == id {
			out = append(out, m)
		}
	}
	return out
}

// Issue 17, finding 3: every 511 was logged at ERROR, twice, and a client
// that went away mid-request was a 500 "context canceled" at ERROR. Now a
// request logs one line: INFO for 4xx and 511 (with the error code),
// ERROR only for a 5xx (with its cause), INFO with status 499 for a
// request its client abandoned, which is answered with nothing.
func TestLogLevelsMeanSomething(t *testing.T) {
	s, logs := newTestServer(t, fakeStore{})
	s.mux.HandleFunc("GET /api/v1/test-error", func(w http.ResponseWriter, r *http.Request) {
		s.writeError(w, r, errors.New("pq: relation secret_table does not exist"))
	})
	s.mux.HandleFunc("GET /api/v1/test-gone", func(w http.ResponseWriter, r *http.Request) {
		<-r.Context().Done()
		s.writeError(w, r, fmt.Errorf("list records: %w", r.Context().Err()))
	})
	call := func(target string, ctx context.Context) (*httptest.ResponseRecorder, string) {
		r := httptest.NewRequestWithContext(ctx, "GET", target, nil)
		w := httptest.NewRecorder()
		s.ServeHTTP(w, r)
		return w, w.Header().Get("X-Request-Id")
	}
	for _, c := range []struct {
		target, level string
		status        float64
		code          string
	}{
		{"/api/v1/auth/me", "INFO", 511, "unauthenticated"},
		{"/api/v1/nope", "INFO", 404, ""},
		{"/api/v1/test-error", "ERROR", 500, ""},
	} {
		w, id := call(c.target, context.Background())
		lines := logLines(t, logs.String(), id)
		if w.Code != int(c.status) || len(lines) != 1 {
			t.Errorf("%s: %d with %d log lines: %v", c.target, w.Code, len(lines), lines)
			continue
		}
		l := lines[0]
		if l["level"] != c.level || l["status"] != c.status || (c.code != "" && l["code"] != c.code) {
			t.Errorf("%s: logged %v", c.target, l)
		}
		if c.level == "ERROR" && !strings.Contains(fmt.Sprint(l["err"]), "secret_table") {
			t.Errorf("%s: the cause is not in the line: %v", c.target, l)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	w, id := call("/api/v1/test-gone", ctx)
	lines := logLines(t, logs.String(), id)
	if w.Code == 500 || len(lines) != 1 || lines[0]["level"] != "INFO" || lines[0]["status"] != float64(499) {
		t.Errorf("abandoned request: answered %d, logged %v", w.Code, lines)
	}
	if strings.Contains(logs.String(), `"level":"ERROR","msg":"http","request_id":"`+id) || strings.Count(logs.String(), `"level":"ERROR"`) != 1 {
		t.Errorf("ERROR lines other than the one 500:\n%s", logs)
	}
}

// A store call that outlives the database deadline is interrupted and
// answered 503, a problem document, logged once at ERROR; it does not
// wait for the store.
func TestDatabaseDeadlineAnswers503(t *testing.T) {
	e, tok := recordsEnv(t)
	e.srv.tenants = func(t portal.TenantID) TenantStore {
		return boundedStore{slowLists{e.store.Tenant(t)}, 50 * time.Millisecond}
	}
	start := time.Now()
	w := e.call("GET", "/api/v1/netsuite/portal-list?type=project", tok, 10, "")
	took := time.Since(start)
	p := decodeProblem(t, w)
	if w.Code != 503 || !strings.Contains(p.Detail, "did not answer in time") || took > 2*time.Second {
		t.Errorf("slow list: %d %+v after %s", w.Code, p, took)
	}
	if n := strings.Count(e.logs.String(), p.RequestID); n != 1 || !strings.Contains(e.logs.String(), "level=ERROR") {
		t.Errorf("%d log lines for the request:\n%s", n, e.logs)
	}
}

// slowLists is a store whose list query runs until its context ends.
type slowLists struct{ TenantStore }

func (slowLists) ListRecords(ctx context.Context, _ records.ListQuery) (records.Page, error) {
	<-ctx.Done()
	return records.Page{}, fmt.Errorf("list: %w", ctx.Err())
}

// boundedStore must put its deadline on every call a handler can make
// (a method with neither a context nor an error reads memory: Kinds).
func TestBoundedStoreCoversTheStore(t *testing.T) {
	iface := reflect.TypeFor[TenantStore]()
	bt := reflect.TypeFor[boundedStore]()
	for i := range iface.NumMethod() {
		name, ft := iface.Method(i).Name, iface.Method(i).Type
		if ft.NumIn() == 0 && ft.NumOut() == 1 && ft.Out(0) != reflect.TypeFor[error]() {
			continue
		}
		m, ok := bt.MethodByName(name)
		if !ok || m.Index < 0 {
			t.Errorf("boundedStore has no %s", name)
			continue
		}
		// A promoted method has an autogenerated wrapper whose file is
		// "<autogenerated>"; one generated here lives in bounded_gen.go.
		file, _ := runtime.FuncForPC(m.Func.Pointer()).FileLine(m.Func.Pointer())
		if !strings.HasSuffix(file, "bounded_gen.go") {
			t.Errorf("boundedStore.%s is the store's own (%s): it runs without the deadline", name, file)
		}
	}
}

func TestStrictTransportSecurityOnHTTPS(t *testing.T) {
	for url, want := range map[string]bool{"https://portal.example.com": true, "http://127.0.0.1:8080": false, "": false} {
		s, err := NewServer(Options{Logger: slog.New(slog.DiscardHandler), Store: fakeStore{}, ERP: "netsuite", Product: "portal", PublicURL: url})
		if err != nil {
			t.Fatal(err)
		}
		for _, path := range []string{"/api/v1/health", "/api/v1/nope", "/"} {
			got := do(s, "GET", path).Header().Get("Strict-Transport-Security")
			if (got != "") != want || (want && !strings.HasPrefix(got, "max-age=31536000")) {
				t.Errorf("%q %s: Strict-Transport-Security %q", url, path, got)
			}
		}
	}
}

// Issue 17, finding 9 (part): /metrics answered plain-text errors.
func TestMetricsErrorsAreProblemDocuments(t *testing.T) {
	s, _ := newTestServer(t, fakeStore{})
	for _, c := range []struct {
		method string
		status int
	}{{"GET", 404}, {"POST", 405}} {
		w := do(s, c.method, "/metrics")
		if decodeProblem(t, w); w.Code != c.status {
			t.Errorf("%s /metrics without a token configured: %d", c.method, w.Code)
		}
	}
	s, err := NewServer(Options{Logger: slog.New(slog.DiscardHandler), Store: fakeStore{}, ERP: "netsuite", Product: "portal",
		MetricsToken: strings.Repeat("m", 32), WriteMetrics: func(_ context.Context, w io.Writer) error {
			_, err := io.WriteString(w, "portico_up 1\n")
			return err
		}})
	if err != nil {
		t.Fatal(err)
	}
	w := do(s, "GET", "/metrics", "Authorization", "Bearer wrong")
	if decodeProblem(t, w); w.Code != 401 || w.Header().Get("WWW-Authenticate") == "" {
		t.Errorf("wrong token: %d %v", w.Code, w.Header())
	}
	if w := do(s, "GET", "/metrics", "Authorization", "Bearer "+strings.Repeat("m", 32)); w.Code != 200 || !strings.HasSuffix(w.Body.String(), "\nportico_up 1\n") {
		t.Errorf("scrape: %d %s", w.Code, w.Body)
	}
}
