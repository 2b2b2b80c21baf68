package sqlstore

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"testing"
)

// A database a newer release migrated is served by an older binary only
// while every migration since is an expand step that names it as the
// oldest binary (schema_floor); otherwise, or when the database does not
// say, the binary refuses it with both versions and what to do, on both
// engines.
func TestANewerSchemaIsServedOnlyWithinItsFloor(t *testing.T) {
	for _, engine := range []string{"sqlite", "postgres"} {
		t.Run(engine, func(t *testing.T) {
			ctx := context.Background()
			s := atVersion(t, engine, 1000) // migrated before schema_floor existed
			ms, _ := s.d.migrations()
			newest := ms[len(ms)-1].version
			if v, err := s.Migrate(ctx); err != nil || v != newest {
				t.Fatalf("Migrate: %d, %v", v, err)
			}
			var floor int
			if err := s.db.QueryRowContext(ctx, `SELECT version FROM schema_floor`).Scan(&floor); err != nil || floor != floorAt(ms, newest) {
				t.Fatalf("schema floor %d (%v), want %d", floor, err, floorAt(ms, newest))
			}
			// A newer release's expand step: this binary still runs.
			if _, err := s.db.ExecContext(ctx, s.d.rebind(`INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, 'an expand step', 0)`), newest+1); err != nil {
				t.Fatal(err)
			}
			if _, err := s.db.ExecContext(ctx, s.d.rebind(setFloor), newest); err != nil {
				t.Fatal(err)
			}
			if v, err := s.Migrate(ctx); err != nil || v != newest+1 {
				t.Fatalf("Migrate beside an expand step: %d, %v", v, err)
			}
			if err := s.db.QueryRowContext(ctx, `SELECT version FROM schema_floor`).Scan(&floor); err != nil || floor != newest {
				t.Fatalf("an older binary moved the floor: %d (%v)", floor, err)
			}
			// Its contract step, then a database that does not say.
			for name, stmt := range map[string]string{
				"contract": s.d.rebind(`UPDATE schema_floor SET version = ?`),
				"no floor": `DELETE FROM schema_floor WHERE version <> ?`,
			} {
				if _, err := s.db.ExecContext(ctx, s.d.rebind(stmt), newest+1); err != nil {
					t.Fatal(err)
				}
				_, err := s.Migrate(ctx)
				var newer *NewerSchemaError
				if !errors.As(err, &newer) || newer.Database != newest+1 || newer.Binary != newest ||
					!strings.Contains(err.Error(), fmt.Sprintf("schema version %d, newer than this binary's %d, and a migration since needs binaries from version %d on", newest+1, newest, newest+1)) {
					t.Fatalf("%s: Migrate: %v", name, err)
				}
			}
		})
	}
}

func TestOldestBinaryLines(t *testing.T) {
	m, err := parseMigration(31, "0031_x.sql", "-- Adds x.\n--   oldest binary: 29\nALTER TABLE t ADD COLUMN x TEXT;\n")
	if err != nil || m.oldestBinary != 29 {
		t.Fatalf("%+v, %v", m, err)
	}
	if m, err := parseMigration(31, "0031_x.sql", "DROP TABLE t;\n"); err != nil || m.oldestBinary != 31 {
		t.Fatalf("no line: %+v, %v", m, err)
	}
	for _, bad := range []string{"-- oldest binary: 32", "-- oldest binary: soon", "-- oldest binary: 0"} {
		if _, err := parseMigration(31, "0031_x.sql", bad+"\n"); err == nil || !strings.Contains(err.Error(), "0031_x.sql") {
			t.Errorf("%q: %v", bad, err)
		}
	}
	ms := []migration{{version: 28, oldestBinary: 28}, {version: 29, oldestBinary: 28}, {version: 30, oldestBinary: 28}, {version: 31, oldestBinary: 30}}
	for v, want := range map[int]int{27: 0, 28: 28, 30: 28, 31: 30} {
		if got := floorAt(ms, v); got != want {
			t.Errorf("floorAt(%d) = %d, want %d", v, got, want)
		}
	}
}

