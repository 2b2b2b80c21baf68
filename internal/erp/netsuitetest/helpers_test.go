package netsuitetest_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"testing"
	"time"

	"github.com/portico/portico/internal/demo"
	"github.com/portico/portico/internal/erp/netsuite"
	"github.com/portico/portico/internal/erp/netsuitetest"
)

const account = "123456_SB1"

// start is the fixtures' "now": the fake's clock starts here.
var start = time.Date(2026, 11, 22, 7, 0, 0, 0, time.UTC)

// fixture is a fake account behind an httptest server, with a client
// that signs every request with TBA.
type fixture struct {
	t     testing.TB
	fake  *netsuitetest.Server
	srv   *httptest.Server
	clock *netsuitetest.Clock
	tba   netsuite.TBA
}

func newFixture(t testing.TB, cfg netsuitetest.Config) *fixture {
	t.Helper()
	c := netsuitetest.NewClock(start)
	cfg.Now = c.Now
	cfg.TBA = &netsuitetest.TBAVerifier{
		Realm: netsuite.Realm(account),
		Lookup: func(ck, tid string) (string, string, bool) {
			return "consumer-secret", "token-secret", ck == "consumer-key" && tid == "token-id"
		},
	}
	fake, err := netsuitetest.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(fake)
	t.Cleanup(srv.Close)
	return &fixture{t: t, fake: fake, srv: srv, clock: c, tba: netsuite.TBA{
		Account: account, ConsumerKey: "consumer-key", ConsumerSecret: "consumer-secret",
		TokenID: "token-id", TokenSecret: "token-secret", Now: c.Now,
	}}
}

// seed fills the fake with a small demo data set.
func (f *fixture) seed(perKind int) {
	f.t.Helper()
	if _, err := demo.Generate(context.Background(), f.fake, demo.Options{PerKind: perKind, Seed: 7, Now: start}); err != nil {
		f.t.Fatal(err)
	}
}

