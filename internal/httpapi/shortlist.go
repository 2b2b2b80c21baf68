package httpapi

import (
	"net/http"
	"time"

	"github.com/portico/portico/internal/portal"
	"github.com/portico/portico/internal/records"
	"github.com/portico/portico/internal/shortlist"
)

// The caller's own shortlists (package shortlist): the records they opened
// last and their favourites. Each answers and changes only the caller's
// shelves; what they answer is narrowed to the kinds the current role may
// see.
//
// A record's page is recorded as visited by the app's POST once the page
// has shown it, not as a side effect of GET …-record: that GET is the
// busiest read of the API (bench: record view by id), which a write per
// call would slow down and serialise on SQLite's one writer; and it is
// also answered to prefetches, refetches after live updates and tab
// loads, which are not visits.

// shelf answers the caller's shelf, newest first: [{name, domain, type,
// id, detail, at}].
func (s *Server) shelf(sh shortlist.Shelf) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		p := caller(r)
		items, err := shortlist.List(r.Context(), s.recordStore(r), p.User.ID, sh, p.Guard.Kinds())
		if err != nil {
			s.writeError(w, r, err)
			return
		}
		writeData(w, http.StatusOK, items)
	}
}

// visited records that the caller opened record ?type=&id= (204).
func (s *Server) visited(w http.ResponseWriter, r *http.Request) {
	k, id, err := s.shelvedRecord(r)
	if err == nil {
		err = shortlist.Visited(r.Context(), s.recordStore(r), caller(r).User.ID, k, id, time.Now())
	}
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// favourite stars (PUT) or unstars (DELETE) record ?type=&id= for the
// caller (204; both idempotent). A full shelf is a 409.
func (s *Server) favourite(w http.ResponseWriter, r *http.Request) {
	k, id, err := s.shelvedRecord(r)
	if err == nil {
		err = shortlist.SetFavourite(r.Context(), s.recordStore(r), caller(r).User.ID, k, id, r.Method == http.MethodPut, time.Now())
	}
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// shelvedRecord reads ?type= (a kind the role may see) and ?id= of a call
// that takes no body.
func (s *Server) shelvedRecord(r *http.Request) (*records.Kind, int64, error) {
	if err := noBody(r); err != nil {
		return nil, 0, err
	}
	k, err := s.kind(r, q(r, "type"))
	if err != nil {
		return nil, 0, err
	}
	id, ok := records.ParseID(q(r, "id"))
	if !ok {
		return nil, 0, portal.Invalid("A record id is required.", portal.FieldError{Field: "id", Message: "A positive number."})
	}
	return k, id, nil
}
