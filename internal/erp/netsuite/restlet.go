package netsuite

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"path"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/portico/portico/internal/erp"
	"github.com/portico/portico/internal/portal"
	"github.com/portico/portico/internal/records"
)

// The portal's RESTlet (restlet/portico_restlet.js) answers GET (arguments
// in the query, so TBA signs them) and POST (arguments in a JSON body) at
//
//	<RESTlet base>/app/site/hosting/restlet.nl?script=<script id>&deploy=<deploy id>
//
// with these actions:
//
//	action=file&id=N                     → {"id","name","contentType","size","contentBase64"}
//	action=files&recordtype=T&recordid=N → {"files": [{"id","name","contentType","size","modified"}, ...]}
//	action=savedsearch&id=customsearch_… → {"columns": [...], "rows": [[...], ...], "truncated": true}
//
// and, with POST only, the additions the portal's users make:
//
//	action=addnote: recordtype, recordid, link, title, note, externalid → {"id"}
//	action=addfile: recordtype, recordid, name, filetype, contentBase64, key → {"id"}
//
// Ids are strings, size is the file's length in bytes, modified an ISO
// 8601 UTC time (absent when unknown), every saved search value a display
// string ("" for none), truncated present only when the rows stop at
// MaxSavedSearchRows. Failures answer 400 {"error": {"code", "message"}}:
// RCRD_DSNT_EXIST (no such file or search), SSS_MISSING_REQD_ARGUMENT,
// INVALID_ACTION, SSS_INVALID_SCRIPTLET_ID (wrong script or deploy id),
// SSS_REQUEST_LIMIT_EXCEEDED (throttled; retried).

// RESTletPath is the path of every RESTlet under the RESTlet base URL.
const RESTletPath = "/app/site/hosting/restlet.nl"

// MaxSavedSearchRows is the most rows the RESTlet returns for one saved
// search; a longer result comes back cut, with Truncated set.
const MaxSavedSearchRows = 10_000

// ErrNoRESTlet is returned by the RESTlet calls when Config.RESTletScript
// or Config.RESTletDeploy is empty.
// It is a portal error (unavailable): a user opening a record's files
// sees what an administrator has to do.
var ErrNoRESTlet error = portal.Errorf(portal.CodeUnavailable, "Files and saved searches need the portal's RESTlet in NetSuite: "+
	"an administrator deploys restlet/portico_restlet.js and sets its script and deploy ids "+
	"(PORTICO_NETSUITE_RESTLET_SCRIPT, PORTICO_NETSUITE_RESTLET_DEPLOY).")

// SavedSearchResult is a saved search's result as the RESTlet returns it:
// the column labels, one row of display values per result (each row as
// long as Columns), and whether the rows stop at MaxSavedSearchRows.
type SavedSearchResult struct {
	Columns   []string   `json:"columns"`
	Rows      [][]string `json:"rows"`
	Truncated bool       `json:"truncated,omitempty"`
}

// savedSearchID is a saved search's script id, as SavedSearch takes it.
var savedSearchID = regexp.MustCompile(`^customsearch[a-z0-9_]+$`)

// restletBase returns the RESTlets' base URL for cfg: RESTletURL, else
// BaseURL when it overrides the account's REST URL, else the account's
// RESTlet domain.
func restletBase(cfg Config) (string, error) {
	base := cfg.RESTletURL
	switch {
	case base != "":
	case cfg.BaseURL != "":
		base = cfg.BaseURL
	default:
		base = "https://" + AccountHost(cfg.Account) + ".restlets.api.netsuite.com"
	}
	u, err := url.Parse(base)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" || u.RawQuery != "" {
		return "", fmt.Errorf("netsuite: RESTlet URL %q is not an http(s) base URL", base)
	}
	return strings.TrimRight(base, "/"), nil
}

