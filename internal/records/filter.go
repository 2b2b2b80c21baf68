package records

import (
	"errors"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/portico/portico/internal/portal"
)

// Op is a filter comparison.
type Op string

// The filter operators.
const (
	OpEq         Op = "eq"
	OpNe         Op = "ne"
	OpLt         Op = "lt"
	OpLe         Op = "le"
	OpGt         Op = "gt"
	OpGe         Op = "ge"
	OpContains   Op = "contains"   // text fields only; case-insensitive
	OpStartsWith Op = "startswith" // text fields only; case-insensitive
	// OpIn holds when a reference column (or ColID) is one of a []int64
	// of record ids, or one of the records a Within matches. It is not in
	// the grammar: access rules make it (see Guard).
	OpIn Op = "in"
)

var ops = map[Op]bool{OpEq: true, OpNe: true, OpLt: true, OpLe: true, OpGt: true, OpGe: true, OpContains: true, OpStartsWith: true}

// Cond compares one field's column with a typed value: string for text,
// status and date fields, int64 for references and amounts (hundredths),
// float64 for percents and numbers, bool for booleans.
type Cond struct {
	Column Column
	Type   FieldType // the field's type: how an account field's document value compares
	Op     Op
	Value  any
}

// meRef is the value of a condition on a reference to an employee
// compared with Me in a list's filter ("nextapprover eq $me"): the
// signed-in user's employee record, which only the caller's Guard knows.
// Guard.Narrow, which every list, count, total and tally of a kind goes
// through, replaces it (Filter.resolveMe); the store refuses a condition
// still holding it.
type meRef struct{}

// resolveMe returns f with every Me value replaced by id (the user's
// employee record, 0 for none: no record is id 0, so "eq" then matches
// nothing and "ne" everything), sharing nothing it changes with f.
func (f Filter) resolveMe(id int64) Filter {
	var out Filter
	for _, conj := range f.Any {
		if slices.ContainsFunc(conj, isMe) {
			conj = slices.Clone(conj)
			for i := range conj {
				if isMe(conj[i]) {
					conj[i].Value = id
				}
			}
		}
		out.Any = append(out.Any, conj)
	}
	for _, g := range f.All {
		out.All = append(out.All, g.resolveMe(id))
	}
	return out
}

// mentionsMe reports whether a condition of f compares with Me.
func (f Filter) mentionsMe() bool {
	return slices.ContainsFunc(f.Any, func(conj []Cond) bool { return slices.ContainsFunc(conj, isMe) }) ||
		slices.ContainsFunc(f.All, Filter.mentionsMe)
}

func isMe(c Cond) bool { _, ok := c.Value.(meRef); return ok }

// Filter is a disjunction of conjunctions: Any[i] holds when all of its
// conditions hold ("and" binds tighter than "or"), and so must each filter
// of All. All is how filters are combined (a saved list's, the request's, a
// path's scope): each is kept whole, as its own parenthesised disjunction,
// so a query carries the sum of its filters' conditions, never their
// product. The zero Filter matches every record.
type Filter struct {
	Any [][]Cond
	All []Filter
}

// MaxFilterLength bounds a filter expression; longer ones are refused.
const MaxFilterLength = 2000

// The cost bound of a query's filters: every condition is evaluated on each
// row a list walks, so a query's work grows with their number (a walk of a
// million projects took 0.29 s with one "contains", 1.6 s with 10 and 8.3 s
// with 50, on SQLite). A filter (one parsed expression: a builder of 50
// rows, a pasted list of 50 ids) may have at most MaxFilterConditions; the
// filters a query combines (saved list, request, page scope) at most
// MaxQueryConditions together. Either is a 400 naming the filter; the
// request's database deadline caps what a walk within the bound costs.
const (
	MaxFilterConditions = 50
	MaxQueryConditions  = 80
)

// ErrTooManyConditions is the cause of the error a filter over the cost
// bound gets (errors.Is sees it through the portal.Error).
var ErrTooManyConditions = errors.New("too many filter conditions")

var token = regexp.MustCompile(`\s*(?:"((?:[^"\\]|\\.)*)"|([^\s"]+))`)

// ParseFilter parses the list filter grammar against kind's fields:
//
//	expr := term { ("and" | "or") term }     — "and" binds tighter than "or"
//	term := field op value
//	op   := eq | ne | lt | le | gt | ge | contains | startswith
//	value := bare-word | "double-quoted, with \" and \\ escapes"
//
// Fields are the kind's promoted field names (entityid, entitystatus, ...).
// Values are checked against the field's type: a status must be one of its
// choices, a date is yyyy-mm-dd, an amount a decimal number, a reference a
// record id; contains and startswith apply to text fields only. A filter
// has at most MaxFilterConditions conditions. Every error is a CodeInvalid
// error naming the offending part.
func ParseFilter(k *Kind, expr string) (Filter, error) {
	return parseTerms(expr, k.cond)
}

