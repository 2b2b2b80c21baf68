package sqlstore

import (
	"context"
	"testing"
	"time"

	"github.com/portico/portico/internal/feedback"
	"github.com/portico/portico/internal/portal"
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

func TestConformanceFeedback(t *testing.T) {
	engines(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		ten := seedTenant(t, s, "acme")
		at := time.UnixMilli(1_800_000_000_000).UTC()
		id1, err := ten.PutFeedback(ctx, feedback.Submission{At: at, UserID: 1, RoleID: 2, Category: "bug", Message: "a", Page: "/"})
		if err != nil {
			t.Fatal(err)
		}
		id2, err := ten.PutFeedback(ctx, feedback.Submission{At: at, UserID: 1, RoleID: 2, Category: "idea", Message: "b",
			FileName: "x.txt", FileType: "text/plain", FileSize: 3, File: []byte("abc")})
		if err != nil || id2 <= id1 {
			t.Fatalf("ids %d %d: %v", id1, id2, err)
		}
		list, err := ten.Feedback(ctx, 10)
		if err != nil || len(list) != 2 || list[0].ID != id2 || list[0].File != nil || list[0].FileSize != 3 || !list[1].At.Equal(at) {
			t.Fatalf("list: %+v %v", list, err)
		}
		if f, err := ten.FeedbackFile(ctx, id2); err != nil || string(f.File) != "abc" || f.FileName != "x.txt" {
			t.Fatalf("file: %+v %v", f, err)
		}
		if _, err := ten.FeedbackFile(ctx, id1); !portal.IsNotFound(err) {
			t.Fatalf("no attachment: %v", err)
		}
		if list, _ := s.Tenant("other").Feedback(ctx, 10); len(list) != 0 {
			t.Fatalf("another tenant's feedback: %+v", list)
		}
	})
}
