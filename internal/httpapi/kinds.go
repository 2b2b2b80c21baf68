package httpapi

import (
	"net/http"

	"github.com/portico/portico/internal/access"
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
	kinds := visibleKinds(caller(r).Role)
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

// visibleKinds are the kinds a role may see (permission "<route>.view"),
// in registry order; never nil. Each is a copy whose CanCreate and CanEdit
// also say whether the role may (permissions "<route>.create" and
// "<route>.edit"), so the app shows only the buttons that will work.
func visibleKinds(role access.Role) []*records.Kind {
	out := []*records.Kind{}
	for _, k := range records.All() {
		if role.Can(k.Route + ".view") {
			mine := *k
			mine.CanCreate = k.CanCreate && role.Can(k.Route+".create")
			mine.CanEdit = k.CanEdit && role.Can(k.Route+".edit")
			out = append(out, &mine)
		}
	}
	return out
}
