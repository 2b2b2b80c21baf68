package access

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/portico/portico/internal/portal"
)

func adminFile() File {
	return File{
		Layouts: []Layout{{ID: "admin", Name: "Admin", Items: []MenuItem{{Text: "Home", Href: "/"}}}},
		Roles: []Role{
			{Key: "a", ID: 1, Name: "Administrator", Type: "admin", Layout: "admin", Permissions: []string{PermAdmin, "project.view"}},
			{Key: "p", ID: 2, Name: "Project Manager", Type: "staff", Permissions: []string{"invoice.view"}},
		},
		Users: []FileUser{
			{ID: 1, Email: "ada@acme.test", FullName: "Ada", Roles: []int64{1}},
			{ID: 2, Email: "pete@acme.test", FullName: "Pete", Roles: []int64{2}},
		},
	}
}

type adminMem struct {
	f        File
	replaced int
}

func (m *adminMem) ExportAccess(context.Context) (File, error) { return m.f, nil }
func (m *adminMem) ReplaceAccess(_ context.Context, f File, version string) (File, File, error) {
	if Version(m.f) != version {
		return File{}, File{}, ErrStale
	}
	before := m.f
	m.f, m.replaced = f, m.replaced+1
	return before, f, nil
}

func TestReplaceSummarisesAndMovesTheVersion(t *testing.T) {
	ctx := context.Background()
	st := &adminMem{f: adminFile()}
	cur, _ := Current(ctx, st)
	f := adminFile()
	f.Users[1].Roles = []int64{1}
	f.Users[1].Disabled = true
	f.Users = append(f.Users, FileUser{ID: 3, Email: "sam@acme.test", FullName: "Sam", Roles: []int64{2}})
	f.Roles[1].Rules = map[string]string{"invoice.view": "job.projectmanager eq $me"}
	ch, err := Replace(ctx, st, f, cur.Version, nil)
	if err != nil {
		t.Fatal(err)
	}
	if ch.Setup.Version == cur.Version {
		t.Error("the version did not change")
	}
	want := "users added: sam@acme.test; users disabled: pete@acme.test; granted: pete@acme.test: Administrator, sam@acme.test: Project Manager; " +
		"revoked: pete@acme.test: Project Manager; roles changed: Project Manager"
	if got := ch.Summary.Text(); got != want {
		t.Errorf("summary:\n got %s\nwant %s", got, want)
	}
	if d := ch.Summary.Detail(); d["summary"] != want || len(d["usersAdded"].([]any)) != 1 {
		t.Errorf("detail %+v", d)
	}
	// The same version again: stale, nothing changed.
	if _, err := Replace(ctx, st, adminFile(), cur.Version, nil); !errors.Is(err, ErrStale) || st.replaced != 1 {
		t.Errorf("stale: %v, %d replaces", err, st.replaced)
	}
}

func TestReplaceNamesEveryProblemAndRefusesALockOut(t *testing.T) {
	ctx := context.Background()
	st := &adminMem{f: adminFile()}
	cur, _ := Current(ctx, st)
	f := adminFile()
	f.Users[0].Disabled = true // the only administrator
	f.Users[1].Email = "not an email"
	f.Roles[1].Rules = map[string]string{"invoice.view": "nonsense"}
	check := func(roles []Role) error {
		for _, r := range roles {
			for perm := range r.Rules {
				return portal.Errorf(portal.CodeInvalid, "role %d (%s), rule on %s: %s", r.ID, r.Name, perm, "unknown field nonsense")
			}
		}
		return nil
	}
	_, err := Replace(ctx, st, f, cur.Version, check)
	pe, ok := errors.AsType[*portal.Error](err)
	if !ok || pe.Code != portal.CodeUnprocessable || len(pe.Fields) != 3 || st.replaced != 0 {
		t.Fatalf("problems: %v", err)
	}
	fields := map[string]string{}
	for _, fe := range pe.Fields {
		fields[fe.Field] = fe.Message
	}
	if !strings.Contains(fields["users[1]"], "not an email") || fields["roles[1].rules.invoice.view"] != "unknown field nonsense" ||
		!strings.Contains(fields["users"], PermAdmin) {
		t.Errorf("fields %+v", fields)
	}
	// The lock-out alone says so in the message.
	f = adminFile()
	f.Roles[0].Permissions = []string{"project.view"}
	_, err = Replace(ctx, st, f, cur.Version, check)
	if pe, ok := errors.AsType[*portal.Error](err); !ok || !strings.Contains(pe.Message, "Keep at least one administrator") {
		t.Errorf("lock-out: %v", err)
	}
	if _, err := Replace(ctx, st, adminFile(), "", nil); portal.ErrorCode(err) != portal.CodeInvalid {
		t.Errorf("no version: %v", err)
	}
}
