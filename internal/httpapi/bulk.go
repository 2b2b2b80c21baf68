package httpapi

import (
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"time"

	"github.com/portico/portico/internal/portal"
	"github.com/portico/portico/internal/records"
)

// bulkBody is a bulk edit: the records, the field and its new value (null
// or absent clears it).
type bulkBody struct {
	IDs   []int64         `json:"ids"`
	Field string          `json:"field"`
	Value json.RawMessage `json:"value"`
}

// bulkEdit sets one field to one value on the selected records of ?type=
// (POST {product}-bulk), each through the record write path (validation,
// audit, the ERP outbox): 200 with one outcome per record, saved or not
// and why, so a partial failure loses nothing. Needs <route>.edit on a kind
// that can be edited. An Idempotency-Key makes a repeat write no record
// twice (records.BulkEdit).
func (s *Server) bulkEdit(w http.ResponseWriter, r *http.Request) {
	var body bulkBody
	k, key, ok := s.selectionWrite(w, r, records.ActEdit, &body)
	if !ok {
		return
	}
	sy, mode := s.writeMode(r)
	by := author(r)
	res, err := k.Bulk(r.Context(), s.recordStore(r), records.BulkEdit{IDs: body.IDs, Field: body.Field, Value: body.Value, IdempotencyKey: key},
		by, time.Now(), mode)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	logCauses(r, res.Results)
	if sy != nil && res.Saved > 0 {
		sy.Notify()
	}
	writeData(w, http.StatusOK, res)
}

// selectionWrite reads a write to a selection of records of ?type= (a
// bulk edit, a decision): the kind, which the caller's role must be
// allowed action on, the JSON body into body, and the Idempotency-Key. It
// answers the error itself and reports false when one of them is wrong.
func (s *Server) selectionWrite(w http.ResponseWriter, r *http.Request, action string, body any) (*records.Kind, string, bool) {
	k, err := s.kind(r, q(r, "type"))
	if err == nil {
		err = caller(r).Guard.Require(k, action)
	}
	if err == nil {
		err = decodeJSON(r, body)
	}
	var key string
	if err == nil {
		key, err = idempotencyKey(r)
	}
	if err != nil {
		s.writeError(w, r, err)
		return nil, "", false
	}
	return k, key, true
}

// logCauses puts on the request's log line the causes of the outcomes
// that failed for a reason not the user's to fix.
func logCauses(r *http.Request, outcomes []records.BulkOutcome) {
	var causes []error
	for _, o := range outcomes {
		if o.Err != nil {
			causes = append(causes, o.Err)
		}
	}
	if len(causes) > 0 {
		streamFailed(r, errors.Join(causes...))
	}
}

// bulkExport answers the selected records of ?type= (GET {product}-bulk
// with &ids=1,2,3) as CSV, in the order given, with the columns a list
// call with the same &list= and &columns= shows: the list's CSV export,
// narrowed to a selection (records.Kind.ExportSelection).
func (s *Server) bulkExport(w http.ResponseWriter, r *http.Request) {
	k, err := s.kind(r, q(r, "type"))
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	ids, err := parseIDs(q(r, "ids"))
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	cfg, err := s.resolveList(r, k, q(r, "list"))
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	cfg, cols, rows, err := k.ExportSelection(r.Context(), s.recordStore(r), cfg, q(r, "columns"), ids)
	if err != nil {
		s.writeError(w, r, err)
		return
	}
	s.writeRowsCSV(w, r, exportName(k, cfg, "selected"), cols, rows)
}

// parseIDs reads a comma-separated list of record ids.
func parseIDs(v string) ([]int64, error) {
	var ids []int64
	for part := range strings.SplitSeq(v, ",") {
		if part = strings.TrimSpace(part); part == "" {
			continue
		}
		id, ok := records.ParseID(part)
		if !ok {
			return nil, portal.Invalid("Record ids are positive numbers, separated by commas.",
				portal.FieldError{Field: "ids", Message: "Positive numbers, separated by commas."})
		}
		ids = append(ids, id)
	}
	return ids, nil
}
