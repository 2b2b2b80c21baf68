package sqlstore

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/portico/portico/internal/erpsync"
	"github.com/portico/portico/internal/portal"
	"github.com/portico/portico/internal/records"
)

// notesOf returns the texts of a record's notes sublist.
func notesOf(t *testing.T, ten *Tenant, kind string, id int64) []string {
	t.Helper()
	r, err := ten.Record(context.Background(), kind, id)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct{ Notes []records.NoteEntry }
	if err := json.Unmarshal(r.Fields, &doc); err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, n := range doc.Notes {
		out = append(out, n.Text)
	}
	return out
}

func noteWrite(id int64, text string, at time.Time) records.NoteWrite {
	w := records.NoteWrite{Kind: "customer", RecordID: id, At: at, By: records.Author{UserID: 1}}
	w.Entry.Author.RefName, w.Entry.Date, w.Entry.Text = "Ada", at.Format(time.DateOnly), text
	return w
}

func fileWrite(id int64, name string, at time.Time) records.FileWrite {
	return records.FileWrite{By: records.Author{UserID: 1}, File: records.File{Kind: "customer", RecordID: id, Name: name,
		ContentType: "application/pdf", ModifiedAt: at, Content: []byte("%PDF-" + name)}}
}

func TestConformanceNotes(t *testing.T) {
	engines(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		ten := seedTenant(t, s, "acme")
		seedTenant(t, s, "other")
		if err := ten.PutRecords(ctx, []records.Record{testRecord("customer", 41, "Acme", "Active")}); err != nil {
			t.Fatal(err)
		}
		before, _ := ten.Record(ctx, "customer", 41)
		at := time.UnixMilli(1_800_000_000_000).UTC()
		for _, text := range []string{"First call.", "Second, with\na line break and ünïcode."} {
			if err := ten.AddNote(ctx, noteWrite(41, text, at)); err != nil {
				t.Fatal(err)
			}
		}
		if got := notesOf(t, ten, "customer", 41); len(got) != 2 || got[1] != "Second, with\na line break and ünïcode." {
			t.Fatalf("notes %q", got)
		}
		// A note is no new version: a form opened before saves without a conflict.
		after, _ := ten.Record(ctx, "customer", 41)
		if !after.ModifiedAt.Equal(before.ModifiedAt) || after.Write.State != records.WriteSynced {
			t.Fatalf("the note changed the record: %v → %v, %+v", before.ModifiedAt, after.ModifiedAt, after.Write)
		}
		hs, err := ten.RecordHistory(ctx, "customer", 41, 10)
		if err != nil || len(hs) != 2 || hs[0].Event != records.EventNote || hs[0].Changes["note"].After != "Second, with\na line break and ünïcode." {
			t.Fatalf("history %+v %v", hs, err)
		}
		// No such record, here or in another tenant.
		if err := ten.AddNote(ctx, noteWrite(404, "x", at)); !portal.IsNotFound(err) {
			t.Fatalf("missing record: %v", err)
		}
		if err := s.Tenant("other").AddNote(ctx, noteWrite(41, "x", at)); !portal.IsNotFound(err) {
			t.Fatalf("another tenant's record: %v", err)
		}
		// An Idempotency-Key adds once; the same key for another note is refused.
		w := noteWrite(41, "Once.", at)
		w.Idempotency = &records.Idempotency{Key: "n-1", Fingerprint: "once"}
		if err := ten.AddNote(ctx, w); err != nil {
			t.Fatal(err)
		}
		var replayed *records.Replayed
		if err := ten.AddNote(ctx, w); !errors.As(err, &replayed) {
			t.Fatalf("repeat: %v", err)
		}
		w.Idempotency.Fingerprint = "another"
		if err := ten.AddNote(ctx, w); !errors.Is(err, records.ErrKeyReused) {
			t.Fatalf("reused key: %v", err)
		}
		if got := notesOf(t, ten, "customer", 41); len(got) != 3 {
			t.Fatalf("notes after the repeat: %q", got)
		}
		// ERP mode: queued behind the record's writes, the record pending.
		w = noteWrite(41, "For NetSuite.", at)
		w.Outbound = &records.Outbound{Op: records.OpNote, Fields: json.RawMessage(`{"author":"Ada","text":"For NetSuite."}`), Key: "nk"}
		if err := ten.AddNote(ctx, w); err != nil {
			t.Fatal(err)
		}
		due, err := ten.DueOutbox(ctx, at.Add(time.Second), 10)
		if err != nil || len(due) != 1 || due[0].Op != records.OpNote || due[0].RecordID != 41 {
			t.Fatalf("outbox %+v %v", due, err)
		}
		if r, _ := ten.Record(ctx, "customer", 41); r.Write.State != records.WritePending {
			t.Fatalf("write state %+v", r.Write)
		}
		if err := ten.CompleteAttachment(ctx, due[0], 9001, nil, at.Add(2*time.Second)); err != nil {
			t.Fatal(err)
		}
		if r, _ := ten.Record(ctx, "customer", 41); r.Write.State != records.WriteSynced || len(notesOf(t, ten, "customer", 41)) != 4 {
			t.Fatalf("after delivery: %+v", r.Write)
		}
	})
}

