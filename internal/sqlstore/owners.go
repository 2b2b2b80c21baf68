package sqlstore

import (
	"context"
	"database/sql"
	"fmt"
	"maps"
	"slices"
	"strconv"

	"github.com/portico/portico/internal/records"
)

// A user's own records are counted and totalled per owner by migration
// 0031's triggers (owner_totals), so the list a rule "owner eq $me" narrows
// reads its count and totals, as an unfiltered list reads its kind's
// (keptSummary), rather than estimating them.

// registryOwners are the JSON paths of the owners' ids, by kind: each kind
// whose owner (records.Kind.Owner) is a reference in the document.
func registryOwners() map[string]string {
	out := map[string]string{}
	for _, k := range records.All() {
		if f, ok := docField(k, records.DocColumn(k.Owner)); ok && k.Owner != "" && f.Type == records.TypeRef {
			out[k.Name] = "$." + f.Name + ".id"
		}
	}
	return out
}

// refIDSQL is a document reference's id as filters compare it (path: its
// JSON path as a SQL expression, a literal or a column), as text, empty for
// none: what a filter on a reference (conditionSQL), owner_totals' owner,
// a search entry's owner (entryOwner) and a record's project owner
// (migration 0038's project_owners) all are.
func refIDSQL(path string) string {
	return "COALESCE(CAST(json_extract(fields, " + path + ") AS TEXT), '')"
}

// ownerSQL is a record's owner as owner_totals keys it, the owner at path.
func ownerSQL(path string) string { return refIDSQL("'" + path + "'") }

// syncOwners makes owner_fields the registry's owners, on conn (the
// migrations' lock holder): a kind whose owner leaves loses its totals
// and its search entries' owners, one whose owner joins or changes is
// totalled afresh and its entries given their records' owners, and when
// the project kind's owner changes, every record of a project is given
// its project's owner afresh (migration 0038): all in the transaction
// that records it (on PostgreSQL with the records locked against writes
// meanwhile, so no write's trigger misses it).
func (s *Store) syncOwners(ctx context.Context, conn *sql.Conn) error {
	want := registryOwners()
	return inConnTx(ctx, conn, func(tx *sql.Tx) error {
		have, err := storedOwners(ctx, tx)
		if err != nil {
			return err
		}
		var changed []string
		for kind, path := range want {
			if have[kind] != path {
				changed = append(changed, kind)
			}
		}
		slices.Sort(changed)
		projectChanged := have[projectRefKind] != want[projectRefKind]
		if len(changed) > 0 || projectChanged {
			if err := s.d.holdRecords(ctx, tx); err != nil {
				return err
			}
		}
		for _, kind := range slices.Sorted(maps.Keys(have)) {
			if _, ok := want[kind]; ok {
				continue
			}
			for _, st := range []string{`DELETE FROM owner_fields WHERE kind = ?`, `DELETE FROM owner_totals WHERE kind = ?`,
				`UPDATE search_entries SET owner = '' WHERE kind = ?`} {
				if _, err := tx.ExecContext(ctx, s.d.rebind(st), kind); err != nil {
					return err
				}
			}
		}
		for _, kind := range changed {
			if _, err := tx.ExecContext(ctx, s.d.rebind(`DELETE FROM owner_fields WHERE kind = ?`), kind); err != nil {
				return err
			}
			if _, err := tx.ExecContext(ctx, s.d.rebind(`INSERT INTO owner_fields (kind, path) VALUES (?, ?)`), kind, want[kind]); err != nil {
				return err
			}
			if err := s.ownerTotalsAfresh(ctx, tx, kind, want[kind]); err != nil {
				return err
			}
			if _, err := tx.ExecContext(ctx, s.d.rebind(`UPDATE search_entries SET owner = COALESCE((SELECT `+ownerSQL(want[kind])+`
				FROM records r WHERE r.tenant_id = search_entries.tenant_id AND r.kind = search_entries.kind AND r.id = search_entries.record_id), '')
				WHERE kind = ?`), kind); err != nil {
				return err
			}
		}
		if projectChanged {
			return projectOwnersAfresh(ctx, tx)
		}
		return nil
	})
}

