package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"log/slog"
	"strings"
	"time"
)

// SQLite's upkeep, off the write path. Two chores used to run inside
// whichever write happened to trigger them, holding the one writer while
// every other write queued behind it:
//
//   - the WAL checkpoint, every 1,000 pages of log (about every 25 record
//     writes: 20-30 ms each);
//   - FTS5's automatic merges of the search index's segments (up to
//     100-250 ms on the demo database, more on a large one).
//
// The writer now has neither (wal_autocheckpoint 0; automerge 0 on the
// search tables). Every upkeepInterval, when something was committed since
// the last pass, a connection of its own checkpoints the log (PASSIVE:
// readers and the writer go on meanwhile) and the writer merges a bounded
// number of index pages (upkeepMergePages per table), a few milliseconds,
// so the segments stay few without any one write paying for them.

const (
	upkeepInterval   = 500 * time.Millisecond
	upkeepMergePages = 64
)

// searchTables are the full-text tables whose merges the upkeep does.
var searchTables = []string{"search_all", "search_kind"}

// upkeep is the background loop of one SQLite store.
type upkeep struct {
	conn    *sql.DB // one connection: data_version is per connection
	version int64   // PRAGMA data_version after the last pass
	stop    context.CancelFunc
	done    chan struct{}
}

// startUpkeep opens the upkeep's connection and starts its loop, which
// Close stops.
func (s *Store) startUpkeep(dsn string) error {
	conn, err := connect(context.Background(), s.d, sqliteDriver, dsn)
	if err != nil {
		return err
	}
	conn.SetMaxOpenConns(1)
	ctx, stop := context.WithCancel(context.Background())
	s.upkeep = &upkeep{conn: conn, stop: stop, done: make(chan struct{})}
	go func() {
		defer close(s.upkeep.done)
		tick := time.NewTicker(upkeepInterval)
		defer tick.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
			}
			if err := s.upkeepPass(ctx); err != nil && ctx.Err() == nil {
				slog.Default().Warn("sqlite upkeep", "err", err)
			}
		}
	}()
	return nil
}

// upkeepPass does one round of upkeep when anything was committed since
// the last: the search tables' merging stays manual (a bulk load sets
// FTS5's default back), a bounded merge step, then a checkpoint.
func (s *Store) upkeepPass(ctx context.Context) error {
	u := s.upkeep
	var v int64
	if err := u.conn.QueryRowContext(ctx, `PRAGMA data_version`).Scan(&v); err != nil {
		return err
	}
	if v == u.version {
		return nil
	}
	for _, t := range searchTables {
		var automerge string
		err := u.conn.QueryRowContext(ctx, `SELECT v FROM `+t+`_config WHERE k = 'automerge'`).Scan(&automerge)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return err
		}
		if strings.TrimSpace(automerge) != "0" {
			if _, err := s.db.ExecContext(ctx, `INSERT INTO `+t+` (`+t+`, rank) VALUES ('automerge', 0)`); err != nil {
				return err
			}
		}
		if _, err := s.db.ExecContext(ctx, `INSERT INTO `+t+` (`+t+`, rank) VALUES ('merge', ?)`, upkeepMergePages); err != nil {
			return err
		}
	}
	if _, err := u.conn.ExecContext(ctx, `PRAGMA wal_checkpoint(PASSIVE)`); err != nil {
		return err
	}
	// Read after this pass's own writes, so they do not call for another.
	return u.conn.QueryRowContext(ctx, `PRAGMA data_version`).Scan(&u.version)
}

// close ends the loop and closes its connection.
func (u *upkeep) close() {
	u.stop()
	<-u.done
	u.conn.Close()
}
