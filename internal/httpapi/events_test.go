package httpapi

import (
	"bufio"
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/portico/portico/internal/access"
	"github.com/portico/portico/internal/events"
	"github.com/portico/portico/internal/identity"
	"github.com/portico/portico/internal/portal"
	"github.com/portico/portico/internal/records"
	"github.com/portico/portico/internal/session"
	"github.com/portico/portico/internal/sqlstore"
)

// eventsInstance is one instance of the server over a store: its own
// signals and hub, served over a real listener.
type eventsInstance struct {
	*authEnv
	url    string
	server *httptest.Server
}

// seedEventsStore makes acme (acmeAccess) and globex (Gus) in store.
func seedEventsStore(t *testing.T, store *sqlstore.Store) {
	t.Helper()
	ctx := context.Background()
	for _, tenant := range []portal.TenantID{"acme", "globex"} {
		store.EnsureTenant(ctx, tenant, string(tenant))
	}
	if err := store.Tenant("acme").ImportAccess(ctx, acmeAccess); err != nil {
		t.Fatal(err)
	}
	globex := access.File{Roles: []access.Role{{Key: "g", ID: 10, Name: "Globex PM", Type: "staff", Permissions: allPermissions()}},
		Users: []access.FileUser{{ID: 1, Email: "gus@globex.test", FullName: "Gus", Roles: []int64{10}}}}
	if err := store.Tenant("globex").ImportAccess(ctx, globex); err != nil {
		t.Fatal(err)
	}
}

// newEventsInstance serves store with live updates; instances made over
// stores of one database share sessions (one signing key).
func newEventsInstance(t *testing.T, store *sqlstore.Store) *eventsInstance {
	t.Helper()
	return newEventsInstanceBeat(t, store, 200*time.Millisecond)
}

// newEventsInstanceBeat is newEventsInstance with streams that check
// their session every heartbeat.
func newEventsInstanceBeat(t *testing.T, store *sqlstore.Store, heartbeat time.Duration) *eventsInstance {
	t.Helper()
	var logs strings.Builder
	log := slog.New(slog.NewTextHandler(&logs, nil))
	verifier, err := identity.NewVerifier(context.Background(), identity.Config{ProjectID: "demo-test", EmulatorHost: "127.0.0.1:1"}, log)
	if err != nil {
		t.Fatal(err)
	}
	sig := sqlstore.NewSignals(store, log)
	t.Cleanup(func() { sig.Close() })
	store.AnnounceEvents(sig)
	hub := events.NewHub(func(t portal.TenantID) events.Log { return store.Tenant(t) }, sig, log)
	sessions := session.NewManager(func(t portal.TenantID) session.Store { return store.Tenant(t) }, session.Options{
		Key: []byte(strings.Repeat("k", 32)), AccessTTL: 15 * time.Minute, RefreshTTL: time.Hour, MaxAge: 24 * time.Hour,
	})
	srv, err := NewServer(Options{
		Logger: log, Store: store, Identity: verifier, Sessions: sessions,
		Tenants:          func(t portal.TenantID) TenantStore { return store.Tenant(t) },
		LoginPerMinuteIP: 1000, LoginPerMinuteAccount: 1000, ERP: "netsuite", Product: "portal",
		Events: hub, EventsHeartbeat: heartbeat,
	})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewUnstartedServer(srv)
	// Short server timeouts: a stream must outlive them.
	ts.Config.ReadTimeout, ts.Config.WriteTimeout = 500*time.Millisecond, 500*time.Millisecond
	ts.Start()
	t.Cleanup(ts.Close)
	return &eventsInstance{authEnv: &authEnv{srv: srv, store: store, logs: &logs}, url: ts.URL, server: ts}
}

func (in *eventsInstance) token(t *testing.T, tenant, uid, email string) string {
	t.Helper()
	a, w := in.login(t, tenant, uid, email)
	if w.Code != 200 {
		t.Fatalf("login %s: %d %s", email, w.Code, w.Body)
	}
	return a.Data.Token
}

// sse is one event read from a stream; a comment is Event "comment".
type sse struct {
	ID, Event, Data string
	Retry           int
}

