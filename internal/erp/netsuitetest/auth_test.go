package netsuitetest

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/portico/portico/internal/erp/netsuite"
)

var testNow = time.Unix(1_750_000_000, 0)

// tbaFake is a server that runs a TBAVerifier on every request and
// records the outcome.
type tbaFake struct {
	v   *TBAVerifier
	srv *httptest.Server

	mu   sync.Mutex
	errs []error
}

func newTBAFake(t *testing.T) *tbaFake {
	f := &tbaFake{v: &TBAVerifier{
		Realm: "123456_SB1",
		Lookup: func(ck, tk string) (string, string, bool) {
			if ck == "ck" && tk == "tk" {
				return "consumer secret", "token secret", true
			}
			return "", "", false
		},
	}}
	f.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		err := f.v.Verify(r, testNow)
		f.mu.Lock()
		f.errs = append(f.errs, err)
		f.mu.Unlock()
		if err != nil {
			WriteInvalidLogin(w)
		}
	}))
	t.Cleanup(f.srv.Close)
	return f
}

// send signs a request with a and sends it, after tamper (if any) edits
// the signed request; it returns the verifier's verdict.
func (f *tbaFake) send(t *testing.T, a netsuite.TBA, method, pathQuery string, tamper func(*http.Request)) error {
	t.Helper()
	req, err := http.NewRequest(method, f.srv.URL+pathQuery, strings.NewReader(`{"a":1}`))
	if err != nil {
		t.Fatal(err)
	}
	if err := a.Authorize(context.Background(), req); err != nil {
		t.Fatal(err)
	}
	if tamper != nil {
		tamper(req)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	_ = res.Body.Close()
	f.mu.Lock()
	defer f.mu.Unlock()
	verdict := f.errs[len(f.errs)-1]
	if (verdict == nil) != (res.StatusCode == http.StatusOK) {
		t.Fatalf("status %d with verdict %v", res.StatusCode, verdict)
	}
	return verdict
}

func goodTBA() netsuite.TBA {
	return netsuite.TBA{
		Account: "123456-sb1", ConsumerKey: "ck", ConsumerSecret: "consumer secret", TokenID: "tk", TokenSecret: "token secret",
		Now: func() time.Time { return testNow },
	}
}

func TestVerifyTBAAcceptsSignedRequests(t *testing.T) {
	f := newTBAFake(t)
	for _, c := range []struct{ method, pathQuery string }{
		{http.MethodGet, "/services/rest/record/v1/customer/42"},
		{http.MethodPost, "/services/rest/query/v1/suiteql?limit=1000&offset=0"},
		{http.MethodGet, "/app/site/hosting/restlet.nl?script=6&deploy=1&q=a+b%2Fc&q=%7E*"},
		{http.MethodPatch, "/services/rest/record/v1/job/7?replace=a%20b"},
	} {
		if err := f.send(t, goodTBA(), c.method, c.pathQuery, nil); err != nil {
			t.Errorf("%s %s: %v", c.method, c.pathQuery, err)
		}
	}
}

func TestVerifyTBARejects(t *testing.T) {
	const path = "/services/rest/query/v1/suiteql?limit=10"
	for _, c := range []struct {
		name   string
		a      func(*netsuite.TBA)
		tamper func(*http.Request)
		want   string
	}{
		{name: "tampered query", tamper: func(r *http.Request) { r.URL.RawQuery = "limit=1000" }, want: "signature mismatch"},
		{name: "added query", tamper: func(r *http.Request) { r.URL.RawQuery += "&offset=5" }, want: "signature mismatch"},
		{name: "other path", tamper: func(r *http.Request) { r.URL.Path = "/services/rest/record/v1/employee" }, want: "signature mismatch"},
		{name: "other method", tamper: func(r *http.Request) { r.Method = http.MethodPut }, want: "signature mismatch"},
		{name: "wrong token secret", a: func(a *netsuite.TBA) { a.TokenSecret = "guess" }, want: "signature mismatch"},
		{name: "wrong consumer secret", a: func(a *netsuite.TBA) { a.ConsumerSecret = "guess" }, want: "signature mismatch"},
		{name: "unknown token", a: func(a *netsuite.TBA) { a.TokenID = "revoked" }, want: "unknown consumer key or token"},
		{name: "wrong realm", a: func(a *netsuite.TBA) { a.Account = "123456" }, want: "realm"},
		{name: "stale timestamp", a: func(a *netsuite.TBA) { a.Now = func() time.Time { return testNow.Add(-5*time.Minute - time.Second) } }, want: "5 minutes"},
		{name: "future timestamp", a: func(a *netsuite.TBA) { a.Now = func() time.Time { return testNow.Add(5*time.Minute + time.Second) } }, want: "5 minutes"},
		{name: "short nonce", a: func(a *netsuite.TBA) { a.Nonce = func() string { return "abc" } }, want: "nonce_rejected"},
		{name: "no header", tamper: func(r *http.Request) { r.Header.Del("Authorization") }, want: "no OAuth"},
		{name: "bearer header", tamper: func(r *http.Request) { r.Header.Set("Authorization", "Bearer x") }, want: "no OAuth"},
		{name: "SHA1", tamper: func(r *http.Request) { replaceHeader(r, "HMAC-SHA256", "HMAC-SHA1") }, want: "signature method"},
		{name: "version", tamper: func(r *http.Request) { replaceHeader(r, `oauth_version="1.0"`, `oauth_version="2.0"`) }, want: "oauth_version"},
		{name: "no signature", tamper: func(r *http.Request) { cutHeader(r, ",oauth_signature=") }, want: "missing oauth_signature"},
		{name: "unquoted", tamper: func(r *http.Request) { replaceHeader(r, `oauth_version="1.0"`, `oauth_version=1.0`) }, want: "malformed"},
		{name: "repeated", tamper: func(r *http.Request) {
			r.Header.Set("Authorization", r.Header.Get("Authorization")+`,oauth_nonce="again1"`)
		}, want: "repeated"},
		{name: "foreign parameter", tamper: func(r *http.Request) { r.Header.Set("Authorization", r.Header.Get("Authorization")+`,x="1"`) }, want: "unexpected"},
		{name: "bad escape", tamper: func(r *http.Request) { replaceHeader(r, `oauth_version="1.0"`, `oauth_version="%zz"`) }, want: "percent-encoding"},
	} {
		f := newTBAFake(t)
		a := goodTBA()
		if c.a != nil {
			c.a(&a)
		}
		err := f.send(t, a, http.MethodPost, path, c.tamper)
		if !errors.Is(err, ErrInvalidLogin) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err = %v, want INVALID_LOGIN with %q", c.name, err, c.want)
		}
		if err != nil && (strings.Contains(err.Error(), "consumer secret") || strings.Contains(err.Error(), "token secret")) {
			t.Errorf("%s: error quotes a secret: %v", c.name, err)
		}
	}
}

