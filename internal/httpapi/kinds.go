package httpapi

import (
	"net/http"

	"github.com/portico/portico/internal/records"
)

// kinds answers the record-kind registry, so the app's pages, menus and
// links come from the same single description as the server's.
func (s *Server) kinds(w http.ResponseWriter, r *http.Request) {
	writeData(w, http.StatusOK, records.All())
}
