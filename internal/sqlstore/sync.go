package sqlstore

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/portico/portico/internal/access"
	"github.com/portico/portico/internal/erpsync"
	"github.com/portico/portico/internal/events"
	"github.com/portico/portico/internal/portal"
	"github.com/portico/portico/internal/records"
)

var (
	_ erpsync.Store      = (*Tenant)(nil)
	_ erpsync.BulkLoader = (*Tenant)(nil)
)

// BulkLoad is Store.BulkLoad, for a sync: a first full pull into an empty
// database builds the indexes once at the end. Only while the database
// has this one tenant: the records table, its indexes and its search
// triggers are every tenant's, and with several (issue 39) another
// tenant's first pull, running at the same moment, would write rows while
// they are gone (their search entries never made) and queries would find
// the table without its indexes. Then load simply runs.
func (t *Tenant) BulkLoad(ctx context.Context, load func() error) error {
	var n int
	if err := t.r.QueryRowContext(ctx, `SELECT COUNT(*) FROM tenants`).Scan(&n); err != nil {
		return err
	}
	if n > 1 {
		return load()
	}
	return t.s.BulkLoad(ctx, load)
}

var (
	insertOutbox = scope(`INSERT INTO outbox (tenant_id, kind, record_id, op, fields, idem_key, state, next_at, created_at, updated_at)
		VALUES (:tenant, ?, ?, ?, ?, ?, 'pending', ?, ?, ?) RETURNING id`)
	setOutboxRecord = scope(`UPDATE outbox SET record_id = ? WHERE tenant_id = :tenant AND id = ?`)
	failedEntries   = scope(`SELECT ` + entryColumns + ` FROM outbox WHERE tenant_id = :tenant AND kind = ? AND record_id = ?
		AND state = 'failed' AND op IN ('create', 'update') ORDER BY id`)
	supersedeFailed = scope(`UPDATE outbox SET state = 'discarded', updated_at = ?
		WHERE tenant_id = :tenant AND kind = ? AND record_id = ? AND state = 'failed' AND op IN ('create', 'update')`)
)

// enqueue adds the outbox entry of a write to record (kind, id) made at
// the given time, due at once. An edit of a record whose earlier change
// the ERP refused supersedes it: the new entry carries both changes (the
// new values winning) and is a create if the refused one was, so
// correcting a refused change is simply editing the record again. A note
// or a file neither supersedes nor is superseded: it waits behind the
// refused change until that is retried or discarded.
func (t *Tenant) enqueue(ctx context.Context, kind string, id int64, at time.Time, o *records.Outbound) (int64, error) {
	now := at.UnixMilli()
	op, fields := o.Op, o.Fields
	if fields == nil {
		fields = json.RawMessage("{}")
	}
	if id != 0 && records.ChangesFields(o.Op) {
		failed, err := t.entries(ctx, failedEntries, kind, id)
		if err != nil {
			return 0, err
		}
		if len(failed) > 0 {
			merged := map[string]json.RawMessage{}
			for _, e := range append(failed, erpsync.Entry{Op: o.Op, Fields: o.Fields}) {
				if err := json.Unmarshal(e.Fields, &merged); err != nil {
					return 0, fmt.Errorf("merge refused change %d: %w", e.ID, err)
				}
				if e.Op == records.OpCreate {
					op = records.OpCreate
				}
			}
			if fields, err = json.Marshal(merged); err != nil {
				return 0, err
			}
			if _, err := t.exec(ctx, supersedeFailed, now, kind, id); err != nil {
				return 0, err
			}
		}
	}
	var outboxID int64
	err := t.queryRow(ctx, insertOutbox, kind, id, op, string(fields), o.Key, now, now, now).Scan(&outboxID)
	if err != nil {
		return 0, fmt.Errorf("enqueue write: %w", err)
	}
	return outboxID, nil
}

const stateColumns = `kind, cp_modified, cp_id, deleted_since, last_run, last_success, pulled_total, last_pulled, last_deleted, last_error,
	unavailable, missing, mapping`

var (
	selectSyncStates = scope(`SELECT ` + stateColumns + ` FROM sync_state WHERE tenant_id = :tenant ORDER BY kind`)
	upsertSyncState  = scope(`INSERT INTO sync_state (tenant_id, ` + stateColumns + `) VALUES (:tenant, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (tenant_id, kind) DO UPDATE SET cp_modified = excluded.cp_modified, cp_id = excluded.cp_id,
		deleted_since = excluded.deleted_since, last_run = excluded.last_run, last_success = excluded.last_success,
		pulled_total = excluded.pulled_total, last_pulled = excluded.last_pulled, last_deleted = excluded.last_deleted,
		last_error = excluded.last_error, unavailable = excluded.unavailable, missing = excluded.missing,
		mapping = excluded.mapping`)
)

