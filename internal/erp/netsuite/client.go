// Package netsuite is the ERP connector for Oracle NetSuite, over its REST
// web services: SuiteQL (POST /services/rest/query/v1/suiteql) to read
// kinds page by page, the REST record API (/services/rest/record/v1) to
// read one record and to create and edit, and a RESTlet for files and saved
// searches. Requests are signed with OAuth 2.0 client credentials (M2M) or
// Token-Based Authentication (TBA); throttling (429, RESTlet request
// limits) and server errors are retried with jittered back-off, and the
// account's concurrency limit is never exceeded. A refused login is never
// retried (see Config.AuthHold).
package netsuite

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptrace"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/portico/portico/internal/erp"
)

// Config configures a Client.
type Config struct {
	// Account is the account id, e.g. 123456 or 123456_SB1 (a sandbox).
	Account string
	// BaseURL overrides https://<account host>.suitetalk.api.netsuite.com
	// (a proxy, a test double).
	BaseURL string
	// Auth signs every request: an *M2M or a TBA.
	Auth Authorizer
	// Mapping places the kinds in the account; DefaultMapping when nil.
	Mapping *Mapping
	// Concurrency is the most requests in flight at once: at most the
	// account's limit (5 on a standard account, more with SuiteCloud
	// Plus licences) minus what other integrations use. Default 3.
	Concurrency int
	// PageSize is the SuiteQL page size, 1..1000. Default 1000.
	PageSize int
	// Attempts is how often one request is tried when it is throttled or
	// fails transiently. Default 6.
	Attempts int
	// Backoff is the first retry's delay; it doubles per attempt (see
	// erp.Backoff) up to 30 s. Default 500 ms.
	Backoff time.Duration
	// AuthHold is how long requests fail at once, unsent, after NetSuite
	// refused the credentials (401 INVALID_LOGIN, or the token endpoint's
	// invalid_grant and the like): each refused request is a failed login
	// in NetSuite's Login Audit Trail, and enough of them lock the
	// integration user out. Default 5 minutes; negative disables it.
	AuthHold time.Duration
	// RESTletScript and RESTletDeploy name the portal's RESTlet
	// (restlet/portico_restlet.js); files and saved searches need it.
	RESTletScript, RESTletDeploy string
	// RESTletURL overrides the RESTlets' base URL,
	// https://<account host>.restlets.api.netsuite.com. When it is empty
	// and BaseURL is set, RESTlets go to BaseURL too (a proxy or a test
	// double serves both).
	RESTletURL string
	// HTTP is the client requests go through; a 60 s timeout by default.
	HTTP *http.Client
	// Logger gets retries (debug); nothing is logged when nil.
	Logger *slog.Logger
}

// Client is a NetSuite connector. It implements erp.Connector.
type Client struct {
	cfg  Config
	base string
	m    *Mapping
	sem  chan struct{}
	log  *slog.Logger

	// restlet is the RESTlets' base URL (no trailing slash).
	restlet string

	// fit is what the client learnt of the account's columns.
	fit fit

	// clock counts the records whose two last-modified times disagreed.
	clock clockWatch

	// cur holds the account's currencies and subsidiaries, as last read.
	cur moneyCache
	// co holds the company's profile, as last read.
	co companyCache

	// fieldIDs caches, per record type, the record API's field ids by
	// their lower-case spelling (documentIDs).
	fieldIDs sync.Map

	// refusedMu guards refused and refusedUntil: NetSuite's last refusal
	// of the credentials and until when requests are not sent.
	refusedMu    sync.Mutex
	refused      *erp.Error
	refusedUntil time.Time
}

var (
	_ erp.Connector = (*Client)(nil)
	_ erp.Files     = (*Client)(nil)
)

var accountID = regexp.MustCompile(`^[0-9]+(_[A-Za-z0-9]+)?$`)

// ValidAccount reports whether id is an account id: digits, and for a
// sandbox or release-preview account a suffix such as _SB1.
func ValidAccount(id string) bool { return accountID.MatchString(id) }

