package netsuitetest_test

import (
	"context"
	"net/http"
	"reflect"
	"strconv"
	"testing"
	"time"

	"github.com/portico/portico/internal/erp/netsuitetest"
	"github.com/portico/portico/internal/records"
)

// billsFixture is an account with an approver (employee 1, Pete
// Manager), a vendor, two bills pending approval with him as their next
// approver, and a bill that was approved and has since been paid.
func billsFixture(t *testing.T) (f *fixture, pending1, pending2, paid int64) {
	t.Helper()
	f = newFixture(t, netsuitetest.Config{})
	put := func(typ string, fields map[string]any) int64 {
		t.Helper()
		id, err := f.fake.Put(typ, netsuitetest.Record{Fields: fields})
		if err != nil {
			t.Fatal(err)
		}
		return id
	}
	emp := put("employee", map[string]any{"entityId": "Pete Manager"})
	vendor := put("vendor", map[string]any{"companyName": "Delta Nursery"})
	bill := func(tranID, status, approval string, approver bool) int64 {
		fields := map[string]any{"tranId": tranID, "entity": map[string]any{"id": strconv.FormatInt(vendor, 10)},
			"status": map[string]any{"id": status}, "approvalStatus": map[string]any{"id": approval}}
		if approver {
			fields["nextApprover"] = map[string]any{"id": strconv.FormatInt(emp, 10)}
		}
		return put("vendorBill", fields)
	}
	return f, bill("BILL-1", "1", "1", true), bill("BILL-2", "1", "1", true), bill("BILL-3", "3", "2", false)
}

// billPath is a vendor bill's record API path, spelled as NetSuite's
// approval example spells it (account.yaml's [11]).
func billPath(id int64) string {
	return netsuitetest.RecordPath + "vendorbill/" + strconv.FormatInt(id, 10)
}

// listValue is a list value as GET record shows it.
func listValue(id, text string) map[string]any {
	return map[string]any{"id": id, "refName": text, "links": []any{}}
}

// NetSuite's example approves a bill with PATCH {"approvalstatus": 2}
// [11]: the bill reads back Approved and Open [15], without a next
// approver [13][A]; the approver's other bill is untouched.
func TestVendorBillApprove(t *testing.T) {
	f, bill, other, _ := billsFixture(t)
	f.clock.Advance(time.Minute)
	resp, raw := f.mustDo("PATCH", billPath(bill), map[string]any{"approvalstatus": 2}, nil)
	if resp.StatusCode != http.StatusNoContent {
		t.Fatalf("approve: %d %s", resp.StatusCode, raw)
	}
	doc := getRecord(t, f, billPath(bill))
	if want := listValue("2", "Approved"); !reflect.DeepEqual(doc["approvalStatus"], want) {
		t.Errorf("approvalStatus %v, want %v", doc["approvalStatus"], want)
	}
	if want := listValue("2", "Open"); !reflect.DeepEqual(doc["status"], want) {
		t.Errorf("status %v, want %v", doc["status"], want)
	}
	if _, ok := doc["nextApprover"]; ok {
		t.Errorf("an approved bill keeps its next approver %v", doc["nextApprover"])
	}
	if doc["lastModifiedDate"] != "2026-11-22T07:01:00Z" {
		t.Errorf("lastModifiedDate %v", doc["lastModifiedDate"])
	}
	doc = getRecord(t, f, billPath(other))
	base := f.srv.URL + netsuitetest.RecordPath
	wantNext := map[string]any{"id": "1", "refName": "Pete Manager",
		"links": []any{map[string]any{"rel": "self", "href": base + "employee/1"}}}
	if !reflect.DeepEqual(doc["nextApprover"], wantNext) || !reflect.DeepEqual(doc["approvalStatus"], listValue("1", "Pending Approval")) {
		t.Errorf("the other bill: next approver %v, approval %v", doc["nextApprover"], doc["approvalStatus"])
	}
}

// Rejecting a bill makes it Rejected [15] and clears its next approver
// [A]; a rejected bill may still be approved later ([12] holds only for
// approved bills).
func TestVendorBillReject(t *testing.T) {
	f, bill, _, _ := billsFixture(t)
	resp, raw := f.mustDo("PATCH", billPath(bill), map[string]any{"approvalStatus": map[string]any{"id": "3"}}, nil)
	if resp.StatusCode != http.StatusNoContent {
		t.Fatalf("reject: %d %s", resp.StatusCode, raw)
	}
	doc := getRecord(t, f, billPath(bill))
	if !reflect.DeepEqual(doc["approvalStatus"], listValue("3", "Rejected")) || !reflect.DeepEqual(doc["status"], listValue("4", "Rejected")) {
		t.Errorf("rejected bill: approval %v, status %v", doc["approvalStatus"], doc["status"])
	}
	if _, ok := doc["nextApprover"]; ok {
		t.Errorf("a rejected bill keeps its next approver %v", doc["nextApprover"])
	}
	resp, raw = f.mustDo("PATCH", billPath(bill), map[string]any{"approvalstatus": 2}, nil)
	if resp.StatusCode != http.StatusNoContent {
		t.Fatalf("approve after rejecting: %d %s", resp.StatusCode, raw)
	}
	if doc := getRecord(t, f, billPath(bill)); !reflect.DeepEqual(doc["status"], listValue("2", "Open")) {
		t.Errorf("approved after rejection: status %v", doc["status"])
	}
}

