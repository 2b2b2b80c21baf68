// Package sqlstore implements Portico's stores on SQLite (the embedded
// default) and PostgreSQL. Engine differences live behind one dialect seam;
// each engine has its own migration folder; one conformance suite runs on
// both.
//
// Tenancy is structural: tenant data is only reachable through a Tenant
// handle, whose statements must name the tenant (see scoped.go).
package sqlstore

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // registers the "pgx" driver
	"github.com/portico/portico/internal/portal"
	"github.com/portico/portico/internal/records"
	"github.com/portico/portico/internal/signals"
	"github.com/portico/portico/internal/sqlstore/groupcommit"
	_ "modernc.org/sqlite" // registers the "sqlite" driver
)

// Store is an open database with Portico's schema.
//
// On SQLite, db is the one writer: a single connection, so writes queue in
// the process (in order, each as short as its transaction) instead of
// contending for the file's lock, and rdb is a pool of read-only
// connections that, under WAL, never wait for the writer. On PostgreSQL
// both are the same pool.
type Store struct {
	db  *sql.DB // writes, transactions, and everything on PostgreSQL
	rdb *sql.DB // reads outside transactions
	// ldb claims and releases the sync leases (inLeaseTx): on PostgreSQL a
	// pool of its own (leaseConns), so that a renewal never queues behind
	// the data work of many tenants' syncs for a connection; on SQLite db.
	ldb *sql.DB
	// upkeep checkpoints SQLite's log and merges its search index off the
	// write path (see upkeep.go); nil on PostgreSQL.
	upkeep *upkeep
	// group runs SQLite's write transactions (package groupcommit); nil
	// on PostgreSQL.
	group *groupcommit.Writer
	d     dialect
	stmts stmtCache
	// commonTexts are the texts a list's text search found common (see
	// listTextCap).
	commonTexts commonTexts
	dsn         string
	// walLimit is the size SQLite's write-ahead log is kept near (see
	// WALLimit).
	walLimit int64
	// events is where the commit of a live-update event is announced
	// (see events.go); nil announces nothing.
	events atomic.Pointer[signals.Signals]
	// kinds are the tenants' kinds (SetKinds).
	kinds atomic.Pointer[map[portal.TenantID]*records.Registry]
}

// Open connects to the database named by url and applies pending
// migrations (then rebuilds what an interrupted bulk load left undone,
// indexes records that predate the search index, and fits the document
// field indexes and totals to the code's kinds, dropping nothing a
// tenant's account fields need: see IndexDocumentFields). An empty url means the
// embedded SQLite file portico.db under dataDir (created with the directory when missing); postgres:// and
// postgresql:// select PostgreSQL; sqlite: or file: give an explicit SQLite
// path. opts adjust an SQLite store (WALLimit); PostgreSQL ignores them.
func Open(ctx context.Context, url, dataDir string, opts ...Option) (*Store, error) {
	s, err := open(ctx, url, dataDir, opts...)
	if err != nil {
		return nil, err
	}
	if _, err := s.Migrate(ctx); err != nil {
		s.Close()
		return nil, err
	}
	if err := s.rebuildPendingIndexes(ctx); err != nil {
		s.Close()
		return nil, err
	}
	if err := s.indexSearchIfEmpty(ctx); err != nil {
		s.Close()
		return nil, err
	}
	if err := s.fitDocumentFields(ctx, records.All(), false); err != nil {
		s.Close()
		return nil, err
	}
	if s.d.embedded {
		if err := s.startUpkeep(sqliteUpkeepDSN(s.dsn), s.walLimit); err != nil {
			s.Close()
			return nil, err
		}
	}
	return s, nil
}

// Option adjusts how Open sets a store up.
type Option func(*Store)

// DefaultWALLimit is the size SQLite's write-ahead log is kept near when
// Open is not given WALLimit.
const DefaultWALLimit = 64 << 20

// WALLimit bounds SQLite's write-ahead log at about n bytes (at least
// 1 MiB): past it the upkeep restarts the log and truncates its file
// (see upkeep.go), and a log restarted by a write is cut back to n.
func WALLimit(n int64) Option {
	return func(s *Store) { s.walLimit = max(n, 1<<20) }
}

