package sqlstore

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"
)

// WritePrometheus writes the store's own gauges in Prometheus' text
// format, labelled with instance. On SQLite that is
// portico_sqlite_wal_bytes, the size of the write-ahead log's file now (0
// when there is none): what PORTICO_SQLITE_WAL_LIMIT bounds, and what a
// long read lets grow. PostgreSQL has nothing here.
func (s *Store) WritePrometheus(w io.Writer, instance string) error {
	if !s.d.embedded {
		return nil
	}
	var size int64
	fi, err := os.Stat(sqliteWALPath(s.dsn))
	switch {
	case err == nil:
		size = fi.Size()
	case !errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("sqlstore: the write-ahead log's size: %w", err)
	}
	inst := labelEscaper.Replace(instance)
	_, err = fmt.Fprintf(w, "# HELP portico_sqlite_wal_bytes Size of SQLite's write-ahead log file (portico.db-wal), kept near PORTICO_SQLITE_WAL_LIMIT.\n"+
		"# TYPE portico_sqlite_wal_bytes gauge\nportico_sqlite_wal_bytes{instance=\"%s\"} %d\n", inst, size)
	return err
}

var labelEscaper = strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`)
