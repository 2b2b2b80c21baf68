package httpapi

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/portico/portico/internal/erpsync"
	"github.com/portico/portico/internal/portal"
	"github.com/portico/portico/internal/records"
)

const bulkPath = "/api/v1/netsuite/portal-bulk"

type bulkAnswer struct {
	Data records.BulkResult
}

// bulk posts a bulk edit of kind as Ada (role 10), with key as its
// Idempotency-Key when set.
func (e *authEnv) bulk(t *testing.T, tok string, role int64, kind string, body any, key string) (int, records.BulkResult, Problem) {
	t.Helper()
	var h http.Header
	if key != "" {
		h = http.Header{"Idempotency-Key": {key}}
	}
	b, _ := json.Marshal(body)
	w := e.callWith("POST", bulkPath+"?type="+kind, tok, role, string(b), h)
	var a bulkAnswer
	var p Problem
	if w.Code == 200 {
		if err := json.Unmarshal(w.Body.Bytes(), &a); err != nil {
			t.Fatal(err)
		}
	} else {
		json.Unmarshal(w.Body.Bytes(), &p)
	}
	return w.Code, a.Data, p
}

// statusOf is project id's status as its list row shows it.
func (e *authEnv) statusOf(t *testing.T, tok string, id int64) string {
	t.Helper()
	var v viewAnswer
	e.getJSON(t, tok, 10, fmt.Sprintf("/api/v1/netsuite/portal-record?type=project&id=%d", id), &v)
	for _, g := range v.Data.Groups {
		for _, f := range g.Fields {
			if f.Name == "entitystatus" {
				s, _ := f.Value.(string)
				return s
			}
		}
	}
	return ""
}

func TestBulkEditSetsAFieldOnEachRecord(t *testing.T) {
	e, tok := recordsEnv(t)
	code, res, p := e.bulk(t, tok, 10, "project", map[string]any{"ids": []int64{3, 1, 2}, "field": "entitystatus", "value": "Monitoring"}, "")
	if code != 200 || res.Saved != 3 || res.Failed != 0 || res.Field != "entitystatus" || len(res.Results) != 3 {
		t.Fatalf("bulk: %d %+v %+v", code, res, p)
	}
	for i, id := range []int64{3, 1, 2} {
		o := res.Results[i]
		if o.ID != id || !o.Saved || o.Title == "" || o.Write == nil || o.Write.State != records.WriteSynced {
			t.Fatalf("outcome %d: %+v", i, o)
		}
		if got := e.statusOf(t, tok, id); got != "Monitoring" {
			t.Fatalf("project %d status %q", id, got)
		}
	}
	// Each record's history shows the edit, by whom.
	var hist tabAnswerJSON
	e.getJSON(t, tok, 10, "/api/v1/netsuite/portal-record?type=project&id=2&tab=history", &hist)
	if len(hist.Data.Rows) == 0 || hist.Data.Rows[0]["user"] != "Ada Admin" || !strings.Contains(hist.Data.Rows[0]["changes"].(string), "→ Monitoring") {
		t.Fatalf("history: %+v", hist.Data.Rows)
	}
}

func TestBulkEditReportsEachFailureAndKeepsTheRest(t *testing.T) {
	e, tok := recordsEnv(t)
	// Record 999 does not exist: the others are saved, it is reported.
	code, res, p := e.bulk(t, tok, 10, "project", map[string]any{"ids": []int64{1, 999, 2}, "field": "entitystatus", "value": "Closed"}, "")
	if code != 200 || res.Saved != 2 || res.Failed != 1 || res.Results[1].Saved || res.Results[1].Message != "This record no longer exists." {
		t.Fatalf("partial: %d %+v %+v", code, res, p)
	}
	if e.statusOf(t, tok, 1) != "Closed" || e.statusOf(t, tok, 2) != "Closed" {
		t.Fatal("the records that could be saved were not")
	}
	// A reference to a record that does not exist fails on each record, in words.
	code, res, _ = e.bulk(t, tok, 10, "project", map[string]any{"ids": []int64{1}, "field": "customer", "value": 99999}, "")
	if code != 200 || res.Failed != 1 || res.Results[0].Message != "No such client." {
		t.Fatalf("missing reference: %d %+v", code, res)
	}
	// Another tenant's role (here without permissions) reaches nothing of acme's.
	g, _ := e.login(t, "globex", "uid-gus", "gus@globex.test")
	if code, _, p := e.bulk(t, g.Data.Token, 10, "project", map[string]any{"ids": []int64{1}, "field": "entitystatus", "value": "Active"}, ""); code != 403 {
		t.Fatalf("globex: %d %+v", code, p)
	}
	if e.statusOf(t, tok, 1) != "Closed" {
		t.Fatal("another tenant's request changed record 1")
	}
}

