package netsuite_test

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"errors"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/portico/portico/internal/erp"
	"github.com/portico/portico/internal/erp/netsuite"
	"github.com/portico/portico/internal/erp/netsuitetest"
	"github.com/portico/portico/internal/portal"
	"github.com/portico/portico/internal/records"
)

const testAccount = "123456_SB1"

// testClock is the fake's clock; tests move it on.
var testClock = netsuitetest.NewClock(time.Date(2026, 11, 22, 7, 0, 0, 0, time.UTC))

// account is a fake account of n records per kind and a TBA client of it.
func account(t *testing.T, n int, pageSize, concurrency int, opts ...func(*netsuite.Config)) (*netsuitetest.Server, *netsuite.Client) {
	t.Helper()
	fake, err := netsuitetest.New(netsuitetest.Config{Concurrency: 50, Now: testClock.Now,
		TBA: &netsuitetest.TBAVerifier{Realm: netsuite.Realm(testAccount), Lookup: func(ck, tid string) (string, string, bool) {
			return "cs", "ts", ck == "ck" && tid == "tid"
		}}})
	if err != nil {
		t.Fatal(err)
	}
	for i := range n {
		// Several records per second: the keyset must order by id within one.
		fake.Put("customer", netsuitetest.Record{Fields: map[string]any{"companyName": "Client " + strconv.Itoa(i),
			"entityStatus": map[string]any{"id": "2", "refName": "Active"}, "balance": float64(i) + 0.5}})
	}
	srv := httptest.NewServer(fake)
	t.Cleanup(srv.Close)
	cfg := netsuite.Config{Account: testAccount, BaseURL: srv.URL, PageSize: pageSize,
		Concurrency: concurrency, Backoff: time.Millisecond,
		Auth: netsuite.TBA{Account: testAccount, ConsumerKey: "ck", ConsumerSecret: "cs", TokenID: "tid", TokenSecret: "ts", Now: testClock.Now}}
	for _, o := range opts {
		o(&cfg)
	}
	c, err := netsuite.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return fake, c
}

