package netsuite

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/http"
	"net/url"
	"path"
	"strconv"
	"strings"
	"time"

	"github.com/portico/portico/internal/erp"
	"github.com/portico/portico/internal/portal"
	"github.com/portico/portico/internal/records"
)

// idempotencyHeader carries a write's idempotency key: NetSuite refuses
// to apply a request with a key it has seen again.
const idempotencyHeader = "X-NetSuite-Idempotency-Key"

// externalIDPrefix marks records the portal created: a create sets the
// external id to it plus the idempotency key, so a create whose answer was
// lost is found again instead of made twice.
const externalIDPrefix = "portico-"

func (c *Client) recordPath(k *records.Kind, id string) string {
	p := "/services/rest/record/v1/" + url.PathEscape(c.m.Kind(k).RecordType)
	if id != "" {
		p += "/" + url.PathEscape(id)
	}
	return p
}

// Fetch implements erp.Connector with the REST record API
// (expandSubResources, so sublists come inline). Its ModifiedAt is
// SuiteQL's, read just before the document: the record API gives UTC,
// SuiteQL the user's zone, and the replica must compare one with one
// (the store keeps the newer version of a record). Read first, it can
// only be older than the document, never newer, so the next pull stores
// whatever changed meanwhile. A record SuiteQL does not have is not found
// (the document is not read). When the two times disagree by more than
// the time between the reads, the mapping's timezone is wrong: that is
// logged as an error and counted (see watch), never silent.
func (c *Client) Fetch(ctx context.Context, k *records.Kind, id int64) (records.Record, error) {
	km := c.m.Kind(k)
	began := time.Now()
	text, err := c.modifiedText(ctx, km, id)
	if err != nil {
		return records.Record{}, err
	}
	// Checked before the document and the currency tables are read:
	// every request counts against the account's concurrency limit.
	if text == "" {
		// SuiteQL, which the sync reads, has no such record under the
		// mapping's table and condition (deleted, most likely): there is
		// no time in the sync's base to store it under.
		return records.Record{}, notFound(k, strconv.FormatInt(id, 10))
	}
	mod, err := time.ParseInLocation(goTimeFormat, text, c.m.Location())
	if err != nil {
		return records.Record{}, &erp.Error{Detail: fmt.Sprintf("%s %d: last-modified %q is not %s", k.Name, id, text, sqlTimeFormat)}
	}
	r, doc, err := c.fetch(ctx, k, strconv.FormatInt(id, 10), c.do)
	if err != nil {
		return r, err
	}
	money, err := c.moneyFor(ctx, km)
	if err != nil {
		return records.Record{}, err
	}
	if r.Currency, err = c.recordCurrency(ctx, &money, km, docID(doc, km.Currency), docID(doc, km.Subsidiary)); err != nil {
		return records.Record{}, err
	}
	c.watch(stamp{what: k.Name + " " + strconv.FormatInt(id, 10), sql: text, api: r.ModifiedAt, gap: time.Since(began)})
	r.ModifiedAt = mod.UTC()
	return r, nil
}

// modifiedText reads one record's last-modified time from SuiteQL, as
// its text in the user's zone ("" when SuiteQL has no such record).
func (c *Client) modifiedText(ctx context.Context, km *KindMap, id int64) (string, error) {
	q := fmt.Sprintf("SELECT id, TO_CHAR(%s, '%s') AS %s FROM %s WHERE id = %d", km.Modified, sqlTimeFormat, colModified, km.Table, id)
	if km.Where != "" {
		q += " AND " + km.Where
	}
	p, err := c.suiteQL(ctx, q, 1, 0)
	if err != nil || len(p.Items) == 0 {
		return "", err
	}
	return p.Items[0][colModified], nil
}

// fetch reads a record by id (or eid:<external id>) through send: c.do,
// or c.once inside a caller's own retry loop. It returns the document as
// read too (its money's currency is the caller's to place).
func (c *Client) fetch(ctx context.Context, k *records.Kind, id string, send func(context.Context, request) (response, error)) (records.Record, map[string]any, error) {
	resp, err := send(ctx, request{method: "GET", path: c.recordPath(k, id) + "?expandSubResources=true"})
	if err != nil {
		if e, ok := errors.AsType[*erp.Error](err); ok && e.Status == 404 {
			return records.Record{}, nil, notFound(k, id)
		}
		return records.Record{}, nil, err
	}
	var doc map[string]any
	if err := json.Unmarshal(resp.body, &doc); err != nil {
		return records.Record{}, nil, &erp.Error{Status: resp.status, Detail: "unreadable record", Err: err}
	}
	r, err := c.docRecord(k, doc)
	return r, doc, err
}

