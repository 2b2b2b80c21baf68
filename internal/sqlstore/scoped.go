package sqlstore

import (
	"context"
	"database/sql"
	"fmt"
	"strings"

	"github.com/portico/portico/internal/portal"
	"github.com/portico/portico/internal/records"
)

// tenantMarker stands for the tenant id in a scoped statement.
const tenantMarker = ":tenant"

// A record's document is JSONB on both engines: on SQLite its binary JSON
// (SQLite 3.45 and later), which json_extract and the other JSON
// functions read without parsing text, as every list showing a document
// field does for each row (2.6 µs a row instead of 5.8, measured on the
// benchmark's projects). Two markers keep the statements one text:
const (
	// docMarker is a document argument, JSON text: jsonb(?) on SQLite.
	docMarker = ":doc"
	// fieldsMarker reads the stored document as JSON text: json(fields)
	// on SQLite.
	fieldsMarker = ":fields"
)

// scoped is a statement over tenant data. It can only be made by scope,
// which refuses a statement that does not name the tenant, and it can only
// be run through a Tenant, which binds the tenant id itself. Together they
// make "a query that forgot the tenant" impossible to write, not merely
// against convention.
type scoped struct {
	sql string // with ? placeholders only
	// sqlite is sql as SQLite runs it: each tenant placeholder written +?
	// (unary plus, a no-op). SQLite plans a statement again at every run
	// when a bound value is compared with an indexed column it has STAT4
	// samples of (to plan for that value): every tenant statement would be
	// compiled anew per run, a prepared one too (a third of the CPU of a
	// list page). The plus hides the tenant id from that, so a prepared
	// statement runs as prepared; a tenant is never selective enough to be
	// worth a plan of its own.
	sqlite string
	slots  []bool // for each placeholder in order: true when it is the tenant
}

// scope parses a statement written with ? for arguments and :tenant for the
// tenant id. It panics when the statement never names the tenant; all
// scoped statements are package-level variables, so that panic happens at
// start-up and in every test run, never in production traffic.
func scope(q string) scoped {
	if !strings.Contains(q, tenantMarker) {
		panic(fmt.Sprintf("sqlstore: tenant statement does not filter by tenant: %s", q))
	}
	var s scoped
	var b, lite strings.Builder
	b.Grow(len(q))
	lite.Grow(len(q) + 16)
	for q != "" {
		// Copied up to the next marker or placeholder at once: list
		// statements are built per request.
		plain := strings.IndexAny(q, ":?")
		if plain < 0 {
			plain = len(q)
		}
		b.WriteString(q[:plain])
		lite.WriteString(q[:plain])
		q = q[plain:]
		switch {
		case q == "":
		case strings.HasPrefix(q, tenantMarker):
			s.slots = append(s.slots, true)
			b.WriteByte('?')
			lite.WriteString("+?")
			q = q[len(tenantMarker):]
		case strings.HasPrefix(q, docMarker):
			s.slots = append(s.slots, false)
			b.WriteByte('?')
			lite.WriteString("jsonb(?)")
			q = q[len(docMarker):]
		case strings.HasPrefix(q, fieldsMarker):
			b.WriteString("fields")
			lite.WriteString("json(fields)")
			q = q[len(fieldsMarker):]
		case q[0] == '?':
			s.slots = append(s.slots, false)
			b.WriteByte('?')
			lite.WriteByte('?')
			q = q[1:]
		default: // a colon of the statement's own
			b.WriteByte(q[0])
			lite.WriteByte(q[0])
			q = q[1:]
		}
	}
	s.sql, s.sqlite = b.String(), lite.String()
	return s
}

// text is the statement as engine d runs it.
func (s scoped) text(d dialect) string {
	return d.statement(s)
}

// bind interleaves the tenant id with the caller's arguments.
func (s scoped) bind(t portal.TenantID, args []any) []any {
	out := make([]any, 0, len(s.slots))
	next := 0
	for _, isTenant := range s.slots {
		if isTenant {
			out = append(out, string(t))
			continue
		}
		out = append(out, args[next])
		next++
	}
	if next != len(args) {
		panic(fmt.Sprintf("sqlstore: statement takes %d arguments, got %d: %s", next, len(args), s.sql))
	}
	return out
}

