package netsuite_test

import (
	"context"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/portico/portico/internal/erp"
	"github.com/portico/portico/internal/erp/netsuite"
	"github.com/portico/portico/internal/erp/netsuitetest"
	"github.com/portico/portico/internal/portal"
	"github.com/portico/portico/internal/records"
)

// euroAccount is a fake euro company (currency 1, EUR) trading in dollars
// (2) and pounds (3); with subsidiaries, OneWorld: the root in euros, a
// British subsidiary (2) in pounds. It holds a euro invoice, a dollar
// invoice and one in pounds, a client of each subsidiary and a custom
// record, and returns the fake, a client of it and the ids in that
// order.
func euroAccount(t *testing.T, subsidiaries bool) (*netsuitetest.Server, *netsuite.Client, []int64) {
	t.Helper()
	return euroAccountMapped(t, subsidiaries, netsuite.DefaultMapping)
}

// euroAccountMapped is euroAccount read with the given mapping.
func euroAccountMapped(t *testing.T, subsidiaries bool, mapping []byte) (*netsuitetest.Server, *netsuite.Client, []int64) {
	t.Helper()
	m, err := netsuite.ParseMapping(mapping)
	if err != nil {
		t.Fatal(err)
	}
	sc, err := netsuitetest.LoadSchema(netsuitetest.DefaultAccount)
	if err != nil {
		t.Fatal(err)
	}
	sc.Currencies = []netsuitetest.Currency{
		{ID: 1, Name: "Euro", Symbol: "EUR", Base: true},
		{ID: 2, Name: "US Dollar", Symbol: "USD"},
		{ID: 3, Name: "British Pound", Symbol: "GBP"},
	}
	sc.Subsidiaries = nil
	if subsidiaries {
		sc.Subsidiaries = []netsuitetest.Subsidiary{{ID: 1, Name: "Riverbend GmbH", Currency: 1},
			{ID: 2, Name: "Riverbend UK Ltd", Parent: 1, Currency: 3}}
	}
	fake, err := netsuitetest.New(netsuitetest.Config{Schema: sc, Concurrency: 50, Now: testClock.Now,
		TBA: &netsuitetest.TBAVerifier{Realm: netsuite.Realm(testAccount), Lookup: func(ck, tid string) (string, string, bool) {
			return "cs", "ts", ck == "ck" && tid == "tid"
		}}})
	if err != nil {
		t.Fatal(err)
	}
	sub := func(id string) map[string]any {
		if !subsidiaries {
			return nil
		}
		return map[string]any{"id": id}
	}
	var ids []int64
	put := func(typ string, fields map[string]any) {
		t.Helper()
		for k, v := range fields {
			if v == nil {
				delete(fields, k)
			}
		}
		id, err := fake.Put(typ, netsuitetest.Record{Fields: fields})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, id)
	}
	for _, cur := range []string{"1", "2", "3"} {
		put("invoice", map[string]any{"memo": "Survey in " + cur, "tranId": "INV-" + cur, "total": 1000.25,
			"currency": map[string]any{"id": cur}, "subsidiary": sub("1")})
	}
	put("customer", map[string]any{"companyName": "Auwald GmbH", "balance": 10.5, "subsidiary": sub("1"),
		"currency": map[string]any{"id": "2"}}) // a dollar client of the euro subsidiary
	put("customer", map[string]any{"companyName": "Fen Ltd", "balance": 20.5, "subsidiary": sub("2")})
	put("customrecord_res_billing", map[string]any{"name": "Milestone 1", "custrecord_res_bil_amount": 500.0})
	srv := httptest.NewServer(fake)
	t.Cleanup(srv.Close)
	c, err := netsuite.New(netsuite.Config{Account: testAccount, BaseURL: srv.URL, Backoff: time.Millisecond, Mapping: m,
		Auth: netsuite.TBA{Account: testAccount, ConsumerKey: "ck", ConsumerSecret: "cs", TokenID: "tid", TokenSecret: "ts", Now: testClock.Now}})
	if err != nil {
		t.Fatal(err)
	}
	return fake, c, ids
}

