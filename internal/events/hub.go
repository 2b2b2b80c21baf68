package events

import (
	"context"
	"encoding/json"
	"log/slog"
	"strconv"
	"sync"
	"time"

	"github.com/portico/portico/internal/portal"
)

// Tuning of the hub.
const (
	// connBuffer is how many events wait for one stream; a stream that
	// lets more pile up catches up from the log (see Conn.Take).
	connBuffer = 16
	// pageSize bounds one read of the log.
	pageSize = 500
	// pollEvery re-reads the log without a signal: a safety net for a
	// publish that failed after its commit.
	pollEvery = 5 * time.Second
	// readTimeout bounds one read of the log by the hub.
	readTimeout = 10 * time.Second
)

// Hub fans a tenant's events out to this instance's streams. Make one per
// instance, and share it.
type Hub struct {
	logs func(portal.TenantID) Log
	sig  Signals
	log  *slog.Logger

	mu      sync.Mutex
	tenants map[portal.TenantID]*tenantHub
}

// NewHub returns a hub reading each tenant's log from logs and woken
// through sig.
func NewHub(logs func(portal.TenantID) Log, sig Signals, log *slog.Logger) *Hub {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Hub{logs: logs, sig: sig, log: log, tenants: map[portal.TenantID]*tenantHub{}}
}

// tenantHub is one tenant's subscription and streams on this instance.
type tenantHub struct {
	id     portal.TenantID
	ready  chan struct{} // closed when subscribed (or failed: err)
	err    error
	cancel context.CancelFunc
	refs   int // streams, under Hub.mu

	mu    sync.Mutex
	conns map[*Conn]struct{}
	last  int64 // the last event id fanned out
}

// Viewer is who a stream is for.
type Viewer struct {
	UserID int64
	RoleID int64
	// May reports whether the viewer's role may see a record kind.
	May func(kind string) bool
}

func (v Viewer) sees(e *Event) bool {
	if e.Type == TypeSession {
		return e.UserID == 0 || e.UserID == v.UserID
	}
	if e.RoleID != 0 && e.RoleID != v.RoleID {
		return false
	}
	if e.Type == TypeEditing && e.UserID == v.UserID {
		return false
	}
	return v.May(e.Kind)
}

// Conn is one open stream: Begin, Backlog, then pass each event arriving
// on C to Take.
type Conn struct {
	// C carries the stream's live events, closed never; nil events are
	// wake-ups (catch up from the log).
	C <-chan *Event

	c      chan *Event
	hub    *Hub
	th     *tenantHub
	viewer Viewer
	last   int64 // the last event id sent (the stream's goroutine only)
	lost   bool  // under th.mu: an event did not fit C; catch up first
}

// Connect opens a stream of tenant's events for v. The stream has sent
// nothing yet: call Begin and Backlog before reading C. Close it when done.
func (h *Hub) Connect(ctx context.Context, tenant portal.TenantID, v Viewer) (*Conn, error) {
	h.mu.Lock()
	th := h.tenants[tenant]
	if th == nil {
		sctx, cancel := context.WithCancel(context.Background())
		th = &tenantHub{id: tenant, ready: make(chan struct{}), cancel: cancel, conns: map[*Conn]struct{}{}}
		h.tenants[tenant] = th
		go h.run(sctx, th)
	}
	th.refs++
	h.mu.Unlock()
	c := &Conn{c: make(chan *Event, connBuffer), hub: h, th: th, viewer: v}
	c.C = c.c
	select {
	case <-th.ready:
	case <-ctx.Done():
		h.release(th)
		return nil, ctx.Err()
	}
	if th.err != nil {
		h.release(th)
		return nil, th.err
	}
	th.mu.Lock()
	th.conns[c] = struct{}{}
	th.mu.Unlock()
	return c, nil
}

// Close ends the stream; the tenant's subscription ends with its last.
func (c *Conn) Close() {
	c.th.mu.Lock()
	delete(c.th.conns, c)
	c.th.mu.Unlock()
	c.hub.release(c.th)
}

func (h *Hub) release(th *tenantHub) {
	h.mu.Lock()
	defer h.mu.Unlock()
	th.refs--
	if th.refs == 0 {
		if h.tenants[th.id] == th {
			delete(h.tenants, th.id)
		}
		th.cancel()
	}
}

// run is a tenant's subscription: one per instance while it has streams.
func (h *Hub) run(ctx context.Context, th *tenantHub) {
	msgs, err := h.sig.Subscribe(ctx, Channel(th.id))
	if err == nil {
		rctx, cancel := context.WithTimeout(ctx, readTimeout)
		_, th.last, err = h.logs(th.id).EventBounds(rctx)
		cancel()
	}
	if err != nil {
		th.err = err
		h.mu.Lock()
		if h.tenants[th.id] == th {
			delete(h.tenants, th.id) // the next stream tries again
		}
		h.mu.Unlock()
		close(th.ready)
		return
	}
	close(th.ready)
	tick := time.NewTicker(pollEvery)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
			h.pull(ctx, th)
		case m, ok := <-msgs:
			if !ok {
				if ctx.Err() != nil {
					return
				}
				msgs = nil // signals closed: the poll goes on
				continue
			}
			wake := h.handle(th, m)
			// Take what else is waiting: one read serves them all.
			for more := true; more; {
				select {
				case m, ok := <-msgs:
					if !ok {
						more, msgs = false, nil
						break
					}
					wake = h.handle(th, m) || wake
				default:
					more = false
				}
			}
			if wake {
				h.pull(ctx, th)
			}
		}
	}
}

