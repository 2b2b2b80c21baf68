package httpapi

import (
	"net/http"
)

// company answers the caller's tenant's company profile (company.Profile):
// the name, address and contact lines its documents print as their
// letterhead. Any signed-in role may read it: it is what the company
// prints on every invoice it sends.
func (s *Server) company(w http.ResponseWriter, r *http.Request) {
	p, err := s.recordStore(r).Company(r.Context())
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	writeData(w, http.StatusOK, p)
}
