package netsuite_test

import (
	"regexp"
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

// withoutMoneyEntries is the default mapping without its currency and
// subsidiary entries: a copy made before the mapping had them.
func withoutMoneyEntries(t testing.TB) []byte {
	t.Helper()
	entries := regexp.MustCompile(`(?m)^    (currency|subsidiary): .*\n`)
	if n := len(entries.FindAllIndex(netsuite.DefaultMapping, -1)); n < 6 {
		t.Fatalf("the default mapping has %d currency and subsidiary entries", n)
	}
	return entries.ReplaceAll(netsuite.DefaultMapping, nil)
}

// TestMappingMoneyDefaultsFollowTheRecordFamily: a mapping that names no
// currency or subsidiary column (a copy of an older one) reads each
// kind's money as the shipped one does: a transaction's own currency, an
// entity's subsidiary's; custom records and kinds without money name
// neither. Before the defaults, every kind named neither, and every
// amount was taken to be in the base currency.
func TestMappingMoneyDefaultsFollowTheRecordFamily(t *testing.T) {
	shipped, err := netsuite.ParseMapping(netsuite.DefaultMapping)
	if err != nil {
		t.Fatal(err)
	}
	copied, err := netsuite.ParseMapping(withoutMoneyEntries(t))
	if err != nil {
		t.Fatal(err)
	}
	named := 0
	for _, k := range records.All() {
		want, got := shipped.Kind(k), copied.Kind(k)
		if got.Currency != want.Currency || got.Subsidiary != want.Subsidiary {
			t.Errorf("%s: currency %q, subsidiary %q; the shipped mapping's are %q, %q", k.Name, got.Currency, got.Subsidiary,
				want.Currency, want.Subsidiary)
		}
		if got.Currency != "" || got.Subsidiary != "" {
			named++
		}
		if got.Currency != "" && !got.MayLack(got.Currency) || got.Subsidiary != "" && !got.MayLack(got.Subsidiary) {
			t.Errorf("%s: a defaulted money column must be optional", k.Name)
		}
	}
	if named != 6 {
		t.Errorf("%d kinds name a money column, want 6 (2 transactions, 4 entities with money)", named)
	}
	// What a mapping names stands: a subsidiary alone on a transaction.
	m, err := netsuite.ParseMapping([]byte(strings.Replace(string(withoutMoneyEntries(t)), "\n  invoice:\n",
		"\n  invoice:\n    subsidiary: subsidiary\n", 1)))
	if err != nil {
		t.Fatal(err)
	}
	if k, _ := records.Lookup("invoice"); m.Kind(k).Currency != "" || m.Kind(k).Subsidiary != "subsidiary" {
		t.Errorf("invoice: currency %q, subsidiary %q", m.Kind(k).Currency, m.Kind(k).Subsidiary)
	}
}
