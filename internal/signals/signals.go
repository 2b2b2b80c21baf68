// Package signals is a small publish/subscribe service between the
// instances sharing one database: wake-ups ("a write was queued", "sync
// now") and change events, never data. On PostgreSQL a message is a
// NOTIFY; on SQLite, whose file one instance serves, it is fanned out in
// the process. sqlstore.NewSignals makes the one of a store.
package signals

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"regexp"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"
)

// Signals is a small publish/subscribe service between the instances
// sharing a database: wake-ups ("a write was queued", "sync
// now") and change events, never data. The data stays in the database;
// a signal only tells a subscriber to look at it again.
//
// On PostgreSQL a message is a NOTIFY, heard by every instance (the
// publisher's own included) through one dedicated listening connection
// per Signals, outside the pool, opened at the first Subscribe.
// On SQLite, whose file one instance serves, messages are fanned out in
// the process.
//
// Delivery is at most once, and a subscriber is never waited for: each
// has a small buffer, and a message that finds it full is dropped. A
// drop is never silent, though: the subscriber then gets Resync after the
// messages it was given, and so does every subscriber after the listening
// connection was lost and made again. Resync means "messages may have been
// missed: re-read the state". A subscriber that only needs waking (any
// message means "look again") may treat every message alike.
type Signals struct {
	db  *sql.DB // the pool: NOTIFY, and the settings of the listening connection
	log *slog.Logger
	// shared: messages go through the database to every process sharing
	// it, this one's own included; otherwise they are delivered here, in
	// memory.
	shared bool

	mu     sync.Mutex
	subs   map[string]map[*subscriber]struct{} // by channel
	closed bool

	// The PostgreSQL listener: started by the first Subscribe, stopped
	// by Close.
	started bool
	stop    context.CancelFunc
	done    chan struct{}
	// phase is where the listening connection stands; waiters are
	// Subscribe calls waiting for their LISTEN; interrupt ends the
	// listener's wait so it LISTENs to a new channel.
	phase     listenPhase
	waiters   []chan struct{}
	interrupt context.CancelFunc
}

type listenPhase int

const (
	connecting listenPhase = iota // the first connection is being made
	listening                     // connected and listening to every subscribed channel
	down                          // lost; being made again (Resync follows)
)

// Resync is the message that says messages may have been missed: the
// subscriber re-reads the state it follows. Publishers may send it too.
const Resync = ""

// MaxPayload bounds a message (PostgreSQL refuses 8000 bytes and more).
const MaxPayload = 7999

// subscriberBuffer is how many messages wait for a slow subscriber, one
// more being kept for Resync.
const subscriberBuffer = 16

type subscriber struct {
	ch chan string
	// lost: a message was dropped and the Resync that tells of it has
	// not been taken from ch yet.
	lost bool
}

// New returns the signals of the processes sharing db. shared says that
// db is PostgreSQL, whose NOTIFY carries messages to every process on it;
// otherwise messages stay in this process (db is not used, and may be
// nil). Make one per database pool and share it (on PostgreSQL each holds
// a connection while anyone subscribes); Close it before the pool.
func New(db *sql.DB, shared bool, log *slog.Logger) *Signals {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Signals{db: db, log: log, shared: shared, subs: map[string]map[*subscriber]struct{}{}}
}

// channelName is what a channel may be called: the caller scopes it to a
// tenant ("erpsync:acme").
var channelName = regexp.MustCompile(`^[A-Za-z0-9_.:-]{1,200}$`)

// ErrClosed is returned by a Signals that was closed.
var ErrClosed = errors.New("signals: closed")

func checkChannel(channel string) error {
	if !channelName.MatchString(channel) {
		return fmt.Errorf("signals: channel %q: up to 200 letters, digits and _ . : -", channel)
	}
	return nil
}

// pgChannel is the PostgreSQL channel of a channel: a digest of the
// connection's schema and the channel's name, so that two deployments in two
// schemas of one database do not hear each other, and any name fits
// PostgreSQL's 63-byte identifiers. Publisher and listener compute it
// alike, in SQL.
const pgChannel = `'portico_' || md5(current_schema() || '/' || $1)`

// Notify is the PostgreSQL statement that publishes payload $2 on channel
// $1, for a publisher that must publish in its own transaction: the
// database delivers it when the transaction commits, and never if it
// rolls back. The channel is checked by the caller (a constant's name).
const Notify = `SELECT pg_notify(` + pgChannel + `, $2)`

