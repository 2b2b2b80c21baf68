package records

import (
	"strings"
	"testing"
)

func TestLabelOf(t *testing.T) {
	for key, want := range map[string]string{
		"custrecord_res_pr_owner": "Owner", "lastModifiedDate": "Last modified", "isinactive": "Inactive",
		"permit_number": "Permit number", "custentity_res_acres": "Acres", "projectedenddate": "Projected end date",
	} {
		if got := labelOf(key); got != want {
			t.Errorf("labelOf(%q) = %q, want %q", key, got, want)
		}
	}
}

func TestSublist(t *testing.T) {
	rec := Record{Fields: []byte(`{"item":[
		{"line":1,"item":{"id":"3","refName":"Wetland survey"},"description":"Survey","quantity":2,"rate":100.5,"amount":201,"taxcode":{"id":"1","refName":"Exempt"}},
		{"line":2,"item":{"id":"4","refName":"Report"},"quantity":1,"amount":50}],
		"notes":[{"author":{"id":"7","refName":"Ada"},"text":"Called","tags":["x"]}]}`)}
	invoice, _ := Lookup("invoice")
	lines, ok := invoice.TabNamed("item")
	if !ok || lines.Source != TabLines {
		t.Fatalf("invoice item tab = %+v, %v; want a lines tab", lines, ok)
	}
	cols, rows := Sublist(rec, lines)
	if got := columnTypes(cols); got != "item:text description:text quantity:number rate:money amount:money" {
		t.Errorf("line columns = %s", got)
	}
	if amount := cols[len(cols)-1]; !amount.Summable || amount.Currency != "" {
		t.Errorf("amount column = %+v, want summable, in the record's currency", amount)
	}
	if len(rows) != 2 || rows[0]["item"] != "Wetland survey" || rows[0]["amount"] != 201.0 || rows[1]["description"] != nil {
		t.Errorf("line rows = %v", rows)
	}
	if _, shown := rows[0]["taxcode"]; shown {
		t.Errorf("an undeclared member is shown: %v", rows[0])
	}
	if _, shown := rows[0]["line"]; shown {
		t.Errorf("the line number is shown: %v", rows[0])
	}

	cols, rows = Sublist(rec, Tab{Name: "notes", Source: TabSublist})
	if len(cols) != 2 || cols[0].Name != "author" || cols[1].Name != "text" || rows[0]["author"] != "Ada" {
		t.Errorf("catch-all sublist = %v, %v; want author and text, by name, the author's refName", cols, rows)
	}
	if cols, rows = Sublist(Record{Fields: []byte(`{}`)}, lines); len(rows) != 0 || len(cols) != 5 {
		t.Errorf("no lines = %v, %v; want the declared columns and no rows", cols, rows)
	}
}

// A vendor bill has two lines tabs, its items and its expenses, in that
// order: a bill of expenses only shows them under Expenses, with the
// account's name and an amount column that totals.
func TestVendorBillExpenseLines(t *testing.T) {
	bill, _ := Lookup("vendorbill")
	var lines []string
	for _, tab := range bill.Tabs {
		if tab.Source == TabLines {
			lines = append(lines, tab.Name+":"+tab.Label)
		}
	}
	if got := strings.Join(lines, " "); got != "item:Items expense:Expenses" {
		t.Fatalf("vendor bill lines tabs = %s, want items then expenses", got)
	}
	expenses, _ := bill.TabNamed("expense")
	rec := Record{Fields: []byte(`{"expense":[
		{"line":1,"account":{"id":"2","refName":"5200 Subcontractors"},"memo":"Grading and excavation","amount":1200.25,"department":{"id":"3","refName":"Field operations"}},
		{"line":2,"account":{"id":"5","refName":"5500 Professional fees"},"amount":300}]}`)}
	cols, rows := Sublist(rec, expenses)
	if got := columnTypes(cols); got != "account:text memo:text amount:money" {
		t.Errorf("expense columns = %s", got)
	}
	if amount := cols[len(cols)-1]; !amount.Summable || amount.Currency != "" {
		t.Errorf("amount column = %+v, want summable, in the record's currency", amount)
	}
	for _, c := range cols[:len(cols)-1] {
		if c.Summable {
			t.Errorf("column %s is summable", c.Name)
		}
	}
	if len(rows) != 2 || rows[0]["account"] != "5200 Subcontractors" || rows[0]["memo"] != "Grading and excavation" ||
		rows[1]["account"] != "5500 Professional fees" || rows[1]["memo"] != nil {
		t.Errorf("expense rows = %v", rows)
	}
	var total float64
	for _, r := range rows {
		total += r["amount"].(float64)
	}
	if total != 1500.25 {
		t.Errorf("expenses total %v, want 1500.25", total)
	}
	if _, shown := rows[0]["department"]; shown {
		t.Errorf("an undeclared member is shown: %v", rows[0])
	}
	// The bill has no item lines: its Items tab is empty, not an error.
	items, _ := bill.TabNamed("item")
	if cols, rows := Sublist(rec, items); len(rows) != 0 || len(cols) != 5 {
		t.Errorf("items of a bill of expenses = %v, %v; want the declared columns and no rows", cols, rows)
	}
}

// columnTypes is "name:type" of each column, space-separated.
func columnTypes(cols []ColumnInfo) string {
	var names []string
	for _, c := range cols {
		names = append(names, c.Name+":"+string(c.Type))
	}
	return strings.Join(names, " ")
}
