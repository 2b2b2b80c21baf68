package records

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/portico/portico/internal/portal"
)

// formKind is a kind with a field of every type, promoted and in the
// document, and read-only ones (an id the ERP assigns, a balance).
func formKind() *Kind {
	doc := func(name, label string, t FieldType) Field {
		return Field{Name: name, Label: label, Column: DocColumn(name), Type: t}
	}
	return &Kind{Name: "project", Route: "project", Label: "Project", Plural: "Projects", ERPType: "job", DefaultList: "x",
		Fields: []Field{
			title("companyname", "Project name"),
			{Name: "entityid", Label: "Project ID", Column: ColCode, Type: TypeText, ReadOnly: true},
			status("entitystatus", "Status", "Active", "Closed"),
			parent("customer", "Client", "customer"),
			money("projectedtotal", "Contract value"),
			date("startdate", "Start date"),
		},
		Document: []Field{
			{Name: "projectmanager", Label: "Project manager", Column: DocColumn("projectmanager"), Type: TypeRef, Ref: "employee"},
			doc("percentcomplete", "% complete", TypePercent),
			doc("acres", "Acres", TypeNumber),
			doc("isinactive", "Inactive", TypeBoolean),
			doc("email", "Email", TypeEmail),
			doc("phone", "Phone", TypePhone),
			doc("url", "Web site", TypeURL),
			{Name: "balance", Label: "Balance", Column: DocColumn("balance"), Type: TypeMoney, ReadOnly: true},
		},
		Tabs: []Tab{filesTab, notesTab}, CanEdit: true, CanCreate: true}
}

func raw(fields map[string]any) map[string]json.RawMessage {
	out := map[string]json.RawMessage{}
	for k, v := range fields {
		b, _ := json.Marshal(v)
		out[k] = b
	}
	return out
}

func fieldErrors(errs []portal.FieldError) map[string]string {
	out := map[string]string{}
	for _, e := range errs {
		out[e.Field] = e.Message
	}
	return out
}

func TestParseInputRefusesReadOnlyFields(t *testing.T) {
	k := formKind()
	for _, creating := range []bool{true, false} {
		_, errs := k.ParseInput(raw(map[string]any{"companyname": "Red Creek", "entitystatus": "Active", "customer": 3,
			"entityid": "PRJ-9", "balance": 12.5}), creating)
		got := fieldErrors(errs)
		if len(got) != 2 || got["entityid"] != "Project ID is set by the system and cannot be changed here." ||
			!strings.Contains(got["balance"], "Balance is set by the system") {
			t.Errorf("creating %v: %v", creating, got)
		}
	}
	// Not sending them is no error, on create either.
	if in, errs := k.ParseInput(raw(map[string]any{"companyname": "Red Creek", "entitystatus": "Active", "customer": 3}), true); len(errs) != 0 ||
		len(in) != 3 {
		t.Errorf("create without system fields: %v %v", in, errs)
	}
}

