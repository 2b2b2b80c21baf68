// Package shortlist keeps each user's shortlists of records on the server,
// so they follow the user to any browser or device: the records they
// opened last (Recent) and the ones they starred (Favourites).
//
// A user only ever reads and changes their own shelves. What a shelf
// answers is narrowed to the kinds the caller's current role may see, each
// entry named by its record's current name (never a bare id); records
// deleted since they were shelved are not answered.
package shortlist

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/portico/portico/internal/portal"
	"github.com/portico/portico/internal/records"
	"github.com/portico/portico/internal/search"
)

// Shelf names one of a user's shortlists.
type Shelf string

const (
	// Recent holds the records the user opened last, newest first.
	Recent Shelf = "recent"
	// Favourites holds the records the user starred, newest first.
	Favourites Shelf = "favourite"
)

const (
	// RecentKeep is how many recent records a user keeps: opening
	// another drops the oldest.
	RecentKeep = 20
	// FavouritesMax is the most favourites a user may have: another is
	// refused until one is removed (a favourite is never dropped silently).
	FavouritesMax = 200
)

// Limit is how a shelf is bounded: at most Max entries. With Evict, the
// oldest make room for a new one; without, a full shelf refuses a record
// it does not hold yet (ErrFull).
type Limit struct {
	Max   int
	Evict bool
}

// Limit returns the shelf's bound.
func (s Shelf) Limit() Limit {
	if s == Recent {
		return Limit{Max: RecentKeep, Evict: true}
	}
	return Limit{Max: FavouritesMax}
}

// ErrFull is what a Store answers when a shelf without eviction already
// holds Limit().Max records.
var ErrFull = errors.New("shortlist: the shelf is full")

// Entry is one record on a shelf as the store keeps it, with the record's
// current name, number and status.
type Entry struct {
	Kind   string
	ID     int64
	Name   string
	Code   string
	Status string
	At     time.Time
}

// Store keeps the shelves of one tenant's users. Every method reads or
// changes one user's shelf only.
type Store interface {
	// ShortlistAdd puts record kind/id on the user's shelf as its newest
	// entry, at at (one already there moves to the front), within the
	// shelf's Limit, in one transaction: the Limit holds however many
	// writes of the same user run at once, on any instance. Entries of
	// records deleted since are dropped first. It fails with a not-found
	// error when the record does not exist, and with ErrFull as Limit
	// says.
	ShortlistAdd(ctx context.Context, userID int64, shelf Shelf, kind string, id int64, at time.Time) error
	// ShortlistRemove takes record kind/id off the user's shelf; removing
	// one that is not there is not an error.
	ShortlistRemove(ctx context.Context, userID int64, shelf Shelf, kind string, id int64) error
	// Shortlist answers the user's shelf, newest first, at most
	// shelf.Limit().Max entries, without those whose record is gone.
	Shortlist(ctx context.Context, userID int64, shelf Shelf) ([]Entry, error)
}

// Item is a shelved record as the user sees it: a link like a search
// result's (name, view page, kind, id, detail) and when it was shelved.
type Item struct {
	search.Result
	At time.Time `json:"at"`
}

// Visited records that the user opened a record's page: it becomes their
// newest recent record. The caller has checked the role may see kind k.
func Visited(ctx context.Context, st Store, userID int64, k *records.Kind, id int64, now time.Time) error {
	return add(ctx, st, userID, Recent, k, id, now)
}

// SetFavourite stars (on) or unstars a record for the user. Both are
// idempotent: starring a favourite again, or unstarring a record that is
// not one, changes nothing the user sees. The caller has checked the role
// may see kind k.
func SetFavourite(ctx context.Context, st Store, userID int64, k *records.Kind, id int64, on bool, now time.Time) error {
	if !on {
		return st.ShortlistRemove(ctx, userID, Favourites, k.Name, id)
	}
	return add(ctx, st, userID, Favourites, k, id, now)
}

func add(ctx context.Context, st Store, userID int64, shelf Shelf, k *records.Kind, id int64, now time.Time) error {
	err := st.ShortlistAdd(ctx, userID, shelf, k.Name, id, now)
	switch {
	case errors.Is(err, ErrFull):
		return portal.Wrap(portal.CodeConflict, err,
			fmt.Sprintf("You have %d favourites, the most kept: remove one to add another.", shelf.Limit().Max))
	case portal.IsNotFound(err):
		return portal.Wrap(portal.CodeNotFound, err, fmt.Sprintf("There is no %s %d.", strings.ToLower(k.Label), id))
	case err != nil:
		return fmt.Errorf("shortlist %s: %w", shelf, err)
	}
	return nil
}

// List answers the user's shelf, newest first, keeping only the records of
// the visible kinds (those the current role may see).
func List(ctx context.Context, st Store, userID int64, shelf Shelf, visible []*records.Kind) ([]Item, error) {
	entries, err := st.Shortlist(ctx, userID, shelf)
	if err != nil {
		return nil, fmt.Errorf("shortlist %s: %w", shelf, err)
	}
	byName := make(map[string]*records.Kind, len(visible))
	for _, k := range visible {
		byName[k.Name] = k
	}
	items := make([]Item, 0, len(entries))
	for _, e := range entries {
		k := byName[e.Kind]
		if k == nil {
			continue
		}
		name := e.Name
		if name == "" {
			name = fmt.Sprintf("%s %d", k.Label, e.ID) // as its page titles it
		}
		items = append(items, Item{Result: search.ResultFor(k, e.ID, name, e.Code, e.Status), At: e.At})
	}
	return items, nil
}
