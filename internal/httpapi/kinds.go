package httpapi

import (
	"net/http"

	"github.com/portico/portico/internal/records"
)

// kinds answers the record-kind registry — the kinds the caller's role may
// see — so the app's pages, menus and links come from the same single
// description as the server's.
func (s *Server) kinds(w http.ResponseWriter, r *http.Request) {
	role := caller(r).Role
	out := []*records.Kind{}
	for _, k := range records.All() {
		if role.Can(k.Route + ".view") {
			out = append(out, k)
		}
	}
	writeData(w, http.StatusOK, out)
}
