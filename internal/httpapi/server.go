// Package httpapi is Portico's HTTP edge: routes.go lists the whole surface;
// handlers decode, validate, call a service and encode; errors become RFC
// 9457 problem documents in exactly one place (problem.go).
package httpapi

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"log/slog"
	"net/http"
	"net/netip"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/portico/portico/internal/events"
	"github.com/portico/portico/internal/portal"
	"github.com/portico/portico/internal/records"
	"github.com/portico/portico/internal/session"
	"github.com/portico/portico/internal/tenancy"
)

// Pinger reports whether the database answers.
type Pinger interface {
	Ping(ctx context.Context) error
	Engine() string
}

// TenantsTTL is how long an instance keeps the tenants and their hosts
// before reading them again: a tenant added, given a host or suspended is
// in force on every instance within it.
const TenantsTTL = time.Second

// ClientConfig is what the single-page app learns from the server at start,
// embedded in index.html (so one build serves every tenant and environment).
type ClientConfig struct {
	ProductName string `json:"productName"`
	Environment string `json:"environment"`
	ERP         string `json:"erp"`
	Product     string `json:"product"`
	TenantID    string `json:"tenantId"`
	// CompanyName names the company at this address, on a deployment
	// serving several (the navbar shows it); "" with one.
	CompanyName   string         `json:"companyName,omitempty"`
	ApplicationID string         `json:"applicationId"`
	Identity      IdentityClient `json:"identity"`
}

// IdentityClient is the identity SDK's configuration (SPEC §3). None of it
// is secret: the API key only identifies the project.
type IdentityClient struct {
	APIKey       string `json:"apiKey"`
	AuthDomain   string `json:"authDomain,omitempty"`
	ProjectID    string `json:"projectId"`
	AppID        string `json:"appId,omitempty"`
	EmulatorHost string `json:"emulatorHost,omitempty"`
}

// Options are the server's dependencies.
type Options struct {
	Logger *slog.Logger
	Store  Pinger
	// UI is the built app (index.html at its root, hashed files under
	// assets/). Nil serves no app, only the API.
	UI     fs.FS
	Client ClientConfig
	// Directory, when set, makes the server pick each request's tenant by
	// its address (withTenant): the tenants and their hosts, read again
	// every TenantsTTL. DefaultHosts are the deployment's own addresses
	// (loopback, the public URL's host), where the default tenant
	// (Client.TenantID) answers once there are several.
	Directory    tenancy.Directory
	DefaultHosts []string
	// CSP lists the extra origins the app needs (the identity service).
	CSP CSPSources

	Identity Verifier
	Sessions *session.Manager
	// Tenants returns the store of one tenant.
	Tenants func(portal.TenantID) TenantStore
	// ERP and Product are the {erp} and {product} API path segments.
	ERP, Product string
	// ERPBaseURL is the ERP UI's origin, for "Open in NetSuite" links;
	// ERPBaseURLOf, when set, gives a tenant's own where its account is
	// not the deployment's (a connection of its own).
	ERPBaseURL   string
	ERPBaseURLOf func(portal.TenantID) (string, bool)
	// LoginPerMinuteIP and LoginPerMinuteAccount bound sign-in attempts.
	LoginPerMinuteIP, LoginPerMinuteAccount int
	// RateLimits shares those limits between the instances that use the
	// same one (the database); nil keeps them in this process.
	RateLimits RateLimiter
	// TrustedProxies are the peers (load balancers, reverse proxies) whose
	// forwarding headers name the client (see clientAddr); none by default.
	TrustedProxies []netip.Prefix
	// Instance names this process on every metric series it writes.
	Instance string
	// SessionCacheTTL is how long a session's check is reused (see
	// sessionCache); 0 checks every request.
	SessionCacheTTL time.Duration
	// Equipment lists a project's equipment charges for its cost-details
	// tab; nil when the service is not configured.
	Equipment EquipmentCharges
	// Syncs returns a tenant's ERP sync, or nil for a tenant whose own
	// store is the system of record; nil means no tenant has an ERP.
	Syncs func(portal.TenantID) Syncer
	// MetricsToken opens GET /metrics to a scraper sending it as a bearer
	// token; empty, there is no /metrics. WriteMetrics, when not nil, adds
	// the sync engine's series after the server's own.
	MetricsToken string
	WriteMetrics func(context.Context, io.Writer) error
	// OperatorToken opens the operator API (/operator/v1, operator.go)
	// to a caller sending it as a bearer token; empty, or without
	// Operator, every /operator route is a 404. Operator is its use cases
	// (tenancy.Admin).
	OperatorToken string
	Operator      OperatorService
	// DBTimeout bounds each call a request makes to its tenant's store
	// (boundedStore); zero means DefaultDBTimeout.
	DBTimeout time.Duration
	// Budget is what each tenant's API requests may use of this instance
	// while the deployment serves several (tenancy.Budget; with one
	// tenant nothing is limited).
	Budget tenancy.Budget
	// PublicURL is the origin users reach the portal at; an https one
	// adds Strict-Transport-Security to every answer.
	PublicURL string
	// Events is the live-update hub behind GET /api/v1/events and
	// presence; nil answers those 503.
	Events *events.Hub
	// EventsHeartbeat is how often an idle event stream gets a ping and
	// its session is checked again; zero means 15 s.
	EventsHeartbeat time.Duration
	// DBUnavailable reports whether a store's error is the database out
	// of reach for a moment (sqlstore.Unavailable): such a request is
	// answered 503 with Retry-After, not 500. Nil treats none so.
	DBUnavailable func(error) bool
	// Currency is the base currency (ISO 4217) of a tenant whose ERP
	// account has given none (config's PORTICO_CURRENCY); "" names none,
	// and amounts then show without a currency.
	Currency string
}

