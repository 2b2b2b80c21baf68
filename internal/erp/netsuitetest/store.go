package netsuitetest

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/portico/portico/internal/jsonenc"
	"github.com/portico/portico/internal/records"
)

// Record is one record of the fake account as the test-facing API shows
// it.
type Record struct {
	ID         int64
	ExternalID string // "" when unset
	// Fields is the record in REST record API shape (references and list
	// values as {"id", "refName"}, numbers, "yyyy-mm-dd" dates, sublists
	// as arrays) keyed by field id, without id, externalId and the
	// created and last-modified times, which are the other fields of
	// Record.
	Fields   map[string]any
	Modified time.Time // second precision, as NetSuite keeps it
	Created  time.Time
}

// WriteCount is what the fake saw of one idempotency key.
type WriteCount struct {
	Requests int // POST and PATCH requests that carried the key
	Applied  int // how many of them changed data (never more than 1)
}

// rec is a stored record. It is immutable once stored: a change stores a
// new rec, so a record's (mod, id) key never changes while the sorted
// index holds it, and what Get and All hand out cannot change under them.
type rec struct {
	id, mod, created int64 // mod and created in Unix seconds
	ext              string
	title            string // the title field's value, the refName of references to it
	doc              []byte // the fields as a compact JSON object, without the metadata members
}

func (r *rec) key() recKey { return recKey{r.mod, r.id} }

// recKey orders records as SuiteQL's keyset queries page them.
type recKey struct{ mod, id int64 }

func (a recKey) cmp(b recKey) int {
	if c := cmp.Compare(a.mod, b.mod); c != 0 {
		return c
	}
	return cmp.Compare(a.id, b.id)
}

// typeStore holds the records of one record type.
type typeStore struct {
	schema *TypeSchema
	byID   map[int64]*rec
	byExt  map[string]*rec
	// order is every record sorted by (mod, id) unless dirty: bulk loads
	// append in any order and one sort before the next query fixes it,
	// which is far cheaper than keeping 25,000-record batches sorted.
	order []*rec
	dirty bool
}

// deletion is a row of the DeletedRecord table.
type deletion struct {
	id      int64
	recType string // DeletedRecord.type: the record type in lower case
	at      int64
	name    string
	by      string // DeletedRecord.deletedby
	context string // DeletedRecord.context: where the deletion came from (UI, web services, …)
}

// seedMetadata are the demo generator's metadata members: kept in rec's
// own fields, never in its document.
var seedMetadata = map[string]bool{"id": true, "externalId": true, "dateCreated": true, "lastModifiedDate": true, "links": true}

// seedAliases are the demo generator's member names that are not a
// record type's field id in any case: the portal calls a project's
// client "customer", the record is its parent entity.
var seedAliases = map[string]map[string]string{"job": {"customer": "parent"}}

// fieldID finds the record API field a member name means: the exact id,
// else the id without regard to case or a seed alias (people and the demo
// generator write companyname for companyName).
func (ts *typeStore) fieldID(name string) (string, bool) {
	if f, ok := ts.schema.byID[name]; ok {
		return f.ID, true
	}
	if a, ok := seedAliases[ts.schema.RecordType][name]; ok {
		name = a
	}
	if f, ok := ts.schema.byLower[strings.ToLower(name)]; ok {
		return f.ID, true
	}
	return "", false
}

// storeDoc rebuilds a record document with the record type's field ids
// and without metadata members. A member that names no field is an error
// when strict, else dropped (a demo field this account does not have). It
// returns the new document, the created time it carried (0 when none) and
// the title.
func (ts *typeStore) storeDoc(doc []byte, strict bool) (out []byte, created int64, title string, err error) {
	out = make([]byte, 0, len(doc))
	out = append(out, '{')
	var unknown string
	ok := members(doc, func(k, v []byte) bool {
		name := keyString(k)
		if seedMetadata[name] {
			if name == "dateCreated" {
				if s, ok := unquote(v); ok {
					if t, err := time.Parse(time.RFC3339, s); err == nil {
						created = t.Unix()
					}
				}
			}
			return true
		}
		id, known := ts.fieldID(name)
		if !known {
			if strict {
				unknown = name
				return false
			}
			return true
		}
		if id == ts.schema.Title {
			title, _ = unquote(v)
		}
		if len(out) > 1 {
			out = append(out, ',')
		}
		out = jsonenc.AppendString(out, id)
		out = append(out, ':')
		out = append(out, v...)
		return true
	})
	if unknown != "" {
		return nil, 0, "", fmt.Errorf("%s has no field %q", ts.schema.RecordType, unknown)
	}
	if !ok {
		return nil, 0, "", errors.New("the fields are not a JSON object")
	}
	return append(out, '}'), created, title, nil
}

