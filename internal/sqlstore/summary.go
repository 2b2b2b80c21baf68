package sqlstore

import (
	"context"
	"database/sql"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/portico/portico/internal/portal"
	"github.com/portico/portico/internal/records"
)

// Counts and totals of a list's whole result, at bounded cost: never a
// count or a sum of every record a request matches.
//
//   - A list without filter or text reads its kind's count and sums, which
//     migration 0020's triggers keep in the transaction of every write; a
//     list narrowed to one owner's records only (the rule "owner eq $me"),
//     or to those of one status, reads that owner's, which 0031's keep
//     (owners.go).
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
// Values of different units are never added: each field's total is per
// unit (unitSQL), one group of the statement per combination of units.
func (t *Tenant) Summarize(ctx context.Context, q records.SummaryQuery) (records.Summary, error) {
	var out records.Summary
	k, err := t.d.listKind(q.List.Kind)
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
		out.Totals = make(map[string][]records.UnitTotal, len(q.Sum))
	}
	g := t.d.sumGrouping(k, q.Sum)
	if q.List.Filter.Conditions() == 0 && q.List.Text == "" {
		kept, ok, err := t.keptSummary(ctx, k, q.Sum, g, out)
		if ok || err != nil {
			return kept, err
		}
	}
	if o, only := ownerScopeOf(k, q.List); only {
		kept, ok, err := t.keptOwnerSummary(ctx, k, o, q.Sum, out)
		if ok || err != nil {
			return kept, err
		}
	}
	text, err := t.textMatch(ctx, q.List)
	if err != nil {
		return out, err
	}
	d, err := t.planSummary(ctx, k, q.List.Filter)
	if err != nil {
		return out, err
	}
	where, args, err := whereClause(d, k, q.List, text)
	if err != nil {
		return out, err
	}
	// The probe.
	inner, outer := []string{"1 AS m"}, []string{"COUNT(*)"}
	for i, v := range g.vals {
		inner, outer = append(inner, fmt.Sprintf("%s AS v%d", v, i)), append(outer, fmt.Sprintf("COALESCE(SUM(v%d), 0)", i))
	}
	st := scope(fmt.Sprintf(`SELECT %s FROM (SELECT %s FROM records WHERE %s LIMIT %d) p%s`,
		g.outer(outer), g.inner(inner), strings.Join(where, " AND "), records.SummaryExact+1, g.groupBy()))
	probe, err := t.sumGroups(ctx, st, g, 1, args...)
	if err != nil {
		return out, fmt.Errorf("summarize %s: %w", k.Name, err)
	}
	n := probe.count()
	if n <= records.SummaryExact {
		out.Total = int64(n)
		for i, f := range q.Sum {
			out.Totals[f.Name] = g.totals(probe, i, 1)
		}
		return out, nil
	}
	return t.estimateSummary(ctx, k, q.Sum, g, where[2:], args, probe, out)
}

// sumGrouping is how a summary totals fields per unit: each field's value
// (vals, hundredths) and, for each distinct unit expression (units), the
// index of its field's (unitOf; -1 for a field of one unit).
type sumGrouping struct {
	vals, units []string
	unitOf      []int
}

func (d dialect) sumGrouping(k *records.Kind, sum []records.Field) sumGrouping {
	g := sumGrouping{}
	for _, f := range sum {
		g.vals = append(g.vals, d.summableValue(f.Column))
		u := d.unitSQL(k, f)
		i := slices.Index(g.units, u)
		if u != "" && i < 0 {
			i, g.units = len(g.units), append(g.units, u)
		}
		g.unitOf = append(g.unitOf, i)
	}
	return g
}

// unitSQL is the SQL of field f's unit in a record (records.UnitTotal):
// the record's currency for money, the text of its Per field for a
// quantity per unit, "" for a field of one unit.
func (d dialect) unitSQL(k *records.Kind, f records.Field) string {
	switch u := k.UnitOf(f); {
	case u.Currency:
		return "currency"
	case u.Per != nil && !u.Per.Doc():
		return filterColumns[u.Per.Column]
	case u.Per != nil:
		expr, _ := d.docSortExpr(*u.Per)
		return expr
	}
	return ""
}

// inner is the select list of a summary's inner statement: the unit
// expressions as u0, u1..., then cols.
func (g sumGrouping) inner(cols []string) string {
	lead := make([]string, 0, len(g.units)+len(cols))
	for i, u := range g.units {
		lead = append(lead, fmt.Sprintf("%s AS u%d", u, i))
	}
	return strings.Join(append(lead, cols...), ", ")
}

