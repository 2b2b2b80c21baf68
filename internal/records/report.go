package records

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/portico/portico/internal/portal"
)

// Reports (issue 6) are saved lists with a ReportSpec: the records of a
// kind matching the list's filter, either as rows (the list's columns and
// sort) or grouped by one field with aggregates, and a chart.

// The aggregate functions.
const (
	AggCount = "count"
	AggSum   = "sum"
	AggAvg   = "avg"
	AggMin   = "min"
	AggMax   = "max"
)

// The chart types. A chart needs groups; an ungrouped report is a table.
var ChartTypes = []string{"table", "bar", "line", "pie"}

// Aggregate is one computed value per group: count of records, or sum,
// average, minimum or maximum of a money or quantity field.
type Aggregate struct {
	Fn    string `json:"fn"`
	Field string `json:"field,omitempty"` // not for count
}

// ReportSpec is what makes a saved list a report.
type ReportSpec struct {
	// GroupBy is the field the records are grouped by; "" for rows. A date
	// field groups by month.
	GroupBy    string      `json:"groupBy"`
	Aggregates []Aggregate `json:"aggregates"`
	// Order of the groups: "key" (by the group, the default) or "value"
	// (by the first aggregate, largest first).
	Order string `json:"order"`
	Chart string `json:"chart"`
}

// check returns the spec's problems against kind k as field errors.
func (sp *ReportSpec) check(k *Kind) []portal.FieldError {
	var errs []portal.FieldError
	add := func(field, format string, args ...any) {
		errs = append(errs, portal.FieldError{Field: field, Message: fmt.Sprintf(format, args...)})
	}
	if !contains(ChartTypes, sp.Chart) {
		add("report.chart", "Choose a chart: table, bar, line or pie.")
	}
	if sp.Order != "" && sp.Order != "key" && sp.Order != "value" {
		add("report.order", "Order groups by key or by value.")
	}
	if sp.GroupBy == "" {
		if sp.Chart != "table" {
			add("report.chart", "A chart needs a group-by field; without one the report is a table.")
		}
		if len(sp.Aggregates) > 0 {
			add("report.aggregates", "Aggregates need a group-by field.")
		}
		return errs
	}
	if f, ok := k.FieldNamed(sp.GroupBy); !ok || f.Type == TypeMoney || f.Type == TypeQuantity {
		add("report.groupBy", "Group by a text, status, reference or date field.")
	}
	if len(sp.Aggregates) == 0 || len(sp.Aggregates) > 5 {
		add("report.aggregates", "Choose one to five aggregates.")
	}
	for i, a := range sp.Aggregates {
		field := fmt.Sprintf("report.aggregates[%d]", i)
		switch a.Fn {
		case AggCount:
			if a.Field != "" {
				add(field, "A count takes no field.")
			}
		case AggSum, AggAvg, AggMin, AggMax:
			if f, ok := k.FieldNamed(a.Field); !ok || (f.Type != TypeMoney && f.Type != TypeQuantity) {
				add(field, "%s needs a money or quantity field.", a.Fn)
			}
		default:
			add(field, "Unknown aggregate %q: use count, sum, avg, min or max.", a.Fn)
		}
	}
	return errs
}

// Label names an aggregate's column: "Count", "Sum of Contract value".
func (a Aggregate) Label(k *Kind) string {
	if a.Fn == AggCount {
		return "Count"
	}
	f, _ := k.FieldNamed(a.Field)
	names := map[string]string{AggSum: "Sum", AggAvg: "Average", AggMin: "Minimum", AggMax: "Maximum"}
	return names[a.Fn] + " of " + f.Label
}

// Group is one row of a grouped report: the group's key (a reference's
// name for reference fields, yyyy-mm for dates), one value per aggregate,
// and each value's unit (UnitTotal's: "" for a count, the base currency
// or a quantity of one unit). A key whose records' values are of several
// units is a group per unit.
type Group struct {
	Key    string    `json:"key"`
	Values []float64 `json:"values"`
	Units  []string  `json:"units"`
}

// GroupQuery asks the store to group a kind's records matching Filter by
// one column (a document field's too), with aggregates.
type GroupQuery struct {
	Kind    string
	Filter  Filter
	GroupBy Column
	Fns     []string // one per aggregate
	Of      []Column // per aggregate, the summable field it is over ("" for a count)
	ByValue bool     // order by the first aggregate, largest first
	Limit   int
}