// put stores r, replacing a record with the same id.
func (ts *typeStore) put(r *rec) {
	if old := ts.byID[r.id]; old != nil {
		ts.remove(old)
	}
	ts.byID[r.id] = r
	if r.ext != "" {
		ts.byExt[r.ext] = r
	}
	if n := len(ts.order); n > 0 && !ts.dirty && ts.order[n-1].key().cmp(r.key()) > 0 {
		ts.dirty = true
	}
	ts.order = append(ts.order, r)
}

// remove takes r out of the indexes.
func (ts *typeStore) remove(r *rec) {
	delete(ts.byID, r.id)
	if r.ext != "" && ts.byExt[r.ext] == r {
		delete(ts.byExt, r.ext)
	}
	if ts.dirty {
		if i := slices.Index(ts.order, r); i >= 0 {
			ts.order = slices.Delete(ts.order, i, i+1)
		}
		return
	}
	i, found := slices.BinarySearchFunc(ts.order, r.key(), func(x *rec, k recKey) int { return x.key().cmp(k) })
	if found {
		ts.order = slices.Delete(ts.order, i, i+1)
	}
}

// sortIfDirty restores the (mod, id) order; the caller holds the write
// lock.
func (ts *typeStore) sortIfDirty() {
	if ts.dirty {
		slices.SortFunc(ts.order, func(a, b *rec) int { return a.key().cmp(b.key()) })
		ts.dirty = false
	}
}

// now is the fake's clock, at NetSuite's second precision.
func (s *Server) now() time.Time {
	return s.clock().UTC().Truncate(time.Second)
}

// nextID returns a new internal id: one above every id in the record's
// table (transaction ids are unique across transaction types).
func (s *Server) nextID(ts *TypeSchema) int64 {
	s.maxID[ts.Table]++
	return s.maxID[ts.Table]
}

func (s *Server) noteID(ts *TypeSchema, id int64) {
	s.maxID[ts.Table] = max(s.maxID[ts.Table], id)
}

func (s *Server) typeStore(recordType string) (*typeStore, error) {
	ts := s.types[recordType]
	if ts == nil {
		return nil, fmt.Errorf("netsuitetest: unknown record type %q", recordType)
	}
	return ts, nil
}

// PutRecords implements demo.Sink: it stores portal records as the
// account's records (the record type the registry names for the kind;
// members matched to the type's field ids without regard to case, those
// the account lacks dropped; Modified = ModifiedAt truncated to the
// second, Created from the document's dateCreated), replacing records
// with the same ids. Records of kinds the account lacks are left out.
func (s *Server) PutRecords(_ context.Context, rs []records.Record) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, r := range rs {
		ts := s.byKind[r.Kind]
		if ts == nil {
			continue // a kind this account does not have
		}
		if r.ID <= 0 {
			return fmt.Errorf("netsuitetest: %s record without an id", r.Kind)
		}
		doc, created, title, err := ts.storeDoc(r.Fields, false)
		if err != nil {
			return fmt.Errorf("netsuitetest: %s %d: %w", r.Kind, r.ID, err)
		}
		mod := r.ModifiedAt.Unix()
		if created == 0 {
			created = mod
		}
		ts.put(&rec{id: r.ID, mod: mod, created: created, ext: r.ExternalID, title: title, doc: doc})
		s.noteID(ts.schema, r.ID)
	}
	return nil
}

// PutFiles implements demo.Sink: the files become what the RESTlet's
// file actions serve.
func (s *Server) PutFiles(_ context.Context, fs []records.File) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, f := range fs {
		s.files[f.ID] = f
	}
	return nil
}

// Put stores a record as someone working in NetSuite would: with r.ID 0 a
// new record gets the next id, otherwise the record with that id is
// created or replaced. Modified is set to the fake's clock; Created too
// when r.Created is zero. It returns the record's id.
func (s *Server) Put(recordType string, r Record) (int64, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	ts, err := s.typeStore(recordType)
	if err != nil {
		return 0, err
	}
	if r.ID < 0 {
		return 0, errors.New("netsuitetest: negative id")
	}
	if r.Fields == nil {
		return 0, errors.New("netsuitetest: a record needs Fields")
	}
	raw, err := json.Marshal(r.Fields)
	if err != nil {
		return 0, fmt.Errorf("netsuitetest: %w", err)
	}
	doc, _, title, err := ts.storeDoc(raw, true)
	if err != nil {
		return 0, fmt.Errorf("netsuitetest: %w", err)
	}
	now := s.now().Unix()
	created := now
	if !r.Created.IsZero() {
		created = r.Created.Unix()
	}
	if r.ID == 0 {
		r.ID = s.nextID(ts.schema)
	}
	ts.put(&rec{id: r.ID, mod: now, created: created, ext: r.ExternalID, title: title, doc: doc})
	s.noteID(ts.schema, r.ID)
	return r.ID, nil
}

