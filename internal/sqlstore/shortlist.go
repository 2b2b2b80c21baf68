package sqlstore

import (
	"context"
	"strconv"
	"time"

	"github.com/portico/portico/internal/portal"
	"github.com/portico/portico/internal/shortlist"
)

// Users' shortlists: recent records and favourites (migration 0021; see
// package shortlist).

var (
	// shortlistTurn takes the user's next shortlist number from
	// tenant_sequences and holds that row's lock until the transaction
	// ends: one user's shortlist writes queue, on every instance, so each
	// sees the last one's result and the shelf's limit holds.
	shortlistTurn = scope(`INSERT INTO tenant_sequences AS s (tenant_id, name, last) VALUES (:tenant, ?, 1)
		ON CONFLICT (tenant_id, name) DO UPDATE SET last = s.last + 1
		RETURNING last`)
	shortlistRecordExists = scope(`SELECT COUNT(*) FROM records WHERE tenant_id = :tenant AND kind = ? AND id = ?`)
	// shortlistDropDeleted forgets the shelf's entries whose record is gone.
	shortlistDropDeleted = scope(`DELETE FROM shortlists WHERE tenant_id = :tenant AND user_id = ? AND shelf = ?
		AND NOT EXISTS (SELECT 1 FROM records r
			WHERE r.tenant_id = shortlists.tenant_id AND r.kind = shortlists.kind AND r.id = shortlists.record_id)`)
	// shortlistRoom counts the shelf's entries, and whether the record is one.
	shortlistRoom = scope(`SELECT COUNT(*), COALESCE(SUM(CASE WHEN kind = ? AND record_id = ? THEN 1 ELSE 0 END), 0)
		FROM shortlists WHERE tenant_id = :tenant AND user_id = ? AND shelf = ?`)
	shortlistPut = scope(`INSERT INTO shortlists (tenant_id, user_id, shelf, kind, record_id, seq, at)
		VALUES (:tenant, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (tenant_id, user_id, shelf, kind, record_id) DO UPDATE SET seq = excluded.seq, at = excluded.at`)
	// shortlistEvict keeps the shelf's newest entries, as many as the
	// OFFSET: each user's seq numbers are distinct, so the cut is exact.
	shortlistEvict = scope(`DELETE FROM shortlists WHERE tenant_id = :tenant AND user_id = ? AND shelf = ? AND seq <=
		(SELECT seq FROM shortlists WHERE tenant_id = :tenant AND user_id = ? AND shelf = ? ORDER BY seq DESC LIMIT 1 OFFSET ?)`)
	shortlistDelete = scope(`DELETE FROM shortlists WHERE tenant_id = :tenant AND user_id = ? AND shelf = ? AND kind = ? AND record_id = ?`)
	shortlistRead   = scope(`SELECT l.kind, l.record_id, r.title, r.code, r.status, l.at FROM shortlists l
		JOIN records r ON r.tenant_id = l.tenant_id AND r.kind = l.kind AND r.id = l.record_id
		WHERE l.tenant_id = :tenant AND l.user_id = ? AND l.shelf = ? ORDER BY l.seq DESC LIMIT ?`)
)

var _ shortlist.Store = (*Tenant)(nil)

// ShortlistAdd puts a record on a user's shelf (see shortlist.Store).
func (t *Tenant) ShortlistAdd(ctx context.Context, userID int64, shelf shortlist.Shelf, kind string, id int64, at time.Time) error {
	limit, sh := shelf.Limit(), string(shelf)
	return t.inTx(ctx, func(tx *Tenant) error {
		var seq int64
		if err := tx.queryRow(ctx, shortlistTurn, "shortlist:"+strconv.FormatInt(userID, 10)).Scan(&seq); err != nil {
			return err
		}
		var n int
		if err := tx.queryRow(ctx, shortlistRecordExists, kind, id).Scan(&n); err != nil {
			return err
		}
		if n == 0 {
			return portal.Errorf(portal.CodeNotFound, "No such record.")
		}
		if _, err := tx.exec(ctx, shortlistDropDeleted, userID, sh); err != nil {
			return err
		}
		if !limit.Evict {
			var held, this int
			if err := tx.queryRow(ctx, shortlistRoom, kind, id, userID, sh).Scan(&held, &this); err != nil {
				return err
			}
			if this == 0 && held >= limit.Max {
				return shortlist.ErrFull
			}
		}
		if _, err := tx.exec(ctx, shortlistPut, userID, sh, kind, id, seq, at.UnixMilli()); err != nil {
			return err
		}
		if limit.Evict {
			if _, err := tx.exec(ctx, shortlistEvict, userID, sh, userID, sh, limit.Max); err != nil {
				return err
			}
		}
		return nil
	})
}

// ShortlistRemove takes a record off a user's shelf (see shortlist.Store).
func (t *Tenant) ShortlistRemove(ctx context.Context, userID int64, shelf shortlist.Shelf, kind string, id int64) error {
	_, err := t.exec(ctx, shortlistDelete, userID, string(shelf), kind, id)
	return err
}

// Shortlist answers a user's shelf, newest first (see shortlist.Store).
func (t *Tenant) Shortlist(ctx context.Context, userID int64, shelf shortlist.Shelf) ([]shortlist.Entry, error) {
	rows, err := t.query(ctx, shortlistRead, userID, string(shelf), shelf.Limit().Max)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []shortlist.Entry{}
	for rows.Next() {
		var e shortlist.Entry
		var at int64
		if err := rows.Scan(&e.Kind, &e.ID, &e.Name, &e.Code, &e.Status, &at); err != nil {
			return nil, err
		}
		e.At = time.UnixMilli(at).UTC()
		out = append(out, e)
	}
	return out, rows.Err()
}