func open(ctx context.Context, url, dataDir string, opts ...Option) (*Store, error) {
	var (
		driver, dsn string
		d           dialect
	)
	s := &Store{walLimit: DefaultWALLimit}
	for _, o := range opts {
		o(s)
	}
	path, inDataDir, isSQLite := sqlitePath(url, dataDir)
	switch {
	case IsPostgresURL(url):
		driver, dsn, d = "pgx", url, postgres
	case isSQLite:
		if inDataDir {
			if err := os.MkdirAll(dataDir, 0o750); err != nil {
				return nil, fmt.Errorf("create data directory: %w", err)
			}
		}
		driver, dsn, d = sqliteDriver, sqliteDSN(path, s.walLimit), sqlite
	default:
		return nil, fmt.Errorf("database url: unsupported scheme (use postgres://... or sqlite:PATH)")
	}
	// A PostgreSQL server that does not answer within connectTimeout is
	// reported so. SQLite's file has no such bound: its first connection
	// may be recovering a large write-ahead log (left by a crash or a bulk
	// load: 13 GB after seeding the benchmark's million projects outlasted
	// 10 s), work that a deadline would abandon for the next start to redo.
	pingCtx := ctx
	if !d.embedded {
		var cancel context.CancelFunc
		pingCtx, cancel = context.WithTimeout(ctx, connectTimeout)
		defer cancel()
	}
	db, err := connect(pingCtx, d, driver, dsn)
	if err != nil {
		return nil, err
	}
	s.db, s.rdb, s.ldb, s.d, s.dsn = db, db, db, d, dsn
	if d.embedded {
		db.SetMaxOpenConns(1)
		db.SetMaxIdleConns(1)
		db.SetConnMaxIdleTime(0)
		if s.rdb, err = connect(pingCtx, d, driver, sqliteReadDSN(dsn)); err != nil {
			db.Close()
			return nil, err
		}
		s.group = groupcommit.New(db)
	} else {
		// Connected when first used: most commands take no lease.
		if s.ldb, err = sql.Open(driver, dsn); err != nil {
			db.Close()
			return nil, fmt.Errorf("open %s database: %w", d.name, err)
		}
		s.ldb.SetMaxOpenConns(leaseConns)
		s.ldb.SetMaxIdleConns(leaseConns)
		s.ldb.SetConnMaxIdleTime(5 * time.Minute)
	}
	s.SetMaxConns(0)
	return s, nil
}

// leaseConns is the size of a PostgreSQL store's pool for the sync
// leases: a claim is a few statements on one row, never waiting for a
// fenced write (see AcquireLease), so two serve the claims of every
// tenant's engine, every 2½ s each.
const leaseConns = 2

// connectTimeout bounds how long Open waits for a PostgreSQL server.
var connectTimeout = 10 * time.Second

// connect opens a pool and checks the database answers.
func connect(ctx context.Context, d dialect, driver, dsn string) (*sql.DB, error) {
	db, err := sql.Open(driver, dsn)
	if err != nil {
		return nil, fmt.Errorf("open %s database: %w", d.name, err)
	}
	db.SetConnMaxIdleTime(5 * time.Minute)
	if err := db.PingContext(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("connect to %s database: %w", d.name, err)
	}
	return db, nil
}

// SetMaxConns caps the store's connections at n (0: max(4, 2×GOMAXPROCS)):
// the whole pool on PostgreSQL, the readers on SQLite (whose writer is
// always one connection).
func (s *Store) SetMaxConns(n int) {
	if n <= 0 {
		n = max(4, 2*runtime.GOMAXPROCS(0))
	}
	s.rdb.SetMaxOpenConns(n)
	s.rdb.SetMaxIdleConns(n)
}

// MaxConns is the most connections the store's reads may hold at once
// (SetMaxConns).
func (s *Store) MaxConns() int { return s.rdb.Stats().MaxOpenConnections }

