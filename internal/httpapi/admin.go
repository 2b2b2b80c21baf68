package httpapi

import (
	"net/http"
	"strconv"
	"strings"

	"github.com/portico/portico/internal/access"
	"github.com/portico/portico/internal/portal"
	"github.com/portico/portico/internal/records"
)

// maxAccessBody is the largest access file PUT /api/v1/admin/access takes.
const maxAccessBody = 2 << 20

// accessSetup answers the tenant's access file (what `portico roles
// export -json` prints) and its version, also as the ETag, with what a
// role can be given.
func (s *Server) accessSetup(w http.ResponseWriter, r *http.Request) {
	setup, err := access.Current(r.Context(), s.tenants(caller(r).Tenant))
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	type kind struct {
		Route     string `json:"route"`
		Plural    string `json:"plural"`
		CanCreate bool   `json:"canCreate"`
		CanEdit   bool   `json:"canEdit"`
		// CanApprove: its records go through approval (route.approve).
		CanApprove bool `json:"canApprove"`
	}
	kinds := []kind{}
	for _, k := range records.All() {
		kinds = append(kinds, kind{k.Route, k.Plural, k.CanCreate, k.CanEdit, k.Approval != nil})
	}
	w.Header().Set("ETag", strconv.Quote(setup.Version))
	writeData(w, http.StatusOK, struct {
		access.Setup
		// What a role can be given: each kind's view, create (when the
		// kind has it), edit and approve (likewise), and the other
		// permissions.
		Kinds       []kind              `json:"kinds"`
		Permissions []access.Permission `json:"permissions"`
	}{setup, kinds, access.OtherPermissions})
}

// replaceAccess replaces the whole setup with the body's file, provided
// If-Match names its current version (else 412), and audits what changed
// (access_import). The change is in force on every instance within a
// second (see access.Replace).
func (s *Server) replaceAccess(w http.ResponseWriter, r *http.Request) {
	p := caller(r)
	var f access.File
	if err := decodeJSONUpTo(r, &f, maxAccessBody); err != nil {
		s.writeError(w, r, err)
		return
	}
	f.Tenant = string(p.Tenant)
	version := strings.Trim(strings.TrimPrefix(r.Header.Get("If-Match"), "W/"), `"`)
	change, err := access.Replace(r.Context(), s.tenants(p.Tenant), f, version, records.CheckRules)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	// In force at once on this instance; the others' session caches
	// follow within their TTL (a second), and every open event stream
	// re-checks its session at once (the import's session event).
	s.sessionCache.dropTenant(p.Tenant)
	s.auditCaller(r, access.AuditEvent{Event: "access_import", Detail: change.Summary.Detail()})
	w.Header().Set("ETag", strconv.Quote(change.Setup.Version))
	writeData(w, http.StatusOK, struct {
		access.Setup
		Summary string `json:"summary"`
	}{change.Setup, change.Summary.Text()})
}

// accessPreview answers, for each kind a role may view, how many records
// a user would see under its rules: GET names a saved role (?role=),
// POST sends one being edited ({"role": {...}}); ?user= names the user.
// Counts have Summarize's bounded cost: large narrowed ones are estimated
// and say so.
func (s *Server) accessPreview(w http.ResponseWriter, r *http.Request) {
	p := caller(r)
	ts := s.tenants(p.Tenant)
	userID, err := strconv.ParseInt(q(r, "user"), 10, 64)
	if err != nil || userID < 1 {
		s.writeError(w, r, portal.Invalid("Choose a user.", portal.FieldError{Field: "user", Message: "A user id."}))
		return
	}
	var role access.Role
	if r.Method == http.MethodPost {
		var body struct {
			Role access.Role `json:"role"`
		}
		if err := decodeJSON(r, &body); err != nil {
			s.writeError(w, r, err)
			return
		}
		role = body.Role
	} else {
		id, err := strconv.ParseInt(q(r, "role"), 10, 64)
		if err != nil || id < 1 {
			s.writeError(w, r, portal.Invalid("Choose a role.", portal.FieldError{Field: "role", Message: "A role id."}))
			return
		}
		setup, err := access.Current(r.Context(), ts)
		if err != nil {
			s.writeError(w, r, err)
			return
		}
		if role, err = setup.File.RoleByID(id); err != nil {
			s.writeError(w, r, err)
			return
		}
	}
	u, err := ts.UserByID(r.Context(), userID)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	counts, err := records.Preview(r.Context(), ts, role, u.Email)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	writeData(w, http.StatusOK, counts)
}
