package httpapi

import (
	"net/http"

	"github.com/portico/portico/internal/portal"
	"github.com/portico/portico/internal/records"
)

// Reports are saved lists with a report part (records.ReportSpec); they
// are saved, shared and deleted through the same code as saved lists.

// reports answers the reports the caller may see: theirs and their role's,
// of kinds the role may see.
func (s *Server) reports(w http.ResponseWriter, r *http.Request) {
	p := caller(r)
	all, err := s.recordStore(r).VisibleReports(r.Context(), p.User.ID, p.Role.ID)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	out := []records.ListConfig{}
	for _, l := range all {
		if k, ok := p.Guard.Registry().Lookup(l.Kind); ok && p.Guard.May(k, records.ActView) {
			l.Editable = p.lists().MayEdit(l)
			out = append(out, l)
		}
	}
	writeData(w, http.StatusOK, out)
}

func (s *Server) saveReport(w http.ResponseWriter, r *http.Request)   { s.saveConfig(w, r, true) }
func (s *Server) deleteReport(w http.ResponseWriter, r *http.Request) { s.deleteConfig(w, r, true) }

// runReport runs a saved report (GET ?id=), or an unsaved definition for
// a preview (POST ?type= with the report as body), over every matching
// record (records.Kind.RunReport); &format=csv downloads it.
func (s *Server) runReport(w http.ResponseWriter, r *http.Request) {
	var (
		k   *records.Kind
		cfg records.ListConfig
		err error
	)
	if r.Method == http.MethodPost {
		if k, err = s.kind(r, q(r, "type")); err == nil {
			var in records.ListInput
			if err = decodeJSON(r, &in); err == nil && in.Report == nil {
				err = portal.Invalid("A report needs its report part.", portal.FieldError{Field: "report", Message: "Required."})
			}
			if err == nil {
				if err = in.Validate(k); err == nil {
					cfg = records.ListConfig{Kind: k.Name, Name: in.Name, Columns: in.Columns, Filter: in.Filter, Sort: in.Sort, Report: in.Report}
				}
			}
		}
	} else {
		k, cfg, err = s.savedReport(r)
	}
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	st := s.recordStore(r)
	if q(r, "format") == "csv" && cfg.Report.GroupBy == "" {
		s.writeCSV(w, r, st, k, cfg, records.ListRequest{}, records.Filter{})
		return
	}
	ans, err := k.RunReport(r.Context(), st, cfg)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	if q(r, "format") == "csv" {
		s.writeRowsCSV(w, r, cfg.Name, ans.Columns, ans.Rows)
		return
	}
	writeData(w, http.StatusOK, ans)
}

// savedReport loads report ?id= for the caller: visible to them, of a kind
// their role may see (else 404 or 403).
func (s *Server) savedReport(r *http.Request) (*records.Kind, records.ListConfig, error) {
	l, err := s.recordStore(r).List(r.Context(), q(r, "id"))
	if err != nil || l.Report == nil || !caller(r).lists().Sees(l) {
		return nil, l, portal.Errorf(portal.CodeNotFound, "No such report.")
	}
	k, err := s.kind(r, l.Kind)
	return k, l, err
}
