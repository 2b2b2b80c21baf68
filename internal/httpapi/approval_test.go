package httpapi

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/portico/portico/internal/records"
	"github.com/portico/portico/internal/sqlstore"
)

// Issue 38: approvals. On the access-rule tenant, Pete's role may decide
// the vendor bills whose next approver he is (vendorbill.approve:
// nextapprover eq $me) among those he sees (his projects' bills).

const approvalPath = "/api/v1/netsuite/portal-approval"

type decisionAnswer struct{ Data records.DecisionResult }

func (e *authEnv) decide(t *testing.T, tok string, role int64, body any, key string) (int, records.DecisionResult, Problem) {
	t.Helper()
	var h http.Header
	if key != "" {
		h = http.Header{"Idempotency-Key": {key}}
	}
	b, _ := json.Marshal(body)
	w := e.callWith("POST", approvalPath+"?type=vendorbill", tok, role, string(b), h)
	var a decisionAnswer
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

// awaitBills makes bills wait for approval: each id to the employee
// named (Pete 2, Ada 1).
func awaitBills(t *testing.T, store *sqlstore.Store, approvers map[int64]int64) {
	t.Helper()
	ctx := context.Background()
	ten := store.Tenant("acme")
	var rs []records.Record
	for id, emp := range approvers {
		r, err := ten.Record(ctx, "vendorbill", id)
		if err != nil {
			t.Fatal(err)
		}
		var doc map[string]any
		json.Unmarshal(r.Fields, &doc)
		doc["approvalstatus"] = map[string]any{"id": "1", "refName": "Pending Approval"}
		doc["nextapprover"] = map[string]any{"id": fmt.Sprint(emp), "refName": "x"}
		r.Fields, _ = json.Marshal(doc)
		r.Status = "Pending approval"
		r.ModifiedAt = r.ModifiedAt.Add(1)
		rs = append(rs, r)
	}
	if err := ten.PutRecords(ctx, rs); err != nil {
		t.Fatal(err)
	}
}

// billField is a field's value on bill id's page, as Pete sees it.
func billField(t *testing.T, in *eventsInstance, tok string, id int64, field string) any {
	t.Helper()
	var v viewAnswer
	in.getJSON(t, tok, rulesPM, fmt.Sprintf("/api/v1/netsuite/portal-record?type=vendorbill&id=%d", id), &v)
	for _, g := range v.Data.Groups {
		for _, f := range g.Fields {
			if f.Name == field {
				return f.Value
			}
		}
	}
	return nil
}

// Pete sees what waits for him (list under $me, dashboard, the record's
// canApprove), decides only that, and the decision writes the approval
// status, the status it leads to and the comment as a note, once.
func TestApprovals(t *testing.T) {
	onRuleEngines(t, func(t *testing.T, in *eventsInstance) {
		// 500: Pete's project, waits for Pete; 510: Pete's project,
		// waits for Ada; 520: Ada's project, waits for Pete.
		awaitBills(t, in.store, map[int64]int64{500: 2, 510: 1, 520: 2})
		pete := in.token(t, "acme", "uid-pete", "pete@acme.test")
		awaiting := "/api/v1/netsuite/portal-list?type=vendorbill&count=true&filter=" +
			url.QueryEscape(`approvalstatus eq "Pending Approval" and nextapprover eq $me`)
		var p listPage
		if code := in.getJSON(t, pete, rulesPM, awaiting, &p); code != 200 || !slices.Equal(rowIDs(p.Data.Rows), []int64{500}) || *p.Data.Total != 1 {
			t.Fatalf("awaiting Pete: %d %v %v", code, rowIDs(p.Data.Rows), p.Data.Total)
		}
		var d struct{ Data records.Dashboard }
		in.getJSON(t, pete, rulesPM, "/api/v1/dashboard", &d)
		if len(d.Data.Approvals) != 1 || d.Data.Approvals[0].Count != 1 || d.Data.Approvals[0].Label != "Vendor bills awaiting my approval" {
			t.Fatalf("dashboard approvals: %+v", d.Data.Approvals)
		}
		for id, want := range map[int64]bool{500: true, 510: false} {
			var v struct{ Data records.View }
			in.getJSON(t, pete, rulesPM, fmt.Sprintf("/api/v1/netsuite/portal-record?type=vendorbill&id=%d", id), &v)
			if v.Data.CanApprove != want {
				t.Errorf("bill %d canApprove %v, want %v", id, v.Data.CanApprove, want)
			}
		}

		code, _, prob := in.decide(t, pete, rulesPM, map[string]any{"ids": []int64{500}, "decision": "reject", "comment": "  "}, "")
		if code != 422 || len(prob.Errors) != 1 || prob.Errors[0].Field != "comment" {
			t.Fatalf("reject without a comment: %d %+v", code, prob)
		}
		if code, _, prob := in.decide(t, pete, rulesPM, map[string]any{"ids": []int64{500}, "decision": "maybe"}, ""); code != 400 || prob.Errors[0].Field != "decision" {
			t.Fatalf("decision maybe: %d %+v", code, prob)
		}
		ada := in.token(t, "acme", "uid-ada", "ada@acme.test")
		if code, _, _ := in.decide(t, ada, rulesAll, map[string]any{"ids": []int64{510}, "decision": "approve"}, ""); code != 403 {
			t.Fatalf("a role without vendorbill.approve: %d", code)
		}

		body := map[string]any{"ids": []int64{500, 510, 520}, "decision": "approve", "comment": "Matches the PO.\nPay it."}
		code, res, prob := in.decide(t, pete, rulesPM, body, "approve-key-1")
		if code != 200 || res.Saved != 1 || res.Failed != 2 || res.Decision != "approve" {
			t.Fatalf("approve: %d %+v %+v", code, res, prob)
		}
		want := map[int64]string{500: "", 510: "This vendor bill is not waiting for your approval.", 520: "This record no longer exists."}
		for _, o := range res.Results {
			if o.Saved != (o.ID == 500) || o.Message != want[o.ID] {
				t.Errorf("bill %d: %+v, want message %q", o.ID, o, want[o.ID])
			}
		}
		if s := billField(t, in, pete, 500, "approvalstatus"); s != "Approved" {
			t.Errorf("approval status %v", s)
		}
		if s := billField(t, in, pete, 500, "status"); s != "Open" {
			t.Errorf("status %v", s)
		}
		if s := billField(t, in, pete, 500, "nextapprover"); s != nil {
			t.Errorf("next approver %v", s)
		}
		notes := func() []string {
			var tab struct {
				Data struct{ Rows []map[string]any }
			}
			in.getJSON(t, pete, rulesPM, "/api/v1/netsuite/portal-record?type=vendorbill&id=500&tab=notes", &tab)
			var out []string
			for _, r := range tab.Data.Rows {
				out = append(out, fmt.Sprint(r["text"]))
			}
			return out
		}
		if n := notes(); len(n) != 1 || n[0] != "Approved: Matches the PO.\nPay it." {
			t.Fatalf("notes: %q", n)
		}
		// Its repeat (a lost answer) decides nothing twice.
		if code, res, _ := in.decide(t, pete, rulesPM, body, "approve-key-1"); code != 200 || !res.Results[0].Saved || len(notes()) != 1 {
			t.Fatalf("repeat: %d %+v %q", code, res, notes())
		}
		// Decided: no longer awaiting, and a new request says so.
		in.getJSON(t, pete, rulesPM, awaiting, &p)
		if len(p.Data.Rows) != 0 {
			t.Errorf("still awaiting: %v", rowIDs(p.Data.Rows))
		}
		_, res, _ = in.decide(t, pete, rulesPM, map[string]any{"ids": []int64{500}, "decision": "reject", "comment": "No."}, "")
		if res.Saved != 0 || !strings.Contains(res.Results[0].Message, "no longer waiting for approval (it is Approved)") {
			t.Errorf("deciding a decided bill: %+v", res)
		}
	})
}

// Many deciders at once on the same bills: each bill is decided once,
// with one note; the others are told it no longer waits.
func TestApprovalsConcurrent(t *testing.T) {
	onRuleEngines(t, func(t *testing.T, in *eventsInstance) {
		awaitBills(t, in.store, map[int64]int64{500: 2, 510: 2})
		pete := in.token(t, "acme", "uid-pete", "pete@acme.test")
		const deciders = 8
		var wg sync.WaitGroup
		results := make([]records.DecisionResult, deciders)
		for i := range deciders {
			wg.Go(func() {
				verdict := []string{"approve", "reject"}[i%2]
				code, res, p := in.decide(t, pete, rulesPM, map[string]any{"ids": []int64{500, 510}, "decision": verdict, "comment": fmt.Sprintf("decider %d", i)}, "")
				if code != 200 {
					t.Errorf("decider %d: %d %+v", i, code, p)
				}
				results[i] = res
			})
		}
		wg.Wait()
		for _, id := range []int64{500, 510} {
			saved := 0
			for _, r := range results {
				for _, o := range r.Results {
					if o.ID == id && o.Saved {
						saved++
					} else if o.ID == id && !strings.Contains(o.Message, "no longer waiting") {
						t.Errorf("bill %d: %+v", id, o)
					}
				}
			}
			var tab struct {
				Data struct{ Rows []map[string]any }
			}
			in.getJSON(t, pete, rulesPM, fmt.Sprintf("/api/v1/netsuite/portal-record?type=vendorbill&id=%d&tab=notes", id), &tab)
			if saved != 1 || len(tab.Data.Rows) != 1 {
				t.Errorf("bill %d decided %d times, %d notes", id, saved, len(tab.Data.Rows))
			}
		}
	})
}