// docRecord turns a record API document into a record: promoted fields
// read under their record field names, the document kept (links dropped)
// with the portal's field names.
func (c *Client) docRecord(k *records.Kind, doc map[string]any) (records.Record, error) {
	km := c.m.Kind(k)
	stripLinks(doc)
	idStr, _ := doc["id"].(string)
	id, err := strconv.ParseInt(idStr, 10, 64)
	if err != nil || id <= 0 {
		return records.Record{}, &erp.Error{Detail: fmt.Sprintf("%s record without a valid id", k.Name)}
	}
	r := records.Record{Kind: k.Name, ID: id}
	r.ExternalID, _ = doc["externalId"].(string)
	if s, ok := doc[km.RecordModified].(string); ok {
		if t, err := time.Parse(time.RFC3339, s); err == nil {
			r.ModifiedAt = t.UTC()
		}
	}
	if r.ModifiedAt.IsZero() {
		return r, &erp.Error{Detail: fmt.Sprintf("%s %d has no %s (the mapping's kinds.%s.recordModified)", k.Name, id, km.RecordModified, k.Name)}
	}
	// The record API spells standard fields in camel case (companyName,
	// entityStatus) and custom ones in lower case; the portal's names are
	// lower case: match without case (an exact match first), keep the
	// portal's name.
	keys := make(map[string]string, len(doc))
	for key := range doc {
		keys[strings.ToLower(key)] = key
	}
	for _, f := range k.Fields {
		rf := km.RecordField(f.Name)
		key, ok := rf, false
		if _, ok = doc[rf]; !ok {
			key, ok = keys[strings.ToLower(rf)]
		}
		v := doc[key]
		if s, isText := v.(string); isText && f.Type == records.TypeDate {
			// Date fields may come as date-times (dateCreated): the day
			// in the account's zone.
			if t, err := time.Parse(time.RFC3339, s); err == nil {
				v = t.In(c.m.Location()).Format(time.DateOnly)
			}
		}
		if ok {
			if key != f.Name {
				delete(doc, key)
			}
			doc[f.Name] = v
		}
		if !ok || v == nil {
			continue
		}
		ref, _ := v.(map[string]any)
		name, _ := ref["refName"].(string)
		if str, ok := v.(string); ok {
			name = str // a list value given as text
		}
		rid, _ := ref["id"].(string)
		refID, _ := strconv.ParseInt(rid, 10, 64)
		var cents *int64
		if n, ok := v.(float64); ok {
			c := int64(math.Round(n * 100))
			cents = &c
		}
		text, _ := v.(string)
		promote(&r, f, refID, name, cents, text)
	}
	// The kind's document fields too (dueDate, approvalStatus,
	// nextApprover): under the portal's names, as a pull stores them,
	// so a record read back after a write shows them.
	for _, f := range k.Document {
		if key, ok := keys[f.Name]; ok && key != f.Name {
			if _, taken := doc[f.Name]; !taken {
				doc[f.Name] = doc[key]
				delete(doc, key)
			}
		}
	}
	finish(k, &r, doc)
	return r, nil
}

// promote sets the record's promoted column of field f from its value: a
// list value's or reference's id and name, an amount in hundredths, or the
// text of a text or date field.
func promote(r *records.Record, f records.Field, refID int64, name string, cents *int64, text string) {
	switch f.Column {
	case records.ColTitle:
		r.Title = text
	case records.ColCode:
		r.Code = text
	case records.ColDate:
		r.Date = text
	case records.ColStatus:
		r.Status = name
	case records.ColParent:
		r.ParentID, r.ParentName = refID, name
	case records.ColProject:
		r.ProjectID, r.ProjectName = refID, name
	case records.ColAmount:
		r.Amount = cents
	}
}

// finish gives r its document, and a title when NetSuite has none (it
// allows blank names; the portal needs one to show).
func finish(k *records.Kind, r *records.Record, doc map[string]any) {
	if r.Title == "" {
		r.Title = fmt.Sprintf("%s %d", k.Label, r.ID)
	}
	r.Fields, _ = json.Marshal(doc)
}

// stripLinks drops the record API's "links" (HATEOAS noise) at every
// level, and unwraps expanded sublists ({items, count, hasMore, ...}) to
// their items, the shape the portal's sublist tabs read.
func stripLinks(v any) {
	switch v := v.(type) {
	case map[string]any:
		delete(v, "links")
		for k, x := range v {
			if sub, ok := x.(map[string]any); ok {
				if items, ok := sub["items"].([]any); ok {
					if _, paged := sub["totalResults"]; paged {
						v[k] = items
						x = items
					}
				}
			}
			stripLinks(x)
		}
	case []any:
		for _, x := range v {
			stripLinks(x)
		}
	}
}

