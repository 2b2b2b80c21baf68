package sqlstore

import (
	"bufio"
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"path"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/portico/portico/internal/access"
	"github.com/portico/portico/internal/portal"
	"github.com/portico/portico/internal/records"
	"github.com/portico/portico/internal/tenancy"
)

// A tenant's export, import and deletion (issue 39, `portico tenants
// export|import|delete` and /operator/v1/tenants).
//
// An export is a directory of files an operator can read:
//
//	tenant.json            the tenant: name, hosts, identity tenant, suspension,
//	                       base currency, company profile (tenancy.Header)
//	access.yaml            users, roles, layouts: `portico roles export`'s file
//	user_uids.jsonl        which identity-service account each user is linked to
//	records/<kind>.jsonl   the records, every column (ids, document, times, write state)
//	files.jsonl, files/    attachments: their rows, and their bytes as files
//	lists.jsonl            saved lists (list configurations)
//	shortlists.jsonl       users' recent records and favourites
//	feedback.jsonl, feedback/  feedback, and its attached files
//	audit.jsonl            the audit log
//	sync_state.jsonl       the sync's checkpoints per kind
//	sequences.jsonl        the tenant's counters (ids never given twice)
//
// JSON Lines files hold one row a line, the table's columns by name (but
// tenant_id), as stored: times as Unix milliseconds, amounts in cents. A
// blob column is the path of its file, in the column's name plus "_path".
// Every table with a tenant_id column is in tenantTables: exported to one
// of those files, or not, and why (TestConformanceTenantTablesAreAllListed
// fails on a table that is neither). Nothing secret is ever exported:
// sessions, refresh tokens, idempotency keys, ERP credentials, and the
// deployment's secrets (which are no tenant's) stay in the database.

// tenantTable is a table with a tenant_id column, and what an export does
// with it. Listed in the order a deletion empties them: a table before
// the ones it references, records before what their triggers keep.
type tenantTable struct {
	name string
	// file is the JSON Lines file its rows are exported to; "" when they
	// are not (why says why).
	file string
	why  string
	cols []column
	// order is the export's ORDER BY: the rows in a stable order, so two
	// exports of the same data are the same files.
	order string
	// split names the column whose value names the file (records by kind:
	// records/<kind>.jsonl); file is then the directory.
	split string
	// blob is the directory a blob column's bytes go to, named after the
	// id column and name column: files/<id>-<name>.
	blob, blobID, blobName string
	// where narrows the rows exported.
	where string
}

// column is an exported column and how its values are kept.
type column struct {
	name string
	typ  colType
}

// colType is how a column's value is read, written to JSON and back.
type colType int

const (
	colInt      colType = iota // integer, not null
	colNullInt                 // integer or null
	colText                    // text, not null
	colNullText                // text or null
	colBool                    // boolean
	colDoc                     // a JSON document (records' fields: JSONB)
	colBlob                    // bytes, kept as a file beside the JSON Lines
	colNullBlob                // bytes or null
)

