package netsuitetest_test

import (
	"encoding/json"
	"math"
	"net/http"
	"reflect"
	"strconv"
	"testing"
	"time"

	"github.com/portico/portico/internal/erp/netsuitetest"
)

func getRecord(t *testing.T, f *fixture, path string) map[string]any {
	t.Helper()
	resp, body := f.mustDo("GET", path, nil, nil)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %d %s", path, resp.StatusCode, body)
	}
	var doc map[string]any
	if err := json.Unmarshal(body, &doc); err != nil {
		t.Fatal(err)
	}
	return doc
}

func TestRecordGet(t *testing.T) {
	f := jobsFixture(t)
	base := f.srv.URL + netsuitetest.RecordPath
	doc := getRecord(t, f, netsuitetest.RecordPath+"job/1?expandSubResources=true")
	if doc["id"] != "1" || doc["companyName"] != "Red Creek" || doc["custentity_res_acres"] != 1594771.6 || doc["startDate"] != "2025-02-28" {
		t.Errorf("fields: %v", doc)
	}
	if doc["lastModifiedDate"] != "2026-11-22T07:00:00Z" || doc["dateCreated"] != "2026-11-22T07:00:00Z" {
		t.Errorf("dates %v %v", doc["lastModifiedDate"], doc["dateCreated"])
	}
	if _, ok := doc["externalId"]; ok {
		t.Error("an unset external id is shown")
	}
	wantParent := map[string]any{"id": "1", "refName": "Acme Wetlands",
		"links": []any{map[string]any{"rel": "self", "href": base + "customer/1"}}}
	if !reflect.DeepEqual(doc["parent"], wantParent) {
		t.Errorf("reference %v, want %v", doc["parent"], wantParent)
	}
	if want := map[string]any{"id": "3", "refName": "Active", "links": []any{}}; !reflect.DeepEqual(doc["entityStatus"], want) {
		t.Errorf("list value %v, want %v", doc["entityStatus"], want)
	}
	notes, _ := doc["notes"].(map[string]any)
	if items, _ := notes["items"].([]any); len(items) != 1 || notes["totalResults"] != 1.0 || notes["hasMore"] != false {
		t.Errorf("expanded sublist %v", doc["notes"])
	}
	if want := []any{map[string]any{"rel": "self", "href": base + "job/1"}}; !reflect.DeepEqual(doc["links"], want) {
		t.Errorf("links %v", doc["links"])
	}
	// Without expandSubResources a sublist is only a link.
	doc = getRecord(t, f, netsuitetest.RecordPath+"job/1")
	if want := map[string]any{"links": []any{map[string]any{"rel": "self", "href": base + "job/1/notes"}}}; !reflect.DeepEqual(doc["notes"], want) {
		t.Errorf("sublist without expansion %v", doc["notes"])
	}
	for _, p := range []string{"job/99", "job/x", "job/eid:nope", "nosuchtype/1", "job/1/notes"} {
		resp, body := f.mustDo("GET", netsuitetest.RecordPath+p, nil, nil)
		wantError(t, resp, body, http.StatusNotFound, "NONEXISTENT_ID")
	}
}

