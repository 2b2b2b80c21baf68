// Package groupcommit runs a database's write transactions in groups, for
// an engine with one writer (SQLite's): see Writer.
package groupcommit

import (
	"context"
	"database/sql"
	"fmt"
	"time"
)

// Group commit for an engine's one writer (SQLite's). Handing the writer connection from
// one request to the next left it idle while the next was scheduled, and
// every transaction paid its own BEGIN and COMMIT; on a busy machine the
// writes queued behind those gaps. Instead, one goroutine runs the
// transactions: it takes the first waiting, then, in the same database
// transaction, each one already waiting (up to groupMax, within
// groupBudget), each inside its own savepoint, and commits them together.
//
// Each write keeps its own outcome: one whose function fails is rolled
// back to its savepoint, alone, and answered at once; the others are
// answered when their common COMMIT is done (durable as before: a write is
// acknowledged only once committed). A COMMIT that fails fails the group.
//
// A function must not start another transaction of the same store (it
// would wait for itself); none does.

const (
	groupMax    = 64
	groupBudget = 20 * time.Millisecond
)

// Writer runs one database's write transactions (New).
type Writer struct {
	db     *sql.DB
	reqs   chan *txRequest
	paused chan func() // run between two groups (pause)
	stop   chan struct{}
	done   chan struct{}
}

type txRequest struct {
	ctx    context.Context
	fn     func(*sql.Tx) error
	result chan error
}

// New starts the writer of db, whose one connection it uses for every
// write until Close.
func New(db *sql.DB) *Writer {
	g := &Writer{db: db, reqs: make(chan *txRequest), paused: make(chan func()),
		stop: make(chan struct{}), done: make(chan struct{})}
	go g.loop()
	return g
}

// Do runs fn in a transaction and returns once it is committed (nil) or
// failed. It gives up waiting for its turn when ctx ends.
func (g *Writer) Do(ctx context.Context, fn func(*sql.Tx) error) error {
	r := &txRequest{ctx: ctx, fn: fn, result: make(chan error, 1)}
	select {
	case g.reqs <- r:
	case <-ctx.Done():
		return ctx.Err()
	case <-g.stop:
		return sql.ErrConnDone
	}
	return <-r.result
}

func (g *Writer) loop() {
	defer close(g.done)
	for {
		select {
		case r := <-g.reqs:
			g.group(r)
		case f := <-g.paused:
			f()
		case <-g.stop:
			return
		}
	}
}

// Pause runs fn between two groups, the writes waiting meanwhile: the
// upkeep's restart of the log, which needs the log's write lock, does not
// have to catch it free between two groups (under a steady stream of
// writes it never did). It gives up waiting for its turn when ctx ends.
func (g *Writer) Pause(ctx context.Context, fn func()) error {
	done := make(chan struct{})
	select {
	case g.paused <- func() { defer close(done); fn() }:
	case <-ctx.Done():
		return ctx.Err()
	case <-g.stop:
		return sql.ErrConnDone
	}
	<-done
	return nil
}

// group runs first and whatever else is waiting in one transaction.
func (g *Writer) group(first *txRequest) {
	if first.ctx.Err() != nil {
		first.result <- first.ctx.Err()
		return
	}
	tx, err := g.db.BeginTx(context.Background(), nil)
	if err != nil {
		first.result <- err
		return
	}
	var ok []*txRequest
	deadline := time.Now().Add(groupBudget)
	for r := first; r != nil; r = g.next(len(ok), deadline) {
		if err := runInSavepoint(tx, r); err != nil {
			r.result <- err
			if fatal := isTxGone(tx); fatal != nil {
				// The transaction is gone (an interrupt, an I/O error):
				// the writes already in it go with it.
				for _, done := range ok {
					done.result <- fatal
				}
				tx.Rollback()
				return
			}
			continue
		}
		ok = append(ok, r)
	}
	err = tx.Commit()
	if err != nil {
		err = fmt.Errorf("commit: %w", err)
	}
	for _, r := range ok {
		r.result <- err
	}
}

// next returns a request already waiting when the group has room and
// time left, else nil.
func (g *Writer) next(n int, deadline time.Time) *txRequest {
	if n+1 >= groupMax || time.Now().After(deadline) {
		return nil
	}
	select {
	case r := <-g.reqs:
		return r
	default:
		return nil
	}
}

// runInSavepoint runs r's function inside a savepoint of tx, rolled back
// to when it fails.
func runInSavepoint(tx *sql.Tx, r *txRequest) error {
	if err := r.ctx.Err(); err != nil {
		return err
	}
	if _, err := tx.ExecContext(r.ctx, `SAVEPOINT write`); err != nil {
		return err
	}
	if err := r.fn(tx); err != nil {
		tx.Exec(`ROLLBACK TO write`)
		tx.Exec(`RELEASE write`)
		return err
	}
	_, err := tx.Exec(`RELEASE write`)
	return err
}

// isTxGone reports an error when tx can no longer be used.
func isTxGone(tx *sql.Tx) error {
	var one int
	if err := tx.QueryRow(`SELECT 1`).Scan(&one); err != nil {
		return fmt.Errorf("transaction lost: %w", err)
	}
	return nil
}

// Close stops the loop once the group running is done.
func (g *Writer) Close() {
	close(g.stop)
	<-g.done
}
