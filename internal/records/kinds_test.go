package records

import (
	"encoding/json"
	"slices"
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

var knownTypes = []FieldType{TypeText, TypeStatus, TypeRef, TypeMoney, TypeQuantity, TypeDate, TypePercent, TypeNumber,
	TypeEmail, TypePhone, TypeURL, TypeBoolean}

// Every field of every kind is described for people and for the app: a
// label that is not the field's id, a known type, a column (the document
// member for document fields); money in the base currency and summable
// with quantities; ERP-assigned numbers read-only.
func TestEveryFieldIsDescribed(t *testing.T) {
	for _, k := range All() {
		if len(k.Document) == 0 {
			t.Errorf("%s declares no document fields", k.Name)
		}
		for _, f := range k.AllFields() {
			where := k.Name + "." + f.Name
			if f.Label == "" || f.Label == f.Name || strings.ContainsAny(f.Label, "_") || strings.HasPrefix(strings.ToLower(f.Label), "cust") {
				t.Errorf("%s: label %q reads like a field id", where, f.Label)
			}
			if !slices.Contains(knownTypes, f.Type) {
				t.Errorf("%s: type %q", where, f.Type)
			}
			if f.Doc() != (f.Column == DocColumn(f.Name)) {
				t.Errorf("%s: column %s", where, f.Column)
			}
			// The currency is the tenant's, filled in per request (InCurrency).
			if f.Summable != (f.Type == TypeMoney || f.Type == TypeQuantity) || f.Currency != "" {
				t.Errorf("%s: summable %v, currency %q for a %s", where, f.Summable, f.Currency, f.Type)
			}
			if f.Column == ColCode && !f.ReadOnly {
				t.Errorf("%s: the ERP's number is not read-only", where)
			}
			if !f.Filterable {
				t.Errorf("%s: not filterable", where)
			}
		}
	}
	inv, _ := Lookup("invoice")
	for name, want := range map[string]Field{
		"duedate":         {Label: "Due date", Type: TypeDate, Sortable: true},
		"amountremaining": {Label: "Amount remaining", Type: TypeMoney, Sortable: true, ReadOnly: true, Summable: true},
		"otherrefnum":     {Label: "PO/reference", Type: TypeText, Sortable: true},
	} {
		f, ok := inv.FieldNamed(name)
		if !ok || f.Label != want.Label || f.Type != want.Type || f.Sortable != want.Sortable || f.ReadOnly != want.ReadOnly ||
			f.Summable != want.Summable || f.Currency != want.Currency {
			t.Errorf("invoice.%s: %+v", name, f)
		}
	}
	p, _ := Lookup("project")
	if f, _ := p.FieldNamed("projectmanager"); f.Type != TypeRef || f.Ref != "employee" || p.Owner != "projectmanager" {
		t.Errorf("project manager: %+v, owner %q", f, p.Owner)
	}
	// The parties a document names keep their postal address in a field the registry names.
	for _, name := range []string{"customer", "vendor"} {
		k, _ := Lookup(name)
		if f, ok := k.FieldNamed(k.Address); !ok || f.Name != "defaultaddress" || f.Type != TypeText {
			t.Errorf("%s's address: %q %+v", name, k.Address, f)
		}
	}
}

// Transactions list newest first by their date; the others by name.
func TestDefaultSorts(t *testing.T) {
	newest := map[string]string{"invoice": "trandate", "vendorbill": "trandate", "creditledger": "custrecord_res_cl_date",
		"billing": "custrecord_res_bil_date"}
	for _, k := range All() {
		want := SortSpec{Field: k.Fields[0].Name, Dir: "asc"}
		if f, ok := newest[k.Name]; ok {
			want = SortSpec{Field: f, Dir: "desc"}
		}
		if k.DefaultSort != want || k.BuiltInList().Sort != want {
			t.Errorf("%s: default sort %+v, built-in list %+v, want %+v", k.Name, k.DefaultSort, k.BuiltInList().Sort, want)
		}
		if f, _ := k.FieldNamed(want.Field); newest[k.Name] != "" && f.Type != TypeDate {
			t.Errorf("%s sorts by %s, not a date", k.Name, f.Name)
		}
	}
}

// /api/v1/kinds serves every field under "fields" (promoted, then the
// document's) and the default sort; money in the tenant's base currency
// (InCurrency), the lines' money too, the registry itself untouched.
func TestKindJSON(t *testing.T) {
	registered, _ := Lookup("invoice")
	k := registered.InCurrency("EUR")
	b, err := json.Marshal(k)
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Name        string
		Fields      []map[string]any
		DefaultSort SortSpec
	}
	json.Unmarshal(b, &got)
	if got.Name != "invoice" || len(got.Fields) != len(k.AllFields()) || got.Fields[0]["name"] != "memo" ||
		got.DefaultSort != (SortSpec{Field: "trandate", Dir: "desc"}) {
		t.Fatalf("%s", b)
	}
	for _, f := range got.Fields {
		for _, member := range []string{"name", "label", "column", "type", "sortable", "filterable", "readOnly", "summable"} {
			if _, ok := f[member]; !ok {
				t.Errorf("field %v lacks %s", f["name"], member)
			}
		}
	}
	if !strings.Contains(string(b), `"name":"amountremaining","label":"Amount remaining","column":"fields.amountremaining","type":"money","sortable":true,"filterable":true,"readOnly":true,"summable":true,"currency":"EUR"`) ||
		!strings.Contains(string(b), `{"name":"amount","label":"Amount","type":"money","sortable":false,"summable":true,"currency":"EUR"}`) {
		t.Errorf("amount remaining: %s", b)
	}
	if again, _ := json.Marshal(registered); strings.Contains(string(again), "EUR") {
		t.Errorf("the registry changed: %s", again)
	}
}