// body turns portal input into a record API body under the account's
// field ids: list values and references as {"id"}, amounts and numbers as
// numbers, booleans as booleans, empty values as null; read-only fields
// are left out. Every field of the kind may be in it, its document fields
// (a project's manager, its % complete) too.
func (c *Client) body(ctx context.Context, k *records.Kind, in records.Input) (map[string]any, error) {
	km := c.m.Kind(k)
	out := make(map[string]any, len(in))
	for _, f := range k.AllFields() {
		v, ok := in[f.Name]
		if !ok || !km.Writable(f.Name) {
			continue
		}
		id := km.RecordField(f.Name)
		if f.Doc() && !f.Account {
			var err error
			if id, err = c.documentID(ctx, km.RecordType, f.Name); err != nil {
				return nil, err
			}
		}
		var val any
		switch v := v.(type) {
		case string:
			switch {
			case f.Type == records.TypeStatus && v != "":
				id, ok := km.ValueID(f.Name, v)
				if !ok {
					return nil, &erp.Error{Permanent: true, Path: f.Name, Detail: fmt.Sprintf("%q is not a value of %s", v, f.Label)}
				}
				val = map[string]string{"id": id}
			case v == "" && f.Type != records.TypeText:
				val = nil
			default:
				val = v
			}
		case int64:
			if v != 0 {
				val = map[string]string{"id": strconv.FormatInt(v, 10)}
			}
		case *int64:
			if v != nil {
				val = float64(*v) / 100
			}
		case *float64:
			if v != nil {
				val = *v
			}
		case bool:
			val = v
		}
		out[id] = val
	}
	return out, nil
}

// documentID is the record API's id of a kind's document field: the
// registry names it as SuiteQL does, in lower case (percentcomplete); the
// record API spells standard fields in camel case (percentComplete). The
// record type's metadata catalog says which, once per record type.
func (c *Client) documentID(ctx context.Context, recordType, name string) (string, error) {
	ids, ok := c.fieldIDs.Load(recordType)
	if !ok {
		cat, err := c.catalog(ctx, recordType)
		if err != nil {
			return "", err
		}
		m := make(map[string]string, len(cat.Properties))
		for p := range cat.Properties {
			m[strings.ToLower(p)] = p
		}
		ids, _ = c.fieldIDs.LoadOrStore(recordType, m)
	}
	id, ok := ids.(map[string]string)[strings.ToLower(name)]
	if !ok {
		return "", &erp.Error{Permanent: true, Path: name, Detail: fmt.Sprintf("NetSuite's %s record has no field %s", recordType, name)}
	}
	return id, nil
}

// Create implements erp.Connector: POST answers 204 with the new record's
// URL in Location. Each try first looks for the external id
// portico-<key>: a create whose answer was lost is found, not made again
// (NetSuite documents its idempotency key for asynchronous requests only,
// and refuses a repeated one with IDEMPOTENCY_ERROR).
func (c *Client) Create(ctx context.Context, k *records.Kind, w erp.Write) (int64, error) {
	body, err := c.body(ctx, k, w.Fields)
	if err != nil {
		return 0, err
	}
	eid := externalIDPrefix + w.Key
	body["externalId"] = eid
	var id int64
	err = c.retry(ctx, "create "+k.Name, func() error {
		r, _, err := c.fetch(ctx, k, "eid:"+eid, c.once)
		if err == nil {
			id = r.ID
			return nil
		}
		if !portal.IsNotFound(err) {
			return err
		}
		resp, err := c.once(ctx, request{method: "POST", path: c.recordPath(k, ""), body: body,
			header: map[string][]string{idempotencyHeader: {w.Key}}})
		if isIdempotencyError(err) {
			// Submitted before: the next try finds it by external id.
			return &erp.Error{Status: http.StatusConflict, Code: "IDEMPOTENCY_ERROR", Detail: "already submitted"}
		}
		if err != nil {
			return err
		}
		loc := resp.header.Get("Location")
		n, perr := strconv.ParseInt(path.Base(loc), 10, 64)
		if loc == "" || perr != nil || n <= 0 {
			return &erp.Error{Status: resp.status, Permanent: true, Detail: fmt.Sprintf("create answered without a record Location (%q)", loc)}
		}
		id = n
		return nil
	})
	return id, err
}

// isIdempotencyError reports whether NetSuite refused a request because
// one with its idempotency key was already submitted.
func isIdempotencyError(err error) bool {
	e, ok := errors.AsType[*erp.Error](err)
	return ok && e.Code == "IDEMPOTENCY_ERROR"
}

// Update implements erp.Connector with PATCH (204).
func (c *Client) Update(ctx context.Context, k *records.Kind, id int64, w erp.Write) error {
	body, err := c.body(ctx, k, w.Fields)
	if err != nil {
		return err
	}
	_, err = c.do(ctx, request{method: "PATCH", path: c.recordPath(k, strconv.FormatInt(id, 10)), body: body,
		header: map[string][]string{idempotencyHeader: {w.Key}}})
	if isIdempotencyError(err) {
		return nil // an earlier try, whose answer was lost, applied it
	}
	return err
}
