package records

import (
	"encoding/json"
	"fmt"
	"math"
	"net/mail"
	"net/url"
	"regexp"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/portico/portico/internal/portal"
)

// The document fields held as list values whose choices are the account's
// (terms, a project's type, a state: a Field.named text) are read-only on
// forms: the portal knows their text, not the internal id the ERP takes
// for a new value. Until the registry lists their choices, they are shown
// and never set here.
func init() {
	for _, k := range registry {
		for i, f := range k.Document {
			if f.named && f.Type == TypeText {
				k.Document[i].ReadOnly = true
			}
		}
	}
}

// Create and edit forms (issue 6, issue 16). A kind's form is every field
// it has that is not ReadOnly: the promoted fields, its document fields and
// the account's own; their types, Required, Choices and Ref (a lookup of
// another kind) are the one schema the server validates against and the
// app (through /kinds) validates with first. ParseInput is the one place
// a submission is checked.

// MaxText is the longest text value a form accepts, in characters.
const MaxText = 200

// Input is a validated form submission: field name → value, typed by the
// field: string (text, status, email, phone, url; date "" or yyyy-mm-dd),
// *int64 (money and quantity in hundredths, nil to clear), *float64
// (percent and number, nil to clear), bool (boolean) or int64 (a
// reference id, 0 for none). Fields the submission left out are absent.
type Input map[string]any

// ParseInput checks a submission against the kind's form. On create every
// required field must be present and non-empty; on edit only the fields
// sent are checked (and a required one may not be emptied). Each problem is
// one field error in words a person understands: an unknown field is one,
// and so is a ReadOnly field (never dropped silently: the sender believes
// it set it).
func (k *Kind) ParseInput(raw map[string]json.RawMessage, creating bool) (Input, []portal.FieldError) {
	in := Input{}
	var errs []portal.FieldError
	add := func(field, format string, args ...any) {
		errs = append(errs, portal.FieldError{Field: field, Message: fmt.Sprintf(format, args...)})
	}
	for name := range raw {
		switch f, ok := k.FieldNamed(name); {
		case !ok:
			add(name, "This field is not on the %s form.", strings.ToLower(k.Label))
		case f.ReadOnly:
			add(name, "%s is set by the system and cannot be changed here.", f.Label)
		}
	}
	for _, f := range k.AllFields() {
		if f.ReadOnly {
			continue
		}
		v, sent := raw[f.Name]
		if !sent || string(v) == "null" {
			if f.Required && (creating || sent) {
				add(f.Name, "%s is required.", f.Label)
			}
			if sent {
				in[f.Name] = zeroOf(f)
			}
			continue
		}
		val, msg := parseValue(f, v)
		if msg != "" {
			add(f.Name, "%s", msg)
			continue
		}
		if f.Required && isEmpty(val) {
			add(f.Name, "%s is required.", f.Label)
			continue
		}
		in[f.Name] = val
	}
	return in, errs
}

func zeroOf(f Field) any {
	switch f.Type {
	case TypeRef:
		return int64(0)
	case TypeMoney, TypeQuantity:
		return (*int64)(nil)
	case TypePercent, TypeNumber:
		return (*float64)(nil)
	case TypeBoolean:
		return false
	}
	return ""
}

func isEmpty(v any) bool {
	switch v := v.(type) {
	case string:
		return v == ""
	case int64:
		return v == 0
	case *int64:
		return v == nil
	case *float64:
		return v == nil
	}
	return false // a boolean always has a value
}