// restletFile is the RESTlet's description of a file.
type restletFile struct {
	ID            string `json:"id"`
	Name          string `json:"name"`
	ContentType   string `json:"contentType"`
	Size          int64  `json:"size"`
	Modified      string `json:"modified"`
	ContentBase64 string `json:"contentBase64"`
}

// file turns a RESTlet file description into a records.File (no content).
func (f restletFile) file() (records.File, error) {
	id, err := strconv.ParseInt(f.ID, 10, 64)
	if err != nil || id <= 0 || f.Size < 0 {
		return records.File{}, &erp.Error{Detail: fmt.Sprintf("RESTlet answered a file with id %q and size %d", f.ID, f.Size)}
	}
	out := records.File{ID: id, Name: f.Name, ContentType: f.ContentType, Size: f.Size}
	if out.ContentType == "" {
		out.ContentType = "application/octet-stream"
	}
	if f.Modified != "" {
		if t, err := time.Parse(time.RFC3339, f.Modified); err == nil {
			out.ModifiedAt = t.UTC()
		}
	}
	return out, nil
}

// callRESTlet runs one RESTlet action with GET (its arguments in the
// query, where TBA signs them) and decodes the answer into out. A
// RESTlet's SSS_REQUEST_LIMIT_EXCEEDED (400) is throttling, retried by do.
func (c *Client) callRESTlet(ctx context.Context, args url.Values, out any) error {
	if c.cfg.RESTletScript == "" || c.cfg.RESTletDeploy == "" {
		return ErrNoRESTlet
	}
	args.Set("script", c.cfg.RESTletScript)
	args.Set("deploy", c.cfg.RESTletDeploy)
	resp, err := c.do(ctx, request{method: http.MethodGet, base: c.restlet, path: RESTletPath + "?" + args.Encode(),
		// Without a JSON content type a RESTlet answers (and fails) in
		// plain text.
		header: http.Header{"Content-Type": {"application/json"}}})
	if err != nil {
		if e, ok := errors.AsType[*erp.Error](err); ok && e.Code == "SSS_INVALID_SCRIPTLET_ID" {
			e.Detail = fmt.Sprintf("the RESTlet %s/%s is not deployed or not released to the integration's role (%s)",
				c.cfg.RESTletScript, c.cfg.RESTletDeploy, e.Detail)
		}
		return err
	}
	if err := json.Unmarshal(resp.body, out); err != nil {
		return &erp.Error{Status: resp.status, Detail: "unreadable RESTlet answer", Err: err}
	}
	return nil
}

// postRESTlet runs one RESTlet action with POST, its arguments in a JSON
// body (the actions that change data), and decodes the answer into out.
// NetSuite answers a RESTlet's POST in the script's own time, so a retry
// after a lost answer repeats the action: the actions are idempotent by
// their keys. Without the RESTlet's ids it fails for good
// (ErrNoRESTlet's words), as retrying cannot help.
func (c *Client) postRESTlet(ctx context.Context, args map[string]string, out any) error {
	if c.cfg.RESTletScript == "" || c.cfg.RESTletDeploy == "" {
		return &erp.Error{Permanent: true, Detail: ErrNoRESTlet.Error(), Err: ErrNoRESTlet}
	}
	q := url.Values{"script": {c.cfg.RESTletScript}, "deploy": {c.cfg.RESTletDeploy}}
	resp, err := c.do(ctx, request{method: http.MethodPost, base: c.restlet, path: RESTletPath + "?" + q.Encode(), body: args,
		header: http.Header{"Content-Type": {"application/json"}}})
	if err != nil {
		return err // a RESTlet's refusal (400) is permanent, its throttling retried
	}
	if err := json.Unmarshal(resp.body, out); err != nil {
		return &erp.Error{Status: resp.status, Detail: "unreadable RESTlet answer", Err: err}
	}
	return nil
}

var _ erp.Attachments = (*Client)(nil)

