package httpapi

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/portico/portico/internal/records"
)

// validFields is a complete, valid form for kind k, referencing record 1 of
// each referenced kind (the demo data has it).
func validFields(k *records.Kind, title string) map[string]any {
	out := map[string]any{}
	for _, f := range k.Fields {
		if f.ReadOnly {
			continue // the system's: a form never sends it
		}
		switch f.Type {
		case records.TypeRef:
			out[f.Name] = 1
		case records.TypeStatus:
			out[f.Name] = f.Choices[0]
		case records.TypeMoney, records.TypeQuantity:
			out[f.Name] = 1234.5
		case records.TypeDate:
			out[f.Name] = "2026-11-22"
		case records.TypePercent, records.TypeNumber:
			out[f.Name] = 42.5
		case records.TypeBoolean:
			out[f.Name] = true
		case records.TypeEmail:
			out[f.Name] = "office@example.com"
		case records.TypePhone:
			out[f.Name] = "+1 919 555 0100"
		case records.TypeURL:
			out[f.Name] = "https://example.com"
		default:
			out[f.Name] = title
		}
	}
	out[k.Fields[0].Name] = title
	return out
}

type viewAnswer struct {
	Data struct {
		ID      int64
		Title   string
		Version time.Time
		Write   records.WriteState
		Groups  []struct {
			Fields []struct {
				Name  string
				Value any
			}
		}
	}
}

func (e *authEnv) save(t *testing.T, tok string, role int64, method, target string, body any) (int, viewAnswer, Problem) {
	t.Helper()
	return e.saveWith(t, tok, role, method, target, body, nil)
}

// saveWith is save with more request headers.
func (e *authEnv) saveWith(t *testing.T, tok string, role int64, method, target string, body any, header http.Header) (int, viewAnswer, Problem) {
	t.Helper()
	b, _ := json.Marshal(body)
	w := e.callWith(method, target, tok, role, string(b), header)
	var v viewAnswer
	var p Problem
	if w.Code < 300 {
		json.Unmarshal(w.Body.Bytes(), &v)
	} else {
		json.Unmarshal(w.Body.Bytes(), &p)
	}
	return w.Code, v, p
}

func writableKinds() []*records.Kind {
	var out []*records.Kind
	for _, k := range records.All() {
		if k.CanCreate || k.CanEdit {
			out = append(out, k)
		}
	}
	return out
}

func TestCreateAndEditEveryWritableKind(t *testing.T) {
	e, tok := recordsEnv(t)
	crud := "/api/v1/netsuite/portal-crud?type="
	for _, k := range writableKinds() {
		t.Run(k.Route, func(t *testing.T) {
			id := int64(1)
			if k.CanCreate {
				code, v, p := e.save(t, tok, 10, "POST", crud+k.Name, map[string]any{"fields": validFields(k, "Created "+k.Label)})
				if code != 201 || v.Data.ID <= 30 || v.Data.Title != "Created "+k.Label || v.Data.Write.State != "" {
					t.Fatalf("create: %d %+v %+v", code, v.Data, p)
				}
				id = v.Data.ID
				// It is in its list and in search at once.
				var page listPage
				e.getJSON(t, tok, 10, "/api/v1/netsuite/portal-list?type="+k.Name+"&q="+strings.ReplaceAll("Created "+k.Label, " ", "+"), &page)
				if len(page.Data.Rows) != 1 {
					t.Fatalf("created record in its list: %+v", page.Data.Rows)
				}
				if _, found := e.search(t, tok, 10, "Created "+k.Label); len(found) == 0 || found[0].ID != id {
					t.Fatalf("created record in search: %+v", found)
				}
			} else if code, _, _ := e.save(t, tok, 10, "POST", crud+k.Name, map[string]any{"fields": validFields(k, "x")}); code != 403 {
				t.Fatalf("create of a kind without create: %d", code)
			}

			var before viewAnswer
			e.getJSON(t, tok, 10, fmt.Sprintf("/api/v1/netsuite/portal-record?type=%s&id=%d", k.Name, id), &before)
			edit := map[string]any{"fields": map[string]any{k.Fields[0].Name: "Edited " + k.Label}, "version": before.Data.Version}
			target := fmt.Sprintf("%s%s&id=%d", crud, k.Name, id)
			code, v, p := e.save(t, tok, 10, "PUT", target, edit)
			if code != 200 || v.Data.Title != "Edited "+k.Label || !v.Data.Version.After(before.Data.Version) {
				t.Fatalf("edit: %d %+v %+v", code, v.Data, p)
			}
			// The same edit again is based on a stale version: 409 with the current values.
			code, _, p = e.save(t, tok, 10, "PUT", target, map[string]any{"fields": map[string]any{k.Fields[0].Name: "Mine"}, "version": before.Data.Version})
			if code != 409 || p.Current[k.Fields[0].Name] != "Edited "+k.Label || !strings.Contains(p.Detail, "changed this record") {
				t.Fatalf("stale edit: %d %+v", code, p)
			}
			// The history tab shows the writes, newest first.
			var hist tabAnswerJSON
			e.getJSON(t, tok, 10, fmt.Sprintf("/api/v1/netsuite/portal-record?type=%s&id=%d&tab=history", k.Name, id), &hist)
			if len(hist.Data.Rows) == 0 || hist.Data.Rows[0]["action"] != "Edited" || hist.Data.Rows[0]["user"] != "Ada Admin" ||
				hist.Data.Rows[0]["role"] != "Project Manager" || !strings.Contains(hist.Data.Rows[0]["changes"].(string), "→ Edited "+k.Label) {
				t.Fatalf("history: %+v", hist.Data.Rows)
			}
		})
	}
}