// Exported and not: see the package comment at the top of this file. The
// access tables (users, roles, layouts, user_roles) go to access.yaml in
// `roles export`'s form, tenant_hosts and company_profiles to
// tenant.json: their file names the file they are in, with no columns.
var tenantTables = []tenantTable{
	{name: "sessions", why: "secret: sign-in sessions; users sign in again"},
	{name: "refresh_tokens", why: "secret: refresh-token hashes; users sign in again"},
	{name: "idempotency_keys", why: "secret-like and short-lived (24 h): a create's Idempotency-Key is the user's, for retries of that moment"},
	{name: "erp_connections", why: "secret: the ERP (NetSuite) credentials, encrypted; connect the imported tenant again"},
	{name: "sync_leases", why: "an instance's lease on the tenant's sync, seconds long: meaningless in another database"},
	{name: "events", why: "the live-update stream's backlog, kept minutes; its counter is in sequences.jsonl, and clients sign in again anyway"},
	{name: "outbox", why: "edits waiting for the ERP: global ids (provisional file ids point at them) and keys the ERP deduplicates by; push them before exporting (`portico sync -once`: the export counts them)"},
	{name: "shortlists", file: "shortlists.jsonl", order: "user_id, shelf, kind, record_id",
		cols: cols("user_id", colInt, "shelf", colText, "kind", colText, "record_id", colInt, "seq", colInt, "at", colInt)},
	{name: "user_roles", file: "access.yaml"},
	{name: "list_configs", file: "lists.jsonl", order: "id",
		cols: cols("id", colText, "kind", colText, "name", colText, "columns", colText, "filter", colText, "sort_field", colText,
			"sort_dir", colText, "visibility", colText, "role_id", colNullInt, "owner_id", colInt, "updated_at", colInt, "report", colNullText)},
	{name: "feedback", file: "feedback.jsonl", order: "id", blob: "feedback", blobID: "id", blobName: "file_name",
		cols: cols("id", colInt, "at", colInt, "user_id", colInt, "role_id", colInt, "category", colText, "message", colText, "page", colText,
			"file_name", colText, "file_type", colText, "file_size", colInt, "file", colNullBlob, "erp_state", colText, "erp_error", colText)},
	{name: "audit_log", file: "audit.jsonl", order: "id",
		cols: cols("id", colInt, "at", colInt, "event", colText, "user_id", colNullInt, "ip", colText, "detail", colText,
			"role_id", colNullInt, "kind", colNullText, "record_id", colNullInt)},
	{name: "sync_state", file: "sync_state.jsonl", order: "kind",
		cols: cols("kind", colText, "cp_modified", colInt, "cp_id", colInt, "deleted_since", colInt, "last_run", colInt, "last_success", colInt,
			"pulled_total", colInt, "last_pulled", colInt, "last_deleted", colInt, "last_error", colText, "unavailable", colText,
			"missing", colText, "mapping", colText)},
	{name: "files", file: "files.jsonl", order: "id", blob: "files", blobID: "id", blobName: "name",
		cols: cols("id", colInt, "kind", colText, "record_id", colInt, "name", colText, "content_type", colText, "size", colInt,
			"modified_at", colInt, "content", colBlob, "write_state", colText, "write_error", colText, "erp_id", colNullInt)},
	{name: "records", file: "records", split: "kind", order: "kind, id",
		cols: cols("kind", colText, "id", colInt, "external_id", colNullText, "title", colText, "code", colText, "status", colText,
			"parent_id", colNullInt, "project_id", colNullInt, "parent_name", colText, "project_name", colText, "amount", colNullInt,
			"occurred_on", colText, "modified_at", colInt, "fields", colDoc, "write_state", colText, "write_error", colText, "currency", colText)},
	{name: "search_entries", why: "derived from the records (their triggers rebuild it on import)"},
	{name: "search_scopes", why: "derived from the records (SQLite's search index partitions)"},
	{name: "record_counts", why: "derived from the records (their triggers)"},
	{name: "record_sums", why: "derived from the records (their triggers)"},
	{name: "name_versions", why: "derived from the records (their triggers)"},
	{name: "owner_totals", why: "derived from the records (their triggers)"},
	{name: "tenant_sequences", file: "sequences.jsonl", order: "name", cols: cols("name", colText, "last", colInt)},
	{name: "roles", file: "access.yaml"},
	{name: "layouts", file: "access.yaml"},
	{name: "users", file: "access.yaml"},
	{name: "company_profiles", file: tenancy.HeaderFile,
		cols: cols("name", colText, "legal_name", colText, "address_lines", colText, "city", colText, "region", colText, "postal_code", colText,
			"country", colText, "phone", colText, "email", colText, "tax_id", colText, "updated_at", colInt)},
	{name: "tenant_hosts", file: tenancy.HeaderFile},
}

// userUIDs is the users' links to their identity-service accounts, which
// the access file leaves out (the first sign-in makes them).
var userUIDs = tenantTable{name: "users", file: "user_uids.jsonl", order: "id", where: "uid IS NOT NULL",
	cols: cols("id", colInt, "uid", colText)}

// key is the column's member in a JSON Lines row: its name, or for a
// blob its name and "_path" (the value is its file's path).
func (c column) key() string {
	if c.typ == colBlob || c.typ == colNullBlob {
		return c.name + "_path"
	}
	return c.name
}

// cols pairs names and types.
func cols(pairs ...any) []column {
	out := make([]column, 0, len(pairs)/2)
	for i := 0; i < len(pairs); i += 2 {
		out = append(out, column{pairs[i].(string), pairs[i+1].(colType)})
	}
	return out
}

