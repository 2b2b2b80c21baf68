package records

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/portico/portico/internal/portal"
)

// Notes and files added to a record (issue 16). A note goes into the
// record's notes sublist (the Notes tab), a file into its attachments (the
// Files tab); in Queued mode each is also queued in the outbox for the ERP
// (OpNote, OpFile), behind the record's earlier writes, and the record is
// pending until the ERP has it. Neither changes the record's fields, so
// neither makes a new version: a form opened on the record stays valid.

// MaxNote is the longest note, in characters.
const MaxNote = 4000

// NotesTab is the name of the tab (a sublist of the document) that holds a
// record's notes.
const NotesTab = "notes"

// The audit events of a note or a file added to a record.
const (
	EventNote = "record_note"
	EventFile = "record_file"
)

// NoteEntry is one entry of a record's notes sublist, as the document
// keeps it (the shape the ERP's and the demo's notes have): who wrote it,
// the day, the text.
type NoteEntry struct {
	Author struct {
		RefName string `json:"refName"`
	} `json:"author"`
	Date string `json:"date"` // yyyy-mm-dd
	Text string `json:"text"`
}

// NoteFields is what an OpNote outbox entry sends: the note and its
// author's name (the ERP records its own integration user as the author).
type NoteFields struct {
	Author string `json:"author"`
	Text   string `json:"text"`
}

// FileFields is what an OpFile outbox entry sends: the stored file's id
// (its content waits in the store until the ERP has it).
type FileFields struct {
	FileID int64 `json:"fileId"`
}

// NoteWrite is a note added to a record, as the store keeps it: the
// sublist entry to append, the audit entry's author and time, and, as for
// a record write, the outbox entry (Queued mode) and the Idempotency-Key.
type NoteWrite struct {
	Kind        string
	RecordID    int64
	Entry       NoteEntry
	At          time.Time
	By          Author
	Outbound    *Outbound
	Idempotency *Idempotency
}

// NoteStore is what adding a note needs from the store.
type NoteStore interface {
	// AddNote appends w.Entry to the record's notes sublist, with its
	// audit entry, live-update event and outbox entry, in one
	// transaction; a not-found error when the record is not there, and
	// like SaveRecord *Replayed or ErrKeyReused for a repeated key.
	AddNote(ctx context.Context, w NoteWrite) error
}

// AttachmentStore is what adding a note or a file needs from the store.
type AttachmentStore interface {
	NoteStore
	// AddFile stores w.File (with a new id) as an attachment of its
	// record, likewise, and returns it (without its content).
	AddFile(ctx context.Context, w FileWrite) (File, error)
	// File returns one stored attachment (for a replayed upload).
	File(ctx context.Context, kind string, recordID, fileID int64) (File, error)
}

// Addition is a note or file added to a record in a request.
type Addition struct {
	RecordID int64
	By       Author
	// AuthorName is the user's name, shown as the note's author.
	AuthorName string
	// IdempotencyKey is the request's Idempotency-Key ("" for none): a
	// repeat with the same key and the same content adds nothing again.
	IdempotencyKey string
}

// HasNotes reports whether the kind's records have a notes tab.
func (k *Kind) HasNotes() bool {
	t, ok := k.TabNamed(NotesTab)
	return ok && t.Source == TabSublist
}

// HasFiles reports whether the kind's records have a files tab.
func (k *Kind) HasFiles() bool {
	for _, t := range k.Tabs {
		if t.Source == TabFiles {
			return true
		}
	}
	return false
}

// CheckNote returns a note's text as stored (trimmed), or the field error
// under "note": it must not be empty, at most MaxNote characters, valid
// UTF-8 with no control characters but line breaks and tabs.
func CheckNote(text string) (string, *portal.FieldError) { return checkNote(text, "note") }

// checkNote is CheckNote of a text the user calls what (a note, an
// approval's comment), its field error under that name.
func checkNote(text, what string) (string, *portal.FieldError) {
	text = strings.TrimSpace(text)
	bad := func(msg string) (string, *portal.FieldError) {
		return "", &portal.FieldError{Field: what, Message: msg}
	}
	switch {
	case !utf8.ValidString(text):
		return bad("Not valid text (UTF-8).")
	case text == "":
		return bad("Write the " + what + " first.")
	case utf8.RuneCountInString(text) > MaxNote:
		return bad(fmt.Sprintf("Keep the %s under %s characters.", what, formatInt(MaxNote+1)))
	case strings.ContainsFunc(text, func(r rune) bool {
		return r != '\n' && r != '\r' && r != '\t' && (unicode.IsControl(r) || r == '\u2028' || r == '\u2029')
	}):
		return bad("Remove the control characters (line breaks and tabs are fine).")
	}
	return text, nil
}

// formatInt writes n with thousands separators (4,001).
func formatInt(n int) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// AddNote adds a note to record a.RecordID of kind k: a field error (422)
// for a bad text, a not-found error when the kind has no notes or the
// record does not exist. The note is dated today (UTC) and signed with
// a.AuthorName. It reports whether it added the note (false: the
// Idempotency-Key says this very note was added already).
func (k *Kind) AddNote(ctx context.Context, st NoteStore, a Addition, text string, now time.Time, mode Mode) (bool, error) {
	if !k.HasNotes() {
		return false, portal.Errorf(portal.CodeNotFound, "%s have no notes.", k.Plural)
	}
	text, ferr := CheckNote(text)
	if ferr != nil {
		return false, &portal.Error{Code: portal.CodeUnprocessable, Message: "Please correct the note.", Fields: []portal.FieldError{*ferr}}
	}
	now = now.UTC().Truncate(time.Millisecond)
	w := NoteWrite{Kind: k.Name, RecordID: a.RecordID, At: now, By: a.By}
	w.Entry.Author.RefName, w.Entry.Date, w.Entry.Text = a.AuthorName, now.Format(time.DateOnly), text
	if a.IdempotencyKey != "" {
		w.Idempotency = &Idempotency{Key: a.IdempotencyKey, Fingerprint: fingerprint("note", k.Name, a.RecordID, []byte(text))}
	}
	if mode == Queued {
		fields, _ := json.Marshal(NoteFields{Author: a.AuthorName, Text: text})
		w.Outbound = &Outbound{Op: OpNote, Fields: fields, Key: newKey()}
	}
	err := st.AddNote(ctx, w)
	if _, ok := errors.AsType[*Replayed](err); ok {
		return false, nil
	}
	return err == nil, err
}

// fingerprint identifies a note's or upload's request for its
// Idempotency-Key: what it adds, to which record, and its content.
func fingerprint(what, kind string, id int64, content []byte) string {
	h := sha256.New()
	fmt.Fprintf(h, "%s\n%s\n%d\n", what, kind, id)
	h.Write(content)
	return hex.EncodeToString(h.Sum(nil))
}