func replaceHeader(r *http.Request, old, new string) {
	r.Header.Set("Authorization", strings.Replace(r.Header.Get("Authorization"), old, new, 1))
}

func cutHeader(r *http.Request, from string) {
	h, _, _ := strings.Cut(r.Header.Get("Authorization"), from)
	r.Header.Set("Authorization", h)
}

func TestVerifyTBARejectsReplayedNonce(t *testing.T) {
	f := newTBAFake(t)
	a := goodTBA()
	a.Nonce = func() string { return "fixedNonce1234567890" }
	if err := f.send(t, a, http.MethodGet, "/services/rest/record/v1/customer/1", nil); err != nil {
		t.Fatal(err)
	}
	err := f.send(t, a, http.MethodGet, "/services/rest/record/v1/customer/1", nil)
	if !errors.Is(err, ErrInvalidLogin) || !strings.Contains(err.Error(), "nonce_used") {
		t.Fatalf("replay: err = %v", err)
	}
	// The same nonce under another token is another user's: allowed.
	f.v.Lookup = func(ck, tk string) (string, string, bool) { return "consumer secret", "token secret", true }
	a.TokenID = "tk2"
	if err := f.send(t, a, http.MethodGet, "/services/rest/record/v1/customer/1", nil); err != nil {
		t.Fatalf("other token, same nonce: %v", err)
	}
	// A request that fails does not spend its nonce.
	a.Nonce = func() string { return "otherNonce1234567890" }
	bad := a
	bad.TokenSecret = "wrong"
	if err := f.send(t, bad, http.MethodGet, "/x", nil); err == nil {
		t.Fatal("bad signature accepted")
	}
	if err := f.send(t, a, http.MethodGet, "/x", nil); err != nil {
		t.Fatalf("nonce spent by a failed request: %v", err)
	}
}

