package netsuitetest

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/hmac"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/golang-jwt/jwt/v5"
)

// ErrInvalidLogin is what TBAVerifier.Verify and M2MVerifier.CheckBearer
// fail with (wrapped, with the reason): NetSuite answers every such
// failure alike, with 401 and INVALID_LOGIN (see WriteInvalidLogin).
var ErrInvalidLogin = errors.New("INVALID_LOGIN")

func loginError(reason string) error {
	return fmt.Errorf("%w: %s", ErrInvalidLogin, reason)
}

// invalidLoginBody is NetSuite's answer to a request it cannot
// authenticate, byte for byte (a literal: encoding/json would escape ">").
const invalidLoginBody = `{"type":"https://www.w3.org/Protocols/rfc2616/rfc2616-sec10.html#sec10.4.2","title":"Unauthorized","status":401,"o:errorDetails":[{"detail":"Invalid login attempt. For more details, see the Login Audit Trail in the NetSuite UI at Setup > Users/Roles > User Management > View Login Audit Trail.","o:errorCode":"INVALID_LOGIN"}]}`

// WriteInvalidLogin answers 401 with NetSuite's INVALID_LOGIN error
// envelope and its error media type (with the charset NetSuite adds).
func WriteInvalidLogin(w http.ResponseWriter) {
	w.Header().Set("Content-Type", "application/vnd.oracle.resource+json; type=error; charset=UTF-8")
	w.WriteHeader(http.StatusUnauthorized)
	_, _ = io.WriteString(w, invalidLoginBody)
}

// authOrigin is scheme://host as the client addressed the request, which
// is what it signed: NetSuite's URLs for real, httptest's http://127.0.0.1:port
// in tests.
func authOrigin(r *http.Request) string {
	if r.TLS != nil {
		return "https://" + r.Host
	}
	return "http://" + r.Host
}

const (
	// tbaClockSkew is how far oauth_timestamp may be from the fake's
	// clock either way.
	tbaClockSkew = 5 * time.Minute
	// tbaMinNonce is NetSuite's shortest nonce (nonce_rejected below).
	tbaMinNonce = 6
	// tbaSignatureMethod is the one signature method NetSuite still
	// takes for TBA (HMAC-SHA1 ended with 2023.1).
	tbaSignatureMethod = "HMAC-SHA256"
)

// TBAVerifier checks Token-Based Authentication (OAuth 1.0a) headers as
// NetSuite does. Realm and Lookup must be set before use; a TBAVerifier
// must not be copied after first use. It is safe for concurrent use.
type TBAVerifier struct {
	// Realm is the account's realm, e.g. "123456_SB1" (netsuite.Realm).
	Realm string
	// Lookup returns the secrets of a consumer key and token id, ok
	// false when the pair is unknown (or revoked).
	Lookup func(consumerKey, tokenID string) (consumerSecret, tokenSecret string, ok bool)

	mu     sync.Mutex
	nonces map[string]time.Time // consumer key & token & nonce → oauth_timestamp
}

// Verify checks r's OAuth Authorization header at time now: the realm,
// HMAC-SHA256, version 1.0 when given, a timestamp within 5 minutes of
// now, a nonce of at least 6 characters not used before by the same
// token, known credentials, and the signature over r's method, URL (as
// the client addressed it) and query. A failure wraps ErrInvalidLogin
// with the reason (never a secret). A nonce is spent only by a request
// that passes every other check.
func (v *TBAVerifier) Verify(r *http.Request, now time.Time) error {
	p, err := parseOAuthHeader(r.Header.Get("Authorization"))
	if err != nil {
		return err
	}
	if p["realm"] != v.Realm {
		return loginError(fmt.Sprintf("realm %q, want %q", p["realm"], v.Realm))
	}
	for _, k := range []string{"oauth_consumer_key", "oauth_token", "oauth_signature_method", "oauth_timestamp", "oauth_nonce", "oauth_signature"} {
		if p[k] == "" {
			return loginError("missing " + k)
		}
	}
	if p["oauth_signature_method"] != tbaSignatureMethod {
		return loginError(fmt.Sprintf("signature method %q, want %s", p["oauth_signature_method"], tbaSignatureMethod))
	}
	if ver, ok := p["oauth_version"]; ok && ver != "1.0" {
		return loginError(fmt.Sprintf("oauth_version %q, want 1.0", ver))
	}
	secs, err := strconv.ParseInt(p["oauth_timestamp"], 10, 64)
	if err != nil {
		return loginError("oauth_timestamp is not a number")
	}
	at := time.Unix(secs, 0)
	if at.Before(now.Add(-tbaClockSkew)) || at.After(now.Add(tbaClockSkew)) {
		return loginError("oauth_timestamp is more than 5 minutes off")
	}
	if len(p["oauth_nonce"]) < tbaMinNonce {
		return loginError("nonce_rejected: oauth_nonce is shorter than 6 characters")
	}
	if v.Lookup == nil {
		return loginError("unknown consumer key or token")
	}
	consumerSecret, tokenSecret, ok := v.Lookup(p["oauth_consumer_key"], p["oauth_token"])
	if !ok {
		return loginError("unknown consumer key or token")
	}
	base, err := signatureBase(r, p)
	if err != nil {
		return loginError(err.Error())
	}
	want := hmacSHA256Signature(base, consumerSecret, tokenSecret)
	if subtle.ConstantTimeCompare([]byte(want), []byte(p["oauth_signature"])) != 1 {
		return loginError("signature mismatch")
	}
	return v.spendNonce(p["oauth_consumer_key"]+"&"+p["oauth_token"]+"&"+p["oauth_nonce"], at, now)
}

