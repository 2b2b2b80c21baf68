package netsuite

import (
	"context"
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/portico/portico/internal/erp"
)

// Oracle's published TBA example, from NetSuite's help topic "The Signature
// for Web Services and RESTlets":
// https://docs.oracle.com/en/cloud/saas/netsuite/ns-online-help/section_1534941088.html
// (inputs) and "The Authorization Headers":
// https://docs.oracle.com/en/cloud/saas/netsuite/ns-online-help/section_1534941295.html
// (realm 123456, nonce and timestamp in its header examples).
const (
	exRealm          = "123456"
	exConsumerKey    = "ef40afdd8abaac111b13825dd5e5e2ddddb44f86d5a0dd6dcf38c20aae6b67e4"
	exConsumerSecret = "d26ad321a4b2f23b0741c8d38392ce01c3e23e109df6c96eac6d099e9ab9e8b5"
	exTokenID        = "2b0ce516420110bcbd36b69e99196d1b7f6de3c6234c5afb799b73d87569f5cc"
	exTokenSecret    = "c29a677df7d5439a458c063654187e3d678d73aca8e3c9d8bea1478a3eb0d295"
	exNonce          = "fjaLirsIcCGVZWzBX0pg"
	exTimestamp      = 1508242306
	exRESTletURL     = "https://123456.restlets.api.netsuite.com/app/site/hosting/restlet.nl?script=6&deploy=1&customParam=someValue&testParam=someOtherValue"
	exRESTURL        = "https://123456.suitetalk.api.netsuite.com/services/rest/record/v1/employee/40"
)

func exParams() map[string]string {
	return map[string]string{
		"oauth_consumer_key":     exConsumerKey,
		"oauth_token":            exTokenID,
		"oauth_nonce":            exNonce,
		"oauth_timestamp":        "1508242306",
		"oauth_signature_method": "HMAC-SHA256",
		"oauth_version":          "1.0",
	}
}

func TestSignTBAPublishedRESTletExample(t *testing.T) {
	// The RESTlet example: POST with script, deploy and two custom query
	// parameters, which join the oauth_* ones in sorted order.
	wantBase := "POST&https%3A%2F%2F123456.restlets.api.netsuite.com%2Fapp%2Fsite%2Fhosting%2Frestlet.nl&" +
		"customParam%3DsomeValue%26deploy%3D1" +
		"%26oauth_consumer_key%3Def40afdd8abaac111b13825dd5e5e2ddddb44f86d5a0dd6dcf38c20aae6b67e4" +
		"%26oauth_nonce%3DfjaLirsIcCGVZWzBX0pg%26oauth_signature_method%3DHMAC-SHA256" +
		"%26oauth_timestamp%3D1508242306" +
		"%26oauth_token%3D2b0ce516420110bcbd36b69e99196d1b7f6de3c6234c5afb799b73d87569f5cc" +
		"%26oauth_version%3D1.0%26script%3D6%26testParam%3DsomeOtherValue"
	base, err := tbaBaseString("POST", exRESTletURL, exParams())
	if err != nil || base != wantBase {
		t.Fatalf("base string:\n got %s (%v)\nwant %s", base, err, wantBase)
	}
	sig, err := SignTBA("POST", exRESTletURL, exParams(), exConsumerSecret, exTokenSecret)
	if want := "+KK4SKNgz4ZiILGLwOMtfYlgcXSy1eis8ldE9X90azQ="; err != nil || sig != want {
		t.Fatalf("signature = %q, %v; want %q", sig, err, want)
	}
}

