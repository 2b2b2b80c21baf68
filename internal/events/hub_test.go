package events

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/portico/portico/internal/portal"
)

// memLog is an in-memory event log of one tenant.
type memLog struct {
	mu     sync.Mutex
	events []*Event
	pruned int64 // ids up to this are gone
}

func (l *memLog) add(kind string, role int64) int64 {
	l.mu.Lock()
	defer l.mu.Unlock()
	id := int64(len(l.events)) + 1
	l.events = append(l.events, &Event{ID: id, Type: TypeRecord, Kind: kind, RoleID: role, Data: []byte(fmt.Sprintf(`{"n":%d}`, id))})
	return id
}

func (l *memLog) EventsAfter(_ context.Context, after int64, limit int) ([]*Event, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []*Event
	for _, e := range l.events {
		if e.ID > after && e.ID > l.pruned && len(out) < limit {
			out = append(out, e)
		}
	}
	return out, nil
}

func (l *memLog) EventBounds(context.Context) (int64, int64, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	last := int64(len(l.events))
	if last <= l.pruned {
		return 0, last, nil
	}
	return l.pruned + 1, last, nil
}

// memSignals fans messages out in the process, counting subscriptions.
type memSignals struct {
	mu   sync.Mutex
	subs map[string][]chan string
	n    int // live subscriptions
}

func (g *memSignals) Publish(_ context.Context, channel, payload string) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	for _, c := range g.subs[channel] {
		select {
		case c <- payload:
		default:
		}
	}
	return nil
}

func (g *memSignals) Subscribe(ctx context.Context, channel string) (<-chan string, error) {
	c := make(chan string, 16)
	g.mu.Lock()
	if g.subs == nil {
		g.subs = map[string][]chan string{}
	}
	g.subs[channel] = append(g.subs[channel], c)
	g.n++
	g.mu.Unlock()
	context.AfterFunc(ctx, func() {
		g.mu.Lock()
		defer g.mu.Unlock()
		g.n--
		subs := g.subs[channel]
		for i, s := range subs {
			if s == c {
				g.subs[channel] = append(subs[:i], subs[i+1:]...)
			}
		}
	})
	return c, nil
}

func (g *memSignals) live() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.n
}

var everything = Viewer{UserID: 1, RoleID: 10, May: func(string) bool { return true }}

// collect sends a stream's events to a slice.
type collect struct {
	mu  sync.Mutex
	got []*Event
}

func (c *collect) send(e *Event) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.got = append(c.got, e)
	return nil
}

func (c *collect) ids() []int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []int64
	for _, e := range c.got {
		out = append(out, e.ID)
	}
	return out
}

func TestResumeResetsWhenTheIDIsNotKept(t *testing.T) {
	lg := &memLog{}
	for range 5 {
		lg.add("customer", 0)
	}
	lg.pruned = 2 // 3, 4, 5 kept
	hub := NewHub(func(portal.TenantID) Log { return lg }, &memSignals{}, nil)
	for last, want := range map[string]string{
		"": "", "1": "reset", "2": "3,4,5", "4": "5", "5": "", "6": "reset", "x": "reset", "-1": "reset",
	} {
		c, err := hub.Connect(context.Background(), "acme", everything)
		if err != nil {
			t.Fatal(err)
		}
		var got collect
		reset, err := c.Begin(context.Background(), last)
		if err != nil {
			t.Fatal(err)
		}
		if reset {
			got.send(&Event{Type: TypeReset})
		}
		if err := c.Backlog(context.Background(), got.send); err != nil {
			t.Fatal(err)
		}
		s := ""
		for _, e := range got.got {
			if e.Type == TypeReset {
				s += "reset"
			} else {
				if s != "" {
					s += ","
				}
				s += fmt.Sprint(e.ID)
			}
		}
		if s != want {
			t.Errorf("Last-Event-ID %q: %q, want %q", last, s, want)
		}
		c.Close()
	}
}