// The TBA signature, written here from RFC 5849 (OAuth 1.0) and not taken
// from the connector: a test double built from the code under test could
// not find that code's mistakes. NetSuite follows the RFC with HMAC-SHA256
// in place of HMAC-SHA1 ("The Signature for Web Services and RESTlets" in
// its help). Only query parameters are signed: NetSuite's REST web
// services and RESTlets take JSON bodies, never form-encoded ones.

// signatureBase is the signature base string of RFC 5849 §3.4.1.1:
// the upper-case method, the encoded base string URI (§3.4.1.2) and the
// encoded normalized parameters (§3.4.1.3), joined by "&". params are
// the Authorization header's; realm and oauth_signature are left out
// (§3.4.1.3.1). The URI is r's as the client addressed it.
func signatureBase(r *http.Request, params map[string]string) (string, error) {
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	host := r.Host
	if host == "" {
		host = r.URL.Host
	}
	uri := baseStringURI(scheme, host, r.URL.EscapedPath())
	pairs, err := queryPairs(r.URL.RawQuery)
	if err != nil {
		return "", err
	}
	for k, v := range params {
		if k == "realm" || k == "oauth_signature" {
			continue
		}
		pairs = append(pairs, [2]string{k, v})
	}
	method := r.Method
	if method == "" {
		method = http.MethodGet
	}
	return strings.ToUpper(method) + "&" + percentEncode(uri) + "&" + percentEncode(normalizeParameters(pairs)), nil
}

// baseStringURI is RFC 5849 §3.4.1.2: scheme and host in lower case, the
// port only when it is not the scheme's default (80 for http, 443 for
// https), the path as sent ("/" when empty), no query or fragment.
func baseStringURI(scheme, host, path string) string {
	scheme, host = strings.ToLower(scheme), strings.ToLower(host)
	if i := strings.LastIndexByte(host, ':'); i >= 0 && !strings.Contains(host[i:], "]") {
		port := host[i+1:]
		if scheme == "http" && port == "80" || scheme == "https" && port == "443" {
			host = host[:i]
		}
	}
	if path == "" {
		path = "/"
	}
	return scheme + "://" + host + path
}

// queryPairs decodes a query as RFC 5849 §3.4.1.3.1 reads it: split at
// "&", each part at its first "=" (a name alone has an empty value), then
// form-decoded ("+" is a space). Repeated names are all kept.
func queryPairs(rawQuery string) ([][2]string, error) {
	var pairs [][2]string
	if rawQuery == "" {
		return nil, nil
	}
	for part := range strings.SplitSeq(rawQuery, "&") {
		if part == "" {
			continue
		}
		name, value, _ := strings.Cut(part, "=")
		n, err := url.QueryUnescape(name)
		if err != nil {
			return nil, fmt.Errorf("request query: %w", err)
		}
		v, err := url.QueryUnescape(value)
		if err != nil {
			return nil, fmt.Errorf("request query: %w", err)
		}
		pairs = append(pairs, [2]string{n, v})
	}
	return pairs, nil
}

