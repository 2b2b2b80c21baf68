package httpapi

import (
	"errors"
	"io"
	"net/http"
	"strconv"
	"time"

	"github.com/portico/portico/internal/access"
	"github.com/portico/portico/internal/feedback"
	"github.com/portico/portico/internal/portal"
	"github.com/portico/portico/internal/records"
)

// sendFeedback takes a feedback form (multipart: category, message, page,
// optional attachment), stores it and forwards it to the ERP as the
// feedback record type. With the standalone connector the store is the
// system of record, so forwarding is done when it is stored; the NetSuite
// connector queues it (erpState "pending") through the outbox.
func (s *Server) sendFeedback(w http.ResponseWriter, r *http.Request) {
	r.Body = http.MaxBytesReader(w, r.Body, feedback.MaxAttachment+64<<10)
	if err := r.ParseMultipartForm(1 << 20); err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			s.writeError(w, r, &portal.Error{Code: portal.CodeUnprocessable, Message: "The attachment is larger than 5 MB.",
				Fields: []portal.FieldError{{Field: "attachment", Message: "The attachment is larger than 5 MB."}}})
			return
		}
		s.writeError(w, r, portal.Invalid("Send the feedback form as multipart/form-data."))
		return
	}
	defer r.MultipartForm.RemoveAll()
	if err := checkForm(r.MultipartForm); err != nil {
		s.writeError(w, r, err)
		return
	}
	p := caller(r)
	sub := feedback.Submission{At: time.Now().UTC(), UserID: p.User.ID, RoleID: p.Role.ID,
		Category: r.FormValue("category"), Message: r.FormValue("message"), Page: r.FormValue("page")}
	if f, hdr, err := r.FormFile("attachment"); err == nil {
		sub.File, err = io.ReadAll(io.LimitReader(f, feedback.MaxAttachment+1))
		f.Close()
		if err != nil {
			s.writeError(w, r, portal.Invalid("The attachment could not be read."))
			return
		}
		sub.FileName = hdr.Filename
	}
	if err := sub.Check(); err != nil {
		s.writeError(w, r, err)
		return
	}
	id, err := s.recordStore(r).PutFeedback(r.Context(), sub)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	sub.ID, sub.User, sub.File = id, p.User.FullName, nil
	s.auditCaller(r, access.AuditEvent{Event: "feedback", Detail: map[string]any{"id": id, "category": sub.Category,
		"erpType": feedback.ERPType, "result": "saved"}})
	writeData(w, http.StatusCreated, sub)
}

// feedbackList answers the newest submissions, for administrators. A page
// stored before it had to be a path of the portal is not passed on: the
// administrators' page renders it as a link.
func (s *Server) feedbackList(w http.ResponseWriter, r *http.Request) {
	subs, err := s.recordStore(r).Feedback(r.Context(), 500)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	for i := range subs {
		if !portal.InAppPath(subs[i].Page) {
			subs[i].Page = ""
		}
	}
	writeData(w, http.StatusOK, subs)
}

// feedbackAttachment downloads a submission's attachment.
func (s *Server) feedbackAttachment(w http.ResponseWriter, r *http.Request) {
	id, ok := records.ParseID(r.PathValue("id"))
	if !ok {
		s.writeError(w, r, portal.Errorf(portal.CodeNotFound, "No such attachment."))
		return
	}
	f, err := s.recordStore(r).FeedbackFile(r.Context(), id)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	writeDownload(w, f.FileName, f.FileType, f.File)
}

// auditUsers answers the tenant's users (id, name, email), by name: the
// audit log's user filter offers them.
func (s *Server) auditUsers(w http.ResponseWriter, r *http.Request) {
	users, err := s.recordStore(r).AuditUsers(r.Context())
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	type person struct {
		ID       int64  `json:"id"`
		FullName string `json:"fullName"`
		Email    string `json:"email"`
	}
	out := make([]person, 0, len(users))
	for _, u := range users {
		out = append(out, person{u.ID, u.FullName, u.Email})
	}
	writeData(w, http.StatusOK, out)
}

// auditLog answers the tenant's audit log, newest first, for
// administrators: ?event=, ?userId=, ?kind= filter; ?before=<id> pages.
// Each event names its user, role and record, and the roles its detail
// refers to.
func (s *Server) auditLog(w http.ResponseWriter, r *http.Request) {
	f := access.AuditFilter{Event: q(r, "event"), Kind: q(r, "kind"), Limit: 100}
	for name, dst := range map[string]*int64{"userId": &f.UserID, "before": &f.Before} {
		if v := q(r, name); v != "" {
			n, err := strconv.ParseInt(v, 10, 64)
			if err != nil || n < 1 {
				s.writeError(w, r, portal.Invalid("Filters by id take a positive number.", portal.FieldError{Field: name, Message: "A positive number."}))
				return
			}
			*dst = n
		}
	}
	events, err := s.recordStore(r).AuditEvents(r.Context(), f)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	writeData(w, http.StatusOK, events)
}
