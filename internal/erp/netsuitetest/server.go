// Package netsuitetest is an in-process fake NetSuite account for tests
// and benchmarks of the NetSuite connector: an http.Handler serving
// SuiteQL, the REST record API, the portal's RESTlet and the OAuth 2.0
// token endpoint with NetSuite's documented wire format (string values,
// absent nulls, paging links, 204 + Location, the error envelope), checking
// TBA signatures and M2M tokens, enforcing a concurrency limit, and
// injecting faults on demand. Its records are seeded with the demo
// generator (it is a demo.Sink) and changed by tests through Put, Update
// and Delete, as people working in NetSuite would change them.
package netsuitetest

import (
	"math/rand/v2"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/portico/portico/internal/records"
)

// The endpoints, as paths under the account's base URL (NetSuite's is
// https://<account>.suitetalk.api.netsuite.com).
const (
	SuiteQLPath = "/services/rest/query/v1/suiteql"     // POST: one page of a SuiteQL query
	RecordPath  = "/services/rest/record/v1/"           // prefix of /{type} and /{type}/{id}
	TokenPath   = "/services/rest/auth/oauth2/v1/token" // the OAuth 2.0 token endpoint (M2M)
	RESTletPath = "/app/site/hosting/restlet.nl"        // the portal's RESTlet, ?script=&deploy=
)

// The RESTlet ids the fake answers under when Config leaves them empty:
// the script and deployment ids the portal's RESTlet is installed with.
const (
	DefaultRESTletScript = "customscript_portico_restlet" // the script= argument
	DefaultRESTletDeploy = "customdeploy_portico_restlet" // the deploy= argument
)

// DefaultConcurrency is a standard NetSuite account's limit on concurrent
// web services requests.
const DefaultConcurrency = 5

// Config configures a Server. The zero Config is a valid account that
// refuses every request for want of credentials.
type Config struct {
	// Schema is the account's record types and lists; nil means
	// DefaultAccount.
	Schema *Schema
	// Location is the integration user's Time Zone preference: SuiteQL
	// writes date-times (TO_CHAR, and bare columns) in it and reads
	// TO_TIMESTAMP literals in it, while the record API gives UTC
	// (account.yaml's [7], [8]); nil means UTC.
	Location *time.Location
	// DateFormat is the integration user's Date Format preference, in
	// NetSuite's notation (DD/MM/YYYY, D.M.YYYY, YYYY-MM-DD, ...): how
	// SuiteQL writes a date or date-time column read without TO_CHAR
	// (account.yaml's [8]); "" means DefaultDateFormat (M/D/YYYY).
	DateFormat string
	// TBA and M2M verify the two kinds of credentials; a request must
	// pass one of them (a nil verifier accepts nothing). M2M also serves
	// the token endpoint.
	TBA *TBAVerifier
	M2M *M2MVerifier
	// Concurrency is the most requests served at once; 0 means
	// DefaultConcurrency.
	Concurrency int
	// Now is the account's clock (Modified times, deletions, credential
	// checks); nil means time.Now.
	Now func() time.Time
	// RESTletScript and RESTletDeploy identify the portal's RESTlet; ""
	// means the defaults.
	RESTletScript, RESTletDeploy string
	// Seed seeds the random choice of injected faults, so a failing
	// run can be repeated.
	Seed uint64
}

// Server is the fake account. It is safe for concurrent use.
type Server struct {
	schema                       *Schema
	loc                          *time.Location
	dateLayout                   string // the Date Format preference as a Go layout
	clock                        func() time.Time
	tba                          *TBAVerifier
	m2m                          *M2MVerifier
	restletScript, restletDeploy string

	mu       sync.RWMutex
	statics  map[string]*static      // currency, subsidiary: SuiteQL tables from the schema
	types    map[string]*typeStore   // by record type
	byKind   map[string]*typeStore   // by portal kind name (the registry's ERP type), for seeding
	tables   map[string][]*typeStore // by SuiteQL table
	maxID    map[string]int64        // by table
	deleted  []deletion
	files    map[int64]records.File
	searches map[string]SavedSearch
	adds     additions // what the RESTlet's POST actions added
	idem     map[string]*idemEntry
	unkeyed  int

	limit, inflight atomic.Int64
	faults          faultState
	stats           counters
}