func TestConformanceAddFiles(t *testing.T) {
	engines(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		ten := seedTenant(t, s, "acme")
		if err := ten.PutRecords(ctx, []records.Record{testRecord("customer", 41, "Acme", "Active")}); err != nil {
			t.Fatal(err)
		}
		if err := ten.PutFiles(ctx, []records.File{{ID: 700, Kind: "customer", RecordID: 41, Name: "seeded.pdf",
			ContentType: "application/pdf", Content: []byte("%PDF-")}}); err != nil {
			t.Fatal(err)
		}
		at := time.UnixMilli(1_800_000_000_000).UTC()
		f, err := ten.AddFile(ctx, fileWrite(41, "plan.pdf", at))
		if err != nil || f.ID != 701 || f.Size != int64(len("%PDF-plan.pdf")) || f.Content != nil || f.Write.State != records.WriteSynced {
			t.Fatalf("add: %+v %v", f, err)
		}
		got, err := ten.File(ctx, "customer", 41, 701)
		if err != nil || string(got.Content) != "%PDF-plan.pdf" || got.Name != "plan.pdf" || !got.ModifiedAt.Equal(at) {
			t.Fatalf("file: %+v %v", got, err)
		}
		if _, err := ten.AddFile(ctx, fileWrite(404, "x.pdf", at)); !portal.IsNotFound(err) {
			t.Fatalf("missing record: %v", err)
		}
		// The same Idempotency-Key answers the first file.
		w := fileWrite(41, "once.pdf", at)
		w.Idempotency = &records.Idempotency{Key: "f-1", Fingerprint: "once"}
		first, err := ten.AddFile(ctx, w)
		if err != nil {
			t.Fatal(err)
		}
		var replayed *records.Replayed
		if _, err := ten.AddFile(ctx, w); !errors.As(err, &replayed) || replayed.ID != first.ID {
			t.Fatalf("repeat: %v", err)
		}
		// ERP mode: a provisional id, pending, named by its outbox entry;
		// refused, then delivered.
		w = fileWrite(41, "for-netsuite.pdf", at)
		w.Outbound, w.File.Write = &records.Outbound{Op: records.OpFile, Key: "fk"}, records.WriteState{State: records.WritePending}
		queued, err := ten.AddFile(ctx, w)
		if err != nil || queued.ID < records.ProvisionalBase || queued.Write.State != records.WritePending {
			t.Fatalf("queued: %+v %v", queued, err)
		}
		due, _ := ten.DueOutbox(ctx, at.Add(time.Second), 10)
		var ff records.FileFields
		if len(due) != 1 || json.Unmarshal(due[0].Fields, &ff) != nil || ff.FileID != queued.ID {
			t.Fatalf("outbox %+v", due)
		}
		if err := ten.FailOutbox(ctx, due[0], "Folder missing.", at); err != nil {
			t.Fatal(err)
		}
		if got, _ := ten.File(ctx, "customer", 41, queued.ID); got.Write != (records.WriteState{State: records.WriteFailed, Error: "Folder missing."}) {
			t.Fatalf("refused file: %+v", got.Write)
		}
		if err := ten.RetryOutbox(ctx, due[0].ID, at); err != nil {
			t.Fatal(err)
		}
		due, _ = ten.DueOutbox(ctx, at.Add(time.Second), 10)
		if err := ten.CompleteAttachment(ctx, due[0], 5555, nil, at.Add(time.Second)); err != nil {
			t.Fatal(err)
		}
		fs, err := ten.Files(ctx, "customer", 41)
		if err != nil || len(fs) != 4 {
			t.Fatalf("files %+v %v", fs, err)
		}
		for _, f := range fs {
			if f.Write.State != records.WriteSynced {
				t.Errorf("%s: %+v", f.Name, f.Write)
			}
		}
		// A refused upload discarded goes with its record's change.
		w = fileWrite(41, "discarded.pdf", at)
		w.Outbound, w.File.Write = &records.Outbound{Op: records.OpFile, Key: "fk2"}, records.WriteState{State: records.WritePending}
		gone, _ := ten.AddFile(ctx, w)
		due, _ = ten.DueOutbox(ctx, at.Add(time.Second), 10)
		ten.FailOutbox(ctx, due[0], "No.", at)
		rec, _ := ten.Record(ctx, "customer", 41)
		if err := ten.DiscardOutbox(ctx, due[0], &rec, at); err != nil {
			t.Fatal(err)
		}
		if _, err := ten.File(ctx, "customer", 41, gone.ID); !portal.IsNotFound(err) {
			t.Fatalf("discarded file: %v", err)
		}
	})
}