// ReportStore is what a report reads from the store.
type ReportStore interface {
	ReadStore
	GroupRecords(ctx context.Context, q GroupQuery) ([]Group, error)
}

// MaxGroups bounds a grouped report; MaxReportRows an ungrouped one's
// table (its CSV export, Kind.Export, has every row).
const (
	MaxGroups     = 500
	MaxReportRows = 500
)

// ReportResult is a report's result: a table of its columns, or grouped,
// the chart's data: the key column and one value column per aggregate.
// Total counts the groups, or the records of an ungrouped report (an
// estimate past SummaryExact, then TotalEstimated).
type ReportResult struct {
	Report         ListConfig   `json:"report"`
	Grouped        bool         `json:"grouped"`
	Columns        []ColumnInfo `json:"columns"`
	Rows           []Row        `json:"rows"`
	HasMore        bool         `json:"hasMore"`
	Total          int64        `json:"total"`
	TotalEstimated bool         `json:"totalEstimated,omitempty"`
}

// RunReport runs report cfg (a saved list with a report part, checked by
// ListInput.Validate when saved) over every matching record: its first
// MaxReportRows rows and their count, or its groups (at most MaxGroups).
func (k *Kind) RunReport(ctx context.Context, st ReportStore, cfg ListConfig) (ReportResult, error) {
	cfg, lq, err := k.Query(cfg, ListRequest{})
	if err != nil {
		return ReportResult{}, err
	}
	spec := cfg.Report
	if spec.GroupBy == "" {
		cols := k.Columns(cfg.Columns)
		lq.Limit = MaxReportRows
		page, err := st.ListRecords(ctx, lq)
		if err != nil {
			return ReportResult{}, err
		}
		sum, err := st.Summarize(ctx, SummaryQuery{List: lq, Count: true})
		if err != nil {
			return ReportResult{}, err
		}
		return ReportResult{Report: cfg, Columns: cols, Rows: k.Rows(page.Records, cols), HasMore: page.HasMore,
			Total: sum.Total, TotalEstimated: sum.TotalEstimated}, nil
	}
	group, _ := k.FieldNamed(spec.GroupBy) // Validate checked it
	gq := GroupQuery{Kind: k.Name, Filter: lq.Filter, GroupBy: group.Column, ByValue: spec.Order == "value", Limit: MaxGroups + 1}
	cols := []ColumnInfo{{Name: "key", Label: group.Label, Type: TypeText}}
	units := make([]Unit, len(spec.Aggregates)) // what each aggregate's values are counted in
	for i, a := range spec.Aggregates {
		gq.Fns = append(gq.Fns, a.Fn)
		typ, of := TypeQuantity, Column("")
		if f, ok := k.FieldNamed(a.Field); ok {
			typ, of, units[i] = f.Type, f.Column, k.UnitOf(f)
		}
		gq.Of = append(gq.Of, of)
		cols = append(cols, ColumnInfo{Name: fmt.Sprintf("v%d", i), Label: a.Label(k), Type: typ})
	}
	groups, err := st.GroupRecords(ctx, gq)
	if err != nil {
		return ReportResult{}, err
	}
	ans := ReportResult{Report: cfg, Grouped: true, Columns: cols, Rows: []Row{}, HasMore: len(groups) > MaxGroups}
	for i, g := range groups[:min(len(groups), MaxGroups)] {
		row := Row{"id": i + 1, "key": g.Key}
		var named []string
		for j, v := range g.Values {
			row[fmt.Sprintf("v%d", j)] = v
			u := g.Units[j]
			switch {
			case units[j].Per != nil && u == "":
				u = "no " + strings.ToLower(units[j].Per.Label) // a record without a unit
			case units[j].Currency && u != "":
				row[RowCurrency] = u
			}
			if u != "" && !slices.Contains(named, u) {
				named = append(named, u)
			}
		}
		// A key of several units is several rows: each says its unit (the
		// base currency's says none).
		if len(named) > 0 {
			row["key"] = g.Key + " (" + strings.Join(named, ", ") + ")"
		}
		ans.Rows = append(ans.Rows, row)
		ans.Total++
	}
	return ans, nil
}
