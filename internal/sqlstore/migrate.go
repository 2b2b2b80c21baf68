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
	// oldestBinary is the oldest binary, named by the newest migration
	// it has, that still runs correctly on a database with this
	// migration applied: its own version unless the file says otherwise
	// on a line "-- oldest binary: N" (an expand step of an expand, then
	// contract change, which the previous release runs beside during a
	// rolling upgrade; see docs/operations.md).
	oldestBinary int
}

// oldestBinaryMarker starts the comment by which a migration names the
// oldest binary that runs beside it.
const oldestBinaryMarker = "oldest binary:"

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
		m, err := parseMigration(v, e.Name(), string(body))
		if err != nil {
			return nil, err
		}
		ms = append(ms, m)
	}
	sort.Slice(ms, func(i, j int) bool { return ms[i].version < ms[j].version })
	return ms, nil
}

// parseMigration reads a migration file's oldest-binary line, if any.
func parseMigration(version int, name, body string) (migration, error) {
	m := migration{version: version, name: name, sql: body, oldestBinary: version}
	for line := range strings.Lines(body) {
		comment, ok := strings.CutPrefix(strings.TrimSpace(line), "--")
		if n, found := strings.CutPrefix(strings.TrimSpace(comment), oldestBinaryMarker); ok && found {
			v, err := strconv.Atoi(strings.TrimSpace(n))
			if err != nil || v > version || v < 1 {
				return m, fmt.Errorf("migration %s: %q must name a version before its own", name, strings.TrimSpace(line))
			}
			m.oldestBinary = v
		}
	}
	return m, nil
}

// floorAt is the oldest binary that runs on a database migrated up to
// version: the latest that any migration up to it asks for.
func floorAt(ms []migration, version int) int {
	floor := 0
	for _, m := range ms {
		if m.version <= version {
			floor = max(floor, m.oldestBinary)
		}
	}
	return floor
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
	// schema_floor's one row is the oldest binary (named by its newest
	// migration) that runs on the database as migrated: what a binary
	// older than the database reads to know whether it may serve it.
	if _, err := conn.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (
		version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL);
		CREATE TABLE IF NOT EXISTS schema_floor (id INTEGER PRIMARY KEY CHECK (id = 1), version INTEGER NOT NULL)`); err != nil {
		return 0, fmt.Errorf("create schema_migrations: %w", err)
	}
	known := ms[len(ms)-1].version
	if newest, err := checkNotNewer(ctx, conn, known); err != nil || newest > known {
		return newest, err
	}
	current := 0
	for _, m := range ms {
		if err := s.apply(ctx, conn, m, floorAt(ms, m.version)); err != nil {
			return current, fmt.Errorf("migration %s: %w", m.name, err)
		}
		current = m.version
	}
	// A database migrated before schema_floor existed gets its row here.
	if _, err := conn.ExecContext(ctx, s.d.rebind(setFloor), floorAt(ms, current)); err != nil {
		return current, fmt.Errorf("record the schema floor: %w", err)
	}
	return current, nil
}

// setFloor records the schema floor (see Migrate).
const setFloor = `INSERT INTO schema_floor (id, version) VALUES (1, ?) ON CONFLICT (id) DO UPDATE SET version = excluded.version`

// checkNotNewer returns the database's schema version and refuses it
// with a NewerSchemaError when a newer release migrated it past what a
// binary whose newest migration is known may serve: one of the newer
// migrations names a later oldest binary (a contract step), or the
// database does not say (it has no schema_floor). A binary on a newer
// database whose every later migration is an expand step runs on it
// unchanged: the previous release beside the new one during a rolling
// upgrade, or brought back after one.
func checkNotNewer(ctx context.Context, q interface {
	QueryRowContext(context.Context, string, ...any) *sql.Row
}, known int) (int, error) {
	var newest sql.NullInt64
	if err := q.QueryRowContext(ctx, `SELECT MAX(version) FROM schema_migrations`).Scan(&newest); err != nil {
		return 0, fmt.Errorf("read schema version: %w", err)
	}
	if int(newest.Int64) <= known {
		return int(newest.Int64), nil
	}
	var floor sql.NullInt64
	if err := q.QueryRowContext(ctx, `SELECT MAX(version) FROM schema_floor`).Scan(&floor); err == nil && floor.Valid && int(floor.Int64) <= known {
		return int(newest.Int64), nil
	}
	return int(newest.Int64), &NewerSchemaError{Database: int(newest.Int64), Binary: known, Floor: int(floor.Int64)}
}

// NewerSchemaError is Migrate's refusal of a database a newer release
// migrated past what this binary may serve.
type NewerSchemaError struct {
	Database, Binary int // the database's schema version and the newest this binary has
	Floor            int // the oldest binary the database accepts (0: it does not say)
}

func (e *NewerSchemaError) Error() string {
	return fmt.Sprintf("the database is at schema version %d, newer than this binary's %d, and a migration since needs binaries from version %d on: "+
		"run the release that migrated it (or newer), or restore a backup taken before that upgrade; this binary would write records the newer one cannot read",
		e.Database, e.Binary, max(e.Floor, e.Binary+1))
}

// apply runs one migration on conn in a transaction, unless it is
// recorded as applied already, and records floor as the schema floor
// with it.
func (s *Store) apply(ctx context.Context, conn *sql.Conn, m migration, floor int) error {
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
	if _, err := tx.ExecContext(ctx, s.d.rebind(setFloor), floor); err != nil {
		return err
	}
	return tx.Commit()
}