// tableNamed is the listed table called name.
func tableNamed(name string) tenantTable {
	for _, t := range tenantTables {
		if t.name == name {
			return t
		}
	}
	panic("sqlstore: no tenant table " + name)
}

// exportOrder is the order an export writes the tables with JSON Lines
// files of their own, and an import reads them: a row after the rows it
// references.
var exportOrder = []string{"records", "files", "list_configs", "shortlists", "feedback", "audit_log", "sync_state", "tenant_sequences"}

// ExportTenant writes everything of tenant id that an export holds (see
// the top of this file) to the sink, as of one moment (one read
// transaction), streaming: a table's rows are read and written one at a
// time, never all held. An unknown tenant is a CodeNotFound error.
func (s *Store) ExportTenant(ctx context.Context, id portal.TenantID, to tenancy.Sink) (tenancy.ExportSummary, error) {
	sum := tenancy.ExportSummary{Rows: map[string]int64{}}
	// One snapshot: repeatable read on PostgreSQL; an SQLite read
	// transaction is one already.
	tx, err := s.rdb.BeginTx(ctx, &sql.TxOptions{Isolation: sql.LevelRepeatableRead, ReadOnly: true})
	if err != nil {
		return sum, err
	}
	defer tx.Rollback()
	t := &Tenant{id: id, q: tx, r: tx, d: s.d, s: s}
	if err := t.exportHeader(ctx, to); err != nil {
		return sum, err
	}
	f, err := t.ExportAccess(ctx)
	if err != nil {
		return sum, err
	}
	yaml, err := f.Marshal(false)
	if err != nil {
		return sum, err
	}
	if err := writeFile(to, "access.yaml", yaml); err != nil {
		return sum, err
	}
	for _, tt := range append([]tenantTable{userUIDs}, tablesNamed(exportOrder)...) {
		if err := t.exportTable(ctx, tt, to, &sum); err != nil {
			return sum, fmt.Errorf("export %s: %w", tt.name, err)
		}
	}
	err = t.queryRow(ctx, scope(`SELECT COUNT(*) FROM outbox WHERE tenant_id = :tenant AND state IN ('pending', 'failed')`)).Scan(&sum.OpenWrites)
	return sum, err
}

func tablesNamed(names []string) []tenantTable {
	out := make([]tenantTable, len(names))
	for i, n := range names {
		out[i] = tableNamed(n)
	}
	return out
}

