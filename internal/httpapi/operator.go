package httpapi

import (
	"context"
	"crypto/subtle"
	"net/http"
	"strings"
	"time"

	"github.com/portico/portico/internal/portal"
	"github.com/portico/portico/internal/tenancy"
)

// The operator API (issue 39): the deployment's tenants for automation,
// the same operations as `portico tenants` through the same use cases
// (tenancy.Admin). It answers at any address (withTenant lets
// /operator/ through, as it does health and metrics), to a caller that
// sends PORTICO_OPERATOR_TOKEN as a bearer token; without a token
// configured, every /operator route is a 404. Answers are {"data": …};
// refusals problem documents, like the rest of the API.

// OperatorService is the operator's use cases the API calls
// (tenancy.Admin).
type OperatorService interface {
	List(ctx context.Context) ([]tenancy.Tenant, error)
	Find(ctx context.Context, id portal.TenantID) (tenancy.Tenant, error)
	Add(ctx context.Context, t tenancy.Tenant) (tenancy.Tenant, error)
	SetSuspended(ctx context.Context, id portal.TenantID, suspended bool) (tenancy.Tenant, error)
	ChangeHosts(ctx context.Context, id portal.TenantID, add, remove []string) (tenancy.Tenant, error)
	SetEnvironment(ctx context.Context, id portal.TenantID, environment string) (tenancy.Tenant, error)
	Export(ctx context.Context, id portal.TenantID, to tenancy.Sink) (tenancy.ExportSummary, error)
	Delete(ctx context.Context, id portal.TenantID, confirm string) (tenancy.DeleteSummary, error)
	DeleteLeftBehind(ctx context.Context, id portal.TenantID, confirm string) (tenancy.DeleteSummary, error)
}

var _ OperatorService = (*tenancy.Admin)(nil)

// operatorTenant is a tenant as the operator API shows it.
type operatorTenant struct {
	ID             string   `json:"id"`
	Name           string   `json:"name"`
	Hosts          []string `json:"hosts"`
	IdentityTenant string   `json:"identityTenant"`
	// Environment is its badge; "" is the deployment's.
	Environment string    `json:"environment"`
	Suspended   bool      `json:"suspended"`
	Default     bool      `json:"default"`
	CreatedAt   time.Time `json:"createdAt"`
}

func (s *Server) operatorTenant(t tenancy.Tenant) operatorTenant {
	hosts := t.Hosts
	if hosts == nil {
		hosts = []string{}
	}
	return operatorTenant{ID: string(t.ID), Name: t.Name, Hosts: hosts, IdentityTenant: t.SignInTenant(), Environment: t.Environment,
		Suspended: t.Suspended, Default: string(t.ID) == s.client.TenantID, CreatedAt: t.CreatedAt}
}

// operator guards an operator route: 404 without a configured token (or
// service), 401 without the token (compared in constant time), 400 for
// an address the input policy refuses.
func (s *Server) operator(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if s.operatorToken == "" || s.operatorSvc == nil {
			s.writeError(w, r, portal.Errorf(portal.CodeNotFound, "No endpoint %q.", r.Method+" "+r.URL.Path))
			return
		}
		token, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
		if !ok || subtle.ConstantTimeCompare([]byte(token), []byte(s.operatorToken)) != 1 {
			w.Header().Set("WWW-Authenticate", `Bearer realm="operator"`)
			s.writeError(w, r, portal.Errorf(portal.CodeInvalidCredentials, "Send the operator token (PORTICO_OPERATOR_TOKEN) as a bearer token."))
			return
		}
		if err := checkAddress(r.URL); err != nil {
			s.writeError(w, r, err)
			return
		}
		h(w, r)
	}
}

// pathTenant is the {id} of the request's path.
func pathTenant(r *http.Request) (portal.TenantID, error) {
	return tenancy.ParseID(r.PathValue("id"))
}

// operatorTenants answers GET /operator/v1/tenants: every tenant, by id.
func (s *Server) operatorTenants(w http.ResponseWriter, r *http.Request) {
	tenants, err := s.operatorSvc.List(r.Context())
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	out := make([]operatorTenant, len(tenants))
	for i, t := range tenants {
		out[i] = s.operatorTenant(t)
	}
	writeData(w, http.StatusOK, out)
}

// operatorGetTenant answers GET /operator/v1/tenants/{id}.
func (s *Server) operatorGetTenant(w http.ResponseWriter, r *http.Request) {
	s.operatorAnswer(w, r, http.StatusOK, func(id portal.TenantID) (tenancy.Tenant, error) {
		return s.operatorSvc.Find(r.Context(), id)
	})
}

