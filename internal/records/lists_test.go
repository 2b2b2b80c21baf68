package records

import (
	"errors"
	"testing"

	"github.com/portico/portico/internal/access"
)

func TestListActorRules(t *testing.T) {
	editor := ListActor{UserID: 1, Role: access.Role{ID: 10, Permissions: []string{PermEditLists}}}
	viewer := ListActor{UserID: 2, Role: access.Role{ID: 10}}
	var l ListConfig
	if err := viewer.Publish(&l, SharedRole); !errors.Is(err, ErrPublishForbidden) || l.Visibility != "" {
		t.Errorf("viewer shares: %v, %+v", err, l)
	}
	if err := viewer.Publish(&l, Private); err != nil || l.Visibility != Private || l.RoleID != 0 {
		t.Errorf("viewer keeps private: %v, %+v", err, l)
	}
	l.OwnerID = 2
	if !viewer.Sees(l) || !viewer.MayEdit(l) || editor.Sees(l) || editor.MayEdit(l) {
		t.Error("a private list is its owner's alone")
	}
	if err := editor.Publish(&l, SharedRole); err != nil || l.RoleID != 10 {
		t.Errorf("editor shares: %v, %+v", err, l)
	}
	other := ListActor{UserID: 2, Role: access.Role{ID: 11, Permissions: []string{PermEditLists}}}
	if !viewer.Sees(l) || !viewer.MayEdit(l) || !editor.MayEdit(l) || other.Sees(l) {
		t.Error("a shared list: seen in its role, edited by its owner and the role's editors")
	}
	if editor.MayEdit(ListConfig{BuiltIn: true, Visibility: SharedRole, RoleID: 10}) {
		t.Error("the built-in list is nobody's to change")
	}
}