func TestParseInputTypes(t *testing.T) {
	k := formKind()
	cases := []struct {
		field string
		value any
		want  any    // the parsed value, when valid
		err   string // part of the message, when not
	}{
		{"percentcomplete", 45.5, 45.5, ""},
		{"percentcomplete", 0, 0.0, ""},
		{"percentcomplete", 100, 100.0, ""},
		{"percentcomplete", 101, nil, "from 0 to 100"},
		{"percentcomplete", -1, nil, "from 0 to 100"},
		{"percentcomplete", 33.333, nil, "two decimals"},
		{"percentcomplete", "ten", nil, "Enter a number."},
		{"acres", -12.125, -12.125, ""},
		{"acres", 2e15, nil, "Enter a number from"},
		{"isinactive", true, true, ""},
		{"isinactive", "yes", nil, "Choose yes or no."},
		{"email", "pete@example.com", "pete@example.com", ""},
		{"email", "  pete@example.com ", "pete@example.com", ""},
		{"email", "Pete <pete@example.com>", nil, "email address"},
		{"email", "pete@localhost", nil, "email address"},
		{"email", "pete", nil, "email address"},
		{"email", "", "", ""},
		{"phone", "+1 (919) 555-0100", "+1 (919) 555-0100", ""},
		{"phone", "919.555.0100 x204", "919.555.0100 x204", ""},
		{"phone", "555-01", nil, "7 to 15 digits"},
		{"phone", "call me", nil, "7 to 15 digits"},
		{"phone", "+1 919 555 0100 0100 0100", nil, "7 to 15 digits"},
		{"url", "https://example.com/site", "https://example.com/site", ""},
		{"url", "example.com", nil, "https://"},
		{"url", "javascript:alert(1)", nil, "https://"},
		{"url", "ftp://example.com", nil, "https://"},
		{"projectmanager", map[string]any{"id": 7, "refName": "Pete"}, int64(7), ""},
		{"projectmanager", -3, nil, "Choose a"},
	}
	for _, c := range cases {
		in, errs := k.ParseInput(raw(map[string]any{c.field: c.value}), false)
		msg := fieldErrors(errs)[c.field]
		switch {
		case c.err != "" && !strings.Contains(msg, c.err):
			t.Errorf("%s = %v: error %q, want one with %q", c.field, c.value, msg, c.err)
		case c.err == "" && msg != "":
			t.Errorf("%s = %v: %s", c.field, c.value, msg)
		case c.err == "":
			got := in[c.field]
			if p, ok := got.(*float64); ok {
				got = *p
			}
			if got != c.want {
				t.Errorf("%s = %v: parsed %#v, want %#v", c.field, c.value, got, c.want)
			}
		}
	}
	// null clears: no number, false.
	in, errs := k.ParseInput(map[string]json.RawMessage{"percentcomplete": []byte("null"), "isinactive": []byte("null")}, false)
	if len(errs) != 0 || in["percentcomplete"].(*float64) != nil || in["isinactive"] != false {
		t.Errorf("cleared: %v %v", in, errs)
	}
}

// memStore is an in-memory WriteStore and AttachmentStore.
type memStore struct {
	recs   map[int64]Record
	saves  []Write
	notes  []NoteWrite
	files  []FileWrite
	replay bool
}

func (m *memStore) Record(_ context.Context, kind string, id int64) (Record, error) {
	r, ok := m.recs[id]
	if !ok {
		return r, portal.Errorf(portal.CodeNotFound, "No such record.")
	}
	return r, nil
}
func (m *memStore) RecordSummary(ctx context.Context, kind string, id int64) (Record, error) {
	return m.Record(ctx, kind, id)
}
func (m *memStore) SaveRecord(_ context.Context, w Write) (Record, error) {
	m.saves = append(m.saves, w)
	m.recs[w.Record.ID] = w.Record
	return w.Record, nil
}
func (m *memStore) KeptKey(context.Context, int64, string) (Idempotency, int64, error) {
	return Idempotency{}, 0, portal.Errorf(portal.CodeNotFound, "No such key.")
}
func (m *memStore) AddNote(_ context.Context, w NoteWrite) error {
	if m.replay {
		return &Replayed{ID: w.RecordID}
	}
	m.notes = append(m.notes, w)
	return nil
}
func (m *memStore) AddFile(_ context.Context, w FileWrite) (File, error) {
	if m.replay {
		return File{}, &Replayed{ID: 9}
	}
	m.files = append(m.files, w)
	f := w.File
	f.ID, f.Content = int64(len(m.files)), nil
	return f, nil
}
func (m *memStore) File(_ context.Context, kind string, recordID, fileID int64) (File, error) {
	return File{ID: fileID, Kind: kind, RecordID: recordID, Name: "again.pdf", Content: []byte("%PDF-")}, nil
}

