package httpapi

import (
	"context"
	"net/http"
	"time"

	"github.com/portico/portico/internal/portal"
)

type healthData struct {
	Status   string `json:"status"`
	Database string `json:"database"`
}

// health answers 200 when the database answers within two seconds, 503
// otherwise.
func (s *Server) health(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(r.Context(), 2*time.Second)
	defer cancel()
	if err := s.store.Ping(ctx); err != nil {
		s.writeError(w, r, portal.Wrap(portal.CodeUnavailable, err, "The database is not answering."))
		return
	}
	writeData(w, http.StatusOK, healthData{Status: "ok", Database: s.store.Engine()})
}
