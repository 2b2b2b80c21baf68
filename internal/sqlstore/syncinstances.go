package sqlstore

import (
	"context"
	"database/sql"
	"time"
)

// forgetInstancesAfter is how long past its time an instance's row is
// kept (migration 0037) before a running instance removes it.
const forgetInstancesAfter = time.Hour

// SeeInstance notes that instance is running until until (unless seen
// again) and returns how many instances are running at now, itself
// included. It runs on the lease connections (see inLeaseTx), as the
// leases it shares out do.
func (s *Store) SeeInstance(ctx context.Context, instance string, now, until time.Time) (int, error) {
	var live int
	err := s.inLeaseTx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, s.d.rebind(`INSERT INTO sync_instances (instance, until) VALUES (?, ?)
			ON CONFLICT (instance) DO UPDATE SET until = excluded.until`), instance, until.UnixMilli()); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, s.d.rebind(`DELETE FROM sync_instances WHERE until < ?`),
			now.Add(-forgetInstancesAfter).UnixMilli()); err != nil {
			return err
		}
		return tx.QueryRowContext(ctx, s.d.rebind(`SELECT COUNT(*) FROM sync_instances WHERE until >= ?`), now.UnixMilli()).Scan(&live)
	})
	return live, err
}

// ForgetInstance removes instance's row: it stopped, and the others'
// shares grow at once.
func (s *Store) ForgetInstance(ctx context.Context, instance string) error {
	return s.inLeaseTx(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, s.d.rebind(`DELETE FROM sync_instances WHERE instance = ?`), instance)
		return err
	})
}
