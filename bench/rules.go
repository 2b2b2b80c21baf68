package main

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/portico/portico/internal/access"
	"github.com/portico/portico/internal/demo"
	"github.com/portico/portico/internal/sqlstore"
)

const rulesName = "rules"

// The roles the rule cases compare, both held by Pete: the demo's project
// manager permissions with a rule on projects (his own), and the same
// permissions with no rule at all. The demo's Project Manager role itself
// (rules on invoices, vendor bills and billing through their project)
// is the third.
const (
	ownProjectsRole = "1090"
	noRulesRole     = "1091"
	demoPMRole      = "1002"
)

// ruleCases measures issue 35's "fast under rules": a project manager's
// calls under a rule, side by side with the same calls by the same user in
// a role with the same permissions and no rule. The rule roles are added
// to the database's access setup (an import, as `portico roles import`
// does) and Pete holds them.
func ruleCases(ctx context.Context, store *sqlstore.Store, product string, conns int, duration time.Duration) error {
	ten := store.Tenant(tenant)
	f := demo.Access()
	pm := f.Roles[slices.IndexFunc(f.Roles, func(r access.Role) bool { return fmt.Sprint(r.ID) == demoPMRole })]
	own, bare := pm, pm
	own.ID, own.Key, own.Name, own.Layout = 1090, "bench-own-projects", "PM, own projects", ""
	own.Rules = map[string]string{"project.view": "projectmanager eq $me"}
	bare.ID, bare.Key, bare.Name, bare.Layout = 1091, "bench-no-rules", "PM, no rules", ""
	bare.Rules = nil
	f.Roles = append(f.Roles, own, bare)
	for i, u := range f.Users {
		if u.Email == "pete.pm@portico.test" {
			f.Users[i].Roles = append(u.Roles, own.ID, bare.ID)
		}
	}
	if err := ten.ImportAccess(ctx, f); err != nil {
		return err
	}
	pete, err := ten.UserByEmail(ctx, "pete.pm@portico.test")
	if err != nil {
		return err
	}
	tokens, _, err := sessionsOf(ctx, store).Issue(ctx, tenant, pete.ID)
	if err != nil {
		return err
	}
	token := tokens.Access
	var mine struct{ Data struct{ Total *int64 } }
	if err := getJSONAs(product+"/api/v1/netsuite/portal-list?type=project&pageSize=1&count=true", token, ownProjectsRole, &mine); err != nil {
		return err
	}
	list := "/api/v1/netsuite/portal-list?type=project&pageSize=50"
	cases := []struct{ name, path, rule string }{
		{"project list, default sort (name)", list, ownProjectsRole},
		{"project list, sorted by status", list + "&sort=entitystatus", ownProjectsRole},
		{"project list with the total and totals", list + "&count=true&totals=true", ownProjectsRole},
		{"project list, text \"wetland\", 10 rows", list[:len(list)-2] + "10&q=wetland", ownProjectsRole},
		{"global search \"wetland\"", "/api/v1/netsuite/portal?method=search&query=wetland", ownProjectsRole},
		// Its best answers are other managers' projects: the rule's own list tops it up.
		{"global search \"cedar\"", "/api/v1/netsuite/portal?method=search&query=cedar", ownProjectsRole},
		{"dashboard", "/api/v1/dashboard", ownProjectsRole},
		{"dashboard of the demo's project manager (rules through the project)", "/api/v1/dashboard", demoPMRole},
		{"invoice list (rule through the project)", "/api/v1/netsuite/portal-list?type=invoice&pageSize=50", demoPMRole},
		{"invoice list with the total and totals", "/api/v1/netsuite/portal-list?type=invoice&pageSize=50&count=true&totals=true", demoPMRole},
	}
	total := "?"
	if mine.Data.Total != nil {
		total = fmt.Sprint(*mine.Data.Total)
	}
	fmt.Printf("\nAccess rules: Pete (project manager, %s projects of his own) under a rule, and in a role with the same permissions and none; %d connections, %s per case\n\n", total, conns, duration)
	fmt.Println("| case | no rule req/s | under the rule req/s | rule / no rule | p50 no rule | p50 rule |")
	fmt.Println("|---|---|---|---|---|---|")
	for _, c := range cases {
		// -only "rules <case>" runs the cases whose name starts with <case>.
		if name := rulesName + " " + c.name; len(only) > len(rulesName) && !strings.HasPrefix(name, only) {
			continue
		}
		without := loadMix([]string{product + c.path}, token, noRulesRole, conns, duration)
		stop := startProfile(profileDir, rulesName+" "+c.name)
		with := loadMix([]string{product + c.path}, token, c.rule, conns, duration)
		stop()
		fmt.Printf("| %s | %.0f | %.0f | %.0f%% | %s | %s |\n", c.name, without.rps, with.rps, 100*with.rps/without.rps, ms(without.p50), ms(with.p50))
		if without.errors > 0 || with.errors > 0 {
			fmt.Printf("|   errors: no rule %s, rule %s |\n", without.statuses(), with.statuses())
		}
	}
	return nil
}
