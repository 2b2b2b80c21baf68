package netsuitetest

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/portico/portico/internal/records"
)

// The RESTlet's additions (POST only): a user note on a record, a file
// saved in the File Cabinet and attached to a record. What NetSuite does
// with them, and the rules this fake holds them to:
//
//  [N1] NetSuite Help, "Note" (SuiteScript Records Browser, note record,
//       https://docs.oracle.com/en/cloud/saas/netsuite/ns-online-help/section_N3191182.html
//       and the Records Browser's note page): fields title (text), note
//       (textarea "Memo", the one required field), notedate, author (the
//       current user), externalid, and the record it is on: entity,
//       transaction, or recordtype (the custom record type) with record.
//       The SOAP "Note" page (section_N3655263) adds: a note is associated
//       with one and only one such record.
//  [N2] NetSuite Help, "file.create(options)" (section_4223861820): name,
//       fileType (the file.Type enum), contents (base64 for binary types,
//       text for text types), description, folder; content held in
//       memory is limited to 10 MB. "File.save()" (section_4229271179):
//       without a folder it fails SSS_MISSING_REQD_ARGUMENT "Please enter
//       value(s) for: Folder", with a folder that does not exist
//       INVALID_KEY_OR_REF; it returns the file's internal id.
//  [N3] NetSuite Help, "record.attach(options)" (section_4267284169): to
//       attach a File Cabinet file to a record, record.type is file;
//       SSS_MISSING_REQD_ARGUMENT when an argument is missing. "Working
//       with File Cabinet Records in REST Web Services"
//       (article_0909085903): 10 MB per upload.
//  [A]  This fake presents a record's notes as its "notes" sublist (see
//       account.yaml); a note added here appears there, as NetSuite's
//       User Notes list shows it: date, author, title, memo. The
//       integration's user is IntegrationUser. The upload folder is the
//       RESTlet deployment's parameter, UploadFolder here.
//
// The portal's RESTlet, internal/erp/netsuite/restlet/portico_restlet.js,
// makes these calls; TestRESTletScriptMatchesTheFake checks they agree.

// IntegrationUser is the name of the user the integration's requests run
// as: the author NetSuite gives the notes they add [N1].
const IntegrationUser = "Portico Integration"

// DefaultUploadFolder is the internal id of the File Cabinet folder the
// RESTlet saves uploads in, unless SetUploadFolder says otherwise [A].
const DefaultUploadFolder = 17

// maxFileContent is the most content file.create takes [N2].
const maxFileContent = 10 << 20

// Note is a user note the RESTlet added [N1].
type Note struct {
	ID         int64
	RecordType string // the record type it is on
	RecordID   int64
	Title      string
	Text       string // the note (memo)
	ExternalID string
	Date       string // yyyy-mm-dd
	Author     string
}

// additions is what the RESTlet's POST actions added.
type additions struct {
	notes        []Note
	noteByExt    map[string]int64
	fileByKey    map[string]int64 // file description → id
	uploadFolder int64
	folderSet    bool
}

// SetUploadFolder sets the upload folder of the RESTlet's deployment; 0
// means the parameter is not set.
func (s *Server) SetUploadFolder(id int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.adds.uploadFolder, s.adds.folderSet = id, true
}

// Notes returns the notes the RESTlet added, oldest first.
func (s *Server) Notes() []Note {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return append([]Note(nil), s.adds.notes...)
}

// File returns a file of the File Cabinet (as the RESTlet's file action
// serves it), and whether there is one.
func (s *Server) File(id int64) (records.File, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	f, ok := s.files[id]
	return f, ok
}

// linkOf is the note field that names a record of family f [N1].
func linkOf(f Family) string {
	switch f {
	case FamilyTransaction:
		return "transaction"
	case FamilyCustom:
		return "record"
	}
	return "entity"
}

// restletTarget finds the record a POST action names: its type store and
// record. The caller holds the write lock.
func (s *Server) restletTarget(recordType, recordID string) (*typeStore, *rec, *restletErr) {
	id, err := strconv.ParseInt(recordID, 10, 64)
	ts := s.lookupType(recordType)
	if err != nil || ts == nil {
		return nil, nil, &restletErr{"SSS_MISSING_REQD_ARGUMENT", "Missing or invalid arguments: recordtype, recordid"}
	}
	r := ts.byID[id]
	if r == nil {
		return nil, nil, &restletErr{"RCRD_DSNT_EXIST", "That record does not exist."}
	}
	return ts, r, nil
}