func TestVerifyTBAForgetsOldNonces(t *testing.T) {
	v := &TBAVerifier{}
	if err := v.spendNonce("k", testNow, testNow); err != nil {
		t.Fatal(err)
	}
	later := testNow.Add(tbaClockSkew + time.Second)
	if err := v.spendNonce("other", later, later); err != nil {
		t.Fatal(err)
	}
	if _, kept := v.nonces["k"]; kept || len(v.nonces) != 1 {
		t.Fatalf("nonces = %v, want the old one pruned", v.nonces)
	}
}

func TestWriteInvalidLogin(t *testing.T) {
	rec := httptest.NewRecorder()
	WriteInvalidLogin(rec)
	if rec.Code != http.StatusUnauthorized || rec.Header().Get("Content-Type") != "application/vnd.oracle.resource+json; type=error; charset=UTF-8" {
		t.Fatalf("%d %q", rec.Code, rec.Header().Get("Content-Type"))
	}
	want := `{"type":"https://www.w3.org/Protocols/rfc2616/rfc2616-sec10.html#sec10.4.2","title":"Unauthorized","status":401,"o:errorDetails":[{"detail":"Invalid login attempt. For more details, see the Login Audit Trail in the NetSuite UI at Setup > Users/Roles > User Management > View Login Audit Trail.","o:errorCode":"INVALID_LOGIN"}]}`
	if rec.Body.String() != want {
		t.Fatalf("body = %s", rec.Body.String())
	}
}

const tokenPath = "/services/rest/auth/oauth2/v1/token"

// m2mFake is a token endpoint plus one protected API route.
type m2mFake struct {
	v   *M2MVerifier
	srv *httptest.Server
}

func newM2MFake(t *testing.T, now func() time.Time) *m2mFake {
	f := &m2mFake{v: &M2MVerifier{Now: now}}
	mux := http.NewServeMux()
	mux.HandleFunc("POST "+tokenPath, f.v.ServeToken)
	mux.HandleFunc("/services/rest/record/v1/", func(w http.ResponseWriter, r *http.Request) {
		if err := f.v.CheckBearer(r, now()); err != nil {
			WriteInvalidLogin(w)
			return
		}
		_, _ = io.WriteString(w, `{"id":"1"}`)
	})
	f.srv = httptest.NewServer(mux)
	t.Cleanup(f.srv.Close)
	return f
}

func (f *m2mFake) get(t *testing.T, auth netsuite.Authorizer) int {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, f.srv.URL+"/services/rest/record/v1/customer/1", nil)
	if auth != nil {
		if err := auth.Authorize(context.Background(), req); err != nil {
			t.Fatal(err)
		}
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	_ = res.Body.Close()
	return res.StatusCode
}