func TestSaveOfNoChangeWritesNothing(t *testing.T) {
	k := formKind()
	v1 := time.UnixMilli(1_800_000_000_000).UTC()
	doc := `{"companyname":"Red Creek","projectmanager":{"id":"7","refName":"Pete"},"percentcomplete":40,"notes":[{"text":"x"}]}`
	st := &memStore{recs: map[int64]Record{
		42: {Kind: "project", ID: 42, Title: "Red Creek", Code: "PRJ-42", Status: "Active", ParentID: 3, ParentName: "Acme (renamed since)",
			ModifiedAt: v1, Fields: json.RawMessage(doc)},
		3: {Kind: "customer", ID: 3, Title: "Acme"},
	}}
	// The form sends every field as it opened it (the client by id).
	same := raw(map[string]any{"companyname": "Red Creek", "entitystatus": "Active", "customer": 3, "percentcomplete": 40})
	for _, version := range []time.Time{v1, v1.Add(-time.Hour)} {
		saved, err := k.Save(context.Background(), st, Edit{ID: 42, Fields: same, Version: version}, Author{}, v1.Add(time.Minute), Queued)
		if err != nil || !saved.Unchanged || saved.ID != 42 || !saved.ModifiedAt.Equal(v1) {
			t.Fatalf("version %v: %+v %v", version, saved, err)
		}
	}
	if len(st.saves) != 0 {
		t.Fatalf("an unchanged form wrote: %+v", st.saves)
	}
	// A change on an older version is a conflict; on the current one it
	// is saved, its patch naming only the fields it sets.
	changed := raw(map[string]any{"percentcomplete": 55, "companyname": "Red Creek"})
	if _, err := k.Save(context.Background(), st, Edit{ID: 42, Fields: changed, Version: v1.Add(-time.Hour)}, Author{}, v1, Standalone); portal.ErrorCode(err) != portal.CodeConflict {
		t.Fatalf("stale change: %v", err)
	}
	saved, err := k.Save(context.Background(), st, Edit{ID: 42, Fields: changed, Version: v1}, Author{}, v1.Add(time.Minute), Standalone)
	if err != nil || saved.Unchanged || len(st.saves) != 1 {
		t.Fatalf("change: %+v %v", saved, err)
	}
	w := st.saves[0]
	var patch map[string]any
	json.Unmarshal(w.Patch, &patch)
	if len(patch) != 2 || patch["percentcomplete"] != 55.0 || patch["companyname"] != "Red Creek" {
		t.Errorf("patch %s", w.Patch)
	}
	if len(w.Changes) != 1 || w.Changes["percentcomplete"].After != 55.0 {
		t.Errorf("changes %+v", w.Changes)
	}
}

func TestSaveNumbersACreateWhoseCodeIsTheSystems(t *testing.T) {
	k := formKind()
	st := &memStore{recs: map[int64]Record{3: {Kind: "customer", ID: 3, Title: "Acme"}}}
	in := raw(map[string]any{"companyname": "New", "entitystatus": "Active", "customer": 3})
	if _, err := k.Save(context.Background(), st, Edit{Fields: in}, Author{}, time.Now(), Standalone); err != nil || !st.saves[0].NumberLike {
		t.Fatalf("standalone: %v %+v", err, st.saves)
	}
	// In ERP mode the ERP numbers it.
	if _, err := k.Save(context.Background(), st, Edit{Fields: in}, Author{}, time.Now(), Queued); err != nil || st.saves[1].NumberLike {
		t.Fatalf("queued: %v %+v", err, st.saves)
	}
}

func TestCheckNote(t *testing.T) {
	long := strings.Repeat("é", MaxNote)
	for text, want := range map[string]string{
		"  Met the client.\n\tNext: survey.  ": "",
		"":                                     "Write the note first.",
		"   \n ":                               "Write the note first.",
		long:                                   "",
		long + "x":                             "Keep the note under 4,001 characters.",
		"bell\a":                               "Remove the control characters",
	} {
		got, ferr := CheckNote(text)
		switch {
		case want == "" && (ferr != nil || got != strings.TrimSpace(text)):
			t.Errorf("%.20q: %q %v", text, got, ferr)
		case want != "" && (ferr == nil || !strings.HasPrefix(ferr.Message, want) || ferr.Field != "note"):
			t.Errorf("%.20q: %v, want %q", text, ferr, want)
		}
	}
}

