package httpapi

import (
	"fmt"
	"net/http"
	"net/url"

	"github.com/portico/portico/internal/portal"
	"github.com/portico/portico/internal/records"
)

// Reports are saved lists with a report part (records.ReportSpec); they
// are saved, shared and deleted through the same code as saved lists.

// maxGroups bounds a grouped report; maxReportRows an ungrouped one's
// table (its CSV export streams every row).
const (
	maxGroups     = 500
	maxReportRows = 500
)

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
		if k, ok := records.Lookup(l.Kind); ok && p.Role.Can(k.Route+".view") {
			l.Editable = mayEditList(l, p)
			out = append(out, l)
		}
	}
	writeData(w, http.StatusOK, out)
}

func (s *Server) saveReport(w http.ResponseWriter, r *http.Request)   { s.saveConfig(w, r, true) }
func (s *Server) deleteReport(w http.ResponseWriter, r *http.Request) { s.deleteConfig(w, r, true) }

// reportAnswer is a report's result: a table (and, grouped, the chart's
// data: the key column and one value column per aggregate).
type reportAnswer struct {
	Report  records.ListConfig   `json:"report"`
	Grouped bool                 `json:"grouped"`
	Columns []records.ColumnInfo `json:"columns"`
	Rows    []records.Row        `json:"rows"`
	HasMore bool                 `json:"hasMore"`
	Total   int64                `json:"total"`
}

// runReport runs a saved report (GET ?id=), or an unsaved definition for
// a preview (POST ?type= with the report as body), over every matching
// record; &format=csv downloads it.
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
	cfg, lq, err := applyQuery(k, cfg, url.Values{})
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	st := s.recordStore(r)
	spec := cfg.Report
	if spec.GroupBy == "" {
		cols := k.Columns(cfg.Columns)
		if q(r, "format") == "csv" {
			s.writeCSV(w, r, st, k, cfg, cols, lq)
			return
		}
		lq.Limit = maxReportRows
		page, err := st.ListRecords(r.Context(), lq)
		if err != nil {
			s.writeError(w, r, err)
			return
		}
		total, err := st.CountMatching(r.Context(), lq)
		if err != nil {
			s.writeError(w, r, err)
			return
		}
		ans := reportAnswer{Report: cfg, Columns: cols, Rows: make([]records.Row, 0, len(page.Records)), HasMore: page.HasMore, Total: total}
		for _, rec := range page.Records {
			ans.Rows = append(ans.Rows, k.Row(rec, cols))
		}
		writeData(w, http.StatusOK, ans)
		return
	}
	group, _ := k.FieldNamed(spec.GroupBy) // Validate checked it
	gq := records.GroupQuery{Kind: k.Name, Filter: lq.Filter, GroupBy: group.Column, ByValue: spec.Order == "value", Limit: maxGroups + 1}
	cols := []records.ColumnInfo{{Name: "key", Label: group.Label, Type: records.TypeText}}
	for i, a := range spec.Aggregates {
		gq.Fns = append(gq.Fns, a.Fn)
		typ := records.TypeQuantity
		if f, ok := k.FieldNamed(a.Field); ok {
			typ = f.Type
		}
		cols = append(cols, records.ColumnInfo{Name: fmt.Sprintf("v%d", i), Label: a.Label(k), Type: typ})
	}
	groups, err := st.GroupRecords(r.Context(), gq)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	ans := reportAnswer{Report: cfg, Grouped: true, Columns: cols, Rows: []records.Row{}, HasMore: len(groups) > maxGroups}
	for i, g := range groups[:min(len(groups), maxGroups)] {
		row := records.Row{"id": i + 1, "key": g.Key}
		for j, v := range g.Values {
			row[fmt.Sprintf("v%d", j)] = v
		}
		ans.Rows = append(ans.Rows, row)
		ans.Total++
	}
	if q(r, "format") == "csv" {
		out := startCSV(w, cfg.Name, cols)
		line := make([]string, len(cols))
		for _, row := range ans.Rows {
			for i, c := range cols {
				line[i] = csvValue(row[c.Name])
			}
			out.Write(line)
		}
		out.Flush()
		return
	}
	writeData(w, http.StatusOK, ans)
}

// savedReport loads report ?id= for the caller: visible to them, of a kind
// their role may see (else 404 or 403).
func (s *Server) savedReport(r *http.Request) (*records.Kind, records.ListConfig, error) {
	l, err := s.recordStore(r).List(r.Context(), q(r, "id"))
	if err != nil || l.Report == nil || !visibleTo(l, caller(r)) {
		return nil, l, portal.Errorf(portal.CodeNotFound, "No such report.")
	}
	k, err := s.kind(r, l.Kind)
	return k, l, err
}
