package netsuitetest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// IdempotencyHeader carries a write's idempotency key (header names are
// case-insensitive: NetSuite's own example spells it
// X-NetSuite-idempotency-key). Once a POST or PATCH with a key has been
// applied, a request repeating the key is refused and not applied: 400
// IDEMPOTENCY_ERROR ("A request with the same idempotency key is already
// submitted"), its Location header naming what the first request wrote.
// A request that was refused (4xx) does not use up its key.
const IdempotencyHeader = "X-NetSuite-Idempotency-Key"

// maxRecordBody bounds a record write's body.
const maxRecordBody = 10 << 20

// idemEntry is what happened to one idempotency key.
type idemEntry struct {
	count WriteCount
	// The record the applied request created or updated: the Location
	// of the IDEMPOTENCY_ERROR a repeat is answered with.
	recordType string
	id         int64
}

// idempotencyError answers a request whose key was already applied, as
// NetSuite documents it: 400 titled "Conflict" (RFC 2616's 409 section),
// with the previously submitted work in the Location header.
func idempotencyError() *apiError {
	e := newAPIError(http.StatusBadRequest, "IDEMPOTENCY_ERROR",
		`A request with the same idempotency key is already submitted. See the "Location" header for a link to the previously submitted job`)
	e.typeURL = "https://www.w3.org/Protocols/rfc2616/rfc2616-sec10.html#sec10.4.10"
	e.title = "Conflict"
	return e
}

// recordURL is a record's address in the record API.
func recordURL(base, recordType string, id int64) string {
	return base + RecordPath + recordType + "/" + strconv.FormatInt(id, 10)
}

// serveRecord answers the REST record API: GET /{type}/{id} (id may be
// eid:<external id>), POST /{type}, PATCH /{type}/{id}.
func (s *Server) serveRecord(w http.ResponseWriter, r *http.Request, dropAfterWrite bool) {
	rest := strings.TrimPrefix(r.URL.Path, RecordPath)
	typeName, idPart, hasID := strings.Cut(rest, "/")
	if typeName == catalogSegment && r.Method == http.MethodGet {
		s.serveCatalog(w, r, idPart)
		return
	}
	if strings.EqualFold(typeName, TableSubsidiary) && len(s.schema.Subsidiaries) > 0 && r.Method == http.MethodGet && hasID {
		s.serveSubsidiary(w, r, idPart)
		return
	}
	ts := s.lookupType(typeName)
	if ts == nil || strings.Contains(idPart, "/") || (hasID && idPart == "") {
		writeError(w, newAPIError(http.StatusNotFound, "NONEXISTENT_ID",
			fmt.Sprintf("The record type %s or the resource %s does not exist.", typeName, rest)))
		return
	}
	switch {
	case r.Method == http.MethodGet && hasID:
		s.getRecord(w, r, ts, idPart)
	case r.Method == http.MethodPost && !hasID:
		s.writeRecord(w, r, ts, "", dropAfterWrite)
	case r.Method == http.MethodPatch && hasID:
		s.writeRecord(w, r, ts, idPart, dropAfterWrite)
	default:
		writeError(w, newAPIError(http.StatusMethodNotAllowed, "METHOD_NOT_ALLOWED",
			fmt.Sprintf("The method %s is not supported on %s.", r.Method, r.URL.Path)))
	}
}

// lookupType finds a record type by its REST name, which NetSuite
// matches without regard to case.
func (s *Server) lookupType(name string) *typeStore {
	if ts := s.types[name]; ts != nil {
		return ts
	}
	for n, ts := range s.types {
		if strings.EqualFold(n, name) {
			return ts
		}
	}
	return nil
}

// find returns the record an id path segment names (an internal id or
// eid:<external id>), nil when there is none. The caller holds a lock.
func (ts *typeStore) find(idPart string) *rec {
	if ext, ok := strings.CutPrefix(idPart, "eid:"); ok {
		return ts.byExt[ext]
	}
	id, err := strconv.ParseInt(idPart, 10, 64)
	if err != nil {
		return nil
	}
	return ts.byID[id]
}