// parseValue reads one field's JSON value, or says what is wrong with it.
func parseValue(f Field, raw json.RawMessage) (any, string) {
	switch f.Type {
	case TypeRef:
		var id int64
		if json.Unmarshal(raw, &id) != nil {
			var ref Ref // the shape the view answers: {id, refName}
			if json.Unmarshal(raw, &ref) != nil {
				return nil, fmt.Sprintf("Choose a %s.", strings.ToLower(refLabel(f)))
			}
			id = ref.ID
		}
		if id < 0 {
			return nil, fmt.Sprintf("Choose a %s.", strings.ToLower(refLabel(f)))
		}
		return id, ""
	case TypeMoney, TypeQuantity:
		var n float64
		if json.Unmarshal(raw, &n) != nil {
			return nil, "Enter a number."
		}
		cents := math.Round(n * 100)
		if math.Abs(n*100-cents) > 1e-6 {
			return nil, "Use at most two decimals."
		}
		if n < 0 || cents > 1e15 {
			return nil, "Enter an amount from 0 to 10,000,000,000,000."
		}
		c := int64(cents)
		return &c, ""
	case TypePercent, TypeNumber:
		var n float64
		if json.Unmarshal(raw, &n) != nil || math.IsNaN(n) || math.IsInf(n, 0) {
			return nil, "Enter a number."
		}
		if f.Type == TypePercent {
			if math.Abs(n*100-math.Round(n*100)) > 1e-6 {
				return nil, "Use at most two decimals."
			}
			if n < 0 || n > 100 {
				return nil, "Enter a percentage from 0 to 100."
			}
		} else if math.Abs(n) > maxNumber {
			return nil, "Enter a number from -1,000,000,000,000,000 to 1,000,000,000,000,000."
		}
		return &n, ""
	case TypeBoolean:
		var b bool
		if json.Unmarshal(raw, &b) != nil {
			return nil, "Choose yes or no."
		}
		return b, ""
	}
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return nil, "Enter text."
	}
	s = strings.TrimSpace(s)
	switch {
	case !utf8.ValidString(s) || strings.ContainsFunc(s, func(r rune) bool { return r < ' ' }):
		return nil, "Remove the control characters."
	case utf8.RuneCountInString(s) > MaxText:
		return nil, fmt.Sprintf("Keep it under %d characters.", MaxText+1)
	}
	switch f.Type {
	case TypeStatus:
		if s != "" && !contains(f.Choices, s) {
			return nil, fmt.Sprintf("Choose one of: %s.", strings.Join(f.Choices, ", "))
		}
	case TypeDate:
		if s != "" {
			if _, err := time.Parse(time.DateOnly, s); err != nil {
				return nil, "Enter a date as yyyy-mm-dd."
			}
		}
	case TypeEmail:
		if s != "" && !isEmail(s) {
			return nil, "Enter an email address such as name@example.com."
		}
	case TypePhone:
		if s != "" && !isPhone(s) {
			return nil, "Enter a phone number of 7 to 15 digits, such as +1 919 555 0100."
		}
	case TypeURL:
		if s != "" && !isWebAddress(s) {
			return nil, "Enter a web address starting with https:// or http://."
		}
	}
	return s, ""
}

// maxNumber bounds a number field's value: well inside what a float64
// holds exactly to the unit, and what the ERP's numeric fields take.
const maxNumber = 1e15

// isEmail reports whether s is one plain address, local@domain, with a
// dot in the domain (no display name, no comments).
func isEmail(s string) bool {
	a, err := mail.ParseAddress(s)
	if err != nil || a.Address != s || a.Name != "" {
		return false
	}
	at := strings.LastIndexByte(s, '@')
	domain := s[at+1:]
	return at > 0 && strings.Contains(domain, ".") && !strings.HasPrefix(domain, ".") && !strings.HasSuffix(domain, ".")
}

// phonePattern is a telephone number as people write it: an optional +,
// digits with spaces, dots, dashes or parentheses between them, and an
// optional extension (x123, ext. 123).
var phonePattern = regexp.MustCompile(`^\+?[0-9(][0-9 ().-]*[0-9](\s*(x|ext\.?)\s*[0-9]{1,6})?$`)

// isPhone reports whether s is a telephone number of 7 to 15 digits (the
// E.164 maximum), extension aside.
func isPhone(s string) bool {
	if !phonePattern.MatchString(s) {
		return false
	}
	main := strings.ToLower(s)
	if i := strings.IndexByte(main, 'x'); i >= 0 {
		main = main[:i]
	}
	digits := 0
	for _, r := range main {
		if r >= '0' && r <= '9' {
			digits++
		}
	}
	return digits >= 7 && digits <= 15
}

// isWebAddress reports whether s is an absolute http or https address
// with a host.
func isWebAddress(s string) bool {
	u, err := url.Parse(s)
	return err == nil && (u.Scheme == "https" || u.Scheme == "http") && u.Host != "" && !strings.ContainsAny(s, " \t")
}

