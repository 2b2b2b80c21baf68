package sqlstore

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/portico/portico/internal/portal"
	"github.com/portico/portico/internal/records"
)

// groupKeys are the SQL of a group's key per promoted column: references
// group by id and show the name; dates group by month. A document field
// groups by its sort expression (a reference by its name).
var groupKeys = map[records.Column]struct{ group, key string }{
	records.ColTitle:   {"title", "title"},
	records.ColCode:    {"code", "code"},
	records.ColStatus:  {"status", "status"},
	records.ColParent:  {"parent_id", "MAX(parent_name)"},
	records.ColProject: {"project_id", "MAX(project_name)"},
	records.ColDate:    {"substr(occurred_on, 1, 7)", "substr(occurred_on, 1, 7)"},
}

// aggregateSQL is an aggregate's SQL over a summable field's value in
// hundredths (summableValue), as a number of units.
func aggregateSQL(fn, value string) (string, bool) {
	switch fn {
	case records.AggCount:
		return "CAST(COUNT(*) AS DOUBLE PRECISION)", true
	case records.AggSum:
		return "CAST(COALESCE(SUM(" + value + "), 0) AS DOUBLE PRECISION) / 100", true
	case records.AggAvg, records.AggMin, records.AggMax:
		return "CAST(" + strings.ToUpper(fn) + "(" + value + ") AS DOUBLE PRECISION) / 100", true
	}
	return "", false
}

// GroupRecords runs a grouped report over every record of the kind
// matching the filter (not a page): at most q.Limit groups.
func (t *Tenant) GroupRecords(ctx context.Context, q records.GroupQuery) ([]records.Group, error) {
	k, err := t.d.listKind(q.Kind)
	if err != nil {
		return nil, err
	}
	// It reads every record of its filter, as a summary does.
	d, err := t.planSummary(ctx, k, q.Filter)
	if err != nil {
		return nil, err
	}
	where, args, err := whereClause(d, k, records.ListQuery{Kind: q.Kind, Filter: q.Filter}, predicate{})
	if err != nil {
		return nil, err
	}
	g, ok := groupKeys[q.GroupBy]
	if f, doc := docField(k, q.GroupBy); doc {
		expr, _ := t.d.docSortExpr(f)
		g, ok = struct{ group, key string }{expr, "CAST(" + expr + " AS TEXT)"}, f.Type != records.TypeMoney && f.Type != records.TypeQuantity
		if f.Type == records.TypeDate {
			g.group, g.key = "substr("+expr+", 1, 7)", "substr("+expr+", 1, 7)"
		}
	}
	if !ok || len(q.Fns) == 0 || q.Limit < 1 {
		return nil, portal.Errorf(portal.CodeInvalid, "This report cannot be grouped that way.")
	}
	cols := []string{"COALESCE(" + g.key + ", '')"}
	// Aggregates of values of several units (money of several currencies,
	// credits of several types) are per unit: one group per key and unit.
	var units []string
	unitOf := make([]int, len(q.Fns))
	for i, fn := range q.Fns {
		value := ""
		unitOf[i] = -1
		if fn != records.AggCount {
			var of records.Column
			if i < len(q.Of) {
				of = q.Of[i]
			}
			f, ok := k.Field(of)
			if d, doc := docField(k, of); doc {
				f, ok = d, true
			}
			if !ok || !f.Summable {
				return nil, portal.Errorf(portal.CodeInvalid, "%s needs a money or quantity field.", fn)
			}
			value = t.d.summableValue(f.Column)
			if u := t.d.unitSQL(k, f); u != "" {
				if unitOf[i] = slices.Index(units, u); unitOf[i] < 0 {
					unitOf[i], units = len(units), append(units, u)
				}
			}
		}
		sql, ok := aggregateSQL(fn, value)
		if !ok {
			return nil, portal.Errorf(portal.CodeInvalid, "Unknown aggregate %q.", fn)
		}
		cols = append(cols, sql)
	}
	group, order := []string{g.group}, "1"
	for i, u := range units {
		cols = slices.Insert(cols, 1+i, "COALESCE("+u+", '')")
		group = append(group, u)
		order += fmt.Sprintf(", %d", 2+i)
	}
	if q.ByValue {
		order = fmt.Sprintf("%d DESC, %s", 2+len(units), order)
	}
	st := scope(fmt.Sprintf(`SELECT %s FROM records WHERE %s GROUP BY %s ORDER BY %s LIMIT %d`,
		strings.Join(cols, ", "), strings.Join(where, " AND "), strings.Join(group, ", "), order, q.Limit))
	rows, err := t.query(ctx, st, args...)
	if err != nil {
		return nil, fmt.Errorf("group records: %w", err)
	}
	defer rows.Close()
	out := []records.Group{}
	for rows.Next() {
		gr := records.Group{Values: make([]float64, len(q.Fns)), Units: make([]string, len(q.Fns))}
		vals := make([]*float64, len(q.Fns))
		us := make([]string, len(units))
		dest := []any{&gr.Key}
		for i := range us {
			dest = append(dest, &us[i])
		}
		for i := range vals {
			dest = append(dest, &vals[i])
		}
		if err := rows.Scan(dest...); err != nil {
			return nil, fmt.Errorf("group records: %w", err)
		}
		for i, v := range vals {
			if v != nil {
				gr.Values[i] = *v
			}
			if unitOf[i] >= 0 {
				gr.Units[i] = us[unitOf[i]]
			}
		}
		out = append(out, gr)
	}
	return out, rows.Err()
}
