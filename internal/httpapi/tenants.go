package httpapi

import (
	"context"
	"net/http"
	"strings"
	"sync/atomic"
	"time"

	"github.com/portico/portico/internal/portal"
	"github.com/portico/portico/internal/session"
	"github.com/portico/portico/internal/tenancy"
)

// tenantKey holds the tenant a request's address picked (withTenant), as
// an addressed.
type tenantKey struct{}

// addressed is the tenant a request's address picked, and whether the
// deployment serves several.
type addressed struct {
	tenant  tenancy.Tenant
	several bool
}

// msgNoPortal answers at an address no tenant is served at; it names no
// company.
const msgNoPortal = "No portal is served at this address."

// withTenant picks the request's tenant by its Host (tenancy.Map): the
// app's configuration, sign-in and every session check are that
// tenant's. A host no tenant answers at gets a plain 404 naming no
// company; health, metrics and the operator API answer at any address
// (load balancers, scrapers and automation use the instance's). Without a directory (Options.Directory)
// the server does not route by address: sessions carry their tenant.
func (s *Server) withTenant(next http.Handler) http.Handler {
	if s.addresses == nil {
		return next
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/api/v1/health" || r.URL.Path == "/metrics" || strings.HasPrefix(r.URL.Path, "/operator/") {
			next.ServeHTTP(w, r)
			return
		}
		m, err := s.addresses.Map(r.Context())
		if err != nil {
			s.writeError(w, r, portal.Wrap(portal.CodeUnavailable, err, "The portal cannot tell which company this address is for right now. Try again shortly."))
			return
		}
		t, ok := m.ForHost(r.Host)
		if !ok {
			if strings.HasPrefix(r.URL.Path, "/api/") {
				s.writeError(w, r, portal.Errorf(portal.CodeNotFound, msgNoPortal))
				return
			}
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			w.Header().Set("Cache-Control", "no-store")
			w.WriteHeader(http.StatusNotFound)
			w.Write([]byte("<!doctype html><html lang=\"en\"><meta charset=\"utf-8\"><title>Not found</title><p>" + msgNoPortal + "</p></html>\n"))
			return
		}
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), tenantKey{}, addressed{t, m.Several()})))
	})
}

// addressTenant is the tenant r's address picked; false when the server
// does not route by address.
func addressTenant(r *http.Request) (tenancy.Tenant, bool) {
	a, ok := r.Context().Value(tenantKey{}).(addressed)
	return a.tenant, ok
}

// signInTenant is the tenant an identity-service sign-in of identityTenant
// opens a session in at r's address: the address's tenant, when its users
// sign in to identityTenant and it is not suspended; without routing by
// address, identityTenant itself.
func signInTenant(r *http.Request, identityTenant portal.TenantID) (portal.TenantID, error) {
	t, ok := addressTenant(r)
	if !ok {
		return identityTenant, nil
	}
	if t.Suspended {
		return "", portal.Errorf(portal.CodeForbidden, "This company's portal is suspended. Ask your administrator.")
	}
	if string(identityTenant) != t.SignInTenant() {
		return "", portal.Errorf(portal.CodeForbidden, "This account belongs to another company's portal. Sign in at your company's address.")
	}
	return t.ID, nil
}

// sessionAtAddress checks that a session of tenant may be used at r's
// address: the address's tenant's, which is not suspended.
func sessionAtAddress(r *http.Request, tenant portal.TenantID) error {
	t, ok := addressTenant(r)
	switch {
	case !ok:
		return nil
	case t.Suspended:
		return portal.Errorf(portal.CodeUnauthenticated, "This company's portal is suspended. Ask your administrator.")
	case tenant != t.ID:
		return portal.Errorf(portal.CodeUnauthenticated, "This session is for another address. Please sign in here.")
	}
	return nil
}

// refreshAtAddress is sessionAtAddress for a refresh token, before it is
// rotated.
func refreshAtAddress(r *http.Request, refresh string) error {
	if _, ok := addressTenant(r); !ok {
		return nil
	}
	tenant, ok := session.RefreshTenant(refresh)
	if !ok {
		return portal.Errorf(portal.CodeUnauthenticated, "Your session has ended. Please sign in again.")
	}
	return sessionAtAddress(r, tenant)
}

// clientConfig is the app's configuration at r's address: the
// deployment's, with the address's tenant's sign-in tenant and environment
// badge (when it has one of its own), and its name when the deployment
// serves several companies.
func (s *Server) clientConfig(r *http.Request) ClientConfig {
	cfg := s.client
	if a, ok := r.Context().Value(tenantKey{}).(addressed); ok {
		cfg.TenantID = a.tenant.SignInTenant()
		if a.tenant.Environment != "" {
			cfg.Environment = a.tenant.Environment
		}
		if a.several {
			cfg.CompanyName = a.tenant.Name
		}
	}
	return cfg
}

// withBudget admits each API request of a tenant within its budget
// (tenancy.Budgets) while the deployment serves several companies, and
// charges the tenant the database time the request's store calls took
// (boundedStore). A request refused gets 429 with Retry-After. The
// event stream, open for hours, takes no slot; health, metrics and the
// operator API are no tenant's.
func (s *Server) withBudget(next http.Handler) http.Handler {
	if s.budgets == nil {
		return next
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		a, ok := r.Context().Value(tenantKey{}).(addressed)
		if !ok || !a.several || !strings.HasPrefix(r.URL.Path, "/api/") || r.URL.Path == "/api/v1/health" || r.URL.Path == "/api/v1/events" {
			next.ServeHTTP(w, r)
			return
		}
		ticket, err := s.budgets.Admit(r.Context(), a.tenant.ID)
		if err != nil {
			w.Header().Set("Retry-After", "1")
			s.writeError(w, r, err)
			return
		}
		spent := new(atomic.Int64)
		defer func() { ticket.Done(time.Duration(spent.Load())) }()
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), dbTimeKey{}, spent)))
	})
}

// dbTimeKey holds the request's database time so far (withBudget).
type dbTimeKey struct{}

// chargeDBTime adds d to the database time of ctx's request, when its
// tenant has a budget.
func chargeDBTime(ctx context.Context, d time.Duration) {
	if spent, ok := ctx.Value(dbTimeKey{}).(*atomic.Int64); ok {
		spent.Add(int64(d))
	}
}
