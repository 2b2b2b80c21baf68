package records

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/portico/portico/internal/portal"
)

// MaxBulk is the most records one bulk edit or export of a selection may
// name: a page of the largest size lists offer.
const MaxBulk = 200

// bulkAttempts is how often a bulk edit tries a record that others keep
// changing under it before it reports the record as not saved.
const bulkAttempts = 5

// BulkEdit sets one field to one value on some records of a kind, each
// through Save (validation, audit, the ERP outbox), as if each had been
// edited on its own form.
type BulkEdit struct {
	IDs   []int64
	Field string
	Value json.RawMessage
	// IdempotencyKey is the client's Idempotency-Key. Each record's write
	// keeps it (as "bulk:<key>:<id>"), so a repeat of the request (a
	// retry after a lost answer, or after the first stopped half-way)
	// writes no record twice: the records already written answer as they
	// are now, the others are tried.
	IdempotencyKey string
}

// BulkOutcome is what became of one record of a bulk edit.
type BulkOutcome struct {
	ID    int64  `json:"id"`
	Title string `json:"title,omitempty"`
	// Saved: the record has the value now (written by this request, or by
	// the first request with its Idempotency-Key).
	Saved bool `json:"saved"`
	// Unchanged: the record had the value already, so nothing was written
	// (no audit entry, no outbox entry).
	Unchanged bool `json:"unchanged,omitempty"`
	// Write is where the record's write stands with the ERP (pending in
	// an ERP-backed portal until the ERP takes it).
	Write *WriteState `json:"write,omitempty"`
	// Message says why the record was not saved, in words for the user.
	Message string `json:"message,omitempty"`
	// Err is the cause when it is not the user's to fix (for the log).
	Err error `json:"-"`
}

// BulkResult is a bulk edit's answer: one outcome per record asked for, in
// the order asked.
type BulkResult struct {
	Field string `json:"field"`
	Outcomes
}

// Outcomes are what became of each record of a write to a selection (a
// bulk edit, a decision), in the order asked, and how many were saved.
type Outcomes struct {
	Saved   int           `json:"saved"`
	Failed  int           `json:"failed"`
	Results []BulkOutcome `json:"results"`
}

// eachRecord writes each of ids with one, one after the other: one
// record never stops the others.
func eachRecord(ids []int64, one func(id int64) BulkOutcome) Outcomes {
	out := Outcomes{Results: make([]BulkOutcome, 0, len(ids))}
	for _, id := range ids {
		o := one(id)
		if o.Saved {
			out.Saved++
		} else {
			out.Failed++
		}
		out.Results = append(out.Results, o)
	}
	return out
}

// CheckSelection checks the ids of a selection (a bulk edit's, an
// export's): 1 to MaxBulk distinct record ids. The error is a 422 on field.
func CheckSelection(ids []int64, field string) error {
	msg := ""
	seen := make(map[int64]bool, len(ids))
	switch {
	case len(ids) == 0:
		msg = "Select at least one record."
	case len(ids) > MaxBulk:
		msg = fmt.Sprintf("Select at most %d records at a time.", MaxBulk)
	}
	for _, id := range ids {
		if msg != "" {
			break
		}
		if id <= 0 {
			msg = "Record ids are positive numbers."
		} else if seen[id] {
			msg = fmt.Sprintf("Record %d is named twice.", id)
		}
		seen[id] = true
	}
	if msg == "" {
		return nil
	}
	return &portal.Error{Code: portal.CodeUnprocessable, Message: msg, Fields: []portal.FieldError{{Field: field, Message: msg}}}
}

// checkBulk refuses, before any record is touched, what no record could
// take: a bad selection, a field that is not on the kind's form or is
// read-only, a value the field refuses.
func (k *Kind) checkBulk(b BulkEdit) error {
	if err := CheckSelection(b.IDs, "ids"); err != nil {
		return err
	}
	f, ok := k.FieldNamed(b.Field)
	msg := ""
	switch {
	case !ok:
		msg = fmt.Sprintf("%s have no field %q.", k.Plural, b.Field)
	case f.ReadOnly:
		msg = fmt.Sprintf("%s is set by the system and cannot be edited.", f.Label)
	}
	if msg != "" {
		return &portal.Error{Code: portal.CodeUnprocessable, Message: msg, Fields: []portal.FieldError{{Field: "field", Message: msg}}}
	}
	if _, errs := k.ParseInput(map[string]json.RawMessage{b.Field: b.Value}, false); len(errs) > 0 {
		msgs := make([]string, len(errs))
		for i, e := range errs {
			msgs[i] = e.Message
		}
		msg := strings.Join(msgs, " ")
		return &portal.Error{Code: portal.CodeUnprocessable, Message: msg, Fields: []portal.FieldError{{Field: "value", Message: msg}}}
	}
	return nil
}