// TestSlowStreamCatchesUp: a stream whose buffer overflows gets every
// event still, in order and once, from the log.
func TestSlowStreamCatchesUp(t *testing.T) {
	lg, sig := &memLog{}, &memSignals{}
	hub := NewHub(func(portal.TenantID) Log { return lg }, sig, nil)
	ctx := context.Background()
	slow, err := hub.Connect(ctx, "acme", everything)
	if err != nil {
		t.Fatal(err)
	}
	defer slow.Close()
	mayNot, err := hub.Connect(ctx, "acme", Viewer{UserID: 2, RoleID: 11, May: func(k string) bool { return k == "invoice" }})
	if err != nil {
		t.Fatal(err)
	}
	defer mayNot.Close()
	var got, other collect
	slow.Begin(ctx, "")
	mayNot.Begin(ctx, "")
	const n = 5 * connBuffer
	for i := range n {
		kind := "customer"
		if i%10 == 0 {
			kind = "invoice"
		}
		lg.add(kind, 0)
		sig.Publish(ctx, Channel("acme"), Wake)
		time.Sleep(time.Millisecond) // more than the buffer before the stream reads
	}
	lg.add("customer", 12) // for another role
	sig.Publish(ctx, Channel("acme"), Wake)
	deadline := time.Now().Add(5 * time.Second)
	for len(got.ids()) < n && time.Now().Before(deadline) {
		select {
		case e := <-slow.C:
			slow.Take(ctx, e, got.send)
		case e := <-mayNot.C:
			mayNot.Take(ctx, e, other.send)
		case <-time.After(100 * time.Millisecond):
		}
	}
	ids := got.ids()
	if len(ids) != n {
		t.Fatalf("%d events of %d", len(ids), n)
	}
	for i, id := range ids {
		if id != int64(i+1) {
			t.Fatalf("event %d has id %d: %v", i, id, ids)
		}
	}
	for len(other.ids()) < n/10 && time.Now().Before(deadline) {
		select {
		case e := <-mayNot.C:
			mayNot.Take(ctx, e, other.send)
		case <-time.After(100 * time.Millisecond):
		}
	}
	for _, e := range other.got {
		if e.Kind != "invoice" {
			t.Fatalf("a stream got an event of a kind it may not see: %+v", e)
		}
	}
	if len(other.got) != n/10 {
		t.Errorf("invoice events: %d of %d", len(other.got), n/10)
	}
}

// TestOneSubscriptionPerTenant: streams share their tenant's
// subscription, which ends with the last of them.
func TestOneSubscriptionPerTenant(t *testing.T) {
	lg, sig := &memLog{}, &memSignals{}
	hub := NewHub(func(portal.TenantID) Log { return lg }, sig, nil)
	var conns []*Conn
	for i := range 50 {
		tenant := portal.TenantID("acme")
		if i%2 == 1 {
			tenant = "globex"
		}
		c, err := hub.Connect(context.Background(), tenant, everything)
		if err != nil {
			t.Fatal(err)
		}
		conns = append(conns, c)
	}
	if n := sig.live(); n != 2 {
		t.Errorf("%d subscriptions for 2 tenants", n)
	}
	for _, c := range conns {
		c.Close()
	}
	deadline := time.Now().Add(2 * time.Second)
	for sig.live() != 0 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if n := sig.live(); n != 0 {
		t.Errorf("%d subscriptions left without streams", n)
	}
}

// TestSessionEventsConcernTheirUser: a session event is for its user's
// streams, in every role, and for every stream when its user is 0.
func TestSessionEventsConcernTheirUser(t *testing.T) {
	never := func(string) bool { return false }
	vic := Viewer{UserID: 5, RoleID: 14, May: never}
	ada := Viewer{UserID: 1, RoleID: 10, May: never}
	mine := &Event{ID: 1, Type: TypeSession, UserID: 5}
	all := &Event{ID: 2, Type: TypeSession}
	if !vic.sees(mine) || ada.sees(mine) {
		t.Error("a user's session event reaches that user's streams only")
	}
	if !vic.sees(all) || !ada.sees(all) {
		t.Error("an access change reaches every stream")
	}
}