// SyncStates implements erpsync.Store.
func (t *Tenant) SyncStates(ctx context.Context) ([]erpsync.State, error) {
	rows, err := t.query(ctx, selectSyncStates)
	if err != nil {
		return nil, fmt.Errorf("sync states: %w", err)
	}
	defer rows.Close()
	var out []erpsync.State
	for rows.Next() {
		var (
			st                            erpsync.State
			cpMod, delSince, run, success int64
		)
		if err := rows.Scan(&st.Kind, &cpMod, &st.Checkpoint.ID, &delSince, &run, &success, &st.PulledTotal,
			&st.LastPulled, &st.LastDeleted, &st.LastError, &st.Unavailable, &st.Missing, &st.Mapping); err != nil {
			return nil, err
		}
		st.Checkpoint.Modified, st.DeletedSince = fromMillis(cpMod), fromMillis(delSince)
		st.LastRun, st.LastSuccess = fromMillis(run), fromMillis(success)
		out = append(out, st)
	}
	return out, rows.Err()
}

// fromMillis reads a stored time; 0 is the zero time.
func fromMillis(ms int64) time.Time {
	if ms == 0 {
		return time.Time{}
	}
	return time.UnixMilli(ms).UTC()
}

// toMillis stores a time; the zero time is 0.
func toMillis(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixMilli()
}

// SaveSyncState stores st outside any lease (the engine saves through
// Fence).
func (t *Tenant) SaveSyncState(ctx context.Context, st erpsync.State) error {
	return t.saveSyncState(ctx, st)
}

func (t *Tenant) saveSyncState(ctx context.Context, st erpsync.State) error {
	_, err := t.exec(ctx, upsertSyncState, st.Kind, toMillis(st.Checkpoint.Modified), st.Checkpoint.ID,
		toMillis(st.DeletedSince), toMillis(st.LastRun), toMillis(st.LastSuccess), st.PulledTotal, st.LastPulled,
		st.LastDeleted, st.LastError, st.Unavailable, st.Missing, st.Mapping)
	if err != nil {
		return fmt.Errorf("save sync state: %w", err)
	}
	return nil
}

var recordIDs = scope(`SELECT id FROM records WHERE tenant_id = :tenant AND kind = ? ORDER BY id`)

// RecordIDs implements erpsync.Store.
func (t *Tenant) RecordIDs(ctx context.Context, kind string) ([]int64, error) {
	return t.queryIDs(ctx, recordIDs, kind)
}

// deleteBatch bounds the ids one DELETE names.
const deleteBatch = 400

// ApplyPull is erpsync.LeasedWrites' ApplyPull outside any lease (the
// engine applies through Fence).
func (t *Tenant) ApplyPull(ctx context.Context, kind string, recs []records.Record, deleted []int64, st erpsync.State) error {
	return t.applyPull(ctx, nil, kind, recs, deleted, st, false)
}

// applyPull stores a pull's batch (putRecords, rebased or not), applies
// its deletions and saves st, in one transaction under lease l.
func (t *Tenant) applyPull(ctx context.Context, l *erpsync.Lease, kind string, recs []records.Record, deleted []int64, st erpsync.State, rebased bool) error {
	var logged bool
	err := t.inFencedTx(ctx, l, func(tx *Tenant) error {
		// What the batch changes, for its live-update event: the overlap's
		// re-reads and deletions already applied change nothing.
		changed, err := tx.pullChanges(ctx, kind, recs, deleted)
		if err != nil {
			return err
		}
		if err := tx.putRecords(ctx, recs, rebased); err != nil {
			return err
		}
		for start := 0; start < len(deleted); start += deleteBatch {
			ids := deleted[start:min(start+deleteBatch, len(deleted))]
			args := []any{kind}
			for _, id := range ids {
				args = append(args, id)
			}
			in := strings.Repeat("?, ", len(ids)-1) + "?"
			if _, err := tx.exec(ctx, scope(`DELETE FROM files WHERE tenant_id = :tenant AND kind = ? AND record_id IN (`+in+`)
				AND record_id NOT IN (SELECT id FROM records WHERE tenant_id = :tenant AND kind = files.kind AND write_state <> '')`), args...); err != nil {
				return fmt.Errorf("apply deletions: %w", err)
			}
			if _, err := tx.exec(ctx, scope(`DELETE FROM records WHERE tenant_id = :tenant AND kind = ? AND id IN (`+in+`) AND write_state = ''`), args...); err != nil {
				return fmt.Errorf("apply deletions: %w", err)
			}
		}
		if err := tx.saveSyncState(ctx, st); err != nil {
			return err
		}
		if len(changed) == 0 {
			return nil
		}
		logged, err = tx.logEvents(ctx, events.RecordChanges(kind, events.ActionSync, changed, 0, time.Now(), "")...)
		return err
	})
	t.announce(ctx, err == nil && logged)
	return err
}