// DefaultDBTimeout is the database time a request's store call gets when
// Options.DBTimeout is zero.
const DefaultDBTimeout = 5 * time.Second

// Server is the HTTP handler of the whole product.
type Server struct {
	log    *slog.Logger
	store  Pinger
	spa    *spa
	csp    cspPolicy
	client ClientConfig
	// addresses picks a request's tenant by its host; nil: not by address.
	addresses *tenancy.Live
	// budgets keep each tenant's share of the instance (withBudget).
	budgets  *tenancy.Budgets
	currency string // Options.Currency
	// dbUnavailable is Options.DBUnavailable.
	dbUnavailable func(error) bool
	mux           *http.ServeMux
	identity      Verifier
	sessions      *session.Manager
	tenants       func(portal.TenantID) TenantStore
	loginIP       signInLimit
	loginAccount  signInLimit
	refreshIP     signInLimit
	erp, product  string
	erpBase       string
	erpBases      func(portal.TenantID) (string, bool)
	sessionCache  *sessionCache
	// employees is which employee record each user is, for rules with
	// records.Me: per instance, kept as long as a session check.
	employees    *records.Employees
	details      detailsCache
	syncs        func(portal.TenantID) Syncer
	metricsToken string
	writeMetrics func(context.Context, io.Writer) error
	equipment    EquipmentCharges
	hsts         bool
	events       *events.Hub
	heartbeat    time.Duration
	// draining is closed by Drain: the server is shutting down.
	draining  chan struct{}
	drainOnce sync.Once
	// private lists the patterns behind withAuth, for the test that proves
	// every route but the public ones is guarded.
	private []string

	// limits shares the sign-in limits between instances; nil keeps them
	// in the signInLimits' own buckets.
	limits     RateLimiter
	limitsDown atomic.Bool // the shared limits failed; see take
	dbTimeout  time.Duration
	// trustedProxies are the peers whose forwarding headers are believed.
	trustedProxies []netip.Prefix
	requests       *requestMetrics // for GET /metrics
	chain          http.Handler    // the middleware around mux, built once
	// operatorToken and operatorSvc are Options.OperatorToken and
	// Options.Operator.
	operatorToken string
	operatorSvc   OperatorService
}

// Drain ends the open event streams and any opened later, which their
// clients then open again (on another instance, behind a balancer). It
// is for http.Server.RegisterOnShutdown: a stream never goes idle, and
// the shutdown would otherwise wait its whole grace for it, while the
// other requests in flight finish and answer.
func (s *Server) Drain() { s.drainOnce.Do(func() { close(s.draining) }) }

