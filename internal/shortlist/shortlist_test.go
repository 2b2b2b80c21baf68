package shortlist

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/portico/portico/internal/portal"
	"github.com/portico/portico/internal/records"
)

// fakeStore answers what it is given and remembers the last call.
type fakeStore struct {
	entries []Entry
	err     error
	calls   []string
}

func (f *fakeStore) ShortlistAdd(_ context.Context, _ int64, shelf Shelf, kind string, _ int64, _ time.Time) error {
	f.calls = append(f.calls, "add "+string(shelf)+" "+kind)
	return f.err
}

func (f *fakeStore) ShortlistRemove(_ context.Context, _ int64, shelf Shelf, kind string, _ int64) error {
	f.calls = append(f.calls, "remove "+string(shelf)+" "+kind)
	return f.err
}

func (f *fakeStore) Shortlist(context.Context, int64, Shelf) ([]Entry, error) {
	return f.entries, f.err
}

func kind(t *testing.T, name string) *records.Kind {
	t.Helper()
	k, ok := records.Lookup(name)
	if !ok {
		t.Fatalf("no kind %s", name)
	}
	return k
}

func TestLimits(t *testing.T) {
	if l := Recent.Limit(); l.Max != RecentKeep || !l.Evict {
		t.Errorf("recent: %+v", l)
	}
	if l := Favourites.Limit(); l.Max != FavouritesMax || l.Evict {
		t.Errorf("favourites: %+v", l)
	}
}

func TestListKeepsTheVisibleKindsAndNamesThem(t *testing.T) {
	at := time.UnixMilli(1_800_000_000_000).UTC()
	st := &fakeStore{entries: []Entry{
		{Kind: "project", ID: 7, Name: "Heron Marsh", Code: "PRJ-7", Status: "Active", At: at},
		{Kind: "invoice", ID: 8, Name: "March works", At: at},
		{Kind: "no_longer_a_kind", ID: 9, Name: "Gone", At: at},
		{Kind: "customer", ID: 10, Name: "Ibis Holdings", At: at},
		{Kind: "project", ID: 11, Name: "", At: at},
	}}
	items, err := List(context.Background(), st, 1, Recent, []*records.Kind{kind(t, "customer"), kind(t, "project")})
	if err != nil || len(items) != 3 {
		t.Fatalf("%+v %v", items, err)
	}
	if unnamed := items[2]; unnamed.Name != "Project 11" {
		t.Errorf("a record without a name: %+v", unnamed)
	}
	p, c := items[0], items[1]
	if p.Name != "Heron Marsh" || p.Domain != "/project/view?id=7" || p.Type != "project" || p.ID != 7 ||
		p.Detail != "Project · PRJ-7 · Active" || !p.At.Equal(at) {
		t.Errorf("project: %+v", p)
	}
	if c.Name != "Ibis Holdings" || c.Detail != "Client" {
		t.Errorf("client: %+v", c)
	}
	st.err = errors.New("boom")
	if _, err := List(context.Background(), st, 1, Recent, nil); err == nil {
		t.Error("a store failure is not an error")
	}
}

func TestWritesAndTheirErrors(t *testing.T) {
	ctx := context.Background()
	project := kind(t, "project")
	st := &fakeStore{}
	if err := Visited(ctx, st, 1, project, 7, time.Now()); err != nil {
		t.Fatal(err)
	}
	if err := SetFavourite(ctx, st, 1, project, 7, true, time.Now()); err != nil {
		t.Fatal(err)
	}
	if err := SetFavourite(ctx, st, 1, project, 7, false, time.Now()); err != nil {
		t.Fatal(err)
	}
	want := []string{"add recent project", "add favourite project", "remove favourite project"}
	if len(st.calls) != 3 || st.calls[0] != want[0] || st.calls[1] != want[1] || st.calls[2] != want[2] {
		t.Fatalf("calls %q", st.calls)
	}

	st.err = ErrFull
	err := SetFavourite(ctx, st, 1, project, 7, true, time.Now())
	if portal.ErrorCode(err) != portal.CodeConflict || !errors.Is(err, ErrFull) {
		t.Errorf("full: %v", err)
	}
	st.err = portal.Errorf(portal.CodeNotFound, "No such record.")
	var pe *portal.Error
	if err := Visited(ctx, st, 1, project, 7, time.Now()); !portal.IsNotFound(err) || !errors.As(err, &pe) || pe.Message != "There is no project 7." {
		t.Errorf("missing: %v", err)
	}
	st.err = errors.New("disk on fire")
	if err := Visited(ctx, st, 1, project, 7, time.Now()); portal.ErrorCode(err) != portal.CodeInternal {
		t.Errorf("failure: %v (%s)", err, portal.ErrorCode(err))
	}
}