// operatorAddTenant answers POST /operator/v1/tenants
// {"id", "name", "hosts", "identityTenant", "environment"}: 201 with the
// tenant.
func (s *Server) operatorAddTenant(w http.ResponseWriter, r *http.Request) {
	var in struct {
		ID             string   `json:"id"`
		Name           string   `json:"name"`
		Hosts          []string `json:"hosts"`
		IdentityTenant string   `json:"identityTenant"`
		Environment    string   `json:"environment"`
	}
	if err := decodeJSON(r, &in); err != nil {
		s.writeError(w, r, err)
		return
	}
	id, err := tenancy.ParseID(in.ID)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	t, err := s.operatorSvc.Add(r.Context(), tenancy.Tenant{ID: id, Name: in.Name, Hosts: in.Hosts, IdentityTenant: in.IdentityTenant, Environment: in.Environment})
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	writeData(w, http.StatusCreated, s.operatorTenant(t))
}

// operatorSuspend answers POST /operator/v1/tenants/{id}/suspend and
// …/resume (suspend false).
func (s *Server) operatorSuspend(suspend bool) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if err := noBody(r); err != nil {
			s.writeError(w, r, err)
			return
		}
		s.operatorAnswer(w, r, http.StatusOK, func(id portal.TenantID) (tenancy.Tenant, error) {
			return s.operatorSvc.SetSuspended(r.Context(), id, suspend)
		})
	}
}

// operatorHosts answers POST /operator/v1/tenants/{id}/hosts
// {"add": [...], "remove": [...]}: the change is made whole or not at all.
func (s *Server) operatorHosts(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Add    []string `json:"add"`
		Remove []string `json:"remove"`
	}
	if err := decodeJSON(r, &in); err != nil {
		s.writeError(w, r, err)
		return
	}
	s.operatorAnswer(w, r, http.StatusOK, func(id portal.TenantID) (tenancy.Tenant, error) {
		return s.operatorSvc.ChangeHosts(r.Context(), id, in.Add, in.Remove)
	})
}

// operatorEnvironment answers POST /operator/v1/tenants/{id}/environment
// {"environment": "Sandbox"} ("" for the deployment's).
func (s *Server) operatorEnvironment(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Environment string `json:"environment"`
	}
	if err := decodeJSON(r, &in); err != nil {
		s.writeError(w, r, err)
		return
	}
	s.operatorAnswer(w, r, http.StatusOK, func(id portal.TenantID) (tenancy.Tenant, error) {
		return s.operatorSvc.SetEnvironment(r.Context(), id, in.Environment)
	})
}

// operatorAnswer runs do on the path's tenant and answers with the tenant
// it returns.
func (s *Server) operatorAnswer(w http.ResponseWriter, r *http.Request, status int, do func(portal.TenantID) (tenancy.Tenant, error)) {
	id, err := pathTenant(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	t, err := do(id)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	writeData(w, status, s.operatorTenant(t))
}

// operatorExport answers GET /operator/v1/tenants/{id}/export with the
// tenant's export (the files of `portico tenants export`) as a tar.gz
// stream. An export that fails once the stream began ends it without
// the archive's end, so the client's unpacking fails too.
func (s *Server) operatorExport(w http.ResponseWriter, r *http.Request) {
	id, err := pathTenant(r)
	if err == nil {
		_, err = s.operatorSvc.Find(r.Context(), id)
	}
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	w.Header().Set("Content-Type", "application/gzip")
	w.Header().Set("Content-Disposition", `attachment; filename="tenant-`+string(id)+`.tar.gz"`)
	w.Header().Set("Cache-Control", "no-store")
	sink := tenancy.NewTarGzSink(w, time.Now())
	if _, err := s.operatorSvc.Export(r.Context(), id, sink); err != nil {
		streamFailed(r, err)
		panic(http.ErrAbortHandler) // no valid-looking archive of part of it
	}
	if err := sink.Close(); err != nil {
		streamFailed(r, err)
	}
}

// operatorDelete answers DELETE /operator/v1/tenants/{id}?confirm={id}
// with the rows deleted per table; with leftBehind=true, it deletes only
// what the tenant left in the main database once placed in its own
// (tenancy.Admin.DeleteLeftBehind).
func (s *Server) operatorDelete(w http.ResponseWriter, r *http.Request) {
	id, err := pathTenant(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	if err := noBody(r); err != nil {
		s.writeError(w, r, err)
		return
	}
	del := s.operatorSvc.Delete
	switch r.URL.Query().Get("leftBehind") {
	case "":
	case "true":
		del = s.operatorSvc.DeleteLeftBehind
	default:
		s.writeError(w, r, portal.Invalid("leftBehind is true or absent", portal.FieldError{Field: "leftBehind", Message: "Must be true, or absent."}))
		return
	}
	sum, err := del(r.Context(), id, r.URL.Query().Get("confirm"))
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	writeData(w, http.StatusOK, map[string]any{"id": id, "deleted": sum.Rows})
}