func TestBulkEditRefusesWhatNoRecordCouldTake(t *testing.T) {
	e, tok := recordsEnv(t)
	many := make([]int64, records.MaxBulk+1)
	for i := range many {
		many[i] = int64(i + 1)
	}
	for name, c := range map[string]struct {
		kind  string
		role  int64
		body  string
		code  int
		field string
	}{
		"unknown field":      {"project", 10, `{"ids":[1],"field":"nope","value":"x"}`, 422, "field"},
		"read-only field":    {"project", 10, `{"ids":[1],"field":"entityid","value":"PRJ-1"}`, 422, "field"},
		"value refused":      {"project", 10, `{"ids":[1],"field":"entitystatus","value":"Sleeping"}`, 422, "value"},
		"required emptied":   {"project", 10, `{"ids":[1],"field":"companyname","value":null}`, 422, "value"},
		"no records":         {"project", 10, `{"ids":[],"field":"entitystatus","value":"Active"}`, 422, "ids"},
		"a record twice":     {"project", 10, `{"ids":[1,1],"field":"entitystatus","value":"Active"}`, 422, "ids"},
		"not an id":          {"project", 10, `{"ids":[0],"field":"entitystatus","value":"Active"}`, 422, "ids"},
		"too many":           {"project", 10, fmt.Sprintf(`{"ids":%s,"field":"entitystatus","value":"Active"}`, mustJSON(many)), 422, "ids"},
		"not JSON":           {"project", 10, `{"ids":`, 400, ""},
		"unknown member":     {"project", 10, `{"ids":[1],"field":"entitystatus","value":"Active","all":true}`, 400, ""},
		"kind without edits": {"invoice", 10, `{"ids":[1],"field":"tranid","value":"x"}`, 403, ""},
		"role without edit":  {"project", 14, `{"ids":[1],"field":"entitystatus","value":"Active"}`, 403, ""},
		"unknown kind":       {"nothing", 10, `{"ids":[1],"field":"x","value":"x"}`, 400, "type"},
	} {
		t.Run(name, func(t *testing.T) {
			w := e.call("POST", bulkPath+"?type="+c.kind, tok, c.role, c.body)
			p := decodeProblem(t, w)
			if w.Code != c.code || (c.field != "" && (len(p.Errors) != 1 || p.Errors[0].Field != c.field || p.Errors[0].Message == "")) {
				t.Fatalf("%d %+v", w.Code, p)
			}
		})
	}
	if e.statusOf(t, tok, 1) == "" {
		t.Fatal("record 1 lost its status")
	}
}

func TestBulkEditWithIdempotencyKeyWritesOnce(t *testing.T) {
	e, tok := recordsEnv(t)
	body := map[string]any{"ids": []int64{4, 5, 6}, "field": "entitystatus", "value": "Planning"}
	code, first, p := e.bulk(t, tok, 10, "project", body, `"b7e0c1d2-1111-4a2b-9c3d-000000000001"`)
	if code != 200 || first.Saved != 3 {
		t.Fatalf("first: %d %+v %+v", code, first, p)
	}
	edits := func(id int64) int {
		var hist tabAnswerJSON
		e.getJSON(t, tok, 10, fmt.Sprintf("/api/v1/netsuite/portal-record?type=project&id=%d&tab=history", id), &hist)
		n := 0
		for _, row := range hist.Data.Rows {
			if row["action"] == "Edited" {
				n++
			}
		}
		return n
	}
	// The same request again (a retry after a lost answer): the same
	// answer, and no record is written twice.
	code, again, p := e.bulk(t, tok, 10, "project", body, `"b7e0c1d2-1111-4a2b-9c3d-000000000001"`)
	if code != 200 || again.Saved != 3 || mustJSON(again) != mustJSON(first) {
		t.Fatalf("repeat: %d\n%+v\n%+v %+v", code, again, first, p)
	}
	for _, id := range []int64{4, 5, 6} {
		if n := edits(id); n != 1 {
			t.Fatalf("project %d edited %d times by one key", id, n)
		}
	}
	// Someone changes record 5 after; a late repeat of the bulk leaves it
	// as they made it.
	if code, _, _ := e.bulk(t, tok, 10, "project", map[string]any{"ids": []int64{5}, "field": "entitystatus", "value": "Closed"}, ""); code != 200 {
		t.Fatal(code)
	}
	if code, again, _ := e.bulk(t, tok, 10, "project", body, "b7e0c1d2-1111-4a2b-9c3d-000000000001"); code != 200 || again.Saved != 3 || e.statusOf(t, tok, 5) != "Closed" {
		t.Fatalf("late repeat: %d %+v, status %q", code, again, e.statusOf(t, tok, 5))
	}
	// The key with another value is refused on each record, nothing written.
	body["value"] = "Active"
	code, other, _ := e.bulk(t, tok, 10, "project", body, "b7e0c1d2-1111-4a2b-9c3d-000000000001")
	if code != 200 || other.Saved != 0 || other.Failed != 3 || !strings.Contains(other.Results[0].Message, "Idempotency-Key") || e.statusOf(t, tok, 4) != "Planning" {
		t.Fatalf("reused key: %d %+v", code, other)
	}
	// A malformed key is a 400 naming the header.
	if code, _, p := e.bulk(t, tok, 10, "project", body, "a b"); code != 400 || len(p.Errors) != 1 || p.Errors[0].Field != "Idempotency-Key" {
		t.Fatalf("bad key: %d %+v", code, p)
	}
}