func notFound(ts *typeStore, idPart string) *apiError {
	return newAPIError(http.StatusNotFound, "NONEXISTENT_ID",
		fmt.Sprintf("The record instance does not exist. Provide a valid record instance ID (%s %s).", ts.schema.RecordType, idPart))
}

func (s *Server) getRecord(w http.ResponseWriter, r *http.Request, ts *typeStore, idPart string) {
	expand, _ := strconv.ParseBool(r.URL.Query().Get("expandSubResources"))
	s.mu.RLock()
	rc := ts.find(idPart)
	var (
		body []byte
		err  error
	)
	if rc != nil {
		body, err = s.recordJSON(ts, rc, baseURL(r), expand)
	}
	s.mu.RUnlock()
	switch {
	case rc == nil:
		writeError(w, notFound(ts, idPart))
	case err != nil:
		writeError(w, newAPIError(http.StatusInternalServerError, "UNEXPECTED_ERROR", err.Error()))
	default:
		writeJSON(w, body)
	}
}

type link struct {
	Rel  string `json:"rel"`
	Href string `json:"href"`
}

// recordJSON renders a record as the record API does: id as a string,
// references and list values as {"links", "id", "refName"} with the
// current display names, sublists as collections (their items inline
// when expand, only a link otherwise), the family's created and
// last-modified fields as ISO 8601 UTC date-times. The caller holds a
// lock.
func (s *Server) recordJSON(ts *typeStore, rc *rec, base string, expand bool) ([]byte, error) {
	dec := json.NewDecoder(bytes.NewReader(rc.doc))
	dec.UseNumber()
	var doc map[string]any
	if err := dec.Decode(&doc); err != nil {
		return nil, fmt.Errorf("stored document: %w", err)
	}
	sc := ts.schema
	self := base + RecordPath + sc.RecordType + "/" + strconv.FormatInt(rc.id, 10)
	for k, v := range doc {
		f := sc.byID[k]
		switch v := v.(type) {
		case map[string]any:
			id, _ := v["id"].(string)
			links := []link{}
			switch {
			case f != nil && f.Type == FieldRef && id != "":
				links = append(links, link{"self", base + RecordPath + f.Arg + "/" + id})
				if n, err := strconv.ParseInt(id, 10, 64); err == nil {
					if t := s.types[f.Arg]; t != nil && t.byID[n] != nil {
						v["refName"] = t.byID[n].title
					}
				}
			case f != nil && f.Type == FieldList:
				if text, ok := s.schema.Lists[f.Arg][id]; ok {
					v["refName"] = text
				}
			case f != nil && f.Type == FieldSelect:
				if name, ok := s.selectName(f.Arg, id); ok {
					v["refName"] = name
				}
			}
			v["links"] = links
		case []any:
			sub := map[string]any{"links": []link{{"self", self + "/" + k}}}
			if expand {
				for _, it := range v {
					if m, ok := it.(map[string]any); ok {
						m["links"] = []link{}
					}
				}
				sub["items"], sub["count"], sub["totalResults"] = v, len(v), len(v)
				sub["hasMore"], sub["offset"] = false, 0
			}
			doc[k] = sub
		}
	}
	doc["id"] = strconv.FormatInt(rc.id, 10)
	if rc.ext != "" {
		doc["externalId"] = rc.ext
	}
	doc[sc.CreatedField()] = time.Unix(rc.created, 0).UTC().Format(time.RFC3339)
	doc[sc.ModifiedField()] = time.Unix(rc.mod, 0).UTC().Format(time.RFC3339)
	doc["links"] = []link{{"self", self}}
	return json.Marshal(doc)
}