// An approved bill's approval status cannot change [12]: deciding it
// again is refused with USER_ERROR and changes nothing, not even its
// last-modified time. Setting the value it has is no change, and leaves
// a paid bill paid. An approval status outside the list is refused as
// any bad list value is.
func TestVendorBillApprovedIsFinal(t *testing.T) {
	f, bill, pending, paid := billsFixture(t)
	if resp, raw := f.mustDo("PATCH", billPath(bill), map[string]any{"approvalstatus": 2}, nil); resp.StatusCode != http.StatusNoContent {
		t.Fatalf("approve: %d %s", resp.StatusCode, raw)
	}
	before, _ := f.fake.Get("vendorBill", bill)
	f.clock.Advance(time.Minute)
	for _, body := range []map[string]any{
		{"approvalstatus": 3},
		{"approvalStatus": map[string]any{"id": "1"}},
		{"approvalStatus": nil},
		{"approvalstatus": 3, "memo": "changed"},
	} {
		resp, raw := f.mustDo("PATCH", billPath(bill), body, nil)
		if e := wantError(t, resp, raw, http.StatusBadRequest, "USER_ERROR"); e.Details[0].Path != "approvalStatus" {
			t.Errorf("%v: error path %q", body, e.Details[0].Path)
		}
	}
	if err := f.fake.Update("vendorBill", bill, map[string]any{"approvalstatus": map[string]any{"id": "3"}}); err == nil {
		t.Error("Update re-decided an approved bill")
	}
	if after, _ := f.fake.Get("vendorBill", bill); !reflect.DeepEqual(after, before) {
		t.Errorf("a refused change changed the bill:\n%+v\nwas\n%+v", after, before)
	}

	if resp, raw := f.mustDo("PATCH", billPath(paid), map[string]any{"approvalstatus": 2, "memo": "checked"}, nil); resp.StatusCode != http.StatusNoContent {
		t.Fatalf("the same approval status again: %d %s", resp.StatusCode, raw)
	}
	if doc := getRecord(t, f, billPath(paid)); !reflect.DeepEqual(doc["status"], listValue("3", "Paid in full")) || doc["memo"] != "checked" {
		t.Errorf("paid bill after an unchanged approval status: status %v, memo %v", doc["status"], doc["memo"])
	}

	for _, v := range []any{9, "2", map[string]any{"id": "0"}, true} {
		resp, raw := f.mustDo("PATCH", billPath(pending), map[string]any{"approvalStatus": v}, nil)
		if e := wantError(t, resp, raw, http.StatusBadRequest, "USER_ERROR"); e.Details[0].Path != "approvalStatus" {
			t.Errorf("%v: error path %q", v, e.Details[0].Path)
		}
	}
}

// A bill created with an approval status gets the status it stands for,
// and without a next approver when it is already decided; Update, an
// edit made in NetSuite, follows the same rules.
func TestVendorBillApprovalOnCreateAndUpdate(t *testing.T) {
	f, pending, _, _ := billsFixture(t)
	create := func(body map[string]any) map[string]any {
		t.Helper()
		resp, raw := f.mustDo("POST", netsuitetest.RecordPath+"vendorBill", body, nil)
		if resp.StatusCode != http.StatusNoContent {
			t.Fatalf("create: %d %s", resp.StatusCode, raw)
		}
		return getRecord(t, f, pathOf(t, resp.Header.Get("Location")))
	}
	doc := create(map[string]any{"tranId": "BILL-9", "status": map[string]any{"id": "2"},
		"approvalStatus": map[string]any{"id": "1"}, "nextApprover": map[string]any{"id": "1"}})
	if !reflect.DeepEqual(doc["status"], listValue("1", "Pending approval")) || doc["nextApprover"] == nil {
		t.Errorf("created pending: status %v, next approver %v", doc["status"], doc["nextApprover"])
	}
	doc = create(map[string]any{"tranId": "BILL-10", "approvalstatus": 2, "nextapprover": map[string]any{"id": "1"}})
	if !reflect.DeepEqual(doc["status"], listValue("2", "Open")) || doc["nextApprover"] != nil {
		t.Errorf("created approved: status %v, next approver %v", doc["status"], doc["nextApprover"])
	}
	if doc := create(map[string]any{"tranId": "BILL-11", "memo": "no approval"}); doc["status"] != nil || doc["approvalStatus"] != nil {
		t.Errorf("created without an approval status: status %v, approval %v", doc["status"], doc["approvalStatus"])
	}

	if err := f.fake.Update("vendorBill", pending, map[string]any{"approvalstatus": map[string]any{"id": "3"}}); err != nil {
		t.Fatal(err)
	}
	r, _ := f.fake.Get("vendorBill", pending)
	if st, _ := r.Fields["status"].(map[string]any); st["id"] != "4" || r.Fields["nextApprover"] != nil {
		t.Errorf("rejected through Update: %v", r.Fields)
	}
}

