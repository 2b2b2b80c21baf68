package demo

import "testing"

func TestDemoAccessFile(t *testing.T) {
	f := Access()
	if f.Tenant != "portico-demo" || len(f.Users) != 5 || len(f.Roles) != 4 || len(f.Layouts) != 3 {
		t.Fatalf("demo access file: %d users, %d roles, %d layouts", len(f.Users), len(f.Roles), len(f.Layouts))
	}
	byEmail := map[string]int{}
	for _, u := range f.Users {
		byEmail[u.Email] = len(u.Roles)
	}
	if byEmail["ada.admin@portico.test"] != 3 || byEmail["nora.noroles@portico.test"] != 0 {
		t.Errorf("demo users: %v", byEmail)
	}
}
