package sqlstore

import (
	"context"
	"fmt"
	"strings"

	"github.com/portico/portico/internal/portal"
	"github.com/portico/portico/internal/records"
)

// groupKeys are the SQL of a group's key per column: references group by
// id and show the name; dates group by month.
var groupKeys = map[records.Column]struct{ group, key string }{
	records.ColTitle:   {"title", "title"},
	records.ColCode:    {"code", "code"},
	records.ColStatus:  {"status", "status"},
	records.ColParent:  {"parent_id", "MAX(parent_name)"},
	records.ColProject: {"project_id", "MAX(project_name)"},
	records.ColDate:    {"substr(occurred_on, 1, 7)", "substr(occurred_on, 1, 7)"},
}

var aggregateSQL = map[string]string{
	records.AggCount: "CAST(COUNT(*) AS DOUBLE PRECISION)",
	records.AggSum:   "CAST(COALESCE(SUM(amount), 0) AS DOUBLE PRECISION) / 100",
	records.AggAvg:   "CAST(AVG(amount) AS DOUBLE PRECISION) / 100",
	records.AggMin:   "CAST(MIN(amount) AS DOUBLE PRECISION) / 100",
	records.AggMax:   "CAST(MAX(amount) AS DOUBLE PRECISION) / 100",
}

// GroupRecords runs a grouped report over every record of the kind
// matching the filter (not a page): at most q.Limit groups.
func (t *Tenant) GroupRecords(ctx context.Context, q records.GroupQuery) ([]records.Group, error) {
	g, ok := groupKeys[q.GroupBy]
	if !ok || len(q.Fns) == 0 || q.Limit < 1 {
		return nil, portal.Errorf(portal.CodeInvalid, "This report cannot be grouped that way.")
	}
	cols := []string{"COALESCE(" + g.key + ", '')"}
	for _, fn := range q.Fns {
		sql, ok := aggregateSQL[fn]
		if !ok {
			return nil, portal.Errorf(portal.CodeInvalid, "Unknown aggregate %q.", fn)
		}
		cols = append(cols, sql)
	}
	k, err := listKind(q.Kind)
	if err != nil {
		return nil, err
	}
	where, args, err := whereClause(t.d, k, records.ListQuery{Kind: q.Kind, Filter: q.Filter}, predicate{})
	if err != nil {
		return nil, err
	}
	order := "1"
	if q.ByValue {
		order = "2 DESC, 1"
	}
	st := scope(fmt.Sprintf(`SELECT %s FROM records WHERE %s GROUP BY %s ORDER BY %s LIMIT %d`,
		strings.Join(cols, ", "), strings.Join(where, " AND "), g.group, order, q.Limit))
	rows, err := t.query(ctx, st, args...)
	if err != nil {
		return nil, fmt.Errorf("group records: %w", err)
	}
	defer rows.Close()
	out := []records.Group{}
	for rows.Next() {
		gr := records.Group{Values: make([]float64, len(q.Fns))}
		vals := make([]*float64, len(q.Fns))
		dest := []any{&gr.Key}
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
		}
		out = append(out, gr)
	}
	return out, rows.Err()
}
