package netsuite

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/portico/portico/internal/erp"
	"github.com/portico/portico/internal/portal"
	"github.com/portico/portico/internal/records"
)

// suiteQLPage is SuiteQL's answer: every value a string, null columns
// absent, column names lower-case.
type suiteQLPage struct {
	Items        []map[string]string
	HasMore      bool
	TotalResults int
}

// suiteQLWire is the answer as sent; each item also carries "links": [].
type suiteQLWire struct {
	Items        []map[string]json.RawMessage `json:"items"`
	HasMore      bool                         `json:"hasMore"`
	TotalResults int                          `json:"totalResults"`
}

// suiteQL runs one page of a query.
func (c *Client) suiteQL(ctx context.Context, q string, limit, offset int) (suiteQLPage, error) {
	resp, err := c.do(ctx, request{
		method: "POST",
		path:   fmt.Sprintf("/services/rest/query/v1/suiteql?limit=%d&offset=%d", limit, offset),
		body:   map[string]string{"q": q},
		header: map[string][]string{"Prefer": {"transient"}},
	})
	if err != nil {
		return suiteQLPage{}, err
	}
	var w suiteQLWire
	if err := json.Unmarshal(resp.body, &w); err != nil {
		return suiteQLPage{}, &erp.Error{Status: resp.status, Detail: "unreadable SuiteQL answer", Err: err}
	}
	p := suiteQLPage{Items: make([]map[string]string, 0, len(w.Items)), HasMore: w.HasMore, TotalResults: w.TotalResults}
	for _, item := range w.Items {
		row := make(map[string]string, len(item))
		for k, v := range item {
			if s, ok := jsonString(v); ok {
				row[k] = s
			}
		}
		p.Items = append(p.Items, row)
	}
	return p, nil
}

