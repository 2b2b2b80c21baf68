package records

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/portico/portico/internal/portal"
)

// Approvals (issue 38): a record of a kind with an Approval (a vendor
// bill) waits, while its approval status is Pending, for the decision of
// the employee its next-approver field names. That employee approves or
// rejects it, with a comment, one record or many at once; each decision
// is an edit of the approval status through Save (validation, the
// version check, audit, live updates, the ERP outbox), and its comment a
// note on the record. The ERP moves the record's own status and next
// approver itself (its approval workflow); a standalone portal, the
// system of record, does it in the same write.

// ActApprove is the action of deciding a record's approval: a role's
// permission <route>.approve, which a rule may narrow (to the records
// whose next approver is the user: "nextapprover eq $me").
const ActApprove = "approve"

// Approval names how a kind's records go through approval: the status
// field that holds where a record stands (its values Pending, Approved
// and Rejected) and the reference to the employee whose decision it waits
// for. Then is the record's status each decision leads to.
type Approval struct {
	Status       string `json:"status"`
	NextApprover string `json:"nextApprover"`
	Pending      string `json:"pending"`
	Approved     string `json:"approved"`
	Rejected     string `json:"rejected"`
	// Awaiting is the list filter of the records waiting for the
	// caller's decision (Me being the caller's employee record).
	Awaiting string            `json:"awaiting"`
	Then     map[string]string `json:"-"`
}

// complete fills a's Awaiting from its fields.
func (a *Approval) complete() {
	a.Awaiting = filterAnd(filterCond(a.Status, OpEq, a.Pending), filterCond(a.NextApprover, OpEq, Me))
}

// check panics unless a names a status field of k with its three values
// and a reference to an employee, and leads only to statuses k has.
func (a *Approval) check(k *Kind) {
	st, ok := k.FieldNamed(a.Status)
	for _, v := range []string{a.Pending, a.Approved, a.Rejected} {
		if !ok || st.Type != TypeStatus || !contains(st.Choices, v) {
			panic(fmt.Sprintf("records: %s's approval status %q has no value %q", k.Name, a.Status, v))
		}
	}
	if f, ok := k.FieldNamed(a.NextApprover); !ok || f.Type != TypeRef || f.Ref != "employee" {
		panic(fmt.Sprintf("records: %s's next approver %q is not a reference to an employee", k.Name, a.NextApprover))
	}
	status, _ := k.Field(ColStatus)
	for _, s := range a.Then {
		if !contains(status.Choices, s) {
			panic(fmt.Sprintf("records: %s's approval leads to status %q, not one of its own", k.Name, s))
		}
	}
}

// MayDecide reports whether record r of k waits for a decision the caller
// may make: its approval status is Pending and it is within the caller's
// approve scope.
func (g *Guard) MayDecide(ctx context.Context, k *Kind, r Record) (bool, error) {
	if k.Approval == nil || !g.May(k, ActApprove) {
		return false, nil
	}
	status, _ := k.FieldNamed(k.Approval.Status)
	if status.cell(r).any() != k.Approval.Pending {
		return false, nil
	}
	err := g.Check(ctx, k, r.ID, ActApprove)
	if portal.IsNotFound(err) {
		return false, nil
	}
	return err == nil, err
}

// Verdicts of a decision.
const (
	Approve = "approve"
	Reject  = "reject"
)

// Decision approves or rejects some records of a kind, with a comment
// (required to reject).
type Decision struct {
	IDs      []int64
	Verdict  string // Approve or Reject
	Comment  string
	Addition // the author's name and the request's Idempotency-Key (RecordID unused)
}

// DecisionResult is a decision's answer: one outcome per record asked
// for, in the order asked, as a bulk edit's.
type DecisionResult struct {
	Decision string `json:"decision"`
	Outcomes
}

// DecisionStore is what a decision needs: a record's write and a note.
type DecisionStore interface {
	WriteStore
	NoteStore
}

// notAwaiting is a record's outcome when it no longer waits for a
// decision (someone decided it, or the ERP moved it on).
const notAwaiting = "This %s is no longer waiting for approval (it is %s)."

