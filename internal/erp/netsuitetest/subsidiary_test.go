package netsuitetest_test

import (
	"net/http"
	"reflect"
	"testing"

	"github.com/portico/portico/internal/erp/netsuitetest"
)

// The root subsidiary's record (account.yaml's [16]-[18]): its body
// fields, its main address as a link unless expanded, the address read on
// its own; an account without subsidiaries has no such record.
func TestSubsidiaryRecord(t *testing.T) {
	f := newFixture(t, netsuitetest.Config{})
	base := f.srv.URL + netsuitetest.RecordPath
	doc := getRecord(t, f, netsuitetest.RecordPath+"subsidiary/1")
	if doc["id"] != "1" || doc["name"] != "Riverbend Ecological Services" || doc["legalName"] != "Riverbend Ecological Services, LLC" ||
		doc["federalIdNumber"] != "93-4416207" || doc["isInactive"] != false {
		t.Errorf("body fields: %v", doc)
	}
	if _, ok := doc["parent"]; ok {
		t.Errorf("the root has a parent: %v", doc["parent"])
	}
	if cur, _ := doc["currency"].(map[string]any); cur["id"] != "1" || cur["refName"] != "US Dollar" {
		t.Errorf("currency %v", doc["currency"])
	}
	link := map[string]any{"links": []any{map[string]any{"rel": "self", "href": base + "subsidiary/1/mainAddress"}}}
	if !reflect.DeepEqual(doc["mainAddress"], link) {
		t.Errorf("unexpanded main address %v, want its link", doc["mainAddress"])
	}
	want := map[string]any{"links": link["links"], "addressee": "Riverbend Ecological Services, LLC", "addr1": "2140 Riverbend Way",
		"addr2": "Suite 200", "city": "Eugene", "state": "OR", "zip": "97401", "country": "US", "addrPhone": "(541) 555-0142"}
	doc = getRecord(t, f, netsuitetest.RecordPath+"subsidiary/1?expandSubResources=true")
	if !reflect.DeepEqual(doc["mainAddress"], want) {
		t.Errorf("expanded main address\n got %v\nwant %v", doc["mainAddress"], want)
	}
	if got := getRecord(t, f, netsuitetest.RecordPath+"subsidiary/1/mainAddress"); !reflect.DeepEqual(got, want) {
		t.Errorf("the subrecord on its own\n got %v\nwant %v", got, want)
	}
	for _, p := range []string{"subsidiary/2", "subsidiary/x", "subsidiary/1/returnAddress"} {
		resp, body := f.mustDo("GET", netsuitetest.RecordPath+p, nil, nil)
		wantError(t, resp, body, http.StatusNotFound, "NONEXISTENT_ID")
	}

	sc, err := netsuitetest.LoadSchema(netsuitetest.DefaultAccount)
	if err != nil {
		t.Fatal(err)
	}
	sc.Subsidiaries = nil
	lean := newFixture(t, netsuitetest.Config{Schema: sc})
	resp, body := lean.mustDo("GET", netsuitetest.RecordPath+"subsidiary/1", nil, nil)
	wantError(t, resp, body, http.StatusNotFound, "NONEXISTENT_ID")
}