func TestM2MEndToEnd(t *testing.T) {
	rk, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	ek, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	now := testNow
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	f := newM2MFake(t, clock)
	if err := f.v.Register("client-1", "rsa-cert", &rk.PublicKey); err != nil {
		t.Fatal(err)
	}
	if err := f.v.Register("client-1", "ec-cert", &ek.PublicKey); err != nil {
		t.Fatal(err)
	}

	if got := f.get(t, nil); got != http.StatusUnauthorized {
		t.Fatalf("no token: %d", got)
	}
	ms := []*netsuite.M2M{
		{TokenURL: f.srv.URL + tokenPath, ClientID: "client-1", CertID: "rsa-cert", Key: rk, Now: clock}, // PS256
		{TokenURL: f.srv.URL + tokenPath, ClientID: "client-1", CertID: "ec-cert", Key: ek, Now: clock},  // ES256
	}
	for _, m := range ms {
		if got := f.get(t, m); got != http.StatusOK {
			t.Fatalf("%s: %d", m.CertID, got)
		}
	}
	old := httptest.NewRequest(http.MethodGet, "/", nil)
	if err := ms[1].Authorize(context.Background(), old); err != nil {
		t.Fatal(err)
	}

	// An hour on, the fake's first tokens have expired; the clients knew
	// and fetch new ones.
	mu.Lock()
	now = now.Add(time.Hour)
	mu.Unlock()
	if err := f.v.CheckBearer(old, clock()); !errors.Is(err, ErrInvalidLogin) {
		t.Fatalf("an hour-old token: %v", err)
	}
	for _, m := range ms {
		if got := f.get(t, m); got != http.StatusOK {
			t.Fatalf("%s after an hour: %d", m.CertID, got)
		}
	}
}

func TestCheckBearer(t *testing.T) {
	v := &M2MVerifier{TTL: time.Minute, Now: func() time.Time { return testNow }}
	key, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err := v.Register("c", "k", &key.PublicKey); err != nil {
		t.Fatal(err)
	}
	form := url.Values{"grant_type": {"client_credentials"}, "client_assertion_type": {"urn:ietf:params:oauth:client-assertion-type:jwt-bearer"},
		"client_assertion": {sign(t, jwt.SigningMethodES256, key, "k", claims("http://example.com"+tokenPath))}}
	req := httptest.NewRequest(http.MethodPost, "http://example.com"+tokenPath, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	rec := httptest.NewRecorder()
	v.ServeToken(rec, req)
	var ans map[string]any
	if err := json.Unmarshal(rec.Body.Bytes(), &ans); err != nil || rec.Code != 200 {
		t.Fatalf("%d %s", rec.Code, rec.Body)
	}
	if ans["token_type"] != "bearer" || ans["expires_in"] != float64(60) || rec.Header().Get("Cache-Control") != "no-store" {
		t.Fatalf("answer = %v", ans)
	}
	tok, _ := ans["access_token"].(string)
	api := func(h string) *http.Request {
		r := httptest.NewRequest(http.MethodGet, "/services/rest/record/v1/customer/1", nil)
		r.Header.Set("Authorization", h)
		return r
	}
	if err := v.CheckBearer(api("Bearer "+tok), testNow.Add(59*time.Second)); err != nil {
		t.Fatal(err)
	}
	for name, c := range map[string]struct {
		h    string
		at   time.Time
		want string
	}{
		"expired": {"Bearer " + tok, testNow.Add(time.Minute), "expired"},
		"unknown": {"Bearer nope", testNow, "unknown"},
		"none":    {"", testNow, "no Bearer"},
		"OAuth":   {`OAuth realm="1"`, testNow, "no Bearer"},
		"empty":   {"Bearer ", testNow, "no Bearer"},
	} {
		if err := v.CheckBearer(api(c.h), c.at); !errors.Is(err, ErrInvalidLogin) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err = %v", name, err)
		}
	}
}

func claims(aud string) jwt.MapClaims {
	return jwt.MapClaims{
		"iss": "c", "aud": aud, "scope": "restlets,rest_webservices",
		"iat": testNow.Unix(), "exp": testNow.Add(55 * time.Minute).Unix(), "jti": rand.Text(),
	}
}

