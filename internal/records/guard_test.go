package records

import (
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
		{"invoice.create", "status eq Open", "narrows a view or edit permission"},
		{"nosuch.view", "status eq Open", "narrows a view or edit permission"},
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