// writeRecord creates (idPart "") or updates a record from a JSON body.
func (s *Server) writeRecord(w http.ResponseWriter, r *http.Request, ts *typeStore, idPart string, dropAfterWrite bool) {
	raw, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxRecordBody))
	var body map[string]any
	if err == nil {
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.UseNumber()
		err = dec.Decode(&body)
	}
	var invalid *apiError
	if err != nil || body == nil {
		invalid = newAPIError(http.StatusBadRequest, "INVALID_CONTENT", "The request body must be a JSON object of record fields.")
	}
	key := r.Header.Get(IdempotencyHeader)
	location, aerr := s.applyWrite(ts, idPart, body, invalid, key, baseURL(r))
	if location != "" {
		w.Header().Set("Location", location)
	}
	if aerr != nil {
		writeError(w, aerr)
		return
	}
	if dropAfterWrite {
		s.stats.droppedAfterWrite.Add(1)
		drop(w, nil)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// applyWrite applies a create or an update at most once per idempotency
// key. It returns the Location to answer with: a create's new record, or
// with an IDEMPOTENCY_ERROR the record the key's applied request created
// or updated. invalid, when not nil, is the refusal of an unreadable
// body: a repeated key is refused first, as NetSuite checks the key
// before the request.
func (s *Server) applyWrite(ts *typeStore, idPart string, body map[string]any, invalid *apiError, key, base string) (string, *apiError) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var entry *idemEntry
	if key != "" {
		if entry = s.idem[key]; entry == nil {
			entry = &idemEntry{}
			s.idem[key] = entry
		}
		entry.count.Requests++
		if entry.count.Applied > 0 {
			return recordURL(base, entry.recordType, entry.id), idempotencyError()
		}
	}
	if invalid != nil {
		return "", invalid
	}
	fields, ext, aerr := s.normalize(ts, body, idPart == "")
	if aerr != nil {
		return "", aerr
	}
	var (
		id       int64
		location string
	)
	if idPart == "" {
		if id, aerr = s.create(ts, fields, ext); aerr != nil {
			return "", aerr
		}
		location = recordURL(base, ts.schema.RecordType, id)
	} else {
		old := ts.find(idPart)
		if old == nil {
			return "", notFound(ts, idPart)
		}
		newExt := old.ext
		if ext != nil {
			newExt = *ext
		}
		if other := ts.byExt[newExt]; newExt != "" && other != nil && other != old {
			return "", duplicateExternalID(newExt)
		}
		if err := s.patch(ts, old, fields, newExt); err != nil {
			return "", asAPIError(err)
		}
		id = old.id
	}
	if entry != nil {
		entry.count.Applied++
		entry.recordType, entry.id = ts.schema.RecordType, id
	} else {
		s.unkeyed++
	}
	return location, nil
}

func duplicateExternalID(ext string) *apiError {
	e := newAPIError(http.StatusBadRequest, "USER_ERROR",
		fmt.Sprintf("A record with the external ID %q already exists.", ext))
	e.Path = "externalId"
	return e
}

// create stores a new record, under the record type's approval rules
// (approve); the caller holds the write lock.
func (s *Server) create(ts *typeStore, fields map[string]any, ext *string) (int64, *apiError) {
	var e string
	if ext != nil {
		e = *ext
	}
	if e != "" && ts.byExt[e] != nil {
		return 0, duplicateExternalID(e)
	}
	members := make(map[string]json.RawMessage, len(fields))
	for k, v := range fields {
		b, err := json.Marshal(v)
		if err != nil {
			return 0, newAPIError(http.StatusBadRequest, "INVALID_CONTENT", err.Error())
		}
		members[k] = b
	}
	if aerr := s.approve(ts, nil, members); aerr != nil {
		return 0, aerr
	}
	raw, err := json.Marshal(members)
	if err != nil {
		return 0, newAPIError(http.StatusBadRequest, "INVALID_CONTENT", err.Error())
	}
	doc, _, title, err := ts.storeDoc(raw, true)
	if err != nil {
		return 0, newAPIError(http.StatusBadRequest, "INVALID_CONTENT", err.Error())
	}
	now := s.now().Unix()
	id := s.nextID(ts.schema)
	ts.put(&rec{id: id, mod: now, created: now, ext: e, title: title, doc: doc})
	return id, nil
}

// userError is NetSuite's answer to a field value it refuses.
func userError(field, detail string) *apiError {
	e := newAPIError(http.StatusBadRequest, "USER_ERROR", detail)
	e.Path = field
	return e
}