func sign(t *testing.T, method jwt.SigningMethod, key any, kid string, c jwt.MapClaims) string {
	t.Helper()
	tok := jwt.NewWithClaims(method, c)
	if kid != "" {
		tok.Header["kid"] = kid
	}
	s, err := tok.SignedString(key)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestM2MVerifierRejectsBadAssertions(t *testing.T) {
	rk, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	ek, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	other, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	p384, _ := ecdsa.GenerateKey(elliptic.P384(), rand.Reader)
	v := &M2MVerifier{}
	if err := v.Register("c", "rsa", &rk.PublicKey); err != nil {
		t.Fatal(err)
	}
	if err := v.Register("c", "ec", &ek.PublicKey); err != nil {
		t.Fatal(err)
	}
	const aud = "http://127.0.0.1:1" + tokenPath
	with := func(edit func(jwt.MapClaims)) jwt.MapClaims { c := claims(aud); edit(c); return c }
	none, err := jwt.NewWithClaims(jwt.SigningMethodNone, claims(aud)).SignedString(jwt.UnsafeAllowNoneSignatureType)
	if err != nil {
		t.Fatal(err)
	}
	replayed := sign(t, jwt.SigningMethodES256, ek, "ec", claims(aud))
	if err := v.verifyAssertion(replayed, aud, testNow); err != nil {
		t.Fatalf("good assertion: %v", err)
	}
	for name, c := range map[string]struct {
		jwt, want string
	}{
		"HS256":       {sign(t, jwt.SigningMethodHS256, []byte("a shared secret of 32 bytes....."), "ec", claims(aud)), "signing method HS256 is invalid"},
		"none":        {none, "signing method none is invalid"},
		"RS256":       {sign(t, jwt.SigningMethodRS256, rk, "rsa", claims(aud)), "signing method RS256 is invalid"},
		"ES384":       {sign(t, jwt.SigningMethodES384, p384, "ec", claims(aud)), "signing method ES384 is invalid"},
		"wrong kid":   {sign(t, jwt.SigningMethodES256, ek, "other", claims(aud)), "no certificate"},
		"no kid":      {sign(t, jwt.SigningMethodES256, ek, "", claims(aud)), "no certificate"},
		"unknown iss": {sign(t, jwt.SigningMethodES256, ek, "ec", with(func(c jwt.MapClaims) { c["iss"] = "d" })), "no certificate"},
		"other key":   {sign(t, jwt.SigningMethodES256, other, "ec", claims(aud)), "signature is invalid"},
		"kid of RSA":  {sign(t, jwt.SigningMethodES256, ek, "rsa", claims(aud)), "key is of invalid type"},
		"wrong aud":   {sign(t, jwt.SigningMethodES256, ek, "ec", claims("https://evil.example"+tokenPath)), "aud"},
		"no aud":      {sign(t, jwt.SigningMethodES256, ek, "ec", with(func(c jwt.MapClaims) { delete(c, "aud") })), "aud"},
		"expired": {sign(t, jwt.SigningMethodES256, ek, "ec", with(func(c jwt.MapClaims) {
			c["iat"] = testNow.Add(-2 * time.Hour).Unix()
			c["exp"] = testNow.Add(-time.Second).Unix()
		})), "expired"},
		"no exp":        {sign(t, jwt.SigningMethodES256, ek, "ec", with(func(c jwt.MapClaims) { delete(c, "exp") })), "exp claim is required"},
		"no iat":        {sign(t, jwt.SigningMethodES256, ek, "ec", with(func(c jwt.MapClaims) { delete(c, "iat") })), "no iat"},
		"iat in future": {sign(t, jwt.SigningMethodES256, ek, "ec", with(func(c jwt.MapClaims) { c["iat"] = testNow.Add(time.Minute).Unix() })), "used before issued"},
		"too long":      {sign(t, jwt.SigningMethodES256, ek, "ec", with(func(c jwt.MapClaims) { c["exp"] = testNow.Add(time.Hour + time.Second).Unix() })), "less than 60 minutes"},
		"an hour":       {sign(t, jwt.SigningMethodES256, ek, "ec", with(func(c jwt.MapClaims) { c["exp"] = testNow.Add(time.Hour).Unix() })), "less than 60 minutes"},
		"no scope":      {sign(t, jwt.SigningMethodES256, ek, "ec", with(func(c jwt.MapClaims) { delete(c, "scope") })), "scope"},
		"other scope":   {sign(t, jwt.SigningMethodES256, ek, "ec", with(func(c jwt.MapClaims) { c["scope"] = "suite_analytics" })), "scope"},
		"bad scope":     {sign(t, jwt.SigningMethodES256, ek, "ec", with(func(c jwt.MapClaims) { c["scope"] = 7 })), "scope"},
		"no jti":        {sign(t, jwt.SigningMethodES256, ek, "ec", with(func(c jwt.MapClaims) { delete(c, "jti") })), "no jti"},
		"replayed jti":  {replayed, "jti already used"},
		"garbage":       {"a.b.c", "assertion"},
	} {
		if err := v.verifyAssertion(c.jwt, aud, testNow); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err = %v, want %q", name, err, c.want)
		}
	}
	// Both forms of scope NetSuite documents pass (the comma-separated
	// string of its claims table, the array of its sample request), PS256
	// too, and a life just under the hour.
	for _, c := range []jwt.MapClaims{
		with(func(c jwt.MapClaims) { c["scope"] = "rest_webservices" }),
		with(func(c jwt.MapClaims) { c["scope"] = "restlets, rest_webservices" }),
		with(func(c jwt.MapClaims) { c["scope"] = "suite_analytics,restlets" }),
		with(func(c jwt.MapClaims) { c["scope"] = []string{"restlets", "rest_webservices"} }),
		with(func(c jwt.MapClaims) { c["scope"] = []string{"suite_analytics", "restlets"} }),
		with(func(c jwt.MapClaims) { c["exp"] = testNow.Add(time.Hour - time.Second).Unix() }),
	} {
		if err := v.verifyAssertion(sign(t, jwt.SigningMethodPS256, rk, "rsa", c), aud, testNow); err != nil {
			t.Errorf("scope %v: %v", c["scope"], err)
		}
	}
}

