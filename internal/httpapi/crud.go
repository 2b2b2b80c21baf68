package httpapi

import (
	"encoding/json"
	"fmt"
	"net/http"
	"time"

	"github.com/portico/portico/internal/portal"
	"github.com/portico/portico/internal/records"
)

// editBody is a create or edit submission: the form's fields, and for an
// edit the version (the record's modifiedAt) the form was opened at.
type editBody struct {
	Fields  map[string]json.RawMessage `json:"fields"`
	Version *time.Time                 `json:"version"`
}

// savedAnswer is a save's answer: the saved record's page and, when the
// edit changed nothing (so nothing was written), unchanged: true.
type savedAnswer struct {
	records.View
	Unchanged bool `json:"unchanged,omitempty"`
}

// saveRecord answers a create (POST, 201) or an edit (PUT with &id=, 200)
// of ?type= (SPEC §7 {product}-crud), with the saved record's page; an
// edit that changes nothing writes nothing and answers the record as it
// is, marked unchanged. Either may carry an Idempotency-Key: its repeat
// (a device sending again a save whose answer it never got) writes
// nothing and answers the record the first made or changed, as it is now;
// an edit's repeat is not a conflict with itself even once the record has
// moved on.
func (s *Server) saveRecord(w http.ResponseWriter, r *http.Request) {
	s.serveSave(w, r, q(r, "type"))
}

func (s *Server) serveSave(w http.ResponseWriter, r *http.Request, kind string) {
	k, err := s.kind(r, kind)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	creating := r.Method == http.MethodPost
	action := records.ActCreate
	if !creating {
		action = records.ActEdit
	}
	if err := caller(r).Guard.Require(k, action); err != nil {
		s.writeError(w, r, err)
		return
	}
	var body editBody
	if err := decodeJSON(r, &body); err != nil {
		s.writeError(w, r, err)
		return
	}
	e := records.Edit{Fields: body.Fields}
	if e.IdempotencyKey, err = idempotencyKey(r); err != nil {
		s.writeError(w, r, err)
		return
	}
	if !creating {
		id, ok := records.ParseID(q(r, "id"))
		if !ok {
			s.writeError(w, r, portal.Invalid("A record id is required.", portal.FieldError{Field: "id", Message: "A positive number."}))
			return
		}
		if body.Version == nil {
			s.writeError(w, r, portal.Invalid("An edit needs the version the form was opened at.",
				portal.FieldError{Field: "version", Message: "Send the record's version."}))
			return
		}
		e.ID, e.Version = id, *body.Version
	}
	sy, mode := s.writeMode(r)
	saved, err := k.Save(r.Context(), s.recordStore(r), e, author(r), time.Now(), mode)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	if sy != nil && !saved.Unchanged {
		sy.Notify()
	}
	status := http.StatusOK
	if creating {
		status = http.StatusCreated
		w.Header().Set("Location", fmt.Sprintf("/api/v1/%s/%s-record?type=%s&id=%d", s.erp, s.product, k.Name, saved.ID))
	}
	writeData(w, status, savedAnswer{View: k.View(saved.Record, s.erpBaseOf(caller(r).Tenant)), Unchanged: saved.Unchanged})
}

// writeMode returns the caller's tenant's sync (nil without an ERP) and
// the mode its writes take: queued for the ERP, or done when stored.
func (s *Server) writeMode(r *http.Request) (Syncer, records.Mode) {
	if sy := s.syncer(r); sy != nil {
		return sy, records.Queued
	}
	return nil, records.Standalone
}

// author is the caller as the author of a write.
func author(r *http.Request) records.Author {
	p := caller(r)
	return records.Author{UserID: p.User.ID, RoleID: p.Role.ID, IP: clientIP(r)}
}

// saveOf serves saves of one kind, for the SPEC §7 base paths.
func (s *Server) saveOf(kind string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) { s.serveSave(w, r, kind) }
}
