package sqlstore

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"database/sql/driver"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/portico/portico/internal/records"
)

// docIndexPrefix names the indexes IndexDocumentFields makes (and, for
// an index made by an earlier version, account fields' "records_af_").
const docIndexPrefix = "records_df_"

// docIndexes are the indexes the registry's document fields need, by
// name: for each kind and sortable document field (its own and the
// account's), (tenant, sort expression, id) over that kind's rows only
// (partial: a tenth of a full index's size when the kind is a tenth of
// the records, and it serves the queries that name the kind, as every
// list query does). The name hashes the DDL, so a changed expression is a
// new index.
func (d dialect) docIndexes(kinds []*records.Kind) map[string]string {
	out := map[string]string{}
	for _, k := range kinds {
		for _, f := range k.DocFields() {
			if !f.Sortable {
				continue
			}
			expr, _ := d.docSortExpr(f)
			ddl := fmt.Sprintf("ON records (tenant_id, (%s), id) WHERE %s", expr, kindIs(k))
			sum := sha256.Sum256([]byte(ddl))
			name := fmt.Sprintf("%s%x", docIndexPrefix, sum[:8])
			out[name] = "CREATE INDEX IF NOT EXISTS " + name + " " + ddl
		}
	}
	maps.Copy(out, d.filterIndexes()) // the dashboard's (dashboard.go)
	return out
}

// IndexDocumentFields makes the database fit the kinds of the code and of
// regs, every tenant's registry with its account's fields
// (records.Registry.WithAccountFields): every sortable document field has
// its index (docIndexes; indexes for fields no longer sortable in any of
// them, or of an older expression, are dropped), and summable_fields lists
// every summable field, with the sums of a field that joins taken afresh
// (see migration 0020). A caller must pass every tenant's registry: an
// index or sum of a tenant it leaves out goes. Open fits the code's kinds
// and drops nothing; whoever serves or syncs the tenants fits them all.
// It is idempotent and serialised with migrations across instances;
// building an index over a large table takes a while, once.
func (s *Store) IndexDocumentFields(ctx context.Context, regs ...*records.Registry) error {
	return s.fitDocumentFields(ctx, allKinds(regs), true)
}

// allKinds are the kinds of the code and of regs, each version of a kind
// once (a kind no account adds to is the code's in every registry).
func allKinds(regs []*records.Registry) []*records.Kind {
	out := slices.Clone(records.All())
	for _, r := range regs {
		for _, k := range r.All() {
			if !slices.Contains(out, k) {
				out = append(out, k)
			}
		}
	}
	return out
}

// fitDocumentFields is IndexDocumentFields over kinds; drop says whether
// what none of them needs goes.
func (s *Store) fitDocumentFields(ctx context.Context, kinds []*records.Kind, drop bool) error {
	conn, err := s.db.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	if s.d.lockMigrations != "" {
		if _, err := conn.ExecContext(ctx, s.d.lockMigrations); err != nil {
			return fmt.Errorf("lock migrations: %w", err)
		}
		defer func() {
			if _, err := conn.ExecContext(context.WithoutCancel(ctx), s.d.unlockMigrations); err != nil {
				conn.Raw(func(any) error { return driver.ErrBadConn })
			}
		}()
	}
	want := s.d.docIndexes(kinds)
	have, err := s.docIndexNames(ctx, conn)
	if err != nil {
		return err
	}
	for _, name := range have {
		if _, ok := want[name]; !ok && drop {
			if _, err := conn.ExecContext(ctx, "DROP INDEX "+name); err != nil {
				return fmt.Errorf("drop index %s: %w", name, err)
			}
		}
	}
	names := make([]string, 0, len(want))
	for name := range want {
		names = append(names, name)
	}
	slices.Sort(names)
	var analyze []string
	for _, name := range names {
		if slices.Contains(have, name) {
			continue
		}
		if _, err := conn.ExecContext(ctx, want[name]); err != nil {
			return fmt.Errorf("index document field: %s: %w", want[name], err)
		}
		// A new index has no statistics until analysed; without them the
		// planner misjudges it (see migration 0023), and lists of other
		// kinds may walk it.
		if st := strings.ReplaceAll(s.d.analyzeIndex, "{index}", name); !slices.Contains(analyze, st) {
			analyze = append(analyze, st)
		}
	}
	for _, st := range analyze {
		if _, err := conn.ExecContext(ctx, st); err != nil {
			return fmt.Errorf("%s: %w", st, err)
		}
	}
	if err := s.syncSummable(ctx, conn, kinds, drop); err != nil {
		return err
	}
	return s.syncOwners(ctx, conn)
}

// docIndexNames lists the document field indexes the database has.
func (s *Store) docIndexNames(ctx context.Context, conn *sql.Conn) ([]string, error) {
	rows, err := conn.QueryContext(ctx, s.d.indexesOfRecords)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			return nil, err
		}
		if strings.HasPrefix(name, docIndexPrefix) || strings.HasPrefix(name, "records_af_") {
			out = append(out, name)
		}
	}
	return out, rows.Err()
}

// summable is one summable field of a kind, by its column: "amount" or a
// document field's "fields.<name>" (summable_fields.field).
type summable struct {
	kind  string
	field records.Column
}