// An account field that is one of the kind's document fields (same name
// and type) takes its place, under the account's label; one of another
// type is refused. The registry it was added to is not changed.
func TestAccountFieldTakesADocumentFieldsPlace(t *testing.T) {
	k := &Kind{Name: "x", Route: "x", Fields: []Field{title("name", "Name")}, Document: []Field{doc("custrecord_x_size", "Size", TypeQuantity)}}
	base := &Registry{kinds: []*Kind{k}, byName: map[string]*Kind{"x": k}, byRoute: map[string]*Kind{"x": k}}
	reg, err := base.WithAccountFields(func(string) []Field {
		return []Field{{Name: "custrecord_x_size", Label: "Size (acres)", Type: TypeQuantity}}
	})
	if err != nil {
		t.Fatal(err)
	}
	got, _ := reg.Lookup("x")
	if f, _ := got.FieldNamed("custrecord_x_size"); !f.Account || f.Label != "Size (acres)" || len(got.Document) != 0 || len(got.AllFields()) != 2 {
		t.Errorf("%+v; document %v", f, got.Document)
	}
	if f, _ := k.FieldNamed("custrecord_x_size"); f.Account || len(k.Document) != 1 {
		t.Errorf("the code's kind changed: %+v", f)
	}
	if again, _ := reg.WithAccountFields(func(string) []Field {
		return []Field{{Name: "custrecord_x_size", Label: "Size (acres)", Type: TypeQuantity}}
	}); len(again.kinds[0].AllFields()) != 2 {
		t.Errorf("the same field added twice: %v", again.kinds[0].AllFields())
	}
	k.Document = []Field{doc("custrecord_x_when", "When", TypeDate)}
	if _, err := base.WithAccountFields(func(string) []Field {
		return []Field{{Name: "custrecord_x_when", Label: "When", Type: TypeText}}
	}); err == nil {
		t.Error("a document field of another type was taken")
	}
}

// Two tenants' registries hold their own account's fields and nothing of
// the other's; kinds neither adds to are the code's own.
func TestRegistriesPerTenant(t *testing.T) {
	a, err := Code().WithAccountFields(func(kind string) []Field {
		if kind == "project" {
			return []Field{{Name: "custentity_a_region", Label: "Region", Type: TypeText}}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	b, err := Code().WithAccountFields(func(kind string) []Field {
		if kind == "project" {
			return []Field{{Name: "custentity_b_acres", Label: "Acres", Type: TypeQuantity}}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	pa, _ := a.Lookup("project")
	pb, _ := b.LookupRoute("project")
	if _, ok := pa.FieldNamed("custentity_a_region"); !ok {
		t.Error("a's project lacks its field")
	}
	if _, ok := pa.FieldNamed("custentity_b_acres"); ok {
		t.Error("a's project has b's field")
	}
	if _, ok := pb.FieldNamed("custentity_a_region"); ok {
		t.Error("b's project has a's field")
	}
	code, _ := Lookup("project")
	if len(code.AccountFields()) != 0 {
		t.Errorf("the code's project gained %v", code.AccountFields())
	}
	ca, _ := a.Lookup("customer")
	if cc, _ := Lookup("customer"); ca != cc || len(a.All()) != len(All()) {
		t.Error("a kind without account fields is not the code's")
	}
}
