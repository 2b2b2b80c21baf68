package records

import (
	"strings"
	"testing"
)

// The 15 record types of SPEC.md §3, each exactly once.
var specTypes = []string{"project", "employee", "genericresource", "billing", "billing_summary", "budget", "vendor",
	"customer", "invoice", "vendorbill", "projectrequest", "customrecord_res_vendor_questions",
	"customrecord_res_opportunity", "creditledger", "creditavailability"}

func TestRegistryCoversTheSpec(t *testing.T) {
	if len(All()) != len(specTypes) {
		t.Errorf("%d kinds, want %d", len(All()), len(specTypes))
	}
	for _, name := range specTypes {
		k, ok := Lookup(name)
		if !ok {
			t.Errorf("kind %s missing", name)
			continue
		}
		if r, _ := LookupRoute(k.Route); r != k {
			t.Errorf("route %s does not lead back to %s", k.Route, name)
		}
	}
}

func TestCreateEditAndLinksFollowTheSpec(t *testing.T) {
	editable := map[string]bool{"project": true, "projectrequest": true, "customer": true, "customrecord_res_opportunity": true}
	linked := map[string]string{"project": "project.nl", "vendor": "vendor.nl", "customer": "custjob.nl",
		"invoice": "custinvc.nl", "vendorbill": "vendbill.nl", "customrecord_res_vendor_questions": "rectype=286"}
	for _, k := range All() {
		if k.CanEdit != editable[k.Name] || (k.CanCreate && !editable[k.Name]) {
			t.Errorf("%s: create %v edit %v", k.Name, k.CanCreate, k.CanEdit)
		}
		if want := linked[k.Name]; want != "" && !strings.Contains(k.Link(42), want) || (want == "" && k.Link(42) != "") {
			t.Errorf("%s: link %q", k.Name, k.Link(42))
		}
		if want := linked[k.Name]; want != "" && !strings.HasSuffix(k.Link(42), "id=42") {
			t.Errorf("%s: link %q does not carry the id", k.Name, k.Link(42))
		}
	}
	p, _ := Lookup("project")
	var tabs []string
	for _, t := range p.Tabs {
		tabs = append(tabs, t.Name)
	}
	if got := strings.Join(tabs, ","); !strings.HasPrefix(got, "billing,credits,budget,ecometrics,costdetails,files") {
		t.Errorf("project tabs: %s", got)
	}
}

func TestValidateCatchesBrokenEntries(t *testing.T) {
	for name, k := range map[string]Kind{
		"no title first": {Name: "x", Route: "x", Label: "X", ERPType: "x", DefaultList: "l", Fields: []Field{code("a", "A")}},
		"duplicate col":  {Name: "x", Route: "x", Label: "X", ERPType: "x", DefaultList: "l", Fields: []Field{title("a", "A"), title("b", "B")}},
		"ref sans kind":  {Name: "x", Route: "x", Label: "X", ERPType: "x", DefaultList: "l", Fields: []Field{title("a", "A"), {Name: "c", Column: ColParent, Type: TypeRef}}},
		"no list":        {Name: "x", Route: "x", Label: "X", ERPType: "x", Fields: []Field{title("a", "A")}},
	} {
		if err := k.validate(); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}