// pullChanges returns the ids of recs that are new or differ in their
// modification time from the stored record, and of deleted that are
// stored (and would go).
func (t *Tenant) pullChanges(ctx context.Context, kind string, recs []records.Record, deleted []int64) ([]int64, error) {
	stored := map[int64]int64{} // id → modified_at
	ids := make([]int64, 0, len(recs)+len(deleted))
	for _, r := range recs {
		ids = append(ids, r.ID)
	}
	ids = append(ids, deleted...)
	for start := 0; start < len(ids); start += deleteBatch {
		batch := ids[start:min(start+deleteBatch, len(ids))]
		args := []any{kind}
		for _, id := range batch {
			args = append(args, id)
		}
		in := strings.Repeat("?, ", len(batch)-1) + "?"
		rows, err := t.query(ctx, scope(`SELECT id, modified_at FROM records WHERE tenant_id = :tenant AND kind = ? AND id IN (`+in+`)`), args...)
		if err != nil {
			return nil, err
		}
		for rows.Next() {
			var id, mod int64
			if err := rows.Scan(&id, &mod); err != nil {
				rows.Close()
				return nil, err
			}
			stored[id] = mod
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, err
		}
	}
	var changed []int64
	for _, r := range recs {
		if mod, ok := stored[r.ID]; !ok || mod != r.ModifiedAt.UnixMilli() {
			changed = append(changed, r.ID)
		}
	}
	for _, id := range deleted {
		if _, ok := stored[id]; ok {
			changed = append(changed, id)
		}
	}
	return changed, nil
}

// The sync lease's statements. A claim first renews the lease if its
// owner has it (renewLease), else creates it (insertLease), else locks it
// (the dialect's lockLease) and takes it over if it has lapsed
// (takeLease), all in one transaction, so two instances racing for a
// lapsed lease cannot both win. A renewal changes neither the owner nor
// the token, and so never waits for the owner's own fenced writes, which
// lock the row against a change of owner only (the dialect's fenceLease);
// a takeover locks the row outright, and finding it locked by a fenced
// write (the old owner's, still running) does not wait: the lease stays
// the old owner's until the next claim. The token grows when the owner
// changes.
var (
	renewLease = scope(`UPDATE sync_leases SET until = ? WHERE tenant_id = :tenant AND name = ? AND owner = ?
		RETURNING token`)
	insertLease = scope(`INSERT INTO sync_leases (tenant_id, name, owner, until, token) VALUES (:tenant, ?, ?, ?, 1)
		ON CONFLICT (tenant_id, name) DO NOTHING RETURNING token`)
	lockLeaseSQL = `SELECT owner, until FROM sync_leases WHERE tenant_id = :tenant AND name = ?`
	readLease    = scope(lockLeaseSQL)
	takeLease    = scope(`UPDATE sync_leases SET owner = ?, until = ?, token = token + 1 WHERE tenant_id = :tenant AND name = ?
		RETURNING token`)
	// releaseLease expires the lease but keeps its row, and so its token.
	releaseLease  = scope(`UPDATE sync_leases SET until = 0 WHERE tenant_id = :tenant AND name = ? AND owner = ?`)
	fenceLeaseSQL = `SELECT 1 FROM sync_leases WHERE tenant_id = :tenant AND name = ? AND token = ?`
)