type stream struct {
	resp   *http.Response
	events chan sse
	cancel context.CancelFunc
}

// openStream connects to GET /api/v1/events; header adds request headers.
func (in *eventsInstance) openStream(t *testing.T, token string, role int64, query string, header map[string]string) (*stream, *http.Response) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, "GET", in.url+"/api/v1/events"+query, nil)
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("X-Role-Id", strconv.FormatInt(role, 10))
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	if resp.StatusCode != 200 {
		cancel()
		return nil, resp
	}
	s := &stream{resp: resp, events: make(chan sse, 100), cancel: cancel}
	t.Cleanup(func() { cancel(); resp.Body.Close() })
	go func() {
		defer close(s.events)
		sc := bufio.NewScanner(resp.Body)
		var e sse
		for sc.Scan() {
			line := sc.Text()
			switch {
			case line == "":
				if e != (sse{}) {
					s.events <- e
				}
				e = sse{}
			case strings.HasPrefix(line, ":"):
				s.events <- sse{Event: "comment", Data: strings.TrimSpace(line[1:])}
			default:
				k, v, _ := strings.Cut(line, ": ")
				switch k {
				case "id":
					e.ID = v
				case "event":
					e.Event = v
				case "data":
					e.Data = v
				case "retry":
					e.Retry, _ = strconv.Atoi(v)
				}
			}
		}
	}()
	return s, resp
}

// next returns the stream's next event that is not a comment, or fails.
func (s *stream) next(t *testing.T, within time.Duration) sse {
	t.Helper()
	deadline := time.After(within)
	for {
		select {
		case e, ok := <-s.events:
			if !ok {
				t.Fatal("the stream ended")
			}
			if e.Event != "comment" {
				return e
			}
		case <-deadline:
			t.Fatalf("no event within %s", within)
		}
	}
}

// quiet checks the stream sends nothing but comments for d.
func (s *stream) quiet(t *testing.T, d time.Duration) {
	t.Helper()
	deadline := time.After(d)
	for {
		select {
		case e, ok := <-s.events:
			if !ok {
				return
			}
			if e.Event != "comment" {
				t.Fatalf("unexpected event %+v", e)
			}
		case <-deadline:
			return
		}
	}
}

// started reads the stream's opening (retry) and, when wanted, a reset.
func (s *stream) started(t *testing.T) {
	t.Helper()
	if e := s.next(t, 5*time.Second); e.Retry != 3000 {
		t.Fatalf("the stream opens with %+v", e)
	}
}

func recordEvent(t *testing.T, e sse) events.RecordData {
	t.Helper()
	if e.Event != "record" || e.ID == "" {
		t.Fatalf("not a record event: %+v", e)
	}
	var d events.RecordData
	if err := json.Unmarshal([]byte(e.Data), &d); err != nil {
		t.Fatalf("%v: %s", err, e.Data)
	}
	return d
}

func (in *eventsInstance) createCustomer(t *testing.T, token, title string) int64 {
	t.Helper()
	k, _ := records.Lookup("customer")
	code, v, p := in.save(t, token, 10, "POST", "/api/v1/netsuite/portal-crud?type=customer", map[string]any{"fields": validFields(k, title)})
	if code != 201 {
		t.Fatalf("create: %d %+v", code, p)
	}
	return v.Data.ID
}

func sqliteStore(t *testing.T) *sqlstore.Store {
	t.Helper()
	store, err := sqlstore.Open(context.Background(), "sqlite:"+filepath.Join(t.TempDir(), "portico.db"), "")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	return store
}

