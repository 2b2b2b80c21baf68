package httpapi

import (
	"crypto/subtle"
	"net/http"
	"strings"
)

// metrics answers GET /metrics in Prometheus' text format to a scraper
// that sends the configured token as a bearer token; without a token
// configured the route does not exist.
func (s *Server) metrics(w http.ResponseWriter, r *http.Request) {
	token, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	if s.metricsToken == "" || s.writeMetrics == nil {
		http.NotFound(w, r)
		return
	}
	if !ok || subtle.ConstantTimeCompare([]byte(token), []byte(s.metricsToken)) != 1 {
		w.Header().Set("WWW-Authenticate", `Bearer realm="metrics"`)
		http.Error(w, "unauthorized", http.StatusUnauthorized)
		return
	}
	w.Header().Set("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	if err := s.writeMetrics(r.Context(), w); err != nil {
		s.log.Warn("metrics", "err", err)
	}
}