// AccountHost is the host-name form of an account id: 123456_SB1 →
// 123456-sb1, as NetSuite's service URLs spell it.
func AccountHost(account string) string {
	return strings.ToLower(strings.ReplaceAll(account, "_", "-"))
}

// RESTBaseURL is the account's REST web services URL,
// https://<account host>.suitetalk.api.netsuite.com.
func RESTBaseURL(account string) string {
	return "https://" + AccountHost(account) + ".suitetalk.api.netsuite.com"
}

// UIBaseURL is the origin of the account's NetSuite UI, where a record's
// page opens: https://<account host>.app.netsuite.com.
func UIBaseURL(account string) string {
	return "https://" + AccountHost(account) + ".app.netsuite.com"
}

// New checks cfg and returns a Client.
func New(cfg Config) (*Client, error) {
	if !ValidAccount(cfg.Account) {
		return nil, fmt.Errorf("netsuite: account id %q: use the form 123456 or 123456_SB1", cfg.Account)
	}
	if cfg.Auth == nil {
		return nil, errors.New("netsuite: no credentials configured")
	}
	base := cfg.BaseURL
	if base == "" {
		base = RESTBaseURL(cfg.Account)
	}
	u, err := url.Parse(base)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		return nil, fmt.Errorf("netsuite: base URL %q is not an http(s) URL", base)
	}
	restlet, err := restletBase(cfg)
	if err != nil {
		return nil, err
	}
	if cfg.Mapping == nil {
		if cfg.Mapping, err = ParseMapping(DefaultMapping); err != nil {
			return nil, err
		}
	}
	if cfg.Concurrency <= 0 {
		cfg.Concurrency = 3
	}
	if cfg.PageSize <= 0 || cfg.PageSize > 1000 {
		cfg.PageSize = 1000
	}
	if cfg.Attempts <= 0 {
		cfg.Attempts = 6
	}
	if cfg.Backoff <= 0 {
		cfg.Backoff = 500 * time.Millisecond
	}
	if cfg.AuthHold == 0 {
		cfg.AuthHold = 5 * time.Minute
	}
	if cfg.HTTP == nil {
		cfg.HTTP = &http.Client{Timeout: 60 * time.Second}
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	return &Client{cfg: cfg, base: strings.TrimRight(base, "/"), restlet: restlet, m: cfg.Mapping,
		sem: make(chan struct{}, cfg.Concurrency), log: cfg.Logger}, nil
}

// request is one call: method, path (with query) under the base URL (or
// under base when it is set), a JSON body, extra headers.
type request struct {
	method, path string
	body         any
	header       http.Header
	base         string
}

// response is what a successful call answered.
type response struct {
	status int
	header http.Header
	body   []byte
}

// maxBody bounds what one answer may be: a SuiteQL page of 1000 wide rows
// is a few megabytes.
const maxBody = 64 << 20

// do sends r, retrying throttled and transient failures, and returns the
// first 2xx answer or the last error (an *erp.Error).
func (c *Client) do(ctx context.Context, r request) (response, error) {
	var resp response
	err := c.retry(ctx, r.method+" "+pathOnly(r.path), func() (err error) {
		resp, err = c.once(ctx, r)
		return err
	})
	return resp, err
}

// tokenCache is an Authorizer holding an access token (*M2M): it tells
// whether the token it set was fetched for this call, and drops a token
// NetSuite refused.
type tokenCache interface {
	authorizeFresh(ctx context.Context, req *http.Request) (tok string, fresh bool, err error)
	invalidateToken(tok string)
}

// sentAuth is how a request was authorized: with a token from cache
// (fresh false) or fetched for it; cache nil for TBA and other
// authorizers.
type sentAuth struct {
	cache tokenCache
	token string
	fresh bool
}

func isUnauthorized(err error) bool {
	e, ok := errors.AsType[*erp.Error](err)
	return ok && e.Status == http.StatusUnauthorized
}

// refusedLogin reports whether err is NetSuite refusing the credentials
// for good: a final 401, or a permanent refusal from the token endpoint.
func refusedLogin(err error) bool {
	e, ok := errors.AsType[*erp.Error](err)
	if !ok || !e.Permanent {
		return false
	}
	return e.Status == http.StatusUnauthorized || errors.Is(err, errTokenRefused)
}