// parseTerms parses the grammar's and/or structure of expr, making each
// term's condition with term (field, operator and value as written).
func parseTerms(expr string, term func(field, op, value string) (Cond, error)) (Filter, error) {
	var f Filter
	if strings.TrimSpace(expr) == "" {
		return f, nil
	}
	if len(expr) > MaxFilterLength {
		return f, badFilter("The filter is longer than %d characters.", MaxFilterLength)
	}
	var toks []string
	rest := expr
	for strings.TrimSpace(rest) != "" {
		m := token.FindStringSubmatchIndex(rest)
		if m == nil || m[0] != 0 {
			return f, badFilter("The filter has an unterminated quote.")
		}
		if m[2] >= 0 {
			toks = append(toks, "\x00"+unescape(rest[m[2]:m[3]])) // quoted: never a keyword
		} else {
			toks = append(toks, rest[m[4]:m[5]])
		}
		rest = rest[m[1]:]
	}
	conj := []Cond{}
	n := 0 // conditions so far
	for i := 0; ; {
		if i+3 > len(toks) {
			return f, badFilter("The filter ends early: each condition is field, operator, value (e.g. entitystatus eq Active).")
		}
		c, err := term(strings.TrimPrefix(toks[i], "\x00"), toks[i+1], strings.TrimPrefix(toks[i+2], "\x00"))
		if err != nil {
			return f, err
		}
		conj = append(conj, c)
		if n++; n > MaxFilterConditions {
			return Filter{}, tooManyConditions("A filter may have at most %d conditions; this one has more.", MaxFilterConditions)
		}
		i += 3
		if i == len(toks) {
			f.Any = append(f.Any, conj)
			return f, nil
		}
		switch strings.ToLower(toks[i]) {
		case "and":
		case "or":
			f.Any = append(f.Any, conj)
			conj = []Cond{}
		default:
			return f, badFilter("Expected \"and\" or \"or\" before %q.", strings.TrimPrefix(toks[i], "\x00"))
		}
		i++
	}
}

