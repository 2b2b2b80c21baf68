package sqlstore

import (
	"context"
	"crypto/rand"
)

// Secret returns the deployment-wide secret called name, creating it with
// size random bytes the first time. Every instance sharing the database
// gets the same value; it never leaves the database except to the caller.
func (s *Store) Secret(ctx context.Context, name string, size int) ([]byte, error) {
	fresh := make([]byte, size)
	rand.Read(fresh)
	if _, err := s.db.ExecContext(ctx, s.d.rebind(`INSERT INTO secrets (name, value) VALUES (?, ?) ON CONFLICT (name) DO NOTHING`), name, fresh); err != nil {
		return nil, err
	}
	var v []byte
	err := s.db.QueryRowContext(ctx, s.d.rebind(`SELECT value FROM secrets WHERE name = ?`), name).Scan(&v)
	return v, err
}