// exportHeader writes tenant.json.
func (t *Tenant) exportHeader(ctx context.Context, to tenancy.Sink) error {
	h := tenancy.Header{Format: tenancy.ExportFormat, ID: t.id, Hosts: []string{}}
	var suspended sql.NullInt64
	var created int64
	err := t.queryRow(ctx, scope(`SELECT name, identity_tenant, suspended_at, created_at, base_currency, environment FROM tenants WHERE id = :tenant`)).
		Scan(&h.Name, &h.IdentityTenant, &suspended, &created, &h.BaseCurrency, &h.Environment)
	if errors.Is(err, sql.ErrNoRows) {
		return portal.Errorf(portal.CodeNotFound, "there is no tenant %s", t.id)
	} else if err != nil {
		return err
	}
	h.CreatedAt = time.UnixMilli(created).UTC()
	if suspended.Valid {
		at := time.UnixMilli(suspended.Int64).UTC()
		h.Suspended, h.SuspendedAt = true, &at
	}
	rows, err := t.query(ctx, scope(`SELECT host FROM tenant_hosts WHERE tenant_id = :tenant`))
	if err != nil {
		return err
	}
	for rows.Next() {
		var host string
		if err := rows.Scan(&host); err != nil {
			rows.Close()
			return err
		}
		h.Hosts = append(h.Hosts, host)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	slices.Sort(h.Hosts)
	company := tableNamed("company_profiles")
	err = t.eachRow(ctx, company, func(values []any) error {
		h.Company = map[string]json.RawMessage{}
		for i, c := range company.cols {
			raw, err := json.Marshal(values[i])
			if err != nil {
				return err
			}
			h.Company[c.name] = raw
		}
		return nil
	})
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(h); err != nil {
		return err
	}
	return writeFile(to, tenancy.HeaderFile, buf.Bytes())
}

// writeFile writes one whole file to the sink.
func writeFile(to tenancy.Sink, name string, data []byte) error {
	w, err := to.Create(name)
	if err != nil {
		return err
	}
	if _, err := w.Write(data); err != nil {
		w.Close()
		return err
	}
	return w.Close()
}

// eachRow reads tt's rows of the tenant in tt.order and calls fn with each
// one's values, by column: int64, string, bool, json.RawMessage (a
// document) or []byte (a blob), or nil for NULL.
func (t *Tenant) eachRow(ctx context.Context, tt tenantTable, fn func([]any) error) error {
	names := make([]string, len(tt.cols))
	for i, c := range tt.cols {
		names[i] = c.name
		if c.typ == colDoc {
			names[i] = fieldsMarker // json(fields) on SQLite
		}
	}
	q := "SELECT " + strings.Join(names, ", ") + " FROM " + tt.name + " WHERE tenant_id = :tenant"
	if tt.where != "" {
		q += " AND " + tt.where
	}
	if tt.order != "" {
		q += " ORDER BY " + tt.order
	}
	rows, err := t.query(ctx, scope(q))
	if err != nil {
		return err
	}
	defer rows.Close()
	dest := make([]any, len(tt.cols))
	for i, c := range tt.cols {
		switch c.typ {
		case colInt, colNullInt:
			dest[i] = new(sql.NullInt64)
		case colText, colNullText, colDoc:
			dest[i] = new(sql.NullString)
		case colBool:
			dest[i] = new(sql.NullBool)
		case colBlob, colNullBlob:
			dest[i] = new([]byte)
		}
	}
	values := make([]any, len(tt.cols))
	for rows.Next() {
		if err := rows.Scan(dest...); err != nil {
			return err
		}
		for i, c := range tt.cols {
			values[i] = nil
			switch d := dest[i].(type) {
			case *sql.NullInt64:
				if d.Valid {
					values[i] = d.Int64
				}
			case *sql.NullString:
				if d.Valid && c.typ == colDoc {
					values[i] = json.RawMessage(d.String)
				} else if d.Valid {
					values[i] = d.String
				}
			case *sql.NullBool:
				if d.Valid {
					values[i] = d.Bool
				}
			case *[]byte:
				if *d != nil || c.typ == colBlob { // an empty blob may scan as nil
					values[i] = append([]byte{}, *d...)
				}
			}
		}
		if err := fn(values); err != nil {
			return err
		}
	}
	return rows.Err()
}

// exportTable writes tt's rows as JSON Lines (and its blobs as files).
func (t *Tenant) exportTable(ctx context.Context, tt tenantTable, to tenancy.Sink, sum *tenancy.ExportSummary) error {
	var (
		out     io.WriteCloser
		bw      *bufio.Writer
		current string // the open file's name
		line    []byte
	)
	closeFile := func() error {
		if out == nil {
			return nil
		}
		err := errors.Join(bw.Flush(), out.Close())
		out = nil
		return err
	}
	open := func(name string) error {
		if err := closeFile(); err != nil {
			return err
		}
		w, err := to.Create(name)
		if err != nil {
			return err
		}
		out, bw, current = w, bufio.NewWriterSize(w, 64<<10), name
		sum.Rows[name] += 0 // listed, also when empty
		return nil
	}
	split := slices.IndexFunc(tt.cols, func(c column) bool { return c.name == tt.split })
	err := t.eachRow(ctx, tt, func(values []any) error {
		name := tt.file
		if split >= 0 {
			part, _ := values[split].(string)
			if !safeName(part) {
				return fmt.Errorf("a %s of %q cannot name a file", tt.split, part)
			}
			name = path.Join(tt.file, part+".jsonl")
		}
		if out == nil || name != current {
			if err := open(name); err != nil {
				return err
			}
		}
		var err error
		if line, err = t.encodeRow(line[:0], tt, values, to, sum); err != nil {
			return err
		}
		sum.Rows[name]++
		_, err = bw.Write(line)
		return err
	})
	if err == nil && out == nil && split < 0 {
		err = open(tt.file) // an empty table is an empty file: the import expects it
	}
	return errors.Join(err, closeFile())
}

// encodeRow appends values as one JSON object line, the columns in tt's
// order; a blob is written to its own file and named by its path.
func (t *Tenant) encodeRow(line []byte, tt tenantTable, values []any, to tenancy.Sink, sum *tenancy.ExportSummary) ([]byte, error) {
	line = append(line, '{')
	for i, c := range tt.cols {
		if i > 0 {
			line = append(line, ',')
		}
		line = appendJSONString(line, c.key())
		line = append(line, ':')
		v := values[i]
		switch {
		case v == nil:
			line = append(line, "null"...)
		case c.typ == colDoc:
			var buf bytes.Buffer
			if err := json.Compact(&buf, v.(json.RawMessage)); err != nil {
				return nil, fmt.Errorf("a document that is not JSON: %w", err)
			}
			line = append(line, buf.Bytes()...)
		case c.typ == colBlob || c.typ == colNullBlob:
			name := blobPath(tt, values)
			data := v.([]byte)
			if err := writeFile(to, name, data); err != nil {
				return nil, err
			}
			sum.Files++
			sum.Bytes += int64(len(data))
			line = appendJSONString(line, name)
		default:
			switch v := v.(type) {
			case int64:
				line = strconv.AppendInt(line, v, 10)
			case bool:
				line = strconv.AppendBool(line, v)
			case string:
				line = appendJSONString(line, v)
			}
		}
	}
	return append(line, '}', '\n'), nil
}

// appendJSONString appends s as a JSON string, with <, > and & as they
// are (the files are read by people, not embedded in HTML).
func appendJSONString(b []byte, s string) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.Encode(s)
	return append(b, bytes.TrimSuffix(buf.Bytes(), []byte("\n"))...)
}