func TestSignTBAPublishedRESTWebServicesExample(t *testing.T) {
	// The same credentials on the REST web services URL the page gives,
	// with GET: no query, so only the oauth_* parameters are signed.
	wantBase := "GET&https%3A%2F%2F123456.suitetalk.api.netsuite.com%2Fservices%2Frest%2Frecord%2Fv1%2Femployee%2F40&" +
		"oauth_consumer_key%3Def40afdd8abaac111b13825dd5e5e2ddddb44f86d5a0dd6dcf38c20aae6b67e4" +
		"%26oauth_nonce%3DfjaLirsIcCGVZWzBX0pg%26oauth_signature_method%3DHMAC-SHA256" +
		"%26oauth_timestamp%3D1508242306" +
		"%26oauth_token%3D2b0ce516420110bcbd36b69e99196d1b7f6de3c6234c5afb799b73d87569f5cc" +
		"%26oauth_version%3D1.0"
	base, err := tbaBaseString("GET", exRESTURL, exParams())
	if err != nil || base != wantBase {
		t.Fatalf("base string:\n got %s (%v)\nwant %s", base, err, wantBase)
	}
	sig, err := SignTBA("GET", exRESTURL, exParams(), exConsumerSecret, exTokenSecret)
	if want := "B5OIWznZ2YP0OB7VrJrGkYsTh+8H+5T9Hag+o92q0zY="; err != nil || sig != want {
		t.Fatalf("signature = %q, %v; want %q", sig, err, want)
	}
}

func TestTBAAuthorizeHeader(t *testing.T) {
	a := TBA{
		Account: exRealm, ConsumerKey: exConsumerKey, ConsumerSecret: exConsumerSecret,
		TokenID: exTokenID, TokenSecret: exTokenSecret,
		Now:   func() time.Time { return time.Unix(exTimestamp, 0) },
		Nonce: func() string { return exNonce },
	}
	req, _ := http.NewRequest(http.MethodPost, exRESTletURL, nil)
	if err := a.Authorize(context.Background(), req); err != nil {
		t.Fatal(err)
	}
	want := `OAuth realm="123456",oauth_consumer_key="` + exConsumerKey + `",oauth_token="` + exTokenID +
		`",oauth_signature_method="HMAC-SHA256",oauth_timestamp="1508242306",oauth_nonce="fjaLirsIcCGVZWzBX0pg"` +
		`,oauth_version="1.0",oauth_signature="%2BKK4SKNgz4ZiILGLwOMtfYlgcXSy1eis8ldE9X90azQ%3D"`
	if got := req.Header.Get("Authorization"); got != want {
		t.Fatalf("Authorization:\n got %s\nwant %s", got, want)
	}
}

func TestTBAAuthorizeSandboxRealmAndDefaults(t *testing.T) {
	a := TBA{Account: "1234567-sb1", ConsumerKey: "ck", ConsumerSecret: "cs", TokenID: "tk", TokenSecret: "ts"}
	nonces := map[string]bool{}
	for range 3 {
		req, _ := http.NewRequest(http.MethodGet, "https://1234567-sb1.suitetalk.api.netsuite.com/services/rest/record/v1/customer", nil)
		if err := a.Authorize(context.Background(), req); err != nil {
			t.Fatal(err)
		}
		h := req.Header.Get("Authorization")
		if !strings.HasPrefix(h, `OAuth realm="1234567_SB1",`) {
			t.Fatalf("realm not derived from the account id: %s", h)
		}
		_, rest, _ := strings.Cut(h, `oauth_nonce="`)
		nonce, _, _ := strings.Cut(rest, `"`)
		if len(nonce) < 20 || strings.Trim(nonce, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789") != "" {
			t.Fatalf("nonce %q: want 20+ letters and digits", nonce)
		}
		nonces[nonce] = true
	}
	if len(nonces) != 3 {
		t.Fatalf("nonces repeat: %v", nonces)
	}
}

func TestTBAAuthorizeRefusesMissingCredentials(t *testing.T) {
	a := TBA{Account: "1", ConsumerKey: "ck", ConsumerSecret: "super-secret", TokenID: "tk"}
	req, _ := http.NewRequest(http.MethodGet, "https://1.suitetalk.api.netsuite.com/", nil)
	err := a.Authorize(context.Background(), req)
	if err == nil || !strings.Contains(err.Error(), "TokenSecret is empty") || strings.Contains(err.Error(), "super-secret") {
		t.Fatalf("err = %v", err)
	}
	if req.Header.Get("Authorization") != "" {
		t.Fatal("header set despite the error")
	}
}