func TestEventStreamScopingAndResume(t *testing.T) {
	store := sqliteStore(t)
	seedEventsStore(t, store)
	in := newEventsInstance(t, store)
	ada := in.token(t, "acme", "uid-ada", "ada@acme.test")
	vic := in.token(t, "acme", "uid-vic", "vic@acme.test")
	gus := in.token(t, "globex", "uid-gus", "gus@globex.test")

	pm, resp := in.openStream(t, ada, 10, "", nil)
	if pm == nil {
		t.Fatalf("connect: %d", resp.StatusCode)
	}
	if h := resp.Header; h.Get("Content-Type") != "text/event-stream" || h.Get("Cache-Control") != "no-store" || h.Get("X-Accel-Buffering") != "no" {
		t.Errorf("headers: %v", h)
	}
	acc, _ := in.openStream(t, ada, 11, "", nil) // invoices only
	viewer, _ := in.openStream(t, vic, 14, "", nil)
	globex, _ := in.openStream(t, gus, 10, "", nil)
	for _, s := range []*stream{pm, acc, viewer, globex} {
		s.started(t)
	}

	id := in.createCustomer(t, ada, "Live Co")
	for _, s := range []*stream{pm, viewer} {
		e := s.next(t, 5*time.Second)
		d := recordEvent(t, e)
		if e.ID != "1" || d.Kind != "customer" || d.Action != "create" || len(d.IDs) != 1 || d.IDs[0] != id ||
			d.ByUserID != 1 || d.By != "Ada Admin" || d.At.IsZero() || d.WriteState != "" {
			t.Errorf("create event: %+v", e)
		}
	}
	// A role that may not see customers, another tenant: nothing.
	acc.quiet(t, 500*time.Millisecond)
	globex.quiet(t, 10*time.Millisecond)
	// Heartbeats.
	select {
	case e := <-pm.events:
		if e.Event != "comment" || e.Data != "ping" {
			t.Errorf("heartbeat: %+v", e)
		}
	case <-time.After(2 * time.Second):
		t.Error("no heartbeat")
	}

	// Resume after 0: the kept event first; after 1 (as a query
	// parameter): nothing but what comes next.
	resumed, _ := in.openStream(t, ada, 10, "", map[string]string{"Last-Event-ID": "0"})
	resumed.started(t)
	if e := resumed.next(t, 5*time.Second); e.ID != "1" || e.Event != "record" {
		t.Errorf("resumed after 0: %+v", e)
	}
	byQuery, _ := in.openStream(t, ada, 10, "?lastEventId=1", nil)
	byQuery.started(t)
	byQuery.quiet(t, 300*time.Millisecond)
	// The role that may not see customers resumes without them.
	accResumed, _ := in.openStream(t, ada, 11, "", map[string]string{"Last-Event-ID": "0"})
	accResumed.started(t)
	accResumed.quiet(t, 300*time.Millisecond)
	// An id the log never gave, or no number: reset first.
	for _, bad := range []string{"99", "garbage", "-5"} {
		s, _ := in.openStream(t, ada, 10, "", map[string]string{"Last-Event-ID": bad})
		s.started(t)
		if e := s.next(t, 5*time.Second); e.Event != "reset" || e.Data != "{}" || e.ID != "" {
			t.Errorf("Last-Event-ID %s: %+v", bad, e)
		}
		s.quiet(t, 100*time.Millisecond)
	}

	// The next write reaches the resumed streams, once.
	in.createCustomer(t, ada, "Second Co")
	for _, s := range []*stream{pm, resumed, byQuery, viewer} {
		if e := s.next(t, 5*time.Second); e.ID != "2" {
			t.Errorf("second create: %+v", e)
		}
	}
	resumed.quiet(t, 300*time.Millisecond)

	// A list shared with the Project Manager role reaches that role only.
	code, _, p := in.save(t, ada, 10, "POST", "/api/v1/netsuite/listConfiguration?type=customer", map[string]any{
		"name": "Shared", "columns": []string{"companyname"}, "visibility": "role"})
	if code >= 300 {
		t.Fatalf("save list: %d %+v", code, p)
	}
	if e := pm.next(t, 5*time.Second); e.Event != "list" || e.ID != "3" || e.Data != `{"type":"list","kind":"customer"}` {
		t.Errorf("list event: %+v", e)
	}
	viewer.quiet(t, 300*time.Millisecond)
	acc.quiet(t, 10*time.Millisecond)
}