// normalizeParameters is RFC 5849 §3.4.1.3.2: each name and value
// percent-encoded, sorted by encoded name, then by encoded value (byte
// order), each pair joined by "=", the pairs by "&".
func normalizeParameters(pairs [][2]string) string {
	enc := make([]string, len(pairs))
	for i, p := range pairs {
		enc[i] = percentEncode(p[0]) + "=" + percentEncode(p[1])
	}
	// Sorting "name=value" strings is not the same: "=" sorts before
	// some name characters ("a=1" vs "a1=…"), so compare the parts.
	slices.SortFunc(enc, func(a, b string) int {
		an, av, _ := strings.Cut(a, "=")
		bn, bv, _ := strings.Cut(b, "=")
		if c := strings.Compare(an, bn); c != 0 {
			return c
		}
		return strings.Compare(av, bv)
	})
	return strings.Join(enc, "&")
}

// percentEncode is RFC 5849 §3.6: the UTF-8 bytes of s, each but the
// unreserved ALPHA, DIGIT, "-", ".", "_" and "~" written as "%" and two
// upper-case hex digits.
func percentEncode(s string) string {
	var b strings.Builder
	for _, c := range []byte(s) {
		switch {
		case 'A' <= c && c <= 'Z', 'a' <= c && c <= 'z', '0' <= c && c <= '9', c == '-', c == '.', c == '_', c == '~':
			b.WriteByte(c)
		default:
			fmt.Fprintf(&b, "%%%02X", c)
		}
	}
	return b.String()
}

// hmacSHA256Signature signs a base string with the key of RFC 5849
// §3.4.2: the encoded consumer secret and the encoded token secret joined
// by "&" (the "&" stays when a secret is empty). The digest is
// base64-encoded (§3.4.2 step 3, with SHA-256 for SHA-1 as NetSuite does).
func hmacSHA256Signature(base, consumerSecret, tokenSecret string) string {
	mac := hmac.New(sha256.New, []byte(percentEncode(consumerSecret)+"&"+percentEncode(tokenSecret)))
	mac.Write([]byte(base))
	return base64.StdEncoding.EncodeToString(mac.Sum(nil))
}

// spendNonce records a nonce, failing if it was seen. Nonces whose
// timestamp is older than the skew window are forgotten: a request
// carrying them fails the timestamp check anyway.
func (v *TBAVerifier) spendNonce(key string, at, now time.Time) error {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.nonces == nil {
		v.nonces = make(map[string]time.Time)
	}
	for k, t := range v.nonces {
		if t.Before(now.Add(-tbaClockSkew)) {
			delete(v.nonces, k)
		}
	}
	if _, used := v.nonces[key]; used {
		return loginError("nonce_used: this nonce was already used with this token")
	}
	v.nonces[key] = at
	return nil
}

// parseOAuthHeader splits `OAuth realm="…", oauth_x="…"` into its
// percent-decoded parameters. Only realm and oauth_* parameters, each
// once, are allowed.
func parseOAuthHeader(h string) (map[string]string, error) {
	scheme, rest, _ := strings.Cut(strings.TrimSpace(h), " ")
	if !strings.EqualFold(scheme, "OAuth") {
		return nil, loginError("no OAuth Authorization header")
	}
	params := make(map[string]string)
	for part := range strings.SplitSeq(rest, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		k, quoted, ok := strings.Cut(part, "=")
		if !ok || len(quoted) < 2 || quoted[0] != '"' || quoted[len(quoted)-1] != '"' {
			return nil, loginError("malformed OAuth header")
		}
		val, err := url.PathUnescape(quoted[1 : len(quoted)-1])
		if err != nil {
			return nil, loginError("malformed percent-encoding in the OAuth header")
		}
		if k != "realm" && !strings.HasPrefix(k, "oauth_") {
			return nil, loginError(fmt.Sprintf("unexpected OAuth header parameter %q", k))
		}
		if _, dup := params[k]; dup {
			return nil, loginError(fmt.Sprintf("OAuth header parameter %q repeated", k))
		}
		params[k] = val
	}
	return params, nil
}

const (
	// m2mDefaultTTL is the life of an access token NetSuite issues.
	m2mDefaultTTL = time.Hour
	// m2mMaxAssertionLife bounds exp - iat, exclusively: "The value must
	// be less than 60 minutes greater than the value of the iat
	// parameter" (NetSuite help, "The Request Token Structure",
	// section_162790605110).
	m2mMaxAssertionLife = time.Hour
	// m2mMaxForm bounds a token request body.
	m2mMaxForm = 64 << 10
)