// AcquireLease implements erpsync.Store. Its statements run on the
// store's lease connections (see Store.inLeaseTx), so no other work
// queued for the database delays a renewal.
func (t *Tenant) AcquireLease(ctx context.Context, name, owner string, now, until time.Time) (int64, bool, error) {
	var (
		token int64
		held  bool
	)
	err := t.inLeaseTx(ctx, func(tx *Tenant) error {
		held = false
		err := tx.queryRow(ctx, renewLease, until.UnixMilli(), name, owner).Scan(&token)
		if errors.Is(err, sql.ErrNoRows) {
			err = tx.queryRow(ctx, insertLease, name, owner, until.UnixMilli()).Scan(&token)
		}
		if errors.Is(err, sql.ErrNoRows) {
			// Another's, or owner's own, made by a claim of its that
			// committed since this one's renewal looked.
			var (
				holder string
				lapses int64
			)
			err = tx.queryRow(ctx, tx.d.lockLease, name).Scan(&holder, &lapses)
			locked := errors.Is(err, sql.ErrNoRows) // by a fenced write or a claim: no takeover now
			if locked {
				err = tx.queryRow(ctx, readLease, name).Scan(&holder, &lapses)
			}
			switch {
			case err != nil:
				return err
			case holder == owner:
				err = tx.queryRow(ctx, renewLease, until.UnixMilli(), name, owner).Scan(&token)
			case locked || lapses >= now.UnixMilli():
				return nil
			default:
				err = tx.queryRow(ctx, takeLease, owner, until.UnixMilli(), name).Scan(&token)
			}
		}
		held = err == nil
		return err
	})
	if err != nil {
		return 0, false, fmt.Errorf("acquire lease: %w", err)
	}
	return token, held, nil
}

// ReleaseLease implements erpsync.Store.
func (t *Tenant) ReleaseLease(ctx context.Context, name, owner string) error {
	return t.inLeaseTx(ctx, func(tx *Tenant) error {
		_, err := tx.exec(ctx, releaseLease, name, owner)
		return err
	})
}

// inFencedTx runs fn in a transaction that holds lease l (fence) from its
// first statement: what every write on behalf of a lease does.
func (t *Tenant) inFencedTx(ctx context.Context, l *erpsync.Lease, fn func(tx *Tenant) error) error {
	return t.inTx(ctx, func(tx *Tenant) error {
		if err := tx.fence(ctx, l); err != nil {
			return err
		}
		return fn(tx)
	})
}

// fence fails with erpsync.ErrLeaseLost unless l (when not nil) still
// holds the lease's token; it must run in the transaction it guards.
func (t *Tenant) fence(ctx context.Context, l *erpsync.Lease) error {
	if l == nil {
		return nil
	}
	var one int
	switch err := t.queryRow(ctx, t.d.fenceLease, l.Name, l.Token).Scan(&one); {
	case errors.Is(err, sql.ErrNoRows):
		return erpsync.ErrLeaseLost
	case err != nil:
		return fmt.Errorf("check the sync lease: %w", err)
	}
	return nil
}

// Fence implements erpsync.Store.
func (t *Tenant) Fence(l erpsync.Lease) erpsync.LeasedWrites { return leased{t, l} }

// leased is a tenant's writes on behalf of a lease.
type leased struct {
	t *Tenant
	l erpsync.Lease
}

func (w leased) SaveSyncState(ctx context.Context, st erpsync.State) error {
	return w.t.inFencedTx(ctx, &w.l, func(tx *Tenant) error {
		return tx.saveSyncState(ctx, st)
	})
}

func (w leased) ApplyPull(ctx context.Context, kind string, recs []records.Record, deleted []int64, st erpsync.State) error {
	return w.t.applyPull(ctx, &w.l, kind, recs, deleted, st, false)
}

func (w leased) ApplyRebasedPull(ctx context.Context, kind string, recs []records.Record, deleted []int64, st erpsync.State) error {
	return w.t.applyPull(ctx, &w.l, kind, recs, deleted, st, true)
}

func (w leased) CompleteOutbox(ctx context.Context, e erpsync.Entry, rec records.Record, now time.Time) error {
	return w.t.completeOutbox(ctx, &w.l, e, rec, now)
}

func (w leased) CompleteAttachment(ctx context.Context, e erpsync.Entry, erpID int64, rec *records.Record, now time.Time) error {
	return w.t.completeAttachment(ctx, &w.l, e, erpID, rec, now)
}

func (w leased) DeferOutbox(ctx context.Context, id int64, attempts int, next time.Time, msg string, now time.Time) error {
	return w.t.inFencedTx(ctx, &w.l, func(tx *Tenant) error {
		return tx.DeferOutbox(ctx, id, attempts, next, msg, now)
	})
}

func (w leased) FailOutbox(ctx context.Context, e erpsync.Entry, msg string, now time.Time) error {
	return w.t.failOutbox(ctx, &w.l, e, msg, now)
}

const entryColumns = `id, kind, record_id, op, fields, idem_key, state, attempts, next_at, error, erp_id, created_at`

