package httpapi

import (
	"net/http"
	"time"

	"github.com/portico/portico/internal/records"
)

// dashboard answers the caller's dashboard in their current role: their
// own records, open balances with their aging (as of today, UTC) and the
// credits available, each part only when the role may see its records.
func (s *Server) dashboard(w http.ResponseWriter, r *http.Request) {
	p := caller(r)
	d, err := records.BuildDashboard(r.Context(), s.recordStore(r), p.Guard.Viewer(), time.Now())
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	writeData(w, http.StatusOK, d)
}