func TestRecordCreate(t *testing.T) {
	f := jobsFixture(t)
	f.clock.Advance(time.Minute)
	body := map[string]any{
		"companyName": "New Marsh", "externalId": "portico-k1",
		"parent": map[string]any{"id": "1"}, "entityStatus": map[string]any{"id": "2"},
		"custentity_res_acres": 12.5, "notes": map[string]any{"items": []any{map[string]any{"text": "hi"}}},
	}
	resp, raw := f.mustDo("POST", netsuitetest.RecordPath+"job", body, nil)
	if resp.StatusCode != http.StatusNoContent || len(raw) != 0 {
		t.Fatalf("create: %d %s", resp.StatusCode, raw)
	}
	if loc, want := resp.Header.Get("Location"), f.srv.URL+netsuitetest.RecordPath+"job/4"; loc != want {
		t.Errorf("Location %q, want %q", loc, want)
	}
	r, ok := f.fake.Get("job", 4)
	if !ok {
		t.Fatal("the created record is not there")
	}
	want := map[string]any{
		"companyName": "New Marsh", "parent": map[string]any{"id": "1", "refName": "Acme Wetlands"},
		"entityStatus": map[string]any{"id": "2", "refName": "Planning"}, "custentity_res_acres": 12.5,
		"notes": []any{map[string]any{"text": "hi"}},
	}
	if !reflect.DeepEqual(r.Fields, want) || r.ExternalID != "portico-k1" || !r.Modified.Equal(start.Add(time.Minute+5*time.Second)) {
		t.Errorf("stored %+v\nwant fields %v", r, want)
	}
	if doc := getRecord(t, f, netsuitetest.RecordPath+"job/eid:portico-k1"); doc["id"] != "4" || doc["externalId"] != "portico-k1" {
		t.Errorf("by external id: %v", doc)
	}
	if f.fake.UnkeyedWrites() != 1 {
		t.Errorf("unkeyed writes %d, want 1", f.fake.UnkeyedWrites())
	}

	refusals := []struct {
		body       map[string]any
		code, path string
	}{
		{map[string]any{"companyName": "X", "parent": map[string]any{"id": "999"}}, "USER_ERROR", "parent"},
		{map[string]any{"companyName": "X", "parent": map[string]any{"externalId": "nope"}}, "USER_ERROR", "parent"},
		{map[string]any{"companyName": "X", "entityStatus": map[string]any{"id": "42"}}, "USER_ERROR", "entityStatus"},
		{map[string]any{"companyName": "X", "entityStatus": "Active"}, "USER_ERROR", "entityStatus"},
		{map[string]any{"custentity_res_acres": 1}, "USER_ERROR", "companyName"},
		{map[string]any{"companyName": "  "}, "USER_ERROR", "companyName"},
		{map[string]any{"companyName": "X", "externalId": "portico-k1"}, "USER_ERROR", "externalId"},
		{map[string]any{"companyName": "X", "externalId": true}, "USER_ERROR", "externalId"},
	}
	for _, c := range refusals {
		resp, raw := f.mustDo("POST", netsuitetest.RecordPath+"job", c.body, nil)
		if e := wantError(t, resp, raw, http.StatusBadRequest, c.code); e.Details[0].Path != c.path {
			t.Errorf("%v: error path %q, want %q", c.body, e.Details[0].Path, c.path)
		}
	}
	resp, raw = f.mustDo("POST", netsuitetest.RecordPath+"job", []string{"not an object"}, nil)
	wantError(t, resp, raw, http.StatusBadRequest, "INVALID_CONTENT")
	resp, raw = f.mustDo("DELETE", netsuitetest.RecordPath+"job/1", nil, nil)
	wantError(t, resp, raw, http.StatusMethodNotAllowed, "METHOD_NOT_ALLOWED")
	if f.fake.Count("job") != 4 {
		t.Errorf("refused writes changed data: %d jobs", f.fake.Count("job"))
	}
}

