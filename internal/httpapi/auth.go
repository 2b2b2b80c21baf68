package httpapi

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/portico/portico/internal/access"
	"github.com/portico/portico/internal/company"
	"github.com/portico/portico/internal/identity"
	"github.com/portico/portico/internal/portal"
	"github.com/portico/portico/internal/records"
	"github.com/portico/portico/internal/search"
	"github.com/portico/portico/internal/session"
	"github.com/portico/portico/internal/shortlist"
)

// Verifier checks identity-service tokens.
type Verifier interface {
	Verify(token string) (identity.Claims, error)
}

// TenantStore is what the handlers need inside a tenant.
type TenantStore interface {
	access.Store
	access.AdminStore
	RecordStore
	search.Index
	shortlist.Store
	UserByID(ctx context.Context, id int64) (access.User, error)
	// Kinds are the tenant's kinds: the code's plus its ERP account's
	// fields.
	Kinds() *records.Registry
	// SessionUser reads a session and its user with roles in one query
	// (the request guard's only database call).
	SessionUser(ctx context.Context, sessionID string) (session.Session, access.User, error)
	Audit(ctx context.Context, e access.AuditEvent) error
	// Company is the tenant's company profile (a tenant without one
	// reads as its name alone).
	Company(ctx context.Context) (company.Profile, error)
}

// principal is the caller of an authenticated route.
type principal struct {
	Tenant  portal.TenantID
	User    access.User
	Role    access.Role
	Session session.Claims
	// Guard decides which records the caller may see and change; the
	// request's store (recordStore) reads through it.
	Guard *records.Guard
}

type principalKey struct{}

// caller returns the principal withAuth attached.
func caller(r *http.Request) principal {
	p, _ := r.Context().Value(principalKey{}).(principal)
	return p
}

// withAuth guards every private route, in this order: a valid, unrevoked
// access token (else 511), an enabled user, and an X-Role-Id naming a role
// the user holds (else 403).
func (s *Server) withAuth(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		token, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
		if !ok || token == "" {
			s.writeError(w, r, portal.Errorf(portal.CodeUnauthenticated, "Please sign in."))
			return
		}
		claims, err := s.sessions.Verify(token)
		if err == nil {
			err = sessionAtAddress(r, claims.Tenant)
		}
		if err != nil {
			s.writeError(w, r, err)
			return
		}
		now := time.Now()
		sess, user, cached := s.sessionCache.get(claims.Tenant, claims.SessionID, now)
		if !cached {
			sess, user, err = s.tenants(claims.Tenant).SessionUser(r.Context(), claims.SessionID)
			if err == nil {
				s.sessionCache.put(claims.Tenant, sess, user, now)
			}
		}
		if err == nil {
			err = s.sessions.Check(claims, sess)
		}
		switch {
		case portal.IsNotFound(err): // the session or the user is gone
			err = portal.Errorf(portal.CodeUnauthenticated, "Your session has ended. Please sign in again.")
		case err == nil && user.Disabled:
			err = portal.Errorf(portal.CodeUnauthenticated, "Your account is no longer active.")
		}
		if err != nil {
			s.writeError(w, r, err)
			return
		}
		roleID, err := strconv.ParseInt(r.Header.Get("X-Role-Id"), 10, 64)
		if err != nil {
			s.writeError(w, r, portal.Errorf(portal.CodeForbidden, "Choose one of your roles (X-Role-Id)."))
			return
		}
		role, err := user.Role(roleID)
		if err != nil {
			s.writeError(w, r, err)
			return
		}
		p := principal{Tenant: claims.Tenant, User: user, Role: role, Session: claims,
			Guard: s.guardOf(claims.Tenant, role, user.Email)}
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), principalKey{}, p)))
	})
}

// guardOf is the guard of a user (by e-mail address) acting in role in
// tenant, over the tenant's kinds.
func (s *Server) guardOf(tenant portal.TenantID, role access.Role, email string) *records.Guard {
	ten := s.tenants(tenant)
	return records.NewGuard(ten, role, email).Remembering(s.employees, tenant).Among(ten.Kinds())
}

