package sqlstore

import (
	"context"
	"testing"
	"time"

	"github.com/portico/portico/internal/access"
	"github.com/portico/portico/internal/records"
)

func TestConformanceAuditNames(t *testing.T) {
	engines(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		ten := seedTenant(t, s, "acme")
		if err := ten.ImportAccess(ctx, testAccess); err != nil {
			t.Fatal(err)
		}
		if err := ten.PutRecords(ctx, []records.Record{testRecord("project", 7, "Wetland restoration", "Active")}); err != nil {
			t.Fatal(err)
		}
		at := time.UnixMilli(1_800_000_000_000)
		for _, e := range []access.AuditEvent{
			{Event: "login", UserID: 1, Detail: map[string]any{"provider": "password", "role": 10}}, // before sign-ins carried RoleID
			{Event: "login", UserID: 1, RoleID: 11, Detail: map[string]any{"provider": "password"}},
			{Event: "role_switch", UserID: 1, RoleID: 10, Detail: map[string]any{"from": 11, "to": 10}},
			{Event: "record_edit", UserID: 1, RoleID: 10, Kind: "project", RecordID: 7, Detail: map[string]any{"changes": map[string]any{}}},
			{Event: "record_edit", UserID: 1, RoleID: 10, Kind: "project", RecordID: 8},                 // not in the replica
			{Event: "role_switch", UserID: 1, RoleID: 10, Detail: map[string]any{"from": 99, "to": 10}}, // a role since removed
		} {
			e.At = at
			if err := ten.Audit(ctx, e); err != nil {
				t.Fatal(err)
			}
		}
		log, err := ten.AuditEvents(ctx, access.AuditFilter{Limit: 10})
		if err != nil || len(log) != 6 {
			t.Fatalf("audit: %+v %v", log, err)
		}
		// Newest first.
		gone, missing, edit, sw, login, old := log[0], log[1], log[2], log[3], log[4], log[5]
		if gone.DetailNames["to"] != "Project Manager" || gone.DetailNames["from"] != "" {
			t.Errorf("a removed role is left unnamed: %+v", gone.DetailNames)
		}
		if missing.Record != "" || edit.Record != "Wetland restoration" || edit.User != "Ada" || edit.Role != "Project Manager" {
			t.Errorf("record names: %+v / %+v", missing, edit)
		}
		if sw.DetailNames["from"] != "Accountant" || sw.DetailNames["to"] != "Project Manager" || sw.Role != "Project Manager" {
			t.Errorf("role switch: %+v", sw)
		}
		if login.Role != "Accountant" || login.DetailNames != nil {
			t.Errorf("sign-in: %+v", login)
		}
		if old.Role != "" || old.DetailNames["role"] != "Project Manager" {
			t.Errorf("older sign-in: %+v", old)
		}

		users, err := ten.AuditUsers(ctx)
		if err != nil || len(users) != 2 || users[0].FullName != "Ada" || users[0].Email != "ada@acme.test" || users[1].ID != 2 {
			t.Errorf("users: %+v %v", users, err)
		}
		if other, err := seedTenant(t, s, "other").AuditUsers(ctx); err != nil || len(other) != 0 {
			t.Errorf("another tenant's users: %+v %v", other, err)
		}
	})
}