func TestEditingPresence(t *testing.T) {
	store := sqliteStore(t)
	seedEventsStore(t, store)
	in := newEventsInstance(t, store)
	ada := in.token(t, "acme", "uid-ada", "ada@acme.test")
	vic := in.token(t, "acme", "uid-vic", "vic@acme.test")
	mine, _ := in.openStream(t, ada, 10, "", nil)
	acc, _ := in.openStream(t, ada, 11, "", nil)
	viewer, _ := in.openStream(t, vic, 14, "", nil)
	for _, s := range []*stream{mine, acc, viewer} {
		s.started(t)
	}
	before := time.Now()
	if w := in.call("POST", "/api/v1/events/editing?type=customer&id=42", ada, 10, ""); w.Code != 204 {
		t.Fatalf("editing: %d %s", w.Code, w.Body)
	}
	e := viewer.next(t, 5*time.Second)
	var d events.EditingData
	if err := json.Unmarshal([]byte(e.Data), &d); err != nil || e.Event != "editing" || e.ID != "" ||
		d.Kind != "customer" || d.ID != 42 || d.UserID != 1 || d.User != "Ada Admin" ||
		d.Until.Before(before.Add(29*time.Second)) || d.Until.After(time.Now().Add(31*time.Second)) {
		t.Errorf("editing event: %+v %v", e, err)
	}
	if w := in.call("DELETE", "/api/v1/events/editing?type=customer&id=42", ada, 10, ""); w.Code != 204 {
		t.Fatalf("done editing: %d", w.Code)
	}
	e = viewer.next(t, 5*time.Second)
	if err := json.Unmarshal([]byte(e.Data), &d); err != nil || e.Event != "editing" || d.Until.After(time.Now().Add(time.Second)) {
		t.Errorf("editing ended: %+v", e)
	}
	// Never echoed to the editor, nor sent to a role that may not see the kind.
	mine.quiet(t, 300*time.Millisecond)
	acc.quiet(t, 10*time.Millisecond)
	// A role that may not edit customers cannot announce editing them.
	if w := in.call("POST", "/api/v1/events/editing?type=customer&id=42", vic, 14, ""); w.Code != 403 {
		t.Errorf("viewer editing: %d", w.Code)
	}
	if w := in.call("POST", "/api/v1/events/editing?type=customer", ada, 10, ""); w.Code != 400 {
		t.Errorf("no id: %d", w.Code)
	}
}

