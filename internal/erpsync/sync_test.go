package erpsync_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"net/http/httptest"
	"os"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/portico/portico/internal/demo"
	"github.com/portico/portico/internal/erp/netsuite"
	"github.com/portico/portico/internal/erp/netsuitetest"
	"github.com/portico/portico/internal/erpsync"
	"github.com/portico/portico/internal/portal"
	"github.com/portico/portico/internal/records"
	"github.com/portico/portico/internal/sqlstore"
)

const account = "123456_SB1"

// start is the fixtures' "now": the fake's clock and the engine's start here.
var start = time.Date(2026, 11, 22, 7, 0, 0, 0, time.UTC)

// account is a fake NetSuite account behind an httptest server, and a
// connector to it signed with TBA.
type fakeAccount struct {
	fake  *netsuitetest.Server
	url   string
	clock *netsuitetest.Clock
	m     *netsuite.Mapping
}

func newAccount(t testing.TB, perKind int) *fakeAccount {
	return newAccountWith(t, perKind, nil, netsuite.DefaultMapping)
}

// newAccountWith is newAccount on an account of the given schema (nil:
// the fake's default account), read with the given mapping.
func newAccountWith(t testing.TB, perKind int, schema *netsuitetest.Schema, mapping []byte) *fakeAccount {
	t.Helper()
	return newAccountConfig(t, perKind, netsuitetest.Config{Schema: schema}, mapping)
}

// newAccountConfig is newAccount on an account configured by cfg (its
// schema, time zone, date format, currencies; the clock, credentials,
// concurrency and fault seed are the fixtures'), read with the given
// mapping.
func newAccountConfig(t testing.TB, perKind int, cfg netsuitetest.Config, mapping []byte) *fakeAccount {
	t.Helper()
	m, err := netsuite.ParseMapping(mapping)
	if err != nil {
		t.Fatal(err)
	}
	c := netsuitetest.NewClock(start)
	cfg.Now, cfg.Concurrency, cfg.Seed = c.Now, 5, 1
	cfg.TBA = &netsuitetest.TBAVerifier{Realm: netsuite.Realm(account), Lookup: func(ck, tid string) (string, string, bool) {
		return "consumer-secret", "token-secret", ck == "consumer-key" && tid == "token-id"
	}}
	fake, err := netsuitetest.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if perKind > 0 {
		if _, err := demo.Generate(context.Background(), fake, demo.Options{PerKind: perKind, Seed: 7, Now: start.Add(-time.Hour)}); err != nil {
			t.Fatal(err)
		}
	}
	return &fakeAccount{fake: fake, url: newServer(t, fake), clock: c, m: m}
}

// newServer serves the fake account over loopback HTTP and returns its URL.
func newServer(t testing.TB, fake *netsuitetest.Server) string {
	srv := httptest.NewServer(fake)
	t.Cleanup(srv.Close)
	return srv.URL
}

// now is the account's clock; the real one when it has none.
func (a *fakeAccount) now() time.Time {
	if a.clock == nil {
		return time.Now()
	}
	return a.clock.Now()
}

// connector returns a client of the account; page sizes below 1000 make
// small data sets span several pages.
func (a *fakeAccount) connector(t testing.TB, pageSize int) *netsuite.Client {
	t.Helper()
	c, err := netsuite.New(netsuite.Config{Account: account, BaseURL: a.url, Mapping: a.m, PageSize: pageSize,
		Concurrency: 4, Backoff: time.Millisecond, Attempts: 8,
		RESTletScript: netsuitetest.DefaultRESTletScript, RESTletDeploy: netsuitetest.DefaultRESTletDeploy,
		Auth: netsuite.TBA{Account: account, ConsumerKey: "consumer-key", ConsumerSecret: "consumer-secret",
			TokenID: "token-id", TokenSecret: "token-secret", Now: a.now}})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// stores runs fn on SQLite, and on PostgreSQL when PORTICO_TEST_DATABASE_URL is set,
// in parallel with the package's other such tests (their time is mostly the fake
// account's and the databases' work, and waits). A test that changes the package's
// state (the kind registry) runs alone, by storesAlone.
func stores(t *testing.T, fn func(t *testing.T, ten *sqlstore.Tenant)) {
	t.Parallel()
	storesAlone(t, fn)
}

// storesAlone is stores without the others running beside it.
func storesAlone(t *testing.T, fn func(t *testing.T, ten *sqlstore.Tenant)) {
	databasesAlone(t, func(t *testing.T, s *sqlstore.Store) { fn(t, tenant(t, s)) })
}

// databasesAlone runs fn on a new store of each engine.
func databasesAlone(t *testing.T, fn func(t *testing.T, s *sqlstore.Store)) {
	t.Run("sqlite", func(t *testing.T) {
		s, err := sqlstore.Open(context.Background(), "", t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		fn(t, s)
	})
	t.Run("postgres", func(t *testing.T) {
		base := os.Getenv("PORTICO_TEST_DATABASE_URL")
		if base == "" {
			t.Skip("PORTICO_TEST_DATABASE_URL is not set")
		}
		s, drop, err := sqlstore.OpenScratch(context.Background(), base)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close(); drop() })
		fn(t, s)
	})
}

