package netsuitetest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
)

// serveSubsidiary answers GET /record/v1/subsidiary/{id} and its
// mainAddress subrecord, GET /record/v1/subsidiary/{id}/mainAddress
// (account.yaml's [16], [17]): the record's body fields (name, legalName,
// parent, currency, isInactive, federalIdNumber) with the subrecord as a
// link, or inline with expandSubResources=true. An account without
// subsidiaries has no such record type: the caller answers it as any
// type the account lacks.
func (s *Server) serveSubsidiary(w http.ResponseWriter, r *http.Request, rest string) {
	idPart, sub, hasSub := strings.Cut(rest, "/")
	id, err := strconv.ParseInt(idPart, 10, 64)
	var found *Subsidiary
	for i := range s.schema.Subsidiaries {
		if err == nil && s.schema.Subsidiaries[i].ID == id {
			found = &s.schema.Subsidiaries[i]
		}
	}
	if found == nil || (hasSub && !strings.EqualFold(sub, "mainAddress")) {
		writeError(w, newAPIError(http.StatusNotFound, "NONEXISTENT_ID",
			fmt.Sprintf("The record instance does not exist. Provide a valid record instance ID (subsidiary %s).", rest)))
		return
	}
	self := baseURL(r) + RecordPath + TableSubsidiary + "/" + idPart
	address := func() map[string]any {
		m := map[string]any{"links": []link{{"self", self + "/mainAddress"}}}
		if found.MainAddress != nil {
			b, _ := json.Marshal(found.MainAddress)
			_ = json.Unmarshal(b, &m)
		}
		return m
	}
	var doc map[string]any
	if hasSub {
		doc = address()
	} else {
		doc = map[string]any{"links": []link{{"self", self}}, "id": idPart, "name": found.Name, "isInactive": found.Inactive}
		ref := func(table string, id int64) map[string]any {
			key := strconv.FormatInt(id, 10)
			name, _ := s.selectName(table, key)
			return map[string]any{"links": []link{{"self", baseURL(r) + RecordPath + table + "/" + key}}, "id": key, "refName": name}
		}
		doc["currency"] = ref(TableCurrency, found.Currency)
		if found.Parent != 0 {
			doc["parent"] = ref(TableSubsidiary, found.Parent)
		}
		if found.LegalName != "" {
			doc["legalName"] = found.LegalName
		}
		if found.FederalIDNumber != "" {
			doc["federalIdNumber"] = found.FederalIDNumber
		}
		if expand, _ := strconv.ParseBool(r.URL.Query().Get("expandSubResources")); expand {
			doc["mainAddress"] = address()
		} else {
			doc["mainAddress"] = map[string]any{"links": []link{{"self", self + "/mainAddress"}}}
		}
	}
	body, err := json.Marshal(doc)
	if err != nil {
		writeError(w, newAPIError(http.StatusInternalServerError, "UNEXPECTED_ERROR", err.Error()))
		return
	}
	writeJSON(w, body)
}