func TestEventStreamEndsWithTheSession(t *testing.T) {
	store := sqliteStore(t)
	seedEventsStore(t, store)
	in := newEventsInstance(t, store)
	vic := in.token(t, "acme", "uid-vic", "vic@acme.test")
	s, _ := in.openStream(t, vic, 14, "", nil)
	s.started(t)
	if w := in.call("POST", "/api/v1/auth/logout", vic, 0, ""); w.Code != 204 {
		t.Fatalf("logout: %d", w.Code)
	}
	if e := s.next(t, 5*time.Second); e.Event != "end" || e.Data != `{"status":511}` {
		t.Errorf("after logout: %+v", e)
	}
	select {
	case e, ok := <-s.events:
		if ok {
			t.Errorf("the stream goes on: %+v", e)
		}
	case <-time.After(5 * time.Second):
		t.Error("the stream was not closed")
	}
	// At connect: a problem document, 511.
	if st, resp := in.openStream(t, vic, 14, "", nil); st != nil || resp.StatusCode != 511 ||
		resp.Header.Get("Content-Type") != "application/problem+json" {
		t.Errorf("connect after logout: %d %q", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
}

// A server shutting down ends its event streams (their clients reconnect
// elsewhere) rather than waiting its whole grace for them.
func TestShutdownEndsEventStreams(t *testing.T) {
	store := sqliteStore(t)
	seedEventsStore(t, store)
	in := newEventsInstance(t, store)
	vic := in.token(t, "acme", "uid-vic", "vic@acme.test")
	s, _ := in.openStream(t, vic, 14, "", nil)
	s.started(t)
	in.server.Config.RegisterOnShutdown(in.srv.Drain)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	start := time.Now()
	if err := in.server.Config.Shutdown(ctx); err != nil {
		t.Fatalf("shutdown with a stream open: %v after %s", err, time.Since(start))
	}
	select {
	case e, ok := <-s.events:
		if ok {
			t.Errorf("the stream goes on: %+v", e)
		}
	case <-time.After(5 * time.Second):
		t.Error("the stream was not closed")
	}
}

// TestEventsAcrossInstances: two instances on one PostgreSQL schema; a
// write on one reaches a stream on the other within a second, and so does
// presence.
func TestEventsAcrossInstances(t *testing.T) {
	base := os.Getenv("PORTICO_TEST_DATABASE_URL")
	if base == "" {
		t.Skip("PORTICO_TEST_DATABASE_URL is not set")
	}
	url, drop, err := sqlstore.ScratchURL(context.Background(), base)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(drop)
	var ins []*eventsInstance
	for i := range 2 {
		store, err := sqlstore.Open(context.Background(), url, "")
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { store.Close() })
		if i == 0 {
			seedEventsStore(t, store)
		}
		ins = append(ins, newEventsInstance(t, store))
	}
	a, b := ins[0], ins[1]
	ada := a.token(t, "acme", "uid-ada", "ada@acme.test")
	vic := a.token(t, "acme", "uid-vic", "vic@acme.test")
	gus := a.token(t, "globex", "uid-gus", "gus@globex.test")
	onB, _ := b.openStream(t, vic, 14, "", nil)
	onA, _ := a.openStream(t, vic, 14, "", nil)
	globexOnB, _ := b.openStream(t, gus, 10, "", nil)
	for _, s := range []*stream{onB, onA, globexOnB} {
		s.started(t)
	}
	for i := range 3 {
		start := time.Now()
		id := a.createCustomer(t, ada, "Across "+strconv.Itoa(i))
		e := onB.next(t, 5*time.Second)
		took := time.Since(start)
		if d := recordEvent(t, e); len(d.IDs) != 1 || d.IDs[0] != id || e.ID != strconv.Itoa(i+1) {
			t.Errorf("on the other instance: %+v", e)
		}
		if took > time.Second {
			t.Errorf("write to delivery on the other instance: %s", took)
		}
		t.Logf("write to delivery on the other instance: %s", took)
		if e := onA.next(t, 5*time.Second); e.ID != strconv.Itoa(i+1) {
			t.Errorf("on the same instance: %+v", e)
		}
	}
	// Presence crosses instances too.
	if w := a.call("POST", "/api/v1/events/editing?type=customer&id=7", ada, 10, ""); w.Code != 204 {
		t.Fatalf("editing: %d", w.Code)
	}
	if e := onB.next(t, 5*time.Second); e.Event != "editing" {
		t.Errorf("presence on the other instance: %+v", e)
	}
	// Resume on the other instance after the first event.
	resumed, _ := b.openStream(t, vic, 14, "", map[string]string{"Last-Event-ID": "1"})
	resumed.started(t)
	for _, want := range []string{"2", "3"} {
		if e := resumed.next(t, 5*time.Second); e.ID != want {
			t.Errorf("resumed on the other instance: %+v, want id %s", e, want)
		}
	}
	globexOnB.quiet(t, 200*time.Millisecond)
}

// ends checks the stream's next event is "end" with status, within, and
// that the stream then closes.
func (s *stream) ends(t *testing.T, status int, within time.Duration) {
	t.Helper()
	if e := s.next(t, within); e.Event != "end" || e.Data != `{"status":`+strconv.Itoa(status)+`}` {
		t.Fatalf("want the end (%d), got %+v", status, e)
	}
	select {
	case e, ok := <-s.events:
		if ok {
			t.Errorf("the stream goes on after its end: %+v", e)
		}
	case <-time.After(5 * time.Second):
		t.Error("the stream was not closed after its end")
	}
}

// TestStreamsEndWhenSessionsDo (issue 35): a sign-out, and an access
// import that disables a user or takes a role away, end the streams they
// concern at once, not at the next heartbeat (an hour here), on every
// instance, before any event logged after them; other streams go on. On
// SQLite one instance serves the file; on PostgreSQL (when
// PORTICO_TEST_DATABASE_URL is set) the sign-out is on one instance and
// the streams on another, and the import comes from a third store without
// a hub or announcements, as `portico roles import` runs.
func TestStreamsEndWhenSessionsDo(t *testing.T) {
	ctx := context.Background()
	const beat = time.Hour
	t.Run("sqlite", func(t *testing.T) {
		store := sqliteStore(t)
		seedEventsStore(t, store)
		in := newEventsInstanceBeat(t, store, beat)
		checkStreamsEnd(t, in, in, store)
	})
	t.Run("postgres", func(t *testing.T) {
		base := os.Getenv("PORTICO_TEST_DATABASE_URL")
		if base == "" {
			t.Skip("PORTICO_TEST_DATABASE_URL is not set")
		}
		url, drop, err := sqlstore.ScratchURL(ctx, base)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(drop)
		var stores []*sqlstore.Store
		for range 3 {
			store, err := sqlstore.Open(ctx, url, "")
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { store.Close() })
			stores = append(stores, store)
		}
		seedEventsStore(t, stores[0])
		a, b := newEventsInstanceBeat(t, stores[0], beat), newEventsInstanceBeat(t, stores[1], beat)
		checkStreamsEnd(t, a, b, stores[2])
	})
}

