package netsuite_test

import (
	"context"
	"errors"
	"net/http/httptest"
	"strconv"
	"sync"
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
func account(t *testing.T, n int, pageSize, concurrency int) (*netsuitetest.Server, *netsuite.Client) {
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
		fake.Put("customer", netsuitetest.Record{Fields: map[string]any{"companyname": "Client " + strconv.Itoa(i),
			"entitystatus": map[string]any{"id": "2", "refName": "Active"}, "balance": float64(i) + 0.5}})
	}
	srv := httptest.NewServer(fake)
	t.Cleanup(srv.Close)
	c, err := netsuite.New(netsuite.Config{Account: testAccount, BaseURL: srv.URL, PageSize: pageSize,
		Concurrency: concurrency, Backoff: time.Millisecond,
		Auth: netsuite.TBA{Account: testAccount, ConsumerKey: "ck", ConsumerSecret: "cs", TokenID: "tid", TokenSecret: "ts", Now: testClock.Now}})
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
			fake.Update("customer", 3, map[string]any{"companyname": "Edited meanwhile"})
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
	if r := got[5]; r.Status != "Active" || r.Amount == nil || *r.Amount != 550 || r.Title != "Client 5" {
		t.Fatalf("converted record: %+v", r)
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
	fake, c := account(t, 10, 1000, 3)
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
	r, err := c.Fetch(ctx, k, id)
	if err != nil || r.Title != "New Co" || r.Status != "Prospect" || r.Amount == nil || *r.Amount != 1234 {
		t.Fatalf("read back: %+v %v", r, err)
	}
	if err := c.Update(ctx, k, id, erp.Write{Key: "key-2", Fields: records.Input{"companyname": "Renamed Co"}}); err != nil {
		t.Fatal(err)
	}
	if got, _ := fake.Get("customer", id); got.Fields["companyname"] != "Renamed Co" {
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
	fake, c := account(t, 30, 10, 2)
	testClock.Advance(time.Second)
	fake.Update("customer", 5, map[string]any{"balance": "twelve"})
	k, _ := records.Lookup("customer")
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
	// Only NetSuite's own dateCreated, a date-time: the day, in the account's zone.
	bare, _ := fake.Put("customer", netsuitetest.Record{Fields: map[string]any{"companyname": "Bare"}})
	// Both the promoted date field and dateCreated: the exact name wins.
	both, _ := fake.Put("customer", netsuitetest.Record{Fields: map[string]any{"companyname": "Both", "datecreated": "2020-05-06"}})
	for id, want := range map[int64]string{bare: testClock.Now().Format(time.DateOnly), both: "2020-05-06"} {
		r, err := c.Fetch(ctx, k, id)
		if err != nil || r.Date != want {
			t.Errorf("customer %d: date %q, want %q (%v)", id, r.Date, want, err)
		}
	}
}