func tenant(t testing.TB, s *sqlstore.Store) *sqlstore.Tenant {
	t.Helper()
	if err := s.EnsureTenant(context.Background(), "acme", "Acme"); err != nil {
		t.Fatal(err)
	}
	return s.Tenant(portal.TenantID("acme"))
}

// summary is what a list shows of a record: the values both sides must agree on.
type summary struct {
	Title, Code, Status, Date string
	Parent, Project           int64
	Amount                    *int64
	Modified                  time.Time
}

// expected reads the fake's record the way the portal must show it,
// from its record API fields — not through SuiteQL, which is under test —
// and the account's schema: a field SuiteQL does not have stays empty,
// the creation date is the record's own.
func (a *fakeAccount) expected(k *records.Kind) map[int64]summary {
	km := a.m.Kind(k)
	ts := a.fake.Schema().Types[km.RecordType]
	out := map[int64]summary{}
	for _, r := range a.fake.All(km.RecordType) {
		s := summary{Modified: r.Modified.UTC()}
		for _, f := range k.Fields {
			rf := km.RecordField(f.Name)
			v := r.Fields[rf]
			if fd, ok := ts.Field(rf); ok && fd.Column == "" {
				v = nil
			}
			if rf == ts.CreatedField() {
				v = r.Created.Format(time.DateOnly)
			}
			ref, _ := v.(map[string]any)
			switch f.Type {
			case records.TypeStatus:
				s.Status, _ = ref["refName"].(string)
				if str, ok := v.(string); ok {
					s.Status = str
				}
			case records.TypeRef:
				id, _ := strconv.ParseInt(fmt.Sprint(ref["id"]), 10, 64)
				if f.Column == records.ColParent {
					s.Parent = id
				} else {
					s.Project = id
				}
			case records.TypeMoney, records.TypeQuantity:
				if n, ok := v.(float64); ok {
					c := int64(math.Round(n * 100))
					s.Amount = &c
				}
			default:
				str, _ := v.(string)
				switch f.Column {
				case records.ColTitle:
					s.Title = str
				case records.ColCode:
					s.Code = str
				case records.ColDate:
					s.Date = str
				}
			}
		}
		out[r.ID] = s
	}
	return out
}

// replica reads every record of kind from the store.
func replica(t testing.TB, ten *sqlstore.Tenant, k *records.Kind) map[int64]summary {
	t.Helper()
	out := map[int64]summary{}
	q := records.ListQuery{Kind: k.Name, Limit: 500}
	for {
		page, err := ten.ListRecords(context.Background(), q)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range page.Records {
			out[r.ID] = summary{Title: r.Title, Code: r.Code, Status: r.Status, Date: r.Date, Parent: r.ParentID,
				Project: r.ProjectID, Amount: r.Amount, Modified: r.ModifiedAt}
		}
		if page.Next == nil {
			return out
		}
		q.After = page.Next
	}
}

// sameData fails unless the store holds exactly the account's records.
func sameData(t testing.TB, a *fakeAccount, ten *sqlstore.Tenant) {
	t.Helper()
	for _, k := range records.All() {
		want, got := a.expected(k), replica(t, ten, k)
		if len(want) == 0 {
			t.Fatalf("%s: the account has no records: the test proves nothing", k.Name)
		}
		if len(got) != len(want) {
			t.Errorf("%s: %d records in the store, %d in the account", k.Name, len(got), len(want))
		}
		for id, w := range want {
			g, ok := got[id]
			wj, _ := json.Marshal(w)
			gj, _ := json.Marshal(g)
			if !ok || string(wj) != string(gj) {
				t.Errorf("%s %d:\n store   %s\n account %s", k.Name, id, gj, wj)
				return
			}
		}
	}
}