// NewServer builds the handler. It fails only when the UI bundle is
// malformed (no index.html or no head marker).
func NewServer(o Options) (*Server, error) {
	if o.DBTimeout <= 0 {
		o.DBTimeout = DefaultDBTimeout
	}
	s := &Server{
		log: o.Logger, store: o.Store, client: o.Client, csp: newCSP(o.CSP), mux: http.NewServeMux(),
		identity: o.Identity, sessions: o.Sessions, tenants: o.Tenants, equipment: o.Equipment,
		erp: o.ERP, product: o.Product, erpBase: o.ERPBaseURL, erpBases: o.ERPBaseURLOf, sessionCache: newSessionCache(o.SessionCacheTTL), syncs: o.Syncs,
		employees:    records.NewEmployees(o.SessionCacheTTL),
		metricsToken: o.MetricsToken, writeMetrics: o.WriteMetrics, operatorToken: o.OperatorToken, operatorSvc: o.Operator,
		loginIP: newSignInLimit("login", o.LoginPerMinuteIP), loginAccount: newSignInLimit("login", o.LoginPerMinuteAccount),
		// Every open tab refreshes every few minutes; an office behind one
		// address must not run out.
		refreshIP: newSignInLimit("refresh", 10*o.LoginPerMinuteIP),
		limits:    o.RateLimits, dbTimeout: o.DBTimeout, trustedProxies: o.TrustedProxies,
		requests: newRequestMetrics(o.Instance),
		hsts:     strings.HasPrefix(o.PublicURL, "https://"),
		events:   o.Events, heartbeat: o.EventsHeartbeat, currency: o.Currency, dbUnavailable: o.DBUnavailable,
		draining: make(chan struct{}),
	}
	if s.heartbeat <= 0 {
		s.heartbeat = 15 * time.Second
	}
	if o.Tenants != nil {
		s.tenants = func(t portal.TenantID) TenantStore { return boundedStore{o.Tenants(t), o.DBTimeout} }
	}
	if o.Directory != nil {
		s.addresses = tenancy.NewLive(o.Directory, portal.TenantID(o.Client.TenantID), o.DefaultHosts, TenantsTTL)
		if o.Budget != (tenancy.Budget{}) {
			s.budgets = tenancy.NewBudgets(o.Budget)
		}
	}
	if o.UI != nil {
		var err error
		if s.spa, err = newSPA(o.UI); err != nil {
			return nil, err
		}
	}
	s.routes()
	s.chain = s.withRequestID(s.withClientIP(s.withAccessLog(s.withRecover(s.withSecurityHeaders(s.withCompression(
		s.withProblemDocuments(s.withTenant(s.withBudget(s.withInputPolicy(withRoutePattern(s.mux)))))))))))
	return s, nil
}

// ServeHTTP runs every request through the middleware chain.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.chain.ServeHTTP(w, r)
}

// boundedStore is a tenant's store whose every call runs under its own
// deadline, derived from the request's context: no request holds a
// database connection longer than the timeout, on either engine (both
// drivers interrupt a running statement when its context ends). A call
// that runs out of time is a 503 (CodeUnavailable), not a 500. Each call
// gets the whole timeout, so a CSV export, a page at a time, is bounded
// per page rather than in total.
//
// Its methods, one for each of TenantStore's, are generated
// (bounded_gen.go): TestBoundedStoreIsGenerated fails when the interface
// changes and they are not made again.
type boundedStore struct {
	TenantStore
	timeout time.Duration
}

// bounded runs f under the store's deadline.
func bounded[T any](b boundedStore, ctx context.Context, f func(context.Context) (T, error)) (T, error) {
	c, cancel := context.WithTimeout(ctx, b.timeout)
	defer cancel()
	start := time.Now()
	v, err := f(c)
	chargeDBTime(ctx, time.Since(start))
	if err != nil && ctx.Err() == nil && errors.Is(c.Err(), context.DeadlineExceeded) {
		err = portal.Wrap(portal.CodeUnavailable, err, msgTooSlow)
	}
	return v, err
}

func boundedErr(b boundedStore, ctx context.Context, f func(context.Context) error) error {
	_, err := bounded(b, ctx, func(c context.Context) (struct{}, error) { return struct{}{}, f(c) })
	return err
}

// erpBaseOf is the origin of tenant's ERP UI, for its records' links.
func (s *Server) erpBaseOf(tenant portal.TenantID) string {
	if s.erpBases != nil {
		if base, ok := s.erpBases(tenant); ok {
			return base
		}
	}
	return s.erpBase
}
