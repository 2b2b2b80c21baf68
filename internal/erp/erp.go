// Package erp is what the portal needs from an ERP, as one small interface
// the sync engine consumes (Connector), with the values that cross it. The
// NetSuite implementation lives in erp/netsuite; with no ERP configured the
// portal's own store is the system of record and nothing here is used.
package erp

import (
	"context"
	"errors"
	"math/rand/v2"
	"strconv"
	"time"

	"github.com/portico/portico/internal/company"
	"github.com/portico/portico/internal/records"
)

// Checkpoint is where a kind's pull stands: every change up to and
// including (Modified, ID) in (last-modified, id) order is in the replica.
// The zero Checkpoint is "from the beginning".
type Checkpoint struct {
	Modified time.Time `json:"modified"`
	ID       int64     `json:"id"`
}

// IsZero reports whether c is the beginning.
func (c Checkpoint) IsZero() bool { return c.Modified.IsZero() && c.ID == 0 }

// Batch is one page of changed records, in (ModifiedAt, ID) order; Next is
// the checkpoint after its last record.
type Batch struct {
	Records []records.Record
	Next    Checkpoint
}

// Deletion is a record the ERP deleted, and when.
type Deletion struct {
	ID        int64
	DeletedAt time.Time
}

// Write is a create or an edit sent to the ERP: the portal's field values
// (records.Input: the kind's promoted fields by name) and the idempotency
// key that makes a retry of the same write land once.
type Write struct {
	Fields records.Input
	Key    string
}

// Connector reads and writes one ERP account. Implementations must be safe
// for concurrent use and must never exceed the account's concurrency limit.
type Connector interface {
	// Changes calls fn with each page of kind's records modified after
	// from (in (modified, id) order), until there are no more or fn or
	// the ERP fails. Pages are at most the connector's page size.
	Changes(ctx context.Context, kind *records.Kind, from Checkpoint, fn func(Batch) error) error
	// Deleted returns kind's records deleted at or after since. Times
	// cross this interface in the connector's own time base: since is
	// one the connector gave (a record's ModifiedAt, a DeletedAt), or
	// zero for every deletion it knows.
	Deleted(ctx context.Context, kind *records.Kind, since time.Time) ([]Deletion, error)
	// Fetch reads one record as the ERP has it now (a not-found
	// portal error when it has none).
	Fetch(ctx context.Context, kind *records.Kind, id int64) (records.Record, error)
	// Create creates a record and returns its ERP id. A retry with the
	// same w.Key returns the id of the record the first attempt made.
	Create(ctx context.Context, kind *records.Kind, w Write) (int64, error)
	// Update changes the fields in w on record id; a retry with the same
	// w.Key is applied once.
	Update(ctx context.Context, kind *records.Kind, id int64, w Write) error
}

// Currencies is what a connector offers when the ERP account knows its
// currencies: the ISO 4217 code of the account's base currency (of a
// OneWorld account, its root subsidiary's), read from the account. The
// records a connector gives carry records.Record.Currency relative to it:
// "" for values in the base currency, the code otherwise.
type Currencies interface {
	BaseCurrency(ctx context.Context) (string, error)
}

// Company is what a connector offers when the ERP account keeps the
// company's own name and address: its profile, the letterhead of its
// documents (NetSuite: the root subsidiary's legal name, main address and
// tax number), as company.Profile.Clean leaves it. An account that keeps
// none answers an error marked NotInAccount.
type Company interface {
	CompanyProfile(ctx context.Context) (company.Profile, error)
}

// Files is what a connector offers when it reaches the ERP's file
// cabinet: the attachments of a record (without content) and one file
// with its content.
type Files interface {
	RecordFiles(ctx context.Context, kind *records.Kind, recordID int64) ([]records.File, error)
	File(ctx context.Context, id int64) (records.File, error)
}

// Note is a note to add to a record in the ERP: its text, the name of the
// portal user who wrote it (the ERP records its integration user as the
// author), and the idempotency key that makes a retry add it once.
type Note struct {
	Author string
	Text   string
	Key    string
}

// Attachments is what a connector offers when it can add notes and files
// to a record (the portal's notes and uploads go out through it). Each
// returns the ERP's internal id of what it added; a retry with the same
// key returns the id of what the first attempt added, adding nothing.
type Attachments interface {
	AddNote(ctx context.Context, kind *records.Kind, recordID int64, n Note) (int64, error)
	// AddFile stores f (its name, content type and content) in the ERP
	// and attaches it to the record.
	AddFile(ctx context.Context, kind *records.Kind, recordID int64, f records.File, key string) (int64, error)
}

// Error is a failure the ERP reported. Validation errors (Permanent) are
// the user's to fix and their Detail may be shown; the others are
// transient (throttling, server errors, the network) and worth a retry.
type Error struct {
	Status    int    // HTTP status; 0 when no answer came
	Code      string // the ERP's error code, e.g. USER_ERROR, INVALID_LOGIN
	Detail    string // the ERP's message
	Path      string // the field the ERP blamed, when it named one
	Permanent bool   // retrying the same request cannot succeed
	Throttled bool   // the ERP asked us to slow down (429, request limits)
	// NotInAccount marks a kind the account cannot serve as mapped: its
	// record type or a required column is missing. Retrying cannot help
	// until the mapping (or the account) changes.
	NotInAccount bool
	Err          error // the underlying cause (network errors)
}

// Error describes the failure for logs: status, code, the ERP's detail and
// the cause.
func (e *Error) Error() string {
	msg := "erp"
	if e.Status != 0 {
		msg += " " + strconv.Itoa(e.Status)
	}
	if e.Code != "" {
		msg += " " + e.Code
	}
	if e.Detail != "" {
		msg += ": " + e.Detail
	}
	if e.Err != nil {
		msg += ": " + e.Err.Error()
	}
	return msg
}

// Unwrap returns the underlying cause (a network error), if any.
func (e *Error) Unwrap() error { return e.Err }

// Backoff is the delay before retry number attempt (from 1): base doubled
// per attempt, at most limit, half of it fixed and half random ("equal
// jitter"), so clients that failed together do not retry together.
func Backoff(base time.Duration, attempt int, limit time.Duration) time.Duration {
	d := limit
	if attempt < 31 && base<<(attempt-1) < limit && base<<(attempt-1) > 0 {
		d = base << (attempt - 1)
	}
	return d/2 + rand.N(d/2+1)
}

// IsNotInAccount reports whether err says the account lacks what the
// mapping names for a kind.
func IsNotInAccount(err error) bool {
	var e *Error
	return errors.As(err, &e) && e.NotInAccount
}

// IsPermanent reports whether err is an ERP error that a retry cannot fix.
func IsPermanent(err error) bool {
	var e *Error
	return errors.As(err, &e) && e.Permanent
}
