package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"log/slog"
	"os"
	"strings"
	"sync/atomic"
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
//
// A PASSIVE checkpoint copies the log into the database but never starts
// the log over: only a write that begins once every frame is copied and
// no reader still reads the log does, which a steady stream of writes and
// reads never leaves room for. Under sustained writes the log grew by
// tens of megabytes a second and kept its size after. So each pass also
// looks at the log's file, and when it is past the store's walLimit runs
// a TRUNCATE checkpoint between two of the group writer's transactions
// (groupcommit.Writer.Pause: the writes wait meanwhile). It takes the log's
// write lock, copies the few frames the PASSIVE one left, waits for the
// reads still reading the log to finish (new ones read the database), and
// truncates the file: 50-150 ms under the mixed-load benchmark. Run from
// the upkeep's goroutine instead, it had to find the write lock free, and
// with the writer busy (one group after another) it almost never did:
// the log passed 280 MB with a 64 MB limit. The wait for reads is the
// upkeep connection's busy timeout, upkeepBusyTimeout, not the writers'
// 10 s: a long read makes the checkpoint give up soon (the writes it held
// off go on) and the next pass tries again, then every 2nd, 4th and 8th
// pass while the read goes on (a backup's can last minutes), so the log
// stays within walLimit plus what is written in an upkeep interval, or
// while a long read holds it. The writers' journal_size_limit (walLimit)
// cuts back a log restarted otherwise (by a write after a quiet spell).

const (
	upkeepInterval    = 500 * time.Millisecond
	upkeepMergePages  = 64
	upkeepBusyTimeout = 100 * time.Millisecond
	// upkeepWarnAfter is how many tries in a row to restart the log may be
	// blocked (the last ones 4 s apart) before the upkeep says so.
	upkeepWarnAfter = 8
)

// searchTables are the full-text tables whose merges the upkeep does.
var searchTables = []string{"search_all", "search_kind"}

// upkeep is the background loop of one SQLite store.
type upkeep struct {
	conn    *sql.DB // one connection: data_version is per connection
	version int64   // PRAGMA data_version after the last pass
	wal     string  // the write-ahead log's file
	limit   int64   // its size past which a pass restarts it
	blocked int     // tries in a row to restart the log that were blocked
	skip    int     // passes left before the next try after blocked ones
	// restarts and refusals count the restarts of the log run and those
	// blocked (busy).
	restarts, refusals atomic.Int64
	stop               context.CancelFunc
	done               chan struct{}
}

// startUpkeep opens the upkeep's connection and starts its loop, which
// Close stops.
func (s *Store) startUpkeep(dsn string, walLimit int64) error {
	conn, err := connect(context.Background(), s.d, sqliteDriver, dsn)
	if err != nil {
		return err
	}
	conn.SetMaxOpenConns(1)
	ctx, stop := context.WithCancel(context.Background())
	s.upkeep = &upkeep{conn: conn, wal: sqliteWALPath(dsn), limit: walLimit, stop: stop, done: make(chan struct{})}
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

// upkeepPass does one round of upkeep: when anything was committed since
// the last, the search tables' merging stays manual (a bulk load sets
// FTS5's default back), a bounded merge step, then a checkpoint; and a
// log past its limit is restarted (boundWAL).
func (s *Store) upkeepPass(ctx context.Context) error {
	if err := s.mergeAndCheckpoint(ctx); err != nil {
		return err
	}
	return s.boundWAL(ctx)
}

// mergeAndCheckpoint is the pass's merge step and PASSIVE checkpoint, run
// when anything was committed since the last.
func (s *Store) mergeAndCheckpoint(ctx context.Context) error {
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

// boundWAL restarts the log and truncates its file when the file is past
// the limit. A restart blocked (busy) by a read or a transaction still
// running when the busy timeout ends is left to the next pass.
func (s *Store) boundWAL(ctx context.Context) error {
	u := s.upkeep
	size := u.walSize()
	if size <= u.limit {
		u.blocked, u.skip = 0, 0
		return nil
	}
	if u.skip > 0 {
		u.skip--
		return nil
	}
	var busy, logged, copied int
	var err error
	if perr := s.group.Pause(ctx, func() {
		err = u.conn.QueryRowContext(ctx, `PRAGMA wal_checkpoint(TRUNCATE)`).Scan(&busy, &logged, &copied)
	}); perr != nil {
		return perr
	}
	if err != nil {
		return err
	}
	if busy == 0 {
		u.restarts.Add(1)
		u.blocked = 0
		return nil
	}
	u.refusals.Add(1)
	// Each try holds the writes off for the busy timeout: while a long
	// read (a backup) goes on, tries come every pass, then every 2nd,
	// 4th, 8th.
	u.skip = min(1<<u.blocked, 8) - 1
	if u.blocked++; u.blocked == upkeepWarnAfter {
		slog.Default().Warn("sqlite write-ahead log past its limit: a long read or transaction keeps it from restarting",
			"wal_bytes", size, "limit_bytes", u.limit, "tries", u.blocked)
	}
	return nil
}

// walSize is the size of the log's file (0 when there is none).
func (u *upkeep) walSize() int64 {
	fi, err := os.Stat(u.wal)
	if err != nil {
		return 0
	}
	return fi.Size()
}

// close ends the loop and closes its connection.
func (u *upkeep) close() {
	u.stop()
	<-u.done
	u.conn.Close()
}