// normalize checks a write's fields against the record type and brings
// them to the stored shape, as the record API does (account.yaml's [2]):
// every member must name one of the type's fields, its id matched
// without regard to case (account.yaml's [11]: NetSuite's own examples
// write approvalstatus and entityid), else NONEXISTENT_FIELD; where two
// members name one field, the one spelled as the field id wins; read-only
// fields are refused; values must fit the field's type; references and
// list values become {"id", "refName"} (refused when they name no record
// or list value; a list value may also be its bare internal id, [11]),
// sublists {"items": [...]} arrays. The system members
// (id, links, refName and the family's created and last-modified fields)
// are ignored. ext is the body's externalId, nil when it has none. On a
// create the title field is required; on an update a nil value clears a
// field. The caller holds the write lock.
func (s *Server) normalize(ts *typeStore, body map[string]any, create bool) (fields map[string]any, ext *string, _ *apiError) {
	sc := ts.schema
	fields = map[string]any{}
	for k, v := range body {
		switch k {
		case "id", "links", "refName", sc.CreatedField(), sc.ModifiedField():
			continue
		case "externalId":
			var e string
			switch v := v.(type) {
			case string:
				e = v
			case json.Number:
				e = v.String()
			default:
				return nil, nil, userError(k, "The external ID must be a string.")
			}
			ext = &e
			continue
		}
		f, ok := sc.byID[k]
		if !ok {
			f, ok = sc.byLower[strings.ToLower(k)]
		}
		if !ok {
			e := newAPIError(http.StatusBadRequest, "NONEXISTENT_FIELD",
				fmt.Sprintf("Invalid field name: %s. The field does not exist on the %s record.", k, sc.RecordType))
			e.Path = k
			return nil, nil, e
		}
		if _, twice := body[f.ID]; twice && k != f.ID {
			continue // the member spelled as the field id wins
		}
		if f.ReadOnly {
			return nil, nil, userError(k, fmt.Sprintf("The field %s is read-only and cannot be set.", f.ID))
		}
		if v == nil {
			if !create {
				fields[f.ID] = nil
			}
			continue
		}
		val, aerr := s.fieldValue(f, v)
		if aerr != nil {
			return nil, nil, aerr
		}
		fields[f.ID] = val
	}
	t, present := fields[sc.Title]
	title, _ := t.(string)
	if (create || present) && strings.TrimSpace(title) == "" {
		return nil, nil, userError(sc.Title, "Please enter value(s) for: "+sc.byID[sc.Title].Label)
	}
	return fields, ext, nil
}

// fieldValue checks a written value against its field's type and returns
// it as stored.
func (s *Server) fieldValue(f *Field, v any) (any, *apiError) {
	switch f.Type {
	case FieldRef:
		return s.resolveRef(f.ID, f.Arg, v)
	case FieldList:
		id := idOf(v)
		if n, bare := v.(json.Number); bare {
			id = n.String() // a bare internal id [11]
		}
		text, known := s.schema.Lists[f.Arg][id]
		if !known {
			return nil, invalidValue(f.ID, v)
		}
		return map[string]any{"id": id, "refName": text}, nil
	case FieldSelect:
		if idOf(v) == "" {
			return nil, invalidValue(f.ID, v)
		}
		return map[string]any{"id": idOf(v)}, nil
	case FieldSublist:
		if m, ok := v.(map[string]any); ok {
			if items, ok := m["items"].([]any); ok {
				return items, nil
			}
		}
		if items, ok := v.([]any); ok {
			return items, nil
		}
		return nil, invalidValue(f.ID, v)
	case FieldNumber:
		if _, ok := v.(json.Number); !ok {
			return nil, invalidValue(f.ID, v)
		}
	case FieldBool:
		if _, ok := v.(bool); !ok {
			return nil, invalidValue(f.ID, v)
		}
	case FieldDate:
		d, ok := v.(string)
		if _, err := time.Parse(time.DateOnly, d); !ok || err != nil {
			return nil, invalidValue(f.ID, v)
		}
	case FieldText:
		if _, ok := v.(string); !ok {
			return nil, invalidValue(f.ID, v)
		}
	}
	return v, nil
}

