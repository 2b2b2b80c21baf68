package records

import (
	"errors"
	"testing"

	"github.com/portico/portico/internal/access"
	"github.com/portico/portico/internal/portal"
)

func TestListActorRules(t *testing.T) {
	editor := ListActor{UserID: 1, Role: access.Role{ID: 10, Permissions: []string{PermEditLists}}}
	viewer := ListActor{UserID: 2, Role: access.Role{ID: 10}}
	var l ListConfig
	if err := viewer.Publish(&l, SharedRole, 0); !errors.Is(err, ErrPublishForbidden) || l.Visibility != "" {
		t.Errorf("viewer shares: %v, %+v", err, l)
	}
	if err := viewer.Publish(&l, Private, 0); err != nil || l.Visibility != Private || l.RoleID != 0 {
		t.Errorf("viewer keeps private: %v, %+v", err, l)
	}
	l.OwnerID = 2
	if !viewer.Sees(l) || !viewer.MayEdit(l) || editor.Sees(l) || editor.MayEdit(l) {
		t.Error("a private list is its owner's alone")
	}
	if err := editor.Publish(&l, SharedRole, 0); err != nil || l.RoleID != 10 {
		t.Errorf("editor shares: %v, %+v", err, l)
	}
	other := ListActor{UserID: 2, Role: access.Role{ID: 11, Permissions: []string{PermEditLists}}}
	if !viewer.Sees(l) || !viewer.MayEdit(l) || !editor.MayEdit(l) || other.Sees(l) {
		t.Error("a shared list: seen in its role, edited by its owner and the role's editors")
	}
	if editor.MayEdit(ListConfig{BuiltIn: true, Visibility: SharedRole, RoleID: 10}) {
		t.Error("the built-in list is nobody's to change")
	}
	// A change: not found unless seen, of the kind and sort asked for;
	// forbidden when seen but not the actor's to change.
	l.Kind = "project"
	noEdit := ListActor{UserID: 3, Role: access.Role{ID: 10}}
	for _, c := range []struct {
		a        ListActor
		kind     string
		asReport bool
		want     portal.Code
	}{
		{editor, "project", false, ""}, {viewer, "project", false, ""},
		{noEdit, "project", false, portal.CodeForbidden},
		{other, "project", false, portal.CodeNotFound},
		{editor, "invoice", false, portal.CodeNotFound},
		{editor, "project", true, portal.CodeNotFound},
	} {
		var got portal.Code
		if err := c.a.CheckEdit(l, c.kind, c.asReport); err != nil {
			got = portal.ErrorCode(err)
		}
		if got != c.want {
			t.Errorf("user %d in role %d, %s report %v: %q, want %q", c.a.UserID, c.a.Role.ID, c.kind, c.asReport, got, c.want)
		}
	}
}

// A list may be shared with another role the user holds, when that role
// may share lists; never with a role they do not hold.
func TestListActorSharesWithAnotherHeldRole(t *testing.T) {
	admin := access.Role{ID: 10, Permissions: []string{PermEditLists}}
	pm := access.Role{ID: 11, Permissions: []string{PermEditLists}}
	visitor := access.Role{ID: 12}
	ada := ListActor{UserID: 1, Role: admin, Roles: []access.Role{admin, pm, visitor}}
	var l ListConfig
	if err := ada.Publish(&l, SharedRole, pm.ID); err != nil || l.Visibility != SharedRole || l.RoleID != pm.ID {
		t.Fatalf("share with a held role: %v %+v", err, l)
	}
	if ada.Sees(l) || !(ListActor{UserID: 2, Role: pm}).Sees(l) {
		t.Error("a list shared with another role is seen working in that role")
	}
	if err := ada.Publish(&l, SharedRole, visitor.ID); !errors.Is(err, ErrPublishForbidden) || l.RoleID != pm.ID {
		t.Errorf("share with a held role that may not share: %v %+v", err, l)
	}
	if err := ada.Publish(&l, SharedRole, 99); !errors.Is(err, ErrShareRoleNotHeld) || l.RoleID != pm.ID {
		t.Errorf("share with a role not held: %v %+v", err, l)
	}
	if err := ada.Publish(&l, SharedRole, 0); err != nil || l.RoleID != admin.ID {
		t.Errorf("0 is the role worked in: %v %+v", err, l)
	}
}
