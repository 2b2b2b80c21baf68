package records

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/portico/portico/internal/portal"
)

// MaxFileSize is the largest file a user may attach, in bytes. NetSuite's
// File Cabinet takes files up to 10 MB, and a RESTlet request up to 10 MB,
// which the file's base64 text (4/3 of its size) must fit with room.
const MaxFileSize = 5 << 20

// MaxFileName is the longest file name, in characters.
const MaxFileName = 200

// FileType is a kind of file users may attach: its name extensions, the
// MIME type it is stored and served with, and how its first bytes look.
type FileType struct {
	Label       string   // for messages: "a PDF"
	Extensions  []string // lower case, without the dot
	ContentType string
	magic       func([]byte) bool
}

func prefixed(magic ...string) func([]byte) bool {
	return func(b []byte) bool {
		for _, m := range magic {
			if bytes.HasPrefix(b, []byte(m)) {
				return true
			}
		}
		return false
	}
}

// isText reports whether b is UTF-8 text without NUL bytes.
func isText(b []byte) bool { return utf8.Valid(b) && bytes.IndexByte(b, 0) < 0 }

// zipMagic starts every ZIP archive, so every Office Open XML document.
var zipMagic = prefixed("PK\x03\x04")

// FileTypes are the files users may attach: documents, spreadsheets,
// images and text, which NetSuite's File Cabinet files under a type of
// its own (PDF, WORD, EXCEL, POWERPOINT, PNGIMAGE, JPGIMAGE, GIFIMAGE,
// CSV, PLAINTEXT). Anything else (programs, archives, web pages) is
// refused.
var FileTypes = []FileType{
	{"a PDF", []string{"pdf"}, "application/pdf", prefixed("%PDF-")},
	{"a PNG image", []string{"png"}, "image/png", prefixed("\x89PNG\r\n\x1a\n")},
	{"a JPEG image", []string{"jpg", "jpeg"}, "image/jpeg", prefixed("\xff\xd8\xff")},
	{"a GIF image", []string{"gif"}, "image/gif", prefixed("GIF87a", "GIF89a")},
	{"a text file", []string{"txt"}, "text/plain; charset=utf-8", isText},
	{"a CSV file", []string{"csv"}, "text/csv; charset=utf-8", isText},
	{"a Word document", []string{"docx"}, "application/vnd.openxmlformats-officedocument.wordprocessingml.document", zipMagic},
	{"an Excel workbook", []string{"xlsx"}, "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", zipMagic},
	{"a PowerPoint presentation", []string{"pptx"}, "application/vnd.openxmlformats-officedocument.presentationml.presentation", zipMagic},
}

// extension is a file name's extension, lower case, without the dot.
func extension(name string) string {
	return strings.ToLower(strings.TrimPrefix(path.Ext(name), "."))
}

// fileTypeOf returns the allowed type of a file name's extension.
func fileTypeOf(name string) (FileType, bool) {
	ext := extension(name)
	for _, t := range FileTypes {
		if slices.Contains(t.Extensions, ext) {
			return t, true
		}
	}
	return FileType{}, false
}

// NamedAs returns name ending in one of exts (lower case, without the
// dot), the extensions of the type its content is: name itself when its
// extension is one of them (in any case), else name with the first one
// added, so that the name says what the file is ("report.html" holding
// text is "report.html.txt"; "Screenshot at 10.15.32" holding a PNG is
// "Screenshot at 10.15.32.png").
func NamedAs(name string, exts ...string) string {
	if len(exts) == 0 || slices.Contains(exts, extension(name)) {
		return name
	}
	return name + "." + exts[0]
}

// AllowedExtensions lists the extensions of FileTypes (".pdf, .png, …").
func AllowedExtensions() string {
	var exts []string
	for _, t := range FileTypes {
		for _, e := range t.Extensions {
			exts = append(exts, "."+e)
		}
	}
	return strings.Join(exts, ", ")
}

