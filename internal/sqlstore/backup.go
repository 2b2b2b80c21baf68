package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// Backups of the SQLite database, taken while instances keep writing to it.
//
// Copying portico.db is not one: what was committed since the last
// checkpoint is only in portico.db-wal (a copy under load lost 183 of
// 2,717 acknowledged creates), and a copy of both files taken at two
// moments need not agree. Backup runs VACUUM INTO on a read connection
// instead: one read transaction, so the copy is the database as of the
// moment it began, every transaction committed before then and none
// after, while the writers carry on (under WAL a reader never waits for
// the writer, nor it for a reader). The log cannot be restarted while the
// copy reads it, so it grows by what is written meanwhile.
//
// PostgreSQL has its own tools (pg_dump, base backups and WAL archiving);
// Backup and Restore refuse it with ErrPostgresBackup.

// ErrPostgresBackup is Backup's and Restore's answer on PostgreSQL.
var ErrPostgresBackup = errors.New("on PostgreSQL, back up and restore with pg_dump and pg_restore (or the server's base backups)")

// BackupInfo describes a backup file.
type BackupInfo struct {
	Path   string
	Bytes  int64
	Schema int // the schema version it is at
}

// OpenExisting opens the database Open would, without changing anything
// in it: no migrations, no index rebuilds, no upkeep. It is for reading a
// database another process may be serving (Backup), which a newer binary
// must not migrate under it. An SQLite file that does not exist is an
// error, not a new database.
func OpenExisting(ctx context.Context, url, dataDir string) (*Store, error) {
	if path, _, ok := sqlitePath(url, dataDir); ok {
		if _, err := os.Stat(path); err != nil {
			return nil, fmt.Errorf("no database to open: %w", err)
		}
	}
	return open(ctx, url, dataDir)
}

// Backup writes a consistent copy of the SQLite database into dest, a
// file that must not exist yet, while others keep writing (see above).
// The copy is compacted and has no log beside it; it is written under
// the name dest+".partial", synced to disk, and only then named dest, so
// an interrupted backup never leaves a file that looks whole.
func (s *Store) Backup(ctx context.Context, dest string) (BackupInfo, error) {
	if !s.d.embedded {
		return BackupInfo{}, ErrPostgresBackup
	}
	if err := noFile(dest, "backup"); err != nil {
		return BackupInfo{}, err
	}
	partial := dest + ".partial"
	if err := noFile(partial, "backup"); err != nil {
		return BackupInfo{}, err
	}
	// A connection of its own, neither the one writer (VACUUM INTO only
	// reads the database it copies) nor a reader (query_only refuses
	// VACUUM altogether).
	conn, err := connect(ctx, s.d, sqliteDriver, strings.Replace(s.dsn, "&_txlock=immediate", "", 1))
	if err != nil {
		return BackupInfo{}, fmt.Errorf("backup: %w", err)
	}
	_, err = conn.ExecContext(ctx, `VACUUM INTO ?`, partial)
	conn.Close()
	if err != nil {
		os.Remove(partial)
		return BackupInfo{}, fmt.Errorf("backup: %w", err)
	}
	info, err := finishCopy(ctx, partial, dest, false)
	if err != nil {
		os.Remove(partial)
		return BackupInfo{}, fmt.Errorf("backup: %w", err)
	}
	return info.BackupInfo, nil
}

// RestoreInfo is what Restore checked of the database it put in place.
type RestoreInfo struct {
	BackupInfo
	Tenants, Records int64
}

// Restore puts the backup file src in place as the SQLite database that
// Open(ctx, url, dataDir) opens, which must not exist yet: it refuses to
// replace a database, or to put one beside a write-ahead log left by
// another. It copies src beside the database's path, checks the copy
// (PRAGMA integrity_check, and a Portico schema at a version this binary
// knows: an older one is migrated by the next Open), syncs it, and only
// then gives it the database's name.
func Restore(ctx context.Context, url, dataDir, src string) (RestoreInfo, error) {
	path, _, ok := sqlitePath(url, dataDir)
	if !ok {
		return RestoreInfo{}, ErrPostgresBackup
	}
	for _, p := range []string{path, path + "-wal", path + "-shm", path + "-journal"} {
		if err := noFile(p, "restore"); err != nil {
			if p == path {
				return RestoreInfo{}, fmt.Errorf("restore: %s already holds a database; restore into a fresh data directory (or move that database away first)", path)
			}
			return RestoreInfo{}, fmt.Errorf("%w: it would be applied to the restored database; move it away first", err)
		}
	}
	if _, err := os.Stat(src); err != nil {
		return RestoreInfo{}, fmt.Errorf("restore: %w", err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o750); err != nil {
		return RestoreInfo{}, fmt.Errorf("restore: create data directory: %w", err)
	}
	partial := path + ".restoring"
	if err := noFile(partial, "restore"); err != nil {
		return RestoreInfo{}, err
	}
	if err := copyNew(src, partial); err != nil {
		os.Remove(partial)
		return RestoreInfo{}, fmt.Errorf("restore: %w", err)
	}
	info, err := finishCopy(ctx, partial, path, true)
	if err != nil {
		os.Remove(partial)
		return RestoreInfo{}, fmt.Errorf("restore %s: %w", src, err)
	}
	return info, nil
}

// finishCopy checks the database file partial (with restore, as checkCopy
// says), makes it readable by its owner only (it holds the deployment's
// secrets), syncs it and names it dest, which must not exist.
func finishCopy(ctx context.Context, partial, dest string, restore bool) (RestoreInfo, error) {
	info, err := checkCopy(ctx, partial, restore)
	if err != nil {
		return info, err
	}
	if err := os.Chmod(partial, 0o600); err != nil {
		return info, err
	}
	f, err := os.Open(partial)
	if err != nil {
		return info, err
	}
	err = f.Sync() // VACUUM INTO leaves the copy unsynced
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return info, err
	}
	fi, err := os.Stat(partial)
	if err != nil {
		return info, err
	}
	// A link fails when dest exists, where a rename would replace it.
	if err := os.Link(partial, dest); err != nil {
		if errors.Is(err, os.ErrExist) {
			return info, fmt.Errorf("%s appeared meanwhile; not replaced", dest)
		}
		if err := noFile(dest, "copy"); err != nil { // no hard links here
			return info, err
		}
		if err := os.Rename(partial, dest); err != nil {
			return info, err
		}
	} else if err := os.Remove(partial); err != nil {
		return info, err
	}
	syncDir(filepath.Dir(dest))
	info.Path, info.Bytes = dest, fi.Size()
	return info, nil
}

