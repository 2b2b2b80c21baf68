package netsuitetest

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
)

// Vendor bill approval, as NetSuite documents it (account.yaml's [11] to
// [15]): a bill's Approval Status (a list: Pending Approval, Approved,
// Rejected) drives its Status, an approved bill's approval status cannot
// change again, and this account's approval workflow clears the Next
// Approver once the bill is decided [A]. The rules hold for every write
// through the record API (POST, PATCH) and through Update; Put and
// PutRecords store a record as given (the account's state, not a change
// made to it).

// The approval statuses' internal ids: NetSuite's standard list
// (account.yaml's approvalstatus list, [11]).
const (
	approvalPending  = "1"
	approvalApproved = "2"
	approvalRejected = "3"
)

// approvalRule names the fields of a record type's approval.
type approvalRule struct {
	field  string // the approval status: a list field
	status string // the list field the approval status drives
	next   string // the next approver, cleared by a decision
	// statuses maps an approval status id to the text of the status it
	// sets, found in the status field's list without regard to case.
	statuses map[string]string
}

// approvals holds the record types that have an approval, by REST record
// type.
var approvals = map[string]approvalRule{
	"vendorBill": {
		field: "approvalStatus", status: "status", next: "nextApprover", // [14]
		statuses: map[string]string{ // [15]
			approvalPending:  "Pending approval",
			approvalApproved: "Open",
			approvalRejected: "Rejected",
		},
	},
}

// approve applies ts's approval rules to a write: before is the stored
// document (field id → value) the write changes, nil for a create; after
// is the document the write would store, which approve brings in line.
// When the write changes the approval status (setting it to the value it
// has is no change; on a create, giving one is), the status becomes the
// one the approval status stands for [15] and a decision, Approved or
// Rejected, clears the next approver [13][A]. Changing the approval
// status of an approved record is refused [12], USER_ERROR as the record
// API answers other values it refuses (normalize), and nothing is
// changed. A record type without an approval, or an account whose
// schema lacks its approval status, is left alone. The caller holds the
// write lock.
func (s *Server) approve(ts *typeStore, before, after map[string]json.RawMessage) *apiError {
	rule, ok := approvals[ts.schema.RecordType]
	if !ok {
		return nil
	}
	if f, ok := ts.schema.byID[rule.field]; !ok || f.Type != FieldList {
		return nil
	}
	was, now := listID(before[rule.field]), listID(after[rule.field])
	if was == now {
		return nil // no change; on a create, no approval status given
	}
	if was == approvalApproved {
		return approvedBillError(ts.schema, rule.field)
	}
	if id, text, ok := s.statusFor(ts.schema, rule, now); ok {
		b, _ := json.Marshal(map[string]string{"id": id, "refName": text})
		after[rule.status] = b
	}
	if now == approvalApproved || now == approvalRejected {
		delete(after, rule.next)
	}
	return nil
}

// statusFor finds the status an approval status sets: the id and text of
// the value of rule.status's list whose text is rule.statuses[approval].
// ok is false when there is none (an approval status the rule does not
// map, or an account whose status field or list lacks it).
func (s *Server) statusFor(sc *TypeSchema, rule approvalRule, approval string) (id, text string, ok bool) {
	want, mapped := rule.statuses[approval]
	f, known := sc.byID[rule.status]
	if !mapped || !known || f.Type != FieldList {
		return "", "", false
	}
	for id, text := range s.schema.Lists[f.Arg] {
		if strings.EqualFold(text, want) {
			return id, text, true
		}
	}
	return "", "", false
}

// listID is the internal id of a stored list value ({"id": "2", ...});
// "" when raw is absent, null or not a list value.
func listID(raw json.RawMessage) string {
	if len(raw) == 0 {
		return ""
	}
	id, _, _ := refID(raw)
	return id
}

// approvedBillError refuses a change of an approved record's approval
// status [12].
func approvedBillError(sc *TypeSchema, field string) *apiError {
	return userError(field, fmt.Sprintf("You cannot change the %s of this %s: it is approved, and after a vendor bill is approved, "+
		"you cannot cancel or change the status of that bill.", sc.byID[field].Label, sc.RecordType))
}

// Error makes an apiError an error, for the write paths (patch, Update)
// that return one: its code and detail.
func (e *apiError) Error() string {
	return fmt.Sprintf("netsuitetest: %s: %s", e.Code, e.Detail)
}

// asAPIError is err as the record API answers it: the apiError it is,
// else a 400 INVALID_CONTENT carrying its text.
func asAPIError(err error) *apiError {
	var ae *apiError
	if errors.As(err, &ae) {
		return ae
	}
	return newAPIError(http.StatusBadRequest, "INVALID_CONTENT", err.Error())
}
