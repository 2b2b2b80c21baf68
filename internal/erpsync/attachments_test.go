package erpsync_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/portico/portico/internal/erp/netsuitetest"
	"github.com/portico/portico/internal/erpsync"
	"github.com/portico/portico/internal/records"
	"github.com/portico/portico/internal/sqlstore"
)

// A note and a file added in the portal in NetSuite mode reach the account
// through the outbox (the RESTlet's addnote and addfile), once each even
// when answers are lost, behind the record's own create; meanwhile the
// file is listed as on its way, after it as NetSuite's.
func TestNotesAndFilesReachNetSuite(t *testing.T) {
	stores(t, func(t *testing.T, ten *sqlstore.Tenant) {
		ctx := context.Background()
		a, eng := synced(t, ten, 1000)
		cust, proj := mustKind(t, "customer"), mustKind(t, "project")
		by := records.Addition{RecordID: 3, AuthorName: "Ada Lovelace", By: records.Author{UserID: 1}}
		if _, err := proj.AddNote(ctx, ten, by, "Culverts cleared on the north side.", a.now(), records.Queued); err != nil {
			t.Fatal(err)
		}
		f, _, err := proj.AddFile(ctx, ten, by, "survey.csv", []byte("plot,count\nA,12\n"), a.now(), records.Queued)
		if err != nil {
			t.Fatal(err)
		}
		// On its way: listed from the portal, with its state.
		files, err := eng.Files(ctx, "project", 3)
		if err != nil || !hasFile(files, f.ID, records.WritePending) {
			t.Fatalf("files while on their way: %+v %v", files, err)
		}
		// A client created in the portal, and a note on it before NetSuite has it.
		created := queueWrites(t, ten, 1)[0]
		if _, err := cust.AddNote(ctx, ten, records.Addition{RecordID: created, AuthorName: "Pete"}, "Met at the expo.", a.now(), records.Queued); err != nil {
			t.Fatal(err)
		}
		// Answers lost after the write: retries must not add twice.
		a.fake.SetFaults(netsuitetest.Faults{DropAfterWrite: 0.3})
		for range 30 {
			a.clock.Advance(time.Hour)
			eng.Push(ctx)
		}
		a.fake.SetFaults(netsuitetest.Faults{})
		a.clock.Advance(time.Hour)
		if _, err := eng.Push(ctx); err != nil {
			t.Fatal(err)
		}
		counts, _ := ten.OutboxCounts(ctx)
		if counts[erpsync.EntryPending] != 0 || counts[erpsync.EntryFailed] != 0 {
			t.Fatalf("outbox after the pushes: %v", counts)
		}
		notes := a.fake.Notes()
		if len(notes) != 2 || notes[0].RecordType != "job" || notes[0].RecordID != 3 || notes[0].Text != "Culverts cleared on the north side." ||
			!strings.Contains(notes[0].Title, "Ada Lovelace") || notes[1].RecordType != "customer" || notes[1].RecordID >= records.ProvisionalBase {
			t.Fatalf("notes in NetSuite: %+v", notes)
		}
		// The file is NetSuite's now: listed once, from NetSuite, with its content.
		files, err = eng.Files(ctx, "project", 3)
		if err != nil || hasFile(files, f.ID, records.WritePending) {
			t.Fatalf("files after delivery: %+v %v", files, err)
		}
		var sent *records.File
		for i := range files {
			if files[i].Name == "survey.csv" {
				if sent != nil {
					t.Fatalf("survey.csv attached twice: %+v", files)
				}
				sent = &files[i]
			}
		}
		if sent == nil {
			t.Fatalf("survey.csv not in NetSuite: %+v", files)
		}
		got, err := eng.File(ctx, "project", 3, sent.ID)
		if err != nil || string(got.Content) != "plot,count\nA,12\n" {
			t.Fatalf("content from NetSuite: %q %v", got.Content, err)
		}
		if r, _ := ten.Record(ctx, "project", 3); r.Write.State != records.WriteSynced {
			t.Fatalf("project write state %+v", r.Write)
		}
	})
}

// A note NetSuite refuses (its record deleted there) fails with NetSuite's
// words; discarding it drops the note from the portal too.
func TestRefusedNoteIsShownAndDiscarded(t *testing.T) {
	stores(t, func(t *testing.T, ten *sqlstore.Tenant) {
		ctx := context.Background()
		a, eng := synced(t, ten, 1000)
		proj := mustKind(t, "project")
		if _, err := proj.AddNote(ctx, ten, records.Addition{RecordID: 5, AuthorName: "Ada"}, "Lost cause.", a.now(), records.Queued); err != nil {
			t.Fatal(err)
		}
		a.fake.Delete("job", 5)
		eng.Push(ctx)
		r, _ := ten.Record(ctx, "project", 5)
		if r.Write.State != records.WriteFailed || !strings.Contains(r.Write.Error, "does not exist") {
			t.Fatalf("write state %+v", r.Write)
		}
		if err := eng.DiscardRecord(ctx, "project", 5); err != nil {
			t.Fatal(err)
		}
		if _, err := ten.Record(ctx, "project", 5); err == nil {
			t.Fatal("the record NetSuite deleted is still here")
		}
	})
}

func hasFile(fs []records.File, id int64, state string) bool {
	for _, f := range fs {
		if f.ID == id && f.Write.State == state {
			return true
		}
	}
	return false
}