var (
	dueOutbox = scope(`SELECT ` + entryColumns + ` FROM outbox o
		WHERE o.tenant_id = :tenant AND o.state = 'pending' AND o.next_at <= ?
		AND NOT EXISTS (SELECT 1 FROM outbox p WHERE p.tenant_id = o.tenant_id AND p.kind = o.kind
			AND p.record_id = o.record_id AND p.id < o.id AND p.state IN ('pending', 'failed'))
		ORDER BY o.id LIMIT ?`)
	getOutboxEntry = scope(`SELECT ` + entryColumns + ` FROM outbox WHERE tenant_id = :tenant AND id = ?`)
	firstFailed    = scope(`SELECT ` + entryColumns + ` FROM outbox WHERE tenant_id = :tenant AND kind = ? AND record_id = ?
		AND state = 'failed' ORDER BY id LIMIT 1`)
	countOutbox = scope(`SELECT state, COUNT(*) FROM outbox WHERE tenant_id = :tenant GROUP BY state`)
	createdID   = scope(`SELECT state, erp_id FROM outbox WHERE tenant_id = :tenant AND kind = ? AND record_id = ?
		AND op = 'create' ORDER BY id DESC LIMIT 1`)
)

func scanEntry(s rowScanner) (erpsync.Entry, error) {
	var (
		e             erpsync.Entry
		fields        string
		next, created int64
		erpID         sql.NullInt64
	)
	err := s.Scan(&e.ID, &e.Kind, &e.RecordID, &e.Op, &fields, &e.Key, &e.State, &e.Attempts, &next, &e.Error, &erpID, &created)
	e.Fields, e.NextAt, e.Created, e.ERPID = []byte(fields), fromMillis(next), fromMillis(created), erpID.Int64
	return e, err
}

func (t *Tenant) entries(ctx context.Context, st scoped, args ...any) ([]erpsync.Entry, error) {
	rows, err := t.query(ctx, st, args...)
	if err != nil {
		return nil, fmt.Errorf("outbox: %w", err)
	}
	defer rows.Close()
	var out []erpsync.Entry
	for rows.Next() {
		e, err := scanEntry(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, e)
	}
	return out, rows.Err()
}

// DueOutbox implements erpsync.Store.
func (t *Tenant) DueOutbox(ctx context.Context, now time.Time, limit int) ([]erpsync.Entry, error) {
	return t.entries(ctx, dueOutbox, now.UnixMilli(), limit)
}

// outboxEntry returns one entry (a not-found error when none).
func (t *Tenant) outboxEntry(ctx context.Context, id int64) (erpsync.Entry, error) {
	e, err := scanEntry(t.queryRow(ctx, getOutboxEntry, id))
	if errors.Is(err, sql.ErrNoRows) {
		return e, portal.Errorf(portal.CodeNotFound, "No such outbox entry.")
	}
	return e, err
}

// FailedEntry implements erpsync.Store.
func (t *Tenant) FailedEntry(ctx context.Context, kind string, id int64) (erpsync.Entry, error) {
	e, err := scanEntry(t.queryRow(ctx, firstFailed, kind, id))
	if errors.Is(err, sql.ErrNoRows) {
		return e, portal.Errorf(portal.CodeNotFound, "NetSuite has refused no change of this record.")
	}
	return e, err
}

// OutboxEntries implements erpsync.Store.
func (t *Tenant) OutboxEntries(ctx context.Context, states []string, limit int) ([]erpsync.Entry, error) {
	if len(states) == 0 {
		return nil, nil
	}
	args := make([]any, 0, len(states)+1)
	for _, s := range states {
		args = append(args, s)
	}
	args = append(args, limit)
	in := strings.Repeat("?, ", len(states)-1) + "?"
	return t.entries(ctx, scope(`SELECT `+entryColumns+` FROM outbox WHERE tenant_id = :tenant AND state IN (`+in+`)
		ORDER BY id DESC LIMIT ?`), args...)
}

// OutboxCounts implements erpsync.Store.
func (t *Tenant) OutboxCounts(ctx context.Context) (map[string]int64, error) {
	rows, err := t.query(ctx, countOutbox)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]int64{}
	for rows.Next() {
		var s string
		var n int64
		if err := rows.Scan(&s, &n); err != nil {
			return nil, err
		}
		out[s] = n
	}
	return out, rows.Err()
}

// CreatedID implements erpsync.Store.
func (t *Tenant) CreatedID(ctx context.Context, kind string, provisional int64) (int64, string, error) {
	var (
		state string
		id    sql.NullInt64
	)
	err := t.queryRow(ctx, createdID, kind, provisional).Scan(&state, &id)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, "", nil
	}
	return id.Int64, state, err
}

