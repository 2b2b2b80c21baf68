package access

import (
	"context"
	"strings"
	"testing"

	"github.com/portico/portico/internal/portal"
)

type memStore struct {
	users   []User
	layouts map[string]Layout
	linked  map[int64]string
}

func (m *memStore) find(match func(User) bool) (User, error) {
	for _, u := range m.users {
		if match(u) {
			if uid, ok := m.linked[u.ID]; ok {
				u.UID = uid
			}
			return u, nil
		}
	}
	return User{}, portal.Errorf(portal.CodeNotFound, "no")
}
func (m *memStore) UserByUID(_ context.Context, uid string) (User, error) {
	return m.find(func(u User) bool { return m.linked[u.ID] == uid })
}
func (m *memStore) UserByEmail(_ context.Context, email string) (User, error) {
	return m.find(func(u User) bool { return u.Email == email })
}
func (m *memStore) SetUserUID(_ context.Context, id int64, uid string) error {
	m.linked[id] = uid
	return nil
}
func (m *memStore) Layout(_ context.Context, id string) (Layout, error) {
	l, ok := m.layouts[id]
	if !ok {
		return l, portal.Errorf(portal.CodeNotFound, "no")
	}
	return l, nil
}

func TestFindUser(t *testing.T) {
	pm := Role{ID: 1, Name: "PM", Layout: "pm"}
	s := &memStore{linked: map[int64]string{}, layouts: map[string]Layout{"pm": {ID: "pm"}}, users: []User{
		{ID: 1, Email: "ada@x.test", Roles: []Role{pm}},
		{ID: 2, Email: "nora@x.test"},
		{ID: 3, Email: "dis@x.test", Disabled: true, Roles: []Role{pm}},
	}}
	ctx := context.Background()
	if _, err := FindUser(ctx, s, Identity{UID: "u1", Email: "ada@x.test", EmailVerified: false}); portal.ErrorCode(err) != portal.CodeForbidden {
		t.Errorf("unverified email matched: %v", err)
	}
	u, err := FindUser(ctx, s, Identity{UID: "u1", Email: "ada@x.test", EmailVerified: true})
	if err != nil || u.ID != 1 || s.linked[1] != "u1" {
		t.Fatalf("by email: %+v %v", u, err)
	}
	if u, err := FindUser(ctx, s, Identity{UID: "u1"}); err != nil || u.ID != 1 {
		t.Errorf("by uid: %+v %v", u, err)
	}
	if _, err := FindUser(ctx, s, Identity{UID: "u9", Email: "ada@x.test", EmailVerified: true}); portal.ErrorCode(err) != portal.CodeForbidden {
		t.Errorf("a second identity took over Ada: %v", err)
	}
	for email, want := range map[string]string{"nora@x.test": "no roles", "dis@x.test": "disabled", "who@x.test": "do not have a Portico account"} {
		_, err := FindUser(ctx, s, Identity{UID: "u-" + email, Email: email, EmailVerified: true})
		var pe *portal.Error
		if portal.ErrorCode(err) != portal.CodeForbidden || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v (%v)", email, err, pe)
		}
	}
	if _, err := LayoutFor(ctx, s, User{Roles: []Role{pm}}, "admin"); portal.ErrorCode(err) != portal.CodeForbidden {
		t.Errorf("layout of a role not held: %v", err)
	}
	if _, err := LayoutFor(ctx, s, User{Roles: []Role{{ID: 2, Layout: "gone"}}}, "gone"); err != ErrMissingLayout {
		t.Errorf("missing layout: %v", err)
	}
}

func TestParseFileRefusesUnknownFieldsAndBadMenus(t *testing.T) {
	if _, err := ParseFile([]byte("tenant: t\nrolez: []\n")); err == nil {
		t.Error("a misspelt key was accepted")
	}
	_, err := ParseFile([]byte("tenant: t\nlayouts:\n  - id: a\n    name: A\n    items:\n      - {href: 'javascript:alert(1)'}\n"))
	if err == nil || !strings.Contains(err.Error(), "needs text") || !strings.Contains(err.Error(), "must be an app path") {
		t.Errorf("bad menu: %v", err)
	}
}