// idOf reads the id of a {"id": ...} value ("" when it has none).
func idOf(v any) string {
	m, _ := v.(map[string]any)
	switch id := m["id"].(type) {
	case string:
		return id
	case json.Number:
		return id.String()
	}
	return ""
}

func invalidValue(field string, v any) *apiError {
	shown := idOf(v)
	if shown == "" {
		b, _ := json.Marshal(v)
		shown = string(b)
	}
	return userError(field, fmt.Sprintf("Error while accessing a resource. You have entered an Invalid Field Value %s for the following field: %s", shown, field))
}

// resolveRef checks a reference ({"id"} or {"externalId"}) against the
// target type and returns it as stored, with the target's title as its
// refName.
func (s *Server) resolveRef(field, targetType string, v any) (map[string]any, *apiError) {
	target := s.types[targetType]
	m, _ := v.(map[string]any)
	var rc *rec
	if target != nil {
		if id := idOf(v); id != "" {
			rc = target.find(id)
		} else if e, ok := m["externalId"].(string); ok {
			rc = target.byExt[e]
		}
	}
	if rc == nil {
		return nil, invalidValue(field, v)
	}
	return map[string]any{"id": strconv.FormatInt(rc.id, 10), "refName": rc.title}, nil
}

// catalogSegment is the record API's metadata catalog: GET
// metadata-catalog/{type} with Accept: application/schema+json describes
// a record type's fields as a JSON Schema (account.yaml's [2]).
const catalogSegment = "metadata-catalog"

// serveCatalog answers the metadata catalog of one record type: each
// field's id, label (title), JSON type and format, whether it is
// read-only, and x-ns-custom-field on the account's own fields.
func (s *Server) serveCatalog(w http.ResponseWriter, r *http.Request, typeName string) {
	ts := s.lookupType(typeName)
	if ts == nil {
		writeError(w, newAPIError(http.StatusNotFound, "NONEXISTENT_ID",
			fmt.Sprintf("The record type %s does not exist.", typeName)))
		return
	}
	if !strings.Contains(r.Header.Get("Accept"), "application/schema+json") {
		writeError(w, newAPIError(http.StatusBadRequest, "INVALID_HEADER",
			"The metadata catalog answers Accept: application/schema+json or application/swagger+json."))
		return
	}
	sc := ts.schema
	props := map[string]any{
		"id":               map[string]any{"title": "Internal ID", "type": "string", "readOnly": true},
		"externalId":       map[string]any{"title": "External ID", "type": "string", "nullable": true},
		sc.CreatedField():  map[string]any{"title": "Date Created", "type": "string", "format": "date-time", "readOnly": true},
		sc.ModifiedField(): map[string]any{"title": "Last Modified", "type": "string", "format": "date-time", "readOnly": true},
		"links":            map[string]any{"type": "array", "readOnly": true},
	}
	for _, f := range sc.Fields {
		p := map[string]any{"title": f.Label, "nullable": true}
		switch f.Type {
		case FieldText:
			p["type"] = "string"
		case FieldDate:
			p["type"], p["format"] = "string", "date"
		case FieldNumber:
			p["type"], p["format"] = "number", "double"
		case FieldBool:
			p["type"] = "boolean"
		case FieldRef, FieldList, FieldSelect:
			p["type"] = "object"
			p["properties"] = map[string]any{"id": map[string]any{"type": "string"}, "refName": map[string]any{"type": "string"}}
		case FieldSublist:
			p["type"] = "object"
			p["properties"] = map[string]any{"items": map[string]any{"type": "array"}}
		}
		if f.ReadOnly {
			p["readOnly"] = true
		}
		if f.Custom() {
			p["x-ns-custom-field"] = true
		}
		props[f.ID] = p
	}
	b, err := json.Marshal(map[string]any{"type": "object", "title": sc.RecordType, "properties": props})
	if err != nil {
		writeError(w, newAPIError(http.StatusInternalServerError, "UNEXPECTED_ERROR", err.Error()))
		return
	}
	w.Header().Set("Content-Type", "application/schema+json")
	w.Write(b)
}