func TestFullThenIncrementalSyncReproducesTheAccount(t *testing.T) {
	stores(t, func(t *testing.T, ten *sqlstore.Tenant) {
		ctx := context.Background()
		a, eng := synced(t, ten, 15)
		sameData(t, a, ten)

		// Someone works in NetSuite: an edit, a new record, a deletion.
		a.clock.Advance(10 * time.Minute)
		if err := a.fake.Update("job", 3, map[string]any{"companyname": "Renamed in NetSuite"}); err != nil {
			t.Fatal(err)
		}
		cust := a.fake.All("customer")[0]
		if _, err := a.fake.Put("customrecord_res_opportunity", netsuitetest.Record{Fields: map[string]any{
			"name": "Brand-new opportunity", "custrecord_res_opp_number": "OPP-99999",
			"custrecord_res_opp_stage":    map[string]any{"id": "1", "refName": "Lead"},
			"custrecord_res_opp_customer": map[string]any{"id": strconv.FormatInt(cust.ID, 10), "refName": cust.Fields["companyName"]},
		}}); err != nil {
			t.Fatal(err)
		}
		if err := a.fake.Delete("invoice", 5); err != nil {
			t.Fatal(err)
		}
		a.clock.Advance(time.Minute)
		before := eng.Metrics().Pulled.Load()
		if err := eng.Pull(ctx, nil, false); err != nil {
			t.Fatal(err)
		}
		sameData(t, a, ten)
		if r, err := ten.Record(ctx, "project", 3); err != nil || r.Title != "Renamed in NetSuite" {
			t.Fatalf("edit in NetSuite: %+v %v", r, err)
		}
		if _, err := ten.Record(ctx, "invoice", 5); !portal.IsNotFound(err) {
			t.Fatalf("deleted invoice: %v", err)
		}
		// Incremental: two records changed (the renamed project, the new
		// opportunity), and only they count as pulled.
		if n := eng.Metrics().Pulled.Load() - before; n != 2 {
			t.Fatalf("incremental pull counted %d records, want 2", n)
		}
		// A record the account no longer has, whose deletion the log
		// does not show (purged, or older than the sync's memory), goes
		// with a full resync.
		orphan, _ := ten.Record(ctx, "vendor", 7)
		orphan.ID = 9999
		if err := ten.PutRecords(ctx, []records.Record{orphan}); err != nil {
			t.Fatal(err)
		}
		a.clock.Advance(time.Hour)
		if err := eng.Pull(ctx, nil, true); err != nil {
			t.Fatal(err)
		}
		if _, err := ten.Record(ctx, "vendor", 9999); !portal.IsNotFound(err) {
			t.Fatalf("a record the account does not have, after a full resync: %v", err)
		}
		sameData(t, a, ten)
		st, err := eng.Status(ctx)
		if err != nil {
			t.Fatal(err)
		}
		for _, k := range st.Kinds {
			if k.LastSuccess.IsZero() || k.LastError != "" || k.PulledTotal == 0 {
				t.Fatalf("status of %s: %+v", k.Kind, k)
			}
		}
	})
}

// synced is a fake account of 40 records per kind and an engine that has
// pulled all of it into ten, with pages of pageSize rows.
func synced(t *testing.T, ten *sqlstore.Tenant, pageSize int) (*fakeAccount, *erpsync.Engine) {
	t.Helper()
	a := newAccount(t, 40)
	eng := erpsync.New(a.connector(t, pageSize), ten, erpsync.Options{Now: a.clock.Now})
	if err := eng.Pull(context.Background(), nil, true); err != nil {
		t.Fatal(err)
	}
	return a, eng
}

// queueWrites saves creates and edits through the portal's write path, as
// users of a tenant with an ERP do, and returns the record ids.
func queueWrites(t *testing.T, ten *sqlstore.Tenant, n int) []int64 {
	t.Helper()
	ctx := context.Background()
	k, _ := records.Lookup("customer")
	var ids []int64
	for i := range n {
		fields := map[string]json.RawMessage{}
		// The id, balance and date created are NetSuite's (read-only): a form never sends them.
		for name, v := range map[string]any{"companyname": fmt.Sprintf("Portal client %d", i), "entitystatus": "Prospect",
			"email": fmt.Sprintf("client%d@example.com", i)} {
			fields[name], _ = json.Marshal(v)
		}
		rec, err := k.Save(ctx, ten, records.Edit{Fields: fields}, records.Author{IP: "192.0.2.1"}, start, records.Queued)
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, rec.ID)
	}
	for id := int64(1); id <= int64(n); id++ {
		editProject(t, ten, id, fmt.Sprintf(`{"companyname": "Edited in the portal %d"}`, id))
	}
	return ids
}

// editProject saves an edit of project id (fields as the form submits
// them, JSON) through the portal's write path in NetSuite mode, based on
// the version stored now.
func editProject(t *testing.T, ten *sqlstore.Tenant, id int64, fields string) {
	t.Helper()
	editProjectAt(t, ten, id, fields, start)
}

