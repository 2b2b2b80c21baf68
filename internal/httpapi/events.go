package httpapi

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/portico/portico/internal/access"
	"github.com/portico/portico/internal/events"
	"github.com/portico/portico/internal/portal"
	"github.com/portico/portico/internal/records"
)

var ping = []byte(": ping\n\n")

// editingFor is how long a presence announcement lasts unless renewed
// (the app renews it every 10 s while an edit form is open).
const editingFor = 30 * time.Second

// eventStream is GET /api/v1/events: a server-sent event stream of the
// tenant's changes the caller's role may see (package events). It opens
// with "retry: 3000"; resumes after Last-Event-ID (or ?lastEventId=), or
// sends "event: reset" first when that id is no longer kept; pings
// (": ping") every heartbeat, when it also checks the session again, and
// ends with "event: end" (data {"status":511}, or 403 when the user lost
// the role) once the session has. A sign-out, a revoked session or an
// access import on any instance logs a session event (events.TypeSession):
// the streams it concerns check their session again at once, afresh,
// before any event logged after it is sent, and end.
func (s *Server) eventStream(w http.ResponseWriter, r *http.Request) {
	if s.events == nil {
		s.writeError(w, r, portal.Errorf(portal.CodeNotFound, "Live updates are off on this server."))
		return
	}
	ctx := r.Context()
	p := caller(r)
	// The stream's guard, renewed every heartbeat and whenever the
	// session may have changed (a session event: an access import among
	// them), from the role as it is then: a rule's followed records (the
	// user's projects) are resolved at most a heartbeat ago, and a change
	// of the role's permissions or rules holds from the event on. The hub
	// reads it too, to pick the kinds the stream is told of.
	var guard atomic.Pointer[records.Guard]
	guard.Store(p.Guard)
	conn, err := s.events.Connect(ctx, p.Tenant, events.Viewer{UserID: p.User.ID, RoleID: p.Role.ID, May: func(kind string) bool {
		g := guard.Load()
		k, ok := g.Registry().Lookup(kind)
		return ok && g.May(k, records.ActView)
	}})
	if err != nil {
		s.writeError(w, r, portal.Wrap(portal.CodeUnavailable, err, "Live updates are not available right now."))
		return
	}
	defer conn.Close()
	last := r.Header.Get("Last-Event-ID")
	if last == "" {
		last = q(r, "lastEventId")
	}
	// Where the stream starts is fixed before it answers: from its first
	// byte on, no change is missed.
	reset, err := conn.Begin(ctx, last)
	if err != nil {
		s.writeError(w, r, portal.Wrap(portal.CodeUnavailable, err, "Live updates are not available right now."))
		return
	}

	rc := http.NewResponseController(w)
	// The server's read and write timeouts are for answers, not streams
	// (an expired read deadline would cancel the request's context).
	rc.SetReadDeadline(time.Time{})
	rc.SetWriteDeadline(time.Time{})
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	write := func(b []byte) error {
		if _, err := w.Write(b); err != nil {
			return err
		}
		return rc.Flush()
	}
	send := func(e *events.Event) error {
		b := make([]byte, 0, 32+len(e.Type)+len(e.Data))
		if e.ID != 0 {
			b = append(b, "id: "...)
			b = strconv.AppendInt(b, e.ID, 10)
			b = append(b, '\n')
		}
		b = append(b, "event: "...)
		b = append(b, e.Type...)
		b = append(b, "\ndata: "...)
		b = append(b, e.Data...)
		return write(append(b, "\n\n"...))
	}
	end := func(status int) error {
		send(&events.Event{Type: "end", Data: []byte(`{"status":` + strconv.Itoa(status) + `}`)})
		return errStreamEnded
	}
	renew := func(fresh bool) int {
		role, status := s.streamRole(ctx, p, fresh)
		if role != nil {
			guard.Store(s.guardOf(p.Tenant, *role, p.User.Email))
		}
		return status
	}
	deliver := func(e *events.Event) error {
		if e.Type == events.TypeSession {
			if status := renew(true); status != 0 {
				return end(status)
			}
			return nil
		}
		e, err := e.SeenBy(ctx, guard.Load())
		if err != nil || e == nil {
			return err
		}
		return send(e)
	}
	if err := write([]byte("retry: 3000\n\n")); err != nil {
		return
	}
	if reset {
		if err := send(&events.Event{Type: events.TypeReset, Data: []byte("{}")}); err != nil {
			return
		}
	}
	if err := conn.Backlog(ctx, deliver); err != nil {
		if err == errStreamEnded {
			return
		}
		s.log.Info("events: backlog failed", "request_id", requestID(ctx), "err", err)
		return
	}
	tick := time.NewTicker(s.heartbeat)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-s.draining:
			return
		case e := <-conn.C:
			if err := conn.Take(ctx, e, deliver); err != nil {
				return
			}
		case <-tick.C:
			if status := renew(false); status != 0 {
				end(status)
				return
			}
			if err := write(ping); err != nil {
				return
			}
		}
	}
}

