package erpsync

import (
	"context"
	"encoding/json"
	"time"

	"github.com/portico/portico/internal/company"
	"github.com/portico/portico/internal/erp"
	"github.com/portico/portico/internal/portal"
	"github.com/portico/portico/internal/records"
)

// State is where one kind's pull stands and how its last runs went.
type State struct {
	Kind         string         `json:"kind"`
	Checkpoint   erp.Checkpoint `json:"checkpoint"`
	DeletedSince time.Time      `json:"deletedSince"` // deletions dated before this (less the overlap) are applied; in the connector's time base
	LastRun      time.Time      `json:"lastRun"`
	LastSuccess  time.Time      `json:"lastSuccess"`
	PulledTotal  int64          `json:"pulledTotal"` // new or changed records stored by every pull so far
	LastPulled   int64          `json:"lastPulled"`  // by the last run (not counting the overlap's re-reads)
	LastDeleted  int64          `json:"lastDeleted"` // deletions applied by the last run
	LastError    string         `json:"lastError,omitempty"`
	// Unavailable says why the account cannot serve the kind as mapped
	// ("not in this account: …"); the schedule does not try it again
	// while Mapping is the kind's mapping version.
	Unavailable string `json:"unavailable,omitempty"`
	// Missing lists the optional columns the account lacks (their fields
	// stay empty), as the last successful pull found them.
	Missing string `json:"missing,omitempty"`
	// Mapping is the mapping version Unavailable and Missing were found
	// with, and the time base Checkpoint and DeletedSince are in (see
	// mark); the store keeps it as it is.
	Mapping string `json:"-"`
}

// Entry is one outbox entry: a create or edit on its way to the ERP.
type Entry struct {
	ID       int64           `json:"id"`
	Kind     string          `json:"kind"`
	RecordID int64           `json:"recordId"` // the portal's id; provisional for a create until ERPID
	Op       string          `json:"op"`       // records.OpCreate or records.OpUpdate
	Fields   json.RawMessage `json:"-"`        // the submitted values to send
	Key      string          `json:"-"`        // idempotency key
	State    string          `json:"state"`    // one of the Entry states
	Attempts int             `json:"attempts"`
	NextAt   time.Time       `json:"nextAt"`
	Error    string          `json:"error,omitempty"` // the ERP's last message
	ERPID    int64           `json:"erpId,omitempty"`
	Created  time.Time       `json:"created"`
}

// The outbox entry states.
const (
	EntryPending   = "pending"
	EntrySynced    = "synced"
	EntryFailed    = "failed"
	EntryDiscarded = "discarded"
)