// registrySummables are the summable fields of kinds, each once.
func registrySummables(kinds []*records.Kind) []summable {
	var out []summable
	for _, k := range kinds {
		for _, f := range k.AllFields() {
			if f.Summable && !slices.Contains(out, summable{k.Name, f.Column}) {
				out = append(out, summable{k.Name, f.Column})
			}
		}
	}
	return out
}

// inConnTx runs fn in a transaction on conn, committing when it returns
// nil.
func inConnTx(ctx context.Context, conn *sql.Conn, fn func(*sql.Tx) error) error {
	tx, err := conn.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	if err := fn(tx); err != nil {
		tx.Rollback()
		return err
	}
	return tx.Commit()
}

// storedSummables reads summable_fields.
func storedSummables(ctx context.Context, tx *sql.Tx) ([]summable, error) {
	rows, err := tx.QueryContext(ctx, `SELECT kind, field FROM summable_fields`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []summable
	for rows.Next() {
		var f summable
		if err := rows.Scan(&f.kind, &f.field); err != nil {
			return nil, err
		}
		out = append(out, f)
	}
	return out, rows.Err()
}

// summableValue is the SQL of a summable field's value of a row in
// hundredths, as migration 0020's triggers compute it: the amount column,
// or the document member's number (0 when missing or not a number).
func (d dialect) summableValue(c records.Column) string {
	name, doc := c.DocField()
	if !doc {
		return "COALESCE(amount, 0)"
	}
	return "CAST(ROUND(COALESCE(" + d.docNumber(name) + ", 0) * 100) AS BIGINT)"
}

// syncSummable makes summable_fields the registry's summable fields, on
// conn (the migrations' lock holder): a field that leaves loses its sums,
// one that joins is summed afresh from the records, in the transaction
// that adds it (on PostgreSQL with the records locked against writes
// meanwhile, so no write's trigger misses it).
func (s *Store) syncSummable(ctx context.Context, conn *sql.Conn, kinds []*records.Kind, drop bool) error {
	want := registrySummables(kinds)
	return inConnTx(ctx, conn, func(tx *sql.Tx) error {
		have, err := storedSummables(ctx, tx)
		if err != nil {
			return err
		}
		var added []summable
		for _, f := range want {
			if !slices.Contains(have, f) {
				added = append(added, f)
			}
		}
		if len(added) > 0 {
			if err := s.d.holdRecords(ctx, tx); err != nil {
				return err
			}
		}
		for _, f := range have {
			if slices.Contains(want, f) || !drop {
				continue
			}
			for _, st := range []string{`DELETE FROM summable_fields WHERE kind = ? AND field = ?`, `DELETE FROM record_sums WHERE kind = ? AND field = ?`} {
				if _, err := tx.ExecContext(ctx, s.d.rebind(st), f.kind, string(f.field)); err != nil {
					return err
				}
			}
		}
		for _, f := range added {
			if _, err := tx.ExecContext(ctx, s.d.rebind(`INSERT INTO summable_fields (kind, field) VALUES (?, ?)`), f.kind, string(f.field)); err != nil {
				return err
			}
			if err := s.sumAfresh(ctx, tx, f); err != nil {
				return err
			}
		}
		if len(added) > 0 { // their owner totals too
			return s.allOwnerTotalsAfresh(ctx, tx)
		}
		return nil
	})
}

// sumAfresh replaces a summable field's sums by the records' (no other
// write may run meanwhile: the caller's transaction sees to it).
func (s *Store) sumAfresh(ctx context.Context, tx *sql.Tx, f summable) error {
	if _, err := tx.ExecContext(ctx, s.d.rebind(`DELETE FROM record_sums WHERE kind = ? AND field = ?`), f.kind, string(f.field)); err != nil {
		return err
	}
	_, err := tx.ExecContext(ctx, s.d.rebind(`INSERT INTO record_sums (tenant_id, kind, field, total)
		SELECT tenant_id, kind, ?, SUM(`+s.d.summableValue(f.field)+`) FROM records WHERE kind = ? GROUP BY tenant_id, kind`),
		string(f.field), f.kind)
	return err
}

// recount counts and sums every kind afresh (migration 0020's tables, and
// 0031's per owner),
// and moves every kind's name version on (SQLite's migration 0028), after
// a bulk load that ran without their triggers.
func (s *Store) recount(ctx context.Context) error {
	return s.inTx(ctx, func(tx *sql.Tx) error {
		if err := s.d.holdRecords(ctx, tx); err != nil {
			return err
		}
		sts := []string{`DELETE FROM record_counts`,
			`INSERT INTO record_counts (tenant_id, kind, n) SELECT tenant_id, kind, COUNT(*) FROM records GROUP BY tenant_id, kind`}
		if s.d.nameVersions {
			// Any kind's names may have changed (migration 0028).
			sts = append(sts, `INSERT INTO name_versions (tenant_id, kind, version) SELECT tenant_id, kind, 1 FROM record_counts WHERE true
				ON CONFLICT (tenant_id, kind) DO UPDATE SET version = version + 1`)
		}
		for _, st := range sts {
			if _, err := tx.ExecContext(ctx, st); err != nil {
				return err
			}
		}
		fs, err := storedSummables(ctx, tx)
		if err != nil {
			return err
		}
		for _, f := range fs {
			if err := s.sumAfresh(ctx, tx, f); err != nil {
				return err
			}
		}
		return s.allOwnerTotalsAfresh(ctx, tx)
	})
}