func TestServeTokenErrors(t *testing.T) {
	key, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	v := &M2MVerifier{Now: func() time.Time { return testNow }}
	if err := v.Register("c", "k", &key.PublicKey); err != nil {
		t.Fatal(err)
	}
	good := func() url.Values {
		return url.Values{"grant_type": {"client_credentials"}, "client_assertion_type": {"urn:ietf:params:oauth:client-assertion-type:jwt-bearer"},
			"client_assertion": {sign(t, jwt.SigningMethodES256, key, "k", claims("http://example.com"+tokenPath))}}
	}
	edit := func(k, val string) url.Values { f := good(); f.Set(k, val); return f }
	for name, c := range map[string]struct {
		method, contentType string
		form                url.Values
		want                string
	}{
		"GET":            {http.MethodGet, "application/x-www-form-urlencoded", good(), "invalid_request"},
		"JSON body":      {http.MethodPost, "application/json", good(), "invalid_request"},
		"grant type":     {http.MethodPost, "application/x-www-form-urlencoded", edit("grant_type", "authorization_code"), "invalid_request"},
		"assertion type": {http.MethodPost, "application/x-www-form-urlencoded", edit("client_assertion_type", "x"), "invalid_request"},
		"no assertion":   {http.MethodPost, "application/x-www-form-urlencoded", edit("client_assertion", ""), "invalid_request"},
		"bad assertion":  {http.MethodPost, "application/x-www-form-urlencoded", edit("client_assertion", "a.b.c"), "invalid_grant"},
		"aud":            {http.MethodPost, "application/x-www-form-urlencoded", edit("client_assertion", sign(t, jwt.SigningMethodES256, key, "k", claims("https://example.com"+tokenPath))), "invalid_grant"},
		"an hour's life": {http.MethodPost, "application/x-www-form-urlencoded", edit("client_assertion", sign(t, jwt.SigningMethodES256, key, "k", func() jwt.MapClaims {
			c := claims("http://example.com" + tokenPath)
			c["exp"] = testNow.Add(time.Hour).Unix()
			return c
		}())), "invalid_request"},
	} {
		req := httptest.NewRequest(c.method, "http://example.com"+tokenPath, strings.NewReader(c.form.Encode()))
		req.Header.Set("Content-Type", c.contentType)
		rec := httptest.NewRecorder()
		v.ServeToken(rec, req)
		var ans map[string]string
		if err := json.Unmarshal(rec.Body.Bytes(), &ans); err != nil || rec.Code != http.StatusBadRequest || ans["error"] != c.want || len(ans) != 1 {
			t.Errorf("%s: %d %s, want 400 %s", name, rec.Code, rec.Body, c.want)
		}
	}
}