// Bulk applies a bulk edit: every record is read, then saved through Save
// with the field set, one after the other, in Standalone or Queued mode
// like a form's edit. A record that changed between its read and its save
// is read again (bulkAttempts in all). What cannot be saved — a record
// gone, a value a record refuses, a record others keep changing — is
// reported on its own outcome and the rest go on: one record never stops
// the others, and what was saved stays saved. The error is for a request
// no record could take (a 422), or a context ended before the first record.
func (k *Kind) Bulk(ctx context.Context, st WriteStore, b BulkEdit, by Author, now time.Time, mode Mode) (BulkResult, error) {
	if len(b.Value) == 0 {
		b.Value = json.RawMessage("null") // no value: the field is cleared
	}
	if err := k.checkBulk(b); err != nil {
		return BulkResult{}, err
	}
	if err := k.checkBulkCurrency(ctx, st, b); err != nil {
		return BulkResult{}, err
	}
	fields := map[string]json.RawMessage{b.Field: b.Value}
	return BulkResult{Field: b.Field, Outcomes: eachRecord(b.IDs, func(id int64) BulkOutcome {
		return k.bulkOne(ctx, st, id, fields, b.IdempotencyKey, by, now, mode)
	})}, nil
}

// checkBulkCurrency refuses an amount set on records in different
// currencies: one number would mean different sums of money. (Clearing
// one is not refused.)
func (k *Kind) checkBulkCurrency(ctx context.Context, st WriteStore, b BulkEdit) error {
	f, _ := k.FieldNamed(b.Field)
	if !k.UnitOf(f).Currency || string(b.Value) == "null" {
		return ctx.Err()
	}
	var seen []string
	for _, id := range b.IDs {
		r, err := st.RecordSummary(ctx, k.Name, id)
		if portal.IsNotFound(err) {
			continue // reported on its own outcome
		}
		if err != nil {
			return err
		}
		if !slices.Contains(seen, r.Currency) {
			seen = append(seen, r.Currency)
		}
	}
	if len(seen) < 2 {
		return nil
	}
	names := make([]string, len(seen))
	for i, c := range seen {
		names[i] = cmp.Or(c, "the base currency")
	}
	msg := fmt.Sprintf("%s can be set in bulk only on records in one currency; these are in %s.", f.Label, strings.Join(names, " and "))
	return &portal.Error{Code: portal.CodeUnprocessable, Message: msg, Fields: []portal.FieldError{{Field: "field", Message: msg}}}
}

// bulkOne saves one record of a bulk edit.
func (k *Kind) bulkOne(ctx context.Context, st WriteStore, id int64, fields map[string]json.RawMessage, key string,
	by Author, now time.Time, mode Mode) BulkOutcome {
	o := BulkOutcome{ID: id}
	for attempt := 1; ; attempt++ {
		if err := ctx.Err(); err != nil {
			return notSaved(o, err)
		}
		base, err := st.RecordSummary(ctx, k.Name, id)
		if err != nil {
			return notSaved(o, err)
		}
		o.Title = base.Title
		e := Edit{ID: id, Fields: fields, Version: base.ModifiedAt}
		if key != "" {
			e.IdempotencyKey = fmt.Sprintf("bulk:%s:%d", key, id)
		}
		saved, err := k.Save(ctx, st, e, by, now, mode)
		if portal.ErrorCode(err) == portal.CodeConflict && attempt < bulkAttempts {
			continue
		}
		if err != nil {
			return notSaved(o, err)
		}
		write := saved.Write
		o.Saved, o.Unchanged, o.Title, o.Write = true, saved.Unchanged, saved.Title, &write
		return o
	}
}

// notSaved is o with the reason its record was not saved: the message of
// a portal error (its field's message when it names one), else a general
// one, keeping the cause for the log.
func notSaved(o BulkOutcome, err error) BulkOutcome {
	var pe *portal.Error
	switch {
	case errors.As(err, &pe) && pe.Code == portal.CodeNotFound:
		o.Message = "This record no longer exists."
	case errors.As(err, &pe) && pe.Code == portal.CodeConflict:
		o.Message = "Others kept changing this record; it was left as they made it. Try it again."
	case errors.As(err, &pe) && len(pe.Fields) > 0:
		o.Message = pe.Fields[0].Message
	case errors.As(err, &pe) && pe.Code != portal.CodeInternal:
		o.Message = pe.Message
	case errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded):
		o.Message = "Not saved: the request ended first. Send it again to finish."
	default:
		o.Message, o.Err = "Could not be saved. Try it again.", err
	}
	return o
}

// RecordReader reads one record, document included.
type RecordReader interface {
	Record(ctx context.Context, kind string, id int64) (Record, error)
}

// ExportSelection answers what a user selected of a list, for its CSV:
// the records ids names (1 to MaxBulk distinct ids, else a 422 on "ids"),
// in the order given, as rows of saved list cfg's columns, or of columns
// (a comma-separated list of the kind's fields, as a list call's) when
// given. Records that no longer exist, or are not the tenant's, are left
// out.
func (k *Kind) ExportSelection(ctx context.Context, st RecordReader, cfg ListConfig, columns string, ids []int64) (ListConfig, []ColumnInfo, []Row, error) {
	if err := CheckSelection(ids, "ids"); err != nil {
		return cfg, nil, nil, err
	}
	cfg, _, err := k.Query(cfg, ListRequest{Columns: columns})
	if err != nil {
		return cfg, nil, nil, err
	}
	cols := k.Columns(cfg.Columns)
	recs := make([]Record, 0, len(ids))
	for _, id := range ids {
		rec, err := st.Record(ctx, k.Name, id)
		if portal.IsNotFound(err) {
			continue
		}
		if err != nil {
			return cfg, nil, nil, err
		}
		recs = append(recs, rec)
	}
	return cfg, cols, k.Rows(recs, cols), nil
}
