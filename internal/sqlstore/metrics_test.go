package sqlstore

import (
	"context"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// The WAL gauge reports the log file's size as the file system has it.
func TestWritePrometheusReportsTheWALSize(t *testing.T) {
	s := openSQLite(t)
	if _, err := s.db.ExecContext(context.Background(), "CREATE TABLE wal_metric_probe (v TEXT)"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.db.ExecContext(context.Background(), "INSERT INTO wal_metric_probe VALUES (?)", strings.Repeat("x", 100_000)); err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := s.WritePrometheus(&b, `host:8080 "a"`); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	if !strings.Contains(out, "# TYPE portico_sqlite_wal_bytes gauge\n") {
		t.Fatalf("no TYPE line:\n%s", out)
	}
	m := regexp.MustCompile(`(?m)^portico_sqlite_wal_bytes\{instance="host:8080 \\"a\\""\} (\d+)$`).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("no gauge line:\n%s", out)
	}
	got, _ := strconv.ParseInt(m[1], 10, 64)
	fi, err := os.Stat(sqliteWALPath(s.dsn))
	if err != nil {
		t.Fatal(err)
	}
	// The write put 100 kB in the log, far under the limit, so the upkeep
	// has not restarted it: the gauge and the file agree.
	if got < 100_000 || got != fi.Size() {
		t.Fatalf("portico_sqlite_wal_bytes = %d, the file is %d bytes", got, fi.Size())
	}
}