// storedOwners reads owner_fields: paths by kind.
func storedOwners(ctx context.Context, tx *sql.Tx) (map[string]string, error) {
	rows, err := tx.QueryContext(ctx, `SELECT kind, path FROM owner_fields`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]string{}
	for rows.Next() {
		var kind, path string
		if err := rows.Scan(&kind, &path); err != nil {
			return nil, err
		}
		out[kind] = path
	}
	return out, rows.Err()
}

// ownerTotalsAfresh replaces a kind's owner totals by its records' (no
// other write may run meanwhile: the caller's transaction sees to it): the
// count and each of the kind's summable_fields, by tenant, owner (at path),
// status and currency.
func (s *Store) ownerTotalsAfresh(ctx context.Context, tx *sql.Tx, kind, path string) error {
	if _, err := tx.ExecContext(ctx, s.d.rebind(`DELETE FROM owner_totals WHERE kind = ?`), kind); err != nil {
		return err
	}
	keys := ownerSQL(path) + ", COALESCE(status, ''), currency"
	if _, err := tx.ExecContext(ctx, s.d.rebind(`INSERT INTO owner_totals (tenant_id, kind, owner, status, currency, field, total)
		SELECT tenant_id, kind, `+keys+`, '', COUNT(*) FROM records WHERE kind = ? GROUP BY tenant_id, kind, `+keys), kind); err != nil {
		return err
	}
	fields, err := storedSummables(ctx, tx)
	if err != nil {
		return err
	}
	for _, f := range fields {
		if f.kind != kind {
			continue
		}
		value := s.d.summableValue(f.field)
		if _, err := tx.ExecContext(ctx, s.d.rebind(`INSERT INTO owner_totals (tenant_id, kind, owner, status, currency, field, total)
			SELECT tenant_id, kind, `+keys+`, ?, SUM(`+value+`) FROM records WHERE kind = ?
			GROUP BY tenant_id, kind, `+keys+` HAVING SUM(`+value+`) <> 0`), string(f.field), kind); err != nil {
			return err
		}
	}
	return nil
}

// allOwnerTotalsAfresh totals every kind of owner_fields afresh (after a
// bulk load, or a summable field joining).
func (s *Store) allOwnerTotalsAfresh(ctx context.Context, tx *sql.Tx) error {
	have, err := storedOwners(ctx, tx)
	if err != nil {
		return err
	}
	for _, kind := range slices.Sorted(maps.Keys(have)) {
		if err := s.ownerTotalsAfresh(ctx, tx, kind, have[kind]); err != nil {
			return err
		}
	}
	return nil
}

// ownerScope is what owner_totals keeps of a list narrowed to one owner's
// records (as a rule "owner eq $me" narrows it), when that is all it is
// narrowed to, or that and one status (a dashboard's "mine" card): its
// filter is a conjunction of "owner eq id" on its kind's owner and at most
// one "status eq s", and it has no text.
type ownerScope struct {
	owner     string // as owner_totals keys it
	status    string
	hasStatus bool
}

func ownerScopeOf(k *records.Kind, q records.ListQuery) (ownerScope, bool) {
	var o ownerScope
	if q.Text != "" || k.Owner == "" {
		return o, false
	}
	var conds []records.Cond
	for _, p := range q.Filter.Parts() {
		if len(p.Any) != 1 {
			return o, false
		}
		conds = append(conds, p.Any[0]...)
	}
	hasOwner := false
	for _, c := range conds {
		if c.Op != records.OpEq {
			return o, false
		}
		// A condition may come twice (a dashboard's card under the rule
		// that narrows the same way), never with two values.
		if f, doc := docField(k, c.Column); doc && f.Name == k.Owner && f.Type == records.TypeRef {
			id, ok := c.Value.(int64)
			owner := strconv.FormatInt(id, 10)
			if !ok || (hasOwner && owner != o.owner) {
				return o, false
			}
			o.owner, hasOwner = owner, true
			continue
		}
		if s, ok := c.Value.(string); ok && c.Column == records.ColStatus && (!o.hasStatus || s == o.status) {
			o.status, o.hasStatus = s, true
			continue
		}
		return o, false
	}
	return o, hasOwner
}