func TestConformanceCreateNumberedLikeTheKind(t *testing.T) {
	engines(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		ten := seedTenant(t, s, "acme")
		// testRecord numbers C-%04d: the next create follows.
		if err := ten.PutRecords(ctx, []records.Record{testRecord("customer", 41, "Acme", "Active")}); err != nil {
			t.Fatal(err)
		}
		r := testRecord("customer", 0, "New", "Active")
		r.Code = ""
		got, err := ten.SaveRecord(ctx, records.Write{Record: r, NumberLike: true})
		if err != nil || got.ID != 42 || got.Code != "C-0042" {
			t.Fatalf("create: %+v %v", got, err)
		}
		if stored, _ := ten.RecordSummary(ctx, "customer", 42); stored.Code != "C-0042" {
			t.Fatalf("stored code %q", stored.Code)
		}
	})
}

// An edit made on a document read before a note was added keeps the note:
// the edit merges its fields into the stored document.
func TestConformanceEditKeepsANoteAddedMeanwhile(t *testing.T) {
	engines(t, func(t *testing.T, s *Store) {
		ctx := context.Background()
		ten := seedTenant(t, s, "acme")
		if err := ten.PutRecords(ctx, []records.Record{testRecord("customer", 41, "Acme", "Active")}); err != nil {
			t.Fatal(err)
		}
		read, _ := ten.Record(ctx, "customer", 41)
		if err := ten.AddNote(ctx, noteWrite(41, "Added while the form was open.", time.Now())); err != nil {
			t.Fatal(err)
		}
		edit := read
		edit.Title, edit.ModifiedAt = "Acme Corp", read.ModifiedAt.Add(time.Second)
		edit.Fields = json.RawMessage(`{"companyname":"Acme Corp","custentity_x":[1,2]}`)
		if _, err := ten.SaveRecord(ctx, records.Write{Record: edit, Base: read.ModifiedAt,
			Patch: json.RawMessage(`{"companyname":"Acme Corp"}`)}); err != nil {
			t.Fatal(err)
		}
		if got := notesOf(t, ten, "customer", 41); len(got) != 1 {
			t.Fatalf("notes after the edit: %q", got)
		}
		var doc map[string]any
		r, _ := ten.Record(ctx, "customer", 41)
		json.Unmarshal(r.Fields, &doc)
		if doc["companyname"] != "Acme Corp" || r.Title != "Acme Corp" {
			t.Fatalf("edit not applied: %s", r.Fields)
		}
	})
}