// handle fans a presence message out, and reports whether m asks for a
// read of the log (Wake, Resync, anything else).
func (h *Hub) handle(th *tenantHub, m string) bool {
	if len(m) == 0 || m[0] != '{' {
		return true
	}
	var d EditingData
	if err := json.Unmarshal([]byte(m), &d); err != nil {
		h.log.Warn("events: a malformed presence message", "tenant", th.id, "err", err)
		return false
	}
	e := &Event{Type: TypeEditing, Kind: d.Kind, UserID: d.UserID, Data: []byte(m)}
	th.mu.Lock()
	for c := range th.conns {
		if c.viewer.sees(e) {
			select {
			case c.c <- e:
			default: // ephemeral: a full stream misses it
			}
		}
	}
	th.mu.Unlock()
	return false
}

// pull reads the log after the last event fanned out and fans the new
// ones out.
func (h *Hub) pull(ctx context.Context, th *tenantHub) {
	lg := h.logs(th.id)
	for {
		rctx, cancel := context.WithTimeout(ctx, readTimeout)
		evs, err := lg.EventsAfter(rctx, th.last, pageSize)
		cancel()
		if err != nil {
			if ctx.Err() == nil {
				h.log.Warn("events: reading the log", "tenant", th.id, "err", err)
			}
			return
		}
		th.mu.Lock()
		for _, e := range evs {
			for c := range th.conns {
				if c.lost || !c.viewer.sees(e) {
					continue
				}
				select {
				case c.c <- e:
				default:
					c.lost = true
				}
			}
			th.last = e.ID
		}
		th.mu.Unlock()
		if len(evs) < pageSize {
			return
		}
	}
}

// Editing publishes presence to the tenant's streams on every instance.
func (h *Hub) Editing(ctx context.Context, tenant portal.TenantID, d EditingData) error {
	b, err := json.Marshal(d)
	if err != nil {
		return err
	}
	return h.sig.Publish(ctx, Channel(tenant), string(b))
}

// Send writes one event to the stream's client. A session event
// (TypeSession) is not written: Send checks the stream's session again
// and returns an error to end the stream when it has ended.
type Send func(*Event) error

// Begin fixes where the stream starts, before it sends anything: when
// lastID (the client's Last-Event-ID, "" for a new stream) is an id the
// log still has the events after, after it; else (too old, unknown, not a
// number) at the log's end, and reset is true: the client must be told
// (event "reset") and refetch everything. Then call Backlog.
func (c *Conn) Begin(ctx context.Context, lastID string) (reset bool, err error) {
	oldest, last, err := c.hub.logs(c.th.id).EventBounds(ctx)
	if err != nil {
		return false, err
	}
	c.last = last
	if lastID == "" {
		return false, nil
	}
	after, err := strconv.ParseInt(lastID, 10, 64)
	// Kept: every event after it is still in the log (ids have no gaps).
	kept := err == nil && after >= 0 && after <= last && (after == last || (oldest != 0 && after >= oldest-1))
	if !kept {
		return true, nil
	}
	c.last = after
	return false, nil
}

// Backlog sends the events the viewer may see after where Begin started.
func (c *Conn) Backlog(ctx context.Context, send Send) error { return c.catchUp(ctx, send) }

// catchUp sends the events after the last sent, from the log.
func (c *Conn) catchUp(ctx context.Context, send Send) error {
	lg := c.hub.logs(c.th.id)
	for {
		evs, err := lg.EventsAfter(ctx, c.last, pageSize)
		if err != nil {
			return err
		}
		for _, e := range evs {
			if c.viewer.sees(e) {
				if err := send(e); err != nil {
					return err
				}
			}
			c.last = e.ID
		}
		if len(evs) < pageSize {
			return nil
		}
	}
}

// Take sends e, an event from C, unless the stream had it already; then,
// when the stream fell behind and C is drained, catches up from the log.
func (c *Conn) Take(ctx context.Context, e *Event, send Send) error {
	if e != nil && (e.ID == 0 || e.ID > c.last) {
		if err := send(e); err != nil {
			return err
		}
		if e.ID != 0 {
			c.last = e.ID
		}
	}
	if len(c.c) > 0 {
		return nil
	}
	c.th.mu.Lock()
	lost := c.lost
	c.lost = false
	c.th.mu.Unlock()
	if !lost {
		return nil
	}
	return c.catchUp(ctx, send)
}