var keptOwnerTotals = scope(`SELECT status, currency, field, total FROM owner_totals WHERE tenant_id = :tenant AND kind = ? AND owner = ?`)

// keptOwnerSummary answers a list narrowed to one owner's records, of a
// status or all (ownerScopeOf), from owner_totals, exactly, when it can
// (ok): each summed field is of one unit or in the record's currency (a
// quantity per a field's unit is not kept by unit).
func (t *Tenant) keptOwnerSummary(ctx context.Context, k *records.Kind, o ownerScope, sum []records.Field, out records.Summary) (_ records.Summary, ok bool, _ error) {
	for _, f := range sum {
		if k.UnitOf(f).Per != nil {
			return out, false, nil
		}
	}
	rows, err := t.query(ctx, keptOwnerTotals, k.Name, o.owner)
	if err != nil {
		return out, false, fmt.Errorf("summarize %s: %w", k.Name, err)
	}
	defer rows.Close()
	counts := map[string]int64{}          // by currency
	sums := map[string]map[string]int64{} // by field, then currency
	for rows.Next() {
		var status, currency, field string
		var total int64
		if err := rows.Scan(&status, &currency, &field, &total); err != nil {
			return out, false, fmt.Errorf("summarize %s: %w", k.Name, err)
		}
		if o.hasStatus && status != o.status {
			continue
		}
		if field == "" {
			counts[currency] += total
			out.Total += total
			continue
		}
		if sums[field] == nil {
			sums[field] = map[string]int64{}
		}
		sums[field][currency] += total
	}
	if err := rows.Err(); err != nil {
		return out, false, fmt.Errorf("summarize %s: %w", k.Name, err)
	}
	for _, f := range sum {
		perCurrency := k.UnitOf(f).Currency
		by := map[string]float64{}
		for currency, n := range counts {
			if n == 0 {
				continue
			}
			unit := ""
			if perCurrency {
				unit = currency
			}
			by[unit] += float64(sums[string(f.Column)][currency]) / 100
		}
		if len(by) == 0 {
			by[""] = 0 // no record: nothing, in the base unit
		}
		out.Totals[f.Name] = records.UnitTotals(by)
	}
	return out, true, nil
}

// projectOwned reports whether c, a followed reference's condition w, is
// "the record's project is owned by owner" (a rule "job.projectmanager eq
// $me"), and owner as the records carry it: the reference is the
// record's project (ColProject) and w selects one owner's projects and
// nothing else.
func projectOwned(c records.Cond, w records.Within) (owner string, ok bool) {
	pk, known := records.Lookup(w.Kind)
	if c.Column != records.ColProject || !known || pk.Name != projectRefKind {
		return "", false
	}
	o, ok := ownerScopeOf(pk, records.ListQuery{Kind: pk.Name, Filter: w.Filter})
	return o.owner, ok && !o.hasStatus
}

// projectRefKind is the kind a record's project (records.ColProject)
// references, whose owner each record of a project carries in
// project_owner (migration 0038).
const projectRefKind = "project"

// projectOwnerSQL is projectOwned's condition on the record's own column
// (migration 0038): an index range in the order of the list (by date,
// the default, or by name), or, in a list of records named by id, a check
// of each (dialect.walkFollowed). Its argument is the owner.
func projectOwnerSQL(d dialect, owner string) string {
	col := "project_owner"
	if d.walkFollowed[projectOwnerKey(owner)] {
		col = fmt.Sprintf(d.unindexed, col)
	}
	return col + " = ?"
}

// projectOwnersAfresh sets every record's project owner (migration 0038)
// from its project, in tx: after a bulk load, which runs without the
// triggers that keep it, and when the project's owner field changes
// (owner_fields).
func projectOwnersAfresh(ctx context.Context, tx *sql.Tx) error {
	_, err := tx.ExecContext(ctx, `UPDATE records SET project_owner = COALESCE((SELECT owner FROM project_owners p
		WHERE p.tenant_id = records.tenant_id AND p.id = records.project_id), '') WHERE project_id IS NOT NULL`)
	return err
}