// Update changes some fields of a record as an edit in NetSuite would:
// members of fields (field ids, matched without regard to case) replace
// the record's, a nil value removes one, and Modified becomes the fake's
// clock. The record type's approval rules hold (approval.go): a refused
// change is an error and changes nothing.
func (s *Server) Update(recordType string, id int64, fields map[string]any) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	ts, err := s.typeStore(recordType)
	if err != nil {
		return err
	}
	old := ts.byID[id]
	if old == nil {
		return fmt.Errorf("netsuitetest: no %s %d", recordType, id)
	}
	return s.patch(ts, old, fields, old.ext)
}

// patch stores old with fields merged in (nil removes a member), the
// external id ext and Modified = now, under the record type's approval
// rules (approve: a refusal is the *apiError returned, and nothing is
// stored). The caller holds the write lock.
func (s *Server) patch(ts *typeStore, old *rec, fields map[string]any, ext string) error {
	var doc map[string]json.RawMessage
	if err := json.Unmarshal(old.doc, &doc); err != nil {
		return fmt.Errorf("netsuitetest: stored document: %w", err)
	}
	before := maps.Clone(doc)
	for name, v := range fields {
		k, ok := ts.fieldID(name)
		if !ok {
			return fmt.Errorf("netsuitetest: %s has no field %q", ts.schema.RecordType, name)
		}
		if v == nil {
			delete(doc, k)
			continue
		}
		b, err := json.Marshal(v)
		if err != nil {
			return fmt.Errorf("netsuitetest: field %s: %w", k, err)
		}
		doc[k] = b
	}
	if aerr := s.approve(ts, before, doc); aerr != nil {
		return aerr
	}
	raw, err := json.Marshal(doc)
	if err != nil {
		return fmt.Errorf("netsuitetest: %w", err)
	}
	stored, _, title, err := ts.storeDoc(raw, true)
	if err != nil {
		return fmt.Errorf("netsuitetest: %w", err)
	}
	ts.put(&rec{id: old.id, mod: s.now().Unix(), created: old.created, ext: ext, title: title, doc: stored})
	return nil
}

// Delete removes a record and adds its deletedrecord row, dated by the
// fake's clock.
func (s *Server) Delete(recordType string, id int64) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	ts, err := s.typeStore(recordType)
	if err != nil {
		return err
	}
	r := ts.byID[id]
	if r == nil {
		return fmt.Errorf("netsuitetest: no %s %d", recordType, id)
	}
	ts.remove(r)
	s.deleted = append(s.deleted, deletion{id: id, recType: ts.schema.DeletedType(), at: s.now().Unix(), name: r.title,
		by: "Administrator", context: "UI"})
	return nil
}

// Get returns a record, ok false when there is none.
func (s *Server) Get(recordType string, id int64) (Record, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	ts := s.types[recordType]
	if ts == nil || ts.byID[id] == nil {
		return Record{}, false
	}
	return ts.byID[id].record(), true
}

// Count returns how many records of a type there are.
func (s *Server) Count(recordType string) int {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if ts := s.types[recordType]; ts != nil {
		return len(ts.byID)
	}
	return 0
}

// All returns every record of a type, in id order.
func (s *Server) All(recordType string) []Record {
	s.mu.RLock()
	defer s.mu.RUnlock()
	ts := s.types[recordType]
	if ts == nil {
		return nil
	}
	ids := slices.Sorted(maps.Keys(ts.byID))
	out := make([]Record, len(ids))
	for i, id := range ids {
		out[i] = ts.byID[id].record()
	}
	return out
}

// Writes returns what the fake saw of an idempotency key.
func (s *Server) Writes(key string) WriteCount {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if w := s.idem[key]; w != nil {
		return w.count
	}
	return WriteCount{}
}

// UnkeyedWrites returns how many POST and PATCH requests without an
// idempotency key were applied: a client that means to write exactly once
// should leave this at zero.
func (s *Server) UnkeyedWrites() int {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.unkeyed
}

func (r *rec) record() Record {
	var f map[string]any
	// The document was validated when stored; an error cannot happen.
	_ = json.Unmarshal(r.doc, &f)
	return Record{ID: r.id, ExternalID: r.ext, Fields: f,
		Modified: time.Unix(r.mod, 0).UTC(), Created: time.Unix(r.created, 0).UTC()}
}

// keyRange returns the part of ts.order whose keys are in (lo, hi]. The
// caller holds a lock and ts is sorted.
func (ts *typeStore) keyRange(lo, hi recKey) []*rec {
	after := func(k recKey) int {
		i, _ := slices.BinarySearchFunc(ts.order, k, func(x *rec, k recKey) int {
			if x.key().cmp(k) <= 0 {
				return -1
			}
			return 1
		})
		return i
	}
	a, b := after(lo), after(hi)
	if a >= b {
		return nil
	}
	return ts.order[a:b]
}

// The widest key range.
var (
	minKey = recKey{math.MinInt64, math.MinInt64}
	maxKey = recKey{math.MaxInt64, math.MaxInt64}
)