func TestTBABaseStringNormalization(t *testing.T) {
	for _, c := range []struct{ method, url, want string }{
		// Host and scheme lower-cased, default port dropped, method upper-cased.
		{"get", "HTTPS://A.Example.COM:443/P", "GET&https%3A%2F%2Fa.example.com%2FP&"},
		{"GET", "http://127.0.0.1:8080", "GET&http%3A%2F%2F127.0.0.1%3A8080%2F&"},
		// Query values decoded then re-encoded per RFC 3986: "+" is a
		// space, "~" stays, "*" and "!" are escaped; repeated names sort by value.
		{"GET", "https://h/p?q=a+b&q=A~*!&limit=5", "GET&https%3A%2F%2Fh%2Fp&limit%3D5%26q%3DA~%252A%2521%26q%3Da%2520b"},
		// A path's escapes are kept as sent.
		{"GET", "https://h/a%20b", "GET&https%3A%2F%2Fh%2Fa%2520b&"},
	} {
		got, err := tbaBaseString(c.method, c.url, nil)
		if err != nil || got != c.want {
			t.Errorf("tbaBaseString(%q, %q) = %q, %v; want %q", c.method, c.url, got, err, c.want)
		}
	}
	// realm and oauth_signature never join the base string.
	with, _ := tbaBaseString("GET", "https://h/", map[string]string{"oauth_nonce": "n", "realm": "R", "oauth_signature": "S"})
	without, _ := tbaBaseString("GET", "https://h/", map[string]string{"oauth_nonce": "n"})
	if with != without {
		t.Errorf("realm/oauth_signature signed: %q", with)
	}
	for _, bad := range []string{"/relative", "https://h/p?a=%zz", "://"} {
		if _, err := SignTBA("GET", bad, nil, "c", "t"); err == nil {
			t.Errorf("SignTBA(%q) succeeded", bad)
		}
	}
}

func TestTBAEncode(t *testing.T) {
	if got, want := tbaEncode("Aa0-._~ !*'()/+=&%é"), "Aa0-._~%20%21%2A%27%28%29%2F%2B%3D%26%25%C3%A9"; got != want {
		t.Fatalf("tbaEncode = %q, want %q", got, want)
	}
}

func TestRealm(t *testing.T) {
	for in, want := range map[string]string{"123456": "123456", "123456-sb1": "123456_SB1", "123456_SB1": "123456_SB1", "tstdrv9": "TSTDRV9"} {
		if got := Realm(in); got != want {
			t.Errorf("Realm(%q) = %q, want %q", in, got, want)
		}
	}
}

// tokenServer is a stand-in for NetSuite's token endpoint that checks each
// assertion with pub and answers with answer (which may block).
type tokenServer struct {
	t       *testing.T
	pub     crypto.PublicKey
	alg     string
	fetches atomic.Int32
	answer  func(w http.ResponseWriter, n int32)
	clk     *clock
	srv     *httptest.Server
	lastJWT atomic.Value // the last assertion posted
}

func newTokenServer(t *testing.T, pub crypto.PublicKey, alg string, clk *clock, answer func(w http.ResponseWriter, n int32)) *tokenServer {
	ts := &tokenServer{t: t, pub: pub, alg: alg, clk: clk, answer: answer}
	ts.srv = httptest.NewServer(http.HandlerFunc(ts.serve))
	t.Cleanup(ts.srv.Close)
	return ts
}

func (ts *tokenServer) url() string { return ts.srv.URL + "/services/rest/auth/oauth2/v1/token" }