func TestRecordUpdate(t *testing.T) {
	f := jobsFixture(t)
	f.clock.Advance(time.Hour)
	resp, raw := f.mustDo("PATCH", netsuitetest.RecordPath+"job/1", map[string]any{
		"companyName": "Red Creek II", "custentity_res_acres": nil, "entityStatus": map[string]any{"id": 4},
	}, nil)
	if resp.StatusCode != http.StatusNoContent {
		t.Fatalf("PATCH: %d %s", resp.StatusCode, raw)
	}
	r, _ := f.fake.Get("job", 1)
	if r.Fields["companyName"] != "Red Creek II" || r.Fields["custentity_res_acres"] != nil || r.Fields["startDate"] != "2025-02-28" ||
		!reflect.DeepEqual(r.Fields["entityStatus"], map[string]any{"id": "4", "refName": "Monitoring"}) {
		t.Errorf("after PATCH: %v", r.Fields)
	}
	if !r.Modified.Equal(start.Add(time.Hour+5*time.Second)) || !r.Created.Equal(start) {
		t.Errorf("Modified %v Created %v", r.Modified, r.Created)
	}
	// The change is what an incremental read sees next.
	q := "SELECT id, companyname FROM job WHERE lastmodifieddate > " + ts(start.Add(time.Minute)) + " ORDER BY lastmodifieddate, id"
	if got := f.mustQuery(q, 1000, 0).Rows; !reflect.DeepEqual(got, []map[string]string{{"id": "1", "companyname": "Red Creek II"}}) {
		t.Errorf("changes since: %v", got)
	}
	// The new name is the refName of references to the customer.
	if _, err := f.fake.Put("customer", netsuitetest.Record{ID: 1, Fields: map[string]any{"companyName": "Acme Renamed"}}); err != nil {
		t.Fatal(err)
	}
	if got := f.mustQuery("SELECT BUILTIN.DF(parent) AS p FROM job WHERE id = 1", 1000, 0).Rows; got[0]["p"] != "Acme Renamed" {
		t.Errorf("display name after a rename: %v", got)
	}
	for _, c := range []struct {
		path   string
		body   any
		status int
		code   string
	}{
		{"job/99", map[string]any{"companyName": "X"}, http.StatusNotFound, "NONEXISTENT_ID"},
		{"job/1", map[string]any{"companyName": ""}, http.StatusBadRequest, "USER_ERROR"},
		{"job/1", map[string]any{"parent": map[string]any{"id": "77"}}, http.StatusBadRequest, "USER_ERROR"},
	} {
		resp, raw := f.mustDo("PATCH", netsuitetest.RecordPath+c.path, c.body, nil)
		wantError(t, resp, raw, c.status, c.code)
	}
	if err := f.fake.Update("job", 2, map[string]any{"companyName": "Updated in NetSuite"}); err != nil {
		t.Fatal(err)
	}
	if r, _ := f.fake.Get("job", 2); r.Fields["companyName"] != "Updated in NetSuite" || !r.Modified.Equal(start.Add(time.Hour+5*time.Second)) {
		t.Errorf("Update: %+v", r)
	}
	if f.fake.Update("job", 99, nil) == nil || f.fake.Delete("job", 99) == nil || f.fake.Update("nosuch", 1, nil) == nil {
		t.Error("changing a missing record succeeded")
	}
}

func TestRecordIdempotency(t *testing.T) {
	f := jobsFixture(t)
	key := map[string]string{netsuitetest.IdempotencyHeader: "6f0c2a9e-create"}
	body := map[string]any{"companyName": "Once"}
	first, raw := f.mustDo("POST", netsuitetest.RecordPath+"job", body, key)
	if first.StatusCode != http.StatusNoContent {
		t.Fatalf("create: %d %s", first.StatusCode, raw)
	}
	// A repeat is refused, pointing at what the first request created,
	// whatever its body.
	again, raw := f.mustDo("POST", netsuitetest.RecordPath+"job", body, key)
	wantIdempotencyError(t, again, raw, first.Header.Get("Location"))
	again, raw = f.mustDo("POST", netsuitetest.RecordPath+"job", map[string]any{}, key)
	wantIdempotencyError(t, again, raw, first.Header.Get("Location"))
	if f.fake.Count("job") != 4 {
		t.Errorf("%d jobs after a repeated create, want 4", f.fake.Count("job"))
	}
	if w := f.fake.Writes("6f0c2a9e-create"); w != (netsuitetest.WriteCount{Requests: 3, Applied: 1}) {
		t.Errorf("writes %+v", w)
	}

	// A PATCH's repeat points at the record the first one patched,
	// however the repeat names it; header names are case-insensitive
	// (NetSuite's example spells this one X-NetSuite-idempotency-key).
	patch := map[string]string{netsuitetest.IdempotencyHeader: "6f0c2a9e-patch"}
	if resp, raw := f.mustDo("PATCH", netsuitetest.RecordPath+"job/2", map[string]any{"companyName": "First", "externalId": "J-2"}, patch); resp.StatusCode != http.StatusNoContent {
		t.Fatalf("patch: %d %s", resp.StatusCode, raw)
	}
	f.clock.Advance(time.Minute)
	resp, raw := f.mustDo("PATCH", netsuitetest.RecordPath+"job/eid:J-2", map[string]any{"companyName": "Second"},
		map[string]string{"x-netsuite-idempotency-key": "6f0c2a9e-patch"})
	wantIdempotencyError(t, resp, raw, f.srv.URL+netsuitetest.RecordPath+"job/2")
	r, _ := f.fake.Get("job", 2)
	if r.Fields["companyName"] != "First" || !r.Modified.Equal(start.Add(5*time.Second)) {
		t.Errorf("repeated PATCH was applied again: %+v", r)
	}
	if w := f.fake.Writes("6f0c2a9e-patch"); w != (netsuitetest.WriteCount{Requests: 2, Applied: 1}) {
		t.Errorf("writes %+v", w)
	}
	// A refused write does not use up its key.
	bad := map[string]string{netsuitetest.IdempotencyHeader: "6f0c2a9e-bad"}
	resp, raw = f.mustDo("POST", netsuitetest.RecordPath+"job", map[string]any{}, bad)
	wantError(t, resp, raw, http.StatusBadRequest, "USER_ERROR")
	resp, raw = f.mustDo("PATCH", netsuitetest.RecordPath+"job/99", body, bad)
	wantError(t, resp, raw, http.StatusNotFound, "NONEXISTENT_ID")
	resp, raw = f.mustDo("POST", netsuitetest.RecordPath+"job", body, bad)
	if resp.StatusCode != http.StatusNoContent {
		t.Fatalf("a corrected retry: %d %s", resp.StatusCode, raw)
	}
	resp, raw = f.mustDo("POST", netsuitetest.RecordPath+"job", body, bad)
	wantIdempotencyError(t, resp, raw, f.srv.URL+netsuitetest.RecordPath+"job/5")
	if w := f.fake.Writes("6f0c2a9e-bad"); w != (netsuitetest.WriteCount{Requests: 4, Applied: 1}) {
		t.Errorf("writes %+v", w)
	}
	if f.fake.Count("job") != 5 || f.fake.UnkeyedWrites() != 0 {
		t.Errorf("%d jobs, %d unkeyed writes", f.fake.Count("job"), f.fake.UnkeyedWrites())
	}
}

