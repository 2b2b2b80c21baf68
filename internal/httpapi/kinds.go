package httpapi

import (
	"net/http"

	"github.com/portico/portico/internal/records"
)

// kinds answers the record-kind registry — the kinds the caller's role may
// see — so the app's pages, menus and links come from the same single
// description as the server's.
func (s *Server) kinds(w http.ResponseWriter, r *http.Request) {
	base, err := s.baseCurrency(r)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	kinds := caller(r).Guard.Kinds()
	for i, k := range kinds {
		kinds[i] = k.InCurrency(base) // money is in the tenant's base currency unless a record says otherwise
	}
	writeData(w, http.StatusOK, kinds)
}

// kindRoutes answers the route and plural label of every record kind
// (records.Routes), those the caller's role may not see included.
func (s *Server) kindRoutes(w http.ResponseWriter, r *http.Request) {
	writeData(w, http.StatusOK, records.Routes())
}
