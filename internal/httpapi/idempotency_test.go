package httpapi

import (
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/portico/portico/internal/records"
)

func TestCreateWithIdempotencyKey(t *testing.T) {
	e, tok := recordsEnv(t)
	cust, _ := records.Lookup("customer")
	post := func(key string, title string) (int, viewAnswer, Problem) {
		var h http.Header
		if key != "" {
			h = http.Header{"Idempotency-Key": {key}}
		}
		return e.saveWith(t, tok, 10, "POST", "/api/v1/netsuite/portal-crud?type=customer", map[string]any{"fields": validFields(cust, title)}, h)
	}
	code, first, p := post(`"4f1c9a7e-0b7d-4c1e-9d55-2c5b1c3e7a10"`, "Keyed client")
	if code != 201 {
		t.Fatalf("create: %d %+v", code, p)
	}
	// Sent again (a retry after a lost answer), quoted or bare: the same record.
	for _, key := range []string{`"4f1c9a7e-0b7d-4c1e-9d55-2c5b1c3e7a10"`, `4f1c9a7e-0b7d-4c1e-9d55-2c5b1c3e7a10`} {
		if code, again, p := post(key, "Keyed client"); code != 201 || again.Data.ID != first.Data.ID {
			t.Fatalf("repeat: %d %d (first %d) %+v", code, again.Data.ID, first.Data.ID, p)
		}
	}
	var page listPage
	e.getJSON(t, tok, 10, "/api/v1/netsuite/portal-list?type=customer&q=Keyed+client", &page)
	if len(page.Data.Rows) != 1 {
		t.Fatalf("%d records for one key", len(page.Data.Rows))
	}
	// The key with another request: refused, nothing stored.
	if code, _, p := post("4f1c9a7e-0b7d-4c1e-9d55-2c5b1c3e7a10", "Another client"); code != 422 || !strings.Contains(p.Detail, "Idempotency-Key") {
		t.Fatalf("reused key: %d %+v", code, p)
	}
	// A malformed key is a 400 naming the header; no key is a plain create.
	for _, bad := range []string{strings.Repeat("k", 256), "a b", `"x\"y"`} {
		if code, _, p := post(bad, "Bad key"); code != 400 || len(p.Errors) != 1 || p.Errors[0].Field != "Idempotency-Key" {
			t.Fatalf("key %q: %d %+v", bad, code, p)
		}
	}
	a, _, _ := post("", "Unkeyed")
	b, _, _ := post("", "Unkeyed")
	e.getJSON(t, tok, 10, "/api/v1/netsuite/portal-list?type=customer&q=Unkeyed", &page)
	if a != 201 || b != 201 || len(page.Data.Rows) != 2 {
		t.Fatalf("unkeyed creates: %d %d, %d stored", a, b, len(page.Data.Rows))
	}
}

// An edit sent again with its Idempotency-Key (a device that never got
// the answer) lands once: the repeat answers the record, also after
// someone else changed it since, where a plain repeat would be a conflict.
func TestEditWithIdempotencyKey(t *testing.T) {
	e, tok := recordsEnv(t)
	cust, _ := records.Lookup("customer")
	code, made, p := e.save(t, tok, 10, "POST", "/api/v1/netsuite/portal-crud?type=customer", map[string]any{"fields": validFields(cust, "Edited offline")})
	if code != 201 {
		t.Fatalf("create: %d %+v", code, p)
	}
	target := "/api/v1/netsuite/portal-crud?type=customer&id=" + strconv.FormatInt(made.Data.ID, 10)
	title := cust.Fields[0].Name
	keyed := map[string]any{"fields": map[string]any{title: "Edited on site"}, "version": made.Data.Version}
	put := func(body map[string]any, key string) (int, viewAnswer, Problem) {
		var h http.Header
		if key != "" {
			h = http.Header{"Idempotency-Key": {key}}
		}
		return e.saveWith(t, tok, 10, "PUT", target, body, h)
	}
	code, first, p := put(keyed, "edit-1")
	if code != 200 || first.Data.Title != "Edited on site" {
		t.Fatalf("edit: %d %+v", code, p)
	}
	if code, again, p := put(keyed, "edit-1"); code != 200 || !again.Data.Version.Equal(first.Data.Version) {
		t.Fatalf("repeat: %d %+v", code, p)
	}
	// Someone else edits the same field; the device's repeat is still
	// not a conflict and writes nothing: the other edit stands.
	if code, _, p := put(map[string]any{"fields": map[string]any{title: "Edited at the office"}, "version": first.Data.Version}, ""); code != 200 {
		t.Fatalf("other edit: %d %+v", code, p)
	}
	if code, again, p := put(keyed, "edit-1"); code != 200 || again.Data.Title != "Edited at the office" {
		t.Fatalf("repeat after another edit: %d %q %+v", code, again.Data.Title, p)
	}
	// Without the key, the same stale edit is a conflict; with the key
	// and other fields, the key is refused.
	if code, _, _ := put(keyed, ""); code != 409 {
		t.Fatalf("unkeyed stale edit: %d, want 409", code)
	}
	other := map[string]any{"fields": map[string]any{title: "Something else"}, "version": made.Data.Version}
	if code, _, p := put(other, "edit-1"); code != 422 || !strings.Contains(p.Detail, "Idempotency-Key") {
		t.Fatalf("reused key: %d %+v", code, p)
	}
}