var (
	openForRecord = scope(`SELECT COUNT(*) FROM outbox WHERE tenant_id = :tenant AND kind = ? AND record_id = ?
		AND state IN ('pending', 'failed') AND id <> ?`)
	deleteRecord  = scope(`DELETE FROM records WHERE tenant_id = :tenant AND kind = ? AND id = ?`)
	replaceRecord = scope(`INSERT INTO records (tenant_id, ` + recordColumns + `, write_state, write_error)
		VALUES (:tenant, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, :doc, '', '')
		ON CONFLICT (tenant_id, kind, id) DO UPDATE SET external_id = excluded.external_id, title = excluded.title,
		code = excluded.code, status = excluded.status, parent_id = excluded.parent_id, parent_name = excluded.parent_name,
		project_id = excluded.project_id, project_name = excluded.project_name, amount = excluded.amount,
		occurred_on = excluded.occurred_on, modified_at = excluded.modified_at, currency = excluded.currency,
		fields = excluded.fields, write_state = '', write_error = ''`)
	moveParentRefs  = scope(`UPDATE records SET parent_id = ? WHERE tenant_id = :tenant AND parent_id = ?`)
	moveProjectRefs = scope(`UPDATE records SET project_id = ? WHERE tenant_id = :tenant AND project_id = ?`)
	moveOutbox      = scope(`UPDATE outbox SET record_id = ? WHERE tenant_id = :tenant AND kind = ? AND record_id = ? AND id <> ?`)
	moveAudit       = scope(`UPDATE audit_log SET record_id = ? WHERE tenant_id = :tenant AND kind = ? AND record_id = ?`)
	moveFiles       = scope(`UPDATE files SET record_id = ? WHERE tenant_id = :tenant AND kind = ? AND record_id = ?`)
	setFileState    = scope(`UPDATE files SET write_state = ?, write_error = ? WHERE tenant_id = :tenant AND id = ?`)
	fileDelivered   = scope(`UPDATE files SET write_state = '', write_error = '', erp_id = ? WHERE tenant_id = :tenant AND id = ?`)
	dropUnsentFiles = scope(`DELETE FROM files WHERE tenant_id = :tenant AND kind = ? AND record_id = ? AND write_state IN ('pending', 'failed')`)
	syncedOutbox    = scope(`UPDATE outbox SET state = 'synced', erp_id = ?, error = '', updated_at = ?
		WHERE tenant_id = :tenant AND id = ? AND state = 'pending'`)
	deferOutbox = scope(`UPDATE outbox SET attempts = ?, next_at = ?, error = ?, updated_at = ?
		WHERE tenant_id = :tenant AND id = ? AND state = 'pending'`)
	failOutbox  = scope(`UPDATE outbox SET state = 'failed', error = ?, updated_at = ? WHERE tenant_id = :tenant AND id = ?`)
	retryOutbox = scope(`UPDATE outbox SET state = 'pending', attempts = 0, next_at = ?, error = '', updated_at = ?
		WHERE tenant_id = :tenant AND id = ? AND state = 'failed'`)
	discardOutbox = scope(`UPDATE outbox SET state = 'discarded', updated_at = ?
		WHERE tenant_id = :tenant AND kind = ? AND record_id = ? AND state IN ('pending', 'failed')`)
	setWriteState = scope(`UPDATE records SET write_state = ?, write_error = ? WHERE tenant_id = :tenant AND kind = ? AND id = ?`)
)

// replace stores rec as the ERP has it, its write state cleared.
func (t *Tenant) replace(ctx context.Context, r records.Record) error {
	_, err := t.exec(ctx, replaceRecord, r.Kind, r.ID, nullString(r.ExternalID), r.Title, r.Code, r.Status,
		nullID(r.ParentID), r.ParentName, nullID(r.ProjectID), r.ProjectName, r.Amount, r.Date,
		r.ModifiedAt.UnixMilli(), r.Currency, string(r.Fields))
	return err
}

// CompleteOutbox is erpsync.LeasedWrites' CompleteOutbox outside any
// lease (the engine completes through Fence).
func (t *Tenant) CompleteOutbox(ctx context.Context, e erpsync.Entry, rec records.Record, now time.Time) error {
	return t.completeOutbox(ctx, nil, e, rec, now)
}