// blobPath is where a row's blob goes: <dir>/<id>-<name>, its name made
// safe for any file system.
func blobPath(tt tenantTable, values []any) string {
	var id int64
	var name string
	for i, c := range tt.cols {
		switch c.name {
		case tt.blobID:
			id, _ = values[i].(int64)
		case tt.blobName:
			name, _ = values[i].(string)
		}
	}
	return path.Join(tt.blob, strconv.FormatInt(id, 10)+"-"+safeFileName(name))
}

// safeFileName keeps letters, digits, dot, hyphen and underscore of
// name, and at most 80 bytes of it.
func safeFileName(name string) string {
	b := []byte(name)
	for i, c := range b {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '-' || c == '_') {
			b[i] = '_'
		}
	}
	if len(b) > 80 {
		b = b[len(b)-80:] // the end keeps the extension
	}
	if len(b) == 0 || b[0] == '.' {
		b = append([]byte("file"), b...)
	}
	return string(b)
}

// safeName is a name usable as a file name as it is (a record kind).
func safeName(s string) bool {
	return s != "" && s == safeFileName(s)
}

// ImportTenant creates the tenant of the export in from (tenancy.Header
// and the files ExportTenant writes), in one transaction: all of it, or
// nothing. o.As renames it (its identity tenant stays the original's,
// where its users' accounts are); o.Hosts replace its host names. A
// tenant of that id the database has is a CodeConflict error, a host
// another tenant has too; a file that is not as an export writes it, a
// CodeInvalid error naming the file and line.
func (s *Store) ImportTenant(ctx context.Context, from fs.FS, o tenancy.ImportOptions) (tenancy.ImportSummary, error) {
	h, err := tenancy.ReadHeader(from)
	if err != nil {
		return tenancy.ImportSummary{}, err
	}
	data, err := fs.ReadFile(from, "access.yaml")
	if err != nil {
		return tenancy.ImportSummary{}, portal.Errorf(portal.CodeInvalid, "the export has no access.yaml")
	}
	f, err := access.ParseFile(data)
	if err != nil {
		return tenancy.ImportSummary{}, portal.Errorf(portal.CodeInvalid, "access.yaml: %v", err)
	}
	if err := records.CheckRules(f.Roles); err != nil {
		return tenancy.ImportSummary{}, err
	}
	orig := h.ID
	if o.As != "" && o.As != h.ID {
		if h.IdentityTenant == "" {
			h.IdentityTenant = string(orig)
		}
		h.ID = o.As
	}
	if len(o.Hosts) > 0 {
		h.Hosts = o.Hosts
	}
	hosts, err := parseHosts(h.Hosts)
	if err != nil {
		return tenancy.ImportSummary{}, err
	}
	f.Tenant, f.Name = string(h.ID), h.Name
	sum := tenancy.ImportSummary{Rows: map[string]int64{}}
	err = s.inTx(ctx, func(tx *sql.Tx) error {
		t := &Tenant{id: h.ID, q: tx, r: tx, d: s.d, s: s}
		if err := t.importHeader(ctx, tx, h, hosts); err != nil {
			return err
		}
		if _, err := t.importAccess(ctx, f); err != nil {
			return fmt.Errorf("access.yaml: %w", err)
		}
		sum.Rows["users"], sum.Rows["roles"], sum.Rows["layouts"] = int64(len(f.Users)), int64(len(f.Roles)), int64(len(f.Layouts))
		if err := t.importUIDs(ctx, from); err != nil {
			return err
		}
		for _, tt := range tablesNamed(exportOrder) {
			n, err := t.importTable(ctx, from, tt)
			if err != nil {
				return err
			}
			sum.Rows[tt.name] = n
		}
		return nil
	})
	if err != nil {
		return tenancy.ImportSummary{}, err
	}
	sum.Tenant = tenancy.Tenant{ID: h.ID, Name: h.Name, Hosts: hosts, IdentityTenant: h.IdentityTenant, Suspended: h.Suspended,
		CreatedAt: h.CreatedAt, Environment: h.Environment}
	return sum, nil
}

