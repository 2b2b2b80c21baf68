package httpapi

import (
	"net/http"
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
