package netsuite

import (
	"context"
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/hmac"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
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

	"github.com/portico/portico/internal/erp"
)

// Authorizer adds NetSuite credentials to a request about to be sent.
// Implementations are safe for concurrent use. Authorize must be called
// after the request's method and URL are final: TBA signs them.
type Authorizer interface {
	Authorize(ctx context.Context, req *http.Request) error
}

var (
	_ Authorizer = TBA{}
	_ Authorizer = (*M2M)(nil)
)

// TBASignatureMethod is the only signature method NetSuite still accepts
// for Token-Based Authentication (HMAC-SHA1 ended with 2023.1).
const TBASignatureMethod = "HMAC-SHA256"

// TBA signs requests with NetSuite Token-Based Authentication (OAuth 1.0a,
// HMAC-SHA256) using an integration's consumer key and secret and a user's
// access token and secret. The zero Now and Nonce use the clock and
// crypto/rand; tests set them to get reproducible signatures.
//
// Only the URL's query parameters are signed, never a form body: NetSuite's
// REST web services and RESTlets take JSON bodies.
type TBA struct {
	Account        string // account id, e.g. "123456" or "123456-sb1"; the realm is derived from it (see Realm)
	ConsumerKey    string
	ConsumerSecret string
	TokenID        string
	TokenSecret    string

	Now   func() time.Time // the clock for oauth_timestamp; nil means time.Now
	Nonce func() string    // the oauth_nonce source; nil means 26 random upper-case letters and digits (crypto/rand)
}

// Realm returns the OAuth realm NetSuite expects for an account id: upper
// case, with the sandbox dash as an underscore ("123456-sb1" → "123456_SB1").
// An id already in that form is returned unchanged.
func Realm(account string) string {
	return strings.ToUpper(strings.ReplaceAll(account, "-", "_"))
}

// Authorize sets req's Authorization header to a TBA header for req's
// method and URL with a fresh timestamp and nonce. It fails, naming the
// missing field, when a credential is empty, and when the URL is not
// absolute or its query does not parse.
func (t TBA) Authorize(_ context.Context, req *http.Request) error {
	for _, f := range []struct{ name, value string }{
		{"Account", t.Account}, {"ConsumerKey", t.ConsumerKey}, {"ConsumerSecret", t.ConsumerSecret},
		{"TokenID", t.TokenID}, {"TokenSecret", t.TokenSecret},
	} {
		if f.value == "" {
			return fmt.Errorf("netsuite: TBA: %s is empty", f.name)
		}
	}
	now, nonce := time.Now, rand.Text
	if t.Now != nil {
		now = t.Now
	}
	if t.Nonce != nil {
		nonce = t.Nonce
	}
	params := map[string]string{
		"oauth_consumer_key":     t.ConsumerKey,
		"oauth_token":            t.TokenID,
		"oauth_signature_method": TBASignatureMethod,
		"oauth_timestamp":        strconv.FormatInt(now().Unix(), 10),
		"oauth_nonce":            nonce(),
		"oauth_version":          "1.0",
	}
	method := req.Method
	if method == "" {
		method = http.MethodGet // what net/http sends for an empty method
	}
	sig, err := SignTBA(method, req.URL.String(), params, t.ConsumerSecret, t.TokenSecret)
	if err != nil {
		return err
	}
	var h strings.Builder
	h.WriteString(`OAuth realm="` + tbaEncode(Realm(t.Account)) + `"`)
	for _, k := range []string{"oauth_consumer_key", "oauth_token", "oauth_signature_method", "oauth_timestamp", "oauth_nonce", "oauth_version"} {
		h.WriteString(`,` + k + `="` + tbaEncode(params[k]) + `"`)
	}
	h.WriteString(`,oauth_signature="` + tbaEncode(sig) + `"`)
	req.Header.Set("Authorization", h.String())
	return nil
}

// SignTBA returns the base64 HMAC-SHA256 TBA signature (not yet
// percent-encoded) of a request: method, the absolute rawURL (its query
// parameters are signed) and the oauth_* parameters in params. Entries
// "realm" and "oauth_signature" in params are ignored, as OAuth 1.0a
// requires, so a verifier can pass every parameter of a received header.
// The key is the percent-encoded consumer secret and token secret joined
// by "&". It fails when rawURL is not absolute or its query does not parse.
func SignTBA(method, rawURL string, params map[string]string, consumerSecret, tokenSecret string) (string, error) {
	base, err := tbaBaseString(method, rawURL, params)
	if err != nil {
		return "", err
	}
	mac := hmac.New(sha256.New, []byte(tbaEncode(consumerSecret)+"&"+tbaEncode(tokenSecret)))
	mac.Write([]byte(base))
	return base64.StdEncoding.EncodeToString(mac.Sum(nil)), nil
}

