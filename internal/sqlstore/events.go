package sqlstore

import (
	"context"
	"encoding/json"
	"log/slog"
	"time"

	"github.com/portico/portico/internal/events"
	"github.com/portico/portico/internal/signals"
)

// The live-update event log (migration 0019; see package events). A
// writer logs its events in its own transaction, last (the tenant's event
// counter stays locked until the commit, so ids commit in order), and
// announces them after the commit.

var (
	nextEventID = scope(`INSERT INTO tenant_sequences AS s (tenant_id, name, last) VALUES (:tenant, 'events', 1)
		ON CONFLICT (tenant_id, name) DO UPDATE SET last = s.last + 1
		RETURNING last`)
	insertEvent = scope(`INSERT INTO events (tenant_id, id, type, kind, role_id, user_id, at, data)
		VALUES (:tenant, ?, ?, ?, ?, ?, ?, ?)`)
	// pruneEvents forgets a bounded batch of events older than events.Keep.
	pruneEvents = scope(`DELETE FROM events WHERE tenant_id = :tenant AND id IN
		(SELECT id FROM events WHERE tenant_id = :tenant AND at < ? LIMIT 200)`)
	eventsAfter = scope(`SELECT e.id, e.type, e.kind, e.role_id, e.user_id, e.data, COALESCE(u.full_name, '')
		FROM events e LEFT JOIN users u ON u.tenant_id = :tenant AND u.id = e.user_id
		WHERE e.tenant_id = :tenant AND e.id > ? ORDER BY e.id LIMIT ?`)
	oldestEvent = scope(`SELECT COALESCE(MIN(id), 0) FROM events WHERE tenant_id = :tenant`)
	lastEvent   = scope(`SELECT COALESCE(MAX(last), 0) FROM tenant_sequences WHERE tenant_id = :tenant AND name = 'events'`)
)

// pruneEvery is how often (in event ids) a writer prunes the log.
const pruneEvery = 16

// NewSignals returns the signals of the processes sharing the store's
// database (NOTIFY on PostgreSQL, in-process on SQLite). Make one per Store
// and share it; Close it before the store.
func NewSignals(s *Store, log *slog.Logger) *signals.Signals {
	return signals.New(s.db, s.d.notifies, log)
}

// AnnounceEvents makes every write that logs an event publish
// events.Wake on the tenant's events.Channel through g after its commit.
func (s *Store) AnnounceEvents(g *signals.Signals) { s.events.Store(g) }

// logEvents writes changes to the log, in the caller's transaction, and
// returns whether it did any (for announce after the commit).
func (t *Tenant) logEvents(ctx context.Context, changes ...events.Change) (bool, error) {
	for _, c := range changes {
		var id int64
		if err := t.queryRow(ctx, nextEventID).Scan(&id); err != nil {
			return false, err
		}
		if _, err := t.exec(ctx, insertEvent, id, c.Type, c.Kind, c.RoleID, c.UserID, c.At.UnixMilli(), string(c.Data)); err != nil {
			return false, err
		}
		if id%pruneEvery == 0 {
			if _, err := t.exec(ctx, pruneEvents, c.At.Add(-events.Keep).UnixMilli()); err != nil {
				return false, err
			}
		}
	}
	return len(changes) > 0, nil
}

// logSessionChange logs events.SessionChange(user, at) in the caller's
// transaction, last (it takes the event counter's lock). On PostgreSQL it
// also queues events.Wake as a NOTIFY, which the database delivers to
// every instance's hub when the transaction commits, whichever process
// commits it: `portico roles import` runs without a hub or AnnounceEvents,
// and its disabling must still end streams at once. It returns whether
// the caller must announce the event after the commit: on SQLite, where
// only this process hears it (a change made by another process, such as
// the import command, is found by the hubs' poll, within seconds).
func (t *Tenant) logSessionChange(ctx context.Context, user int64, at time.Time) (announce bool, err error) {
	if _, err := t.logEvents(ctx, events.SessionChange(user, at)); err != nil {
		return false, err
	}
	if !t.d.notifies {
		return true, nil
	}
	_, err = t.q.ExecContext(ctx, signals.Notify, events.Channel(t.id), events.Wake)
	return false, err
}

// announce tells every instance's hub that the tenant has new events.
// A publish that fails is caught up by the hubs' poll.
func (t *Tenant) announce(ctx context.Context, logged bool) {
	g := t.s.events.Load()
	if !logged || g == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 2*time.Second)
	defer cancel()
	g.Publish(ctx, events.Channel(t.id), events.Wake)
}

// EventsAfter implements events.Log.
func (t *Tenant) EventsAfter(ctx context.Context, after int64, limit int) ([]*events.Event, error) {
	rows, err := t.query(ctx, eventsAfter, after, limit)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []*events.Event
	for rows.Next() {
		e := &events.Event{}
		var data, by string
		if err := rows.Scan(&e.ID, &e.Type, &e.Kind, &e.RoleID, &e.UserID, &data, &by); err != nil {
			return nil, err
		}
		e.Data = []byte(data)
		if e.Type == events.TypeRecord {
			var d events.RecordData
			if json.Unmarshal(e.Data, &d) == nil {
				d.By = by
				e.Data, _ = json.Marshal(d)
			}
		}
		out = append(out, e)
	}
	return out, rows.Err()
}

// EventBounds implements events.Log.
func (t *Tenant) EventBounds(ctx context.Context) (oldest, last int64, err error) {
	if err := t.queryRow(ctx, oldestEvent).Scan(&oldest); err != nil {
		return 0, 0, err
	}
	if err := t.queryRow(ctx, lastEvent).Scan(&last); err != nil {
		return 0, 0, err
	}
	return oldest, last, nil
}
