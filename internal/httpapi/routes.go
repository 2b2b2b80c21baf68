package httpapi

// routes registers the whole HTTP surface. Read this file to know the API.
func (s *Server) routes() {
	// Public: liveness and readiness for load balancers and `make run`.
	s.mux.HandleFunc("GET /api/v1/health", s.health)

	// Anything else under /api is an API miss: a problem document, never
	// the app's index page.
	s.mux.HandleFunc("/api/", s.apiNotFound)

	// The single-page app: hashed assets, and index.html for client routes.
	// (Registered for every method: "GET /" would conflict with "/api/".)
	s.mux.HandleFunc("/", s.serveApp)
}
