package records

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/portico/portico/internal/access"
)

func TestCheckRules(t *testing.T) {
	role := func(perm, rule string) []access.Role {
		return []access.Role{{ID: 7, Name: "PM", Permissions: []string{perm}, Rules: map[string]string{perm: rule}}}
	}
	for _, ok := range [][2]string{
		{"invoice.view", "job.projectmanager eq $me"},
		{"vendorbill.view", "custbody_res_project.projectmanager eq $me or status eq Open"},
		{"project.edit", "projectmanager eq $me and entitystatus ne Closed"},
		{"project.view", "customer eq 12"},
		{"project.view", "custentity_res_county eq Marin"},
	} {
		if err := CheckRules(role(ok[0], ok[1])); err != nil {
			t.Errorf("%s %q: %v", ok[0], ok[1], err)
		}
	}
	for _, bad := range [][3]string{
		{"invoice.view", "job.nosuchfield eq 1", `Unknown field "nosuchfield"`},
		{"invoice.view", "tranid.x eq 1", "only a reference can be followed"},
		{"invoice.view", "status eq $me", "not a reference to an employee"},
		{"invoice.view", "job eq", "ends early"},
		{"invoice.create", "status eq Open", "narrows a view, edit or approve permission"},
		{"nosuch.view", "status eq Open", "narrows a view, edit or approve permission"},
		{"invoice.view", " ", "empty"},
		{"employee.view", "supervisor eq $me", "cannot be looked up by an index"},
		{"project.view", "companyname contains wet", "cannot be looked up by an index"},
		{"invoice.view", "job.companyname startswith Wet", "cannot be looked up by an index"},
	} {
		err := CheckRules(role(bad[0], bad[1]))
		if err == nil || !strings.Contains(err.Error(), bad[2]) || !strings.Contains(err.Error(), "role 7 (PM), rule on "+bad[0]) {
			t.Errorf("%s %q: %v, want %q", bad[0], bad[1], err, bad[2])
		}
	}
}

func TestGuardMay(t *testing.T) {
	g := NewGuard(nil, access.Role{Permissions: []string{"invoice.view", "invoice.edit", "project.view", "project.create"}}, "")
	inv, _ := Lookup("invoice")
	prj, _ := Lookup("project")
	if !g.May(inv, ActView) || g.May(inv, ActEdit) { // invoices are read-only in Portico
		t.Error("invoice: view yes, edit no (the kind cannot be edited)")
	}
	if g.May(prj, ActEdit) || g.May(prj, ActCreate) != prj.CanCreate {
		t.Error("project: no edit permission; create as the kind allows")
	}
	if err := g.Require(prj, ActEdit); err == nil || !strings.Contains(err.Error(), "may not change projects") {
		t.Errorf("require: %v", err)
	}
	kinds := g.Kinds()
	if len(kinds) != 2 || kinds[0].CanEdit {
		t.Errorf("kinds: %d", len(kinds))
	}
}

// readsByID is a store whose user is employee 7 and whose projects
// visible under any rule are those of visible; it notes which project ids
// were read.
type readsByID struct {
	visible map[int64]bool
	read    []int64
}

func (s *readsByID) ListRecords(_ context.Context, q ListQuery) (Page, error) {
	if q.Kind == "employee" {
		return Page{Records: []Record{{Kind: "employee", ID: 7, Title: "Pete"}}}, nil
	}
	var out Page
	for _, p := range q.Filter.Parts() {
		for _, c := range p.Any[0] {
			if ids, ok := c.Value.([]int64); ok && c.Column == ColID {
				for _, id := range ids {
					s.read = append(s.read, id)
					if s.visible[id] {
						out.Records = append(out.Records, Record{Kind: q.Kind, ID: id})
					}
				}
			}
		}
	}
	return out, nil
}

// SeenOwned decides a record of known owner on its owner when the rule
// is the owner's alone, and reads every other record.
func TestGuardSeenOwned(t *testing.T) {
	owners := map[int64]string{1: "7", 2: "8", 3: "", 4: ""}
	owner := func(kind string, id int64) string { return owners[id] }
	ids := map[string][]int64{"project": {1, 2, 3, 4}}
	for _, c := range []struct {
		rule  string
		owner func(string, int64) string
		seen  []int64
		read  []int64
	}{
		{"projectmanager eq $me", owner, []int64{1, 3}, []int64{3, 4}},
		{"projectmanager eq $me", nil, []int64{1, 3}, []int64{1, 2, 3, 4}},
		{"projectmanager eq $me and entitystatus eq Active", owner, []int64{1, 3}, []int64{1, 2, 3, 4}},
		{"projectmanager eq 8", owner, []int64{2, 3}, []int64{3, 4}},
	} {
		st := &readsByID{visible: map[int64]bool{1: c.seen[0] == 1, 2: c.seen[0] == 2, 3: true}}
		g := NewGuard(st, access.Role{Permissions: []string{"project.view"}, Rules: map[string]string{"project.view": c.rule}}, "pete@example.com")
		got, err := g.SeenOwned(context.Background(), ids, c.owner)
		if err != nil {
			t.Fatal(err)
		}
		var seen []int64
		for _, id := range ids["project"] {
			if got["project"][id] {
				seen = append(seen, id)
			}
		}
		slices.Sort(st.read)
		if fmt.Sprint(seen) != fmt.Sprint(c.seen) || fmt.Sprint(st.read) != fmt.Sprint(c.read) {
			t.Errorf("%q (owners known %v): seen %v, read %v; want %v, %v", c.rule, c.owner != nil, seen, st.read, c.seen, c.read)
		}
	}
	// A role without the permission sees none, and nothing is read.
	st := &readsByID{}
	got, err := NewGuard(st, access.Role{}, "pete@example.com").SeenOwned(context.Background(), ids, owner)
	if err != nil || len(got["project"]) != 0 || len(st.read) != 0 {
		t.Errorf("no permission: %v, read %v, %v", got, st.read, err)
	}
}

