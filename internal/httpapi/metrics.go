package httpapi

import (
	"crypto/subtle"
	"net/http"
	"strings"

	"github.com/portico/portico/internal/portal"
)

// metrics answers GET /metrics in Prometheus' text format to a scraper
// that sends the configured token as a bearer token; without a token
// configured the route does not exist (a 404). Refusals are problem
// documents like every other error answer.
func (s *Server) metrics(w http.ResponseWriter, r *http.Request) {
	token, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	if s.metricsToken == "" || s.writeMetrics == nil {
		s.writeError(w, r, portal.Errorf(portal.CodeNotFound, "No endpoint %q.", r.Method+" "+r.URL.Path))
		return
	}
	if !ok || subtle.ConstantTimeCompare([]byte(token), []byte(s.metricsToken)) != 1 {
		w.Header().Set("WWW-Authenticate", `Bearer realm="metrics"`)
		s.writeError(w, r, portal.Errorf(portal.CodeInvalidCredentials, "Send the metrics token as a bearer token."))
		return
	}
	w.Header().Set("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	if err := s.writeMetrics(r.Context(), w); err != nil {
		streamFailed(r, err)
	}
}