// importHeader creates the tenant's row, hosts and company profile.
func (t *Tenant) importHeader(ctx context.Context, tx *sql.Tx, h tenancy.Header, hosts []string) error {
	if strings.TrimSpace(h.Name) == "" {
		return portal.Errorf(portal.CodeInvalid, "%s: the tenant has no name", tenancy.HeaderFile)
	}
	if h.IdentityTenant != "" {
		if _, err := portal.ParseTenantID(h.IdentityTenant); err != nil {
			return portal.Errorf(portal.CodeInvalid, "%s: %q is not a valid identity tenant", tenancy.HeaderFile, h.IdentityTenant)
		}
	}
	var suspended any
	if h.Suspended {
		at := h.CreatedAt
		if h.SuspendedAt != nil {
			at = *h.SuspendedAt
		}
		suspended = at.UnixMilli()
	}
	env, err := tenancy.ParseEnvironment(h.Environment)
	if err != nil {
		return err
	}
	res, err := t.exec(ctx, scope(`INSERT INTO tenants (id, name, identity_tenant, suspended_at, created_at, base_currency, environment)
		VALUES (:tenant, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING`),
		h.Name, h.IdentityTenant, suspended, h.CreatedAt.UnixMilli(), h.BaseCurrency, env)
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil {
		return err
	} else if n == 0 {
		return portal.Errorf(portal.CodeConflict, "tenant %s exists: delete it first, or import the export as another tenant", t.id)
	}
	if err := t.s.claimHosts(ctx, tx, t.id, hosts); err != nil {
		return err
	}
	if h.Company == nil {
		return nil
	}
	company := tableNamed("company_profiles")
	values, err := rowValues(company, h.Company, nil)
	if err != nil {
		return portal.Errorf(portal.CodeInvalid, "%s: company: %v", tenancy.HeaderFile, err)
	}
	_, err = t.exec(ctx, insertStatement(company, 1), values...)
	return err
}

// importUIDs links the users to their identity-service accounts again.
func (t *Tenant) importUIDs(ctx context.Context, from fs.FS) error {
	link := scope(`UPDATE users SET uid = ? WHERE tenant_id = :tenant AND id = ?`)
	return eachLine(from, userUIDs.file, func(obj map[string]json.RawMessage) error {
		values, err := rowValues(userUIDs, obj, from)
		if err != nil {
			return err
		}
		_, err = t.exec(ctx, link, values[1], values[0])
		return err
	})
}