// querier is what both *sql.DB and *sql.Tx offer.
type querier interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// Tenant is the store seen from inside one tenant. Every method only ever
// reads or writes that tenant's rows.
type Tenant struct {
	id portal.TenantID
	q  querier // writes: the store's writer, or the transaction
	r  querier // reads: the store's readers, or the transaction
	d  dialect
	s  *Store
}

// Tenant returns the handle for tenant id, reading its records as its
// kinds have them (SetKinds).
func (s *Store) Tenant(id portal.TenantID) *Tenant {
	d := s.d
	if m := s.kinds.Load(); m != nil {
		d.kinds = (*m)[id]
	}
	return &Tenant{id: id, q: s.db, r: s.rdb, d: d, s: s}
}

// SetKinds makes each tenant's kinds those of byTenant (its ERP account's
// fields added to the code's), for the handles Tenant returns from now
// on (a handle made before keeps the kinds it was made with); a tenant it
// does not name has the code's. It replaces the whole
// map: whoever keeps the tenants' connections (the server, the sync
// command) sets it when they change. Instances keep their own.
func (s *Store) SetKinds(byTenant map[portal.TenantID]*records.Registry) {
	s.kinds.Store(&byTenant)
}

// Kinds are the tenant's kinds: the code's plus its account's fields.
func (t *Tenant) Kinds() *records.Registry {
	if t.d.kinds == nil {
		return records.Code()
	}
	return t.d.kinds
}

// ID is the tenant this handle is bound to.
func (t *Tenant) ID() portal.TenantID { return t.id }

func (t *Tenant) exec(ctx context.Context, st scoped, args ...any) (sql.Result, error) {
	return t.q.ExecContext(ctx, st.text(t.d), st.bind(t.id, args)...)
}

// query and queryRow run reads: outside transactions on the store's
// readers, through its prepared statements; inside one, on the
// transaction. A statement that writes (INSERT ... RETURNING) must run in
// a transaction: SQLite's readers refuse it.
func (t *Tenant) query(ctx context.Context, st scoped, args ...any) (*sql.Rows, error) {
	q := st.text(t.d)
	if p := t.prepared(ctx, q); p != nil {
		return p.QueryContext(ctx, st.bind(t.id, args)...)
	}
	return t.r.QueryContext(ctx, q, st.bind(t.id, args)...)
}

func (t *Tenant) queryRow(ctx context.Context, st scoped, args ...any) *sql.Row {
	q := st.text(t.d)
	if p := t.prepared(ctx, q); p != nil {
		return p.QueryRowContext(ctx, st.bind(t.id, args)...)
	}
	return t.r.QueryRowContext(ctx, q, st.bind(t.id, args)...)
}

// queryIDs runs a statement whose one column is an id and returns the
// ids, in the statement's order.
func (t *Tenant) queryIDs(ctx context.Context, st scoped, args ...any) ([]int64, error) {
	rows, err := t.query(ctx, st, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var ids []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		ids = append(ids, id)
	}
	return ids, rows.Err()
}

func (t *Tenant) prepared(ctx context.Context, q string) *sql.Stmt {
	if db, ok := t.r.(*sql.DB); ok {
		return t.s.stmts.prepared(ctx, db, q)
	}
	return nil
}

// inTx runs fn with a Tenant whose statements share one transaction.
func (t *Tenant) inTx(ctx context.Context, fn func(*Tenant) error) error {
	return t.s.inTx(ctx, func(tx *sql.Tx) error {
		return fn(&Tenant{id: t.id, q: tx, r: tx, d: t.d, s: t.s})
	})
}

// inLeaseTx is inTx on the store's lease connections (Store.inLeaseTx).
func (t *Tenant) inLeaseTx(ctx context.Context, fn func(*Tenant) error) error {
	return t.s.inLeaseTx(ctx, func(tx *sql.Tx) error {
		return fn(&Tenant{id: t.id, q: tx, r: tx, d: t.d, s: t.s})
	})
}
