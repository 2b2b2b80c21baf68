package netsuite_test

import (
	"strings"
	"testing"

	"github.com/portico/portico/internal/erp/netsuite"
	"github.com/portico/portico/internal/records"
)

// withKind returns the default mapping with lines added under a kind's
// entry.
func withKind(kind, lines string) []byte {
	return []byte(strings.Replace(string(netsuite.DefaultMapping), "\n  "+kind+":\n", "\n  "+kind+":\n"+lines, 1))
}

func TestMappingAccountFields(t *testing.T) {
	m, err := netsuite.ParseMapping(withKind("project", `    accountFields:
      - {name: custentity_res_huc, label: HUC, type: text}
      - {name: custentity_res_acres, label: Acres, type: quantity}
      - {name: custentity_res_phase, label: Phase, type: status, choices: [Design, Build]}
`))
	if err != nil {
		t.Fatal(err)
	}
	fs := m.AccountFields("project")
	if len(fs) != 3 || fs[0].Name != "custentity_res_huc" || !fs[0].Account || fs[0].Column != records.DocColumn("custentity_res_huc") || !fs[2].Sortable {
		t.Fatalf("account fields %+v", fs)
	}
	k, _ := records.Lookup("project")
	km := m.Kind(k)
	if !km.MayLack("custentity_res_huc") || km.RecordField("custentity_res_huc") != "custentity_res_huc" {
		t.Error("an account field is optional and written under its own id")
	}
	if id, ok := km.ValueID("custentity_res_phase", "Build"); !ok || id != "2" {
		t.Errorf("status choice ids default to positions: %q %v", id, ok)
	}
	for name, lines := range map[string]string{
		"a clash with the kind's field": "    accountFields: [{name: companyname, label: Name, type: text}]\n",
		"no label":                      "    accountFields: [{name: custentity_x, type: text}]\n",
		"a reference type":              "    accountFields: [{name: custentity_x, label: X, type: reference}]\n",
		"a status without choices":      "    accountFields: [{name: custentity_x, label: X, type: status}]\n",
		"twice":                         "    accountFields: [{name: custentity_x, label: X, type: text}, {name: custentity_x, label: Y, type: text}]\n",
		"an upper-case id":              "    accountFields: [{name: custentity_X, label: X, type: text}]\n",
		"a BUILTIN.DF status column":    "    columns: {entitystatus: BUILTIN.DF(entitystatus)}\n",
		"an unknown optional field":     "    optional: [nosuchfield]\n",
		"an optional title":             "    optional: [companyname]\n",
	} {
		if _, err := netsuite.ParseMapping(withKind("project", lines)); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

func TestMappingDefaultsFollowTheRecordFamily(t *testing.T) {
	m, err := netsuite.ParseMapping(netsuite.DefaultMapping)
	if err != nil {
		t.Fatal(err)
	}
	for kind, want := range map[string][3]string{
		"customer":                     {"lastmodifieddate", "datecreated", "lastModifiedDate"},
		"invoice":                      {"lastmodifieddate", "createddate", "lastModifiedDate"},
		"customrecord_res_opportunity": {"lastmodified", "created", "lastModified"},
	} {
		k, _ := records.Lookup(kind)
		km := m.Kind(k)
		if got := [3]string{km.Modified, km.Created, km.RecordModified}; got != want {
			t.Errorf("%s: modified/created/recordModified %v, want %v", kind, got, want)
		}
	}
	// A text field may read a list's display text.
	if _, err := netsuite.ParseMapping(withKind("employee", "    columns: {custentity_res_employee_number: BUILTIN.DF(department)}\n")); err != nil {
		t.Errorf("BUILTIN.DF into a text field: %v", err)
	}
}
