package httpapi

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/portico/portico/internal/access"
	"github.com/portico/portico/internal/erpsync"
	"github.com/portico/portico/internal/portal"
	"github.com/portico/portico/internal/records"
)

// Syncer is what the API needs of one tenant's ERP sync (an
// *erpsync.Engine); a tenant without an ERP has none.
type Syncer interface {
	Status(ctx context.Context) (erpsync.Status, error)
	RetryRecord(ctx context.Context, kind string, id int64) error
	DiscardRecord(ctx context.Context, kind string, id int64) error
	// Notify says a write was queued; Trigger asks for a pull soon.
	Notify()
	Trigger(kinds []*records.Kind, full bool)
	// Enrich asks for a record's whole document, in the background, and
	// reports whether it did (the page then asks again shortly).
	Enrich(kind string, id int64, version time.Time) bool
	// A record's attachments come from the ERP.
	fileSource
}

// fileSource is where a record's attachments come from: the ERP when the
// tenant has one, the portal's store otherwise.
type fileSource interface {
	Files(ctx context.Context, kind string, recordID int64) ([]records.File, error)
	File(ctx context.Context, kind string, recordID, fileID int64) (records.File, error)
}

// fileSource returns the caller's tenant's file source.
func (s *Server) fileSource(r *http.Request) fileSource {
	if sy := s.syncer(r); sy != nil {
		return sy
	}
	return s.recordStore(r)
}

// syncer returns the caller's tenant's sync, or nil when it has no ERP.
func (s *Server) syncer(r *http.Request) Syncer {
	if s.syncs == nil {
		return nil
	}
	return s.syncs(caller(r).Tenant)
}

// noERPText says why a standalone tenant has no sync.
const noERPText = "This portal is not connected to an ERP: its own database is the system of record."

// noERP is the answer of the sync actions for a standalone tenant.
var noERP = portal.Errorf(portal.CodeNotFound, noERPText)

// syncAnswer is the sync's status: whether the tenant has an ERP at all
// (a standalone tenant's status is that it has none, with why), and where
// its sync stands when it has.
type syncAnswer struct {
	Connected bool   `json:"connected"`
	Message   string `json:"message,omitempty"`
	*erpsync.Status
	// Names are the names of the open entries' records, by entry id
	// (a record the portal no longer has is left out).
	Names map[int64]string `json:"names,omitempty"`
}

// syncStatus answers GET /api/v1/sync/status.
func (s *Server) syncStatus(w http.ResponseWriter, r *http.Request) {
	sy := s.syncer(r)
	if sy == nil {
		writeData(w, http.StatusOK, syncAnswer{Message: noERPText})
		return
	}
	st, err := sy.Status(r.Context())
	if err == nil {
		st, err = st.SeenBy(r.Context(), caller(r).Guard)
	}
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	names := map[int64]string{}
	for _, e := range st.Open { // at most a hundred, each a key lookup
		rec, err := s.recordStore(r).RecordSummary(r.Context(), e.Kind, e.RecordID)
		switch {
		case err == nil:
			names[e.ID] = rec.Title
		case !portal.IsNotFound(err):
			s.writeError(w, r, err)
			return
		}
	}
	writeData(w, http.StatusOK, syncAnswer{Connected: true, Status: &st, Names: names})
}

// syncPage is the app's path of the ERP sync page, as menus link it.
const syncPage = "/sync"

// withoutSyncPage drops the menu items that open the ERP sync page, for a
// tenant without an ERP: there is nothing to see there. A group left
// empty goes too, and so do separators left first, last or doubled.
func withoutSyncPage(items []access.MenuItem) []access.MenuItem {
	out := make([]access.MenuItem, 0, len(items))
	for _, it := range items {
		if strings.TrimRight(it.Href, "/") == syncPage {
			continue
		}
		if len(it.Items) > 0 {
			if it.Items = withoutSyncPage(it.Items); len(it.Items) == 0 && it.Href == "" {
				continue
			}
		}
		if it.Separator && (len(out) == 0 || out[len(out)-1].Separator) {
			continue
		}
		out = append(out, it)
	}
	for len(out) > 0 && out[len(out)-1].Separator {
		out = out[:len(out)-1]
	}
	return out
}

// syncRun answers POST /api/v1/sync/run?kind=&full=true: a pull starts
// in the background (202); the status page shows how it goes.
func (s *Server) syncRun(w http.ResponseWriter, r *http.Request) {
	sy := s.syncer(r)
	if sy == nil {
		s.writeError(w, r, noERP)
		return
	}
	var kinds []*records.Kind
	if name := q(r, "kind"); name != "" {
		k, ok := caller(r).Guard.Registry().Lookup(name)
		if !ok {
			s.writeError(w, r, portal.Invalid(fmt.Sprintf("Unknown record type %q.", name), portal.FieldError{Field: "kind", Message: "Unknown record type."}))
			return
		}
		kinds = append(kinds, k)
	}
	full := q(r, "full") == "true"
	sy.Trigger(kinds, full)
	writeData(w, http.StatusAccepted, map[string]any{"started": true, "full": full})
}

// writeAction answers POST /api/v1/sync/writes/{action}?type=&id=: retry
// or discard a record's change that the ERP has not taken, of a record
// the caller may change (Guard.CheckChange).
func (s *Server) writeAction(w http.ResponseWriter, r *http.Request) {
	sy := s.syncer(r)
	if sy == nil {
		s.writeError(w, r, noERP)
		return
	}
	action := r.PathValue("action")
	if action != "retry" && action != "discard" {
		s.writeError(w, r, portal.Errorf(portal.CodeNotFound, "Use retry or discard."))
		return
	}
	k, err := s.kind(r, q(r, "type"))
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	id, ok := records.ParseID(q(r, "id"))
	if !ok {
		s.writeError(w, r, portal.Invalid("The record id must be a positive number.", portal.FieldError{Field: "id", Message: "A positive number."}))
		return
	}
	if err := caller(r).Guard.CheckChange(r.Context(), k.Name, id); err != nil {
		s.writeError(w, r, err)
		return
	}
	act := sy.RetryRecord
	if action == "discard" {
		act = sy.DiscardRecord
	}
	if err := act(r.Context(), k.Name, id); err != nil {
		s.writeError(w, r, err)
		return
	}
	writeData(w, http.StatusOK, map[string]any{"action": action})
}
