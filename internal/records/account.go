package records

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
)

// Account fields are fields an ERP account adds to a kind (its own custom
// fields, custentity_…, custbody_…, custrecord_…): declared in the ERP
// mapping with a label and a type, kept in the record's document rather
// than in a promoted column, and listed, filtered, sorted, shown and
// edited like the registry's own fields. Their column is DocColumn(name).

// docPrefix marks the column of an account field.
const docPrefix = "fields."

// DocColumn is the column of an account field: the document member name.
func DocColumn(name string) Column { return Column(docPrefix + name) }

// DocField returns the document member an account field's column reads;
// ok is false for a promoted column.
func (c Column) DocField() (name string, ok bool) {
	return strings.CutPrefix(string(c), docPrefix)
}

// accountFieldName is a field id an account may add: lower case, as
// NetSuite spells custom field ids.
var accountFieldName = regexp.MustCompile(`^[a-z][a-z0-9_]{0,99}$`)

// AccountFieldTypes are the types an account field may have.
var AccountFieldTypes = []FieldType{TypeText, TypeDate, TypeMoney, TypeQuantity, TypeStatus}

// CheckAccountField says what is wrong with an account field for kind k,
// or nil: a plain lower-case name no field of the kind has, a label, one
// of AccountFieldTypes, and choices exactly when it is a status.
func (k *Kind) CheckAccountField(f Field) error {
	switch {
	case !accountFieldName.MatchString(f.Name):
		return fmt.Errorf("%q is not a lower-case field id", f.Name)
	case strings.TrimSpace(f.Label) == "":
		return fmt.Errorf("%s needs a label", f.Name)
	case !slices.Contains(AccountFieldTypes, f.Type):
		return fmt.Errorf("%s: type %q is not one of %v", f.Name, f.Type, AccountFieldTypes)
	case (f.Type == TypeStatus) != (len(f.Choices) > 0):
		return fmt.Errorf("%s: a status field, and only a status field, lists its choices", f.Name)
	}
	if _, taken := k.FieldNamed(f.Name); taken {
		return fmt.Errorf("%s is already a field of %s", f.Name, k.Plural)
	}
	return nil
}

// AccountField completes an account field of kind k: its column, sortable.
func AccountField(name, label string, t FieldType, choices []string) Field {
	return Field{Name: name, Label: label, Column: DocColumn(name), Type: t, Choices: choices, Account: true, Sortable: true}
}

// AddAccountFields adds an account's fields to a kind of the registry, so
// that the API, lists, filters, forms and record pages offer them: the
// registry becomes the code's kinds plus the account's additions. It is
// meant for start-up, before the registry is read by anything else (the
// registry is not locked); fields already added are skipped, so a second
// call with the same fields changes nothing.
func AddAccountFields(kind string, fs []Field) error {
	k, ok := Lookup(kind)
	if !ok {
		return fmt.Errorf("records: unknown kind %q", kind)
	}
	for _, f := range fs {
		if have, ok := k.FieldNamed(f.Name); ok && have.Account && have.Type == f.Type {
			continue
		}
		if err := k.CheckAccountField(f); err != nil {
			return fmt.Errorf("records: account field of %s: %w", kind, err)
		}
		k.Fields = append(k.Fields, AccountField(f.Name, f.Label, f.Type, f.Choices))
	}
	return nil
}

// AccountFields returns the kind's account fields, in the order added.
func (k *Kind) AccountFields() []Field {
	var out []Field
	for _, f := range k.Fields {
		if f.Account {
			out = append(out, f)
		}
	}
	return out
}

// docValue is an account field's value as a list shows it: from the
// list query's Extra when it read it, else from the document. A status is
// its display text, an amount a number.
func (r Record) docValue(f Field) any {
	name, _ := f.Column.DocField()
	if v, ok := r.Extra[name]; ok {
		return v
	}
	var doc map[string]any
	if json.Unmarshal(r.Fields, &doc) != nil {
		return nil
	}
	v := doc[name]
	if m, ok := v.(map[string]any); ok && f.Type == TypeStatus {
		v, _ = m["refName"].(string)
	}
	if s, ok := v.(string); ok && s == "" {
		return nil
	}
	return v
}