// loginData is the answer of sign-in and token refresh.
type loginData struct {
	Token          string       `json:"token"`
	TokenExpiresAt time.Time    `json:"tokenExpiresAt"`
	RefreshToken   string       `json:"refreshToken"`
	User           *access.User `json:"user,omitempty"`
	CurrentRole    *access.Role `json:"currentRole,omitempty"`
}

// login exchanges an identity token for a portal session (SPEC §4 Login).
// An optional roleId names the role to start in when the user holds it.
func (s *Server) login(w http.ResponseWriter, r *http.Request) {
	ctx, ip := r.Context(), clientIP(r)
	if !s.rateLimited(w, r, s.loginIP, "ip:"+ip) {
		return
	}
	q := r.URL.Query()
	idToken := q.Get("idToken")
	if idToken == "" || len(idToken) > 8192 || len(q.Get("oauthIdToken")) > 8192 {
		s.writeError(w, r, portal.Invalid("Sign-in needs an identity token.",
			portal.FieldError{Field: "idToken", Message: "Required, at most 8 KiB."}))
		return
	}
	// The work-account (oauthIdToken) sign-in is vouched for by the
	// identity service: its token names the provider it verified.
	claims, err := s.identity.Verify(idToken)
	if err != nil {
		s.log.Info("sign-in refused", "request_id", requestID(ctx), "ip", ip, "err", err)
		s.writeError(w, r, err)
		return
	}
	if !s.rateLimited(w, r, s.loginAccount, "acct:"+string(claims.Tenant)+":"+claims.UID) {
		return
	}
	tenant, err := signInTenant(r, claims.Tenant)
	if err != nil {
		s.log.Info("sign-in refused", "request_id", requestID(ctx), "ip", ip, "err", err)
		s.writeError(w, r, err)
		return
	}
	ts := s.tenants(tenant)
	user, err := access.FindUser(ctx, ts, access.Identity{UID: claims.UID, Email: claims.Email, EmailVerified: claims.EmailVerified})
	if err != nil {
		s.audit(ctx, ts, access.AuditEvent{Event: "login_failed", IP: ip, UserID: user.ID,
			Detail: map[string]any{"email": claims.Email, "provider": claims.Provider, "reason": portal.ErrorCode(err)}})
		s.writeError(w, r, err)
		return
	}
	tokens, _, err := s.sessions.Issue(ctx, tenant, user.ID)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	// The app asks for the user's remembered last role (SPEC §4 step 3);
	// one they no longer hold falls back to their first.
	role := user.Roles[0]
	if id, err := strconv.ParseInt(q.Get("roleId"), 10, 64); err == nil {
		if held, err := user.Role(id); err == nil {
			role = held
		}
	}
	s.audit(ctx, ts, access.AuditEvent{Event: "login", IP: ip, UserID: user.ID, RoleID: role.ID,
		Detail: map[string]any{"provider": claims.Provider}})
	writeData(w, http.StatusOK, loginData{Token: tokens.Access, TokenExpiresAt: tokens.AccessExpires,
		RefreshToken: tokens.Refresh, User: &user, CurrentRole: &role})
}

type refreshBody struct {
	RefreshToken string `json:"refreshToken"`
}

// refresh rotates a refresh token into a new token pair. A reused one ends
// its session; the session package audits it with the client's address and
// user agent.
func (s *Server) refresh(w http.ResponseWriter, r *http.Request) {
	if !s.rateLimited(w, r, s.refreshIP, "ip:"+clientIP(r)) {
		return
	}
	var body refreshBody
	if err := decodeJSON(r, &body); err != nil {
		s.writeError(w, r, err)
		return
	}
	if err := refreshAtAddress(r, body.RefreshToken); err != nil {
		s.writeError(w, r, err)
		return
	}
	client := session.Client{IP: clientIP(r), UserAgent: r.UserAgent()}
	tokens, _, err := s.sessions.Refresh(r.Context(), body.RefreshToken, client)
	if err != nil {
		if errors.Is(err, session.ErrReused) {
			s.log.Warn("refresh token reused; session revoked", "request_id", requestID(r.Context()), "ip", client.IP)
		}
		s.writeError(w, r, err)
		return
	}
	writeData(w, http.StatusOK, loginData{Token: tokens.Access, TokenExpiresAt: tokens.AccessExpires, RefreshToken: tokens.Refresh})
}

