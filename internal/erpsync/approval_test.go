package erpsync_test

import (
	"context"
	"strconv"
	"testing"
	"time"

	"github.com/portico/portico/internal/erp/netsuitetest"
	"github.com/portico/portico/internal/erpsync"
	"github.com/portico/portico/internal/records"
	"github.com/portico/portico/internal/sqlstore"
)

// A bill approved in the portal in NetSuite mode: the decision reaches the
// account through the outbox (the approval status, then the comment as a
// note), and the bill is read back as NetSuite made it: open, approved,
// no one next.
func TestADecisionReachesNetSuiteAndIsReadBack(t *testing.T) {
	stores(t, func(t *testing.T, ten *sqlstore.Tenant) {
		ctx := context.Background()
		a, eng := synced(t, ten, 1000)
		bill := mustKind(t, "vendorbill")
		pete, err := a.fake.Put("employee", netsuitetest.Record{Fields: map[string]any{"entityId": "Pete Approver"}})
		if err != nil {
			t.Fatal(err)
		}
		a.clock.Advance(time.Minute)
		id, err := a.fake.Put("vendorBill", netsuitetest.Record{Fields: map[string]any{"tranId": "APR-1", "memo": "Willow stakes",
			"approvalStatus": map[string]any{"id": "1"}, "nextApprover": map[string]any{"id": strconv.FormatInt(pete, 10)}, "status": map[string]any{"id": "1"}}})
		if err != nil {
			t.Fatal(err)
		}
		a.clock.Advance(time.Minute)
		if err := eng.Pull(ctx, nil, false); err != nil {
			t.Fatal(err)
		}
		row := func() records.Row {
			r, err := ten.Record(ctx, "vendorbill", id)
			if err != nil {
				t.Fatal(err)
			}
			return bill.Row(r, bill.Columns([]string{"status", "approvalstatus", "nextapprover"}))
		}
		if r := row(); r["approvalstatus"] != "Pending Approval" || r["nextapprover"] != (records.Ref{ID: pete, RefName: "Pete Approver"}) {
			t.Fatalf("pulled: %v", r)
		}
		res, err := bill.Decide(ctx, ten, records.Decision{IDs: []int64{id}, Verdict: records.Approve, Comment: "Matches the PO.",
			Addition: records.Addition{AuthorName: "Pete Approver"}}, records.Author{UserID: 2}, a.now(), records.Queued)
		if err != nil || res.Saved != 1 {
			t.Fatalf("decide: %+v %v", res, err)
		}
		for range 3 { // the approval status, then the note behind it
			if _, err := eng.Push(ctx); err != nil {
				t.Fatal(err)
			}
		}
		counts, _ := ten.OutboxCounts(ctx)
		if counts[erpsync.EntryPending] != 0 || counts[erpsync.EntryFailed] != 0 {
			t.Fatalf("outbox after the push: %v", counts)
		}
		got, _ := a.fake.Get("vendorBill", id)
		if s, _ := got.Fields["approvalStatus"].(map[string]any); s["id"] != "2" {
			t.Fatalf("in NetSuite: %v", got.Fields)
		}
		if r := row(); r["approvalstatus"] != "Approved" || r["nextapprover"] != nil || r["status"] != "Open" {
			t.Errorf("read back: %v", r)
		}
		if notes := a.fake.Notes(); len(notes) != 1 || notes[0].Text != "Approved: Matches the PO." {
			t.Errorf("notes in NetSuite: %+v", notes)
		}
		// The next pull agrees.
		a.clock.Advance(time.Minute)
		if err := eng.Pull(ctx, nil, false); err != nil {
			t.Fatal(err)
		}
		if r := row(); r["approvalstatus"] != "Approved" || r["nextapprover"] != nil || r["status"] != "Open" {
			t.Errorf("pulled again: %v", r)
		}
	})
}