// SeesTabWhole holds for a project's cost details when the vendor-bill
// rule, with the bill's project fixed, holds whatever else the bill
// holds: through the project (its manager, read of the project), or on
// the project itself; never on a condition of the bill's own.
func TestGuardSeesTabWhole(t *testing.T) {
	prj, _ := Lookup("project")
	bills, _ := Lookup("vendorbill")
	tab, _ := prj.TabNamed("costdetails")
	for _, c := range []struct {
		perms []string
		rule  string
		want  map[int64]bool // by project
	}{
		{[]string{"vendorbill.view"}, "", map[int64]bool{10: true, 20: true}},
		{nil, "", map[int64]bool{10: false, 20: false}},
		{[]string{"vendorbill.view"}, "custbody_res_project.projectmanager eq $me", map[int64]bool{10: true, 20: false}},
		{[]string{"vendorbill.view"}, "custbody_res_project.projectmanager eq $me or status eq Open", map[int64]bool{10: true, 20: false}},
		{[]string{"vendorbill.view"}, "custbody_res_project.projectmanager eq $me and status eq Open", map[int64]bool{10: false, 20: false}},
		{[]string{"vendorbill.view"}, "status eq Open", map[int64]bool{10: false, 20: false}},
		{[]string{"vendorbill.view"}, "custbody_res_project eq 20", map[int64]bool{10: false, 20: true}},
	} {
		role := access.Role{Permissions: c.perms}
		if c.rule != "" {
			role.Rules = map[string]string{"vendorbill.view": c.rule}
		}
		g := NewGuard(&readsByID{visible: map[int64]bool{10: true}}, role, "pete@acme.test")
		for id, want := range c.want {
			got, err := g.SeesTabWhole(context.Background(), prj, Record{Kind: "project", ID: id}, tab, bills)
			if err != nil || got != want {
				t.Errorf("%v %q, project %d: %v %v, want %v", c.perms, c.rule, id, got, err, want)
			}
		}
	}
}

// auditLog is a log of events about projects 1..n (newest first), and a
// sign-in, read a page at a time.
type auditLog struct{ events []access.AuditEvent }

func (l auditLog) AuditEvents(_ context.Context, f access.AuditFilter) ([]access.AuditEvent, error) {
	var out []access.AuditEvent
	for _, e := range l.events {
		if (f.Before == 0 || e.ID < f.Before) && len(out) < f.Limit {
			out = append(out, e)
		}
	}
	return out, nil
}

// A page of the audit log keeps the events a caller may see, filled from
// older pages up to its limit.
func TestGuardAuditEvents(t *testing.T) {
	var log auditLog
	for id := int64(30); id >= 1; id-- {
		log.events = append(log.events, access.AuditEvent{ID: id, Event: "record_edit", Kind: "project", RecordID: id})
	}
	log.events = append(log.events, access.AuditEvent{ID: 0, Event: "login"})
	visible := map[int64]bool{}
	for id := int64(1); id <= 30; id += 3 {
		visible[id] = true
	}
	g := NewGuard(&readsByID{visible: visible}, access.Role{Permissions: []string{"project.view"},
		Rules: map[string]string{"project.view": "projectmanager eq $me"}}, "pete@acme.test")
	got, err := g.AuditEvents(context.Background(), log, access.AuditFilter{Limit: 4})
	var ids []int64
	for _, e := range got {
		ids = append(ids, e.RecordID)
	}
	if err != nil || !slices.Equal(ids, []int64{28, 25, 22, 19}) {
		t.Errorf("first page: %v %v, want [28 25 22 19]", ids, err)
	}
	got, _ = g.AuditEvents(context.Background(), log, access.AuditFilter{Limit: 4, Before: 5})
	if len(got) != 3 || got[0].RecordID != 4 || got[1].RecordID != 1 || got[2].Event != "login" {
		t.Errorf("last page: %+v", got)
	}
}