func (ts *tokenServer) serve(w http.ResponseWriter, r *http.Request) {
	n := ts.fetches.Add(1)
	if err := r.ParseForm(); err != nil || r.Method != http.MethodPost ||
		r.PostForm.Get("grant_type") != "client_credentials" ||
		r.PostForm.Get("client_assertion_type") != "urn:ietf:params:oauth:client-assertion-type:jwt-bearer" {
		ts.t.Errorf("bad token request: %s %v", r.Method, r.PostForm)
		w.WriteHeader(http.StatusBadRequest)
		return
	}
	assertion := r.PostForm.Get("client_assertion")
	ts.lastJWT.Store(assertion)
	tok, err := jwt.Parse(assertion, func(*jwt.Token) (any, error) { return ts.pub, nil },
		jwt.WithValidMethods([]string{ts.alg}), jwt.WithAudience(ts.url()), jwt.WithIssuer("client-1"),
		jwt.WithExpirationRequired(), jwt.WithIssuedAt(), jwt.WithTimeFunc(ts.clk.now))
	if err != nil {
		ts.t.Errorf("assertion does not verify: %v", err)
		w.WriteHeader(http.StatusBadRequest)
		return
	}
	checkAssertion(ts.t, tok, ts.alg, ts.url())
	ts.answer(w, n)
}

func checkAssertion(t *testing.T, tok *jwt.Token, alg, aud string) {
	t.Helper()
	if tok.Header["alg"] != alg || tok.Header["typ"] != "JWT" || tok.Header["kid"] != "cert-1" {
		t.Errorf("header = %v", tok.Header)
	}
	c := tok.Claims.(jwt.MapClaims)
	iat, _ := c["iat"].(float64)
	exp, _ := c["exp"].(float64)
	jti, _ := c["jti"].(string)
	// NetSuite: scope is one comma-separated string, and exp must be
	// less than 60 minutes after iat.
	if c["iss"] != "client-1" || c["aud"] != aud || exp-iat != 3300 || len(jti) < 16 ||
		c["scope"] != "restlets,rest_webservices" {
		t.Errorf("claims = %v", c)
	}
}

var fixedNow = time.Unix(1_750_000_000, 0)

// clock is a settable Now safe to read from the fetch goroutine.
type clock struct{ unix atomic.Int64 }

func newClock() *clock           { c := &clock{}; c.unix.Store(fixedNow.Unix()); return c }
func (c *clock) now() time.Time  { return time.Unix(c.unix.Load(), 0) }
func (c *clock) advance(s int64) { c.unix.Add(s) }
func answerToken(w http.ResponseWriter, n int32, expiresIn string) {
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write([]byte(`{"access_token":"tok-` + string(rune('0'+n)) + `","expires_in":` + expiresIn + `,"token_type":"Bearer"}`))
}