// tbaBaseString builds the OAuth 1.0a signature base string (RFC 5849
// §3.4.1): METHOD & encoded base URL & encoded sorted parameters.
func tbaBaseString(method, rawURL string, params map[string]string) (string, error) {
	u, err := url.Parse(rawURL)
	if err != nil {
		return "", fmt.Errorf("netsuite: TBA: request URL: %w", err)
	}
	if u.Scheme == "" || u.Host == "" {
		return "", errors.New("netsuite: TBA: the request URL is not absolute")
	}
	scheme, host := strings.ToLower(u.Scheme), strings.ToLower(u.Host)
	// RFC 5849 §3.4.1.2: a default port is not part of the base URL.
	if scheme == "http" {
		host = strings.TrimSuffix(host, ":80")
	} else if scheme == "https" {
		host = strings.TrimSuffix(host, ":443")
	}
	path := u.EscapedPath()
	if path == "" {
		path = "/"
	}
	query, err := url.ParseQuery(u.RawQuery)
	if err != nil {
		return "", fmt.Errorf("netsuite: TBA: request query: %w", err)
	}
	var pairs [][2]string
	for k, vs := range query {
		for _, v := range vs {
			pairs = append(pairs, [2]string{tbaEncode(k), tbaEncode(v)})
		}
	}
	for k, v := range params {
		if k == "realm" || k == "oauth_signature" {
			continue
		}
		pairs = append(pairs, [2]string{tbaEncode(k), tbaEncode(v)})
	}
	// Sorted by encoded name, then encoded value (RFC 5849 §3.4.1.3.2).
	slices.SortFunc(pairs, func(a, b [2]string) int {
		if c := strings.Compare(a[0], b[0]); c != 0 {
			return c
		}
		return strings.Compare(a[1], b[1])
	})
	norm := make([]string, len(pairs))
	for i, p := range pairs {
		norm[i] = p[0] + "=" + p[1]
	}
	return strings.ToUpper(method) + "&" + tbaEncode(scheme+"://"+host+path) + "&" + tbaEncode(strings.Join(norm, "&")), nil
}

// tbaEncode is RFC 3986 percent-encoding as OAuth 1.0a uses it: every
// byte but ALPHA, DIGIT, "-", ".", "_" and "~" becomes %XX (upper-case
// hex). url.QueryEscape differs (space as "+", "~" escaped), which breaks
// signatures.
func tbaEncode(s string) string {
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'A' <= c && c <= 'Z' || 'a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '-' || c == '.' || c == '_' || c == '~' {
			b.WriteByte(c)
			continue
		}
		b.WriteByte('%')
		b.WriteByte(hex[c>>4])
		b.WriteByte(hex[c&15])
	}
	return b.String()
}

const (
	// m2mAssertionType is the client_assertion_type NetSuite requires.
	m2mAssertionType = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"
	// m2mAssertionLife is the assertion's exp - iat. NetSuite's "The
	// Request Token Structure" requires exp to be less than 60 minutes
	// after iat; 55 minutes stays clear of that and still tolerates a
	// clock some minutes off NetSuite's.
	m2mAssertionLife = 55 * time.Minute
	// m2mRefreshMargin renews a token this long before it expires, so a
	// request never leaves with a token that dies on the way.
	m2mRefreshMargin = 60 * time.Second
	// m2mMaxTokenLife caps a token's announced life: a corrupt expires_in
	// must not pin a token for years.
	m2mMaxTokenLife = 24 * time.Hour
	// m2mFetchTimeout bounds a token fetch, which runs detached from any
	// one caller's context (callers share it).
	m2mFetchTimeout = 30 * time.Second
	// m2mMaxAnswer bounds how much of the token endpoint's answer is read.
	m2mMaxAnswer = 1 << 20
)