// jsonString reads a JSON string value (false for anything else, such as
// an item's "links" array). Most values have no escapes: those are sliced,
// not decoded.
func jsonString(v json.RawMessage) (string, bool) {
	if len(v) < 2 || v[0] != '"' || v[len(v)-1] != '"' {
		return "", false
	}
	if !bytes.ContainsAny(v, `\`) {
		return string(v[1 : len(v)-1]), true
	}
	var s string
	if json.Unmarshal(v, &s) != nil {
		return "", false
	}
	return s, true
}

// The SuiteQL date-time format, both ways.
const (
	sqlTimeFormat = "YYYY-MM-DD HH24:MI:SS"
	goTimeFormat  = time.DateTime
)

func (c *Client) timestamp(t time.Time) string {
	return fmt.Sprintf("TO_TIMESTAMP('%s', '%s')", t.In(c.m.Location()).Format(goTimeFormat), sqlTimeFormat)
}

// Aliases of the columns every changes query reads besides the fields.
const (
	colModified = "portico_modified"
	colCreated  = "portico_created"
	colExternal = "portico_externalid"
	colCurrency = "portico_currency"
	colSubsid   = "portico_subsidiary"
	refSuffix   = "_refname"
)

// namedExtra reports whether extra column x is a document field of k held
// as a list value or a reference ({"id", "refName"}: a project's manager,
// a bill's approval status): the pull reads its display name with it
// (BUILTIN.DF), as it does a promoted reference's.
func namedExtra(k *records.Kind, x string) bool {
	f, ok := k.FieldNamed(x)
	return ok && f.Doc() && f.Named()
}

// changesQuery is the SuiteQL reading kind's records after from, in
// (modified, id) order, without the optional columns the account was
// found to lack.
func (c *Client) changesQuery(k *records.Kind, from erp.Checkpoint) string {
	km := c.m.Kind(k)
	lacks := c.fit.lacks(k.Name)
	items := []string{"id"}
	if !lacks[km.ExternalID] {
		items = append(items, km.ExternalID+" AS "+colExternal)
	}
	for _, f := range k.Fields {
		if lacks[km.SourceColumn(f.Name)] {
			continue
		}
		col := km.Column(f.Name)
		switch f.Type {
		case records.TypeRef, records.TypeStatus:
			items = append(items, col+" AS "+f.Name, "BUILTIN.DF("+col+") AS "+f.Name+refSuffix)
		case records.TypeDate:
			items = append(items, "TO_CHAR("+col+", 'YYYY-MM-DD') AS "+f.Name)
		default:
			items = append(items, col+" AS "+f.Name)
		}
	}
	for _, x := range km.Extra {
		switch {
		case lacks[x]:
		case namedExtra(k, x):
			items = append(items, x, "BUILTIN.DF("+x+") AS "+x+refSuffix)
		default:
			items = append(items, x)
		}
	}
	for _, x := range km.ExtraDates {
		if !lacks[x] {
			items = append(items, "TO_CHAR("+x+", 'YYYY-MM-DD') AS "+x)
		}
	}
	if !lacks[km.Created] {
		items = append(items, "TO_CHAR("+km.Created+", '"+sqlTimeFormat+"') AS "+colCreated)
	}
	if km.Currency != "" && !lacks[km.Currency] {
		items = append(items, km.Currency+" AS "+colCurrency)
	}
	if km.Subsidiary != "" && !lacks[km.Subsidiary] {
		items = append(items, km.Subsidiary+" AS "+colSubsid)
	}
	items = append(items, "TO_CHAR("+km.Modified+", '"+sqlTimeFormat+"') AS "+colModified)
	var where []string
	if km.Where != "" {
		where = append(where, km.Where)
	}
	if !from.IsZero() {
		ts := c.timestamp(from.Modified)
		where = append(where, fmt.Sprintf("(%[1]s > %[2]s OR (%[1]s = %[2]s AND id > %[3]d))", km.Modified, ts, from.ID))
	}
	q := "SELECT " + strings.Join(items, ", ") + " FROM " + km.Table
	if len(where) > 0 {
		q += " WHERE " + strings.Join(where, " AND ")
	}
	return q + " ORDER BY " + km.Modified + ", id"
}

// Changes implements erp.Connector. Every page is a query of its own
// after the last row of the one before (a keyset, offset 0), not an
// offset into one result: rows that change or go while it pages cannot
// shift a live row past it, and no query nears SuiteQL's 100,000-row cap.
// The next page is fetched while fn stores the current one.
func (c *Client) Changes(ctx context.Context, k *records.Kind, from erp.Checkpoint, fn func(erp.Batch) error) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	type result struct {
		batch erp.Batch
		err   error
	}
	money, err := c.moneyFor(ctx, c.m.Kind(k))
	if err != nil {
		return err
	}
	pages := make(chan result, 1)
	go func() {
		defer close(pages)
		for {
			p, err := c.suiteQL(ctx, c.changesQuery(k, from), c.cfg.PageSize, 0)
			if err != nil {
				var again bool
				if again, err = c.adapt(k, err); again {
					continue // the same page, without the column the account lacks
				}
			}
			var b erp.Batch
			if err == nil {
				b, err = c.batch(ctx, k, p, from, &money)
			}
			select {
			case pages <- result{b, err}:
			case <-ctx.Done():
				return
			}
			if err != nil || !p.HasMore || len(p.Items) == 0 {
				return
			}
			from = b.Next
		}
	}()
	for r := range pages {
		if r.err != nil {
			return r.err
		}
		if len(r.batch.Records) == 0 {
			continue
		}
		if err := fn(r.batch); err != nil {
			return err
		}
	}
	return ctx.Err()
}

// batch converts a page of rows; Next is the last row's key (or from
// when the page is empty). A row without a readable id or last-modified
// time fails the page (the pull cannot go past what it cannot place).
func (c *Client) batch(ctx context.Context, k *records.Kind, p suiteQLPage, from erp.Checkpoint, money **moneyTables) (erp.Batch, error) {
	b := erp.Batch{Records: make([]records.Record, 0, len(p.Items)), Next: from}
	km := c.m.Kind(k)
	for _, row := range p.Items {
		r, err := c.rowRecord(k, row)
		if err == nil {
			// An unknown currency is the page's failure, not the row's:
			// the pull stops here and tries again, never storing money
			// under the wrong currency.
			if r.Currency, err = c.recordCurrency(ctx, money, km, row[colCurrency], row[colSubsid]); err != nil {
				return b, err
			}
		}
		if err != nil && r.ID > 0 && !r.ModifiedAt.IsZero() {
			// One unreadable value must not stop the kind's sync at this
			// row for good: the row is left out (and logged) and the pull
			// goes on past it. Its next change brings it again.
			c.log.Error("netsuite row left out", "kind", k.Name, "id", r.ID, "err", err)
			b.Next = erp.Checkpoint{Modified: r.ModifiedAt, ID: r.ID}
			continue
		}
		if err != nil {
			return b, err
		}
		b.Records = append(b.Records, r)
		b.Next = erp.Checkpoint{Modified: r.ModifiedAt, ID: r.ID}
	}
	return b, nil
}

// rowRecord turns one SuiteQL row into a record: the promoted columns and
// a document with references and list values as {id, refName}, amounts
// as numbers, dates as yyyy-mm-dd and the extra columns as given (those
// that are references or list values as {id, refName} too).
func (c *Client) rowRecord(k *records.Kind, row map[string]string) (records.Record, error) {
	km := c.m.Kind(k)
	lacks := c.fit.lacks(k.Name)
	id, err := strconv.ParseInt(row["id"], 10, 64)
	if err != nil || id <= 0 {
		return records.Record{}, &erp.Error{Detail: fmt.Sprintf("%s row without a valid id %q", k.Name, row["id"])}
	}
	mod, err := time.ParseInLocation(goTimeFormat, row[colModified], c.m.Location())
	if err != nil {
		return records.Record{}, &erp.Error{Detail: fmt.Sprintf("%s %d: last-modified %q is not %s", k.Name, id, row[colModified], sqlTimeFormat)}
	}
	r := records.Record{Kind: k.Name, ID: id, ExternalID: row[colExternal], ModifiedAt: mod.UTC()}
	doc := make(map[string]any, len(k.Fields)+len(km.Extra)+len(km.ExtraDates)+3)
	doc["id"] = row["id"]
	if r.ExternalID != "" {
		doc["externalId"] = r.ExternalID
	}
	if created, err := time.ParseInLocation(goTimeFormat, row[colCreated], c.m.Location()); err == nil {
		doc["dateCreated"] = created.UTC().Format(time.RFC3339)
	}
	for _, cols := range [][]string{km.Extra, km.ExtraDates} {
		for _, x := range cols {
			v, ok := row[x]
			switch {
			case namedExtra(k, x) && !lacks[x]: // (a column the account lacks is not selected)
				// SuiteQL leaves a null out: the value was cleared.
				doc[x] = nil
				if ok {
					doc[x] = map[string]string{"id": v, "refName": row[x+refSuffix]}
				}
			case ok:
				doc[x] = v
			}
		}
	}
	for _, f := range k.Fields {
		v, present := row[f.Name]
		if !present {
			doc[f.Name] = nil
			continue
		}
		var (
			refID int64
			cents *int64
			name  = row[f.Name+refSuffix]
		)
		switch f.Type {
		case records.TypeRef, records.TypeStatus:
			doc[f.Name] = map[string]string{"id": v, "refName": name}
			if f.Type == records.TypeRef {
				n, err := strconv.ParseInt(v, 10, 64)
				if err != nil || n <= 0 {
					return r, &erp.Error{Detail: fmt.Sprintf("%s %d: %s %q is not a record id", k.Name, id, f.Name, v)}
				}
				refID = n
			}
		case records.TypeMoney, records.TypeQuantity:
			n, err := strconv.ParseFloat(v, 64)
			if err != nil || math.IsNaN(n) || math.IsInf(n, 0) {
				return r, &erp.Error{Detail: fmt.Sprintf("%s %d: %s %q is not a number", k.Name, id, f.Name, v)}
			}
			c := int64(math.Round(n * 100))
			cents = &c
			doc[f.Name] = n
		default:
			doc[f.Name] = v
		}
		promote(&r, f, refID, name, cents, v)
	}
	finish(k, &r, doc)
	return r, nil
}

// Deleted implements erp.Connector from SuiteQL's DeletedRecord table
// (columns recordid, type, deleteddate; type is the record type in lower
// case, a custom record's script id), paged by keyset on (deleteddate,
// recordid) like Changes. since is in the connector's time base (SuiteQL's
// text read in the mapping's zone, as every time it gives): its literal is
// read in the user's zone, as SuiteQL's own times are written. The zero
// since reads every deletion of the kind.
func (c *Client) Deleted(ctx context.Context, k *records.Kind, since time.Time) ([]erp.Deletion, error) {
	km := c.m.Kind(k)
	var out []erp.Deletion
	where := ""
	if !since.IsZero() {
		where = " AND deleteddate >= " + c.timestamp(since)
	}
	for {
		q := fmt.Sprintf("SELECT recordid, TO_CHAR(deleteddate, '%s') AS deleteddate FROM deletedrecord WHERE type = '%s'%s ORDER BY deleteddate, recordid",
			sqlTimeFormat, km.DeletedType, where)
		p, err := c.suiteQL(ctx, q, c.cfg.PageSize, 0)
		if err != nil {
			return nil, err
		}
		var last erp.Deletion
		for _, row := range p.Items {
			id, err := strconv.ParseInt(row["recordid"], 10, 64)
			at, terr := time.ParseInLocation(goTimeFormat, row["deleteddate"], c.m.Location())
			if err != nil || terr != nil {
				return nil, &erp.Error{Detail: fmt.Sprintf("unreadable deleted-record row %v", row)}
			}
			last = erp.Deletion{ID: id, DeletedAt: at.UTC()}
			out = append(out, last)
		}
		if !p.HasMore || len(p.Items) == 0 {
			return out, nil
		}
		ts := c.timestamp(last.DeletedAt)
		where = fmt.Sprintf(" AND (deleteddate > %[1]s OR (deleteddate = %[1]s AND recordid > %[2]d))", ts, last.ID)
	}
}

// notFound is the portal error for a record the ERP does not have.
func notFound(k *records.Kind, id string) error {
	return portal.Errorf(portal.CodeNotFound, "NetSuite has no %s %s.", strings.ToLower(k.Label), id)
}