// editProjectAt is editProject saved at the time at.
func editProjectAt(t *testing.T, ten *sqlstore.Tenant, id int64, fields string, at time.Time) {
	t.Helper()
	ctx := context.Background()
	p, _ := ten.Kinds().Lookup("project")
	cur, err := ten.Record(ctx, "project", id)
	if err != nil {
		t.Fatal(err)
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal([]byte(fields), &raw); err != nil {
		t.Fatal(err)
	}
	if _, err := p.Save(ctx, ten, records.Edit{ID: id, Version: cur.ModifiedAt, Fields: raw}, records.Author{}, at, records.Queued); err != nil {
		t.Fatal(err)
	}
}

func TestWithFaultsSyncConvergesAndWritesLandOnce(t *testing.T) {
	stores(t, func(t *testing.T, ten *sqlstore.Tenant) {
		ctx := context.Background()
		a, eng := synced(t, ten, 15)
		created := queueWrites(t, ten, 8)

		// 30% of calls fail: throttled, server errors, dropped
		// connections, writes applied and then the answer lost.
		a.fake.SetFaults(netsuitetest.Faults{Throttle: 0.08, ServerError: 0.08, Unavailable: 0.04, Drop: 0.04,
			DropAfterWrite: 0.06, Page: netsuitetest.PageFault{Page: 2, Times: 1}})
		a.clock.Advance(10 * time.Minute)
		a.fake.Update("customer", 2, map[string]any{"companyname": "Changed during the storm"})
		var pullErr error
		for round := 0; round < 40; round++ {
			a.clock.Advance(time.Hour) // every deferred write is due again
			eng.Push(ctx)
			pullErr = eng.Pull(ctx, nil, false)
			st, _ := eng.Status(ctx)
			if pullErr == nil && st.Outbox[erpsync.EntryPending] == 0 {
				break
			}
		}
		if pullErr != nil {
			t.Fatalf("pull never succeeded: %v", pullErr)
		}
		st, _ := eng.Status(ctx)
		if st.Outbox[erpsync.EntrySynced] != 16 || st.Outbox[erpsync.EntryFailed] != 0 {
			t.Fatalf("outbox after the storm: %v %+v", st.Outbox, st.Open)
		}
		if a.fake.Stats().DroppedAfterWrite == 0 && a.fake.Stats().Throttled == 0 {
			t.Fatal("no faults were injected: the test proves nothing")
		}
		a.fake.SetFaults(netsuitetest.Faults{})
		// Every write landed exactly once.
		entries, err := ten.OutboxEntries(ctx, []string{erpsync.EntrySynced}, 100)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			if w := a.fake.Writes(e.Key); w.Applied != 1 {
				t.Errorf("entry %d (%s %s %d) applied %d times", e.ID, e.Op, e.Kind, e.RecordID, w.Applied)
			}
		}
		if a.fake.Count("customer") != 40+len(created) {
			t.Fatalf("customers in NetSuite: %d, want %d", a.fake.Count("customer"), 40+len(created))
		}
		a.clock.Advance(time.Minute)
		if err := eng.Pull(ctx, nil, false); err != nil {
			t.Fatal(err)
		}
		sameData(t, a, ten)
		// The portal's creates are known by the ERP's ids now, and the
		// old provisional links still lead to them.
		for _, id := range created {
			r, err := ten.Record(ctx, "customer", id)
			if err != nil || r.ID >= records.ProvisionalBase || r.Write.State != records.WriteSynced {
				t.Fatalf("created %d: %+v %v", id, r, err)
			}
		}
		if r, _ := ten.Record(ctx, "project", 1); r.Title != "Edited in the portal 1" {
			t.Fatalf("edit in the portal: %+v", r)
		}
	})
}

func TestRefusedWriteFailsWithTheERPMessage(t *testing.T) {
	stores(t, func(t *testing.T, ten *sqlstore.Tenant) {
		ctx := context.Background()
		a, eng := synced(t, ten, 1000)
		// The client is gone in NetSuite, but not yet from the replica.
		if err := a.fake.Delete("customer", 4); err != nil {
			t.Fatal(err)
		}
		editProject(t, ten, 2, `{"customer": 4}`)
		if _, err := eng.Push(ctx); err != nil {
			t.Fatal(err)
		}
		got, _ := ten.Record(ctx, "project", 2)
		if got.Write.State != records.WriteFailed || got.Write.Error == "" || got.ParentID != 4 {
			t.Fatalf("refused write: %+v (the user's value stays)", got)
		}
		t.Logf("the record shows: %s", got.Write.Error)
		// Discarding puts NetSuite's version back.
		if err := eng.DiscardRecord(ctx, "project", 2); err != nil {
			t.Fatal(err)
		}
		got, _ = ten.Record(ctx, "project", 2)
		if got.Write.State != records.WriteSynced || got.ParentID == 4 {
			t.Fatalf("after discard: %+v", got)
		}

		// An edit of a record deleted in NetSuite meanwhile fails;
		// discarding it removes the record here too.
		if err := a.fake.Delete("job", 3); err != nil {
			t.Fatal(err)
		}
		editProject(t, ten, 3, `{"companyname": "Too late"}`)
		eng.Push(ctx)
		if got, _ := ten.Record(ctx, "project", 3); got.Write.State != records.WriteFailed {
			t.Fatalf("edit of a deleted record: %+v", got.Write)
		}
		if err := eng.DiscardRecord(ctx, "project", 3); err != nil {
			t.Fatal(err)
		}
		if _, err := ten.Record(ctx, "project", 3); !portal.IsNotFound(err) {
			t.Fatalf("discarded edit of a deleted record: %v", err)
		}
	})
}