type tabAnswerJSON struct {
	Data struct {
		Rows []map[string]any
	}
}

func TestSaveValidation(t *testing.T) {
	e, tok := recordsEnv(t)
	k, _ := records.Lookup("project")
	crud := "/api/v1/netsuite/portal-crud?type=customer"
	cust, _ := records.Lookup("customer")
	bad := func(field string, value any) map[string]any {
		f := validFields(cust, "Acme")
		f[field] = value
		return map[string]any{"fields": f}
	}
	for name, c := range map[string]struct {
		body  any
		field string
	}{
		"missing name":       {map[string]any{"fields": map[string]any{"entitystatus": "Active"}}, "companyname"},
		"blank name":         {bad("companyname", "   "), "companyname"},
		"long name":          {bad("companyname", strings.Repeat("x", 201)), "companyname"},
		"bad status":         {bad("entitystatus", "Frozen"), "entitystatus"},
		"money text":         {bad("balance", "lots"), "balance"},
		"three decimals":     {bad("balance", 1.234), "balance"},
		"negative money":     {bad("balance", -5), "balance"},
		"bad date":           {bad("datecreated", "2026-02-30"), "datecreated"},
		"unknown field":      {bad("hacker", "x"), "hacker"},
		"control characters": {bad("companyname", "a\x00b"), "companyname"},
		"not text":           {bad("companyname", 42), "companyname"},
	} {
		code, _, p := e.save(t, tok, 10, "POST", crud, c.body)
		if code != 422 || len(p.Errors) == 0 || !hasField(p, c.field) {
			t.Errorf("%s: %d %+v", name, code, p)
		}
	}
	// A reference to a record that does not exist.
	f := validFields(k, "Orphan")
	f["customer"] = 999999
	code, _, p := e.save(t, tok, 10, "PUT", "/api/v1/netsuite/portal-crud?type=project&id=1", map[string]any{"fields": f, "version": time.Now()})
	if code != 422 || !hasField(p, "customer") || !strings.Contains(p.Errors[0].Message, "No such client") {
		t.Errorf("dangling reference: %d %+v", code, p)
	}
	// Malformed requests are 400s.
	for _, c := range []struct{ method, target, body string }{
		{"POST", crud, `{"fields": `},
		{"POST", crud, `{"fields": {}, "extra": 1}`},
		{"PUT", "/api/v1/netsuite/portal-crud?type=customer", `{"fields": {}, "version": "2026-01-01T00:00:00Z"}`},
		{"PUT", "/api/v1/netsuite/portal-crud?type=customer&id=1", `{"fields": {}}`},
	} {
		if w := e.call(c.method, c.target, tok, 10, c.body); w.Code != 400 {
			t.Errorf("%s %s %s: %d", c.method, c.target, c.body, w.Code)
		}
	}
	// Nothing half-saved: the list still has the 30 demo clients.
	var page listPage
	e.getJSON(t, tok, 10, "/api/v1/netsuite/portal-list?type=customer&count=true", &page)
	if *page.Data.Total != 30 {
		t.Errorf("clients after refused saves: %d", *page.Data.Total)
	}
}

func hasField(p Problem, field string) bool {
	for _, f := range p.Errors {
		if f.Field == field {
			return true
		}
	}
	return false
}

func TestSavePermissions(t *testing.T) {
	e, _ := recordsEnv(t)
	vic, _ := e.login(t, "acme", "uid-vic", "vic@acme.test")
	cust, _ := records.Lookup("customer")
	// The viewer sees clients but may not create or edit them, here or in /kinds.
	if code, _, _ := e.save(t, vic.Data.Token, 14, "POST", "/api/v1/netsuite/portal-crud?type=customer", map[string]any{"fields": validFields(cust, "X")}); code != 403 {
		t.Errorf("viewer create: %d", code)
	}
	if code, _, _ := e.save(t, vic.Data.Token, 14, "PUT", "/api/v1/projectRequests?id=1", map[string]any{"fields": map[string]any{}, "version": time.Now()}); code != 403 {
		t.Errorf("viewer edit: %d", code)
	}
	var kinds struct{ Data []records.Kind }
	e.getJSON(t, vic.Data.Token, 14, "/api/v1/kinds", &kinds)
	for _, k := range kinds.Data {
		if k.CanCreate || k.CanEdit {
			t.Errorf("viewer's /kinds offers writes of %s", k.Name)
		}
	}
}