// do sends a signed request; body is JSON-encoded unless it is nil.
func (f *fixture) do(method, path string, body any, header map[string]string) (*http.Response, []byte, error) {
	f.t.Helper()
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			f.t.Fatal(err)
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, f.srv.URL+path, rd)
	if err != nil {
		f.t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	for k, v := range header {
		req.Header.Set(k, v)
	}
	if err := f.tba.Authorize(context.Background(), req); err != nil {
		f.t.Fatal(err)
	}
	resp, err := f.srv.Client().Do(req)
	if err != nil {
		return nil, nil, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return resp, b, err
}

// mustDo is do for requests that must get an answer.
func (f *fixture) mustDo(method, path string, body any, header map[string]string) (*http.Response, []byte) {
	f.t.Helper()
	resp, b, err := f.do(method, path, body, header)
	if err != nil {
		f.t.Fatalf("%s %s: %v", method, path, err)
	}
	return resp, b
}

// page is a SuiteQL answer.
type page struct {
	Links []struct {
		Rel  string `json:"rel"`
		Href string `json:"href"`
	} `json:"links"`
	Count        int                 `json:"count"`
	HasMore      bool                `json:"hasMore"`
	Offset       int                 `json:"offset"`
	TotalResults int                 `json:"totalResults"`
	Items        []map[string]any    `json:"items"`
	Rows         []map[string]string `json:"-"`
}

// query runs one SuiteQL page and returns the status, the decoded page
// (Rows: the items without their links, every value required to be a
// string) and the raw body.
func (f *fixture) query(q string, limit, offset int) (int, page, []byte) {
	f.t.Helper()
	path := netsuitetest.SuiteQLPath + "?limit=" + strconv.Itoa(limit) + "&offset=" + strconv.Itoa(offset)
	resp, b := f.mustDo("POST", path, map[string]string{"q": q}, map[string]string{"Prefer": "transient"})
	var p page
	if resp.StatusCode != http.StatusOK {
		return resp.StatusCode, p, b
	}
	if err := json.Unmarshal(b, &p); err != nil {
		f.t.Fatalf("query answer: %v\n%s", err, b)
	}
	for _, it := range p.Items {
		row := map[string]string{}
		for k, v := range it {
			if k == "links" {
				continue
			}
			s, ok := v.(string)
			if !ok {
				f.t.Fatalf("column %s is %T %v, want a string", k, v, v)
			}
			row[k] = s
		}
		p.Rows = append(p.Rows, row)
	}
	return resp.StatusCode, p, b
}

// mustQuery is query for queries that must succeed.
func (f *fixture) mustQuery(q string, limit, offset int) page {
	f.t.Helper()
	status, p, b := f.query(q, limit, offset)
	if status != http.StatusOK {
		f.t.Fatalf("query %q: %d %s", q, status, b)
	}
	return p
}

// envelope is NetSuite's error answer.
type envelope struct {
	Type    string `json:"type"`
	Title   string `json:"title"`
	Status  int    `json:"status"`
	Details []struct {
		Detail string `json:"detail"`
		Code   string `json:"o:errorCode"`
		Path   string `json:"o:errorPath"`
	} `json:"o:errorDetails"`
}

// wantError checks an error answer's status, envelope and code.
func wantError(t testing.TB, resp *http.Response, body []byte, status int, code string) envelope {
	t.Helper()
	if resp.StatusCode != status {
		t.Fatalf("status %d, want %d: %s", resp.StatusCode, status, body)
	}
	if ct := resp.Header.Get("Content-Type"); ct != "application/vnd.oracle.resource+json; type=error" &&
		ct != "application/vnd.oracle.resource+json; type=error; charset=UTF-8" {
		t.Errorf("Content-Type %q, want the error media type", ct)
	}
	var e envelope
	if err := json.Unmarshal(body, &e); err != nil || len(e.Details) != 1 {
		t.Fatalf("not an error envelope: %s", body)
	}
	if e.Status != status || e.Title != http.StatusText(status) || e.Type == "" {
		t.Errorf("envelope %+v does not match status %d", e, status)
	}
	if e.Details[0].Code != code || e.Details[0].Detail == "" {
		t.Errorf("error %+v, want code %s with a detail", e.Details[0], code)
	}
	return e
}

// wantIdempotencyError checks the answer to a request repeating an
// applied idempotency key: NetSuite's documented 400 "Conflict" envelope
// with IDEMPOTENCY_ERROR, and a Location header.
func wantIdempotencyError(t testing.TB, resp *http.Response, body []byte, location string) {
	t.Helper()
	if resp.StatusCode != http.StatusBadRequest {
		t.Fatalf("status %d, want 400: %s", resp.StatusCode, body)
	}
	if ct := resp.Header.Get("Content-Type"); ct != "application/vnd.oracle.resource+json; type=error" {
		t.Errorf("Content-Type %q, want the error media type", ct)
	}
	if got := resp.Header.Get("Location"); got != location || location == "" {
		t.Errorf("Location %q, want %q", got, location)
	}
	var e envelope
	if err := json.Unmarshal(body, &e); err != nil || len(e.Details) != 1 {
		t.Fatalf("not an error envelope: %s", body)
	}
	want := envelope{
		Type: "https://www.w3.org/Protocols/rfc2616/rfc2616-sec10.html#sec10.4.10", Title: "Conflict", Status: 400,
		Details: e.Details,
	}
	if e.Type != want.Type || e.Title != want.Title || e.Status != want.Status {
		t.Errorf("envelope %+v, want type %s title %s status %d", e, want.Type, want.Title, want.Status)
	}
	d := e.Details[0]
	if d.Code != "IDEMPOTENCY_ERROR" || d.Path != "" ||
		d.Detail != `A request with the same idempotency key is already submitted. See the "Location" header for a link to the previously submitted job` {
		t.Errorf("error %+v", d)
	}
}

// ts formats a time as a SuiteQL TO_TIMESTAMP literal.
func ts(t time.Time) string {
	return "TO_TIMESTAMP('" + t.UTC().Format(time.DateTime) + "', 'YYYY-MM-DD HH24:MI:SS')"
}

// pathOf returns the path and query of an absolute URL.
func pathOf(t testing.TB, raw string) string {
	t.Helper()
	u, err := url.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	return u.RequestURI()
}