// errStreamEnded is how deliver ends a stream whose session has ended.
var errStreamEnded = errors.New("httpapi: the stream's session ended")

// streamRole checks the session of a stream again, as withAuth would, and
// returns the stream's role as it is now, with status 0; else the status
// the stream ends with: 511 when the session (or the user) has ended, 403
// when the user no longer holds the role. A database that does not answer
// ends nothing and tells nothing (nil, 0: the next heartbeat checks
// again). fresh reads the session from the store, not from the instance's
// session cache: a session event says it changed, perhaps on another
// instance.
func (s *Server) streamRole(ctx context.Context, p principal, fresh bool) (*access.Role, int) {
	now := time.Now()
	sess, user, cached := s.sessionCache.get(p.Tenant, p.Session.SessionID, now)
	if fresh || !cached {
		var err error
		sess, user, err = s.tenants(p.Tenant).SessionUser(ctx, p.Session.SessionID)
		if portal.IsNotFound(err) {
			return nil, http.StatusNetworkAuthenticationRequired
		}
		if err != nil {
			return nil, 0
		}
		s.sessionCache.put(p.Tenant, sess, user, now)
	}
	if s.sessions.Check(p.Session, sess) != nil || user.Disabled {
		return nil, http.StatusNetworkAuthenticationRequired
	}
	role, err := user.Role(p.Role.ID)
	if err != nil {
		return nil, http.StatusForbidden
	}
	return &role, 0
}

// editing is POST (an edit form is open: for editingFor) and DELETE (it
// closed) /api/v1/events/editing?type=&id=: the tenant's other streams
// whose role may see the kind get "event: editing". The record must be one
// the caller may edit (else not found, or forbidden for a role that may
// not edit the kind). 204.
func (s *Server) editing(w http.ResponseWriter, r *http.Request) {
	if s.events == nil {
		s.writeError(w, r, portal.Errorf(portal.CodeNotFound, "Live updates are off on this server."))
		return
	}
	k, err := s.kind(r, q(r, "type"))
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	p := caller(r)
	id, ok := records.ParseID(q(r, "id"))
	if !ok {
		s.writeError(w, r, portal.Invalid("A record id is required.", portal.FieldError{Field: "id", Message: "A positive number."}))
		return
	}
	if err := p.Guard.CheckAction(r.Context(), k.Name, id, records.ActEdit); err != nil {
		s.writeError(w, r, err)
		return
	}
	until := time.Now().UTC().Truncate(time.Second)
	if r.Method == http.MethodPost {
		until = until.Add(editingFor)
	}
	if err := s.events.Editing(r.Context(), p.Tenant, events.EditingData{Kind: k.Name, ID: id, UserID: p.User.ID,
		User: p.User.FullName, Until: until}); err != nil {
		s.writeError(w, r, portal.Wrap(portal.CodeUnavailable, err, "Live updates are not available right now."))
		return
	}
	w.WriteHeader(http.StatusNoContent)
}