func (t *Tenant) completeOutbox(ctx context.Context, l *erpsync.Lease, e erpsync.Entry, rec records.Record, now time.Time) error {
	var logged bool
	err := t.inFencedTx(ctx, l, func(tx *Tenant) error {
		res, err := tx.exec(ctx, syncedOutbox, rec.ID, now.UnixMilli(), e.ID)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n != 1 {
			return nil // finished elsewhere, or discarded meanwhile
		}
		if e.Op == records.OpCreate && e.RecordID != rec.ID {
			prov := e.RecordID
			steps := []struct {
				st   scoped
				args []any
			}{
				{deleteRecord, []any{e.Kind, prov}},
				{moveParentRefs, []any{rec.ID, prov}},
				{moveProjectRefs, []any{rec.ID, prov}},
				{moveOutbox, []any{rec.ID, e.Kind, prov, e.ID}},
				{moveAudit, []any{rec.ID, e.Kind, prov}},
				{moveFiles, []any{rec.ID, e.Kind, prov}},
			}
			for _, s := range steps {
				if _, err := tx.exec(ctx, s.st, s.args...); err != nil {
					return fmt.Errorf("complete create: %w", err)
				}
			}
		}
		var open int
		if err := tx.queryRow(ctx, openForRecord, e.Kind, rec.ID, e.ID).Scan(&open); err != nil {
			return err
		}
		// With later edits still on their way, the local record holds
		// them: the ERP's version would hide them until they land.
		if open == 0 || e.Op == records.OpCreate {
			if err := tx.replace(ctx, rec); err != nil {
				return fmt.Errorf("complete write: %w", err)
			}
			if open > 0 {
				if _, err := tx.exec(ctx, setWriteState, records.WritePending, "", e.Kind, rec.ID); err != nil {
					return err
				}
			}
		}
		if err := tx.Audit(ctx, access.AuditEvent{At: now, Event: records.EventSynced, Kind: e.Kind, RecordID: rec.ID,
			Detail: map[string]any{"result": fmt.Sprintf("in NetSuite (internal id %d)", rec.ID)}}); err != nil {
			return err
		}
		state, ids := "synced", []int64{rec.ID}
		if open > 0 {
			state = records.WritePending
		}
		if e.RecordID != rec.ID { // a create: the provisional id too
			ids = append(ids, e.RecordID)
		}
		logged, err = tx.logEvents(ctx, events.RecordChange(e.Kind, events.ActionWriteState, ids, 0, now, state))
		return err
	})
	t.announce(ctx, err == nil && logged)
	return err
}

// setEntryFile sets the write state of the file an OpFile entry delivers
// (nothing for other entries).
func (t *Tenant) setEntryFile(ctx context.Context, e erpsync.Entry, state, msg string) error {
	if e.Op != records.OpFile {
		return nil
	}
	var ff records.FileFields
	if err := json.Unmarshal(e.Fields, &ff); err != nil {
		return fmt.Errorf("outbox entry %d: %w", e.ID, err)
	}
	_, err := t.exec(ctx, setFileState, state, msg, ff.FileID)
	return err
}

// CompleteAttachment is erpsync.LeasedWrites' CompleteAttachment outside
// any lease (the engine completes through Fence).
func (t *Tenant) CompleteAttachment(ctx context.Context, e erpsync.Entry, erpID int64, rec *records.Record, now time.Time) error {
	return t.completeAttachment(ctx, nil, e, erpID, rec, now)
}

func (t *Tenant) completeAttachment(ctx context.Context, l *erpsync.Lease, e erpsync.Entry, erpID int64, rec *records.Record, now time.Time) error {
	var logged bool
	err := t.inFencedTx(ctx, l, func(tx *Tenant) error {
		res, err := tx.exec(ctx, syncedOutbox, erpID, now.UnixMilli(), e.ID)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n != 1 {
			return nil // finished elsewhere, or discarded meanwhile
		}
		what := "note"
		if e.Op == records.OpFile {
			what = "file"
			var ff records.FileFields
			if err := json.Unmarshal(e.Fields, &ff); err != nil {
				return fmt.Errorf("outbox entry %d: %w", e.ID, err)
			}
			if _, err := tx.exec(ctx, fileDelivered, erpID, ff.FileID); err != nil {
				return err
			}
		}
		var open int
		if err := tx.queryRow(ctx, openForRecord, e.Kind, e.RecordID, e.ID).Scan(&open); err != nil {
			return err
		}
		state := "synced"
		switch {
		case open > 0:
			state = records.WritePending
		case rec != nil:
			if err := tx.replace(ctx, *rec); err != nil {
				return fmt.Errorf("complete %s: %w", what, err)
			}
		default:
			if _, err := tx.exec(ctx, setWriteState, records.WriteSynced, "", e.Kind, e.RecordID); err != nil {
				return err
			}
		}
		if err := tx.Audit(ctx, access.AuditEvent{At: now, Event: records.EventSynced, Kind: e.Kind, RecordID: e.RecordID,
			Detail: map[string]any{"result": fmt.Sprintf("%s in NetSuite (internal id %d)", what, erpID)}}); err != nil {
			return err
		}
		logged, err = tx.logEvents(ctx, events.RecordChange(e.Kind, events.ActionWriteState, []int64{e.RecordID}, 0, now, state))
		return err
	})
	t.announce(ctx, err == nil && logged)
	return err
}

