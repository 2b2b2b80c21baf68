// Package netsuite is the ERP connector for Oracle NetSuite, over its REST
// web services: SuiteQL (POST /services/rest/query/v1/suiteql) to read
// kinds page by page, the REST record API (/services/rest/record/v1) to
// read one record and to create and edit, and a RESTlet for files and saved
// searches. Requests are signed with OAuth 2.0 client credentials (M2M) or
// Token-Based Authentication (TBA); throttling (429, RESTlet request
// limits) and server errors are retried with jittered back-off, and the
// account's concurrency limit is never exceeded.
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
	"net/url"
	"regexp"
	"strings"
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
func (c *Client) once(ctx context.Context, r request) (response, error) {
	var body io.Reader
	if r.body != nil {
		b, err := json.Marshal(r.body)
		if err != nil {
			return response{}, fmt.Errorf("netsuite: encode request: %w", err)
		}
		body = bytes.NewReader(b)
	}
	base := c.base
	if r.base != "" {
		base = r.base
	}
	req, err := http.NewRequestWithContext(ctx, r.method, base+r.path, body)
	if err != nil {
		return response{}, fmt.Errorf("netsuite: %w", err)
	}
	for k, vs := range r.header {
		req.Header[k] = vs
	}
	req.Header.Set("Accept", "application/json")
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	select {
	case c.sem <- struct{}{}:
	case <-ctx.Done():
		return response{}, ctx.Err()
	}
	defer func() { <-c.sem }()
	if err := c.cfg.Auth.Authorize(ctx, req); err != nil {
		return response{}, &erp.Error{Code: "AUTH", Detail: "could not sign the request", Err: err}
	}
	res, err := c.cfg.HTTP.Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return response{}, ctx.Err()
		}
		return response{}, &erp.Error{Err: err}
	}
	defer res.Body.Close()
	b, err := io.ReadAll(io.LimitReader(res.Body, maxBody))
	if err != nil {
		return response{}, &erp.Error{Status: res.StatusCode, Err: err}
	}
	if res.StatusCode == http.StatusUnauthorized {
		// A cached access token may have been revoked: fetch a new one
		// for the retry.
		if inv, ok := c.cfg.Auth.(interface{ Invalidate() }); ok {
			inv.Invalidate()
		}
	}
	if res.StatusCode/100 != 2 {
		return response{}, parseError(res.StatusCode, b)
	}
	return response{status: res.StatusCode, header: res.Header, body: b}, nil
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
// limits are throttling, 5xx and 401 are transient, other 4xx are the
// request's own fault or a permission the integration lacks (permanent;
// their detail is shown).
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
	case status >= 500, status == http.StatusUnauthorized, status == http.StatusRequestTimeout:
		// Server trouble, an access token to renew: worth another try. A
		// 403 (the integration role lacks a permission) is not.
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
