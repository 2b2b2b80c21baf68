package httpapi

import (
	"errors"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/portico/portico/internal/portal"
	"github.com/portico/portico/internal/records"
)

// Notes and files added to a record: POST {product}-note and POST
// {product}-file, with ?type= and &id= as the record's other calls. Both
// need the right to edit the kind (an editable kind, permission
// <route>.edit: /kinds' canEdit), honour an
// Idempotency-Key as creates do (a repeat adds nothing and answers 200
// with what the first made), and in ERP mode queue the addition for the
// ERP (the answer says it is pending).

// noteBody is an added note: its text.
type noteBody struct {
	Note string `json:"note"`
}

// addNote answers POST {product}-note?type=&id=: 201 with the record's
// Notes tab as it now is (columns and rows, the new note last).
func (s *Server) addNote(w http.ResponseWriter, r *http.Request) {
	k, rec, a, ok := s.addition(w, r)
	if !ok {
		return
	}
	var body noteBody
	if err := decodeJSON(r, &body); err != nil {
		s.writeError(w, r, err)
		return
	}
	sy, mode := s.writeMode(r)
	added, err := k.AddNote(r.Context(), s.recordStore(r), a, body.Note, time.Now(), mode)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	if sy != nil && added {
		sy.Notify()
	}
	if rec, err = s.recordStore(r).Record(r.Context(), k.Name, rec.ID); err != nil {
		s.writeError(w, r, err)
		return
	}
	notes, _ := k.TabNamed(records.NotesTab) // AddNote refuses a kind without it
	cols, rows := records.Sublist(rec, notes)
	writeData(w, addedStatus(added), records.TabPage{Columns: orEmpty(cols), Rows: rows})
}

// uploadFile answers POST {product}-file?type=&id= with a multipart form
// whose "file" part is the file: 201 with the file as the Files tab lists
// it. A file larger than records.MaxFileSize, of a type that cannot be
// attached, or whose content is not what its name says is a 422 under
// "file".
func (s *Server) uploadFile(w http.ResponseWriter, r *http.Request) {
	k, _, a, ok := s.addition(w, r)
	if !ok {
		return
	}
	tooBig := &portal.Error{Code: portal.CodeUnprocessable, Message: "This file cannot be attached.",
		Fields: []portal.FieldError{{Field: "file", Message: "The file is larger than 5 MB: attach a file of at most 5 MB."}}}
	r.Body = http.MaxBytesReader(w, r.Body, records.MaxFileSize+64<<10)
	if err := r.ParseMultipartForm(1 << 20); err != nil {
		if _, big := errors.AsType[*http.MaxBytesError](err); big {
			s.writeError(w, r, tooBig)
			return
		}
		s.writeError(w, r, portal.Invalid("Send the file as multipart/form-data, in a part named \"file\".",
			portal.FieldError{Field: "file", Message: "Choose a file."}))
		return
	}
	defer r.MultipartForm.RemoveAll()
	if err := checkForm(r.MultipartForm); err != nil {
		s.writeError(w, r, err)
		return
	}
	file, hdr, err := r.FormFile("file")
	if err != nil {
		s.writeError(w, r, &portal.Error{Code: portal.CodeUnprocessable, Message: "Choose a file to attach.",
			Fields: []portal.FieldError{{Field: "file", Message: "Choose a file."}}})
		return
	}
	content, err := io.ReadAll(io.LimitReader(file, records.MaxFileSize+1))
	file.Close()
	if err != nil {
		s.writeError(w, r, portal.Invalid("The file could not be read."))
		return
	}
	if len(content) > records.MaxFileSize {
		s.writeError(w, r, tooBig)
		return
	}
	sy, mode := s.writeMode(r)
	f, added, err := k.AddFile(r.Context(), s.recordStore(r), a, hdr.Filename, content, time.Now(), mode)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	if sy != nil && added {
		sy.Notify()
	}
	writeData(w, addedStatus(added), fileInfoOf(f))
}

// fileInfoOf is a file as the Files tab lists it; the write state only
// for one on its way to the ERP or refused by it.
func fileInfoOf(f records.File) fileInfo {
	fi := fileInfo{ID: f.ID, Name: f.Name, Size: f.Size, ContentType: f.ContentType, Modified: f.ModifiedAt}
	if f.Write.State != records.WriteSynced {
		fi.Write = &f.Write
	}
	return fi
}

// addition checks a note or upload request: the kind (?type=), the right
// to edit it, the record (&id=, which must exist) and the
// Idempotency-Key. It answers the request itself when one is wrong.
func (s *Server) addition(w http.ResponseWriter, r *http.Request) (*records.Kind, records.Record, records.Addition, bool) {
	k, err := s.kind(r, q(r, "type"))
	// The right to edit the kind, as /kinds says it (canEdit).
	if err == nil && !caller(r).Guard.May(k, records.ActEdit) {
		err = portal.Errorf(portal.CodeForbidden, "Your role may not add notes or files to %s.", strings.ToLower(k.Plural))
	}
	var rec records.Record
	if err == nil {
		rec, err = s.loadRecord(r, k, false)
	}
	var key string
	if err == nil {
		key, err = idempotencyKey(r)
	}
	if err != nil {
		s.writeError(w, r, err)
		return nil, rec, records.Addition{}, false
	}
	p := caller(r)
	return k, rec, records.Addition{RecordID: rec.ID, By: author(r), AuthorName: p.User.FullName, IdempotencyKey: key}, true
}

// addedStatus is 201 for what a request added, 200 for what an earlier
// request with its Idempotency-Key had added.
func addedStatus(added bool) int {
	if added {
		return http.StatusCreated
	}
	return http.StatusOK
}
