package sqlstore

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"embed"
	"fmt"
	"io/fs"
	"sort"
	"strconv"
	"strings"
	"time"
)

//go:embed migrations
var migrationFS embed.FS

// migration is one numbered SQL file of an engine's folder.
type migration struct {
	version int
	name    string
	sql     string
}

func (d dialect) migrations() ([]migration, error) {
	dir := "migrations/" + d.name
	entries, err := fs.ReadDir(migrationFS, dir)
	if err != nil {
		return nil, err
	}
	var ms []migration
	for _, e := range entries {
		num, _, ok := strings.Cut(e.Name(), "_")
		v, err := strconv.Atoi(num)
		if !ok || err != nil || !strings.HasSuffix(e.Name(), ".sql") {
			return nil, fmt.Errorf("migration %s: name must be NNNN_description.sql", e.Name())
		}
		body, err := fs.ReadFile(migrationFS, dir+"/"+e.Name())
		if err != nil {
			return nil, err
		}
		ms = append(ms, migration{version: v, name: e.Name(), sql: string(body)})
	}
	sort.Slice(ms, func(i, j int) bool { return ms[i].version < ms[j].version })
	return ms, nil
}

// Migrate applies the engine's pending migrations, each in its own
// transaction, and returns the resulting schema version. It is safe to run
// from several instances at once on PostgreSQL: the whole of it, the
// creation of its own table included, runs under one advisory lock, so
// one instance migrates and the others then find nothing left to do. It
// is safe to run again (applied versions are skipped).
func (s *Store) Migrate(ctx context.Context) (int, error) {
	ms, err := s.d.migrations()
	if err != nil {
		return 0, err
	}
	conn, err := s.db.Conn(ctx)
	if err != nil {
		return 0, err
	}
	defer conn.Close()
	if s.d.lockMigrations != "" {
		if _, err := conn.ExecContext(ctx, s.d.lockMigrations); err != nil {
			return 0, fmt.Errorf("lock migrations: %w", err)
		}
		// Unlocked before the connection goes back to the pool; should
		// that fail, closing the session releases it.
		defer func() {
			if _, err := conn.ExecContext(context.WithoutCancel(ctx), s.d.unlockMigrations); err != nil {
				conn.Raw(func(any) error { return driver.ErrBadConn })
			}
		}()
	}
	if _, err := conn.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (
		version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)`); err != nil {
		return 0, fmt.Errorf("create schema_migrations: %w", err)
	}
	// A database a newer binary has migrated is refused: this one would
	// write rows without what the newer schema keeps beside them (the
	// newer binary then misses them: search tokens, currencies...).
	var newest sql.NullInt64
	if err := conn.QueryRowContext(ctx, `SELECT MAX(version) FROM schema_migrations`).Scan(&newest); err != nil {
		return 0, fmt.Errorf("read schema version: %w", err)
	}
	if known := ms[len(ms)-1].version; newest.Int64 > int64(known) {
		return int(newest.Int64), &NewerSchemaError{Database: int(newest.Int64), Binary: known}
	}
	current := 0
	for _, m := range ms {
		if err := s.apply(ctx, conn, m); err != nil {
			return current, fmt.Errorf("migration %s: %w", m.name, err)
		}
		current = m.version
	}
	return current, nil
}

// NewerSchemaError is Migrate's refusal of a database at a schema version
// this binary does not know: a newer release migrated it.
type NewerSchemaError struct {
	Database, Binary int // the database's schema version and the newest this binary has
}

func (e *NewerSchemaError) Error() string {
	return fmt.Sprintf("the database is at schema version %d, newer than this binary's %d: run the release that migrated it (or newer), "+
		"or restore a backup taken before that upgrade; this binary would write records the newer one cannot read", e.Database, e.Binary)
}

// apply runs one migration on conn in a transaction, unless it is
// recorded as applied already.
func (s *Store) apply(ctx context.Context, conn *sql.Conn, m migration) error {
	tx, err := conn.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var n int
	if err := tx.QueryRowContext(ctx, s.d.rebind(`SELECT COUNT(*) FROM schema_migrations WHERE version = ?`), m.version).Scan(&n); err != nil {
		return err
	}
	if n > 0 {
		return nil
	}
	if _, err := tx.ExecContext(ctx, m.sql); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, s.d.rebind(`INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)`),
		m.version, m.name, time.Now().UnixMilli()); err != nil {
		return err
	}
	return tx.Commit()
}
