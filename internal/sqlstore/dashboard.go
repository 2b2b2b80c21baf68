package sqlstore

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"fmt"
	"strings"

	"github.com/portico/portico/internal/records"
)

// Tally implements records.DashboardStore: for the records of q.Kind
// matching q.Filter (the scope), per bucket, how many match the bucket's
// filter too and the totals of q.Sum over them (hundredths) per unit
// (unitSQL: one group of the statement per unit), in one statement. Every filter compiles as a list's does (filterSQL) and
// totals as Summarize's (summableValue). Like Summarize's probe it reads
// at most records.SummaryExact+1 rows of the scope: for a larger scope it
// answers Exact false and no buckets, and the caller asks Summarize per
// bucket, as the lists do.
func (t *Tenant) Tally(ctx context.Context, q records.TallyQuery) (records.Tally, error) {
	k, err := t.d.listKind(q.Kind)
	if err != nil {
		return records.Tally{}, err
	}
	// It reads its scope's records as a summary does.
	d, err := t.planSummary(ctx, k, q.Filter)
	if err != nil {
		return records.Tally{}, err
	}
	value, unit := "0", "''"
	if q.Sum.Column != "" {
		value = d.summableValue(q.Sum.Column)
		if u := d.unitSQL(k, q.Sum); u != "" {
			unit = u
		}
	}
	cols := []string{"u", "COUNT(*)"}
	marks := []string{"v", "u"}
	var args []any
	for _, b := range q.Buckets {
		if err := b.CheckCost(); err != nil {
			return records.Tally{}, err
		}
		pred, pargs := "1 = 1", []any(nil)
		for i, part := range b.Parts() {
			sql, fargs, err := filterSQL(d, k, part)
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
		// Each bucket's predicate once per record (a document field's
		// is a JSON lookup), its count and sum from that.
		n := len(marks)
		marks = append(marks, fmt.Sprintf("CASE WHEN %s THEN 1 ELSE 0 END AS b%d", pred, n))
		cols = append(cols, fmt.Sprintf("COALESCE(SUM(b%d), 0)", n), fmt.Sprintf("COALESCE(SUM(b%d * v), 0)", n))
		args = append(args, pargs...)
	}
	where, wargs, err := whereClause(d, k, records.ListQuery{Kind: q.Kind, Filter: q.Filter}, predicate{})
	if err != nil {
		return records.Tally{}, err
	}
	if large, err := t.largerThanExact(ctx, k, q.Filter, where, wargs); err != nil || large {
		return records.Tally{}, err
	}
	// Materialized: each record's marks are worked out once, not again
	// in each aggregate that reads them.
	st := scope(fmt.Sprintf(`WITH p AS MATERIALIZED (SELECT %s FROM (SELECT *, %s AS v, %s AS u FROM records WHERE %s LIMIT %d) r)
		SELECT %s FROM p GROUP BY u`,
		strings.Join(marks, ", "), value, unit, strings.Join(where, " AND "), records.SummaryExact+1, strings.Join(cols, ", ")))
	// The buckets' placeholders come first in the text, then the scope's.
	rows, err := t.query(ctx, st, append(args, wargs...)...)
	if err != nil {
		return records.Tally{}, fmt.Errorf("tally %s: %w", q.Kind, err)
	}
	defer rows.Close()
	out := records.Tally{Exact: true, Buckets: make([]records.BucketTally, len(q.Buckets))}
	for i := range out.Buckets {
		out.Buckets[i].Sums = map[string]int64{}
	}
	var n int64
	vals := make([]int64, len(cols)-1)
	dest := make([]any, len(cols))
	var u sql.NullString
	dest[0] = &u
	for i := range vals {
		dest[i+1] = &vals[i]
	}
	for rows.Next() {
		if err := rows.Scan(dest...); err != nil {
			return records.Tally{}, fmt.Errorf("tally %s: %w", q.Kind, err)
		}
		n += vals[0]
		for i := range out.Buckets {
			b := &out.Buckets[i]
			b.Count += vals[1+2*i]
			if vals[1+2*i] > 0 {
				b.Sums[u.String] += vals[2+2*i]
			}
		}
	}
	if err := rows.Err(); err != nil {
		return records.Tally{}, fmt.Errorf("tally %s: %w", q.Kind, err)
	}
	if n > records.SummaryExact {
		return records.Tally{}, nil
	}
	return out, nil
}

// filterIndexes are the indexes the dashboard's cards need beyond the
// sort indexes (docIndexes includes them): for each field the dashboard
// filters on (records.IndexedFilters), (tenant, the field's filter
// expression, id) over its kind's rows, so that "mine" (an owner's id)
// and open balances (an amount remaining above zero) are index ranges.
// The expression is the filter's own SQL (conditionSQL), so the index is
// the one the filter can use; an owner's index goes on by name.
func (d dialect) filterIndexes() map[string]string {
	out := map[string]string{}
	for _, kf := range records.IndexedFilters() {
		sql, _, err := conditionSQL(d, kf.Kind, records.Cond{Column: kf.Field.Column, Type: kf.Field.Type, Op: records.OpEq, Value: int64(0)})
		if err != nil {
			panic(fmt.Sprintf("sqlstore: the dashboard filters on %s.%s, which has no filter SQL: %v", kf.Kind.Name, kf.Field.Name, err))
		}
		expr := strings.TrimSuffix(sql, " = ?")
		ddls := []string{fmt.Sprintf("ON records (tenant_id, (%s), id) WHERE %s", expr, kindIs(kf.Kind))}
		if kf.Field.Name == kf.Kind.Owner {
			ddls = []string{
				// A user's own records in a list's default order (by name),
				// as a rule "owner eq $me" shows them: one index walk,
				// holding every promoted column a page shows (records_title's,
				// and the time of the last change, which a search's
				// candidates are ranked by), so such a page reads the index
				// alone.
				fmt.Sprintf("ON records (tenant_id, (%s), title, id%s) WHERE %s", expr, d.carrying(listCovered+", modified_at"), kindIs(kf.Kind)),
				// And by status (sortKeys' status, title), the order a list
				// groups by and a "mine" card of one status counts: a page
				// reads its rows by id (ownerIndexedSort).
				fmt.Sprintf("ON records (tenant_id, (%s), status, title, id) WHERE %s", expr, kindIs(kf.Kind)),
			}
		}
		for _, ddl := range ddls {
			sum := sha256.Sum256([]byte(ddl))
			name := fmt.Sprintf("%s%x", docIndexPrefix, sum[:8])
			out[name] = "CREATE INDEX IF NOT EXISTS " + name + " " + ddl
		}
	}
	return out
}

// largerThanExact reports whether a tally's scope (filter, as where and
// its arguments) holds more than records.SummaryExact records, which the
// tally then leaves to each bucket's summary: read from owner_totals for
// one owner's records, else counted up to SummaryExact+1 through the
// index the scope's condition has (the dashboard's scopes are indexed:
// records.IndexedFilters), not by reading as many whole rows and
// evaluating every bucket on each.
func (t *Tenant) largerThanExact(ctx context.Context, k *records.Kind, filter records.Filter, where []string, args []any) (bool, error) {
	if o, ok := ownerScopeOf(k, records.ListQuery{Kind: k.Name, Filter: filter}); ok {
		kept, ok, err := t.keptOwnerSummary(ctx, k, o, nil, records.Summary{})
		if ok || err != nil {
			return kept.Total > records.SummaryExact, err
		}
	}
	var n int
	err := t.queryRow(ctx, scope(fmt.Sprintf(`SELECT COUNT(*) FROM (SELECT 1 FROM records WHERE %s LIMIT %d) p`,
		strings.Join(where, " AND "), records.SummaryExact+1)), args...).Scan(&n)
	if err != nil {
		return false, fmt.Errorf("tally %s: %w", k.Name, err)
	}
	return n > records.SummaryExact, nil
}