// M2M authorizes requests with an OAuth 2.0 access token obtained by the
// client credentials flow ("machine to machine"): a JWT assertion signed
// with the private key whose certificate is mapped to the integration in
// NetSuite. The token is cached and reused until a minute before it
// expires; concurrent callers wait for one shared fetch. An M2M must not
// be copied after first use.
type M2M struct {
	TokenURL string           // https://<account>.suitetalk.api.netsuite.com/services/rest/auth/oauth2/v1/token; also the assertion's aud
	ClientID string           // the integration's client id; the assertion's iss
	CertID   string           // the certificate id from the M2M mapping; the assertion's kid
	Key      crypto.Signer    // *rsa.PrivateKey (signs PS256) or *ecdsa.PrivateKey on P-256 (signs ES256)
	Scopes   []string         // nil means restlets and rest_webservices
	HTTP     *http.Client     // nil means http.DefaultClient
	Now      func() time.Time // clock for iat, exp and the cache (called concurrently); nil means time.Now

	mu        sync.Mutex
	cached    string        // the current access token, "" before the first fetch
	refreshAt time.Time     // when cached stops being used
	inflight  *m2mTokenCall // the fetch under way, nil when none
}

// m2mTokenCall is one token fetch that every caller arriving while it runs
// waits for; tok and err are set before done is closed.
type m2mTokenCall struct {
	done chan struct{}
	tok  string
	err  error
}

// Authorize sets req's Authorization header to "Bearer <access token>",
// fetching a token first when none is cached or the cached one is within a
// minute of expiring. A refusal from the token endpoint comes back as an
// error wrapping *erp.Error with NetSuite's status, code and message,
// permanent for a 4xx refusal such as invalid_grant (not to be retried: each
// try is a failed login); it never contains the assertion or the key. If ctx ends while a fetch is
// under way, Authorize returns ctx's error and the fetch carries on for
// the other callers.
func (m *M2M) Authorize(ctx context.Context, req *http.Request) error {
	_, _, err := m.authorizeFresh(ctx, req)
	return err
}

// Invalidate drops the cached access token, so the next request fetches
// a new one: NetSuite answered 401 to it (revoked, or the integration's
// role changed).
func (m *M2M) Invalidate() {
	m.mu.Lock()
	m.cached = ""
	m.mu.Unlock()
}

// authorizeFresh is Authorize that also returns the token it set and
// whether it was fetched for this call (or a fetch this call waited
// for) rather than taken from the cache: the Client renews a cached
// token NetSuite refuses, once, but never retries a fresh one.
func (m *M2M) authorizeFresh(ctx context.Context, req *http.Request) (tok string, fresh bool, err error) {
	tok, fresh, err = m.accessToken(ctx)
	if err != nil {
		return "", false, err
	}
	req.Header.Set("Authorization", "Bearer "+tok)
	return tok, fresh, nil
}

// invalidateToken drops tok if it is still the cached token; a newer
// token another caller fetched meanwhile is kept.
func (m *M2M) invalidateToken(tok string) {
	m.mu.Lock()
	if m.cached == tok {
		m.cached = ""
	}
	m.mu.Unlock()
}

func (m *M2M) now() time.Time {
	if m.Now != nil {
		return m.Now()
	}
	return time.Now()
}

// accessToken returns the cached token, or waits for a fetch (fresh).
func (m *M2M) accessToken(ctx context.Context) (tok string, fresh bool, err error) {
	m.mu.Lock()
	if m.cached != "" && m.now().Before(m.refreshAt) {
		tok := m.cached
		m.mu.Unlock()
		return tok, false, nil
	}
	call := m.inflight
	if call == nil {
		call = &m2mTokenCall{done: make(chan struct{})}
		m.inflight = call
		// Detached from ctx: one caller giving up must not fail the
		// fetch the others are waiting for.
		go m.fetch(context.WithoutCancel(ctx), call)
	}
	m.mu.Unlock()
	select {
	case <-call.done:
		return call.tok, true, call.err
	case <-ctx.Done():
		return "", false, ctx.Err()
	}
}

func (m *M2M) fetch(ctx context.Context, call *m2mTokenCall) {
	ctx, cancel := context.WithTimeout(ctx, m2mFetchTimeout)
	defer cancel()
	tok, refreshAt, err := m.requestToken(ctx)
	m.mu.Lock()
	if err == nil {
		m.cached, m.refreshAt = tok, refreshAt
	}
	m.inflight = nil
	m.mu.Unlock()
	call.tok, call.err = tok, err
	close(call.done)
}