// importTable inserts the rows of tt's file (or files) in batches and
// returns how many.
func (t *Tenant) importTable(ctx context.Context, from fs.FS, tt tenantTable) (int64, error) {
	files := []string{tt.file}
	if tt.split != "" {
		entries, err := fs.ReadDir(from, tt.file)
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return 0, err
		}
		files = files[:0]
		for _, e := range entries {
			if !e.IsDir() && strings.HasSuffix(e.Name(), ".jsonl") {
				files = append(files, path.Join(tt.file, e.Name()))
			}
		}
	}
	perRow := len(tt.cols) + 1
	batch := max(1, min(200, 30000/perRow))
	full := insertStatement(tt, batch)
	var (
		pending []any
		rows    int
		bytes   int
		total   int64
	)
	flush := func() error {
		if rows == 0 {
			return nil
		}
		st := full
		if rows < batch {
			st = insertStatement(tt, rows)
		}
		_, err := t.exec(ctx, st, pending...)
		total += int64(rows)
		pending, rows, bytes = pending[:0], 0, 0
		return err
	}
	for _, name := range files {
		err := eachLine(from, name, func(obj map[string]json.RawMessage) error {
			values, err := rowValues(tt, obj, from)
			if err != nil {
				return err
			}
			for _, v := range values {
				if b, ok := v.([]byte); ok {
					bytes += len(b)
				}
			}
			pending = append(pending, values...)
			if rows++; rows == batch || bytes > 8<<20 {
				return flush()
			}
			return nil
		})
		if err != nil {
			return 0, err
		}
	}
	if err := flush(); err != nil {
		return 0, fmt.Errorf("%s: %w", tt.file, err)
	}
	return total, nil
}

// insertStatement inserts n rows of tt's columns for the tenant.
func insertStatement(tt tenantTable, n int) scoped {
	names := make([]string, len(tt.cols))
	marks := make([]string, len(tt.cols))
	for i, c := range tt.cols {
		names[i], marks[i] = c.name, "?"
		if c.typ == colDoc {
			marks[i] = docMarker
		}
	}
	row := "(:tenant, " + strings.Join(marks, ", ") + ")"
	var b strings.Builder
	b.WriteString("INSERT INTO " + tt.name + " (tenant_id, " + strings.Join(names, ", ") + ") VALUES ")
	for i := range n {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(row)
	}
	return scope(b.String())
}

// eachLine calls fn with each line of the JSON Lines file name as an
// object; a line that is not one is a CodeInvalid error naming the file
// and line.
func eachLine(from fs.FS, name string, fn func(obj map[string]json.RawMessage) error) error {
	f, err := from.Open(name)
	if err != nil {
		return portal.Errorf(portal.CodeInvalid, "the export has no %s: export the tenant again", name)
	}
	defer f.Close()
	r := bufio.NewReaderSize(f, 64<<10)
	for n := 1; ; n++ {
		line, err := r.ReadBytes('\n')
		if len(bytes.TrimSpace(line)) > 0 {
			var obj map[string]json.RawMessage
			if derr := json.Unmarshal(line, &obj); derr != nil || obj == nil {
				return portal.Errorf(portal.CodeInvalid, "%s line %d is not a JSON object", name, n)
			}
			if ferr := fn(obj); ferr != nil {
				var pe *portal.Error
				if errors.As(ferr, &pe) {
					return ferr
				}
				return fmt.Errorf("%s line %d: %w", name, n, ferr)
			}
		}
		if errors.Is(err, io.EOF) {
			return nil
		} else if err != nil {
			return err
		}
	}
}

// rowValues are obj's values in tt's column order, as the database takes
// them: a blob read from its file in from. A column missing, or one tt
// does not have, is an error.
func rowValues(tt tenantTable, obj map[string]json.RawMessage, from fs.FS) ([]any, error) {
	values := make([]any, len(tt.cols))
	seen := 0
	for i, c := range tt.cols {
		key := c.key()
		v, ok := obj[key]
		if !ok {
			return nil, fmt.Errorf("no %s", key)
		}
		seen++
		var err error
		if values[i], err = columnValue(c, v, from); err != nil {
			return nil, fmt.Errorf("%s: %w", key, err)
		}
	}
	if seen != len(obj) {
		extra := slices.Sorted(maps.Keys(obj))
		extra = slices.DeleteFunc(extra, func(k string) bool {
			return slices.ContainsFunc(tt.cols, func(c column) bool { return c.key() == k })
		})
		return nil, fmt.Errorf("unknown column %s", strings.Join(extra, ", "))
	}
	return values, nil
}

