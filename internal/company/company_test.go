package company

import (
	"reflect"
	"strings"
	"testing"
)

func TestCleanPutsEveryValueOnOneTrimmedLine(t *testing.T) {
	got := Profile{
		Name:      "  Riverbend\tEcological\nServices ",
		LegalName: "Riverbend Ecological Services",
		Phone:     "(541) 555-0100\u202e",
		Email:     " billing@riverbend-eco.example ",
		Address: Address{
			Lines:   []string{"", "1200 Willamette St\nSuite 300", "  ", "Building B", "Dock 4"},
			City:    "Eugene",
			Region:  " OR",
			Country: "US\x00",
		},
	}.Clean()
	want := Profile{
		Name:  "Riverbend Ecological Services",
		Phone: "(541) 555-0100",
		Email: "billing@riverbend-eco.example",
		Address: Address{
			Lines:   []string{"1200 Willamette St", "Suite 300", "Building B, Dock 4"},
			City:    "Eugene",
			Region:  "OR",
			Country: "US",
		},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Clean:\n got %#v\nwant %#v", got, want)
	}
	if got.Letterhead() != "Riverbend Ecological Services" {
		t.Errorf("Letterhead = %q, want the name when the legal name is the same", got.Letterhead())
	}
}

func TestCleanCutsLongValuesAndKeepsTheLegalName(t *testing.T) {
	p := Profile{Name: "Riverbend", LegalName: "Riverbend Ecological Services, LLC", TaxID: strings.Repeat("9", MaxText+50)}.Clean()
	if n := len([]rune(p.TaxID)); n != MaxText {
		t.Errorf("tax id of %d characters, want %d", n, MaxText)
	}
	if p.Letterhead() != "Riverbend Ecological Services, LLC" {
		t.Errorf("Letterhead = %q, want the legal name", p.Letterhead())
	}
	if p.Address.Lines == nil || !p.Address.IsZero() {
		t.Errorf("an empty address cleans to no lines (not nil) and is zero: %#v", p.Address)
	}
}
