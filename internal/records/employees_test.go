package records

import (
	"context"
	"testing"
	"time"

	"github.com/portico/portico/internal/portal"
)

// employeeDirectory answers employee lookups by e-mail address from a
// map, counting the reads.
type employeeDirectory struct {
	ids   map[string]int64
	reads int
}

func (d *employeeDirectory) ListRecords(_ context.Context, q ListQuery) (Page, error) {
	d.reads++
	for _, conj := range q.Filter.Any {
		for _, c := range conj {
			if id, ok := d.ids[c.Value.(string)]; ok {
				return Page{Records: []Record{{ID: id, Title: c.Value.(string)}}}, nil
			}
		}
	}
	return Page{}, nil
}

func TestEmployeesRemembersForTTL(t *testing.T) {
	ctx := context.Background()
	dir := &employeeDirectory{ids: map[string]int64{"pete@example.test": 42}}
	e := NewEmployees(time.Hour)
	for range 3 {
		if id, err := e.lookup(ctx, dir, "a", "pete@example.test"); err != nil || id != 42 {
			t.Fatalf("lookup = %d, %v; want 42", id, err)
		}
	}
	if dir.reads != 1 {
		t.Errorf("three lookups within the TTL read %d times, want 1", dir.reads)
	}
	// Another tenant's user of the same address is another lookup, and a
	// user with no employee record is remembered as none.
	if id, _ := e.lookup(ctx, dir, portal.TenantID("b"), "pete@example.test"); id != 42 || dir.reads != 2 {
		t.Errorf("other tenant: id %d after %d reads, want 42 after 2", id, dir.reads)
	}
	for range 2 {
		if id, _ := e.lookup(ctx, dir, "a", "lou@example.test"); id != 0 {
			t.Errorf("no employee record: id %d, want 0", id)
		}
	}
	if dir.reads != 3 {
		t.Errorf("reads %d, want 3", dir.reads)
	}

	none := NewEmployees(0)
	none.lookup(ctx, dir, "a", "pete@example.test")
	none.lookup(ctx, dir, "a", "pete@example.test")
	if dir.reads != 5 {
		t.Errorf("a zero TTL remembered: reads %d, want 5", dir.reads)
	}
	var unset *Employees // a guard not Remembering
	if id, _ := unset.lookup(ctx, dir, "a", "pete@example.test"); id != 42 || dir.reads != 6 {
		t.Errorf("nil memory: id %d after %d reads, want 42 after 6", id, dir.reads)
	}
}
