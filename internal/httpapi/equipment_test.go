package httpapi

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/portico/portico/internal/equipment"
)

type costDetails struct {
	Data struct {
		Rows      []map[string]any
		Equipment *struct {
			Columns []struct{ Name, Type string }
			Rows    []map[string]any
			Error   string
		}
	}
}

// costDetailsOf answers the cost-details tab of the first demo project
// that has vendor bills, and that project's id.
func costDetailsOf(t *testing.T, e *authEnv, tok string) (costDetails, *httptest.ResponseRecorder, int) {
	t.Helper()
	for id := 1; id <= 30; id++ {
		w := e.call("GET", fmt.Sprintf("/api/v1/netsuite/portal-record?type=project&id=%d&tab=costdetails", id), tok, 10, "")
		var a costDetails
		if w.Code != 200 || json.Unmarshal(w.Body.Bytes(), &a) != nil {
			t.Fatalf("costdetails of project %d: %d %s", id, w.Code, w.Body)
		}
		if len(a.Data.Rows) > 0 {
			return a, w, id
		}
	}
	t.Fatal("no demo project has vendor bills")
	return costDetails{}, nil, 0
}

// equipmentService starts a fake equipment-charge service answering
// status and body, and points e's server at it.
func equipmentService(t *testing.T, e *authEnv, status int, body string) *[]string {
	t.Helper()
	var asked []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !strings.HasPrefix(r.Header.Get("Authorization"), "Bearer ") {
			t.Errorf("unsigned call %s", r.URL)
		}
		asked = append(asked, r.URL.Query().Get("projectId"))
		w.WriteHeader(status)
		w.Write([]byte(body))
	}))
	t.Cleanup(srv.Close)
	e.srv.equipment = equipment.New(srv.URL, []byte(strings.Repeat("s", 32)))
	return &asked
}

func TestCostDetailsWithEquipmentCharges(t *testing.T) {
	e, tok := recordsEnv(t)
	asked := equipmentService(t, e, 200, `{"data": [{"id": 9, "date": "2026-03-07", "equipment": "Excavator 320", "hours": 6.5, "rate": 120, "amount": 780, "description": "Trenching"}]}`)
	a, _, id := costDetailsOf(t, e, tok)
	eq := a.Data.Equipment
	if eq == nil || eq.Error != "" || len(eq.Columns) != 6 || len(eq.Rows) != 1 {
		t.Fatalf("equipment section: %+v", eq)
	}
	if row := eq.Rows[0]; row["id"] != 9.0 || row["date"] != "2026-03-07" || row["equipment"] != "Excavator 320" ||
		row["hours"] != 6.5 || row["rate"] != 120.0 || row["amount"] != 780.0 || row["description"] != "Trenching" {
		t.Errorf("charge row %v", row)
	}
	if last := (*asked)[len(*asked)-1]; last != fmt.Sprint(id) {
		t.Errorf("asked for project %s, want %d", last, id)
	}
	// Only the project's cost details carry the section.
	w := e.call("GET", fmt.Sprintf("/api/v1/netsuite/portal-record?type=project&id=%d&tab=billing", id), tok, 10, "")
	if w.Code != 200 || strings.Contains(w.Body.String(), `"equipment"`) {
		t.Errorf("billing tab: %d %s", w.Code, w.Body)
	}
}

func TestCostDetailsWhenTheEquipmentServiceFails(t *testing.T) {
	e, tok := recordsEnv(t)
	equipmentService(t, e, 500, `{"message": "db-host-7 is down"}`)
	a, w, _ := costDetailsOf(t, e, tok)
	eq := a.Data.Equipment
	if eq == nil || eq.Error != "The equipment-charge service is unavailable right now." || eq.Rows == nil || len(eq.Rows) != 0 {
		t.Fatalf("equipment section: %+v", eq)
	}
	if strings.Contains(w.Body.String(), "500") || strings.Contains(w.Body.String(), "db-host") {
		t.Errorf("the cause reached the answer: %s", w.Body)
	}
	id := w.Header().Get("X-Request-Id")
	logs := e.logs.String()
	if !strings.Contains(logs, `msg="equipment charges failed" request_id=`+id) || !strings.Contains(logs, "500 Internal Server Error") {
		t.Errorf("failure not logged with request id %s: %s", id, logs)
	}
}

func TestCostDetailsWithoutEquipmentService(t *testing.T) {
	e, tok := recordsEnv(t)
	_, w, _ := costDetailsOf(t, e, tok)
	if strings.Contains(w.Body.String(), `"equipment"`) {
		t.Errorf("equipment section without a service: %s", w.Body)
	}
}
