package httpapi

import (
	"testing"

	"github.com/portico/portico/internal/records"
)

// The dashboard answers each role the parts it may see, for the caller
// only: a role without invoices has no aging; one without projects no
// "mine".
func TestDashboardByRole(t *testing.T) {
	e, tok := recordsEnv(t)
	var d struct{ Data records.Dashboard }
	if code := e.getJSON(t, tok, 10, "/api/v1/dashboard", &d); code != 200 {
		t.Fatalf("dashboard: %d", code)
	}
	if len(d.Data.Aging) != 2 || d.Data.Credits == nil || d.Data.Credits.Count != 30 || d.Data.AsOf == "" {
		t.Errorf("every permission: %+v", d.Data)
	}
	// The accountant may see invoices only.
	d.Data = records.Dashboard{}
	if code := e.getJSON(t, tok, 11, "/api/v1/dashboard", &d); code != 200 {
		t.Fatalf("accountant: %d", code)
	}
	if len(d.Data.Aging) != 1 || d.Data.Aging[0].Kind != "invoice" || d.Data.Credits != nil || len(d.Data.Mine) != 0 || d.Data.Projects != nil {
		t.Errorf("accountant: %+v", d.Data)
	}
	if w := e.call("GET", "/api/v1/dashboard", "", 0, ""); w.Code != 511 {
		t.Errorf("without a session: %d", w.Code)
	}
}