func TestEditingARefusedChangeSendsTheCorrection(t *testing.T) {
	stores(t, func(t *testing.T, ten *sqlstore.Tenant) {
		ctx := context.Background()
		a, eng := synced(t, ten, 1000)
		if err := a.fake.Delete("customer", 4); err != nil {
			t.Fatal(err)
		}
		save := func(fields string) {
			t.Helper()
			editProject(t, ten, 2, fields)
			a.clock.Advance(time.Second)
			if _, err := eng.Push(ctx); err != nil {
				t.Fatal(err)
			}
		}
		save(`{"customer": 4, "companyname": "Renamed with a bad client"}`)
		if got, _ := ten.Record(ctx, "project", 2); got.Write.State != records.WriteFailed {
			t.Fatalf("refused: %+v", got.Write)
		}
		// The user corrects the client: both changes go, in one write.
		save(`{"customer": 5}`)
		got, _ := ten.Record(ctx, "project", 2)
		job, _ := a.fake.Get("job", 2)
		parent, _ := job.Fields["parent"].(map[string]any)
		if got.Write.State != records.WriteSynced || got.ParentID != 5 || fmt.Sprint(parent["id"]) != "5" ||
			job.Fields["companyName"] != "Renamed with a bad client" {
			t.Fatalf("after the correction: %+v / NetSuite %+v", got, job.Fields)
		}
		st, _ := eng.Status(ctx)
		if st.Outbox[erpsync.EntrySynced] != 1 || st.Outbox[erpsync.EntryDiscarded] != 1 || st.Outbox[erpsync.EntryFailed] != 0 {
			t.Fatalf("outbox: %v", st.Outbox)
		}
	})
}

func TestPrometheusMetricsPerKind(t *testing.T) {
	ctx := context.Background()
	s, err := sqlstore.Open(ctx, "", t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ten := tenant(t, s)
	a := newAccount(t, 5)
	eng := erpsync.New(a.connector(t, 1000), ten, erpsync.Options{Now: a.clock.Now, Instance: "test"})
	if err := eng.Pull(ctx, []*records.Kind{mustKind(t, "customer")}, true); err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := eng.WritePrometheus(ctx, &b); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{
		`portico_sync_pulled_records_total{instance="test",tenant="acme"} 5` + "\n",
		`portico_sync_lease_holder{instance="test",tenant="acme"} 1` + "\n",
		`portico_sync_lag_seconds{instance="test",tenant="acme",kind="customer"} 0` + "\n",
		`portico_sync_lag_seconds{instance="test",tenant="acme",kind="project"} -1` + "\n",
		`portico_sync_kind_pulled_records{instance="test",tenant="acme",kind="customer"} 5` + "\n",
		`portico_sync_outbox_entries{instance="test",tenant="acme",state="pending"} 0` + "\n",
		"# TYPE portico_sync_kind_failing gauge\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("metrics lack %q:\n%s", want, out)
		}
	} // Given up, the lease is no longer this instance's.
	if err := eng.Release(ctx); err != nil {
		t.Fatal(err)
	}
	b.Reset()
	eng.WritePrometheus(ctx, &b)
	if want := `portico_sync_lease_holder{instance="test",tenant="acme"} 0` + "\n"; !strings.Contains(b.String(), want) {
		t.Errorf("metrics after release lack %q", want)
	}
}

func mustKind(t *testing.T, name string) *records.Kind {
	t.Helper()
	k, ok := records.Lookup(name)
	if !ok {
		t.Fatalf("no kind %s", name)
	}
	return k
}

