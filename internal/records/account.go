package records

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
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

// AccountFieldTypes are the types an account field may have.
var AccountFieldTypes = []FieldType{TypeText, TypeDate, TypeMoney, TypeQuantity, TypeStatus}

// CheckAccountField says what is wrong with an account field for kind k,
// or nil: a plain lower-case name no field of the kind has, a label, one
// of AccountFieldTypes, and choices exactly when it is a status.
func (k *Kind) CheckAccountField(f Field) error {
	switch {
	case !docFieldName.MatchString(f.Name):
		return fmt.Errorf("%q is not a lower-case field id", f.Name)
	case strings.TrimSpace(f.Label) == "":
		return fmt.Errorf("%s needs a label", f.Name)
	case !slices.Contains(AccountFieldTypes, f.Type):
		return fmt.Errorf("%s: type %q is not one of %v", f.Name, f.Type, AccountFieldTypes)
	case (f.Type == TypeStatus) != (len(f.Choices) > 0):
		return fmt.Errorf("%s: a status field, and only a status field, lists its choices", f.Name)
	}
	if have, taken := k.FieldNamed(f.Name); taken && !(have.Doc() && !have.Account && have.Type == f.Type) {
		return fmt.Errorf("%s is already a field of %s", f.Name, k.Plural)
	}
	return nil
}

// AccountField completes an account field of kind k: its column, and
// what follows from its type (sortable, filterable, summable, currency).
func AccountField(name, label string, t FieldType, choices []string) Field {
	f := Field{Name: name, Label: label, Column: DocColumn(name), Type: t, Choices: choices, Account: true}
	f.complete()
	return f
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

// docValue is a document field's value as a list shows it: from the
// list query's Extra when it read it, else from the document (see
// docJSONValue).
func (r Record) docValue(f Field) any {
	if v, ok := r.Extra[f.Name]; ok {
		return v
	}
	var doc map[string]json.RawMessage
	if json.Unmarshal(r.Fields, &doc) != nil {
		return nil
	}
	return f.docJSONValue(doc[f.Name])
}

// docJSONValue is a document field's value, from its JSON in the
// document, as rows and pages show it: a reference as Ref, a status or a
// list value as its display text, numbers as float64 (the ERP may send
// them as text), a boolean as bool; nil for a missing or empty value.
func (f Field) docJSONValue(raw json.RawMessage) any {
	var v any
	if len(raw) == 0 || json.Unmarshal(raw, &v) != nil {
		return nil
	}
	var id string
	if m, ok := v.(map[string]any); ok {
		v = m["refName"]
		id, _ = m["id"].(string)
		if n, isNum := m["id"].(float64); isNum {
			id = strconv.FormatFloat(n, 'f', -1, 64)
		}
	}
	switch x := v.(type) {
	case string:
		return f.FromText(x, id)
	case float64:
		return f.FromText(strconv.FormatFloat(x, 'f', -1, 64), id)
	case bool:
		return f.FromText(strconv.FormatBool(x), id)
	}
	return nil
}

// FromText is a document field's value from its text (a list value's or
// a reference's refName, with the reference's id), as rows and pages show
// it: nil when empty; a Ref for a reference (nil without an id); float64
// for numbers; bool for a boolean ("true", "1" or NetSuite's "T" is
// true); else the text.
func (f Field) FromText(text, id string) any {
	if text == "" && (f.Type != TypeRef || id == "") {
		return nil
	}
	switch {
	case f.Type == TypeRef:
		n, err := strconv.ParseInt(id, 10, 64)
		if err != nil || n <= 0 {
			return nil
		}
		return Ref{ID: n, RefName: text}
	case f.Type.Numeric():
		n, err := strconv.ParseFloat(text, 64)
		if err != nil {
			return nil
		}
		return n
	case f.Type == TypeBoolean:
		return text == "true" || text == "1" || text == "T"
	}
	return text
}