// holdBack remembers NetSuite's refusal, so requests for the next
// AuthHold fail without being sent.
func (c *Client) holdBack(err error) {
	if c.cfg.AuthHold < 0 {
		return
	}
	e, _ := errors.AsType[*erp.Error](err)
	until := time.Now().Add(c.cfg.AuthHold)
	c.refusedMu.Lock()
	c.refused, c.refusedUntil = e, until
	c.refusedMu.Unlock()
	c.log.Warn("netsuite refused the credentials; requests are held back", "until", until.Format(time.RFC3339), "err", err)
}

// heldBack returns the refusal requests are held back for, with
// NetSuite's status, code and message, or nil.
func (c *Client) heldBack() error {
	c.refusedMu.Lock()
	defer c.refusedMu.Unlock()
	if c.refused == nil || !time.Now().Before(c.refusedUntil) {
		return nil
	}
	e := *c.refused
	e.Permanent, e.Throttled = true, false
	e.Err = fmt.Errorf("not sent: NetSuite refused the credentials, so no request goes until %s (fix the credentials, the role or the account id)",
		c.refusedUntil.Format(time.RFC3339))
	return &e
}

// retry calls try until it succeeds, fails for good (not an *erp.Error, or
// a permanent one) or Attempts run out, waiting erp.Backoff between tries.
func (c *Client) retry(ctx context.Context, what string, try func() error) error {
	for attempt := 1; ; attempt++ {
		err := try()
		if err == nil {
			return nil
		}
		var e *erp.Error
		if !errors.As(err, &e) || e.Permanent || ctx.Err() != nil || attempt >= c.cfg.Attempts {
			return err
		}
		delay := erp.Backoff(c.cfg.Backoff, attempt, 30*time.Second)
		c.log.Debug("netsuite retry", "call", what, "attempt", attempt, "delay", delay, "err", err)
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(delay):
		}
	}
}

// once sends r one time, holding a concurrency slot while it is in flight.
//
// A refused login is final: a 401 (INVALID_LOGIN) is not retried, with one
// exception: when the request carried a cached M2M access token, the token
// is dropped and the request sent once more with a new one (a token can
// be revoked or expire early). A 401 on a token fetched for the request
// is final. After a refusal, requests fail at once for Config.AuthHold
// without reaching NetSuite.
func (c *Client) once(ctx context.Context, r request) (response, error) {
	if err := c.heldBack(); err != nil {
		return response{}, err
	}
	resp, used, err := c.send(ctx, r)
	if isUnauthorized(err) && used.cache != nil && !used.fresh {
		used.cache.invalidateToken(used.token)
		c.log.Debug("netsuite: cached access token refused; fetching a new one", "call", r.method+" "+pathOnly(r.path))
		resp, _, err = c.send(ctx, r)
	}
	if refusedLogin(err) {
		c.holdBack(err)
	}
	return resp, err
}