// addedID reads the {"id"} a RESTlet addition answers.
func addedID(what string, raw string) (int64, error) {
	id, err := strconv.ParseInt(raw, 10, 64)
	if err != nil || id <= 0 {
		return 0, &erp.Error{Detail: fmt.Sprintf("the RESTlet answered %s id %q", what, raw)}
	}
	return id, nil
}

// link is how a note names its record, by the record's family: entity,
// transaction, or (a custom record) record with its record type.
func (c *Client) link(k *records.Kind) string {
	km := c.m.Kind(k)
	switch {
	case strings.HasPrefix(strings.ToLower(km.RecordType), "customrecord"):
		return "record"
	case km.Table == "transaction":
		return "transaction"
	}
	return "entity"
}

// noteTitle is the title a portal user's note has in NetSuite: who wrote
// it, since NetSuite makes the integration's user its author.
func noteTitle(author string) string {
	if author == "" {
		return "Note from Portico"
	}
	return author + " (Portico)"
}

// AddNote implements erp.Attachments through the RESTlet's addnote: a
// user note on record recordID of kind k, with external id
// portico-<key>, so a retry answers the note the first attempt made.
func (c *Client) AddNote(ctx context.Context, k *records.Kind, recordID int64, n erp.Note) (int64, error) {
	var out struct {
		ID string `json:"id"`
	}
	err := c.postRESTlet(ctx, map[string]string{"action": "addnote", "recordtype": c.m.Kind(k).RecordType,
		"recordid": strconv.FormatInt(recordID, 10), "link": c.link(k), "title": noteTitle(n.Author), "note": n.Text,
		"externalid": externalIDPrefix + n.Key}, &out)
	if err != nil {
		return 0, err
	}
	return addedID("note", out.ID)
}

// uploadTypes are the file.Type values of the files users may attach, by
// extension (N/file's file.Type enum; the RESTlet's UPLOAD_TYPES).
var uploadTypes = map[string]string{
	"pdf": "PDF", "png": "PNGIMAGE", "jpg": "JPGIMAGE", "jpeg": "JPGIMAGE", "gif": "GIFIMAGE",
	"txt": "PLAINTEXT", "csv": "CSV", "docx": "WORD", "xlsx": "EXCEL", "pptx": "POWERPOINT",
}

// AddFile implements erp.Attachments through the RESTlet's addfile: f
// saved in the File Cabinet's upload folder and attached to record
// recordID of kind k. Its description portico-<key> makes a retry attach
// the file the first attempt saved.
func (c *Client) AddFile(ctx context.Context, k *records.Kind, recordID int64, f records.File, key string) (int64, error) {
	ext := strings.ToLower(strings.TrimPrefix(path.Ext(f.Name), "."))
	fileType, ok := uploadTypes[ext]
	if !ok {
		return 0, &erp.Error{Permanent: true, Detail: fmt.Sprintf("NetSuite takes no file of type .%s here", ext)}
	}
	var out struct {
		ID string `json:"id"`
	}
	err := c.postRESTlet(ctx, map[string]string{"action": "addfile", "recordtype": c.m.Kind(k).RecordType,
		"recordid": strconv.FormatInt(recordID, 10), "name": f.Name, "filetype": fileType,
		"contentBase64": base64.StdEncoding.EncodeToString(f.Content), "key": externalIDPrefix + key}, &out)
	if err != nil {
		return 0, err
	}
	return addedID("file", out.ID)
}