func TestRegisterRefusesUnusableKeys(t *testing.T) {
	p384, _ := ecdsa.GenerateKey(elliptic.P384(), rand.Reader)
	v := &M2MVerifier{}
	for name, key := range map[string]any{"P-384": &p384.PublicKey, "nil RSA": (*rsa.PublicKey)(nil), "bytes": []byte("k"), "nil": nil} {
		if err := v.Register("c", "k", key); err == nil {
			t.Errorf("%s: registered", name)
		}
	}
}

// Oracle's published TBA example, from NetSuite's help topic "The
// Signature for Web Services and RESTlets" (section_1534941088): its
// inputs, base strings and HMAC-SHA256 signatures, as literals. The
// fake's signer must reach them on its own.
func TestTBASignerPublishedExamples(t *testing.T) {
	const (
		consumerKey    = "ef40afdd8abaac111b13825dd5e5e2ddddb44f86d5a0dd6dcf38c20aae6b67e4"
		consumerSecret = "d26ad321a4b2f23b0741c8d38392ce01c3e23e109df6c96eac6d099e9ab9e8b5"
		tokenID        = "2b0ce516420110bcbd36b69e99196d1b7f6de3c6234c5afb799b73d87569f5cc"
		tokenSecret    = "c29a677df7d5439a458c063654187e3d678d73aca8e3c9d8bea1478a3eb0d295"
	)
	params := map[string]string{
		"realm":                  "123456", // never signed
		"oauth_consumer_key":     consumerKey,
		"oauth_token":            tokenID,
		"oauth_nonce":            "fjaLirsIcCGVZWzBX0pg",
		"oauth_timestamp":        "1508242306",
		"oauth_signature_method": "HMAC-SHA256",
		"oauth_version":          "1.0",
		"oauth_signature":        "never signed either",
	}
	for _, c := range []struct{ method, url, base, sig string }{
		{http.MethodPost, "https://123456.restlets.api.netsuite.com/app/site/hosting/restlet.nl?script=6&deploy=1&customParam=someValue&testParam=someOtherValue",
			"POST&https%3A%2F%2F123456.restlets.api.netsuite.com%2Fapp%2Fsite%2Fhosting%2Frestlet.nl&" +
				"customParam%3DsomeValue%26deploy%3D1" +
				"%26oauth_consumer_key%3Def40afdd8abaac111b13825dd5e5e2ddddb44f86d5a0dd6dcf38c20aae6b67e4" +
				"%26oauth_nonce%3DfjaLirsIcCGVZWzBX0pg%26oauth_signature_method%3DHMAC-SHA256" +
				"%26oauth_timestamp%3D1508242306" +
				"%26oauth_token%3D2b0ce516420110bcbd36b69e99196d1b7f6de3c6234c5afb799b73d87569f5cc" +
				"%26oauth_version%3D1.0%26script%3D6%26testParam%3DsomeOtherValue",
			"+KK4SKNgz4ZiILGLwOMtfYlgcXSy1eis8ldE9X90azQ="},
		{http.MethodGet, "https://123456.suitetalk.api.netsuite.com/services/rest/record/v1/employee/40",
			"GET&https%3A%2F%2F123456.suitetalk.api.netsuite.com%2Fservices%2Frest%2Frecord%2Fv1%2Femployee%2F40&" +
				"oauth_consumer_key%3Def40afdd8abaac111b13825dd5e5e2ddddb44f86d5a0dd6dcf38c20aae6b67e4" +
				"%26oauth_nonce%3DfjaLirsIcCGVZWzBX0pg%26oauth_signature_method%3DHMAC-SHA256" +
				"%26oauth_timestamp%3D1508242306" +
				"%26oauth_token%3D2b0ce516420110bcbd36b69e99196d1b7f6de3c6234c5afb799b73d87569f5cc" +
				"%26oauth_version%3D1.0",
			"B5OIWznZ2YP0OB7VrJrGkYsTh+8H+5T9Hag+o92q0zY="},
	} {
		r := httptest.NewRequest(c.method, c.url, nil) // an https URL sets r.TLS
		base, err := signatureBase(r, params)
		if err != nil || base != c.base {
			t.Errorf("%s %s: base string\n got %s (%v)\nwant %s", c.method, c.url, base, err, c.base)
		}
		if sig := hmacSHA256Signature(c.base, consumerSecret, tokenSecret); sig != c.sig {
			t.Errorf("%s %s: signature %s, want %s", c.method, c.url, sig, c.sig)
		}
	}
}

