package httpapi

import (
	"crypto/rand"
	"encoding/hex"
	"net/http"
	"strings"
	"time"

	"github.com/portico/portico/internal/access"
	"github.com/portico/portico/internal/portal"
	"github.com/portico/portico/internal/records"
)

type listsAnswer struct {
	Lists     []records.ListConfig `json:"lists"`
	DefaultID string               `json:"defaultId"`
}

// lists answers the saved lists of a kind the caller may use: the built-in
// one, the role's shared ones and their own private ones.
func (s *Server) lists(w http.ResponseWriter, r *http.Request) {
	k, err := s.kind(r, q(r, "type"))
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	p, st := caller(r), s.recordStore(r)
	saved, err := st.VisibleLists(r.Context(), k.Name, p.User.ID, p.Role.ID)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	def, err := s.resolveList(r, k, "")
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	ans := listsAnswer{Lists: []records.ListConfig{k.BuiltInList()}, DefaultID: def.ID}
	for _, l := range saved {
		l.Editable = p.lists().MayEdit(l)
		ans.Lists = append(ans.Lists, l)
	}
	writeData(w, http.StatusOK, ans)
}

// lists is the caller as records' saved-list rules see them: the user in
// the role they work in, among the roles they hold.
func (p principal) lists() records.ListActor {
	return records.ListActor{UserID: p.User.ID, Role: p.Role, Roles: p.User.Roles}
}

// saveList creates (POST) or replaces (PUT ?id=) a saved list.
func (s *Server) saveList(w http.ResponseWriter, r *http.Request) { s.saveConfig(w, r, false) }

// saveConfig creates or replaces a saved list, or with asReport a report
// (a saved list with a report part, which it must have).
func (s *Server) saveConfig(w http.ResponseWriter, r *http.Request, asReport bool) {
	k, err := s.kind(r, q(r, "type"))
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	var in records.ListInput
	if err := decodeJSON(r, &in); err != nil {
		s.writeError(w, r, err)
		return
	}
	if asReport != (in.Report != nil) {
		s.writeError(w, r, portal.Invalid("Reports are saved under /api/v1/reports, lists under listConfiguration.",
			portal.FieldError{Field: "report", Message: "Send a report part for reports only."}))
		return
	}
	if err := in.Validate(k); err != nil {
		s.writeError(w, r, err)
		return
	}
	p, st := caller(r), s.recordStore(r)
	l := records.ListConfig{Kind: k.Name, OwnerID: p.User.ID}
	status := http.StatusCreated
	if r.Method == http.MethodPut {
		if l, err = s.editableList(r, k, asReport); err != nil {
			s.writeError(w, r, err)
			return
		}
		status = http.StatusOK
	} else {
		var b [9]byte
		rand.Read(b[:])
		l.ID = "list-" + hex.EncodeToString(b[:])
		if asReport {
			l.ID = "report-" + hex.EncodeToString(b[:])
		}
	}
	if err := p.lists().Publish(&l, in.Visibility, in.RoleID); err != nil {
		s.writeError(w, r, err)
		return
	}
	l.Name, l.Columns, l.Filter = strings.TrimSpace(in.Name), in.Columns, strings.TrimSpace(in.Filter)
	l.Report = in.Report
	l.Sort = in.Sort
	if l.Sort.Dir == "" {
		l.Sort.Dir = "asc"
	}
	l.UpdatedAt = time.Now()
	if err := st.PutList(r.Context(), l); err != nil {
		s.writeError(w, r, err)
		return
	}
	if asReport {
		s.auditCaller(r, access.AuditEvent{Event: "report_save", Detail: map[string]any{"id": l.ID, "name": l.Name, "kind": l.Kind}})
	}
	l.Editable = true
	writeData(w, status, l)
}

// deleteList removes a saved list the caller may edit.
func (s *Server) deleteList(w http.ResponseWriter, r *http.Request) { s.deleteConfig(w, r, false) }

func (s *Server) deleteConfig(w http.ResponseWriter, r *http.Request, asReport bool) {
	k, err := s.kind(r, q(r, "type"))
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	l, err := s.editableList(r, k, asReport)
	if err == nil {
		err = s.recordStore(r).DeleteList(r.Context(), l.ID)
	}
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// editableList loads ?id= for a change: a saved list (not the built-in
// one) of this kind that the caller may change (ListActor.CheckEdit).
func (s *Server) editableList(r *http.Request, k *records.Kind, asReport bool) (records.ListConfig, error) {
	id := q(r, "id")
	if id == k.DefaultList {
		return records.ListConfig{}, portal.Errorf(portal.CodeForbidden, "The built-in list cannot be changed; save a copy instead.")
	}
	l, err := s.recordStore(r).List(r.Context(), id)
	if portal.IsNotFound(err) {
		return l, portal.Errorf(portal.CodeNotFound, "No such saved list.")
	}
	if err != nil {
		return l, err
	}
	return l, caller(r).lists().CheckEdit(l, k.Name, asReport)
}