// walkFollowedOver is how many referenced records make a followed
// reference's condition one to check along a list's sort (see
// dialect.walkFollowed): beyond it, reading the records of each of them
// and sorting costs more than walking the list's own index until a page
// matches.
var walkFollowedOver int64 = records.SummaryExact

// lookupCost is what a look-up of the record a record references costs
// (a correlated EXISTS), in referenced ids gathered (an IN's subquery): a
// page of Pete's invoices walks about 1,000 of them, and their look-ups
// cost 2.6 times the gathering of his 5,081 projects' ids (100k
// projects) but a quarter of the gathering of his 49,642 (a million).
// (Measured before a record carried its project's owner: a reference to
// one owner's projects is that column now, projectOwned; the plans here
// are for the other followed references.)
var lookupCost int64 = 13

// correlateOver is how many referenced records make a walked followed
// reference's condition a look-up per record walked (dialect.correlated)
// rather than a check against all their ids gathered first: about 1,000
// records walked a page cost as much either way.
var correlateOver = 1000 * lookupCost

// walkOwnedOver is how many of the owner's records make a list of them
// sorted by anything but name or status walk its sort index, checking the
// owner of each record (a table row each), rather than sort them all: at
// 100k projects, a page walked cost as much as sorting about 16,000 of
// them read off the owner's index (448 req/s sorting 4,492, 121 walking).
var walkOwnedOver int64 = 20_000

// followedKey names a followed reference's condition (records.Within)
// within one statement.
func followedKey(w records.Within) string { return w.Kind + "\x00" + fmt.Sprint(w.Filter) }

// projectOwnerKey names the condition "the record's project's owner is
// owner" (projectOwned) within one statement.
func projectOwnerKey(owner string) string { return "project owner\x00" + owner }

// ownedKey names the condition "k's owner is owner" within one statement.
func ownedKey(k *records.Kind, owner string) string { return "owner\x00" + k.Name + "\x00" + owner }

// planFollowed is the dialect list q is written in: the tenant's, with
// the conditions that select one owner's records, many of them
// (owner_totals says how many), marked to be walked (dialect.walkFollowed):
// a followed reference to them (an invoice's project managed by the
// user), and the owner's own condition when the list is sorted by
// anything but name or status (the owner's indexes are in those orders;
// in any other a page would sort all of the owner's records). In a list
// of records named by id (namesIDs) both are marked, whatever their size:
// each is checked on the records read by id.
func (t *Tenant) planFollowed(ctx context.Context, q records.ListQuery) (dialect, error) {
	d := t.d
	if d.unindexed == "" {
		return d, nil
	}
	// many: the records f selects of kind k are to be walked (more than
	// over of one owner's, or any in a list of records named by id).
	byID := namesIDs(q.Filter)
	many := func(k *records.Kind, f records.Filter, over int64) (bool, error) {
		if byID {
			return true, nil
		}
		n, err := t.ownedCount(ctx, k, f)
		return n > over, err
	}
	mark := func(key string) { d.walkFollowed = marked(d.walkFollowed, key) }
	k, known := records.Lookup(q.Kind)
	if known && k.Owner != "" && (byID || !ownerIndexedSort(q)) {
		// The owner's condition alone, whatever else the list asks.
		for _, part := range q.Filter.Parts() {
			for _, conj := range part.Any {
				for _, c := range conj {
					if f, doc := docField(k, c.Column); !doc || f.Name != k.Owner || c.Op != records.OpEq {
						continue
					}
					large, err := many(k, records.Filter{Any: [][]records.Cond{{c}}}, walkOwnedOver)
					if err != nil {
						return d, err
					}
					if large {
						id, _ := c.Value.(int64) // as conditionSQL compares it
						mark(ownedKey(k, strconv.FormatInt(id, 10)))
					}
				}
			}
		}
	}
	return d, eachWithin(q.Filter, func(c records.Cond, w records.Within, tk *records.Kind) error {
		owner, byOwner := projectOwned(c, w)
		switch {
		case byID && byOwner:
			mark(projectOwnerKey(owner)) // checked on the records read
			return nil
		case byID:
			// Few records walked: the referenced ids are read for them.
			mark(followedKey(w))
			return nil
		case byOwner:
			return nil // an index range of its own (projectOwnerSQL)
		}
		n, err := t.ownedCount(ctx, tk, w.Filter)
		if n > walkFollowedOver {
			mark(followedKey(w))
			if n > correlateOver {
				d.correlated = marked(d.correlated, followedKey(w))
			}
		}
		return err
	})
}

