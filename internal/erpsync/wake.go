package erpsync

import (
	"context"
	"encoding/json"
	"time"

	"github.com/portico/portico/internal/records"
)

// Signals carries small messages between the instances sharing the
// store's database: *signals.Signals (PostgreSQL LISTEN/NOTIFY, in the
// process on SQLite). A subscriber gets what is published from then on,
// at most once; the empty message says messages may have been missed.
type Signals interface {
	Publish(ctx context.Context, channel, payload string) error
	Subscribe(ctx context.Context, channel string) (<-chan string, error)
}

// wakeMessage is what an engine tells the tenant's other engines: a write
// was queued (push), or an administrator asked for a pull.
type wakeMessage struct {
	From  string   `json:"from"` // the sender's Owner: it acted on its own message already
	Op    string   `json:"op"`   // "push" or "pull"
	Kinds []string `json:"kinds,omitempty"`
	Full  bool     `json:"full,omitempty"`
}

// publishTimeout bounds a wake-up's publication, made in the background.
const publishTimeout = 5 * time.Second

// channel is the tenant's wake-up channel.
func (e *Engine) channel() string { return "erpsync:" + string(e.store.ID()) }

// Notify tells the engine that a write was queued, so that whichever
// instance holds the lease pushes now instead of at its next tick: this
// one at once, another through Signals. It never blocks; the wake-ups of
// a burst of writes are coalesced.
func (e *Engine) Notify() {
	e.wakePush()
	if e.opt.Signals == nil || !e.announcing.CompareAndSwap(false, true) {
		return // one is on its way, and will be sent after this write
	}
	go func() {
		e.announcing.Store(false)
		e.announce(wakeMessage{Op: "push"})
	}()
}

// Trigger asks for a pull of kinds (every kind when empty) soon, from
// whichever instance holds the lease: this one (a request made while one
// is waiting replaces it) or another, told through Signals. It never
// blocks.
func (e *Engine) Trigger(kinds []*records.Kind, full bool) {
	e.requestPull(pullRequest{kinds, full})
	if e.opt.Signals == nil {
		return
	}
	m := wakeMessage{Op: "pull", Full: full}
	for _, k := range kinds {
		m.Kinds = append(m.Kinds, k.Name)
	}
	go e.announce(m)
}

// announce publishes m to the tenant's other engines.
func (e *Engine) announce(m wakeMessage) {
	m.From = e.opt.Owner
	b, _ := json.Marshal(m)
	ctx, cancel := context.WithTimeout(context.Background(), publishTimeout)
	defer cancel()
	if err := e.opt.Signals.Publish(ctx, e.channel(), string(b)); err != nil {
		e.log.Warn("tell the other instances", "op", m.Op, "err", err)
	}
}

// wakePush makes the push loop look for due entries now.
func (e *Engine) wakePush() {
	select {
	case e.wake <- struct{}{}:
	default:
	}
}

// requestPull asks the pull loop for req, replacing a request waiting.
func (e *Engine) requestPull(req pullRequest) {
	for {
		select {
		case e.trigger <- req:
			return
		default:
		}
		select {
		case <-e.trigger:
		default:
		}
	}
}

// offerPull asks the pull loop for req unless a request is waiting.
func (e *Engine) offerPull(req pullRequest) {
	select {
	case e.trigger <- req:
	default:
	}
}

// listen acts on the other engines' messages until msgs closes: a
// queued write wakes the push loop, a pull request goes to the pull loop,
// and a gap (the empty message) wakes the push loop, since the outbox in
// the database says what is due. Only the lease holder's loops get work
// done; the others find the lease busy.
func (e *Engine) listen(msgs <-chan string) {
	for payload := range msgs {
		if payload == "" {
			e.wakePush()
			continue
		}
		var m wakeMessage
		if err := json.Unmarshal([]byte(payload), &m); err != nil {
			e.log.Warn("unreadable wake-up", "payload", payload, "err", err)
			continue
		}
		if m.From == e.opt.Owner {
			continue
		}
		switch m.Op {
		case "push":
			e.wakePush()
		case "pull":
			req := pullRequest{full: m.Full}
			for _, name := range m.Kinds {
				if k, ok := e.store.Kinds().Lookup(name); ok {
					req.kinds = append(req.kinds, k)
				}
			}
			e.requestPull(req)
		}
	}
}
