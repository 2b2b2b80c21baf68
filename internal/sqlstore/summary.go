package sqlstore

import (
	"context"
	"fmt"
	"math"
	"strings"

	"github.com/portico/portico/internal/portal"
	"github.com/portico/portico/internal/records"
)

// Counts and totals of a list's whole result, at bounded cost: never a
// count or a sum of every record a request matches.
//
//   - A list without filter or text reads its kind's count and sums, which
//     migration 0020's triggers keep in the transaction of every write.
//   - Otherwise a probe reads at most records.SummaryExact+1 matching rows
//     (in whatever index order the planner picks): a result no larger is
//     counted and totalled exactly.
//   - A larger result is estimated from a sample of the kind's records,
//     summaryStrata runs of summaryRun records spread evenly over its ids:
//     the share that matches times the kind's count, their mean times that
//     estimate. Both are marked estimated.

const (
	summaryStrata = 16
	summaryRun    = 64
)

// Summarize counts and totals a list's whole result (see records.Summary).
func (t *Tenant) Summarize(ctx context.Context, q records.SummaryQuery) (records.Summary, error) {
	var out records.Summary
	k, err := listKind(q.List.Kind)
	if err != nil {
		return out, err
	}
	for _, f := range q.Sum {
		if !f.Summable {
			return out, portal.Errorf(portal.CodeInvalid, "%s cannot be totalled.", f.Label)
		}
	}
	if !q.Count && len(q.Sum) == 0 {
		return out, nil
	}
	if len(q.Sum) > 0 {
		out.Totals = make(map[string]float64, len(q.Sum))
	}
	if q.List.Filter.Conditions() == 0 && q.List.Text == "" {
		return t.keptSummary(ctx, k, q.Sum, out)
	}
	text, err := t.textMatch(ctx, q.List)
	if err != nil {
		return out, err
	}
	where, args, err := whereClause(t.d, k, q.List, text)
	if err != nil {
		return out, err
	}
	vals := make([]string, len(q.Sum))
	for i, f := range q.Sum {
		vals[i] = t.d.summableValue(f.Column)
	}
	// The probe.
	inner, outer := []string{"1 AS m"}, []string{"COUNT(*)"}
	for i, v := range vals {
		inner, outer = append(inner, fmt.Sprintf("%s AS v%d", v, i)), append(outer, fmt.Sprintf("COALESCE(SUM(v%d), 0)", i))
	}
	st := scope(fmt.Sprintf(`SELECT %s FROM (SELECT %s FROM records WHERE %s LIMIT %d) p`,
		strings.Join(outer, ", "), strings.Join(inner, ", "), strings.Join(where, " AND "), records.SummaryExact+1))
	n, sums, err := t.summaryRow(ctx, st, len(vals), args...)
	if err != nil {
		return out, fmt.Errorf("summarize %s: %w", k.Name, err)
	}
	if n <= records.SummaryExact {
		out.Total = int64(n)
		for i, f := range q.Sum {
			out.Totals[f.Name] = sums[i] / 100
		}
		return out, nil
	}
	return t.estimateSummary(ctx, k, q.Sum, vals, where[2:], args, n, sums, out)
}

// keptSummary answers an unfiltered list from the kept count and sums.
func (t *Tenant) keptSummary(ctx context.Context, k *records.Kind, sum []records.Field, out records.Summary) (records.Summary, error) {
	n, err := t.keptCount(ctx, k)
	if err != nil {
		return out, err
	}
	out.Total = n
	if len(sum) == 0 {
		return out, nil
	}
	rows, err := t.query(ctx, scope(`SELECT field, total FROM record_sums WHERE tenant_id = :tenant AND kind = ?`), k.Name)
	if err != nil {
		return out, fmt.Errorf("summarize %s: %w", k.Name, err)
	}
	defer rows.Close()
	kept := map[string]int64{}
	for rows.Next() {
		var field string
		var total int64
		if err := rows.Scan(&field, &total); err != nil {
			return out, err
		}
		kept[field] = total
	}
	for _, f := range sum {
		out.Totals[f.Name] = float64(kept[string(f.Column)]) / 100
	}
	return out, rows.Err()
}

