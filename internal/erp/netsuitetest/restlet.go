package netsuitetest

import (
	"cmp"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"slices"
	"strconv"

	"github.com/portico/portico/internal/records"
)

// SavedSearch is a saved search's result as the RESTlet returns it: the
// column labels and one row of display values per result. The RESTlet
// answers at most MaxSavedSearchRows rows and then sets Truncated.
type SavedSearch struct {
	Columns   []string   `json:"columns"`
	Rows      [][]string `json:"rows"`
	Truncated bool       `json:"truncated,omitempty"`
}

// MaxSavedSearchRows is the most rows the RESTlet answers for one saved
// search (restlet/portico_restlet.js stops there too).
const MaxSavedSearchRows = 10_000

// SetSavedSearch makes the RESTlet answer the saved search id (e.g.
// customsearch_res_project_list) with ss.
func (s *Server) SetSavedSearch(id string, ss SavedSearch) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.searches[id] = ss
}

// restletFile is the RESTlet's answer to action=file.
type restletFile struct {
	ID            string `json:"id"`
	Name          string `json:"name"`
	ContentType   string `json:"contentType"`
	Size          int64  `json:"size"`
	Modified      string `json:"modified,omitempty"`
	ContentBase64 string `json:"contentBase64,omitempty"`
}

// maxRESTletBody bounds a POST's body: an upload's 10 MB of content
// [N2 in attachments.go] as base64 text, and its other arguments.
const maxRESTletBody = 14 << 20

// serveRESTlet answers the portal's RESTlet, GET or POST
// /app/site/hosting/restlet.nl?script=S&deploy=D. Its arguments come from
// the query (GET) or a JSON object body (POST):
//
//	action=file&id=N                     → {"id","name","contentType","size","contentBase64"}
//	action=files&recordtype=T&recordid=N → {"files": [{"id","name","contentType","size","modified"}, ...]}
//	                                       (the record's attachments, in id order;
//	                                       modified ISO 8601 UTC, absent when unknown)
//	action=savedsearch&id=customsearch_… → {"columns": [...], "rows": [[...], ...], "truncated": true}
//	                                       (every value a display string; at most
//	                                       MaxSavedSearchRows rows, truncated only when cut)
//
// and with POST only (see attachments.go for NetSuite's rules):
//
//	action=addnote: recordtype, recordid, link, title, note, externalid → {"id"}
//	action=addfile: recordtype, recordid, name, filetype, contentBase64, key → {"id"}
//
// Failures are RESTlet errors, 400 {"error": {"code", "message"}}:
// SSS_INVALID_SCRIPTLET_ID (wrong script or deploy), SSS_MISSING_REQD_ARGUMENT
// (an argument missing or malformed: saved search ids are customsearch…),
// RCRD_DSNT_EXIST (no such file or search), INVALID_ACTION. The RESTlet's
// source, internal/erp/netsuite/restlet/portico_restlet.js, answers alike
// (netsuite's TestRESTletScriptMatchesTheFake checks it).
func (s *Server) serveRESTlet(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	if q.Get("script") != s.restletScript || q.Get("deploy") != s.restletDeploy {
		writeRESTletError(w, http.StatusBadRequest, "SSS_INVALID_SCRIPTLET_ID",
			"That Suitelet is invalid, disabled, or no longer exists.")
		return
	}
	args := map[string]string{}
	switch r.Method {
	case http.MethodGet:
		for k := range q {
			args[k] = q.Get(k)
		}
	case http.MethodPost:
		raw, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxRESTletBody))
		var body map[string]any
		if err != nil || json.Unmarshal(raw, &body) != nil || body == nil {
			writeRESTletError(w, http.StatusBadRequest, "SYNTAX_ERROR", "The request body is not a JSON object.")
			return
		}
		for k, v := range body {
			switch v := v.(type) {
			case string:
				args[k] = v
			case float64:
				args[k] = strconv.FormatFloat(v, 'f', -1, 64)
			}
		}
	default:
		writeRESTletError(w, http.StatusMethodNotAllowed, "SSS_INVALID_HTTP_METHOD", "This RESTlet answers GET and POST.")
		return
	}
	var (
		out any
		err *restletErr
	)
	switch args["action"] {
	case "file":
		out, err = s.restletFile(args["id"])
	case "files":
		out, err = s.restletFiles(args["recordtype"], args["recordid"])
	case "savedsearch":
		out, err = s.restletSearch(args["id"])
	case "addnote", "addfile":
		switch {
		case r.Method != http.MethodPost:
			err = &restletErr{"INVALID_ACTION", fmt.Sprintf("Action %q changes data: send it with POST.", args["action"])}
		case args["action"] == "addnote":
			out, err = s.restletAddNote(args)
		default:
			out, err = s.restletAddFile(args)
		}
	case "":
		err = &restletErr{"SSS_MISSING_REQD_ARGUMENT", "Missing a required argument: action"}
	default:
		err = &restletErr{"INVALID_ACTION", fmt.Sprintf("Unknown action %q.", args["action"])}
	}
	if err != nil {
		writeRESTletError(w, http.StatusBadRequest, err.code, err.message)
		return
	}
	body, _ := json.Marshal(out)
	writeJSON(w, body)
}