// requestToken posts a fresh assertion to the token endpoint and returns
// the access token and when to stop using it.
func (m *M2M) requestToken(ctx context.Context) (string, time.Time, error) {
	switch {
	case m.TokenURL == "":
		return "", time.Time{}, errors.New("netsuite: M2M: TokenURL is empty")
	case m.ClientID == "":
		return "", time.Time{}, errors.New("netsuite: M2M: ClientID is empty")
	case m.CertID == "":
		return "", time.Time{}, errors.New("netsuite: M2M: CertID is empty")
	}
	now := m.now()
	assertion, err := m.assertion(now)
	if err != nil {
		return "", time.Time{}, err
	}
	form := url.Values{
		"grant_type":            {"client_credentials"},
		"client_assertion_type": {m2mAssertionType},
		"client_assertion":      {assertion},
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, m.TokenURL, strings.NewReader(form.Encode()))
	if err != nil {
		return "", time.Time{}, fmt.Errorf("netsuite: M2M: %w", err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Accept", "application/json")
	client := m.HTTP
	if client == nil {
		client = http.DefaultClient
	}
	resp, err := client.Do(req)
	if err != nil {
		// *url.Error names the method and URL, never the form.
		return "", time.Time{}, fmt.Errorf("netsuite: M2M token request: %w", &erp.Error{Err: err})
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, m2mMaxAnswer))
	if err != nil {
		return "", time.Time{}, fmt.Errorf("netsuite: M2M token request: %w", &erp.Error{Status: resp.StatusCode, Err: err})
	}
	if resp.StatusCode/100 != 2 {
		return "", time.Time{}, fmt.Errorf("netsuite: %w: %w", errTokenRefused, tokenError(resp.StatusCode, body))
	}
	var ans struct {
		AccessToken string      `json:"access_token"`
		ExpiresIn   json.Number `json:"expires_in"` // NetSuite has sent both 3600 and "3600"
		TokenType   string      `json:"token_type"`
	}
	if err := json.Unmarshal(body, &ans); err != nil {
		return "", time.Time{}, badTokenAnswer(resp.StatusCode, "is not the expected JSON: "+err.Error())
	}
	if ans.AccessToken == "" {
		return "", time.Time{}, badTokenAnswer(resp.StatusCode, "has no access_token")
	}
	if ans.TokenType != "" && !strings.EqualFold(ans.TokenType, "bearer") {
		return "", time.Time{}, badTokenAnswer(resp.StatusCode, fmt.Sprintf("has token_type %q, want bearer", ans.TokenType))
	}
	secs, err := ans.ExpiresIn.Int64()
	if err != nil || secs <= 0 {
		return "", time.Time{}, badTokenAnswer(resp.StatusCode, fmt.Sprintf("has expires_in %q, want a positive number of seconds", ans.ExpiresIn.String()))
	}
	life := time.Duration(min(secs, int64(m2mMaxTokenLife/time.Second))) * time.Second
	return ans.AccessToken, now.Add(life - m2mRefreshMargin), nil
}

// errTokenRefused marks (errors.Is) an error answer of the token
// endpoint; with erp.IsPermanent it is NetSuite refusing the client
// credentials, a failed login in its Login Audit Trail.
var errTokenRefused = errors.New("M2M token request refused")

// badTokenAnswer is a 2xx answer of the token endpoint that is not a
// usable token: a transient *erp.Error (a proxy's page, a cut-off body),
// not a refusal of the credentials.
func badTokenAnswer(status int, what string) error {
	return fmt.Errorf("netsuite: M2M token answer %s: %w", what, &erp.Error{Status: status, Detail: "unexpected answer from the token endpoint"})
}

// tokenError turns a non-2xx answer of the token endpoint into an
// *erp.Error carrying NetSuite's own words: the OAuth form
// {"error","error_description"} or the REST envelope {"o:errorDetails"}.
// Other bodies are not quoted (they are not NetSuite's text and could
// echo anything); the status text stands in for them. A refusal
// (invalid_grant, invalid_client, invalid_request, INVALID_LOGIN: any
// 4xx but 408 and 429) is permanent: every retry would be one more
// failed login in NetSuite's Login Audit Trail, and enough of them lock
// the integration user out. 429, 408 and 5xx are worth another try.
func tokenError(status int, body []byte) *erp.Error {
	e := &erp.Error{Status: status, Throttled: status == http.StatusTooManyRequests}
	e.Permanent = status/100 == 4 && status != http.StatusTooManyRequests && status != http.StatusRequestTimeout
	var ans struct {
		Error       string `json:"error"`
		Description string `json:"error_description"`
		Title       string `json:"title"`
		Details     []struct {
			Detail string `json:"detail"`
			Code   string `json:"o:errorCode"`
		} `json:"o:errorDetails"`
	}
	switch {
	case json.Unmarshal(body, &ans) != nil:
		e.Detail = http.StatusText(status)
	case ans.Error != "":
		e.Code, e.Detail = ans.Error, ans.Description
		if e.Detail == "" {
			// NetSuite often answers {"error":"invalid_grant"} alone.
			e.Detail = "no description given; the Login Audit Trail has the reason"
		}
	case len(ans.Details) > 0:
		e.Code, e.Detail = ans.Details[0].Code, ans.Details[0].Detail
	default:
		e.Detail = ans.Title
		if e.Detail == "" {
			e.Detail = http.StatusText(status)
		}
	}
	return e
}

// assertion returns the signed client assertion NetSuite's token endpoint
// expects (see "The Request Token Structure" in NetSuite's help).
func (m *M2M) assertion(now time.Time) (string, error) {
	method, err := m2mSigningMethod(m.Key)
	if err != nil {
		return "", err
	}
	scopes := m.Scopes
	if scopes == nil {
		scopes = []string{"restlets", "rest_webservices"}
	}
	tok := jwt.NewWithClaims(method, jwt.MapClaims{
		"iss": m.ClientID,
		// One string, the scopes separated by commas, as "The Request
		// Token Structure" defines it (its sample request shows an
		// array, which the table does not).
		"scope": strings.Join(scopes, ","),
		"aud":   m.TokenURL, // a string, as in NetSuite's examples, not a one-element array
		"iat":   now.Unix(),
		"exp":   now.Add(m2mAssertionLife).Unix(),
		"jti":   rand.Text(),
	})
	tok.Header["kid"] = m.CertID
	s, err := tok.SignedString(m.Key)
	if err != nil {
		return "", fmt.Errorf("netsuite: M2M: signing the assertion: %w", err)
	}
	return s, nil
}

// m2mSigningMethod picks the JWT algorithm for a key: PS256 for RSA, ES256
// for ECDSA on P-256; other keys NetSuite or this client cannot use are
// refused here rather than at the token endpoint.
func m2mSigningMethod(key crypto.Signer) (jwt.SigningMethod, error) {
	switch k := key.(type) {
	case *rsa.PrivateKey:
		if k != nil {
			return jwt.SigningMethodPS256, nil
		}
	case *ecdsa.PrivateKey:
		if k != nil {
			if k.Curve != elliptic.P256() {
				return nil, errors.New("netsuite: M2M: the ECDSA key is not on P-256, the curve ES256 needs")
			}
			return jwt.SigningMethodES256, nil
		}
	case nil:
	default:
		return nil, fmt.Errorf("netsuite: M2M: unsupported key type %T, want an RSA key (PS256) or an ECDSA P-256 key (ES256)", key)
	}
	return nil, errors.New("netsuite: M2M: no private key")
}

// ParsePrivateKey reads the private key of an M2M certificate from PEM:
// the first "PRIVATE KEY" (PKCS #8), "RSA PRIVATE KEY" (PKCS #1) or "EC
// PRIVATE KEY" (SEC 1) block, skipping others such as "EC PARAMETERS" or
// "CERTIFICATE". It returns an *rsa.PrivateKey or an *ecdsa.PrivateKey on
// P-256, and refuses encrypted keys and key types M2M cannot sign with.
// Errors never quote the key.
func ParsePrivateKey(data []byte) (crypto.Signer, error) {
	for rest := data; ; {
		var block *pem.Block
		block, rest = pem.Decode(rest)
		if block == nil {
			return nil, errors.New("netsuite: no PRIVATE KEY, RSA PRIVATE KEY or EC PRIVATE KEY PEM block found")
		}
		if block.Type == "ENCRYPTED PRIVATE KEY" || block.Headers["Proc-Type"] != "" {
			return nil, errors.New("netsuite: the private key is encrypted; decrypt it first (openssl pkey -in key.pem -out plain.pem)")
		}
		var key any
		var err error
		switch block.Type {
		case "PRIVATE KEY":
			key, err = x509.ParsePKCS8PrivateKey(block.Bytes)
		case "RSA PRIVATE KEY":
			key, err = x509.ParsePKCS1PrivateKey(block.Bytes)
		case "EC PRIVATE KEY":
			key, err = x509.ParseECPrivateKey(block.Bytes)
		default:
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("netsuite: parsing the %s PEM block: %w", block.Type, err)
		}
		signer, ok := key.(crypto.Signer)
		if !ok {
			return nil, fmt.Errorf("netsuite: unsupported key type %T, want an RSA key or an ECDSA P-256 key", key)
		}
		if _, err := m2mSigningMethod(signer); err != nil {
			return nil, err
		}
		return signer, nil
	}
}
