package records

import (
	"encoding/json"
	"github.com/portico/portico/internal/jsonenc"
	"sort"
	"strconv"
	"strings"
	"time"
)

// ColumnInfo describes one column of a list or tab answer.
type ColumnInfo struct {
	Name     string    `json:"name"`
	Label    string    `json:"label"`
	Type     FieldType `json:"type"`
	Sortable bool      `json:"sortable"`
	Summable bool      `json:"summable,omitempty"`
	Currency string    `json:"currency,omitempty"`
}

// Ref is a reference value as NetSuite writes it.
type Ref struct {
	ID      int64  `json:"id"`
	RefName string `json:"refName"`
}

// Row is one record of a list: "id" plus a value per column, and, when
// it shows money in a currency other than the base currency, that
// currency's code under RowCurrency.
type Row map[string]any

// RowCurrency is the key of a row's currency: not a field name (those
// start with a letter), so no column can hide it.
const RowCurrency = "_currency"

// Columns describes the named fields as list columns; unknown names are
// skipped (a saved list may outlive a field).
func (k *Kind) Columns(names []string) []ColumnInfo {
	out := make([]ColumnInfo, 0, len(names))
	for _, n := range names {
		if f, ok := k.FieldNamed(n); ok {
			out = append(out, ColumnInfo{Name: f.Name, Label: f.Label, Type: f.Type, Sortable: f.Sortable,
				Summable: f.Summable})
		}
	}
	return out
}

// Row renders a record's values for the given columns (Field.cell).
func (k *Kind) Row(r Record, cols []ColumnInfo) Row {
	row := Row{"id": r.ID}
	for _, c := range cols {
		f, _ := k.FieldNamed(c.Name)
		row[c.Name] = f.cell(r).any()
		if r.Currency != "" && k.UnitOf(f).Currency {
			row[RowCurrency] = r.Currency
		}
	}
	return row
}

// cell is the field's value in record r as rows show it: references as
// {id, refName}, amounts as numbers, nil for none; a document field's is
// read from what the list query read (Record.Extra), else the document.
// Unboxed: rows written straight to JSON (RecordRows) read their values
// without an allocation each.
func (f Field) cell(r Record) cellValue {
	switch f.Column {
	case ColTitle:
		return cellValue{kind: cellText, text: r.Title}
	case ColCode:
		return cellValue{kind: cellText, text: r.Code}
	case ColStatus:
		return cellValue{kind: cellText, text: r.Status}
	case ColDate:
		if r.Date == "" {
			return cellValue{}
		}
		return cellValue{kind: cellText, text: r.Date}
	case ColAmount:
		if r.Amount == nil {
			return cellValue{}
		}
		return cellValue{kind: cellNumber, number: float64(*r.Amount) / 100}
	case ColParent, ColProject:
		ref := Ref{ID: r.ParentID, RefName: r.ParentName}
		if f.Column == ColProject {
			ref = Ref{ID: r.ProjectID, RefName: r.ProjectName}
		}
		if ref.ID == 0 {
			return cellValue{}
		}
		return cellValue{kind: cellRef, ref: ref}
	}
	return cellValue{kind: cellOther, other: r.docValue(f)}
}

// cellValue is a cell's value: nil, a text, a number, a reference or
// (from a document) any value.
type cellValue struct {
	kind   cellKind
	text   string
	number float64
	ref    Ref
	other  any
}

type cellKind uint8

const (
	cellNil cellKind = iota
	cellText
	cellNumber
	cellRef
	cellOther
)

func (v cellValue) any() any {
	switch v.kind {
	case cellText:
		return v.text
	case cellNumber:
		return v.number
	case cellRef:
		return v.ref
	case cellOther:
		return v.other
	}
	return nil
}

// appendJSON appends the value as encoding/json writes v.any().
func (v cellValue) appendJSON(b []byte) ([]byte, error) {
	switch v.kind {
	case cellText:
		return jsonenc.AppendString(b, v.text), nil
	case cellNumber:
		return appendJSONFloat(b, v.number)
	case cellRef:
		return appendJSONRef(b, v.ref), nil
	}
	return appendJSONValue(b, v.any())
}

// ViewField is one labelled value of a record page.
type ViewField struct {
	Name  string    `json:"name"`
	Label string    `json:"label"`
	Type  FieldType `json:"type"`
	Value any       `json:"value"`
}

// FieldGroup is a titled block of a record page.
type FieldGroup struct {
	Label  string      `json:"label"`
	Fields []ViewField `json:"fields"`
}

// RelatedLink points at a record this one refers to.
type RelatedLink struct {
	Type string `json:"type"`
	ID   int64  `json:"id"`
	Name string `json:"name"`
}

