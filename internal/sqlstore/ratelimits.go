package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math/rand/v2"
	"time"
)

// Statements of Allow. The limit is the generic cell rate algorithm: a key's
// row holds its theoretical arrival time (tat); an event at now is allowed
// when tat <= now + (burst-1)·interval, and moves tat to
// max(tat, now) + interval. The decision and the update are one statement,
// so callers on any number of instances cannot both take the last event:
// on PostgreSQL the upsert locks the row and evaluates its WHERE against
// the newest version; SQLite has one writer at a time. The largest of two
// values is a CASE (SQLite's MAX(a, b) is PostgreSQL's GREATEST).
const (
	takeRateLimit = `INSERT INTO rate_limits (key, tat) VALUES (?, ?)
		ON CONFLICT (key) DO UPDATE
		SET tat = CASE WHEN rate_limits.tat > ? THEN rate_limits.tat ELSE ? END + ?
		WHERE rate_limits.tat <= ?
		RETURNING tat`
	readRateLimit = `SELECT tat FROM rate_limits WHERE key = ?`
	// sweepRateLimits deletes a bounded batch of rows whose time has passed
	// (a full bucket, the same as no row). The outer condition is checked
	// again on a row an upsert changed meanwhile, so a live row survives.
	sweepRateLimits = `DELETE FROM rate_limits WHERE tat < ? AND key IN (
		SELECT key FROM rate_limits WHERE tat < ? LIMIT 500)`
)

// rateLimitSweepOdds is one in how many calls also deletes spent rows:
// often enough to keep the table to the keys of the last minutes, rarely
// enough to cost nothing, with no state to share between instances.
const rateLimitSweepOdds = 256

// Allow takes one event from the rate limit named key, shared by every
// Store on this database: the bucket refills at perMinute events a minute
// and holds at most burst. When no event is left it answers false and how
// long until one is. Time is counted in milliseconds, from now as the
// caller's clock gives it (instances' clocks must agree to well within the
// refill interval). Keys are stored as they are given: they must not hold
// secrets. One call in rateLimitSweepOdds also deletes a bounded batch of
// rows whose time has passed; that clean-up's failure is left to a later
// call, never reported.
func (s *Store) Allow(ctx context.Context, key string, perMinute, burst int, now time.Time) (bool, time.Duration, error) {
	if perMinute < 1 || burst < 1 {
		return false, 0, fmt.Errorf("rate limit %q: %d a minute in bursts of %d", key, perMinute, burst)
	}
	interval := max(1, time.Minute.Milliseconds()/int64(perMinute))
	at := now.UnixMilli()
	latest := at + int64(burst-1)*interval // the latest tat that still allows an event
	if rand.IntN(rateLimitSweepOdds) == 0 {
		s.sweepRateLimits(ctx, at)
	}
	var tat int64
	err := s.db.QueryRowContext(ctx, s.d.rebind(takeRateLimit), key, at+interval, at, at, interval, latest).Scan(&tat)
	if err == nil {
		return true, 0, nil
	}
	if !errors.Is(err, sql.ErrNoRows) {
		return false, 0, fmt.Errorf("rate limit: %w", err)
	}
	// Refused: the row exists and is ahead. Its tat only says how long to
	// wait, so reading it separately is exact enough.
	if err := s.db.QueryRowContext(ctx, s.d.rebind(readRateLimit), key).Scan(&tat); err != nil && !errors.Is(err, sql.ErrNoRows) {
		return false, 0, fmt.Errorf("rate limit: %w", err)
	}
	return false, max(time.Millisecond, time.Duration(tat-latest)*time.Millisecond), nil
}

// sweepRateLimits deletes up to 500 rows whose time has passed at at.
func (s *Store) sweepRateLimits(ctx context.Context, at int64) error {
	_, err := s.db.ExecContext(ctx, s.d.rebind(sweepRateLimits), at, at)
	return err
}