func TestAttachmentsComeFromTheERP(t *testing.T) {
	ctx := context.Background()
	s, err := sqlstore.Open(ctx, "", t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	a := newAccount(t, 40)
	eng := erpsync.New(a.connector(t, 1000), tenant(t, s), erpsync.Options{Now: a.clock.Now})
	for _, kind := range []string{"project", "customer", "vendor", "invoice"} {
		for id := int64(1); id <= 40; id++ {
			files, err := eng.Files(ctx, kind, id)
			if err != nil {
				t.Fatal(err)
			}
			if len(files) == 0 {
				continue
			}
			f, err := eng.File(ctx, kind, id, files[0].ID)
			if err != nil || int64(len(f.Content)) != f.Size || f.Size == 0 || f.Name != files[0].Name {
				t.Fatalf("%s %d file %d: %d bytes of %d, %v", kind, id, files[0].ID, len(f.Content), f.Size, err)
			}
			// A file id opens only through the record it belongs to.
			if _, err := eng.File(ctx, kind, id+1000, files[0].ID); !portal.IsNotFound(err) {
				t.Fatalf("a file through another record: %v", err)
			}
			return
		}
	}
	t.Fatal("no record of the demo data has a file: the test proves nothing")
}

func TestViewedRecordsGetTheirWholeDocument(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	s, err := sqlstore.Open(ctx, "", t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ten := tenant(t, s)
	a := newAccount(t, 20)
	eng := erpsync.New(a.connector(t, 1000), ten, erpsync.Options{Now: a.clock.Now, Interval: time.Hour})
	if err := eng.Pull(ctx, nil, true); err != nil {
		t.Fatal(err)
	}
	pulled, _ := ten.Record(ctx, "project", 1)
	if strings.Contains(string(pulled.Fields), `"subsidiary"`) {
		t.Fatalf("the pull already has sublists; the test proves nothing: %s", pulled.Fields)
	}
	go eng.Run(ctx)
	eng.Enrich("project", 1, pulled.ModifiedAt)
	deadline := time.Now().Add(5 * time.Second)
	for {
		r, _ := ten.Record(ctx, "project", 1)
		if strings.Contains(string(r.Fields), `"subsidiary"`) {
			if r.Title != pulled.Title || !r.ModifiedAt.Equal(pulled.ModifiedAt) {
				t.Fatalf("enriched record changed its columns: %+v", r)
			}
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("no whole document after 5 s: %s", r.Fields)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestAnAccountWithoutSomeKindsAndColumns syncs an account that lacks two
// custom record types and an optional custom field: the kinds it has sync,
// the others show "not in this account" and are not tried again by the
// schedule until asked for by name; the missing column is reported.
func TestAnAccountWithoutSomeKindsAndColumns(t *testing.T) {
	stores(t, func(t *testing.T, ten *sqlstore.Tenant) {
		ctx := context.Background()
		lean, err := netsuitetest.LoadSchema(netsuitetest.DefaultAccount,
			"customrecord_res_billing", "customrecord_res_budget", "job.custentity_res_county")
		if err != nil {
			t.Fatal(err)
		}
		mapping := strings.Replace(string(netsuite.DefaultMapping), "  billing_summary:\n", "  billing_summary:\n    off: true\n", 1)
		a := newAccountWith(t, 30, lean, []byte(mapping))
		eng := erpsync.New(a.connector(t, 100), ten, erpsync.Options{Now: a.clock.Now, Instance: "test"})
		if err := eng.Pull(ctx, nil, true); err != nil {
			t.Fatalf("a pull with kinds not in the account: %v", err)
		}
		status := func() map[string]erpsync.KindStatus {
			st, err := eng.Status(ctx)
			if err != nil {
				t.Fatal(err)
			}
			out := map[string]erpsync.KindStatus{}
			for _, k := range st.Kinds {
				out[k.Kind] = k
			}
			return out
		}
		st := status()
		for _, kind := range []string{"billing", "budget"} {
			if !strings.Contains(st[kind].Unavailable, "not in this account: record type customrecord_res_") {
				t.Errorf("%s: %+v, want not in this account", kind, st[kind])
			}
		}
		if !st["billing_summary"].Off || st["billing_summary"].PulledTotal != 0 {
			t.Errorf("billing_summary is off in the mapping: %+v", st["billing_summary"])
		}
		if !strings.Contains(st["project"].Missing, "custentity_res_county") || st["project"].LastError != "" {
			t.Errorf("project: %+v, want custentity_res_county reported missing", st["project"])
		}
		for _, kind := range []string{"project", "customer", "invoice", "customrecord_res_opportunity", "creditledger"} {
			k, _ := records.Lookup(kind)
			if st[kind].Unavailable != "" || st[kind].LastSuccess.IsZero() {
				t.Errorf("%s did not sync: %+v", kind, st[kind])
			}
			if got, want := len(replica(t, ten, k)), a.fake.Count(a.m.Kind(k).RecordType); got != want || got == 0 {
				t.Errorf("%s: %d records in the replica, the account has %d", kind, got, want)
			}
		}
		var metrics strings.Builder
		if err := eng.WritePrometheus(ctx, &metrics); err != nil {
			t.Fatal(err)
		}
		for _, line := range []string{`portico_sync_kind_unavailable{instance="test",tenant="acme",kind="billing"} 1`,
			`portico_sync_kind_unavailable{instance="test",tenant="acme",kind="billing_summary"} 1`, `portico_sync_kind_unavailable{instance="test",tenant="acme",kind="project"} 0`} {
			if !strings.Contains(metrics.String(), line) {
				t.Errorf("metrics lack %s", line)
			}
		}

		// The schedule does not try the missing kinds again…
		a.clock.Advance(time.Minute)
		before := st["billing"].LastRun
		if err := eng.Pull(ctx, nil, false); err != nil {
			t.Fatal(err)
		}
		if st = status(); !st["billing"].LastRun.Equal(before) || !st["project"].LastRun.After(before) {
			t.Errorf("the schedule tried billing again (%v → %v) or skipped project", before, st["billing"].LastRun)
		}
		// …a pull that names one does.
		billing, _ := records.Lookup("billing")
		a.clock.Advance(time.Minute)
		if err := eng.Pull(ctx, []*records.Kind{billing}, false); err != nil {
			t.Fatal(err)
		}
		if st = status(); !st["billing"].LastRun.After(before) || st["billing"].Unavailable == "" {
			t.Errorf("billing asked for by name: %+v", st["billing"])
		}
	})
}

// TestAccountFieldsSyncAndWrite adds two of the account's own project
// fields to the mapping: they are pulled into the documents, listed and
// sorted, and an edit of one in the portal reaches NetSuite under its id.
func TestAccountFieldsSyncAndWrite(t *testing.T) {
	mapping := strings.Replace(string(netsuite.DefaultMapping), "\n  project:\n", `
  project:
    accountFields:
      - {name: custentity_res_service_area, label: Service area, type: text}
      - {name: custentity_res_acres, label: Acres, type: quantity}
`, 1)
	databasesAlone(t, func(t *testing.T, s *sqlstore.Store) {
		ctx := context.Background()
		a := newAccountWith(t, 40, nil, []byte(mapping))
		reg, err := a.m.Registry()
		if err != nil {
			t.Fatal(err)
		}
		s.SetKinds(map[portal.TenantID]*records.Registry{"acme": reg})
		if err := s.IndexDocumentFields(ctx, reg); err != nil {
			t.Fatal(err)
		}
		ten := tenant(t, s)
		eng := erpsync.New(a.connector(t, 100), ten, erpsync.Options{Now: a.clock.Now})
		if err := eng.Pull(ctx, nil, true); err != nil {
			t.Fatal(err)
		}
		if code, _ := records.Lookup("project"); len(code.AccountFields()) != 0 {
			t.Fatal("the code's registry changed")
		}
		p, _ := ten.Kinds().Lookup("project")
		area, _ := p.FieldNamed("custentity_res_service_area")
		page, err := ten.ListRecords(ctx, records.ListQuery{Kind: "project", Sort: area.Column, Desc: true, Limit: 500})
		if err != nil {
			t.Fatal(err)
		}
		if len(page.Records) != a.fake.Count("job") {
			t.Fatalf("%d projects listed, the account has %d", len(page.Records), a.fake.Count("job"))
		}
		withArea := 0
		for i, r := range page.Records {
			job, _ := a.fake.Get("job", r.ID)
			if job.Fields["custentity_res_service_area"] != nil {
				withArea++
			}
			if want := job.Fields["custentity_res_service_area"]; r.Extra["custentity_res_service_area"] != want {
				t.Fatalf("project %d: service area %v, NetSuite has %v", r.ID, r.Extra["custentity_res_service_area"], want)
			}
			if job.Fields["custentity_res_acres"] != r.Extra["custentity_res_acres"] {
				t.Fatalf("project %d: acres %v, NetSuite has %v", r.ID, r.Extra["custentity_res_acres"], job.Fields["custentity_res_acres"])
			}
			if i > 0 && str(page.Records[i-1]) < str(r) {
				t.Fatalf("not sorted by service area, descending: %q before %q", str(page.Records[i-1]), str(r))
			}
		}
		if withArea == 0 {
			t.Fatal("no project has a service area: the test proves nothing")
		}
		editProject(t, ten, 2, `{"custentity_res_service_area": "Neuse River Basin", "custentity_res_acres": 12.5}`)
		a.clock.Advance(time.Second)
		if _, err := eng.Push(ctx); err != nil {
			t.Fatal(err)
		}
		job, _ := a.fake.Get("job", 2)
		if job.Fields["custentity_res_service_area"] != "Neuse River Basin" || job.Fields["custentity_res_acres"] != 12.5 {
			t.Fatalf("NetSuite has %v, %v", job.Fields["custentity_res_service_area"], job.Fields["custentity_res_acres"])
		}
	})
}

func str(r records.Record) string { s, _ := r.Extra["custentity_res_service_area"].(string); return s }

// TestEveryEditableKindWritesAndReadsBack creates and edits a record of
// every kind the portal writes, standard and custom, through the portal's
// write path: each reaches the account under the record API's field ids
// (the fake refuses any other), and the read-back by the kind's own
// last-modified field completes it.
func TestEveryEditableKindWritesAndReadsBack(t *testing.T) {
	stores(t, func(t *testing.T, ten *sqlstore.Tenant) {
		ctx := context.Background()
		a, eng := synced(t, ten, 1000)
		value := func(f records.Field, n int) any {
			switch f.Type {
			case records.TypeStatus:
				return f.Choices[n%len(f.Choices)]
			case records.TypeRef:
				return 1 + n
			case records.TypeMoney, records.TypeQuantity:
				return 10.5 + float64(n)
			case records.TypeDate:
				return fmt.Sprintf("2026-11-%02d", 10+n)
			}
			return fmt.Sprintf("Written in the portal %d", n)
		}
		input := func(k *records.Kind, n int) map[string]json.RawMessage {
			fields := map[string]json.RawMessage{}
			for _, f := range k.Fields {
				if !f.Account && !f.ReadOnly {
					fields[f.Name], _ = json.Marshal(value(f, n))
				}
			}
			return fields
		}
		type written struct {
			k  *records.Kind
			id int64
			n  int
		}
		var ws []written
		for _, k := range records.All() {
			if k.CanCreate {
				rec, err := k.Save(ctx, ten, records.Edit{Fields: input(k, 1)}, records.Author{}, start, records.Queued)
				if err != nil {
					t.Fatalf("create %s: %v", k.Name, err)
				}
				ws = append(ws, written{k, rec.ID, 1})
			}
			if k.CanEdit {
				cur, err := ten.Record(ctx, k.Name, 3)
				if err != nil {
					t.Fatal(err)
				}
				in := input(k, 2)
				if _, err := k.Save(ctx, ten, records.Edit{ID: 3, Version: cur.ModifiedAt, Fields: in}, records.Author{}, start, records.Queued); err != nil {
					t.Fatalf("edit %s: %v", k.Name, err)
				}
				ws = append(ws, written{k, 3, 2})
			}
		}
		if len(ws) < 6 {
			t.Fatalf("only %d writes: the registry's editable kinds changed?", len(ws))
		}
		a.clock.Advance(time.Second)
		if _, err := eng.Push(ctx); err != nil {
			t.Fatal(err)
		}
		st, _ := eng.Status(ctx)
		if st.Outbox[erpsync.EntrySynced] != int64(len(ws)) {
			t.Fatalf("outbox %v, open %+v", st.Outbox, st.Open)
		}
		for _, w := range ws {
			km := a.m.Kind(w.k)
			id := w.id
			if id >= records.ProvisionalBase {
				erpID, state, err := ten.CreatedID(ctx, w.k.Name, id)
				if err != nil || state != erpsync.EntrySynced {
					t.Fatalf("%s create: %v %q", w.k.Name, err, state)
				}
				id = erpID
			}
			got, err := ten.Record(ctx, w.k.Name, id)
			if err != nil || got.Write.State != records.WriteSynced {
				t.Fatalf("%s %d read back: %+v %v", w.k.Name, id, got.Write, err)
			}
			ns, ok := a.fake.Get(km.RecordType, id)
			if !ok {
				t.Fatalf("%s %d is not in NetSuite", w.k.Name, id)
			}
			if !got.ModifiedAt.Equal(ns.Modified) {
				t.Errorf("%s %d: version %v, NetSuite's last-modified %v", w.k.Name, id, got.ModifiedAt, ns.Modified)
			}
			title := w.k.Fields[0]
			if ns.Fields[km.RecordField(title.Name)] != value(title, w.n) {
				t.Errorf("%s %d: NetSuite's %s is %v", w.k.Name, id, km.RecordField(title.Name), ns.Fields[km.RecordField(title.Name)])
			}
		}
	})
}

// A suspended tenant's sync runs no round; it resumes with the tenant.
func TestASuspendedTenantDoesNotSync(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	s, err := sqlstore.Open(ctx, "", t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ten := tenant(t, s)
	a := newAccount(t, 20)
	var suspended atomic.Bool
	suspended.Store(true)
	eng := erpsync.New(a.connector(t, 1000), ten, erpsync.Options{Interval: 20 * time.Millisecond,
		Suspended: func(context.Context) bool { return suspended.Load() }})
	done := make(chan struct{})
	go func() { defer close(done); eng.Run(ctx) }()
	time.Sleep(300 * time.Millisecond)
	if n, _ := ten.CountRecords(ctx, "project"); n != 0 {
		t.Fatalf("%d projects pulled while suspended", n)
	}
	suspended.Store(false)
	deadline := time.Now().Add(5 * time.Second)
	for n, _ := ten.CountRecords(ctx, "project"); n == 0; n, _ = ten.CountRecords(ctx, "project") {
		if time.Now().After(deadline) {
			t.Fatal("no pull 5 s after the tenant resumed")
		}
		time.Sleep(20 * time.Millisecond)
	}
	cancel()
	<-done
}
