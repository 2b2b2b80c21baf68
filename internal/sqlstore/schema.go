package sqlstore

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"fmt"
	"net/url"
)

// OpenScratch opens a store in a new, empty PostgreSQL schema of the
// database at base, for tests and benchmarks that must not see each
// other's rows. drop removes the schema (after the caller closed the
// store).
func OpenScratch(ctx context.Context, base string) (s *Store, drop func(), err error) {
	u, drop, err := ScratchURL(ctx, base)
	if err != nil {
		return nil, nil, err
	}
	if s, err = Open(ctx, u, ""); err != nil {
		drop()
		return nil, nil, err
	}
	return s, drop, nil
}

// ScratchURL creates a new, empty PostgreSQL schema in the database at
// base and returns a URL that opens it (as its search_path), so several
// stores (instances) can share it; drop removes the schema once they are
// closed.
func ScratchURL(ctx context.Context, base string) (u string, drop func(), err error) {
	admin, err := sql.Open("pgx", base)
	if err != nil {
		return "", nil, err
	}
	defer admin.Close()
	b := make([]byte, 6)
	rand.Read(b)
	schema := "portico_test_" + hex.EncodeToString(b)
	if _, err := admin.ExecContext(ctx, "CREATE SCHEMA "+schema); err != nil {
		return "", nil, fmt.Errorf("create scratch schema: %w", err)
	}
	drop = func() {
		if db, err := sql.Open("pgx", base); err == nil {
			db.ExecContext(context.Background(), "DROP SCHEMA "+schema+" CASCADE")
			db.Close()
		}
	}
	parsed, err := url.Parse(base)
	if err != nil {
		drop()
		return "", nil, err
	}
	q := parsed.Query()
	q.Set("search_path", schema)
	parsed.RawQuery = q.Encode()
	return parsed.String(), drop, nil
}