// checkStreamsEnd signs out on a, watches streams on b, and imports access
// through admin.
func checkStreamsEnd(t *testing.T, a, b *eventsInstance, admin *sqlstore.Store) {
	ada := a.token(t, "acme", "uid-ada", "ada@acme.test")
	vic := a.token(t, "acme", "uid-vic", "vic@acme.test")
	vicOnB, _ := b.openStream(t, vic, 14, "", nil)
	vicOnA, _ := a.openStream(t, vic, 14, "", nil)
	adaPM, _ := b.openStream(t, ada, 10, "", nil)
	adaAcc, _ := b.openStream(t, ada, 11, "", nil)
	for _, s := range []*stream{vicOnB, vicOnA, adaPM, adaAcc} {
		s.started(t)
	}

	// A sign-out, then a write: the streams end before they could tell of it.
	start := time.Now()
	if w := a.call("POST", "/api/v1/auth/logout", vic, 0, ""); w.Code != 204 {
		t.Fatalf("logout: %d", w.Code)
	}
	a.createCustomer(t, ada, "After the sign-out")
	vicOnB.ends(t, 511, 2*time.Second)
	t.Logf("sign-out to the end of a stream on b: %s", time.Since(start))
	vicOnA.ends(t, 511, 2*time.Second)
	if e := adaPM.next(t, 5*time.Second); e.Event != "record" {
		t.Errorf("ada's stream after vic's sign-out: %+v", e)
	}
	adaAcc.quiet(t, 100*time.Millisecond) // an accountant does not see clients

	// An import that takes role 11 from Ada ends that stream only (403).
	f := acmeAccess
	f.Users = slices.Clone(acmeAccess.Users)
	f.Users[0].Roles = []int64{10}
	if err := admin.Tenant("acme").ImportAccess(context.Background(), f); err != nil {
		t.Fatal(err)
	}
	adaAcc.ends(t, 403, 2*time.Second)
	adaPM.quiet(t, 300*time.Millisecond)

	// One that narrows role 10's clients to her own (none) holds for its
	// open stream from then on: a client written after it is not told of.
	f.Roles = slices.Clone(acmeAccess.Roles)
	for i := range f.Roles {
		if f.Roles[i].ID == 10 {
			f.Roles[i].Rules = map[string]string{"customer.view": "salesrep eq $me"}
		}
	}
	if err := admin.Tenant("acme").ImportAccess(context.Background(), f); err != nil {
		t.Fatal(err)
	}
	adaPM.quiet(t, 300*time.Millisecond) // the import's session event, told of to none
	a.createCustomer(t, ada, "Not hers to see")
	adaPM.quiet(t, time.Second)

	// One that disables her ends the rest (511).
	f.Users[0].Disabled = true
	start = time.Now()
	if err := admin.Tenant("acme").ImportAccess(context.Background(), f); err != nil {
		t.Fatal(err)
	}
	adaPM.ends(t, 511, 2*time.Second)
	t.Logf("import to the end of a stream: %s", time.Since(start))
}
