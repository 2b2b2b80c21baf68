package sqlstore

import (
	"context"
	"fmt"
	"strings"

	"github.com/portico/portico/internal/portal"
	"github.com/portico/portico/internal/records"
)

// Tally implements records.DashboardStore: for the records of q.Kind
// matching q.Filter, per bucket, how many match the bucket's filter too
// and the total of q.Sum over them (hundredths). One statement, one pass
// over the records q.Filter selects; every filter compiles as a list's
// does (filterSQL), so a bucket counts exactly the records a list with
// that filter shows.
func (t *Tenant) Tally(ctx context.Context, q records.TallyQuery) ([]records.Tally, error) {
	if len(q.Buckets) == 0 {
		return nil, nil
	}
	sum := "0"
	if q.Sum != "" {
		expr, err := tallySumExpr(q.Kind, q.Sum)
		if err != nil {
			return nil, err
		}
		sum = "COALESCE(" + expr + ", 0)"
	}
	var cols []string
	var args []any
	for _, b := range q.Buckets {
		if err := b.CheckCost(); err != nil {
			return nil, err
		}
		pred, bargs, err := predicateSQL(b)
		if err != nil {
			return nil, err
		}
		cols = append(cols, "SUM(CASE WHEN "+pred+" THEN 1 ELSE 0 END)",
			"CAST(SUM(CASE WHEN "+pred+" THEN "+sum+" ELSE 0 END) AS BIGINT)")
		args = append(args, bargs...)
		args = append(args, bargs...)
	}
	where, wargs, err := whereClause(records.ListQuery{Kind: q.Kind, Filter: q.Filter}, predicate{})
	if err != nil {
		return nil, err
	}
	st := scope(fmt.Sprintf(`SELECT %s FROM records WHERE %s`, strings.Join(cols, ", "), strings.Join(where, " AND ")))
	vals := make([]*int64, len(cols))
	dest := make([]any, len(cols))
	for i := range vals {
		dest[i] = &vals[i]
	}
	if err := t.queryRow(ctx, st, append(args, wargs...)...).Scan(dest...); err != nil {
		return nil, fmt.Errorf("tally %s: %w", q.Kind, err)
	}
	out := make([]records.Tally, len(q.Buckets))
	for i := range out {
		if vals[2*i] != nil { // SUM over no rows is NULL
			out[i].Count = *vals[2*i]
		}
		if vals[2*i+1] != nil {
			out[i].Sum = *vals[2*i+1]
		}
	}
	return out, nil
}

// predicateSQL compiles a whole filter, every part ANDed, to one
// predicate; the zero filter is true.
func predicateSQL(f records.Filter) (string, []any, error) {
	var ands []string
	var args []any
	for _, part := range f.Parts() {
		sql, pargs, err := filterSQL(part)
		if err != nil {
			return "", nil, err
		}
		ands, args = append(ands, sql), append(args, pargs...)
	}
	if len(ands) == 0 {
		return "1 = 1", nil, nil
	}
	return "(" + strings.Join(ands, " AND ") + ")", args, nil
}

// tallySumExpr is the SQL of an amount column in hundredths, as filters
// compare it: the promoted amount, or a money or quantity document field.
func tallySumExpr(kind string, c records.Column) (string, error) {
	if name, doc := c.DocField(); doc {
		for _, f := range accountFields(kind) {
			if f.Name == name && (f.Type == records.TypeMoney || f.Type == records.TypeQuantity) {
				return docFilterExpr(name, f.Type), nil
			}
		}
	} else if c == records.ColAmount {
		return filterColumns[c], nil
	}
	return "", portal.Errorf(portal.CodeInvalid, "Cannot total %q.", c)
}
