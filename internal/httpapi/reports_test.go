package httpapi

import (
	"encoding/json"
	"math"
	"net/url"
	"strings"
	"testing"

	"github.com/portico/portico/internal/access"
	"github.com/portico/portico/internal/records"
)

type reportRun struct {
	Data struct {
		Grouped bool
		Columns []records.ColumnInfo
		Rows    []map[string]any
		HasMore bool
		Total   int64
	}
}

func (e *authEnv) postJSON(t *testing.T, tok string, role int64, method, target string, body any) (int, []byte) {
	t.Helper()
	b, _ := json.Marshal(body)
	w := e.call(method, target, tok, role, string(b))
	return w.Code, w.Body.Bytes()
}

func TestReportsGroupAndAggregateOverEveryRecord(t *testing.T) {
	e, tok := recordsEnv(t)
	def := map[string]any{
		"name": "Projects by status", "columns": []string{"companyname", "projectedtotal"}, "filter": "", "visibility": "role",
		"report": map[string]any{"groupBy": "entitystatus", "chart": "bar",
			"aggregates": []map[string]any{{"fn": "count"}, {"fn": "sum", "field": "projectedtotal"}, {"fn": "max", "field": "projectedtotal"}}},
	}
	code, body := e.postJSON(t, tok, 10, "POST", "/api/v1/reports?type=project", def)
	if code != 201 {
		t.Fatalf("save: %d %s", code, body)
	}
	var saved struct{ Data records.ListConfig }
	json.Unmarshal(body, &saved)

	// The expected figures, computed here from every project (paged).
	count, sum, max := map[string]float64{}, map[string]float64{}, map[string]float64{}
	var page listPage
	e.getJSON(t, tok, 10, "/api/v1/netsuite/portal-list?type=project&pageSize=500", &page)
	for _, r := range page.Data.Rows {
		st := r["entitystatus"].(string)
		v, _ := r["projectedtotal"].(float64)
		count[st]++
		sum[st] += v
		max[st] = math.Max(max[st], v)
	}
	var run reportRun
	if code := e.getJSON(t, tok, 10, "/api/v1/reports/run?id="+saved.Data.ID, &run); code != 200 {
		t.Fatalf("run: %d", code)
	}
	if !run.Data.Grouped || len(run.Data.Rows) != len(count) || run.Data.Columns[1].Label != "Count" || run.Data.Columns[2].Label != "Sum of Contract value" {
		t.Fatalf("run: %+v", run.Data)
	}
	for _, row := range run.Data.Rows {
		k := row["key"].(string)
		if row["v0"].(float64) != count[k] || math.Abs(row["v1"].(float64)-sum[k]) > 0.005 || row["v2"].(float64) != max[k] {
			t.Errorf("%s: %v, want count %v sum %v max %v", k, row, count[k], sum[k], max[k])
		}
	}
	// The CSV has a line per group.
	w := e.call("GET", "/api/v1/reports/run?format=csv&id="+saved.Data.ID, tok, 10, "")
	if w.Code != 200 || strings.Count(w.Body.String(), "\n") != len(count)+1 || !strings.HasPrefix(w.Body.String(), "\ufeffStatus,Count,Sum of Contract value") {
		t.Fatalf("csv: %d %q", w.Code, w.Body)
	}
	// It is listed for the role, not for another role.
	var mine struct{ Data []records.ListConfig }
	e.getJSON(t, tok, 10, "/api/v1/reports", &mine)
	if len(mine.Data) != 1 || mine.Data[0].Report == nil || !mine.Data[0].Editable {
		t.Fatalf("reports: %+v", mine.Data)
	}
	// It is not a saved list of projects.
	var lists struct{ Data listsAnswer }
	e.getJSON(t, tok, 10, "/api/v1/netsuite/listConfiguration?type=project", &lists)
	if len(lists.Data.Lists) != 1 {
		t.Fatalf("a report shows among saved lists: %+v", lists.Data.Lists)
	}
	// Audited.
	events, _ := e.store.Tenant("acme").AuditEvents(t.Context(), access.AuditFilter{Limit: 5})
	if events[0].Event != "report_save" || events[0].RoleID != 10 {
		t.Fatalf("audit: %+v", events[0])
	}
}

func TestReportPreviewRowsAndValidation(t *testing.T) {
	e, tok := recordsEnv(t)
	table := map[string]any{"name": "Active", "columns": []string{"companyname"}, "filter": "entitystatus eq Active", "visibility": "private",
		"report": map[string]any{"chart": "table"}}
	code, body := e.postJSON(t, tok, 10, "POST", "/api/v1/reports/run?type=project", table)
	var run reportRun
	json.Unmarshal(body, &run)
	var page listPage
	e.getJSON(t, tok, 10, "/api/v1/netsuite/portal-list?type=project&count=true&filter="+url.QueryEscape("entitystatus eq Active"), &page)
	if code != 200 || run.Data.Grouped || run.Data.Total != *page.Data.Total || len(run.Data.Rows) != int(*page.Data.Total) {
		t.Fatalf("preview: %d %+v (list total %d)", code, run.Data, *page.Data.Total)
	}
	for name, c := range map[string]struct {
		report map[string]any
		field  string
	}{
		"chart without groups": {map[string]any{"chart": "pie"}, "report.chart"},
		"unknown chart":        {map[string]any{"chart": "radar", "groupBy": "entitystatus", "aggregates": []any{map[string]any{"fn": "count"}}}, "report.chart"},
		"sum of text":          {map[string]any{"chart": "bar", "groupBy": "entitystatus", "aggregates": []any{map[string]any{"fn": "sum", "field": "companyname"}}}, "report.aggregates[0]"},
		"unknown aggregate":    {map[string]any{"chart": "bar", "groupBy": "entitystatus", "aggregates": []any{map[string]any{"fn": "median"}}}, "report.aggregates[0]"},
		"group by money":       {map[string]any{"chart": "bar", "groupBy": "projectedtotal", "aggregates": []any{map[string]any{"fn": "count"}}}, "report.groupBy"},
		"no aggregates":        {map[string]any{"chart": "bar", "groupBy": "entitystatus"}, "report.aggregates"},
	} {
		def := map[string]any{"name": "x", "columns": []string{"companyname"}, "visibility": "private", "report": c.report}
		code, body := e.postJSON(t, tok, 10, "POST", "/api/v1/reports?type=project", def)
		var p Problem
		json.Unmarshal(body, &p)
		if code != 422 || !hasField(p, c.field) {
			t.Errorf("%s: %d %s", name, code, body)
		}
	}
	// A report through the lists endpoint, or a list through the reports one, is refused.
	if code, _ := e.postJSON(t, tok, 10, "POST", "/api/v1/netsuite/listConfiguration?type=project", table); code != 400 {
		t.Errorf("report via lists: %d", code)
	}
	// Without reports.view, reports are forbidden.
	vic, _ := e.login(t, "acme", "uid-vic", "vic@acme.test")
	if w := e.call("GET", "/api/v1/reports", vic.Data.Token, 14, ""); w.Code != 403 {
		t.Errorf("reports without permission: %d", w.Code)
	}
	if w := e.call("GET", "/api/v1/reports/run?id=nope", tok, 10, ""); w.Code != 404 {
		t.Errorf("unknown report: %d", w.Code)
	}
}