// RFC 5849's own examples: the base string of §3.4.1.1 (its c2 and
// a3="2 q" come from a form body there; here they are passed as
// parameters, which the base string treats alike) and the base string
// URIs of §3.4.1.2.
func TestTBASignerRFC5849Examples(t *testing.T) {
	r := httptest.NewRequest(http.MethodPost, "http://example.com/request?b5=%3D%253D&a3=a&c%40=&a2=r%20b", nil)
	base, err := signatureBase(r, map[string]string{
		"oauth_consumer_key": "9djdj82h48djs9d2", "oauth_token": "kkk9d7dh3k39sjv7", "oauth_signature_method": "HMAC-SHA1",
		"oauth_timestamp": "137131201", "oauth_nonce": "7d8f3e4a", "c2": "", "a3": "2 q",
		"realm": "Example", "oauth_signature": "djosJKDKJSD8743243%2Fjdk33klY%3D",
	})
	want := "POST&http%3A%2F%2Fexample.com%2Frequest&a2%3Dr%2520b%26a3%3D2%2520q%26a3%3Da%26b5%3D%253D%25253D%26c%2540%3D%26c2%3D" +
		"%26oauth_consumer_key%3D9djdj82h48djs9d2%26oauth_nonce%3D7d8f3e4a%26oauth_signature_method%3DHMAC-SHA1" +
		"%26oauth_timestamp%3D137131201%26oauth_token%3Dkkk9d7dh3k39sjv7"
	if err != nil || base != want {
		t.Errorf("RFC 5849 §3.4.1.1 base string\n got %s (%v)\nwant %s", base, err, want)
	}
	for _, c := range []struct{ scheme, host, path, want string }{
		{"HTTP", "EXAMPLE.COM:80", "/r%20v/X", "http://example.com/r%20v/X"},
		{"https", "www.example.net:8080", "/", "https://www.example.net:8080/"},
		{"https", "a.example.com:443", "", "https://a.example.com/"},
		{"http", "127.0.0.1:443", "/p", "http://127.0.0.1:443/p"},
		{"http", "[::1]:80", "/p", "http://[::1]/p"},
		{"http", "[::1]", "/p", "http://[::1]/p"},
	} {
		if got := baseStringURI(c.scheme, c.host, c.path); got != c.want {
			t.Errorf("baseStringURI(%q, %q, %q) = %q, want %q", c.scheme, c.host, c.path, got, c.want)
		}
	}
	// §3.6: unreserved characters stay, every other byte of the UTF-8
	// form is %XX in upper case; a space is %20, never "+".
	if got, want := percentEncode("Aa0-._~ !*'()/+=&%é"), "Aa0-._~%20%21%2A%27%28%29%2F%2B%3D%26%25%C3%A9"; got != want {
		t.Errorf("percentEncode = %q, want %q", got, want)
	}
	// §3.4.1.3.2: sorted by name, then value, both encoded; "+" in a
	// query is a space.
	pairs, err := queryPairs("q=a+b&q=A~*!&limit=5&flag")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := normalizeParameters(pairs), "flag=&limit=5&q=A~%2A%21&q=a%20b"; got != want {
		t.Errorf("normalized %q, want %q", got, want)
	}
	if _, err := queryPairs("a=%zz"); err == nil {
		t.Error("a malformed query escape was accepted")
	}
}
