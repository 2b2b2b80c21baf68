// Package httpapi is Portico's HTTP edge: routes.go lists the whole surface;
// handlers decode, validate, call a service and encode; errors become RFC
// 9457 problem documents in exactly one place (problem.go).
package httpapi

import (
	"context"
	"io"
	"io/fs"
	"log/slog"
	"net/http"
	"time"

	"github.com/portico/portico/internal/portal"
	"github.com/portico/portico/internal/session"
)

// Pinger reports whether the database answers.
type Pinger interface {
	Ping(ctx context.Context) error
	Engine() string
}

// ClientConfig is what the single-page app learns from the server at start,
// embedded in index.html (so one build serves every tenant and environment).
type ClientConfig struct {
	ProductName   string         `json:"productName"`
	Environment   string         `json:"environment"`
	ERP           string         `json:"erp"`
	Product       string         `json:"product"`
	TenantID      string         `json:"tenantId"`
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
	// CSP lists the extra origins the app needs (the identity service).
	CSP CSPSources

	Identity Verifier
	Sessions *session.Manager
	// Tenants returns the store of one tenant.
	Tenants func(portal.TenantID) TenantStore
	// ERP and Product are the {erp} and {product} API path segments.
	ERP, Product string
	// ERPBaseURL is the ERP UI's origin, for "Open in NetSuite" links.
	ERPBaseURL string
	// LoginPerMinuteIP and LoginPerMinuteAccount bound sign-in attempts.
	LoginPerMinuteIP, LoginPerMinuteAccount int
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
	// token; WriteMetrics writes the Prometheus text there. Both or none.
	MetricsToken string
	WriteMetrics func(context.Context, io.Writer) error
}

// Server is the HTTP handler of the whole product.
type Server struct {
	log          *slog.Logger
	store        Pinger
	spa          *spa
	csp          cspPolicy
	client       ClientConfig
	mux          *http.ServeMux
	identity     Verifier
	sessions     *session.Manager
	tenants      func(portal.TenantID) TenantStore
	loginIP      *limiter
	loginAccount *limiter
	refreshIP    *limiter
	erp, product string
	erpBase      string
	sessionCache *sessionCache
	details      detailsCache
	syncs        func(portal.TenantID) Syncer
	metricsToken string
	writeMetrics func(context.Context, io.Writer) error
	equipment    EquipmentCharges
	// private lists the patterns behind withAuth, for the test that proves
	// every route but the public ones is guarded.
	private []string
}

// NewServer builds the handler. It fails only when the UI bundle is
// malformed (no index.html or no head marker).
func NewServer(o Options) (*Server, error) {
	s := &Server{
		log: o.Logger, store: o.Store, client: o.Client, csp: newCSP(o.CSP), mux: http.NewServeMux(),
		identity: o.Identity, sessions: o.Sessions, tenants: o.Tenants, equipment: o.Equipment,
		erp: o.ERP, product: o.Product, erpBase: o.ERPBaseURL, sessionCache: newSessionCache(o.SessionCacheTTL), syncs: o.Syncs,
		metricsToken: o.MetricsToken, writeMetrics: o.WriteMetrics,
		loginIP: newLimiter(o.LoginPerMinuteIP), loginAccount: newLimiter(o.LoginPerMinuteAccount),
		// Every open tab refreshes every few minutes; an office behind one
		// address must not run out.
		refreshIP: newLimiter(10 * o.LoginPerMinuteIP),
	}
	if o.UI != nil {
		var err error
		if s.spa, err = newSPA(o.UI); err != nil {
			return nil, err
		}
	}
	s.routes()
	return s, nil
}

// ServeHTTP runs every request through the middleware chain.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.handler().ServeHTTP(w, r)
}

func (s *Server) handler() http.Handler {
	return s.withRequestID(s.withAccessLog(s.withRecover(s.withSecurityHeaders(s.mux))))
}