func rsaKey(t *testing.T) *rsa.PrivateKey {
	t.Helper()
	k, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

func ecKey(t *testing.T, curve elliptic.Curve) *ecdsa.PrivateKey {
	t.Helper()
	k, err := ecdsa.GenerateKey(curve, rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

func bearer(t *testing.T, m *M2M) string {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, "https://x/services/rest/record/v1/customer/1", nil)
	if err := m.Authorize(context.Background(), req); err != nil {
		t.Fatal(err)
	}
	return req.Header.Get("Authorization")
}

func TestM2MPS256AssertionAndCaching(t *testing.T) {
	key := rsaKey(t)
	clk := newClock()
	ts := newTokenServer(t, &key.PublicKey, "PS256", clk, func(w http.ResponseWriter, n int32) {
		answerToken(w, n, `"3600"`) // expires_in as a string
	})
	m := &M2M{TokenURL: ts.url(), ClientID: "client-1", CertID: "cert-1", Key: key, Now: clk.now}

	for range 20 {
		if got := bearer(t, m); got != "Bearer tok-1" {
			t.Fatalf("Authorization = %q", got)
		}
	}
	clk.advance(3600 - 60 - 1) // one second before the refresh margin
	if got := bearer(t, m); got != "Bearer tok-1" || ts.fetches.Load() != 1 {
		t.Fatalf("Authorization = %q after %d fetches, want the cached token", got, ts.fetches.Load())
	}
	clk.advance(1) // now within a minute of expiry: a new token
	if got := bearer(t, m); got != "Bearer tok-2" || ts.fetches.Load() != 2 {
		t.Fatalf("Authorization = %q after %d fetches, want a refetch", got, ts.fetches.Load())
	}
}

func TestM2MES256Assertion(t *testing.T) {
	key := ecKey(t, elliptic.P256())
	ts := newTokenServer(t, &key.PublicKey, "ES256", newClock(), func(w http.ResponseWriter, n int32) {
		answerToken(w, n, `3600`)
	})
	m := &M2M{TokenURL: ts.url(), ClientID: "client-1", CertID: "cert-1", Key: key, Now: ts.clk.now}
	if got := bearer(t, m); got != "Bearer tok-1" {
		t.Fatalf("Authorization = %q", got)
	}
}

func TestM2MRefusedAnswer(t *testing.T) {
	key := ecKey(t, elliptic.P256())
	for _, c := range []struct {
		status       int
		body         string
		code, detail string
		permanent    bool
	}{
		{400, `{"error":"invalid_grant"}`, "invalid_grant", "no description given; the Login Audit Trail has the reason", true},
		{400, `{"error":"invalid_request","error_description":"bad assertion type"}`, "invalid_request", "bad assertion type", true},
		{401, `{"error":"invalid_client"}`, "invalid_client", "no description given; the Login Audit Trail has the reason", true},
		{401, `{"type":"https://www.w3.org/Protocols/rfc2616/rfc2616-sec10.html#sec10.4.2","title":"Unauthorized","status":401,"o:errorDetails":[{"detail":"Invalid login attempt.","o:errorCode":"INVALID_LOGIN"}]}`, "INVALID_LOGIN", "Invalid login attempt.", true},
		{502, `<html>proxy error</html>`, "", "Bad Gateway", false},
		{429, `{"title":"Too Many Requests"}`, "", "Too Many Requests", false},
		{408, ``, "", "Request Timeout", false},
	} {
		ts := newTokenServer(t, &key.PublicKey, "ES256", newClock(), func(w http.ResponseWriter, _ int32) {
			w.WriteHeader(c.status)
			_, _ = w.Write([]byte(c.body))
		})
		m := &M2M{TokenURL: ts.url(), ClientID: "client-1", CertID: "cert-1", Key: key, Now: ts.clk.now}
		req, _ := http.NewRequest(http.MethodGet, "https://x/", nil)
		err := m.Authorize(context.Background(), req)
		var e *erp.Error
		if !errors.As(err, &e) || e.Status != c.status || e.Code != c.code || e.Detail != c.detail || e.Throttled != (c.status == 429) ||
			e.Permanent != c.permanent || !errors.Is(err, errTokenRefused) {
			t.Errorf("%d %s: err = %#v", c.status, c.body, err)
			continue
		}
		if c.code != "" && !strings.Contains(err.Error(), c.code) {
			t.Errorf("%d %s: the error text lacks NetSuite's code: %v", c.status, c.body, err)
		}
		assertion, _ := ts.lastJWT.Load().(string)
		if assertion == "" || strings.Contains(err.Error(), assertion) || strings.Contains(err.Error(), strings.Split(assertion, ".")[2]) {
			t.Errorf("error quotes the assertion: %v", err)
		}
		if req.Header.Get("Authorization") != "" {
			t.Errorf("header set despite the error")
		}
	}
}

func TestM2MBadAnswers(t *testing.T) {
	key := ecKey(t, elliptic.P256())
	for body, want := range map[string]string{
		`{"expires_in":3600,"token_type":"bearer"}`:                 "no access_token",
		`{"access_token":"t","expires_in":0}`:                       "expires_in",
		`{"access_token":"t","expires_in":"soon"}`:                  "expected JSON",
		`{"access_token":"t","expires_in":3600,"token_type":"mac"}`: "token_type",
		`not json`: "expected JSON",
	} {
		ts := newTokenServer(t, &key.PublicKey, "ES256", newClock(), func(w http.ResponseWriter, _ int32) { _, _ = w.Write([]byte(body)) })
		m := &M2M{TokenURL: ts.url(), ClientID: "client-1", CertID: "cert-1", Key: key, Now: ts.clk.now}
		req, _ := http.NewRequest(http.MethodGet, "https://x/", nil)
		err := m.Authorize(context.Background(), req)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: err = %v, want %q", body, err, want)
		}
		// A token was issued: not a refused login, worth another try.
		var e *erp.Error
		if !errors.As(err, &e) || e.Permanent || errors.Is(err, errTokenRefused) {
			t.Errorf("%s: err = %#v, want a transient *erp.Error", body, err)
		}
	}
}

func TestM2MHugeExpiresInIsCapped(t *testing.T) {
	key := ecKey(t, elliptic.P256())
	clk := newClock()
	ts := newTokenServer(t, &key.PublicKey, "ES256", clk, func(w http.ResponseWriter, n int32) { answerToken(w, n, `99999999999999`) })
	m := &M2M{TokenURL: ts.url(), ClientID: "client-1", CertID: "cert-1", Key: key, Now: clk.now}
	bearer(t, m)
	clk.advance(24 * 3600)
	if got := bearer(t, m); got != "Bearer tok-2" {
		t.Fatalf("a token announced for millennia was still used after a day: %q", got)
	}
}

func TestM2MConcurrentAuthorizeSharesOneFetch(t *testing.T) {
	key := ecKey(t, elliptic.P256())
	release := make(chan struct{})
	ts := newTokenServer(t, &key.PublicKey, "ES256", newClock(), func(w http.ResponseWriter, n int32) {
		<-release
		answerToken(w, n, `3600`)
	})
	m := &M2M{TokenURL: ts.url(), ClientID: "client-1", CertID: "cert-1", Key: key, Now: ts.clk.now}

	// A caller that gives up does not spoil the fetch for the others.
	ctx, cancel := context.WithCancel(context.Background())
	quitter := make(chan error, 1)
	go func() {
		req, _ := http.NewRequest(http.MethodGet, "https://x/", nil)
		quitter <- m.Authorize(ctx, req)
	}()
	for ts.fetches.Load() == 0 {
		time.Sleep(time.Millisecond)
	}
	cancel()
	if err := <-quitter; !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled caller: %v", err)
	}

	var wg sync.WaitGroup
	for range 32 {
		wg.Go(func() {
			req, _ := http.NewRequest(http.MethodGet, "https://x/", nil)
			if err := m.Authorize(context.Background(), req); err != nil || req.Header.Get("Authorization") != "Bearer tok-1" {
				t.Errorf("Authorize: %v, %q", err, req.Header.Get("Authorization"))
			}
		})
	}
	close(release)
	wg.Wait()
	if n := ts.fetches.Load(); n != 1 {
		t.Fatalf("%d token fetches, want 1", n)
	}
}