// outer is the select list of its outer statement: u0, u1..., then cols.
func (g sumGrouping) outer(cols []string) string {
	lead := make([]string, 0, len(g.units)+len(cols))
	for i := range g.units {
		lead = append(lead, fmt.Sprintf("u%d", i))
	}
	return strings.Join(append(lead, cols...), ", ")
}

// groupBy is the outer statement's GROUP BY, "" without units.
func (g sumGrouping) groupBy() string {
	if len(g.units) == 0 {
		return ""
	}
	us := make([]string, len(g.units))
	for i := range us {
		us[i] = fmt.Sprintf("u%d", i)
	}
	return " GROUP BY " + strings.Join(us, ", ")
}

// sumGroup is one row of a grouped summary: its units, then n (a count)
// and, when the statement reads them, matched, then the sums.
type sumGroup struct {
	units      []string
	n, matched float64
	sums       []float64
}

type sumGroups []sumGroup

func (gs sumGroups) count() float64 {
	var n float64
	for _, g := range gs {
		n += g.n
	}
	return n
}

func (gs sumGroups) matched() float64 {
	var n float64
	for _, g := range gs {
		n += g.matched
	}
	return n
}

// totals are field i's totals per unit over groups gs, each sum times
// scale, in units.
func (g sumGrouping) totals(gs sumGroups, i int, scale float64) []records.UnitTotal {
	by := map[string]float64{}
	for _, r := range gs {
		unit := ""
		if g.unitOf[i] >= 0 {
			unit = r.units[g.unitOf[i]]
		}
		by[unit] += r.sums[i] * scale
	}
	for u, v := range by {
		by[u] = math.Round(v) / 100
	}
	return records.UnitTotals(by)
}