// currencies pulls kind and returns each record's Currency by id.
func currencies(t *testing.T, c *netsuite.Client, kind string) map[int64]string {
	t.Helper()
	k, _ := records.Lookup(kind)
	out := map[int64]string{}
	err := c.Changes(context.Background(), k, erp.Checkpoint{}, func(b erp.Batch) error {
		for _, r := range b.Records {
			out[r.ID] = r.Currency
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestMoneyInItsOwnCurrency: a euro company's base currency is EUR; a
// dollar invoice's money is in USD, a euro invoice's in the base (""); a
// client's balance in its subsidiary's base currency; a custom record's
// in the base; the same through SuiteQL and the record API.
func TestMoneyInItsOwnCurrency(t *testing.T) {
	ctx := context.Background()
	for _, oneWorld := range []bool{true, false} {
		name := "OneWorld"
		if !oneWorld {
			name = "without subsidiaries"
		}
		t.Run(name, func(t *testing.T) {
			fake, c, ids := euroAccount(t, oneWorld)
			base, err := c.BaseCurrency(ctx)
			if err != nil || base != "EUR" {
				t.Fatalf("base currency %q, %v; want EUR", base, err)
			}
			before := fake.Stats().Requests
			if base, err := c.BaseCurrency(ctx); err != nil || base != "EUR" || fake.Stats().Requests != before {
				t.Errorf("again: %q, %v, %d requests: the tables are kept for a while", base, err, fake.Stats().Requests-before)
			}
			fen := "GBP" // the British subsidiary's client
			if !oneWorld {
				fen = ""
			}
			want := map[string]map[int64]string{
				"invoice":  {ids[0]: "", ids[1]: "USD", ids[2]: "GBP"},
				"customer": {ids[3]: "", ids[4]: fen},
				"billing":  {ids[5]: ""},
			}
			for kind, w := range want {
				got := currencies(t, c, kind)
				k, _ := records.Lookup(kind)
				for id, cur := range w {
					if got[id] != cur {
						t.Errorf("%s %d through SuiteQL: currency %q, want %q", kind, id, got[id], cur)
					}
					r, err := c.Fetch(ctx, k, id)
					if err != nil || r.Currency != cur {
						t.Errorf("%s %d through the record API: currency %q, want %q (%v)", kind, id, r.Currency, cur, err)
					}
				}
			}
			rep, err := c.Check(ctx)
			if err != nil {
				t.Fatal(err)
			}
			r := result(t, rep, "", "currencies")
			if r.Status != netsuite.CheckOK || !strings.HasPrefix(r.Note, "base currency EUR") || !strings.Contains(r.Note, "EUR, GBP, USD") {
				t.Errorf("check: %+v", r)
			}
		})
	}
}

// TestAnAccountWithoutCurrencies: without a currency table every amount
// is in the one currency the portal is configured with; BaseCurrency
// says the account cannot tell it, and the check warns.
func TestAnAccountWithoutCurrencies(t *testing.T) {
	ctx := context.Background()
	sc, err := netsuitetest.LoadSchema(netsuitetest.DefaultAccount)
	if err != nil {
		t.Fatal(err)
	}
	sc.Currencies, sc.Subsidiaries = nil, nil
	fake, err := netsuitetest.New(netsuitetest.Config{Schema: sc, Now: testClock.Now,
		TBA: &netsuitetest.TBAVerifier{Realm: netsuite.Realm(testAccount), Lookup: func(ck, tid string) (string, string, bool) {
			return "cs", "ts", ck == "ck" && tid == "tid"
		}}})
	if err != nil {
		t.Fatal(err)
	}
	id, err := fake.Put("invoice", netsuitetest.Record{Fields: map[string]any{"memo": "Survey", "tranId": "INV-1", "total": 10.0,
		"currency": map[string]any{"id": "2"}}})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(fake)
	t.Cleanup(srv.Close)
	c := checkClient(t, srv.URL, netsuite.DefaultMapping, "cs")
	if _, err := c.BaseCurrency(ctx); !erp.IsNotInAccount(err) {
		t.Errorf("base currency without a currency table: %v", err)
	}
	if got := currencies(t, c, "invoice"); got[id] != "" {
		t.Errorf("invoice currency %q, want the base (\"\")", got[id])
	}
	rep, err := c.Check(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if r := result(t, rep, "", "currencies"); r.Status != netsuite.CheckWarning {
		t.Errorf("check: %+v", r)
	}
}

// TestFetchOfARecordSuiteQLLacks: a record the record API has but
// SuiteQL does not (here: not under the mapping's condition) is not
// found, and costs one request, SuiteQL's: neither the document nor the
// currency tables are read for it (the account's concurrency limit is
// shared). Before, it cost 4 requests and was an error, not not-found.
func TestFetchOfARecordSuiteQLLacks(t *testing.T) {
	mapping := strings.Replace(string(netsuite.DefaultMapping), "where: type = 'CustInvc'", "where: type = 'CashSale'", 1)
	fake, c, ids := euroAccountMapped(t, true, []byte(mapping))
	k, _ := records.Lookup("invoice")
	before := fake.Stats().Served
	_, err := c.Fetch(context.Background(), k, ids[1])
	if !portal.IsNotFound(err) {
		t.Errorf("fetch of an invoice SuiteQL does not have under the mapping: %v, want not found", err)
	}
	if n := fake.Stats().Served - before; n != 1 {
		t.Errorf("%d requests, want 1 (SuiteQL's last-modified time only)", n)
	}
}

// TestACopiedMappingWithoutMoneyEntries: an account read with a mapping
// copied before it had currency and subsidiary entries places each
// amount in its currency all the same (a dollar invoice in USD, a client
// of the British subsidiary in GBP). Before the mapping's defaults, the
// three foreign amounts here were taken to be in the base currency, and
// nothing said so.
func TestACopiedMappingWithoutMoneyEntries(t *testing.T) {
	_, c, ids := euroAccountMapped(t, true, withoutMoneyEntries(t))
	want := map[string]map[int64]string{
		"invoice":  {ids[0]: "", ids[1]: "USD", ids[2]: "GBP"},
		"customer": {ids[3]: "", ids[4]: "GBP"},
	}
	wrong := 0
	for kind, w := range want {
		got := currencies(t, c, kind)
		k, _ := records.Lookup(kind)
		for id, cur := range w {
			r, err := c.Fetch(context.Background(), k, id)
			if got[id] != cur || err != nil || r.Currency != cur {
				wrong++
				t.Errorf("%s %d: currency %q through SuiteQL, %q through the record API (%v); want %q", kind, id, got[id], r.Currency, err, cur)
			}
		}
	}
	t.Logf("%d of 5 records in the wrong currency", wrong)
}