func TestCheckUpload(t *testing.T) {
	big := append([]byte("%PDF-"), make([]byte, MaxFileSize)...)
	cases := []struct {
		name    string
		content []byte
		want    string // the content type, or part of the error
		ok      bool
	}{
		{"plan.pdf", []byte("%PDF-1.7 ..."), "application/pdf", true},
		{`C:\fakepath\Site Map.PNG`, []byte("\x89PNG\r\n\x1a\nrest"), "image/png", true},
		{"photo.jpeg", []byte("\xff\xd8\xff\xe0"), "image/jpeg", true},
		{"notes.txt", []byte("déjà vu"), "text/plain; charset=utf-8", true},
		{"data.csv", []byte("a,b\n1,2\n"), "text/csv; charset=utf-8", true},
		{"memo.docx", []byte("PK\x03\x04..."), "application/vnd.openxmlformats-officedocument.wordprocessingml.document", true},
		{"plan.pdf", []byte("MZ\x90\x00 a program"), "is not a PDF", false},
		{"notes.txt", []byte("bin\x00ary"), "is not a text file", false},
		{"setup.exe", []byte("MZ"), "cannot be attached", false},
		{"page.html", []byte("<html>"), "cannot be attached", false},
		{"noext", []byte("x"), "cannot be attached", false},
		{"empty.pdf", nil, "is empty", false},
		{"huge.pdf", big, "larger than 5 MB", false},
		{"", []byte("%PDF-"), "no name", false},
		{"bad\x01name.pdf", []byte("%PDF-"), "characters", false},
		{"plan\u202Etxt.pdf", []byte("%PDF-"), "characters", false}, // issue 36: a right-to-left override
		{"\u200Eplan.pdf", []byte("%PDF-"), "characters", false},
		{strings.Repeat("a", MaxFileName) + ".pdf", []byte("%PDF-"), "longer than", false},
	}
	for _, c := range cases {
		name, ct, ferr := CheckUpload(c.name, c.content)
		if c.ok != (ferr == nil) || (c.ok && ct != c.want) || (!c.ok && !strings.Contains(ferr.Message, c.want)) {
			t.Errorf("%q: %q %q %v", c.name, name, ct, ferr)
		}
	}
	if name, _, _ := CheckUpload(`C:\fakepath\Site Map.PNG`, []byte("\x89PNG\r\n\x1a\n")); name != "Site Map.PNG" {
		t.Errorf("name %q", name)
	}
}

func TestAddNoteAndFile(t *testing.T) {
	k := formKind()
	st := &memStore{recs: map[int64]Record{}}
	now := time.Date(2026, 3, 4, 23, 30, 0, 0, time.FixedZone("EST", -5*3600))
	a := Addition{RecordID: 42, By: Author{UserID: 5}, AuthorName: "Ada Lovelace", IdempotencyKey: "k1"}
	added, err := k.AddNote(context.Background(), st, a, " Site visit done. ", now, Queued)
	if err != nil || !added || len(st.notes) != 1 {
		t.Fatalf("note: %v %v", added, err)
	}
	n := st.notes[0]
	if n.Entry.Text != "Site visit done." || n.Entry.Author.RefName != "Ada Lovelace" || n.Entry.Date != "2026-03-05" ||
		n.Outbound == nil || n.Outbound.Op != OpNote || n.Idempotency == nil || n.Idempotency.Key != "k1" {
		t.Errorf("note write %+v", n)
	}
	var nf NoteFields
	if json.Unmarshal(n.Outbound.Fields, &nf); nf.Text != "Site visit done." || nf.Author != "Ada Lovelace" {
		t.Errorf("outbound %s", n.Outbound.Fields)
	}
	if _, err := k.AddNote(context.Background(), st, a, "  ", now, Standalone); portal.ErrorCode(err) != portal.CodeUnprocessable {
		t.Errorf("empty note: %v", err)
	}
	f, added, err := k.AddFile(context.Background(), st, a, "plan.pdf", []byte("%PDF-1.7"), now, Queued)
	if err != nil || !added || f.Write.State != WritePending || st.files[0].Outbound.Op != OpFile || f.ContentType != "application/pdf" {
		t.Fatalf("file: %+v %v %v", f, added, err)
	}
	// A repeat of the same key adds nothing and answers what the first added.
	st.replay = true
	if added, err := k.AddNote(context.Background(), st, a, "Site visit done.", now, Queued); added || err != nil {
		t.Errorf("replayed note: %v %v", added, err)
	}
	if f, added, err := k.AddFile(context.Background(), st, a, "plan.pdf", []byte("%PDF-1.7"), now, Queued); added || err != nil ||
		f.ID != 9 || f.Content != nil {
		t.Errorf("replayed file: %+v %v %v", f, added, err)
	}
	// Kinds without notes or files refuse them.
	bill := &Kind{Name: "x", Plural: "Bills", Tabs: []Tab{filesTab}}
	if _, err := bill.AddNote(context.Background(), st, a, "x", now, Queued); !portal.IsNotFound(err) {
		t.Errorf("no notes tab: %v", err)
	}
}
