package httpapi

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"strings"
	"testing"

	"github.com/portico/portico/internal/records"
)

// Money carries its currency end to end: /kinds names the tenant's base
// currency on every money field (the configured one until the ERP account
// gives its own), a record in another currency says so on its rows, its
// page and its CSV line, and totals are per currency, never one sum.
func TestMoneyCarriesItsCurrency(t *testing.T) {
	e, tok := recordsEnv(t)
	ctx := context.Background()
	ten := e.store.Tenant("acme")
	var kinds struct{ Data []map[string]any }
	base := func() string {
		t.Helper()
		if code := e.getJSON(t, tok, 10, "/api/v1/kinds", &kinds); code != 200 {
			t.Fatalf("kinds: %d", code)
		}
		for _, k := range kinds.Data {
			if k["name"] != "invoice" {
				continue
			}
			for _, f := range k["fields"].([]any) {
				if f := f.(map[string]any); f["name"] == "total" {
					cur, _ := f["currency"].(string)
					return cur
				}
			}
		}
		t.Fatal("no invoice total in /kinds")
		return ""
	}
	if got := base(); got != "USD" {
		t.Errorf("base currency before the ERP gives one: %q, want the configured default USD", got)
	}
	if err := ten.SetBaseCurrency(ctx, "EUR"); err != nil {
		t.Fatal(err)
	}
	if got := base(); got != "EUR" {
		t.Errorf("base currency: %q, want the account's EUR", got)
	}

	// Invoice 1 is in pounds.
	inv, err := ten.Record(ctx, "invoice", 1)
	if err != nil {
		t.Fatal(err)
	}
	inv.Currency, inv.ModifiedAt = "GBP", inv.ModifiedAt.Add(1000)
	if err := ten.PutRecords(ctx, []records.Record{inv}); err != nil {
		t.Fatal(err)
	}
	var view struct{ Data struct{ Currency string } }
	if code := e.getJSON(t, tok, 10, "/api/v1/netsuite/portal-record?type=invoice&id=1", &view); code != 200 || view.Data.Currency != "GBP" {
		t.Errorf("record page: %d, currency %q", code, view.Data.Currency)
	}
	var all listPage
	list := "/api/v1/netsuite/portal-list?type=invoice&pageSize=100&columns=memo,total,amountremaining&totals=true&count=true"
	if code := e.getJSON(t, tok, 10, list, &all); code != 200 {
		t.Fatalf("list: %d", code)
	}
	want := map[string]float64{}
	for _, r := range all.Data.Rows {
		cur, _ := r[records.RowCurrency].(string)
		if (r["id"].(float64) == 1) != (cur == "GBP") {
			t.Errorf("row %v: currency %q", r["id"], cur)
		}
		want[cur] += r["total"].(float64)
	}
	got := all.Data.Totals["total"]
	if len(got) != 2 || got[0].Unit != "" || got[1].Unit != "GBP" || abs(got[0].Total-want[""]) > 0.005 || abs(got[1].Total-want["GBP"]) > 0.005 {
		t.Errorf("totals %+v, want %v per currency", got, want)
	}
	// A list without money reads and says no currency.
	var plain listPage
	e.getJSON(t, tok, 10, "/api/v1/netsuite/portal-list?type=invoice&columns=memo", &plain)
	for _, r := range plain.Data.Rows {
		if _, ok := r[records.RowCurrency]; ok {
			t.Errorf("a row without money names a currency: %v", r)
		}
	}

	// The CSV says which currency each line's amounts are in.
	w := e.call("GET", list+"&format=csv", tok, 10, "")
	lines, err := csv.NewReader(strings.NewReader(w.Body.String())).ReadAll()
	if err != nil || len(lines) != 31 {
		t.Fatalf("csv: %d lines, %v", len(lines), err)
	}
	if h := lines[0]; h[len(h)-1] != "Currency" {
		t.Errorf("csv header %v", h)
	}
	currencies := map[string]int{}
	for _, l := range lines[1:] {
		currencies[l[len(l)-1]]++
	}
	if currencies["GBP"] != 1 || currencies["EUR"] != 29 {
		t.Errorf("csv currencies %v, want 1 GBP and 29 EUR", currencies)
	}
	// A report grouped by status sums per currency: the pounds are a row
	// of their own, which says its currency.
	byStatus := map[string]float64{}
	var full listPage
	e.getJSON(t, tok, 10, "/api/v1/netsuite/portal-list?type=invoice&pageSize=100&columns=status,total", &full)
	for _, r := range full.Data.Rows {
		key := r["status"].(string)
		if cur, _ := r[records.RowCurrency].(string); cur != "" {
			key += " (" + cur + ")"
		}
		byStatus[key] += r["total"].(float64)
	}
	code, body := e.postJSON(t, tok, 10, "POST", "/api/v1/reports/run?type=invoice", map[string]any{
		"name": "Invoiced by status", "columns": []string{"memo"}, "filter": "", "visibility": "private",
		"report": map[string]any{"groupBy": "status", "chart": "bar", "aggregates": []map[string]any{{"fn": "sum", "field": "total"}}}})
	var run reportRun
	if err := json.Unmarshal(body, &run); code != 200 || err != nil || len(run.Data.Rows) != len(byStatus) {
		t.Fatalf("report: %d %s, want %d groups %v", code, body, len(byStatus), byStatus)
	}
	for _, row := range run.Data.Rows {
		key := row["key"].(string)
		cur, _ := row[records.RowCurrency].(string)
		if abs(row["v0"].(float64)-byStatus[key]) > 0.005 || strings.HasSuffix(key, "(GBP)") != (cur == "GBP") {
			t.Errorf("report row %v, want %.2f", row, byStatus[key])
		}
	}

	// Credits are per credit type: every group says its type.
	code, body = e.postJSON(t, tok, 10, "POST", "/api/v1/reports/run?type=creditledger", map[string]any{
		"name": "Credits by transaction", "columns": []string{"name"}, "filter": "", "visibility": "private",
		"report": map[string]any{"groupBy": "custrecord_res_cl_type", "chart": "bar", "aggregates": []map[string]any{{"fn": "sum", "field": "custrecord_res_cl_credits"}}}})
	run = reportRun{}
	if err := json.Unmarshal(body, &run); code != 200 || err != nil || len(run.Data.Rows) == 0 {
		t.Fatalf("credits report: %d %s", code, body)
	}
	for _, row := range run.Data.Rows {
		if key := row["key"].(string); !strings.HasSuffix(key, ")") || row[records.RowCurrency] != nil {
			t.Errorf("credits group %v does not say its credit type", row)
		}
	}

	w = e.call("GET", "/api/v1/netsuite/portal-list?type=invoice&columns=memo,duedate&format=csv", tok, 10, "")
	if strings.Contains(strings.SplitN(w.Body.String(), "\n", 2)[0], "Currency") {
		t.Errorf("a CSV without money has a currency column: %s", w.Body)
	}
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}
