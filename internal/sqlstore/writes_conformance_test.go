package sqlstore

import (
	"context"
	"testing"
	"time"

	"github.com/portico/portico/internal/records"
)

func TestConformanceSaveRecord(t *testing.T) {
	engines(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		ten := seedTenant(t, s, "acme")
		if err := ten.PutRecords(ctx, []records.Record{testRecord("customer", 41, "Existing", "Active")}); err != nil {
			t.Fatal(err)
		}
		now := time.UnixMilli(1_800_000_000_000).UTC()
		by := records.Author{UserID: 0, RoleID: 0, IP: "192.0.2.1"}
		created := testRecord("customer", 0, "New Client", "Active")
		created.ModifiedAt = now
		got, err := ten.SaveRecord(ctx, records.Write{Record: created, By: by, Result: "saved",
			Changes: map[string]records.Change{"companyname": {Before: nil, After: "New Client"}}})
		if err != nil || got.ID != 42 {
			t.Fatalf("create: %+v %v", got, err)
		}
		// An edit based on the stored version lands; on an older one it is refused.
		edit := got
		edit.Title, edit.ModifiedAt = "Renamed", now.Add(time.Second)
		if _, err := ten.SaveRecord(ctx, records.Write{Record: edit, Base: now, By: by}); err != nil {
			t.Fatalf("edit: %v", err)
		}
		edit.Title, edit.ModifiedAt = "Lost update", now.Add(2*time.Second)
		if _, err := ten.SaveRecord(ctx, records.Write{Record: edit, Base: now, By: by}); err != records.ErrChanged {
			t.Fatalf("stale edit: %v", err)
		}
		if r, _ := ten.Record(ctx, "customer", 42); r.Title != "Renamed" {
			t.Fatalf("stored: %+v", r)
		}
		hs, err := ten.RecordHistory(ctx, "customer", 42, 10)
		if err != nil || len(hs) != 2 || hs[0].Event != "record_edit" || hs[1].Event != "record_create" ||
			hs[1].Changes["companyname"].After != "New Client" || hs[1].Result != "saved" {
			t.Fatalf("history: %+v %v", hs, err)
		}
		if hs, _ := s.Tenant("other").RecordHistory(ctx, "customer", 42, 10); len(hs) != 0 {
			t.Fatalf("another tenant sees the history: %+v", hs)
		}
	})
}