func TestM2MConfigErrors(t *testing.T) {
	ec := ecKey(t, elliptic.P256())
	for _, c := range []struct {
		m    *M2M
		want string
	}{
		{&M2M{ClientID: "c", CertID: "k", Key: ec}, "TokenURL is empty"},
		{&M2M{TokenURL: "http://127.0.0.1:1/t", CertID: "k", Key: ec}, "ClientID is empty"},
		{&M2M{TokenURL: "http://127.0.0.1:1/t", ClientID: "c", Key: ec}, "CertID is empty"},
		{&M2M{TokenURL: "http://127.0.0.1:1/t", ClientID: "c", CertID: "k"}, "no private key"},
		{&M2M{TokenURL: "http://127.0.0.1:1/t", ClientID: "c", CertID: "k", Key: (*rsa.PrivateKey)(nil)}, "no private key"},
		{&M2M{TokenURL: "http://127.0.0.1:1/t", ClientID: "c", CertID: "k", Key: ecKey(t, elliptic.P384())}, "P-256"},
		{&M2M{TokenURL: "http://127.0.0.1:1/t", ClientID: "c", CertID: "k", Key: ed25519.PrivateKey(make([]byte, ed25519.PrivateKeySize))}, "unsupported key type"},
	} {
		req, _ := http.NewRequest(http.MethodGet, "https://x/", nil)
		if err := c.m.Authorize(context.Background(), req); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("err = %v, want %q", err, c.want)
		}
	}
}