type restletErr struct{ code, message string }

func (s *Server) restletFile(idArg string) (any, *restletErr) {
	id, err := strconv.ParseInt(idArg, 10, 64)
	if err != nil {
		return nil, &restletErr{"SSS_MISSING_REQD_ARGUMENT", "Missing or invalid argument: id"}
	}
	s.mu.RLock()
	f, ok := s.files[id]
	s.mu.RUnlock()
	if !ok {
		return nil, &restletErr{"RCRD_DSNT_EXIST", "That record does not exist."}
	}
	return restletFile{ID: idArg, Name: f.Name, ContentType: f.ContentType, Size: int64(len(f.Content)),
		ContentBase64: base64.StdEncoding.EncodeToString(f.Content)}, nil
}

func (s *Server) restletFiles(recordType, recordID string) (any, *restletErr) {
	id, err := strconv.ParseInt(recordID, 10, 64)
	ts := s.lookupType(recordType)
	if err != nil || ts == nil {
		return nil, &restletErr{"SSS_MISSING_REQD_ARGUMENT", "Missing or invalid arguments: recordtype, recordid"}
	}
	s.mu.RLock()
	var attached []records.File
	for _, f := range s.files {
		if s.byKind[f.Kind] == ts && f.RecordID == id {
			attached = append(attached, f)
		}
	}
	s.mu.RUnlock()
	slices.SortFunc(attached, func(a, b records.File) int { return cmp.Compare(a.ID, b.ID) })
	list := []restletFile{}
	for _, f := range attached {
		rf := restletFile{ID: strconv.FormatInt(f.ID, 10), Name: f.Name,
			ContentType: f.ContentType, Size: int64(len(f.Content))}
		if !f.ModifiedAt.IsZero() {
			rf.Modified = f.ModifiedAt.UTC().Format("2006-01-02T15:04:05.000Z")
		}
		list = append(list, rf)
	}
	return map[string]any{"files": list}, nil
}

// savedSearchID is what the RESTlet takes as a saved search id.
var savedSearchID = regexp.MustCompile(`^customsearch[a-z0-9_]+$`)

func (s *Server) restletSearch(id string) (any, *restletErr) {
	if !savedSearchID.MatchString(id) {
		return nil, &restletErr{"SSS_MISSING_REQD_ARGUMENT", "Missing or invalid argument: id"}
	}
	s.mu.RLock()
	ss, ok := s.searches[id]
	s.mu.RUnlock()
	if !ok {
		return nil, &restletErr{"RCRD_DSNT_EXIST", "That saved search does not exist."}
	}
	if ss.Columns == nil {
		ss.Columns = []string{}
	}
	if ss.Rows == nil {
		ss.Rows = [][]string{}
	}
	if len(ss.Rows) > MaxSavedSearchRows {
		ss.Rows, ss.Truncated = ss.Rows[:MaxSavedSearchRows], true
	}
	return ss, nil
}