// restletAddNote adds a user note [N1]: link must be the field that names
// the record's family; a note with the same external id is answered
// again, nothing added.
func (s *Server) restletAddNote(args map[string]string) (any, *restletErr) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.adds.noteByExt == nil {
		s.adds.noteByExt = map[string]int64{}
	}
	text, ext := args["note"], args["externalid"]
	switch args["link"] {
	case "entity", "transaction", "record":
	default:
		return nil, &restletErr{"SSS_MISSING_REQD_ARGUMENT", "Missing or invalid arguments: link, note, externalid"}
	}
	if text == "" || utf8.RuneCountInString(text) > records.MaxNote || ext == "" {
		return nil, &restletErr{"SSS_MISSING_REQD_ARGUMENT", "Missing or invalid arguments: link, note, externalid"}
	}
	if id, done := s.adds.noteByExt[ext]; done {
		return map[string]string{"id": strconv.FormatInt(id, 10)}, nil
	}
	ts, r, rerr := s.restletTarget(args["recordtype"], args["recordid"])
	if rerr != nil {
		return nil, rerr
	}
	if args["link"] != linkOf(ts.schema.Family) {
		return nil, &restletErr{"RCRD_DSNT_EXIST", fmt.Sprintf("That record does not exist. (INVALID_KEY_OR_REF: Invalid %s reference key %d.)",
			args["link"], r.id)}
	}
	title := args["title"]
	if utf8.RuneCountInString(title) > 200 {
		title = string([]rune(title)[:200])
	}
	n := Note{ID: int64(len(s.adds.notes)) + 1, RecordType: ts.schema.RecordType, RecordID: r.id, Title: title, Text: text,
		ExternalID: ext, Date: s.now().In(s.loc).Format("2006-01-02"), Author: IntegrationUser}
	s.adds.notes = append(s.adds.notes, n)
	s.adds.noteByExt[ext] = n.ID
	if _, presented := ts.schema.byID["notes"]; presented {
		var doc map[string]any
		if err := json.Unmarshal(r.doc, &doc); err == nil {
			list, _ := doc["notes"].([]any)
			doc["notes"] = append(list, map[string]any{"date": n.Date, "author": map[string]any{"refName": n.Author},
				"title": n.Title, "text": n.Text})
			if b, err := json.Marshal(doc); err == nil {
				cp := *r
				cp.doc = b
				ts.put(&cp)
			}
		}
	}
	return map[string]string{"id": strconv.FormatInt(n.ID, 10)}, nil
}

// uploadTypes are the file.Type values an upload may have, and the MIME
// type each is served with (the RESTlet's file action answers it).
var uploadTypes = map[string]string{
	"PDF": "application/pdf", "PNGIMAGE": "image/png", "JPGIMAGE": "image/jpeg", "GIFIMAGE": "image/gif",
	"PLAINTEXT": "text/plain", "CSV": "text/csv", "WORD": "application/msword", "EXCEL": "application/vnd.ms-excel",
	"POWERPOINT": "application/vnd.ms-powerpoint",
}

// ooxml are the Office formats NetSuite files under the older types'
// names (WORD, EXCEL, POWERPOINT); the RESTlet names them by extension.
var ooxml = map[string]string{
	"docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
	"xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
	"pptx": "application/vnd.openxmlformats-officedocument.presentationml.presentation",
}

// restletAddFile saves a file in the upload folder and attaches it to a
// record [N2][N3]; a file whose description (the key) was saved before is
// attached again and answered, nothing saved twice.
func (s *Server) restletAddFile(args map[string]string) (any, *restletErr) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.adds.fileByKey == nil {
		s.adds.fileByKey = map[string]int64{}
	}
	name, fileType, key := args["name"], args["filetype"], args["key"]
	content, err := base64.StdEncoding.DecodeString(strings.NewReplacer("\r", "", "\n", "").Replace(args["contentBase64"]))
	contentType, known := uploadTypes[fileType]
	if name == "" || !known || err != nil || len(content) == 0 || key == "" {
		return nil, &restletErr{"SSS_MISSING_REQD_ARGUMENT", "Missing or invalid arguments: name, filetype, contentBase64, key"}
	}
	if len(content) > maxFileContent {
		return nil, &restletErr{"SSS_FILE_CONTENT_SIZE_EXCEEDED", "The file content you are attempting to access exceeds the maximum allowed size of 10 MB."}
	}
	folder := int64(DefaultUploadFolder)
	if s.adds.folderSet {
		folder = s.adds.uploadFolder
	}
	if folder == 0 {
		return nil, &restletErr{"SSS_MISSING_REQD_ARGUMENT", "Please enter value(s) for: Folder"}
	}
	ts, r, rerr := s.restletTarget(args["recordtype"], args["recordid"])
	if rerr != nil {
		return nil, rerr
	}
	id, done := s.adds.fileByKey[key]
	if !done {
		for fid := range s.files {
			id = max(id, fid)
		}
		id++
		s.adds.fileByKey[key] = id
	}
	kind := ""
	for k, t := range s.byKind {
		if t == ts {
			kind = k
		}
	}
	if ext := strings.ToLower(name[strings.LastIndexByte(name, '.')+1:]); ooxml[ext] != "" {
		contentType = ooxml[ext] // as the RESTlet's file action names them
	}
	// Saved once; attaching it again (a retry) changes nothing.
	s.files[id] = records.File{ID: id, Kind: kind, RecordID: r.id, Name: name, ContentType: contentType,
		Size: int64(len(content)), ModifiedAt: s.now(), Content: content}
	return map[string]string{"id": strconv.FormatInt(id, 10)}, nil
}
