package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
)

// The dialect's catalogue query for what a bulk load of the records table
// drops: its secondary indexes and its triggers (which keep the search
// index, the counts and the sums), as name, the exact DDL that created
// them, and the statement that drops them — so a bulk load restores what
// the migrations made without repeating it. The document fields' indexes
// stay (IndexDocumentFields): each is partial, one kind's, and a load
// comes kind by kind, so a batch updates only its kind's few, where a
// rebuild would read the whole table once per index (85 reads of 8 GB at
// a million projects).
func (d dialect) recordIndexesQuery() string {
	return d.derivedObjectsQuery("records", "records_pkey", docIndexPrefix)
}

// derivedObjectsQuery lists a table's secondary indexes (but those whose
// name starts with keep, when set) and triggers.
func (d dialect) derivedObjectsQuery(table, pkey, keep string) string {
	return d.derivedObjects(table, pkey, func(column string) string {
		if keep == "" {
			return ""
		}
		return ` AND ` + column + ` NOT LIKE '` + strings.ReplaceAll(keep, "_", `\_`) + `%' ESCAPE '\'`
	})
}

// dropDerived drops what query (a derivedObjectsQuery) lists, inside tx,
// and returns their DDL so the caller can restore them.
func dropDerived(ctx context.Context, tx *sql.Tx, query string) (names, ddls []string, err error) {
	rows, err := tx.QueryContext(ctx, query)
	if err != nil {
		return nil, nil, err
	}
	var drops []string
	for rows.Next() {
		var name, ddl, drop string
		if err := rows.Scan(&name, &ddl, &drop); err != nil {
			rows.Close()
			return nil, nil, err
		}
		names, ddls, drops = append(names, name), append(ddls, ddl), append(drops, drop)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, nil, err
	}
	for _, drop := range drops {
		if _, err := tx.ExecContext(ctx, drop); err != nil {
			return nil, nil, err
		}
	}
	return names, ddls, nil
}

// BulkLoad runs load, which fills the records table, as a bulk load: when
// the table is empty (a fresh seed of a benchmark database), its secondary
// indexes and its search triggers are dropped first and restored after
// (then the search index is built in one pass, and analysed after it is
// filled: analysed empty, PostgreSQL's planner took a common term for a
// rare one), which makes a million-row seed several times faster than
// maintaining them row by row. On a table
// with rows it simply runs load. What was dropped is remembered in
// pending_indexes in the same transaction, and restored by the next Open
// if this process dies before it restores it itself.
func (s *Store) BulkLoad(ctx context.Context, load func() error) error {
	var any bool
	if err := s.db.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM records)`).Scan(&any); err != nil {
		return err
	}
	if any {
		return load()
	}
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		names, ddls, err := dropDerived(ctx, tx, s.d.recordIndexesQuery())
		if err != nil {
			return err
		}
		for i, name := range names {
			if _, err := tx.ExecContext(ctx, s.d.rebind(`INSERT INTO pending_indexes (name, ddl) VALUES (?, ?)`), name, ddls[i]); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("bulk load: drop indexes: %w", err)
	}
	loadErr := load()
	// Rebuild even when the load failed: the rows that made it are served.
	ctx = context.WithoutCancel(ctx)
	if err := s.rebuildPendingIndexes(ctx); err != nil {
		return errors.Join(loadErr, err)
	}
	return errors.Join(loadErr, s.indexSearchIfEmpty(ctx))
}

// rebuildPendingIndexes recreates indexes (and triggers) a bulk load
// dropped, after setting what the dropped triggers did not: the records'
// project owners first, the counts and sums after (recount).
func (s *Store) rebuildPendingIndexes(ctx context.Context) error {
	rows, err := s.db.QueryContext(ctx, `SELECT name, ddl FROM pending_indexes ORDER BY name`)
	if err != nil {
		return err
	}
	type pending struct{ name, ddl string }
	var todo []pending
	for rows.Next() {
		var p pending
		if err := rows.Scan(&p.name, &p.ddl); err != nil {
			rows.Close()
			return err
		}
		todo = append(todo, p)
	}
	rows.Close()
	if len(todo) > 0 {
		// The load ran without the triggers that set the records'
		// project owners: set before the indexes over them are back.
		if err := s.inTx(ctx, func(tx *sql.Tx) error { return projectOwnersAfresh(ctx, tx) }); err != nil {
			return fmt.Errorf("project owners: %w", err)
		}
	}
	for _, p := range todo {
		err := s.inTx(ctx, func(tx *sql.Tx) error {
			if _, err := tx.ExecContext(ctx, p.ddl); err != nil {
				return err
			}
			_, err := tx.ExecContext(ctx, s.d.rebind(`DELETE FROM pending_indexes WHERE name = ?`), p.name)
			return err
		})
		if err != nil {
			return fmt.Errorf("rebuild index %s: %w", p.name, err)
		}
	}
	if len(todo) == 0 {
		return nil
	}
	// The load ran without the triggers that count and sum the records.
	if err := s.recount(ctx); err != nil {
		return fmt.Errorf("recount records: %w", err)
	}
	_, err = s.db.ExecContext(ctx, `ANALYZE`)
	return err
}