// Publish sends payload to every subscriber of channel, in every instance.
// On PostgreSQL it is a NOTIFY sent at once (not part of any
// transaction); it returns when the database has it.
func (g *Signals) Publish(ctx context.Context, channel, payload string) error {
	if err := checkChannel(channel); err != nil {
		return err
	}
	if len(payload) > MaxPayload {
		return fmt.Errorf("signals: a payload of %d bytes (at most %d)", len(payload), MaxPayload)
	}
	g.mu.Lock()
	closed := g.closed
	if !closed && !g.shared {
		g.deliverLocked(channel, payload)
	}
	g.mu.Unlock()
	if closed {
		return ErrClosed
	}
	if g.shared {
		if _, err := g.db.ExecContext(ctx, Notify, channel, payload); err != nil {
			return fmt.Errorf("signals: publish: %w", err)
		}
	}
	return nil
}

// Subscribe returns the messages published to channel from now on, until
// ctx is done or the Signals closed, when the channel is closed. On
// PostgreSQL it returns once the listening connection listens to channel,
// or at once when that connection is down (Resync follows when it is back).
func (g *Signals) Subscribe(ctx context.Context, channel string) (<-chan string, error) {
	if err := checkChannel(channel); err != nil {
		return nil, err
	}
	sub := &subscriber{ch: make(chan string, subscriberBuffer+1)}
	g.mu.Lock()
	if g.closed {
		g.mu.Unlock()
		return nil, ErrClosed
	}
	subs := g.subs[channel]
	if subs == nil {
		subs = map[*subscriber]struct{}{}
		g.subs[channel] = subs
	}
	subs[sub] = struct{}{}
	var wait chan struct{}
	if g.shared {
		if !g.started {
			g.started = true
			lctx, stop := context.WithCancel(context.Background())
			g.stop, g.done = stop, make(chan struct{})
			go g.listen(lctx)
		}
		if len(subs) == 1 && g.phase != down {
			wait = make(chan struct{})
			g.waiters = append(g.waiters, wait)
			if g.interrupt != nil {
				g.interrupt()
			}
		}
	}
	g.mu.Unlock()
	context.AfterFunc(ctx, func() { g.unsubscribe(channel, sub) })
	if wait != nil {
		select {
		case <-wait:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	return sub.ch, nil
}

func (g *Signals) unsubscribe(channel string, sub *subscriber) {
	g.mu.Lock()
	defer g.mu.Unlock()
	subs := g.subs[channel]
	if _, ok := subs[sub]; !ok {
		return // closed by Close
	}
	delete(subs, sub)
	close(sub.ch)
	if len(subs) == 0 {
		delete(g.subs, channel)
		if g.interrupt != nil {
			g.interrupt() // to UNLISTEN
		}
	}
}

// deliverLocked hands a message to channel's subscribers without waiting
// for any: one whose buffer is full gets Resync in its last slot instead,
// once, until it has taken that Resync.
func (g *Signals) deliverLocked(channel, payload string) {
	for sub := range g.subs[channel] {
		g.offerLocked(sub, payload)
	}
}

func (g *Signals) offerLocked(sub *subscriber, payload string) {
	// Only offerLocked sends, under g.mu: len can only fall meanwhile.
	if len(sub.ch) < subscriberBuffer {
		sub.ch <- payload
		sub.lost = false
		return
	}
	if !sub.lost {
		sub.ch <- Resync
		sub.lost = true
	}
}

// Close ends every subscription and the listening connection.
func (g *Signals) Close() error {
	g.mu.Lock()
	if g.closed {
		g.mu.Unlock()
		return nil
	}
	g.closed = true
	for _, subs := range g.subs {
		for sub := range subs {
			close(sub.ch)
		}
	}
	clear(g.subs)
	stop, done := g.stop, g.done
	g.mu.Unlock()
	if stop != nil {
		stop()
		<-done
	}
	return nil
}

// Reconnection back-off of the listening connection.
const (
	listenRetryMin = 100 * time.Millisecond
	listenRetryMax = 5 * time.Second
)

// listen keeps a listening connection until ctx is done, making it again
// after a loss with back-off.
func (g *Signals) listen(ctx context.Context) {
	defer close(g.done)
	retry := listenRetryMin
	for reconnect := false; ; reconnect = true {
		connected, err := g.session(ctx, reconnect)
		g.mu.Lock()
		g.phase, g.interrupt = down, nil
		for _, w := range g.waiters {
			close(w)
		}
		g.waiters = nil
		g.mu.Unlock()
		if ctx.Err() != nil {
			return
		}
		if connected {
			retry = listenRetryMin
		}
		g.log.Warn("signals: listening connection lost; reconnecting", "err", err, "in", retry)
		select {
		case <-ctx.Done():
			return
		case <-time.After(retry):
		}
		retry = min(2*retry, listenRetryMax)
	}
}

// session connects, listens to every subscribed channel (delivering
// Resync to every subscriber when it replaces a lost connection) and
// hands notifications out until the connection fails or ctx is done. It
// reports whether it got connected.
func (g *Signals) session(ctx context.Context, resync bool) (bool, error) {
	conn, err := g.connect(ctx)
	if err != nil {
		return false, err
	}
	defer conn.Close(context.WithoutCancel(ctx))
	names := map[string]string{} // PostgreSQL channel → channel
	listened := map[string]string{}
	for {
		g.mu.Lock()
		want := make([]string, 0, len(g.subs))
		for ch := range g.subs {
			want = append(want, ch)
		}
		waiters := g.waiters
		g.waiters = nil
		g.mu.Unlock()
		if err := g.follow(ctx, conn, want, listened, names); err != nil {
			g.mu.Lock()
			g.waiters = append(g.waiters, waiters...)
			g.mu.Unlock()
			return true, err
		}
		for _, w := range waiters {
			close(w)
		}
		g.mu.Lock()
		behind := len(g.waiters) > 0 || len(g.subs) != len(listened)
		for ch := range g.subs {
			if _, ok := listened[ch]; !ok {
				behind = true
			}
		}
		var wctx context.Context
		var cancel context.CancelFunc
		if !behind {
			g.phase = listening
			wctx, cancel = context.WithCancel(ctx)
			g.interrupt = cancel
		}
		if resync {
			for _, subs := range g.subs {
				for sub := range subs {
					g.offerLocked(sub, Resync)
				}
			}
			resync = false
		}
		g.mu.Unlock()
		if behind {
			continue
		}
		n, err := conn.WaitForNotification(wctx)
		cancel()
		g.mu.Lock()
		g.interrupt = nil
		if n != nil {
			if ch, ok := names[n.Channel]; ok {
				g.deliverLocked(ch, n.Payload)
			}
		}
		g.mu.Unlock()
		if err != nil && (ctx.Err() != nil || wctx.Err() == nil || conn.IsClosed()) {
			return true, err
		}
	}
}

// follow brings the connection's LISTENs in step with want.
func (g *Signals) follow(ctx context.Context, conn *pgx.Conn, want []string, listened, names map[string]string) error {
	wanted := map[string]bool{}
	for _, ch := range want {
		wanted[ch] = true
		if _, ok := listened[ch]; ok {
			continue
		}
		var name string
		if err := conn.QueryRow(ctx, `SELECT `+pgChannel, ch).Scan(&name); err != nil {
			return err
		}
		// name is 'portico_' and hex digits: safe as an identifier.
		if _, err := conn.Exec(ctx, "LISTEN "+name); err != nil {
			return err
		}
		listened[ch], names[name] = name, ch
	}
	for ch, name := range listened {
		if wanted[ch] {
			continue
		}
		if _, err := conn.Exec(ctx, "UNLISTEN "+name); err != nil {
			return err
		}
		delete(listened, ch)
		delete(names, name)
	}
	return nil
}

// connect opens the listening connection with the settings of the
// pool's own connections (address, credentials, search_path), outside
// the pool, which it would otherwise hold one connection of for
// good.
func (g *Signals) connect(ctx context.Context) (*pgx.Conn, error) {
	c, err := g.db.Conn(ctx)
	if err != nil {
		return nil, err
	}
	var cfg *pgx.ConnConfig
	err = c.Raw(func(dc any) error {
		sc, ok := dc.(*stdlib.Conn)
		if !ok {
			return fmt.Errorf("signals: not a pgx connection: %T", dc)
		}
		cfg = sc.Conn().Config()
		// The pool connection's own notification handler: the new
		// connection buffers its notifications for WaitForNotification
		// only when it has none.
		cfg.OnNotification = nil
		return nil
	})
	c.Close()
	if err != nil {
		return nil, err
	}
	return pgx.ConnectConfig(ctx, cfg)
}