// UploadName returns the name an uploaded file is stored under — its base
// name, trimmed — or why it cannot be stored under it: a name of at most
// MaxFileName characters without control characters or hidden format
// characters (portal.HasHiddenFormat: a right-to-left override makes
// "plan\u202Etxt.pdf" read as "planfdp.txt").
func UploadName(name string) (string, string) {
	// Browsers send the base name; some send a path (C:\fakepath\x.pdf).
	name = strings.TrimSpace(name[strings.LastIndexAny(name, `/\`)+1:])
	switch {
	case !utf8.ValidString(name) || strings.ContainsFunc(name, unicode.IsControl) || portal.HasHiddenFormat(name):
		return "", "The file name has characters that cannot be stored: rename the file."
	case name == "" || strings.Trim(name, ".") == "":
		return "", "The file has no name."
	case utf8.RuneCountInString(name) > MaxFileName:
		return "", fmt.Sprintf("The file name is longer than %d characters: rename the file.", MaxFileName)
	}
	return name, ""
}

// CheckUpload checks an uploaded file and returns its name as stored
// (UploadName) and its content type, or the field error under "file": a
// name UploadName takes, an allowed extension, content that is not empty,
// at most MaxFileSize bytes, and is what its extension says (a .pdf must
// be a PDF).
func CheckUpload(name string, content []byte) (string, string, *portal.FieldError) {
	bad := func(format string, args ...any) (string, string, *portal.FieldError) {
		return "", "", &portal.FieldError{Field: "file", Message: fmt.Sprintf(format, args...)}
	}
	name, msg := UploadName(name)
	if msg != "" {
		return bad("%s", msg)
	}
	t, ok := fileTypeOf(name)
	if !ok {
		return bad("%s cannot be attached: attach a file ending in %s.", name, AllowedExtensions())
	}
	switch {
	case len(content) == 0:
		return bad("%s is empty.", name)
	case len(content) > MaxFileSize:
		return bad("%s is larger than %d MB: attach a file of at most %d MB.", name, MaxFileSize>>20, MaxFileSize>>20)
	case !t.magic(content):
		return bad("%s is not %s, as its name says: attach the file itself.", name, t.Label)
	}
	return name, t.ContentType, nil
}

// FileWrite is a file added to a record, as the store keeps it: the file
// (its ID is given by the store), the audit entry's author, and as for a
// record write the outbox entry (Queued mode: the store fills its Fields
// with FileFields naming the file) and the Idempotency-Key.
type FileWrite struct {
	File        File
	By          Author
	Outbound    *Outbound
	Idempotency *Idempotency
}

// AddFile attaches an uploaded file to record a.RecordID of kind k: a
// field error (422) for a file CheckUpload refuses, a not-found error when
// the kind has no files or the record does not exist. It returns the file
// as stored (without its content) and whether it added it (false: the
// Idempotency-Key says this very file was attached already; the file is
// the one attached then).
func (k *Kind) AddFile(ctx context.Context, st AttachmentStore, a Addition, name string, content []byte, now time.Time, mode Mode) (File, bool, error) {
	if !k.HasFiles() {
		return File{}, false, portal.Errorf(portal.CodeNotFound, "%s have no files.", k.Plural)
	}
	name, contentType, ferr := CheckUpload(name, content)
	if ferr != nil {
		return File{}, false, &portal.Error{Code: portal.CodeUnprocessable, Message: "This file cannot be attached.", Fields: []portal.FieldError{*ferr}}
	}
	w := FileWrite{By: a.By, File: File{Kind: k.Name, RecordID: a.RecordID, Name: name, ContentType: contentType,
		Size: int64(len(content)), ModifiedAt: now.UTC().Truncate(time.Millisecond), Content: content}}
	if a.IdempotencyKey != "" {
		w.Idempotency = &Idempotency{Key: a.IdempotencyKey, Fingerprint: fingerprint("file", k.Name, a.RecordID, append([]byte(name+"\n"), content...))}
	}
	if mode == Queued {
		w.Outbound = &Outbound{Op: OpFile, Key: newKey()}
		w.File.Write = WriteState{State: WritePending}
	}
	f, err := st.AddFile(ctx, w)
	if replayed, ok := errors.AsType[*Replayed](err); ok {
		f, err = st.File(ctx, k.Name, a.RecordID, replayed.ID)
		f.Content = nil
		return f, false, err
	}
	return f, err == nil, err
}

// FileOutbound is the fields of file id's OpFile outbox entry.
func FileOutbound(id int64) json.RawMessage {
	b, _ := json.Marshal(FileFields{FileID: id})
	return b
}