// File reads a file from NetSuite's File Cabinet through the RESTlet: its
// name, MIME type, size and content (Kind and RecordID are left zero). It
// returns a not-found portal error when NetSuite has no file id, and an
// *erp.Error when the content does not decode to the announced size.
func (c *Client) File(ctx context.Context, id int64) (records.File, error) {
	if id <= 0 {
		return records.File{}, portal.Errorf(portal.CodeNotFound, "NetSuite has no file %d.", id)
	}
	var w restletFile
	if err := c.callRESTlet(ctx, url.Values{"action": {"file"}, "id": {strconv.FormatInt(id, 10)}}, &w); err != nil {
		if e, ok := errors.AsType[*erp.Error](err); ok && e.Code == "RCRD_DSNT_EXIST" {
			return records.File{}, portal.Errorf(portal.CodeNotFound, "NetSuite has no file %d.", id)
		}
		return records.File{}, err
	}
	f, err := w.file()
	if err != nil {
		return records.File{}, err
	}
	if f.ID != id {
		return records.File{}, &erp.Error{Detail: fmt.Sprintf("asked for file %d, the RESTlet answered file %d", id, f.ID)}
	}
	// Base64 from Java may be broken into lines.
	raw := strings.NewReplacer("\r", "", "\n", "").Replace(w.ContentBase64)
	content, err := base64.StdEncoding.DecodeString(raw)
	if err != nil {
		return records.File{}, &erp.Error{Detail: fmt.Sprintf("file %d: content is not base64", id), Err: err}
	}
	if int64(len(content)) != f.Size {
		return records.File{}, &erp.Error{Detail: fmt.Sprintf("file %d: %d bytes of content, %d announced", id, len(content), f.Size)}
	}
	f.Content = content
	return f, nil
}

// RecordFiles lists the files attached to record recordID of kind k, in
// the RESTlet's order (by file id), without their content: ID, Kind,
// RecordID, Name, ContentType, Size and, when NetSuite gives it,
// ModifiedAt. A record with no files (or none at all) has an empty list.
func (c *Client) RecordFiles(ctx context.Context, k *records.Kind, recordID int64) ([]records.File, error) {
	if k == nil {
		return nil, errors.New("netsuite: RecordFiles: no kind")
	}
	if recordID <= 0 {
		return nil, portal.Errorf(portal.CodeNotFound, "NetSuite has no %s %d.", strings.ToLower(k.Label), recordID)
	}
	var w struct {
		Files []restletFile `json:"files"`
	}
	args := url.Values{"action": {"files"}, "recordtype": {c.m.Kind(k).RecordType},
		"recordid": {strconv.FormatInt(recordID, 10)}}
	if err := c.callRESTlet(ctx, args, &w); err != nil {
		return nil, err
	}
	out := make([]records.File, 0, len(w.Files))
	for _, rf := range w.Files {
		f, err := rf.file()
		if err != nil {
			return nil, err
		}
		f.Kind, f.RecordID = k.Name, recordID
		out = append(out, f)
	}
	return out, nil
}

// SavedSearch runs a saved search through the RESTlet and returns its
// columns and rows (at most MaxSavedSearchRows). id is the search's script
// id, customsearch followed by lower-case letters, digits and
// underscores; anything else is refused before a request is made. It
// returns a not-found portal error when NetSuite has no such search.
func (c *Client) SavedSearch(ctx context.Context, id string) (SavedSearchResult, error) {
	if !savedSearchID.MatchString(id) {
		return SavedSearchResult{}, portal.Errorf(portal.CodeInvalid, "%q is not a saved search id (customsearch…).", id)
	}
	var res SavedSearchResult
	if err := c.callRESTlet(ctx, url.Values{"action": {"savedsearch"}, "id": {id}}, &res); err != nil {
		if e, ok := errors.AsType[*erp.Error](err); ok && e.Code == "RCRD_DSNT_EXIST" {
			return SavedSearchResult{}, portal.Errorf(portal.CodeNotFound, "NetSuite has no saved search %s.", id)
		}
		return SavedSearchResult{}, err
	}
	if res.Columns == nil {
		res.Columns = []string{}
	}
	if res.Rows == nil {
		res.Rows = [][]string{}
	}
	for i, row := range res.Rows {
		if len(row) != len(res.Columns) {
			return SavedSearchResult{}, &erp.Error{Detail: fmt.Sprintf("saved search %s: row %d has %d values for %d columns",
				id, i+1, len(row), len(res.Columns))}
		}
	}
	return res, nil
}