// M2MVerifier is the fake's OAuth 2.0 client credentials ("M2M") side: it
// holds the certificates mapped to each client id, checks the JWT
// assertions posted to the token endpoint (ServeToken), issues opaque
// access tokens and checks them on API requests (CheckBearer). The zero
// value has no clients and a one-hour token life; it must not be copied
// after first use. It is safe for concurrent use.
type M2MVerifier struct {
	// TTL is the access tokens' life; 0 means NetSuite's 3600 s.
	TTL time.Duration
	// Now is ServeToken's clock; nil means time.Now.
	Now func() time.Time

	mu     sync.Mutex
	keys   map[string]map[string]crypto.PublicKey // client id → certificate id → key
	jtis   map[string]time.Time                   // client id & jti → assertion exp
	tokens map[string]time.Time                   // access token → expiry
}

// Register maps a certificate (its id and public key) to a client id, as
// the M2M setup page does. It accepts an *rsa.PublicKey (for PS256) or an
// *ecdsa.PublicKey on P-256 (for ES256) and replaces an earlier key with
// the same ids.
func (v *M2MVerifier) Register(clientID, certID string, pub crypto.PublicKey) error {
	switch k := pub.(type) {
	case *rsa.PublicKey:
		if k == nil {
			return errors.New("netsuitetest: nil RSA key")
		}
	case *ecdsa.PublicKey:
		if k == nil || k.Curve != elliptic.P256() {
			return errors.New("netsuitetest: ECDSA keys must be on P-256")
		}
	default:
		return fmt.Errorf("netsuitetest: unsupported key type %T, want *rsa.PublicKey or *ecdsa.PublicKey", pub)
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.keys == nil {
		v.keys = make(map[string]map[string]crypto.PublicKey)
	}
	if v.keys[clientID] == nil {
		v.keys[clientID] = make(map[string]crypto.PublicKey)
	}
	v.keys[clientID][certID] = pub
	return nil
}

// ServeToken is the token endpoint (POST
// /services/rest/auth/oauth2/v1/token). A well-formed client credentials
// request whose assertion verifies gets 200 and {"access_token",
// "token_type":"bearer","expires_in":<seconds, a number>}; a malformed
// request gets 400 {"error":"invalid_request"} and an assertion that does
// not verify 400 {"error":"invalid_grant"}, as NetSuite answers. An
// assertion whose exp is 60 minutes or more after its iat gets 400
// {"error":"invalid_request"}: the help states the rule (see
// m2mMaxAssertionLife) but not the answer, so this is the fake's choice
// of RFC 6749 §5.2's code for a malformed request. The assertion's aud
// must be this endpoint's URL as the client addressed it.
func (v *M2MVerifier) ServeToken(w http.ResponseWriter, r *http.Request) {
	now := time.Now()
	if v.Now != nil {
		now = v.Now()
	}
	r.Body = http.MaxBytesReader(w, r.Body, m2mMaxForm)
	if r.Method != http.MethodPost || r.ParseForm() != nil ||
		r.PostForm.Get("grant_type") != "client_credentials" ||
		r.PostForm.Get("client_assertion_type") != "urn:ietf:params:oauth:client-assertion-type:jwt-bearer" ||
		r.PostForm.Get("client_assertion") == "" {
		writeOAuthJSON(w, http.StatusBadRequest, map[string]any{"error": "invalid_request"})
		return
	}
	if err := v.verifyAssertion(r.PostForm.Get("client_assertion"), authOrigin(r)+r.URL.EscapedPath(), now); err != nil {
		code := "invalid_grant"
		if errors.Is(err, errMalformedAssertion) {
			code = "invalid_request"
		}
		writeOAuthJSON(w, http.StatusBadRequest, map[string]any{"error": code})
		return
	}
	ttl := v.TTL
	if ttl <= 0 {
		ttl = m2mDefaultTTL
	}
	tok := rand.Text()
	v.mu.Lock()
	if v.tokens == nil {
		v.tokens = make(map[string]time.Time)
	}
	for t, exp := range v.tokens {
		if !now.Before(exp) {
			delete(v.tokens, t)
		}
	}
	v.tokens[tok] = now.Add(ttl)
	v.mu.Unlock()
	writeOAuthJSON(w, http.StatusOK, map[string]any{
		"access_token": tok,
		"token_type":   "bearer",
		"expires_in":   int64(ttl / time.Second),
	})
}

func writeOAuthJSON(w http.ResponseWriter, status int, body map[string]any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store") // RFC 6749 §5.1
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(body)
}

// assertionClaims are the claims NetSuite reads from a client assertion.
type assertionClaims struct {
	Scope scopeClaim `json:"scope"`
	jwt.RegisteredClaims
}

// scopeClaim is the assertion's scope. NetSuite's help defines it as one
// string, the scopes "separated by a comma" ("The Request Token
// Structure", section_162790605110), yet the sample request on "POST
// Request to the Token Endpoint" (section_162755359851) sends the array
// ["restlets", "rest_webservices"]; NetSuite documents both, so the fake
// takes both. Blanks around the commas are dropped.
type scopeClaim []string

func (s *scopeClaim) UnmarshalJSON(b []byte) error {
	var list []string
	if json.Unmarshal(b, &list) == nil {
		*s = list
		return nil
	}
	var str string
	if err := json.Unmarshal(b, &str); err != nil {
		return errors.New("scope is neither an array nor a string")
	}
	for part := range strings.SplitSeq(str, ",") {
		*s = append(*s, strings.TrimSpace(part))
	}
	return nil
}

// errMalformedAssertion marks an assertion refused for its form rather
// than its signature or credentials (ServeToken answers invalid_request).
var errMalformedAssertion = errors.New("malformed assertion")

// verifyAssertion checks a client assertion: PS256 or ES256 only, signed
// by a certificate registered to its iss under its kid, aud = tokenURL,
// exp present and not passed, iat present and less than 60 minutes before
// exp, a scope including restlets or rest_webservices, and a jti the
// client has not used before.
func (v *M2MVerifier) verifyAssertion(assertion, tokenURL string, now time.Time) error {
	var claims assertionClaims
	parser := jwt.NewParser(
		jwt.WithValidMethods([]string{"PS256", "ES256"}),
		jwt.WithTimeFunc(func() time.Time { return now }),
		jwt.WithExpirationRequired(),
		jwt.WithIssuedAt(),
		jwt.WithAudience(tokenURL),
	)
	_, err := parser.ParseWithClaims(assertion, &claims, func(t *jwt.Token) (any, error) {
		kid, _ := t.Header["kid"].(string)
		v.mu.Lock()
		key, ok := v.keys[claims.Issuer][kid]
		v.mu.Unlock()
		if !ok {
			return nil, errors.New("no certificate with this kid is mapped to this iss")
		}
		return key, nil
	})
	if err != nil {
		return fmt.Errorf("assertion: %w", err)
	}
	if claims.IssuedAt == nil {
		return errors.New("assertion: no iat")
	}
	if claims.ExpiresAt.Sub(claims.IssuedAt.Time) >= m2mMaxAssertionLife {
		return fmt.Errorf("assertion: %w: exp - iat must be less than 60 minutes (3600 s)", errMalformedAssertion)
	}
	if !slices.Contains(claims.Scope, "rest_webservices") && !slices.Contains(claims.Scope, "restlets") {
		return errors.New("assertion: scope has neither rest_webservices nor restlets")
	}
	if claims.ID == "" {
		return errors.New("assertion: no jti")
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.jtis == nil {
		v.jtis = make(map[string]time.Time)
	}
	for k, exp := range v.jtis {
		if !now.Before(exp) {
			delete(v.jtis, k) // an expired assertion cannot come back
		}
	}
	key := claims.Issuer + "&" + claims.ID
	if _, used := v.jtis[key]; used {
		return errors.New("assertion: jti already used")
	}
	v.jtis[key] = claims.ExpiresAt.Time
	return nil
}

// CheckBearer checks r's "Authorization: Bearer <token>" at time now: the
// token must have been issued by ServeToken and not have expired. A
// failure wraps ErrInvalidLogin, as NetSuite answers 401 INVALID_LOGIN for
// a missing, unknown or expired token.
func (v *M2MVerifier) CheckBearer(r *http.Request, now time.Time) error {
	scheme, tok, _ := strings.Cut(r.Header.Get("Authorization"), " ")
	if !strings.EqualFold(scheme, "Bearer") || tok == "" {
		return loginError("no Bearer Authorization header")
	}
	v.mu.Lock()
	exp, ok := v.tokens[tok]
	v.mu.Unlock()
	switch {
	case !ok:
		return loginError("unknown access token")
	case !now.Before(exp):
		return loginError("access token expired")
	}
	return nil
}
