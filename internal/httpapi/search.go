package httpapi

import (
	"net/http"

	"github.com/portico/portico/internal/portal"
	"github.com/portico/portico/internal/records"
	"github.com/portico/portico/internal/search"
)

// searchRecords answers the global search (SPEC §7: GET
// /api/v1/{erp}/{product}?method=search&query=<text>): at most 20 records
// of the kinds the role may see, best first, each with its name and domain
// (its view page). An optional &type= limits it to one kind (the record
// lookups of filters and forms). Text too short to search answers no
// results; text too long is a 400. With &groups=true the answer is
// {results, groups, text} (search.Grouped): the results, and how many
// records of each kind the kind's list finds for the same text, for the
// app's groups and their "see all".
func (s *Server) searchRecords(w http.ResponseWriter, r *http.Request) {
	if m := q(r, "method"); m != "search" {
		s.writeError(w, r, portal.Invalid("Unknown method: this path answers method=search.",
			portal.FieldError{Field: "method", Message: "Must be search."}))
		return
	}
	query, err := search.Parse(q(r, "query"))
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	kinds := caller(r).Guard.Kinds()
	if t := q(r, "type"); t != "" {
		k, err := s.kind(r, t)
		if err != nil {
			s.writeError(w, r, err)
			return
		}
		kinds = []*records.Kind{k}
	}
	var found any
	switch g := q(r, "groups"); g {
	case "", "false":
		found, err = search.Search(r.Context(), s.recordStore(r), query, kinds)
	case "true":
		found, err = search.SearchGrouped(r.Context(), s.recordStore(r), s.recordStore(r), query, kinds)
	default:
		err = portal.Invalid("groups is true or false.", portal.FieldError{Field: "groups", Message: "true or false."})
	}
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	writeData(w, http.StatusOK, found)
}