func TestChangesPagesByKeyset(t *testing.T) {
	fake, c := account(t, 130, 20, 2)
	k, _ := records.Lookup("customer")
	var got []records.Record
	pages := 0
	err := c.Changes(context.Background(), k, erp.Checkpoint{}, func(b erp.Batch) error {
		pages++
		if pages == 2 {
			// NetSuite changes while we page: a record not read yet
			// goes, and an earlier one is edited (it moves to the end).
			testClock.Advance(time.Second)
			fake.Delete("customer", 100)
			fake.Update("customer", 3, map[string]any{"companyName": "Edited meanwhile"})
		}
		got = append(got, b.Records...)
		last := b.Records[len(b.Records)-1]
		if b.Next.ID != last.ID || !b.Next.Modified.Equal(last.ModifiedAt) {
			t.Errorf("next %+v is not the last record %d", b.Next, last.ID)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	seen := map[int64]string{}
	for i, r := range got {
		seen[r.ID] = r.Title
		if i > 0 && (r.ModifiedAt.Before(got[i-1].ModifiedAt) || (r.ModifiedAt.Equal(got[i-1].ModifiedAt) && r.ID <= got[i-1].ID)) {
			t.Fatalf("out of order at %d", i)
		}
	}
	// Every record that exists was read, the edited one as edited.
	for _, r := range fake.All("customer") {
		if _, ok := seen[r.ID]; !ok {
			t.Fatalf("record %d was never read (%d pages)", r.ID, pages)
		}
	}
	if seen[3] != "Edited meanwhile" || pages < 7 {
		t.Fatalf("edited record: %q; %d pages", seen[3], pages)
	}
	// The balance is the record API's: SuiteQL's customer table lacks
	// it, so the optional field stays empty and is reported.
	if r := got[5]; r.Status != "Active" || r.Amount != nil || r.Title != "Client 5" {
		t.Fatalf("converted record: %+v", r)
	}
	if m := c.Missing(k); !slices.Equal(m, []string{"balance"}) {
		t.Fatalf("missing columns %v, want [balance]", m)
	}
	// From a checkpoint: only what follows it.
	n := 0
	c.Changes(context.Background(), k, erp.Checkpoint{Modified: got[99].ModifiedAt, ID: got[99].ID}, func(b erp.Batch) error {
		n += len(b.Records)
		return nil
	})
	if want := len(got) - 100; n != want {
		t.Fatalf("after the 100th record: %d records, want %d", n, want)
	}
}

func TestThrottlingIsRetriedAndTheLimitKept(t *testing.T) {
	// Each request is throttled with probability 0.4: with the default 6
	// attempts one of 40 fetches ran out of them in about one run in
	// six (40 × 0.4⁶); with 20, about one in 2.5 million.
	fake, c := account(t, 10, 1000, 3, func(cfg *netsuite.Config) { cfg.Attempts = 20 })
	fake.SetFaults(netsuitetest.Faults{Throttle: 0.4, Slow: 1, Latency: 5 * time.Millisecond})
	k, _ := records.Lookup("customer")
	var wg sync.WaitGroup
	errs := make(chan error, 40)
	for i := range 40 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := c.Fetch(context.Background(), k, int64(i%10+1))
			errs <- err
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	st := fake.Stats()
	if st.Throttled == 0 || st.MaxInFlight > 3 {
		t.Fatalf("throttled %d times, at most %d in flight (limit 3)", st.Throttled, st.MaxInFlight)
	}
}

func TestWritesAndTheirErrors(t *testing.T) {
	fake, c := account(t, 3, 1000, 2)
	ctx := context.Background()
	k, _ := records.Lookup("customer")
	amount := int64(1234)
	w := erp.Write{Key: "key-1", Fields: records.Input{"companyname": "New Co", "entitystatus": "Prospect", "balance": &amount}}
	// The first answer is lost after the write landed: the retry must
	// not create a second record.
	fake.SetFaults(netsuitetest.Faults{DropAfterWrite: 1})
	id, err := c.Create(ctx, k, w)
	fake.SetFaults(netsuitetest.Faults{})
	if err != nil {
		id, err = c.Create(ctx, k, w) // what the outbox does on its next round
	}
	if err != nil || id <= 0 {
		t.Fatalf("create: %d %v", id, err)
	}
	if fake.Count("customer") != 4 || fake.Writes("key-1").Applied != 1 {
		t.Fatalf("created %d customers, applied %d times", fake.Count("customer")-3, fake.Writes("key-1").Applied)
	}
	// Written under the record API's ids; the read-only balance is not
	// sent (the account would refuse it).
	r, err := c.Fetch(ctx, k, id)
	if err != nil || r.Title != "New Co" || r.Status != "Prospect" || r.Amount != nil {
		t.Fatalf("read back: %+v %v", r, err)
	}
	if err := c.Update(ctx, k, id, erp.Write{Key: "key-2", Fields: records.Input{"companyname": "Renamed Co"}}); err != nil {
		t.Fatal(err)
	}
	if got, _ := fake.Get("customer", id); got.Fields["companyName"] != "Renamed Co" {
		t.Fatalf("update: %+v", got.Fields)
	}
	// A validation error is permanent and names the field.
	err = c.Update(ctx, k, id, erp.Write{Key: "key-3", Fields: records.Input{"entitystatus": "Nope"}})
	var ee *erp.Error
	if !errors.As(err, &ee) || !ee.Permanent || ee.Path == "" {
		t.Fatalf("bad list value: %#v", err)
	}
	if _, err := c.Fetch(ctx, k, 999); !portal.IsNotFound(err) {
		t.Fatalf("missing record: %v", err)
	}
}

func TestAnUnreadableRowIsLeftOut(t *testing.T) {
	fake, c := account(t, 0, 10, 2)
	for i := range 30 {
		fake.Put("genericResource", netsuitetest.Record{Fields: map[string]any{"name": "Crew " + strconv.Itoa(i), "laborCost": 40}})
	}
	testClock.Advance(time.Second)
	fake.Update("genericResource", 5, map[string]any{"laborCost": "twelve"})
	k, _ := records.Lookup("genericresource")
	var ids []int64
	err := c.Changes(context.Background(), k, erp.Checkpoint{}, func(b erp.Batch) error {
		for _, r := range b.Records {
			ids = append(ids, r.ID)
		}
		return nil
	})
	if err != nil || len(ids) != 29 || ids[len(ids)-1] == 5 {
		t.Fatalf("read %d records (%v), err %v; want the 29 readable ones", len(ids), ids, err)
	}
}

func TestRecordDatesFromTheRecordAPI(t *testing.T) {
	fake, c := account(t, 0, 1000, 2)
	ctx := context.Background()
	k, _ := records.Lookup("customer")
	// NetSuite's own dateCreated, a date-time: the day, in the account's zone.
	bare, _ := fake.Put("customer", netsuitetest.Record{Fields: map[string]any{"companyName": "Bare"}})
	for id, want := range map[int64]string{bare: testClock.Now().Format(time.DateOnly)} {
		r, err := c.Fetch(ctx, k, id)
		if err != nil || r.Date != want {
			t.Errorf("customer %d: date %q, want %q (%v)", id, r.Date, want, err)
		}
	}
}

// loginServer is a NetSuite stand-in for the login tests: a token
// endpoint handing out tok-1, tok-2, … (or refusing, per token), and a
// RESTlet that answers one file to the tokens api accepts.
type loginServer struct {
	srv                *httptest.Server
	tokenRequests      atomic.Int32
	apiRequests        atomic.Int32
	token              func(n int32) (status int, body string)
	api                func(authorization string) bool
	mu                 sync.Mutex
	authorizationsSeen []string
}

func newLoginServer(t *testing.T) *loginServer {
	ls := &loginServer{
		token: func(n int32) (int, string) {
			return 200, `{"access_token":"tok-` + strconv.Itoa(int(n)) + `","token_type":"bearer","expires_in":3600}`
		},
		api: func(string) bool { return true },
	}
	mux := http.NewServeMux()
	mux.HandleFunc("POST "+netsuitetest.TokenPath, func(w http.ResponseWriter, r *http.Request) {
		status, body := ls.token(ls.tokenRequests.Add(1))
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		io.WriteString(w, body)
	})
	mux.HandleFunc(netsuite.RESTletPath, func(w http.ResponseWriter, r *http.Request) {
		ls.apiRequests.Add(1)
		h := r.Header.Get("Authorization")
		ls.mu.Lock()
		ls.authorizationsSeen = append(ls.authorizationsSeen, h)
		ls.mu.Unlock()
		if !ls.api(h) {
			netsuitetest.WriteInvalidLogin(w)
			return
		}
		io.WriteString(w, `{"id":"7","name":"a.txt","contentType":"text/plain","size":2,"contentBase64":"aGk="}`)
	})
	ls.srv = httptest.NewServer(mux)
	t.Cleanup(ls.srv.Close)
	return ls
}

func (ls *loginServer) client(t *testing.T, auth netsuite.Authorizer, hold time.Duration) *netsuite.Client {
	t.Helper()
	c, err := netsuite.New(netsuite.Config{Account: testAccount, BaseURL: ls.srv.URL, Auth: auth, Backoff: time.Millisecond,
		RESTletScript: "1", RESTletDeploy: "1", AuthHold: hold})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func (ls *loginServer) m2m(t *testing.T) *netsuite.M2M {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	return &netsuite.M2M{TokenURL: ls.srv.URL + netsuitetest.TokenPath, ClientID: "c", CertID: "k", Key: key}
}

// wantRefusal checks err is a permanent *erp.Error keeping NetSuite's
// status and code in its text.
func wantRefusal(t *testing.T, err error, status int, code string) {
	t.Helper()
	var e *erp.Error
	if !errors.As(err, &e) || !e.Permanent || e.Status != status || e.Code != code || !strings.Contains(err.Error(), code) {
		t.Fatalf("err = %v (%#v), want a permanent %d %s", err, err, status, code)
	}
}

func TestInvalidLoginIsNotRetried(t *testing.T) {
	ls := newLoginServer(t)
	ls.api = func(string) bool { return false }
	tba := netsuite.TBA{Account: testAccount, ConsumerKey: "ck", ConsumerSecret: "cs", TokenID: "tid", TokenSecret: "ts"}
	c := ls.client(t, tba, 0)
	_, err := c.File(context.Background(), 7)
	wantRefusal(t, err, http.StatusUnauthorized, "INVALID_LOGIN")
	if !strings.Contains(err.Error(), "Login Audit Trail") || ls.apiRequests.Load() != 1 {
		t.Fatalf("%d requests, err %v; want 1 and NetSuite's message", ls.apiRequests.Load(), err)
	}
	// Held back: the next requests fail with NetSuite's answer, unsent.
	for range 3 {
		_, err = c.File(context.Background(), 7)
		wantRefusal(t, err, http.StatusUnauthorized, "INVALID_LOGIN")
	}
	if !strings.Contains(err.Error(), "not sent") || ls.apiRequests.Load() != 1 {
		t.Fatalf("%d requests, err %v; want none more while held back", ls.apiRequests.Load(), err)
	}

	// Without the hold each call is one request, never more.
	ls.apiRequests.Store(0)
	c = ls.client(t, tba, -1)
	for range 2 {
		_, err = c.File(context.Background(), 7)
		wantRefusal(t, err, http.StatusUnauthorized, "INVALID_LOGIN")
	}
	if n := ls.apiRequests.Load(); n != 2 {
		t.Fatalf("%d requests for 2 calls", n)
	}
}

func TestRefusedClientCredentialsAreNotRetried(t *testing.T) {
	for _, c := range []struct {
		status int
		body   string
		code   string
	}{
		{400, `{"error":"invalid_grant"}`, "invalid_grant"},
		{401, `{"error":"invalid_client"}`, "invalid_client"},
		{400, `{"error":"invalid_request","error_description":"exp - iat must be less than 60 minutes"}`, "invalid_request"},
	} {
		ls := newLoginServer(t)
		ls.token = func(int32) (int, string) { return c.status, c.body }
		cl := ls.client(t, ls.m2m(t), 0)
		for range 3 {
			_, err := cl.File(context.Background(), 7)
			wantRefusal(t, err, c.status, c.code)
		}
		if ls.tokenRequests.Load() != 1 || ls.apiRequests.Load() != 0 {
			t.Errorf("%s: %d token requests, %d API requests; want 1 and 0", c.code, ls.tokenRequests.Load(), ls.apiRequests.Load())
		}
	}
	// A token endpoint in trouble is another matter: retried.
	ls := newLoginServer(t)
	ls.token = func(n int32) (int, string) {
		if n < 3 {
			return 503, `{"title":"Service Unavailable"}`
		}
		return 200, `{"access_token":"tok","token_type":"bearer","expires_in":3600}`
	}
	if _, err := ls.client(t, ls.m2m(t), 0).File(context.Background(), 7); err != nil || ls.tokenRequests.Load() != 3 {
		t.Fatalf("after two 503s: %v, %d token requests", err, ls.tokenRequests.Load())
	}
}

func TestCachedTokenRefusedIsRenewedOnce(t *testing.T) {
	// tok-1 works for the first call, then NetSuite stops taking it (an
	// early expiry): the client drops it and goes on with tok-2.
	ls := newLoginServer(t)
	var revoked atomic.Bool
	ls.api = func(h string) bool { return h != "Bearer tok-1" || !revoked.Load() }
	c := ls.client(t, ls.m2m(t), 0)
	if _, err := c.File(context.Background(), 7); err != nil {
		t.Fatal(err)
	}
	revoked.Store(true)
	if _, err := c.File(context.Background(), 7); err != nil {
		t.Fatalf("with a revoked cached token: %v", err)
	}
	if _, err := c.File(context.Background(), 7); err != nil {
		t.Fatal(err)
	}
	ls.mu.Lock()
	seen := strings.Join(ls.authorizationsSeen, ",")
	ls.mu.Unlock()
	if want := "Bearer tok-1,Bearer tok-1,Bearer tok-2,Bearer tok-2"; seen != want || ls.tokenRequests.Load() != 2 {
		t.Fatalf("authorizations %s, %d token requests; want %s and 2", seen, ls.tokenRequests.Load(), want)
	}

	// When the new token is refused too, that is final: two API
	// requests, one renewal, no retry.
	ls = newLoginServer(t)
	revoked.Store(false)
	ls.api = func(string) bool { return !revoked.Load() }
	c = ls.client(t, ls.m2m(t), 0)
	if _, err := c.File(context.Background(), 7); err != nil {
		t.Fatal(err)
	}
	revoked.Store(true)
	_, err := c.File(context.Background(), 7)
	wantRefusal(t, err, http.StatusUnauthorized, "INVALID_LOGIN")
	if ls.apiRequests.Load() != 3 || ls.tokenRequests.Load() != 2 {
		t.Fatalf("%d API requests, %d token requests; want 3 and 2", ls.apiRequests.Load(), ls.tokenRequests.Load())
	}

	// A token fetched for the request and refused at once is not
	// renewed: the role cannot log in with it.
	ls = newLoginServer(t)
	ls.api = func(string) bool { return false }
	_, err = ls.client(t, ls.m2m(t), 0).File(context.Background(), 7)
	wantRefusal(t, err, http.StatusUnauthorized, "INVALID_LOGIN")
	if ls.apiRequests.Load() != 1 || ls.tokenRequests.Load() != 1 {
		t.Fatalf("%d API requests, %d token requests; want 1 and 1", ls.apiRequests.Load(), ls.tokenRequests.Load())
	}
}

func TestAResentNonceIsNotARefusal(t *testing.T) {
	// The second call's connection closes after NetSuite read (and spent)
	// its nonce; net/http resends the GET as it was, and NetSuite refuses
	// the nonce. That says nothing of the credentials: the client signs
	// the request afresh and goes on.
	ls := newLoginServer(t)
	var mu sync.Mutex
	nonces := map[string]bool{}
	calls := 0
	ls.api = func(h string) bool {
		_, rest, _ := strings.Cut(h, `oauth_nonce="`)
		nonce, _, _ := strings.Cut(rest, `"`)
		mu.Lock()
		defer mu.Unlock()
		seen := nonces[nonce]
		nonces[nonce] = true
		return !seen
	}
	inner := ls.srv.Config.Handler
	ls.srv.Config.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		calls++
		drop := calls == 2
		mu.Unlock()
		if drop {
			ls.api(r.Header.Get("Authorization")) // spends the nonce
			conn, _, err := http.NewResponseController(w).Hijack()
			if err == nil {
				conn.Close()
			}
			return
		}
		inner.ServeHTTP(w, r)
	})
	tba := netsuite.TBA{Account: testAccount, ConsumerKey: "ck", ConsumerSecret: "cs", TokenID: "tid", TokenSecret: "ts"}
	c := ls.client(t, tba, 0)
	for i := range 2 {
		if _, err := c.File(context.Background(), 7); err != nil {
			t.Fatalf("call %d: %v", i+1, err)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if calls != 4 || ls.apiRequests.Load() != 3 {
		t.Fatalf("%d requests, %d answered; want 4: ok, dropped, resent and refused, signed afresh", calls, ls.apiRequests.Load())
	}
}

// A record's sublists come in whole and by name (expandSubResources): a
// vendor bill's expense lines read back under the registry's Expenses
// tab, its item lines under Items, with no mapping of either.
func TestFetchBringsABillsExpenseLines(t *testing.T) {
	fake, c := account(t, 0, 1000, 2)
	k, _ := records.Lookup("vendorbill")
	id, err := fake.Put("vendorBill", netsuitetest.Record{Fields: map[string]any{
		"tranId": "BILL-1", "memo": "Channel work", "total": 1750.25, "status": map[string]any{"id": "2"},
		"item": []any{map[string]any{"line": 1, "item": map[string]any{"id": "3", "refName": "Coir log installation"},
			"quantity": 5, "rate": 50, "amount": 250}},
		"expense": []any{
			map[string]any{"line": 1, "account": map[string]any{"id": "2", "refName": "5200 Subcontractors"},
				"memo": "Grading and excavation", "amount": 1200.25, "department": map[string]any{"id": "3", "refName": "Field operations"}},
			map[string]any{"line": 2, "account": map[string]any{"id": "3", "refName": "5300 Equipment rental"}, "amount": 300},
		}}})
	if err != nil {
		t.Fatal(err)
	}
	r, err := c.Fetch(context.Background(), k, id)
	if err != nil {
		t.Fatal(err)
	}
	var cents int64
	got := map[string][]records.Row{}
	for _, tab := range k.Tabs {
		if tab.Source != records.TabLines {
			continue
		}
		_, rows := records.Sublist(r, tab)
		got[tab.Name] = rows
		for _, row := range rows {
			cents += int64(math.Round(row["amount"].(float64) * 100))
		}
	}
	if ex := got["expense"]; len(ex) != 2 || ex[0]["account"] != "5200 Subcontractors" || ex[0]["memo"] != "Grading and excavation" ||
		ex[1]["account"] != "5300 Equipment rental" {
		t.Errorf("expense lines %v", ex)
	}
	if it := got["item"]; len(it) != 1 || it[0]["item"] != "Coir log installation" {
		t.Errorf("item lines %v", it)
	}
	if r.Amount == nil || cents != *r.Amount {
		t.Errorf("lines add up to %d cents, the bill's amount is %v", cents, r.Amount)
	}
}

// A bill's approval: the pull reads its approval status and next approver
// (extra columns that are a list value and a reference) with their names;
// the portal's decision, written as the record API takes it, is read back
// with the status NetSuite moved and the next approver it cleared.
func TestABillsApprovalIsPulledAndDecided(t *testing.T) {
	fake, c := account(t, 0, 1000, 2)
	ctx := context.Background()
	k, _ := records.Lookup("vendorbill")
	pete, err := fake.Put("employee", netsuitetest.Record{Fields: map[string]any{"entityId": "Pete Manager", "email": "pete@acme.test"}})
	if err != nil {
		t.Fatal(err)
	}
	id, err := fake.Put("vendorBill", netsuitetest.Record{Fields: map[string]any{
		"tranId": "BILL-7", "memo": "Seedlings", "total": 120.5, "status": map[string]any{"id": "1"},
		"approvalStatus": map[string]any{"id": "1"}, "nextApprover": map[string]any{"id": strconv.FormatInt(pete, 10)}}})
	if err != nil {
		t.Fatal(err)
	}
	pull := func() records.Row {
		t.Helper()
		var row records.Row
		err := c.Changes(ctx, k, erp.Checkpoint{}, func(b erp.Batch) error {
			for _, r := range b.Records {
				if r.ID == id {
					row = k.Row(r, k.Columns([]string{"status", "approvalstatus", "nextapprover"}))
				}
			}
			return nil
		})
		if err != nil || row == nil {
			t.Fatalf("pull: %v %v", row, err)
		}
		return row
	}
	if row := pull(); row["approvalstatus"] != "Pending Approval" || row["nextapprover"] != (records.Ref{ID: pete, RefName: "Pete Manager"}) ||
		row["status"] != "Pending approval" {
		t.Fatalf("pending bill: %v", row)
	}
	testClock.Advance(time.Second)
	if err := c.Update(ctx, k, id, erp.Write{Fields: records.Input{"approvalstatus": "Approved"}, Key: "decision-1"}); err != nil {
		t.Fatal(err)
	}
	if row := pull(); row["approvalstatus"] != "Approved" || row["nextapprover"] != nil || row["status"] != "Open" {
		t.Fatalf("approved bill: %v", row)
	}
	// The read back after the write (the record API) says the same.
	r, err := c.Fetch(ctx, k, id)
	if row := k.Row(r, k.Columns([]string{"status", "approvalstatus", "nextapprover"})); err != nil ||
		row["approvalstatus"] != "Approved" || row["nextapprover"] != nil || row["status"] != "Open" {
		t.Fatalf("approved bill, read back: %v %v", row, err)
	}
	// Approved is final: NetSuite refuses a second decision, for good.
	err = c.Update(ctx, k, id, erp.Write{Fields: records.Input{"approvalstatus": "Rejected"}, Key: "decision-2"})
	if e, ok := errors.AsType[*erp.Error](err); !ok || !e.Permanent {
		t.Fatalf("rejecting an approved bill: %v", err)
	}
}