// Many writers at once on one record, across two instances: notes, files
// and edits, in ERP mode. Every note and every file lands once, files get
// distinct ids, every edit lands (retrying on a conflict as the app does),
// and the outbox holds one entry per write.
func TestConformanceConcurrentNotesFilesAndEdits(t *testing.T) {
	instances(t, 2, func(t *testing.T, ss []*Store) {
		ctx := context.Background()
		seedTenant(t, ss[0], "acme")
		if err := ss[0].Tenant("acme").PutRecords(ctx, []records.Record{testRecord("customer", 41, "Acme", "Active")}); err != nil {
			t.Fatal(err)
		}
		const each = 12
		var wg sync.WaitGroup
		errs := make(chan error, 3*each)
		fileIDs := make(chan int64, each)
		start := make(chan struct{})
		for i := range each {
			ten := ss[i%2].Tenant("acme")
			wg.Go(func() {
				<-start
				w := noteWrite(41, fmt.Sprintf("note %d", i), time.Now())
				w.Outbound = &records.Outbound{Op: records.OpNote, Fields: json.RawMessage(`{"text":"x"}`), Key: fmt.Sprintf("n%d", i)}
				errs <- ten.AddNote(ctx, w)
			})
			wg.Go(func() {
				<-start
				w := fileWrite(41, fmt.Sprintf("f%d.pdf", i), time.Now())
				w.Outbound = &records.Outbound{Op: records.OpFile, Key: fmt.Sprintf("f%d", i)}
				f, err := ten.AddFile(ctx, w)
				fileIDs <- f.ID
				errs <- err
			})
			wg.Go(func() {
				<-start
				for {
					cur, err := ten.Record(ctx, "customer", 41)
					if err != nil {
						errs <- err
						return
					}
					next := cur
					next.Amount = ptr(*cur.Amount + 1)
					next.ModifiedAt = cur.ModifiedAt.Add(time.Millisecond)
					next.Write = records.WriteState{State: records.WritePending} // queued, as records.Save does
					_, err = ten.SaveRecord(ctx, records.Write{Record: next, Base: cur.ModifiedAt, Patch: json.RawMessage(`{}`),
						Outbound: &records.Outbound{Op: records.OpUpdate, Fields: json.RawMessage(`{}`), Key: fmt.Sprintf("e%d-%d", i, time.Now().UnixNano())}})
					if !errors.Is(err, records.ErrChanged) {
						errs <- err
						return
					}
				}
			})
		}
		close(start)
		wg.Wait()
		close(errs)
		close(fileIDs)
		for err := range errs {
			if err != nil {
				t.Fatal(err)
			}
		}
		ten := ss[1].Tenant("acme")
		if got := notesOf(t, ten, "customer", 41); len(got) != each {
			t.Fatalf("%d notes stored, want %d", len(got), each)
		}
		seen := map[int64]bool{}
		for id := range fileIDs {
			if seen[id] {
				t.Fatalf("file id %d given twice", id)
			}
			seen[id] = true
		}
		if fs, _ := ten.Files(ctx, "customer", 41); len(fs) != each {
			t.Fatalf("%d files stored, want %d", len(fs), each)
		}
		r, _ := ten.Record(ctx, "customer", 41)
		if *r.Amount != 4100+each || r.Write.State != records.WritePending {
			t.Fatalf("amount %d (want %d), write %+v", *r.Amount, 4100+each, r.Write)
		}
		counts, _ := ten.OutboxCounts(ctx)
		if counts[erpsync.EntryPending] != 3*each {
			t.Fatalf("outbox %v, want %d pending", counts, 3*each)
		}
	})
}