func (t *Tenant) keptCount(ctx context.Context, k *records.Kind) (int64, error) {
	var n int64
	err := t.queryRow(ctx, scope(`SELECT COALESCE((SELECT n FROM record_counts WHERE tenant_id = :tenant AND kind = ?), 0)`), k.Name).Scan(&n)
	return n, err
}

// summaryRow runs a statement answering a count and then nSums sums.
func (t *Tenant) summaryRow(ctx context.Context, st scoped, nSums int, args ...any) (float64, []float64, error) {
	var n float64
	sums := make([]float64, nSums)
	dest := []any{&n}
	for i := range sums {
		dest = append(dest, &sums[i])
	}
	err := t.queryRow(ctx, st, args...).Scan(dest...)
	return n, sums, err
}

// estimateSummary estimates a result larger than records.SummaryExact from
// the kind's sample (see above). pred is the result's predicate without
// tenant and kind, with its arguments; probeSums are the probe's totals
// of its SummaryExact+1 rows, the fallback for a sample with too few
// matches to average.
func (t *Tenant) estimateSummary(ctx context.Context, k *records.Kind, sum []records.Field, vals, pred []string, args []any,
	probed float64, probeSums []float64, out records.Summary) (records.Summary, error) {
	kindN, err := t.keptCount(ctx, k)
	if err != nil {
		return out, err
	}
	var lo, hi int64
	err = t.queryRow(ctx, scope(`SELECT COALESCE((SELECT id FROM records WHERE tenant_id = :tenant AND `+kindIs(k)+` ORDER BY id LIMIT 1), 0),
		COALESCE((SELECT id FROM records WHERE tenant_id = :tenant AND `+kindIs(k)+` ORDER BY id DESC LIMIT 1), 0)`)).Scan(&lo, &hi)
	if err != nil {
		return out, fmt.Errorf("summarize %s: %w", k.Name, err)
	}
	var runs []string
	var bounds []any
	step := max(1, (hi-lo+1+summaryStrata-1)/summaryStrata)
	for start := lo; start <= hi; start += step {
		runs = append(runs, fmt.Sprintf(`SELECT * FROM (SELECT * FROM records WHERE tenant_id = :tenant AND %s AND id >= ? AND id < ? ORDER BY id LIMIT %d) s%d`,
			kindIs(k), summaryRun, len(runs)))
		bounds = append(bounds, start, start+step)
	}
	cols, outer := []string{"CASE WHEN " + strings.Join(pred, " AND ") + " THEN 1 ELSE 0 END AS m"}, []string{"COUNT(*)", "COALESCE(SUM(m), 0)"}
	for i, v := range vals {
		cols, outer = append(cols, fmt.Sprintf("%s AS v%d", v, i)), append(outer, fmt.Sprintf("COALESCE(SUM(m * v%d), 0)", i))
	}
	st := scope(fmt.Sprintf(`SELECT %s FROM (SELECT %s FROM (%s) records) x`,
		strings.Join(outer, ", "), strings.Join(cols, ", "), strings.Join(runs, " UNION ALL ")))
	var sampled float64
	dest := []any{&sampled}
	matched, sums := 0.0, make([]float64, len(vals))
	dest = append(dest, &matched)
	for i := range sums {
		dest = append(dest, &sums[i])
	}
	if err := t.queryRow(ctx, st, append(append([]any{}, args...), bounds...)...).Scan(dest...); err != nil {
		return out, fmt.Errorf("summarize %s: %w", k.Name, err)
	}
	// At least the probe's rows match.
	total := probed
	if sampled > 0 {
		total = max(probed, math.Round(float64(kindN)*matched/sampled))
	}
	out.Total, out.TotalEstimated = int64(total), true
	for i, f := range sum {
		mean := probeSums[i] / probed
		if matched >= 20 {
			mean = sums[i] / matched
		}
		out.Totals[f.Name] = math.Round(mean*total) / 100
	}
	out.TotalsEstimated = len(sum) > 0
	return out, nil
}