// DeferOutbox is erpsync.LeasedWrites' DeferOutbox outside any lease
// (the engine defers through Fence).
func (t *Tenant) DeferOutbox(ctx context.Context, id int64, attempts int, next time.Time, msg string, now time.Time) error {
	_, err := t.exec(ctx, deferOutbox, attempts, next.UnixMilli(), msg, now.UnixMilli(), id)
	return err
}

// FailOutbox is erpsync.LeasedWrites' FailOutbox outside any lease (the
// engine fails entries through Fence).
func (t *Tenant) FailOutbox(ctx context.Context, e erpsync.Entry, msg string, now time.Time) error {
	return t.failOutbox(ctx, nil, e, msg, now)
}

func (t *Tenant) failOutbox(ctx context.Context, l *erpsync.Lease, e erpsync.Entry, msg string, now time.Time) error {
	var logged bool
	err := t.inFencedTx(ctx, l, func(tx *Tenant) error {
		res, err := tx.exec(ctx, failOutbox, msg, now.UnixMilli(), e.ID)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n != 1 {
			return nil
		}
		if _, err := tx.exec(ctx, setWriteState, records.WriteFailed, msg, e.Kind, e.RecordID); err != nil {
			return err
		}
		if err := tx.setEntryFile(ctx, e, records.WriteFailed, msg); err != nil {
			return err
		}
		if err := tx.Audit(ctx, access.AuditEvent{At: now, Event: records.EventRefused, Kind: e.Kind, RecordID: e.RecordID,
			Detail: map[string]any{"result": "refused: " + msg}}); err != nil {
			return err
		}
		logged, err = tx.logEvents(ctx, events.RecordChange(e.Kind, events.ActionWriteState, []int64{e.RecordID}, 0, now, records.WriteFailed))
		return err
	})
	t.announce(ctx, err == nil && logged)
	return err
}

// RetryOutbox implements erpsync.Store.
func (t *Tenant) RetryOutbox(ctx context.Context, id int64, now time.Time) error {
	var logged bool
	err := t.inTx(ctx, func(tx *Tenant) error {
		e, err := tx.outboxEntry(ctx, id)
		if err != nil {
			return err
		}
		res, err := tx.exec(ctx, retryOutbox, now.UnixMilli(), now.UnixMilli(), id)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n != 1 {
			return portal.Errorf(portal.CodeConflict, "Only a failed write can be retried.")
		}
		if _, err = tx.exec(ctx, setWriteState, records.WritePending, "", e.Kind, e.RecordID); err != nil {
			return err
		}
		if err := tx.setEntryFile(ctx, e, records.WritePending, ""); err != nil {
			return err
		}
		logged, err = tx.logEvents(ctx, events.RecordChange(e.Kind, events.ActionWriteState, []int64{e.RecordID}, 0, now, records.WritePending))
		return err
	})
	t.announce(ctx, err == nil && logged)
	return err
}

// DiscardOutbox implements erpsync.Store: every open entry of the record
// goes, since later edits were made on top of the discarded one, and so
// do the files it was to deliver (notes go with the document, which
// becomes the ERP's).
func (t *Tenant) DiscardOutbox(ctx context.Context, e erpsync.Entry, rec *records.Record, now time.Time) error {
	var logged bool
	err := t.inTx(ctx, func(tx *Tenant) error {
		if _, err := tx.exec(ctx, discardOutbox, now.UnixMilli(), e.Kind, e.RecordID); err != nil {
			return err
		}
		if _, err := tx.exec(ctx, dropUnsentFiles, e.Kind, e.RecordID); err != nil {
			return err
		}
		var err error
		if rec == nil {
			_, err = tx.exec(ctx, deleteRecord, e.Kind, e.RecordID)
		} else {
			err = tx.replace(ctx, *rec)
		}
		if err != nil {
			return err
		}
		// The record is the ERP's again (or gone): as after a sync.
		logged, err = tx.logEvents(ctx, events.RecordChange(e.Kind, events.ActionSync, []int64{e.RecordID}, 0, now, ""))
		return err
	})
	t.announce(ctx, err == nil && logged)
	return err
}