// SuiteQL reads the approval on the transaction table: approvalstatus and
// nextapprover are internal ids like any list or reference column (a
// cleared next approver is absent), BUILTIN.DF their names [1][11][14].
func TestSuiteQLVendorBillApproval(t *testing.T) {
	f, bill, other, paid := billsFixture(t)
	if resp, raw := f.mustDo("PATCH", billPath(bill), map[string]any{"approvalstatus": 2}, nil); resp.StatusCode != http.StatusNoContent {
		t.Fatalf("approve: %d %s", resp.StatusCode, raw)
	}
	id := func(n int64) string { return strconv.FormatInt(n, 10) }
	got := f.mustQuery("SELECT id, approvalstatus, nextapprover, status FROM transaction WHERE type = 'VendBill' ORDER BY id", 1000, 0).Rows
	want := []map[string]string{
		{"id": id(bill), "approvalstatus": "2", "status": "2"},
		{"id": id(other), "approvalstatus": "1", "nextapprover": "1", "status": "1"},
		{"id": id(paid), "approvalstatus": "2", "status": "3"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("bills %v\nwant %v", got, want)
	}
	q := "SELECT id, BUILTIN.DF(approvalstatus) AS approval, BUILTIN.DF(nextapprover) AS approver, BUILTIN.DF(status) AS status " +
		"FROM transaction WHERE type = 'VendBill' AND approvalstatus = 1"
	want = []map[string]string{{"id": id(other), "approval": "Pending Approval", "approver": "Pete Manager", "status": "Pending approval"}}
	if got := f.mustQuery(q, 1000, 0).Rows; !reflect.DeepEqual(got, want) {
		t.Errorf("pending bills %v\nwant %v", got, want)
	}
}

// The demo generator's bills load as they are, their approval status a
// list value and their next approver a reference to an employee
// ({"id", "refName"}, in lower case as the generator writes them).
func TestPutRecordsBillApproval(t *testing.T) {
	f := newFixture(t, netsuitetest.Config{})
	now := start.Add(-time.Hour)
	err := f.fake.PutRecords(context.Background(), []records.Record{
		{Kind: "employee", ID: 2, Title: "Pete Manager", ModifiedAt: now, Fields: []byte(`{"entityid":"Pete Manager"}`)},
		{Kind: "vendorbill", ID: 7, Title: "Coir logs", ModifiedAt: now, Fields: []byte(`{"tranid":"B-7","memo":"Coir logs",` +
			`"status":{"id":"1","refName":"Pending approval"},"approvalstatus":{"id":"1","refName":"Pending Approval"},` +
			`"nextapprover":{"id":"2","refName":"Pete Manager"}}`)},
		{Kind: "vendorbill", ID: 8, Title: "Seed mix", ModifiedAt: now, Fields: []byte(`{"tranid":"B-8","memo":"Seed mix",` +
			`"status":{"id":"3","refName":"Paid in full"},"approvalstatus":{"id":"2","refName":"Approved"}}`)},
	})
	if err != nil {
		t.Fatal(err)
	}
	doc := getRecord(t, f, billPath(7))
	base := f.srv.URL + netsuitetest.RecordPath
	wantNext := map[string]any{"id": "2", "refName": "Pete Manager",
		"links": []any{map[string]any{"rel": "self", "href": base + "employee/2"}}}
	if !reflect.DeepEqual(doc["nextApprover"], wantNext) || !reflect.DeepEqual(doc["approvalStatus"], listValue("1", "Pending Approval")) {
		t.Errorf("seeded bill: next approver %v, approval %v", doc["nextApprover"], doc["approvalStatus"])
	}
	if doc := getRecord(t, f, billPath(8)); !reflect.DeepEqual(doc["status"], listValue("3", "Paid in full")) {
		t.Errorf("a seeded paid bill's status %v: loading data is no approval", doc["status"])
	}
	got := f.mustQuery("SELECT id, approvalstatus, nextapprover FROM transaction WHERE type = 'VendBill' ORDER BY id", 1000, 0).Rows
	if want := []map[string]string{{"id": "7", "approvalstatus": "1", "nextapprover": "2"}, {"id": "8", "approvalstatus": "2"}}; !reflect.DeepEqual(got, want) {
		t.Errorf("seeded bills %v, want %v", got, want)
	}
}