// Store is what the sync engine needs from one tenant's store.
// *sqlstore.Tenant implements it.
type Store interface {
	// ID is the tenant the store holds.
	ID() portal.TenantID
	// Kinds are the tenant's kinds: the code's, with its account's fields.
	Kinds() *records.Registry
	// Record returns one record of the replica (a not-found error when
	// it has none).
	Record(ctx context.Context, kind string, id int64) (records.Record, error)
	// SyncStates returns the state of every kind that has one.
	SyncStates(ctx context.Context) ([]State, error)
	// PutRecords stores records as the ERP has them, merging each
	// document into the stored one (see sqlstore's PutRecords).
	PutRecords(ctx context.Context, rs []records.Record) error
	// SetBaseCurrency records the ISO 4217 code of the tenant's base
	// currency as the ERP account has it: records whose Currency is ""
	// are in it. The engine sets it at the start of every pull when the
	// connector reads it (erp.Currencies).
	SetBaseCurrency(ctx context.Context, code string) error
	// SetCompany stores the tenant's company profile as the ERP account
	// has it (the letterhead of its documents); an unchanged one writes
	// nothing. The engine sets it at the start of every pull when the
	// connector reads it (erp.Company).
	SetCompany(ctx context.Context, p company.Profile) error
	// RecordIDs returns the ids of kind's records in the replica.
	RecordIDs(ctx context.Context, kind string) ([]int64, error)
	// AcquireLease takes or renews the named lease for owner until
	// until, if it is free, expired or already owner's, and returns its
	// fencing token: the token grows whenever the lease changes owner,
	// and stays while the same owner renews it. ok is false when another
	// owner holds it.
	AcquireLease(ctx context.Context, name, owner string, now, until time.Time) (token int64, ok bool, err error)
	// ReleaseLease gives the lease up, at once, if owner holds it.
	ReleaseLease(ctx context.Context, name, owner string) error
	// Fence returns the writes made on behalf of lease l. Each checks,
	// in its own transaction, that l's token is still the lease's, and
	// fails with ErrLeaseLost, writing nothing, when it is not.
	Fence(l Lease) LeasedWrites

	// DueOutbox returns up to limit pending entries due at now, oldest
	// first, each the oldest open entry of its record (later edits wait
	// for earlier ones).
	DueOutbox(ctx context.Context, now time.Time, limit int) ([]Entry, error)
	// OutboxEntries lists entries in the given states, newest first.
	OutboxEntries(ctx context.Context, states []string, limit int) ([]Entry, error)
	// OutboxCounts counts entries per state.
	OutboxCounts(ctx context.Context) (map[string]int64, error)
	// CreatedID returns where the create of a provisional record id
	// stands: its entry's state ("" when there is none) and, once
	// synced, the ERP id it got.
	CreatedID(ctx context.Context, kind string, provisional int64) (erpID int64, state string, err error)
	// FailedEntry returns the oldest failed entry of a record (a
	// not-found error when none failed).
	FailedEntry(ctx context.Context, kind string, id int64) (Entry, error)
	// RetryOutbox makes a failed entry pending again, due now.
	RetryOutbox(ctx context.Context, id int64, now time.Time) error
	// Files lists a record's stored attachments (in ERP mode: the files
	// the portal added, pending, failed or delivered, as Write says);
	// File returns one with its content.
	Files(ctx context.Context, kind string, recordID int64) ([]records.File, error)
	File(ctx context.Context, kind string, recordID, fileID int64) (records.File, error)
	// DiscardOutbox drops a record's open entries; the record is replaced
	// by rec (the ERP's version) or, when rec is nil (a create that never
	// landed, or a record the ERP no longer has), deleted.
	DiscardOutbox(ctx context.Context, e Entry, rec *records.Record, now time.Time) error
}

// LeasedWrites are the writes the lease holder makes: pulled records,
// where each pull stands, and how each outbox entry ended.
type LeasedWrites interface {
	// SaveSyncState stores st as is (run bookkeeping, errors, resets).
	SaveSyncState(ctx context.Context, st State) error
	// ApplyPull stores a batch in one transaction: upserts recs (but
	// never over a record whose own write is pending or failed: the
	// outbox owns it until then), deletes the ids in deleted (likewise)
	// and saves st, so a crash leaves the batch and its checkpoint
	// together or neither.
	ApplyPull(ctx context.Context, kind string, recs []records.Record, deleted []int64, st State) error
	// ApplyRebasedPull is ApplyPull for a pull made after the connector's
	// time base changed (the NetSuite mapping's timezone was corrected):
	// the records' times are in the new base and may be earlier than the
	// stored versions' though these are the same or older, so each record
	// in recs replaces the stored one whatever their times. A record
	// whose own write is pending or failed is still left alone, and the
	// document is still merged into the stored one.
	ApplyRebasedPull(ctx context.Context, kind string, recs []records.Record, deleted []int64, st State) error
	// CompleteOutbox marks e synced with the record as the ERP has it
	// now: for a create, the provisional record becomes rec (its ERP id)
	// everywhere it is referenced; the record's write state is cleared
	// unless other entries for it are still open. It does nothing when e
	// is no longer pending (another instance finished it, or it was
	// discarded).
	CompleteOutbox(ctx context.Context, e Entry, rec records.Record, now time.Time) error
	// CompleteAttachment marks e (a note or a file) synced as erpID in
	// the ERP, and clears the record's write state unless other entries
	// for it are still open. With no other entry open, rec (when not nil:
	// the record as the ERP has it now) replaces the stored record, as
	// CompleteOutbox's does: an edit completed while e was still on its
	// way kept the portal's version until now. It does nothing when e is
	// no longer pending.
	CompleteAttachment(ctx context.Context, e Entry, erpID int64, rec *records.Record, now time.Time) error
	// DeferOutbox records a failed attempt that will be retried at next.
	DeferOutbox(ctx context.Context, id int64, attempts int, next time.Time, msg string, now time.Time) error
	// FailOutbox marks e failed with the ERP's message, shown on the
	// record until the user retries, edits it again or discards it (a
	// no-op when e is no longer pending).
	FailOutbox(ctx context.Context, e Entry, msg string, now time.Time) error
}
