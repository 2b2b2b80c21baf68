package netsuitetest_test

import (
	"reflect"
	"strconv"
	"testing"

	"github.com/portico/portico/internal/erp/netsuitetest"
)

// euroSchema is the default account made a euro company with a British
// subsidiary, trading in dollars and pounds too.
func euroSchema(t *testing.T, subsidiaries bool) *netsuitetest.Schema {
	t.Helper()
	sc, err := netsuitetest.LoadSchema(netsuitetest.DefaultAccount)
	if err != nil {
		t.Fatal(err)
	}
	sc.Currencies = []netsuitetest.Currency{
		{ID: 1, Name: "Euro", Symbol: "EUR", DisplaySymbol: "€", ExchangeRate: 1, Base: true},
		{ID: 2, Name: "US Dollar", Symbol: "USD", DisplaySymbol: "$", ExchangeRate: 0.92},
		{ID: 3, Name: "British Pound", Symbol: "GBP", DisplaySymbol: "£", ExchangeRate: 1.17},
	}
	sc.Subsidiaries = nil
	if subsidiaries {
		sc.Subsidiaries = []netsuitetest.Subsidiary{
			{ID: 1, Name: "Riverbend GmbH", Currency: 1},
			{ID: 2, Name: "Riverbend UK Ltd", Parent: 1, Currency: 3},
		}
	}
	return sc
}

// TestCurrencyAndSubsidiaryTables: SuiteQL's currency and subsidiary
// tables (account.yaml's [9], [10]), and the references records make to
// them.
func TestCurrencyAndSubsidiaryTables(t *testing.T) {
	f := newFixture(t, netsuitetest.Config{Schema: euroSchema(t, true)})
	got := f.mustQuery(`SELECT id, name, symbol, displaysymbol, isbasecurrency, isinactive FROM currency ORDER BY id`, 1000, 0).Rows
	want := []map[string]string{
		{"id": "1", "name": "Euro", "symbol": "EUR", "displaysymbol": "€", "isbasecurrency": "T", "isinactive": "F"},
		{"id": "2", "name": "US Dollar", "symbol": "USD", "displaysymbol": "$", "isbasecurrency": "F", "isinactive": "F"},
		// A subsidiary's base currency is a base currency.
		{"id": "3", "name": "British Pound", "symbol": "GBP", "displaysymbol": "£", "isbasecurrency": "T", "isinactive": "F"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("currencies\n got %v\nwant %v", got, want)
	}
	got = f.mustQuery(`SELECT id, name, parent, BUILTIN.DF(parent) AS parentname, currency, BUILTIN.DF(currency) AS cur FROM subsidiary WHERE isinactive = 'F' ORDER BY id`, 1000, 0).Rows
	want = []map[string]string{
		{"id": "1", "name": "Riverbend GmbH", "currency": "1", "cur": "Euro"},
		{"id": "2", "name": "Riverbend UK Ltd", "parent": "1", "parentname": "Riverbend GmbH", "currency": "3", "cur": "British Pound"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("subsidiaries\n got %v\nwant %v", got, want)
	}
	if status, _, body := f.query(`SELECT id, code FROM currency`, 1000, 0); status != 400 {
		t.Errorf("an unknown column of currency: %d %s", status, body)
	}

	// A transaction in dollars, of the British subsidiary.
	id, err := f.fake.Put("invoice", netsuitetest.Record{Fields: map[string]any{"memo": "Survey", "tranId": "INV-1",
		"total": 1200.5, "currency": map[string]any{"id": "2"}, "subsidiary": map[string]any{"id": "2"}}})
	if err != nil {
		t.Fatal(err)
	}
	got = f.mustQuery(`SELECT id, currency, BUILTIN.DF(currency) AS cur, subsidiary, foreigntotal FROM transaction WHERE type = 'CustInvc'`, 1000, 0).Rows
	want = []map[string]string{{"id": "1", "currency": "2", "cur": "US Dollar", "subsidiary": "2", "foreigntotal": "1200.5"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("the invoice\n got %v\nwant %v", got, want)
	}
	doc := getRecord(t, f, netsuitetest.RecordPath+"invoice/"+strconv.FormatInt(id, 10))
	if cur, _ := doc["currency"].(map[string]any); cur["refName"] != "US Dollar" {
		t.Errorf("record API currency: %v", doc["currency"])
	}

	// Without OneWorld: no subsidiary table, the base currency marked.
	f = newFixture(t, netsuitetest.Config{Schema: euroSchema(t, false)})
	if status, _, body := f.query(`SELECT id FROM subsidiary`, 1000, 0); status != 400 {
		t.Errorf("subsidiary table of an account without subsidiaries: %d %s", status, body)
	}
	got = f.mustQuery(`SELECT symbol FROM currency WHERE isbasecurrency = 'T'`, 1000, 0).Rows
	if !reflect.DeepEqual(got, []map[string]string{{"symbol": "EUR"}}) {
		t.Errorf("base currency without subsidiaries: %v", got)
	}
	// A subsidiary tree needs one root and currencies it names.
	bad := euroSchema(t, true)
	bad.Subsidiaries[0].Parent = 2
	if _, err := netsuitetest.New(netsuitetest.Config{Schema: bad}); err == nil {
		t.Error("a subsidiary tree without a root accepted")
	}
}
