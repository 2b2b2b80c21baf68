package erpsync_test

import (
	"context"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/portico/portico/internal/erp/netsuitetest"
	"github.com/portico/portico/internal/erpsync"
	"github.com/portico/portico/internal/records"
	"github.com/portico/portico/internal/sqlstore"
)

// euroSchema is the default account made a euro company (currency 1,
// EUR) trading in dollars (2) and pounds (3), with a British subsidiary
// (2) in pounds under its root.
func euroSchema(t testing.TB) *netsuitetest.Schema {
	t.Helper()
	sc, err := netsuitetest.LoadSchema(netsuitetest.DefaultAccount)
	if err != nil {
		t.Fatal(err)
	}
	sc.Currencies = []netsuitetest.Currency{
		{ID: 1, Name: "Euro", Symbol: "EUR", DisplaySymbol: "€"},
		{ID: 2, Name: "US Dollar", Symbol: "USD", DisplaySymbol: "$", ExchangeRate: 0.92},
		{ID: 3, Name: "British Pound", Symbol: "GBP", DisplaySymbol: "£", ExchangeRate: 1.17},
	}
	sc.Subsidiaries = []netsuitetest.Subsidiary{{ID: 1, Name: "Riverbend GmbH", Currency: 1},
		{ID: 2, Name: "Riverbend UK Ltd", Parent: 1, Currency: 3}}
	return sc
}

// TestAEuroAccountsMoneyKeepsItsCurrency syncs a euro company, west and
// east of UTC: the store's base currency is the account's, a dollar
// invoice is in USD and a euro one in the base, a client of the British
// subsidiary has its balance in GBP, through pulls and fetches alike, and
// a currency changed in NetSuite arrives.
func TestAEuroAccountsMoneyKeepsItsCurrency(t *testing.T) {
	for _, tc := range []struct{ zone, format string }{{"America/Los_Angeles", ""}, {"Europe/Berlin", "DD/MM/YYYY"}} {
		t.Run(strings.ReplaceAll(tc.zone, "/", "_"), func(t *testing.T) {
			stores(t, func(t *testing.T, ten *sqlstore.Tenant) {
				ctx := context.Background()
				a := newAccountConfig(t, 30, netsuitetest.Config{Schema: euroSchema(t), Location: mustZone(t, tc.zone),
					DateFormat: tc.format}, zoneMapping(t, tc.zone))
				// The demo's invoices are in currency 1 (here EUR) or 2
				// (here USD); one more in pounds, and a British client.
				a.clock.Advance(time.Minute)
				for id, cur := range map[int64]string{1: "1", 2: "2", 3: "3"} {
					if err := a.fake.Update("invoice", id, map[string]any{"currency": map[string]any{"id": cur}}); err != nil {
						t.Fatal(err)
					}
				}
				if err := a.fake.Update("customer", 2, map[string]any{"subsidiary": map[string]any{"id": "2"}}); err != nil {
					t.Fatal(err)
				}
				eng := erpsync.New(a.connector(t, 1000), ten, erpsync.Options{Now: a.clock.Now})
				if err := eng.Pull(ctx, nil, true); err != nil {
					t.Fatal(err)
				}
				if base, err := ten.BaseCurrency(ctx); err != nil || base != "EUR" {
					t.Fatalf("the store's base currency: %q, %v", base, err)
				}
				want := func(kind string, id int64, cur string) {
					t.Helper()
					r, err := ten.Record(ctx, kind, id)
					if err != nil || r.Currency != cur {
						t.Errorf("%s %d: currency %q, want %q (%v)", kind, id, r.Currency, cur, err)
					}
				}
				want("invoice", 1, "")
				want("invoice", 2, "USD")
				want("invoice", 3, "GBP")
				want("customer", 2, "GBP")
				want("customer", 3, "")
				want("billing", 1, "")
				// Every invoice as the account has it.
				codes := map[string]string{"1": "", "2": "USD", "3": "GBP"}
				for _, inv := range a.fake.All("invoice") {
					cur, _ := inv.Fields["currency"].(map[string]any)
					want("invoice", inv.ID, codes[fmt.Sprint(cur["id"])])
				}
				// Fetched whole from the record API, the same.
				for _, id := range []int64{1, 2, 3} {
					if err := eng.EnrichNow(ctx, "invoice", id); err != nil {
						t.Fatal(err)
					}
				}
				want("invoice", 2, "USD")
				want("invoice", 3, "GBP")
				// The invoice list, as the API and its CSV answer it: each
				// row in its currency, the totals one per currency, each
				// what the account's own invoices add up to.
				sums := map[string]float64{}
				for _, inv := range a.fake.All("invoice") {
					cur, _ := inv.Fields["currency"].(map[string]any)
					total, _ := inv.Fields["total"].(float64)
					sums[codes[fmt.Sprint(cur["id"])]] += total
				}
				if sums[""] == 0 || sums["USD"] == 0 || sums["GBP"] == 0 {
					t.Fatalf("the account's invoices add up to %v: the test proves nothing", sums)
				}
				k, _ := records.Lookup("invoice")
				page, err := k.List(ctx, ten, k.BuiltInList(), records.ListRequest{Columns: "tranid,total", PageSize: "500", Totals: true}, records.Filter{})
				if err != nil {
					t.Fatal(err)
				}
				got := page.Totals["total"]
				if len(got) != len(sums) || *page.TotalsEstimated {
					t.Fatalf("totals %+v, want one per currency of %v", got, sums)
				}
				for _, u := range got {
					if math.Abs(u.Total-sums[u.Unit]) > 0.005 {
						t.Errorf("total in %q: %.2f, the account's invoices %.2f", u.Unit, u.Total, sums[u.Unit])
					}
				}
				err = k.Export(ctx, ten, k.BuiltInList(), records.ListRequest{Columns: "tranid,total"}, records.Filter{},
					func(records.ListConfig, []records.ColumnInfo) {}, func(row records.Row) {
						r, _ := ten.RecordSummary(ctx, "invoice", row["id"].(int64))
						if cur, _ := row[records.RowCurrency].(string); cur != r.Currency {
							t.Errorf("exported invoice %d: currency %q, stored %q", r.ID, cur, r.Currency)
						}
					})
				if err != nil {
					t.Fatal(err)
				}
				// Changed in NetSuite, it arrives.
				a.clock.Advance(time.Minute)
				if err := a.fake.Update("invoice", 2, map[string]any{"currency": map[string]any{"id": "1"}}); err != nil {
					t.Fatal(err)
				}
				a.clock.Advance(time.Minute)
				if err := eng.Pull(ctx, nil, false); err != nil {
					t.Fatal(err)
				}
				want("invoice", 2, "")
			})
		})
	}
}