// ownedCount is how many records f selects of kind k when it selects
// one owner's (ownerScopeOf), from owner_totals; 0 for any other filter.
func (t *Tenant) ownedCount(ctx context.Context, k *records.Kind, f records.Filter) (int64, error) {
	o, ok := ownerScopeOf(k, records.ListQuery{Kind: k.Name, Filter: f})
	if !ok {
		return 0, nil
	}
	kept, ok, err := t.keptOwnerSummary(ctx, k, o, nil, records.Summary{})
	if !ok {
		return 0, err
	}
	return kept.Total, err
}

// marked is m with key set, made when nil (a dialect's per-statement
// marks: m is never shared with the tenant's own dialect, which has none).
func marked(m map[string]bool, key string) map[string]bool {
	if m == nil {
		m = map[string]bool{}
	}
	m[key] = true
	return m
}

// eachWithin calls fn with each followed reference's condition of f
// (records.Within, and its condition) whose kind is known, until fn fails.
func eachWithin(f records.Filter, fn func(records.Cond, records.Within, *records.Kind) error) error {
	for _, part := range f.Parts() {
		for _, conj := range part.Any {
			for _, c := range conj {
				w, ok := c.Value.(records.Within)
				if !ok {
					continue
				}
				if tk, known := records.Lookup(w.Kind); known {
					if err := fn(c, w, tk); err != nil {
						return err
					}
				}
			}
		}
	}
	return nil
}

// planSummary is the dialect a summary of k's records matching f is
// written in, and a dashboard's tally or a grouped report of them. Each
// reads every record it matches (a summary and a tally up to
// records.SummaryExact+1), so a followed reference to one owner's records
// is walked with a look-up per record (dialect.correlated) when k has so
// few records against the referenced ones that looking each up costs
// less than gathering the referenced ids and looking up each one's
// records (lookupCost).
func (t *Tenant) planSummary(ctx context.Context, k *records.Kind, f records.Filter) (dialect, error) {
	d := t.d
	if d.unindexed == "" {
		return d, nil
	}
	kindN := int64(-1)
	return d, eachWithin(f, func(c records.Cond, w records.Within, tk *records.Kind) error {
		if _, ok := projectOwned(c, w); ok {
			return nil // never a look-up (projectOwnerSQL)
		}
		n, err := t.ownedCount(ctx, tk, w.Filter)
		if err != nil || n <= walkFollowedOver {
			return err
		}
		if kindN < 0 {
			if kindN, err = t.keptCount(ctx, k); err != nil {
				return err
			}
		}
		if kindN*lookupCost <= n {
			d.correlated = marked(d.correlated, followedKey(w))
		}
		return nil
	})
}

// ownerIndexedSort reports whether an owner's index is in q's order
// (filterIndexes): by name or by status.
func ownerIndexedSort(q records.ListQuery) bool { return sortsByName(q) || q.Sort == records.ColStatus }

// namesIDs reports whether every record f selects is named by id (one of
// its parts is "id in a list"): few (records.Guard.Visible asks for at
// most 500), read by id. Checking an owner or a followed reference along
// an index walk instead read every record of the owner for them (a
// manager's 5,081 projects, to see which of a search's 60 candidates are
// his: 17% of a search's throughput at 100k projects).
func namesIDs(f records.Filter) bool {
	for _, part := range f.Parts() {
		if len(part.Any) == 1 && slices.ContainsFunc(part.Any[0], func(c records.Cond) bool { return c.Column == records.ColID && c.Op == records.OpIn }) {
			return true
		}
	}
	return false
}