// send is one try of r, and how it was authorized.
func (c *Client) send(ctx context.Context, r request) (response, sentAuth, error) {
	var used sentAuth
	var body io.Reader
	if r.body != nil {
		b, err := json.Marshal(r.body)
		if err != nil {
			return response{}, used, fmt.Errorf("netsuite: encode request: %w", err)
		}
		body = bytes.NewReader(b)
	}
	base := c.base
	if r.base != "" {
		base = r.base
	}
	// net/http resends a GET by itself when a reused connection closes
	// before the answer, with the same Authorization header: a TBA nonce
	// NetSuite may have seen already, so a 401 to the resend is not a
	// verdict on the credentials. Counting the connections the request
	// took tells a resend.
	var conns atomic.Int32
	trace := &httptrace.ClientTrace{GotConn: func(httptrace.GotConnInfo) { conns.Add(1) }}
	req, err := http.NewRequestWithContext(httptrace.WithClientTrace(ctx, trace), r.method, base+r.path, body)
	if err != nil {
		return response{}, used, fmt.Errorf("netsuite: %w", err)
	}
	for k, vs := range r.header {
		req.Header[k] = vs
	}
	if req.Header.Get("Accept") == "" {
		req.Header.Set("Accept", "application/json")
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	select {
	case c.sem <- struct{}{}:
	case <-ctx.Done():
		return response{}, used, ctx.Err()
	}
	defer func() { <-c.sem }()
	if tc, ok := c.cfg.Auth.(tokenCache); ok {
		used.cache = tc
		used.token, used.fresh, err = tc.authorizeFresh(ctx, req)
	} else {
		err = c.cfg.Auth.Authorize(ctx, req)
	}
	if err != nil {
		// Nothing was sent: a refusal here is the token endpoint's,
		// not one of a token to renew.
		return response{}, sentAuth{}, authError(ctx, err)
	}
	res, err := c.cfg.HTTP.Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return response{}, used, ctx.Err()
		}
		return response{}, used, &erp.Error{Err: err}
	}
	defer res.Body.Close()
	b, err := io.ReadAll(io.LimitReader(res.Body, maxBody))
	if err != nil {
		return response{}, used, &erp.Error{Status: res.StatusCode, Err: err}
	}
	if res.StatusCode/100 != 2 {
		e := parseError(res.StatusCode, b)
		if res.StatusCode == http.StatusUnauthorized && conns.Load() > 1 {
			// A resend by net/http (see above): worth one more try,
			// signed afresh.
			e.Permanent = false
			used = sentAuth{}
		}
		return response{}, used, e
	}
	return response{status: res.StatusCode, header: res.Header, body: b}, used, nil
}

// authError is what a request that could not be authorized fails with.
// The token endpoint's answers come back as they are (they wrap an
// *erp.Error: a refusal is permanent, a 5xx or a network failure is not);
// anything else is the configuration (a missing credential, an unusable
// key), which no retry mends.
func authError(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if _, ok := errors.AsType[*erp.Error](err); ok {
		return err
	}
	return &erp.Error{Code: "AUTH", Detail: "could not sign the request", Permanent: true, Err: err}
}

// envelope is NetSuite's REST error answer; restletError a RESTlet's.
type envelope struct {
	Type    string `json:"type"`
	Title   string `json:"title"`
	Status  int    `json:"status"`
	Details []struct {
		Detail string `json:"detail"`
		Code   string `json:"o:errorCode"`
		Path   string `json:"o:errorPath"`
	} `json:"o:errorDetails"`
	// A RESTlet answers {"error": {"code", "message"}}.
	Error *struct {
		Code    string `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// parseError turns an error answer into an *erp.Error: 429 and request
// limits are throttling, 5xx and 408 are transient, other 4xx are the
// request's own fault, a permission the integration lacks or, 401
// (INVALID_LOGIN), refused credentials (permanent; their detail is shown).
// A retried 401 is one more failed login in NetSuite's Login Audit Trail;
// do renews a cached M2M token once, nothing more.
func parseError(status int, body []byte) *erp.Error {
	e := &erp.Error{Status: status}
	var env envelope
	if json.Unmarshal(body, &env) == nil {
		if len(env.Details) > 0 {
			d := env.Details[0]
			e.Code, e.Detail, e.Path = d.Code, d.Detail, d.Path
		} else if env.Error != nil {
			e.Code, e.Detail = env.Error.Code, env.Error.Message
		} else {
			e.Detail = env.Title
		}
	}
	if e.Detail == "" {
		e.Detail = http.StatusText(status)
	}
	switch {
	case status == http.StatusTooManyRequests, e.Code == "SSS_REQUEST_LIMIT_EXCEEDED",
		e.Code == "CONCURRENCY_LIMIT_EXCEEDED":
		e.Throttled = true
	case status >= 500, status == http.StatusRequestTimeout:
		// Server trouble: worth another try. A 403 (the integration
		// role lacks a permission) or a 401 is not.
	default:
		e.Permanent = true
	}
	return e
}

func pathOnly(p string) string {
	if i := strings.IndexByte(p, '?'); i >= 0 {
		return p[:i]
	}
	return p
}