// Decide applies d to records of k, each on its own: a record whose
// approval status is no longer Pending is reported so and left as it is;
// the others get the verdict's approval status (and, in Standalone mode,
// the status it leads to and no next approver), then the comment as a
// note. A record changed meanwhile is read again (bulkAttempts in all).
// Whether the caller may decide a record is the store's to say (the
// caller's guard, for ActApprove): a record they may not decide is not
// found. The error is for a request no record could take: a 422 naming
// the field (ids, decision, comment), or a kind without approvals.
func (k *Kind) Decide(ctx context.Context, st DecisionStore, d Decision, by Author, now time.Time, mode Mode) (DecisionResult, error) {
	a := k.Approval
	if a == nil {
		return DecisionResult{}, portal.Errorf(portal.CodeNotFound, "%s are not approved in Portico.", k.Plural)
	}
	if err := CheckSelection(d.IDs, "ids"); err != nil {
		return DecisionResult{}, err
	}
	value := map[string]string{Approve: a.Approved, Reject: a.Rejected}[d.Verdict]
	if value == "" {
		return DecisionResult{}, portal.Invalid("The decision is approve or reject.", portal.FieldError{Field: "decision", Message: "Use approve or reject."})
	}
	comment := strings.TrimSpace(d.Comment)
	if comment != "" || d.Verdict == Reject {
		if comment == "" {
			msg := fmt.Sprintf("Say why you reject the %s: the comment is added to its notes.", strings.ToLower(k.Label))
			return DecisionResult{}, &portal.Error{Code: portal.CodeUnprocessable, Message: msg, Fields: []portal.FieldError{{Field: "comment", Message: msg}}}
		}
		var ferr *portal.FieldError
		if comment, ferr = checkNote(comment, "comment"); ferr != nil {
			return DecisionResult{}, &portal.Error{Code: portal.CodeUnprocessable, Message: "Please correct the comment.", Fields: []portal.FieldError{*ferr}}
		}
	}
	set := map[string]any{a.Status: value}
	if mode == Standalone {
		set[a.NextApprover] = nil
		if s, ok := a.Then[value]; ok {
			status, _ := k.Field(ColStatus)
			set[status.Name] = s
		}
	}
	fields := map[string]json.RawMessage{}
	for name, v := range set {
		fields[name], _ = json.Marshal(v)
	}
	return DecisionResult{Decision: d.Verdict, Outcomes: eachRecord(d.IDs, func(id int64) BulkOutcome {
		return k.decideOne(ctx, st, id, fields, value, d, comment, by, now, mode)
	})}, nil
}

// decideOne decides one record of a decision: its approval status
// written (to, among fields) as a bulk edit writes a field, then the
// comment as a note.
func (k *Kind) decideOne(ctx context.Context, st DecisionStore, id int64, fields map[string]json.RawMessage, to string, d Decision, comment string,
	by Author, now time.Time, mode Mode) BulkOutcome {
	a := k.Approval
	status, _ := k.FieldNamed(a.Status)
	key := ""
	if d.IdempotencyKey != "" {
		key = fmt.Sprintf("approval:%s:%d", d.IdempotencyKey, id)
	}
	o := BulkOutcome{ID: id}
	for attempt := 1; ; attempt++ {
		if err := ctx.Err(); err != nil {
			return notSaved(o, err)
		}
		base, err := st.Record(ctx, k.Name, id)
		if err != nil {
			return notSaved(o, err)
		}
		o.Title = base.Title
		if current := status.cell(base).any(); current != a.Pending {
			// Decided already: by this very request (its repeat), or
			// by someone else.
			if key != "" {
				if _, made, err := st.KeptKey(ctx, by.UserID, key); err == nil && made == id {
					write := base.Write
					o.Saved, o.Write = true, &write
					return o
				}
			}
			o.Message = fmt.Sprintf(notAwaiting, strings.ToLower(k.Label), orNone(current, "without an approval status"))
			return o
		}
		saved, err := k.Save(ctx, st, Edit{ID: id, Fields: fields, Version: base.ModifiedAt, IdempotencyKey: key}, by, now, mode)
		switch portal.ErrorCode(err) {
		case portal.CodeConflict:
			if attempt < bulkAttempts {
				continue
			}
		case portal.CodeNotFound:
			// The caller sees it but may not decide it: it waits for
			// someone else, or someone decided it since it was read.
			if attempt < bulkAttempts {
				continue // read it again: decided meanwhile is said so
			}
			o.Message = fmt.Sprintf("This %s is not waiting for your approval.", strings.ToLower(k.Label))
			return o
		}
		if err != nil {
			return notSaved(o, err)
		}
		if saved.Unchanged { // someone made the same decision since it was read
			if attempt < bulkAttempts {
				continue
			}
			o.Message = fmt.Sprintf(notAwaiting, strings.ToLower(k.Label), to)
			return o
		}
		if comment != "" {
			add := d.Addition
			add.RecordID, add.By = id, by
			if key != "" {
				add.IdempotencyKey = key + ":note"
			}
			if _, err := k.AddNote(ctx, st, add, to+": "+comment, now, mode); err != nil {
				o.Message = "Decided, but the comment was not added: " + notSaved(BulkOutcome{}, err).Message
			}
		}
		write := saved.Write
		o.Saved, o.Title, o.Write = true, saved.Title, &write
		return o
	}
}

// orNone is v as text, or none when it is empty.
func orNone(v any, none string) string {
	if s, ok := v.(string); ok && s != "" {
		return s
	}
	return none
}