// columnValue is one JSON value as column c takes it: a document as its
// text, as it is (its members in their order).
func columnValue(c column, raw json.RawMessage, from fs.FS) (any, error) {
	if string(raw) == "null" {
		switch c.typ {
		case colNullInt, colNullText, colNullBlob:
			return nil, nil
		}
		return nil, errors.New("is null")
	}
	switch c.typ {
	case colInt, colNullInt:
		var n int64
		if err := json.Unmarshal(raw, &n); err != nil {
			return nil, errors.New("not a whole number")
		}
		return n, nil
	case colText, colNullText:
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return nil, errors.New("not a string")
		}
		return s, nil
	case colBool:
		var b bool
		if err := json.Unmarshal(raw, &b); err != nil {
			return nil, errors.New("not true or false")
		}
		return b, nil
	case colDoc:
		if !json.Valid(raw) || raw[0] != '{' {
			return nil, errors.New("not a JSON object")
		}
		return string(raw), nil
	case colBlob, colNullBlob:
		var p string
		if json.Unmarshal(raw, &p) != nil || from == nil {
			return nil, errors.New("not a file's path")
		}
		data, err := fs.ReadFile(from, p)
		if err != nil {
			return nil, fmt.Errorf("the file %s is missing from the export", p)
		}
		return data, nil
	}
	return nil, fmt.Errorf("column type %d", c.typ)
}

// DeleteTenant removes tenant id: every row of every table in
// tenantTables, then its row of tenants, in one transaction (all of it
// or, on any error, nothing), and returns how many rows of each table
// went (tables without any left out). Tables the database does not have
// (a table of one engine only, or of a later migration) are skipped. An
// unknown tenant is a CodeNotFound error. Refusing the default tenant and
// asking for confirmation are the caller's (tenancy.Admin).
func (s *Store) DeleteTenant(ctx context.Context, id portal.TenantID) (tenancy.DeleteSummary, error) {
	return s.deleteTenant(ctx, id, false)
}

// directoryTables are the tables of a tenant's directory entry beside its
// tenants row: what the main database keeps of a tenant placed in a
// database of its own (cmd/portico's databases).
var directoryTables = []string{"tenant_hosts", "erp_connections"}

// DeleteTenantData deletes every row of tenant id's data but its
// directory entry (its tenants row and directoryTables), in one
// transaction: what a tenant placed in a database of its own left in this
// one (tenancy.Admin.DeleteLeftBehind).
func (s *Store) DeleteTenantData(ctx context.Context, id portal.TenantID) (tenancy.DeleteSummary, error) {
	return s.deleteTenant(ctx, id, true)
}

// deleteTenant is DeleteTenant, or DeleteTenantData when dataOnly.
func (s *Store) deleteTenant(ctx context.Context, id portal.TenantID, dataOnly bool) (tenancy.DeleteSummary, error) {
	sum := tenancy.DeleteSummary{Rows: map[string]int64{}}
	var present []string
	for _, tt := range tenantTables {
		if s.hasTenantTable(ctx, tt.name) && !(dataOnly && slices.Contains(directoryTables, tt.name)) {
			present = append(present, tt.name)
		}
	}
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		t := &Tenant{id: id, q: tx, r: tx, d: s.d, s: s}
		var one int
		if err := t.queryRow(ctx, scope(`SELECT 1 FROM tenants WHERE id = :tenant`)).Scan(&one); errors.Is(err, sql.ErrNoRows) {
			return portal.Errorf(portal.CodeNotFound, "there is no tenant %s", id)
		} else if err != nil {
			return err
		}
		for _, name := range present {
			res, err := t.exec(ctx, scope(`DELETE FROM `+name+` WHERE tenant_id = :tenant`))
			if err != nil {
				return fmt.Errorf("delete %s: %w", name, err)
			}
			if n, err := res.RowsAffected(); err != nil {
				return err
			} else if n > 0 {
				sum.Rows[name] = n
			}
		}
		if dataOnly {
			return nil
		}
		_, err := t.exec(ctx, scope(`DELETE FROM tenants WHERE id = :tenant`))
		return err
	})
	if err != nil {
		return tenancy.DeleteSummary{}, err
	}
	// The derived tables' rows went with the records (their triggers);
	// the counts say what was left of them, which is not news.
	for _, tt := range tenantTables {
		if strings.HasPrefix(tt.why, "derived") {
			delete(sum.Rows, tt.name)
		}
	}
	return sum, nil
}

// hasTenantTable reports whether the database has table name, with a
// tenant_id column (a portable probe: no engine's catalog).
func (s *Store) hasTenantTable(ctx context.Context, name string) bool {
	rows, err := s.db.QueryContext(ctx, `SELECT tenant_id FROM `+name+` WHERE 1 = 0`)
	if err != nil {
		return false
	}
	rows.Close()
	return true
}