func TestBulkEditIsQueuedForTheERP(t *testing.T) {
	e, tok := recordsEnv(t)
	eng := erpsync.New(nil, e.store.Tenant("acme"), erpsync.Options{})
	e.syncs = map[portal.TenantID]Syncer{"acme": eng}
	code, res, p := e.bulk(t, tok, 10, "project", map[string]any{"ids": []int64{7, 8}, "field": "entitystatus", "value": "Closed"}, "")
	if code != 200 || res.Saved != 2 || res.Results[0].Write == nil || res.Results[0].Write.State != records.WritePending {
		t.Fatalf("queued bulk: %d %+v %+v", code, res, p)
	}
	var st syncStatusAnswer
	e.getJSON(t, tok, 10, "/api/v1/sync/status", &st)
	if st.Data.Outbox[erpsync.EntryPending] != 2 {
		t.Fatalf("outbox: %+v", st.Data.Outbox)
	}
}

func TestBulkExportIsTheSelectionAsCSV(t *testing.T) {
	e, tok := recordsEnv(t)
	w := e.call("GET", bulkPath+"?type=project&ids=3,1&columns=companyname,entitystatus", tok, 10, "")
	if w.Code != 200 || !strings.HasPrefix(w.Header().Get("Content-Type"), "text/csv") || !strings.Contains(w.Header().Get("Content-Disposition"), "attachment") {
		t.Fatalf("export: %d %v", w.Code, w.Header())
	}
	rows := csvFile(t, w, "projects-selected")
	var p1, p3 viewAnswer
	e.getJSON(t, tok, 10, "/api/v1/netsuite/portal-record?type=project&id=1", &p1)
	e.getJSON(t, tok, 10, "/api/v1/netsuite/portal-record?type=project&id=3", &p3)
	if len(rows) != 3 || strings.Join(rows[0], "|") != "Project name|Status" || rows[1][0] != p3.Data.Title || rows[2][0] != p1.Data.Title {
		t.Fatalf("csv: %q", rows)
	}
	// A record that is gone is left out; bad selections are refused.
	w = e.call("GET", bulkPath+"?type=project&ids=2,99999", tok, 10, "")
	if rows := csvFile(t, w, "projects-selected"); w.Code != 200 || len(rows) != 2 {
		t.Fatalf("gone record: %d %q", w.Code, rows)
	}
	long := strings.TrimSuffix(strings.Repeat("1,", records.MaxBulk+1), ",")
	for target, want := range map[string]int{
		"?type=project&ids=1,x":      400,
		"?type=project&ids=":         422,
		"?type=project&ids=1,1":      422,
		"?type=project&ids=" + long:  422,
		"?type=project&ids=1&list=x": 404,
	} {
		if w := e.call("GET", bulkPath+target, tok, 10, ""); w.Code != want {
			t.Fatalf("%s: %d, want %d: %s", target, w.Code, want, w.Body)
		}
	}
	// Only a role that may see the kind.
	if w := e.call("GET", bulkPath+"?type=project&ids=1", tok, 11, ""); w.Code != 403 {
		t.Fatalf("role 11: %d", w.Code)
	}
}

// An amount is set in bulk only on records in one currency: one number
// would mean different sums of money. Records in one currency take it;
// clearing it is not refused.
func TestBulkEditRefusesAnAmountAcrossCurrencies(t *testing.T) {
	e, tok := recordsEnv(t)
	ctx := t.Context()
	ten := e.store.Tenant("acme")
	p, err := ten.Record(ctx, "project", 2)
	if err != nil {
		t.Fatal(err)
	}
	p.Currency, p.ModifiedAt = "CAD", p.ModifiedAt.Add(1000)
	if err := ten.PutRecords(ctx, []records.Record{p}); err != nil {
		t.Fatal(err)
	}
	code, _, prob := e.bulk(t, tok, 10, "project", map[string]any{"ids": []int64{1, 2}, "field": "projectedtotal", "value": 1000}, "")
	if code != 422 || len(prob.Errors) != 1 || prob.Errors[0].Field != "field" || !strings.Contains(prob.Errors[0].Message, "CAD") {
		t.Fatalf("mixed currencies: %d %+v", code, prob)
	}
	if code, res, _ := e.bulk(t, tok, 10, "project", map[string]any{"ids": []int64{1, 3}, "field": "projectedtotal", "value": 1000}, ""); code != 200 || res.Saved != 2 {
		t.Fatalf("one currency: %d %+v", code, res)
	}
	if code, res, _ := e.bulk(t, tok, 10, "project", map[string]any{"ids": []int64{1, 2}, "field": "projectedtotal", "value": nil}, ""); code != 200 || res.Saved != 2 {
		t.Fatalf("cleared: %d %+v", code, res)
	}
}