// View is a record page's content.
type View struct {
	ID      int64         `json:"id"`
	Type    string        `json:"type"`
	Title   string        `json:"title"`
	Code    string        `json:"code"`
	Status  string        `json:"status"`
	ERPURL  *string       `json:"erpUrl"`
	Groups  []FieldGroup  `json:"groups"`
	Tabs    []Tab         `json:"tabs"`
	Related []RelatedLink `json:"related"`
	// Version is the record's last change: an edit sends it back, and is
	// refused when the record changed since (optimistic concurrency).
	Version time.Time `json:"version"`
	// Write is where the portal's last write of the record stands with
	// the ERP.
	Write WriteState `json:"write"`
	// Currency is the ISO 4217 code of the record's money values when
	// they are not in the base currency (Record.Currency).
	Currency string `json:"currency,omitempty"`
	// Completing says the whole document is being fetched from the ERP
	// (sublists a pull does not read): the page asks again shortly.
	Completing bool `json:"completing,omitempty"`
	// CanApprove says the record waits for a decision the caller may
	// make (Guard.MayDecide).
	CanApprove bool `json:"canApprove,omitempty"`
}

// View renders a record page: the promoted fields as "Summary", the
// document's fields as "Details" (sublists become tabs, not fields).
// erpBase is the ERP UI's origin, prefixed to the link template.
func (k *Kind) View(r Record, erpBase string) View {
	return k.ViewWithDetails(r, erpBase, k.Details(r))
}

// ViewWithDetails is View with the "Details" group already made (by
// Details, for the same record version): a caller may keep it per version.
func (k *Kind) ViewWithDetails(r Record, erpBase string, details FieldGroup) View {
	promoted := k.Promoted()
	v := View{ID: r.ID, Type: k.Name, Title: r.Title, Code: r.Code, Status: r.Status, Tabs: k.Tabs, Related: []RelatedLink{},
		Version: r.ModifiedAt, Write: r.Write, Currency: r.Currency}
	if link := k.Link(r.ID); link != "" {
		u := strings.TrimSuffix(erpBase, "/") + link
		v.ERPURL = &u
	}
	summary := FieldGroup{Label: "Summary"}
	for _, f := range promoted {
		value := f.cell(r).any()
		summary.Fields = append(summary.Fields, ViewField{Name: f.Name, Label: f.Label, Type: f.Type, Value: value})
		if ref, ok := value.(Ref); ok {
			v.Related = append(v.Related, RelatedLink{Type: f.Ref, ID: ref.ID, Name: ref.RefName})
		}
	}
	v.Groups = []FieldGroup{summary}
	if len(details.Fields) > 0 {
		v.Groups = append(v.Groups, details)
	}
	return v
}

// Details is the "Details" group of a record page: the kind's document
// fields that have a value, in registry order, with their labels, types
// and typed values; then the other plain fields of the document, sorted
// by name. It decodes the document one level deep: sublists (arrays,
// often the bulk of it) are skipped undecoded; they belong to the tabs.
// Its result is never changed afterwards, so it may be shared.
func (k *Kind) Details(r Record) FieldGroup {
	details := FieldGroup{Label: "Details"}
	var doc map[string]json.RawMessage
	json.Unmarshal(r.Fields, &doc)
	declared := k.DocFields()
	for _, f := range declared {
		raw, ok := doc[f.Name]
		if !ok {
			continue
		}
		if v := f.docJSONValue(raw); v != nil {
			details.Fields = append(details.Fields, ViewField{Name: f.Name, Label: f.Label, Type: f.Type, Value: v})
		}
	}
	keys := make([]string, 0, len(doc))
	for key := range doc {
		keys = append(keys, key)
	}
	sort.Strings(keys)
	for _, key := range keys {
		raw := doc[key]
		if _, known := k.FieldNamed(key); known || key == "id" || len(raw) == 0 || raw[0] == '[' || raw[0] == 'n' {
			continue
		}
		if raw[0] == '{' {
			var ref struct{ RefName *string }
			if json.Unmarshal(raw, &ref) == nil && ref.RefName != nil {
				details.Fields = append(details.Fields, ViewField{Name: key, Label: labelOf(key), Type: TypeText, Value: *ref.RefName})
			}
			continue
		}
		var val any // a string, number or boolean
		if json.Unmarshal(raw, &val) == nil {
			details.Fields = append(details.Fields, ViewField{Name: key, Label: labelOf(key), Type: TypeText, Value: val})
		}
	}
	return details
}

