package sqlstore

import (
	"database/sql"
	"database/sql/driver"
	"errors"
	"io"
	"net"
	"strings"

	"github.com/jackc/pgx/v5/pgconn"
	moderncsqlite "modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// Unavailable reports whether err is the database being out of reach for
// a moment rather than a fault of the request or of the code: a
// connection PostgreSQL ended (an administrator's pg_terminate_backend, a
// shutdown or restart: SQLSTATE class 57P), a connection failure (class
// 08), a connection lost under a statement, or SQLite busy past its busy
// timeout; and on PostgreSQL a transaction ended to break a deadlock, or
// for a serialization failure (40P01, 40001: writes of a project and of
// its records at once can deadlock, see migration 0038). The same request
// may well succeed a moment later: the API answers it 503 with
// Retry-After, never 500.
func Unavailable(err error) bool {
	if err == nil {
		return false
	}
	if pe, ok := errors.AsType[*pgconn.PgError](err); ok {
		return strings.HasPrefix(pe.Code, "57P") || strings.HasPrefix(pe.Code, "08") || pe.Code == "40P01" || pe.Code == "40001"
	}
	if se, ok := errors.AsType[*moderncsqlite.Error](err); ok {
		code := se.Code() & 0xff // the primary result code
		return code == sqlite3.SQLITE_BUSY || code == sqlite3.SQLITE_LOCKED
	}
	if _, ok := errors.AsType[*pgconn.ConnectError](err); ok {
		return true
	}
	if _, ok := errors.AsType[net.Error](err); ok {
		return true
	}
	return errors.Is(err, driver.ErrBadConn) || errors.Is(err, sql.ErrConnDone) || errors.Is(err, io.ErrUnexpectedEOF) ||
		pgconn.SafeToRetry(err)
}