// Every migration that lets older binaries run beside it only adds:
// tables, indexes, and columns that are nullable or have a default (an
// older binary's insert names none of them). What an older binary reads
// or writes is never dropped, renamed or tightened in such a step; that
// is a later release's contract step.
func TestExpandStepsOnlyAdd(t *testing.T) {
	for _, d := range []dialect{sqlite, postgres} {
		ms, err := d.migrations()
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range ms {
			if m.oldestBinary < m.version {
				if p := expandProblems(m.sql); len(p) > 0 {
					t.Errorf("%s/%s names binary %d as the oldest to run beside it, but %s", d.name, m.name, m.oldestBinary, strings.Join(p, "; "))
				}
			}
		}
	}
	for sql, want := range map[string]string{
		"ALTER TABLE records ADD COLUMN x TEXT NOT NULL DEFAULT '';\nCREATE INDEX i ON records (x);": "",
		"ALTER TABLE records ADD COLUMN x TEXT NOT NULL;":                                            "a NOT NULL column without a default",
		"ALTER TABLE records DROP COLUMN title;":                                                     "drops",
		"DROP INDEX records_title;":                                                                  "drops",
		"ALTER TABLE records RENAME COLUMN title TO name;":                                           "renames",
		"ALTER TABLE records ALTER COLUMN title SET NOT NULL;":                                       "alters a column",
		"-- DROP TABLE x is only mentioned\nCREATE TABLE y (a TEXT);":                                "",
		"DROP TRIGGER t_ai;\nCREATE TRIGGER t_ai AFTER INSERT ON records BEGIN SELECT 1; END;":       "",
		"DROP TRIGGER t_ai;\nCREATE TRIGGER t_ai2 AFTER INSERT ON records BEGIN SELECT 1; END;":      "drops a trigger",
	} {
		if got := strings.Join(expandProblems(sql), "; "); (want == "") != (got == "") || !strings.Contains(got, want) {
			t.Errorf("%q: %q, want %q", sql, got, want)
		}
	}
}

var (
	sqlComment     = regexp.MustCompile(`--[^\n]*`)
	droppedTrigger = regexp.MustCompile(`(?i)\bDROP\s+TRIGGER\s+(?:IF\s+EXISTS\s+)?(\w+)`)
	addedNotNull   = regexp.MustCompile(`(?is)ADD\s+COLUMN\s+[^,;]*?\bNOT\s+NULL\b[^,;]*`)
	expandRefusals = map[string]*regexp.Regexp{
		"drops":           regexp.MustCompile(`(?i)\bDROP\s+(TABLE|COLUMN|INDEX|VIEW)\b`),
		"renames":         regexp.MustCompile(`(?i)\bRENAME\b`),
		"alters a column": regexp.MustCompile(`(?i)\bALTER\s+COLUMN\b`),
	}
)

// expandProblems names what in a migration's statements an older binary
// could trip on. (A replaced index is a drop: an SQLite binary may name
// it in INDEXED BY.)
func expandProblems(sql string) []string {
	sql = sqlComment.ReplaceAllString(sql, "")
	var out []string
	for what, re := range expandRefusals {
		if re.MatchString(sql) {
			out = append(out, what)
		}
	}
	// A trigger is replaced by dropping it and making it again (SQLite
	// has no other way); no binary names one.
	for _, m := range droppedTrigger.FindAllStringSubmatch(sql, -1) {
		if !regexp.MustCompile(`(?i)\bCREATE\s+TRIGGER\s+` + regexp.QuoteMeta(m[1]) + `\b`).MatchString(sql) {
			out = append(out, "drops a trigger it does not make again")
		}
	}
	for _, col := range addedNotNull.FindAllString(sql, -1) {
		if !regexp.MustCompile(`(?i)\bDEFAULT\b`).MatchString(col) {
			out = append(out, "a NOT NULL column without a default")
		}
	}
	return out
}