// sumGroups runs a grouped summary statement: per row the units, counts
// (counts of them: 1 for n, 2 for n and matched), then len(g.vals) sums.
func (t *Tenant) sumGroups(ctx context.Context, st scoped, g sumGrouping, counts int, args ...any) (sumGroups, error) {
	rows, err := t.query(ctx, st, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out sumGroups
	for rows.Next() {
		r := sumGroup{units: make([]string, len(g.units)), sums: make([]float64, len(g.vals))}
		units := make([]sql.NullString, len(g.units))
		dest := make([]any, 0, len(g.units)+counts+len(g.vals))
		for i := range units {
			dest = append(dest, &units[i])
		}
		dest = append(dest, &r.n)
		if counts == 2 {
			dest = append(dest, &r.matched)
		}
		for i := range r.sums {
			dest = append(dest, &r.sums[i])
		}
		if err := rows.Scan(dest...); err != nil {
			return nil, err
		}
		for i, u := range units {
			r.units[i] = u.String
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

// The kept count of a kind's records, and with it (0 or 1) whether any is
// in another currency than the base: one seek of the partial index
// records_foreign_currency, in the same statement. That one is made per
// kind, its name spliced (kindIs): a kind bound as an argument and
// compared with records.kind, which has STAT4 samples, made SQLite plan
// the statement again at every run (34 µs a run instead of 4).
var (
	keptCountOnly    = scope(`SELECT COALESCE((SELECT n FROM record_counts WHERE tenant_id = :tenant AND kind = ?), 0), 0`)
	keptCountForeign = func() map[string]scoped {
		out := map[string]scoped{}
		for _, k := range records.All() {
			out[k.Name] = scope(`SELECT COALESCE((SELECT n FROM record_counts WHERE tenant_id = :tenant AND kind = ?), 0),
				(SELECT COUNT(*) FROM (SELECT 1 FROM records WHERE tenant_id = :tenant AND ` + kindIs(k) + ` AND currency <> '' LIMIT 1) x)`)
		}
		return out
	}()
	keptSumsOf = scope(`SELECT field, total FROM record_sums WHERE tenant_id = :tenant AND kind = ?`)
)

// keptSummary answers a list without filter or text from what migration
// 0020's triggers keep, when it can (ok), exactly: they add every
// record's values, whatever their unit. Money of a kind with records in
// another currency than the base is still answered when those are at most
// SummaryExact: their sums per currency are read through the partial
// index records_foreign_currency, and the base currency's are the kept
// sums less theirs. A quantity per unit (Field.Per), or more records in
// other currencies, is not (the caller estimates).
func (t *Tenant) keptSummary(ctx context.Context, k *records.Kind, sum []records.Field, g sumGrouping, out records.Summary) (_ records.Summary, ok bool, _ error) {
	st := keptCountOnly
	for _, f := range sum {
		switch u := k.UnitOf(f); {
		case u.Per != nil:
			return out, false, nil
		case u.Currency:
			st = keptCountForeign[k.Name]
		}
	}
	var foreign int
	if err := t.queryRow(ctx, st, k.Name).Scan(&out.Total, &foreign); err != nil || len(sum) == 0 {
		return out, err == nil, err
	}
	kept, err := t.keptSums(ctx, k)
	if err != nil {
		return out, false, err
	}
	var others sumGroups
	if foreign > 0 {
		inner, outer := []string{"1 AS m"}, []string{"COUNT(*)"}
		for i, v := range g.vals {
			inner, outer = append(inner, fmt.Sprintf("%s AS v%d", v, i)), append(outer, fmt.Sprintf("COALESCE(SUM(v%d), 0)", i))
		}
		st := scope(fmt.Sprintf(`SELECT %s FROM (SELECT %s FROM records WHERE tenant_id = :tenant AND %s AND currency <> '' LIMIT %d) p%s`,
			g.outer(outer), g.inner(inner), kindIs(k), records.SummaryExact+1, g.groupBy()))
		if others, err = t.sumGroups(ctx, st, g, 1); err != nil || others.count() > records.SummaryExact {
			return out, false, err
		}
	}
	for i, f := range sum {
		by := map[string]float64{"": float64(kept[string(f.Column)])}
		for _, r := range others {
			if u := g.unitOf[i]; u >= 0 && r.units[u] != "" {
				by[r.units[u]] += r.sums[i]
				by[""] -= r.sums[i]
			}
		}
		if g.unitOf[i] >= 0 && int64(others.count()) == out.Total {
			delete(by, "") // every record is in another currency
		}
		for u, v := range by {
			by[u] = v / 100
		}
		out.Totals[f.Name] = records.UnitTotals(by)
	}
	return out, true, nil
}

// keptSums are a kind's kept sums, in hundredths, by summable column.
func (t *Tenant) keptSums(ctx context.Context, k *records.Kind) (map[string]int64, error) {
	rows, err := t.query(ctx, keptSumsOf, k.Name)
	if err != nil {
		return nil, fmt.Errorf("summarize %s: %w", k.Name, err)
	}
	defer rows.Close()
	kept := map[string]int64{}
	for rows.Next() {
		var field string
		var total int64
		if err := rows.Scan(&field, &total); err != nil {
			return nil, err
		}
		kept[field] = total
	}
	return kept, rows.Err()
}

func (t *Tenant) keptCount(ctx context.Context, k *records.Kind) (int64, error) {
	var n, none int64
	err := t.queryRow(ctx, keptCountOnly, k.Name).Scan(&n, &none)
	return n, err
}

// estimateSummary estimates a result larger than records.SummaryExact from
// the kind's sample (see above). pred is the result's predicate without
// tenant and kind, with its arguments; probe is the probe's groups of its
// SummaryExact+1 rows, the fallback for a sample with too few matches to
// average.
func (t *Tenant) estimateSummary(ctx context.Context, k *records.Kind, sum []records.Field, g sumGrouping, pred []string, args []any,
	probe sumGroups, out records.Summary) (records.Summary, error) {
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
	match := "1 = 1" // the whole kind (a list without filter, keptSummary could not answer)
	if len(pred) > 0 {
		match = strings.Join(pred, " AND ")
	}
	cols, outer := []string{"CASE WHEN " + match + " THEN 1 ELSE 0 END AS m"}, []string{"COUNT(*)", "COALESCE(SUM(m), 0)"}
	for i, v := range g.vals {
		cols, outer = append(cols, fmt.Sprintf("%s AS v%d", v, i)), append(outer, fmt.Sprintf("COALESCE(SUM(m * v%d), 0)", i))
	}
	st := scope(fmt.Sprintf(`SELECT %s FROM (SELECT %s FROM (%s) records) x%s`,
		g.outer(outer), g.inner(cols), strings.Join(runs, " UNION ALL "), g.groupBy()))
	sample, err := t.sumGroups(ctx, st, g, 2, append(append([]any{}, args...), bounds...)...)
	if err != nil {
		return out, fmt.Errorf("summarize %s: %w", k.Name, err)
	}
	sampled, matched, probed := sample.count(), sample.matched(), probe.count()
	// At least the probe's rows match.
	total := probed
	if sampled > 0 {
		total = max(probed, math.Round(float64(kindN)*matched/sampled))
	}
	out.Total, out.TotalEstimated = int64(total), true
	for i, f := range sum {
		// Each unit's mean per matching record, times the estimate.
		if matched >= 20 {
			out.Totals[f.Name] = g.totals(sample, i, total/matched)
		} else {
			out.Totals[f.Name] = g.totals(probe, i, total/probed)
		}
	}
	out.TotalsEstimated = len(sum) > 0
	return out, nil
}