func TestSeedFromDemo(t *testing.T) {
	f := newFixture(t, netsuitetest.Config{})
	f.seed(30)
	for typ := range f.fake.Schema().Types {
		if f.fake.Count(typ) != 30 {
			t.Errorf("%s: %d records, want 30", typ, f.fake.Count(typ))
		}
	}
	// The project's client is its parent in NetSuite.
	job := f.fake.All("job")[0]
	if _, ok := job.Fields["customer"]; ok || job.Fields["parent"] == nil {
		t.Errorf("a seeded project's fields: %v", job.Fields)
	}
	for _, k := range []string{"id", "lastModifiedDate", "dateCreated"} {
		if _, ok := job.Fields[k]; ok {
			t.Errorf("metadata %s kept among the fields", k)
		}
	}
	if job.Created.IsZero() || job.Created.After(job.Modified) || job.Modified.Nanosecond() != 0 {
		t.Errorf("created %v modified %v", job.Created, job.Modified)
	}
}

// A vendor bill has an expense sublist beside its item sublist, as in
// NetSuite: seeded bills of expenses serve their lines expanded (account,
// memo, amount), and a bill's item and expense lines add up to its total.
func TestSeededBillsHaveExpenseLines(t *testing.T) {
	f := newFixture(t, netsuitetest.Config{})
	f.seed(30)
	withExpenses := 0
	for _, bill := range f.fake.All("vendorBill") {
		if bill.Fields["expense"] == nil {
			continue
		}
		withExpenses++
		doc := getRecord(t, f, netsuitetest.RecordPath+"vendorBill/"+strconv.FormatInt(bill.ID, 10)+"?expandSubResources=true")
		var cents int64
		for _, sub := range []string{"item", "expense"} {
			lines, _ := doc[sub].(map[string]any)
			items, _ := lines["items"].([]any)
			if sub == "expense" && len(items) == 0 {
				t.Fatalf("bill %d: expense sublist %v", bill.ID, doc[sub])
			}
			for _, it := range items {
				line, _ := it.(map[string]any)
				amount, _ := line["amount"].(float64)
				cents += int64(math.Round(amount * 100))
				if sub != "expense" {
					continue
				}
				account, _ := line["account"].(map[string]any)
				if account["refName"] == "" || account["refName"] == nil || line["memo"] == nil || amount <= 0 {
					t.Fatalf("bill %d: expense line %v", bill.ID, line)
				}
			}
		}
		total, _ := doc["total"].(float64)
		if cents != int64(math.Round(total*100)) {
			t.Errorf("bill %d: lines add up to %d cents, total %v", bill.ID, cents, total)
		}
	}
	if withExpenses == 0 {
		t.Error("no seeded bill has expense lines")
	}
}