// logout ends the session named by the bearer token or, when that has
// expired already, by the refresh token. It always answers 204: logging out
// of a session that already ended is not an error.
func (s *Server) logout(w http.ResponseWriter, r *http.Request) {
	var body refreshBody
	if r.ContentLength != 0 {
		if err := decodeJSON(r, &body); err != nil {
			s.writeError(w, r, err)
			return
		}
	}
	claims, err := s.sessions.Authenticate(r.Context(), strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer "))
	ok := err == nil
	if !ok {
		claims, ok = s.sessions.ClaimsOfRefresh(r.Context(), body.RefreshToken)
	}
	if ok {
		s.sessionCache.drop(claims.Tenant, claims.SessionID)
		if err := s.sessions.Revoke(r.Context(), claims); err != nil {
			s.writeError(w, r, err)
			return
		}
		s.audit(r.Context(), s.tenants(claims.Tenant), access.AuditEvent{Event: "logout", IP: clientIP(r), UserID: claims.UserID})
	}
	w.WriteHeader(http.StatusNoContent)
}

type switchRoleBody struct {
	RoleID int64 `json:"roleId"`
}

// switchRole checks that the user holds the role they switch to, records
// the switch, and answers the role (SPEC §4 Role switch).
func (s *Server) switchRole(w http.ResponseWriter, r *http.Request) {
	p := caller(r)
	var body switchRoleBody
	if err := decodeJSON(r, &body); err != nil {
		s.writeError(w, r, err)
		return
	}
	role, err := p.User.Role(body.RoleID)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	s.audit(r.Context(), s.tenants(p.Tenant), access.AuditEvent{Event: "role_switch", IP: clientIP(r), UserID: p.User.ID,
		RoleID: role.ID, Detail: map[string]any{"from": p.Role.ID, "to": role.ID}})
	writeData(w, http.StatusOK, struct {
		CurrentRole access.Role `json:"currentRole"`
	}{role})
}

// me answers the signed-in user and their roles (session restore checks it).
func (s *Server) me(w http.ResponseWriter, r *http.Request) {
	p := caller(r)
	writeData(w, http.StatusOK, struct {
		User        access.User `json:"user"`
		CurrentRole access.Role `json:"currentRole"`
	}{p.User, p.Role})
}

// layout answers a menu tree of one of the caller's roles.
func (s *Server) layout(w http.ResponseWriter, r *http.Request) {
	p := caller(r)
	l, err := access.LayoutFor(r.Context(), s.tenants(p.Tenant), p.User, r.PathValue("layoutId"))
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	items := l.Items
	if s.syncer(r) == nil {
		items = withoutSyncPage(items) // no ERP, no sync page
	}
	if items == nil {
		items = []access.MenuItem{}
	}
	writeData(w, http.StatusOK, struct {
		Items []access.MenuItem `json:"items"`
	}{items})
}

// audit records an event; a failure to record is logged, not shown (the
// user's action already happened).
func (s *Server) audit(ctx context.Context, ts TenantStore, e access.AuditEvent) {
	e.At = time.Now()
	if err := ts.Audit(ctx, e); err != nil {
		s.log.Error("audit log write failed", "request_id", requestID(ctx), "event", e.Event, "err", err)
	}
}

// needs guards a route with a permission of the caller's role (403
// without it), beyond withAuth's checks.
func (s *Server) needs(perm string, h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if err := caller(r).Guard.RequirePermission(perm); err != nil {
			s.writeError(w, r, err)
			return
		}
		h(w, r)
	}
}

// auditCaller records an event by the caller of an authenticated route, in
// their current role.
func (s *Server) auditCaller(r *http.Request, e access.AuditEvent) {
	p := caller(r)
	e.UserID, e.RoleID, e.IP = p.User.ID, p.Role.ID, clientIP(r)
	s.audit(r.Context(), s.tenants(p.Tenant), e)
}
