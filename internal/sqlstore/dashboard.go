package sqlstore

import (
	"context"
	"crypto/sha256"
	"fmt"
	"strings"

	"github.com/portico/portico/internal/records"
)

// Tally implements records.DashboardStore: for the records of q.Kind
// matching q.Filter (the scope), per bucket, how many match the bucket's
// filter too and the total of q.Sum over them (hundredths), in one
// statement. Every filter compiles as a list's does (filterSQL) and
// totals as Summarize's (summableValue). Like Summarize's probe it reads
// at most records.SummaryExact+1 rows of the scope: for a larger scope it
// answers Exact false and no buckets, and the caller asks Summarize per
// bucket, as the lists do.
func (t *Tenant) Tally(ctx context.Context, q records.TallyQuery) (records.Tally, error) {
	k, err := listKind(q.Kind)
	if err != nil {
		return records.Tally{}, err
	}
	value := "0"
	if q.Sum != "" {
		value = t.d.summableValue(q.Sum)
	}
	cols := []string{"COUNT(*)"}
	var args []any
	for _, b := range q.Buckets {
		if err := b.CheckCost(); err != nil {
			return records.Tally{}, err
		}
		pred, pargs := "1 = 1", []any(nil)
		for i, part := range b.Parts() {
			sql, fargs, err := filterSQL(t.d, k, part)
			if err != nil {
				return records.Tally{}, err
			}
			if i == 0 {
				pred = sql
			} else {
				pred += " AND " + sql
			}
			pargs = append(pargs, fargs...)
		}
		// The predicate twice, so its arguments twice, in order.
		cols = append(cols, "COALESCE(SUM(CASE WHEN "+pred+" THEN 1 ELSE 0 END), 0)",
			"COALESCE(SUM(CASE WHEN "+pred+" THEN v ELSE 0 END), 0)")
		args = append(append(args, pargs...), pargs...)
	}
	where, wargs, err := whereClause(t.d, k, records.ListQuery{Kind: q.Kind, Filter: q.Filter}, predicate{})
	if err != nil {
		return records.Tally{}, err
	}
	st := scope(fmt.Sprintf(`SELECT %s FROM (SELECT *, %s AS v FROM records WHERE %s LIMIT %d) p`,
		strings.Join(cols, ", "), value, strings.Join(where, " AND "), records.SummaryExact+1))
	vals := make([]int64, len(cols))
	dest := make([]any, len(cols))
	for i := range vals {
		dest[i] = &vals[i]
	}
	// The buckets' placeholders come first in the text, then the scope's.
	if err := t.queryRow(ctx, st, append(args, wargs...)...).Scan(dest...); err != nil {
		return records.Tally{}, fmt.Errorf("tally %s: %w", q.Kind, err)
	}
	if vals[0] > records.SummaryExact {
		return records.Tally{}, nil
	}
	out := records.Tally{Exact: true, Buckets: make([]records.BucketTally, len(q.Buckets))}
	for i := range out.Buckets {
		out.Buckets[i] = records.BucketTally{Count: vals[1+2*i], Sum: vals[2+2*i]}
	}
	return out, nil
}

// filterIndexes are the indexes the dashboard's cards need beyond the
// sort indexes (docIndexes includes them): for each field the dashboard
// filters on (records.IndexedFilters), (tenant, the field's filter
// expression, id) over its kind's rows, so that "mine" (an owner's id)
// and open balances (an amount remaining above zero) are index ranges.
// The expression is the filter's own SQL (conditionSQL), so the index is
// the one the filter can use.
func (d dialect) filterIndexes() map[string]string {
	out := map[string]string{}
	for _, kf := range records.IndexedFilters() {
		sql, _, err := conditionSQL(d, kf.Kind, records.Cond{Column: kf.Field.Column, Type: kf.Field.Type, Op: records.OpEq, Value: int64(0)})
		if err != nil {
			panic(fmt.Sprintf("sqlstore: the dashboard filters on %s.%s, which has no filter SQL: %v", kf.Kind.Name, kf.Field.Name, err))
		}
		expr := strings.TrimSuffix(sql, " = ?")
		ddl := fmt.Sprintf("ON records (tenant_id, (%s), id) WHERE %s", expr, kindIs(kf.Kind))
		sum := sha256.Sum256([]byte(ddl))
		name := fmt.Sprintf("%s%x", docIndexPrefix, sum[:8])
		out[name] = "CREATE INDEX IF NOT EXISTS " + name + " " + ddl
	}
	return out
}