func refLabel(f Field) string {
	if k, ok := Lookup(f.Ref); ok {
		return k.Label
	}
	return f.Label
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// Refs lists the reference fields an input sets, with the kind each must
// name a record of: the caller checks they exist and supplies their names.
func (k *Kind) Refs(in Input) map[string]string {
	out := map[string]string{}
	for _, f := range k.AllFields() {
		if id, ok := in[f.Name].(int64); ok && id != 0 && f.Type == TypeRef {
			out[f.Name] = f.Ref
		}
	}
	return out
}

// Apply returns base with the input's fields set, on the promoted columns
// and in the document (references as {id, refName}, names from refNames),
// and the document members it set: the patch a store merges into the
// stored document, so that what others added to it meanwhile (a note in
// its notes sublist) stays.
func (k *Kind) Apply(base Record, in Input, refNames map[string]string) (Record, json.RawMessage, error) {
	doc := map[string]any{}
	if len(base.Fields) > 0 {
		if err := json.Unmarshal(base.Fields, &doc); err != nil {
			return base, nil, fmt.Errorf("record %s/%d document: %w", k.Name, base.ID, err)
		}
	}
	patch := map[string]any{}
	r := base
	for _, f := range k.AllFields() {
		v, ok := in[f.Name]
		if !ok {
			continue
		}
		switch f.Column {
		case ColTitle:
			r.Title = v.(string)
		case ColCode:
			r.Code = v.(string)
		case ColStatus:
			r.Status = v.(string)
		case ColDate:
			r.Date = v.(string)
		case ColAmount:
			r.Amount = v.(*int64)
		case ColParent:
			r.ParentID, r.ParentName = v.(int64), refNames[f.Name]
		case ColProject:
			r.ProjectID, r.ProjectName = v.(int64), refNames[f.Name]
		}
		if f.Account {
			doc[f.Name] = accountDocValue(f, v)
			continue
		}
		switch val := v.(type) {
		case int64:
			if val == 0 {
				doc[f.Name] = nil
			} else {
				doc[f.Name] = Ref{ID: val, RefName: refNames[f.Name]}
			}
		case string:
			doc[f.Name] = val
		default:
			doc[f.Name] = docNumber(v)
		}
	}
	r.Fields, _ = json.Marshal(doc)
	for name := range in {
		patch[name] = doc[name]
	}
	p, _ := json.Marshal(patch)
	return r, p, nil
}

// accountDocValue is an account field's input as the document keeps it:
// a status as {"refName": text} (the shape the ERP gives list values), an
// amount as a number, empty values as null.
func accountDocValue(f Field, v any) any {
	switch val := v.(type) {
	case string:
		switch {
		case val == "":
			return nil
		case f.Type == TypeStatus:
			return map[string]string{"refName": val}
		}
		return val
	}
	return docNumber(v)
}

// refID is a reference value's id (other values as they are), for
// comparing.
func refID(v any) any {
	switch r := v.(type) {
	case Ref:
		return fmt.Sprint(r.ID)
	case map[string]any: // read back from a document
		if id, ok := r["id"]; ok {
			return fmt.Sprint(id)
		}
	}
	return v
}

// docNumber is an amount, number or boolean input as the document keeps
// it: a JSON number (amounts in units, not hundredths) or boolean, null
// when cleared.
func docNumber(v any) any {
	switch val := v.(type) {
	case *int64:
		if val != nil {
			return float64(*val) / 100
		}
	case *float64:
		if val != nil {
			return *val
		}
	case bool:
		return val
	}
	return nil
}

// Change is one field's value before and after a write, as the view shows
// them.
type Change struct {
	Before any `json:"before"`
	After  any `json:"after"`
}

// Diff returns the fields whose values differ between before and after (a
// create diffs against the zero Record). A reference differs when it names
// another record, not when the record it names was renamed.
func (k *Kind) Diff(before, after Record) map[string]Change {
	cols := k.Columns(fieldNames(k.AllFields()))
	b, a := k.Row(before, cols), k.Row(after, cols)
	out := map[string]Change{}
	for _, c := range cols {
		bj, _ := json.Marshal(refID(b[c.Name]))
		aj, _ := json.Marshal(refID(a[c.Name]))
		if string(bj) != string(aj) {
			out[c.Name] = Change{Before: b[c.Name], After: a[c.Name]}
		}
	}
	return out
}