func pemOf(t *testing.T, typ string, der []byte) []byte {
	t.Helper()
	return pem.EncodeToMemory(&pem.Block{Type: typ, Bytes: der})
}

func TestParsePrivateKey(t *testing.T) {
	rk, ek := rsaKey(t), ecKey(t, elliptic.P256())
	pk8 := func(k any) []byte {
		der, err := x509.MarshalPKCS8PrivateKey(k)
		if err != nil {
			t.Fatal(err)
		}
		return der
	}
	sec1, err := x509.MarshalECPrivateKey(ek)
	if err != nil {
		t.Fatal(err)
	}
	for name, c := range map[string]struct {
		pem  []byte
		want crypto.Signer
	}{
		"PKCS8 RSA":  {pemOf(t, "PRIVATE KEY", pk8(rk)), rk},
		"PKCS1 RSA":  {pemOf(t, "RSA PRIVATE KEY", x509.MarshalPKCS1PrivateKey(rk)), rk},
		"PKCS8 EC":   {pemOf(t, "PRIVATE KEY", pk8(ek)), ek},
		"SEC1 EC":    {pemOf(t, "EC PRIVATE KEY", sec1), ek},
		"openssl EC": {append(pemOf(t, "EC PARAMETERS", []byte{6, 8, 42, 134, 72, 206, 61, 3, 1, 7}), pemOf(t, "EC PRIVATE KEY", sec1)...), ek},
		"cert first": {append(pemOf(t, "CERTIFICATE", []byte{1}), pemOf(t, "PRIVATE KEY", pk8(rk))...), rk},
	} {
		got, err := ParsePrivateKey(c.pem)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if eq, ok := got.(interface{ Equal(crypto.PrivateKey) bool }); !ok || !eq.Equal(c.want) {
			t.Errorf("%s: got a different key", name)
		}
	}

	edKey := ed25519.NewKeyFromSeed(make([]byte, ed25519.SeedSize))
	encrypted := pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Headers: map[string]string{"Proc-Type": "4,ENCRYPTED", "DEK-Info": "AES-128-CBC,00"}, Bytes: []byte{1}})
	for name, c := range map[string]struct {
		pem  []byte
		want string
	}{
		"empty":            {nil, "no PRIVATE KEY"},
		"not PEM":          {[]byte("hello"), "no PRIVATE KEY"},
		"cert only":        {pemOf(t, "CERTIFICATE", []byte{1}), "no PRIVATE KEY"},
		"garbage":          {pemOf(t, "PRIVATE KEY", []byte("garbage")), "parsing the PRIVATE KEY PEM block"},
		"PKCS8 in PKCS1":   {pemOf(t, "RSA PRIVATE KEY", pk8(rk)), "parsing the RSA PRIVATE KEY PEM block"},
		"ed25519":          {pemOf(t, "PRIVATE KEY", pk8(edKey)), "unsupported key type"},
		"P-384":            {pemOf(t, "PRIVATE KEY", pk8(ecKey(t, elliptic.P384()))), "P-256"},
		"encrypted PKCS8":  {pemOf(t, "ENCRYPTED PRIVATE KEY", []byte{1}), "encrypted"},
		"encrypted legacy": {encrypted, "encrypted"},
	} {
		if _, err := ParsePrivateKey(c.pem); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err = %v, want %q", name, err, c.want)
		}
	}
}