// checkCopy opens the database file path on a connection of its own and
// reads its schema version. With restore, it also runs PRAGMA
// integrity_check, refuses a schema newer than this binary's (a backup
// taken by an older binary is not), and counts the tenants and records.
func checkCopy(ctx context.Context, path string, restore bool) (RestoreInfo, error) {
	var info RestoreInfo
	db, err := sql.Open(sqliteDriver, "file:"+path+"?_pragma=busy_timeout(10000)")
	if err != nil {
		return info, err
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	if restore {
		rows, err := db.QueryContext(ctx, `PRAGMA integrity_check(20)`)
		if err != nil {
			return info, fmt.Errorf("integrity check: %w", err)
		}
		var problems []string
		for rows.Next() {
			var line string
			if err := rows.Scan(&line); err != nil {
				rows.Close()
				return info, fmt.Errorf("integrity check: %w", err)
			}
			if line != "ok" {
				problems = append(problems, line)
			}
		}
		if err := rows.Close(); err != nil {
			return info, fmt.Errorf("integrity check: %w", err)
		}
		if err := rows.Err(); err != nil {
			return info, fmt.Errorf("integrity check: %w", err)
		}
		if len(problems) > 0 {
			return info, fmt.Errorf("integrity check failed: %s", strings.Join(problems, "; "))
		}
	}
	var version sql.NullInt64
	if err := db.QueryRowContext(ctx, `SELECT MAX(version) FROM schema_migrations`).Scan(&version); err != nil || !version.Valid {
		if err == nil || strings.Contains(err.Error(), "no such table") {
			return info, errors.New("not a Portico database: it has no schema version")
		}
		return info, fmt.Errorf("read schema version: %w", err)
	}
	info.Schema = int(version.Int64)
	if !restore {
		return info, nil
	}
	ms, err := sqlite.migrations()
	if err != nil {
		return info, err
	}
	if _, err := checkNotNewer(ctx, db, ms[len(ms)-1].version); err != nil {
		return info, err
	}
	if err := db.QueryRowContext(ctx, `SELECT (SELECT COUNT(*) FROM tenants), (SELECT COUNT(*) FROM records)`).Scan(&info.Tenants, &info.Records); err != nil {
		return info, fmt.Errorf("count records: %w", err)
	}
	return info, nil
}

// IsPostgresURL reports whether a database URL selects PostgreSQL
// (postgres:// or postgresql://).
func IsPostgresURL(url string) bool {
	return strings.HasPrefix(url, "postgres://") || strings.HasPrefix(url, "postgresql://")
}

// sqlitePath is the SQLite file that Open(ctx, url, dataDir) opens, or
// false when url does not select SQLite; inDataDir says it is dataDir's
// portico.db, url naming no file of its own.
func sqlitePath(url, dataDir string) (path string, inDataDir, ok bool) {
	if url != "" && !strings.HasPrefix(url, "sqlite:") && !strings.HasPrefix(url, "file:") {
		return "", false, false
	}
	path = strings.TrimPrefix(strings.TrimPrefix(url, "sqlite:"), "file:")
	if path == "" {
		return filepath.Join(dataDir, "portico.db"), true, true
	}
	return path, false, true
}

// noFile fails when path exists (or cannot be looked at).
func noFile(path, what string) error {
	switch _, err := os.Lstat(path); {
	case err == nil:
		return fmt.Errorf("%s: %s exists; not overwritten", what, path)
	case !errors.Is(err, os.ErrNotExist):
		return fmt.Errorf("%s: %w", what, err)
	}
	return nil
}

// copyNew copies the file src into dst, which it creates.
func copyNew(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	_, err = io.Copy(out, in)
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	return err
}

// syncDir syncs a directory so a file just named in it keeps its name
// after a crash; where directories cannot be synced, it does nothing.
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
}