func unescape(s string) string {
	return strings.NewReplacer(`\"`, `"`, `\\`, `\`).Replace(s)
}

func tooManyConditions(format string, args ...any) error {
	err := badFilter(format, args...).(*portal.Error)
	err.Err = ErrTooManyConditions
	return err
}

func badFilter(format string, args ...any) error {
	return &portal.Error{Code: portal.CodeInvalid, Message: fmt.Sprintf(format, args...),
		Fields: []portal.FieldError{{Field: "filter", Message: fmt.Sprintf(format, args...)}}}
}

// FieldNamed returns the kind's field with that ERP name: promoted,
// document or account field.
func (k *Kind) FieldNamed(name string) (Field, bool) {
	for _, fs := range [][]Field{k.Fields, k.Document} {
		for _, f := range fs {
			if f.Name == name {
				return f, true
			}
		}
	}
	return Field{}, false
}

func (k *Kind) fieldNames() string {
	var names []string
	for _, f := range k.AllFields() {
		names = append(names, f.Name)
	}
	return strings.Join(names, ", ")
}

func (k *Kind) cond(field, op, value string) (Cond, error) {
	f, ok := k.FieldNamed(field)
	if !ok {
		return Cond{}, badFilter("Unknown field %q; %s has %s.", field, k.Plural, k.fieldNames())
	}
	o := Op(strings.ToLower(op))
	if !ops[o] {
		return Cond{}, badFilter("Unknown operator %q after %s; use eq, ne, lt, le, gt, ge, contains or startswith.", op, field)
	}
	// Past here the field is known: it is named as the filter builder
	// and the list's column show it (its label), not by its ERP name.
	name := f.Label
	if !slices.Contains(f.Type.Operators(), o) {
		switch {
		case o == OpContains || o == OpStartsWith:
			return Cond{}, badFilter("%s works on text fields only, not on %s.", o, name)
		case f.Type == TypeBoolean:
			return Cond{}, badFilter("%s is true or false: compare it with eq or ne.", name)
		}
		return Cond{}, badFilter("%s is compared with %s, not %s.", name, joinOps(f.Type.Operators()), o)
	}
	v, err := f.ParseValue(value)
	if err != nil {
		return Cond{}, badFilter("%s: %s.", name, err.Error())
	}
	return Cond{Column: f.Column, Type: f.Type, Op: o, Value: v}, nil
}

// Operators are the comparisons a filter may make on a field of type t,
// in the order a filter builder offers them (the first is its default):
// text is matched (contains, startswith) or compared whole; a status, a
// reference and a yes/no are or are not a value; numbers, amounts and
// dates are ordered too. /api/v1/kinds serves them with each filterable
// field (Field.MarshalJSON): the app's filter builder offers those.
func (t FieldType) Operators() []Op {
	switch {
	case t.Textual():
		return []Op{OpContains, OpEq, OpNe, OpStartsWith}
	case t.Numeric() || t == TypeDate:
		return []Op{OpEq, OpNe, OpLt, OpLe, OpGt, OpGe}
	}
	return []Op{OpEq, OpNe}
}

// joinOps is ops as a filter's text names them: "eq, ne or lt".
func joinOps(ops []Op) string {
	names := make([]string, len(ops))
	for i, o := range ops {
		names[i] = string(o)
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// ParseValue converts text to the field's typed value (see Cond).
func (f Field) ParseValue(s string) (any, error) {
	switch f.Type {
	case TypeStatus:
		for _, c := range f.Choices {
			if strings.EqualFold(c, s) {
				return c, nil
			}
		}
		return nil, fmt.Errorf("%q is not one of %s", s, strings.Join(f.Choices, ", "))
	case TypeDate:
		if _, err := time.Parse(time.DateOnly, s); err != nil {
			return nil, fmt.Errorf("%q is not a date like 2024-01-31", s)
		}
		return s, nil
	case TypeRef:
		if s == Me && f.Ref == "employee" {
			return meRef{}, nil
		}
		id, err := strconv.ParseInt(s, 10, 64)
		if err != nil || id <= 0 {
			return nil, fmt.Errorf("%q is not a record id", s)
		}
		return id, nil
	case TypeMoney, TypeQuantity, TypePercent, TypeNumber:
		x, err := strconv.ParseFloat(strings.TrimSuffix(s, "%"), 64)
		if err != nil || math.IsNaN(x) || math.IsInf(x, 0) || math.Abs(x) > 1e15 {
			return nil, fmt.Errorf("%q is not a number like 1250.50", s)
		}
		if f.Type == TypePercent || f.Type == TypeNumber {
			return x, nil
		}
		return int64(math.Round(x * 100)), nil
	case TypeBoolean:
		switch strings.ToLower(s) {
		case "true", "yes":
			return true, nil
		case "false", "no":
			return false, nil
		}
		return nil, fmt.Errorf("%q is not true or false", s)
	}
	if len(s) > 200 {
		return nil, fmt.Errorf("the value is longer than 200 characters")
	}
	return s, nil
}

// And returns the filter matching records that match both f and g, each
// kept whole: (a or b) and (c or d) stays so, never a.c or a.d or b.c or
// b.d, whose size is the product of theirs.
func (f Filter) And(g Filter) Filter {
	switch parts := append(f.Parts(), g.Parts()...); len(parts) {
	case 0:
		return Filter{}
	case 1:
		return parts[0]
	default:
		return Filter{All: parts}
	}
}

// Parts returns the disjunctions that must each hold, none of them empty
// and none with All of its own: f's Any, then its All's, in order.
func (f Filter) Parts() []Filter {
	var parts []Filter
	if len(f.Any) > 0 {
		parts = append(parts, Filter{Any: f.Any})
	}
	for _, g := range f.All {
		parts = append(parts, g.Parts()...)
	}
	return parts
}

// Conditions counts f's conditions, the measure of its cost.
func (f Filter) Conditions() int {
	n := 0
	for _, conj := range f.Any {
		n += len(conj)
	}
	for _, g := range f.All {
		n += g.Conditions()
	}
	return n
}

// CheckCost refuses a query's filter over the cost bound: a CodeInvalid
// error naming the filter, wrapping ErrTooManyConditions.
func (f Filter) CheckCost() error {
	for _, p := range f.Parts() {
		if p.Conditions() > MaxFilterConditions {
			return tooManyConditions("A filter may have at most %d conditions; this one has %d.", MaxFilterConditions, p.Conditions())
		}
	}
	if n := f.Conditions(); n > MaxQueryConditions {
		return tooManyConditions("The list's filters may have at most %d conditions together (the saved list's, the request's and the page's); these have %d.", MaxQueryConditions, n)
	}
	return nil
}
