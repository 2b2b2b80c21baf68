package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// The dialect's catalogue query for the records table's secondary indexes:
// name and the exact DDL that created them, so a bulk load rebuilds what
// the migrations made without repeating it.
func (d dialect) recordIndexesQuery() string {
	if d.name == "postgres" {
		return `SELECT indexname, indexdef FROM pg_indexes
			WHERE schemaname = current_schema() AND tablename = 'records' AND indexname <> 'records_pkey'`
	}
	return `SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'records' AND sql IS NOT NULL`
}

// BulkLoad runs load, which fills the records table, as a bulk load: when
// the table is empty (a fresh seed of a benchmark database), its secondary
// indexes are dropped first and rebuilt after, which makes a million-row
// seed several times faster than maintaining them row by row. On a table
// with rows it simply runs load. The dropped indexes are remembered in
// pending_indexes in the same transaction, and rebuilt by the next Open if
// this process dies before it rebuilds them itself.
func (s *Store) BulkLoad(ctx context.Context, load func() error) error {
	var any bool
	if err := s.db.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM records)`).Scan(&any); err != nil {
		return err
	}
	if any {
		return load()
	}
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		rows, err := tx.QueryContext(ctx, s.d.recordIndexesQuery())
		if err != nil {
			return err
		}
		var names, ddls []string
		for rows.Next() {
			var name, ddl string
			if err := rows.Scan(&name, &ddl); err != nil {
				rows.Close()
				return err
			}
			names, ddls = append(names, name), append(ddls, ddl)
		}
		rows.Close()
		for i, name := range names {
			if _, err := tx.ExecContext(ctx, s.d.rebind(`INSERT INTO pending_indexes (name, ddl) VALUES (?, ?)`), name, ddls[i]); err != nil {
				return err
			}
			if _, err := tx.ExecContext(ctx, `DROP INDEX `+name); err != nil {
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
	return errors.Join(loadErr, s.rebuildPendingIndexes(context.WithoutCancel(ctx)))
}

// rebuildPendingIndexes recreates indexes a bulk load dropped.
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
	if len(todo) > 0 {
		_, err = s.db.ExecContext(ctx, `ANALYZE`)
	}
	return err
}
