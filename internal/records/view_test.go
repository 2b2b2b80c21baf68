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
	var names []string
	for _, c := range cols {
		names = append(names, c.Name+":"+string(c.Type))
	}
	if got := strings.Join(names, " "); got != "item:text description:text quantity:number rate:money amount:money" {
		t.Errorf("line columns = %s", got)
	}
	if amount := cols[len(cols)-1]; !amount.Summable || amount.Currency != BaseCurrency {
		t.Errorf("amount column = %+v, want summable in %s", amount, BaseCurrency)
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