// sqliteDriver is the database/sql driver used for SQLite;
// docs/performance.md ("SQLite driver") says why this one.
const sqliteDriver = "sqlite"

// sqliteDSN turns a file path into a DSN for sqliteDriver: WAL so readers
// never wait for the writer, a busy timeout instead of SQLITE_BUSY errors,
// IMMEDIATE transactions so a reader never has to upgrade to a writer
// (the cause of unrecoverable "database is locked" errors), no
// checkpoints in the middle of a write (the upkeep does them), and a log
// that, once restarted, is cut back to walLimit bytes by the next commit.
func sqliteDSN(path string, walLimit int64) string {
	return "file:" + path + "?_pragma=busy_timeout(10000)&_pragma=journal_mode(WAL)" +
		"&_pragma=synchronous(NORMAL)&_pragma=foreign_keys(1)&_pragma=cache_size(" + sqliteCacheSize + ")" +
		"&_pragma=wal_autocheckpoint(0)&_pragma=journal_size_limit(" + strconv.FormatInt(walLimit, 10) + ")" +
		"&_txlock=immediate"
}

// sqliteWALPath is the write-ahead log's file of the database dsn names.
func sqliteWALPath(dsn string) string {
	path, _, _ := strings.Cut(strings.TrimPrefix(dsn, "file:"), "?")
	return path + "-wal"
}

// sqliteReadDSN is the DSN of the read pool: the writer's, with every
// statement refused that would write, and without IMMEDIATE transactions.
func sqliteReadDSN(dsn string) string {
	return strings.Replace(dsn, "&_txlock=immediate", "", 1) + "&_pragma=query_only(1)"
}

// sqliteUpkeepDSN is the DSN of the upkeep's connection: the writer's,
// without IMMEDIATE transactions (it only runs pragmas and reads), and
// with a busy timeout of upkeepBusyTimeout: the checkpoint that restarts
// the log holds the writers off while it waits for readers, so it gives
// up soon and tries again at the next pass.
func sqliteUpkeepDSN(dsn string) string {
	dsn = strings.Replace(dsn, "&_txlock=immediate", "", 1)
	return strings.Replace(dsn, "busy_timeout(10000)", "busy_timeout("+strconv.FormatInt(upkeepBusyTimeout.Milliseconds(), 10)+")", 1)
}

// sqliteCacheSize is each connection's page cache: 64 MB (negative is
// KiB), which keeps the upper levels of the records' indexes in memory
// while a sync stores thousands of rows a transaction.
const sqliteCacheSize = "-65536"

// Engine names the database engine: "sqlite" or "postgres".
func (s *Store) Engine() string { return s.d.name }

// Ping checks that the database answers.
func (s *Store) Ping(ctx context.Context) error { return s.db.PingContext(ctx) }

// Close closes the database.
func (s *Store) Close() error {
	if s.upkeep != nil {
		s.upkeep.close()
	}
	if s.group != nil {
		s.group.Close()
	}
	s.stmts.close()
	if s.rdb != s.db {
		s.rdb.Close()
	}
	if s.ldb != s.db {
		s.ldb.Close()
	}
	return s.db.Close()
}

// inTx runs fn in a transaction, committing when it returns nil. On
// SQLite, transactions are committed in groups (package groupcommit).
func (s *Store) inTx(ctx context.Context, fn func(*sql.Tx) error) error {
	return s.inTxOn(ctx, s.db, fn)
}

// inLeaseTx is inTx on the lease connections (ldb).
func (s *Store) inLeaseTx(ctx context.Context, fn func(*sql.Tx) error) error {
	return s.inTxOn(ctx, s.ldb, fn)
}

// inTxOn runs fn in a transaction on db (SQLite's: in its write group).
func (s *Store) inTxOn(ctx context.Context, db *sql.DB, fn func(*sql.Tx) error) error {
	if s.group != nil {
		return s.group.Do(ctx, fn)
	}
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	if err := fn(tx); err != nil {
		tx.Rollback()
		return err
	}
	return tx.Commit()
}