// Sublist returns tab t's sublist of the record's document as columns and
// rows. A tab that declares its Columns (TabLines) shows those members,
// in that order; others (the catch-all tabs) show the union of their
// entries' plain members, as text, sorted by name. A member that refers
// to a record shows its refName.
func Sublist(r Record, t Tab) ([]ColumnInfo, []Row) {
	var doc map[string]json.RawMessage
	json.Unmarshal(r.Fields, &doc)
	var entries []map[string]any
	json.Unmarshal(doc[t.Name], &entries)
	declared := make(map[string]bool, len(t.Columns))
	for _, c := range t.Columns {
		declared[c.Name] = true
	}
	seen := map[string]bool{}
	var cols []ColumnInfo
	rows := make([]Row, 0, len(entries))
	for i, e := range entries {
		row := Row{"id": int64(i + 1)}
		for key, val := range e {
			switch v := val.(type) {
			case map[string]any:
				val = v["refName"]
			case []any:
				continue
			}
			if len(t.Columns) > 0 {
				if !declared[key] {
					continue
				}
			} else if !seen[key] {
				seen[key] = true
				cols = append(cols, ColumnInfo{Name: key, Label: labelOf(key), Type: TypeText})
			}
			row[key] = val
		}
		rows = append(rows, row)
	}
	if len(t.Columns) > 0 {
		return t.Columns, rows
	}
	sort.Slice(cols, func(i, j int) bool { return cols[i].Name < cols[j].Name })
	return cols, rows
}

// RelatedColumn is the promoted column of kind k that refers to a record
// of kind target (its parent or its project), so a tab can list k's
// records of one target record.
func (k *Kind) RelatedColumn(target string) (Column, bool) {
	for _, f := range k.Promoted() {
		if f.Type == TypeRef && f.Ref == target {
			return f.Column, true
		}
	}
	return "", false
}

// TabTarget says whose records a related tab lists: this record's own
// (kind k, rec.ID), or for a tab with Through, the record it refers to in
// that column (0 when it refers to none).
func (k *Kind) TabTarget(t Tab, rec Record) (kind string, id int64) {
	if t.Through == "" {
		return k.Name, rec.ID
	}
	f, _ := k.Field(t.Through)
	if t.Through == ColProject {
		return f.Ref, rec.ProjectID
	}
	return f.Ref, rec.ParentID
}

// TabNamed returns the kind's tab of that name.
func (k *Kind) TabNamed(name string) (Tab, bool) {
	for _, t := range k.Tabs {
		if t.Name == name {
			return t, true
		}
	}
	return Tab{}, false
}

func fieldNames(fs []Field) []string {
	out := make([]string, len(fs))
	for i, f := range fs {
		out[i] = f.Name
	}
	return out
}

// labelOf turns an ERP field id into a readable label:
// "custrecord_res_pr_owner" → "Owner", "lastModifiedDate" → "Last modified date".
func labelOf(key string) string {
	if l, ok := standardLabels[strings.ToLower(key)]; ok {
		return l
	}
	for _, p := range []string{"custrecord_res_", "custentity_res_", "custbody_res_", "custentity_", "custrecord_"} {
		if strings.HasPrefix(key, p) {
			key = key[len(p):]
			if i := strings.IndexByte(key, '_'); i > 0 && i <= 3 {
				key = key[i+1:] // drop the record's short prefix (pr_, vq_, ...)
			}
			break
		}
	}
	var b strings.Builder
	for i, r := range key {
		switch {
		case r == '_':
			b.WriteByte(' ')
		case r >= 'A' && r <= 'Z' && i > 0:
			b.WriteByte(' ')
			b.WriteRune(r + 'a' - 'A')
		default:
			b.WriteRune(r)
		}
	}
	s := b.String()
	if s == "" {
		return key
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// standardLabels names NetSuite's run-together standard field ids, which
// labelOf cannot split by case or underscores.
var standardLabels = map[string]string{
	"isinactive": "Inactive", "jobbillingtype": "Billing type", "projectedenddate": "Projected end date",
	"percentcomplete": "Percent complete", "projectmanager": "Project manager", "huc": "HUC",
	"datecreated": "Date created", "lastmodifieddate": "Last modified", "startdate": "Start date",
	"enddate": "End date", "duedate": "Due date", "trandate": "Date", "tranid": "Number",
	"entityid": "ID", "companyname": "Company name", "subsidiary": "Subsidiary", "currency": "Currency",
	"terms": "Terms", "salesrep": "Sales rep", "email": "Email", "phone": "Phone", "amountpaid": "Amount paid",
	"amountremaining": "Amount remaining", "approvalstatus": "Approval status", "hiredate": "Hire date",
	"laborcost": "Labor cost", "title": "Job title", "supervisor": "Supervisor", "department": "Department",
}

// ParseID reads a positive record id.
func ParseID(s string) (int64, bool) {
	id, err := strconv.ParseInt(s, 10, 64)
	return id, err == nil && id > 0
}