// New returns an empty account (seed it with demo.Generate or Put).
func New(cfg Config) (*Server, error) {
	sc := cfg.Schema
	if sc == nil {
		var err error
		if sc, err = LoadSchema(DefaultAccount); err != nil {
			return nil, err
		}
	}
	loc := cfg.Location
	if loc == nil {
		loc = time.UTC
	}
	if err := checkMoney(sc); err != nil {
		return nil, err
	}
	format := cfg.DateFormat
	if format == "" {
		format = DefaultDateFormat
	}
	layout, err := dateLayout(format)
	if err != nil {
		return nil, err
	}
	s := &Server{
		schema: sc, loc: loc, dateLayout: layout, statics: statics(sc), clock: cfg.Now, tba: cfg.TBA, m2m: cfg.M2M,
		restletScript: cfg.RESTletScript, restletDeploy: cfg.RESTletDeploy,
		types: map[string]*typeStore{}, byKind: map[string]*typeStore{}, tables: map[string][]*typeStore{},
		maxID: map[string]int64{}, files: map[int64]records.File{}, searches: map[string]SavedSearch{},
		idem: map[string]*idemEntry{},
	}
	if s.clock == nil {
		s.clock = time.Now
	}
	if s.restletScript == "" {
		s.restletScript = DefaultRESTletScript
	}
	if s.restletDeploy == "" {
		s.restletDeploy = DefaultRESTletDeploy
	}
	for _, ts := range s.schema.Types {
		st := &typeStore{schema: ts, byID: map[int64]*rec{}, byExt: map[string]*rec{}}
		s.types[ts.RecordType] = st
		s.tables[ts.Table] = append(s.tables[ts.Table], st)
	}
	// The demo generator and the file cabinet name records by the
	// portal's kinds: each is the record type the registry names.
	for _, k := range records.All() {
		if st := s.lookupType(k.ERPType); st != nil {
			s.byKind[k.Name] = st
		}
	}
	s.SetConcurrency(cfg.Concurrency)
	s.faults.rng = rand.New(rand.NewPCG(cfg.Seed, cfg.Seed^0x9e3779b97f4a7c15))
	return s, nil
}

// Schema returns the schema the fake serves.
func (s *Server) Schema() *Schema { return s.schema }

// SetConcurrency changes the concurrency limit (n <= 0 means
// DefaultConcurrency); requests already in flight are not affected.
func (s *Server) SetConcurrency(n int) {
	if n <= 0 {
		n = DefaultConcurrency
	}
	s.limit.Store(int64(n))
}

// ServeHTTP serves the account's endpoints. Every request but the token
// endpoint's must carry valid TBA or Bearer credentials, and takes one of
// the account's concurrent-request slots while it is served.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.stats.requests.Add(1)
	path := r.URL.Path
	if path == TokenPath {
		if s.m2m == nil {
			writeError(w, newAPIError(http.StatusNotFound, "NOT_FOUND", "OAuth 2.0 is not enabled for this account."))
			return
		}
		s.m2m.ServeToken(w, r)
		return
	}
	restlet := path == RESTletPath
	n := s.inflight.Add(1)
	defer s.inflight.Add(-1)
	s.stats.noteInFlight(n)
	if n > s.limit.Load() {
		s.stats.concurrencyRejected.Add(1)
		s.writeThrottled(w, restlet)
		return
	}
	if !s.authenticated(r) {
		s.stats.authFailures.Add(1)
		WriteInvalidLogin(w)
		return
	}
	f := s.faults.draw()
	if f.delay > 0 {
		s.stats.slowed.Add(1)
		select {
		case <-time.After(f.delay):
		case <-r.Context().Done():
			return
		}
	}
	if s.injectFault(w, f.kind, restlet) {
		return
	}
	s.stats.served.Add(1)
	switch {
	case path == SuiteQLPath:
		s.serveSuiteQL(w, r)
	case strings.HasPrefix(path, RecordPath):
		s.serveRecord(w, r, f.dropAfterWrite)
	case restlet:
		s.serveRESTlet(w, r)
	default:
		writeError(w, newAPIError(http.StatusNotFound, "NOT_FOUND", "The requested resource "+path+" was not found."))
	}
}

// authenticated checks TBA (Authorization: OAuth ...) or Bearer
// credentials, whichever the request carries.
func (s *Server) authenticated(r *http.Request) bool {
	now := s.clock()
	scheme, _, _ := strings.Cut(strings.TrimSpace(r.Header.Get("Authorization")), " ")
	switch {
	case strings.EqualFold(scheme, "OAuth") && s.tba != nil:
		return s.tba.Verify(r, now) == nil
	case strings.EqualFold(scheme, "Bearer") && s.m2m != nil:
		return s.m2m.CheckBearer(r, now) == nil
	}
	return false
}

// writeThrottled answers a request over the concurrency limit: REST
// answers 429; a RESTlet answers 400 SSS_REQUEST_LIMIT_EXCEEDED, which is
// how NetSuite throttles scripts.
func (s *Server) writeThrottled(w http.ResponseWriter, restlet bool) {
	if restlet {
		writeRESTletError(w, http.StatusBadRequest, "SSS_REQUEST_LIMIT_EXCEEDED",
			"Request limit exceeded. Please wait and try again.")
		return
	}
	writeError(w, newAPIError(http.StatusTooManyRequests, "CONCURRENCY_LIMIT_EXCEEDED",
		"Concurrent request limit exceeded. Request blocked."))
}

// baseURL is scheme://host as the client addressed the request: the base
// of links and Location headers.
func baseURL(r *http.Request) string {
	if r.TLS != nil {
		return "https://" + r.Host
	}
	return "http://" + r.Host
}
