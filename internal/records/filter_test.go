package records

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/portico/portico/internal/portal"
)

// orTerms is n conditions joined by "or": customer eq 1 or customer eq 2 ...
func orTerms(field string, n int) string {
	terms := make([]string, n)
	for i := range terms {
		terms[i] = fmt.Sprintf("%s eq %d", field, i+1)
	}
	return strings.Join(terms, " or ")
}

func mustParse(t *testing.T, expr string) Filter {
	t.Helper()
	k, _ := Lookup("project")
	f, err := ParseFilter(k, expr)
	if err != nil {
		t.Fatalf("%q: %v", expr, err)
	}
	return f
}

// A saved list's OR filter and a request's are kept whole when combined:
// 40 and 30 terms make 70 conditions in two parts, not 1,200 conjunctions
// (the 500: "Expression tree is too large").
func TestAndKeepsEachFilterWhole(t *testing.T) {
	saved, request := mustParse(t, orTerms("customer", 40)), mustParse(t, orTerms("customer", 30))
	both := saved.And(request)
	if parts := both.Parts(); len(parts) != 2 || len(parts[0].Any) != 40 || len(parts[1].Any) != 30 {
		t.Fatalf("parts: %d", len(parts))
	}
	if n := both.Conditions(); n != 70 {
		t.Errorf("conditions = %d, want 70", n)
	}
	if err := both.CheckCost(); err != nil {
		t.Errorf("70 conditions refused: %v", err)
	}
	// The empty filter is the identity; And is associative and flat.
	if got := (Filter{}).And(saved); len(got.Parts()) != 1 || got.All != nil || len(got.Any) != 40 {
		t.Errorf("empty.And(saved) = %d parts", len(got.Parts()))
	}
	if got := saved.And(Filter{}); got.All != nil || len(got.Any) != 40 {
		t.Error("saved.And(empty) is not saved")
	}
	if got := (Filter{}).And(Filter{}); got.Conditions() != 0 || len(got.Parts()) != 0 {
		t.Error("empty.And(empty) is not empty")
	}
	scope := Filter{Any: [][]Cond{{{Column: ColProject, Op: OpEq, Value: int64(7)}}}}
	a, b := saved.And(request).And(scope), saved.And(request.And(scope))
	if len(a.Parts()) != 3 || len(b.Parts()) != 3 || a.Conditions() != 71 || b.Conditions() != 71 {
		t.Errorf("three filters: %d and %d parts", len(a.Parts()), len(b.Parts()))
	}
	for _, p := range a.Parts() {
		if p.All != nil {
			t.Error("a part has parts of its own")
		}
	}
}

// The cost bound: a filter of more than MaxFilterConditions is refused
// when parsed (a request, or a list being saved), and filters together
// over MaxQueryConditions when combined; both name the filter.
func TestFilterCostBound(t *testing.T) {
	k, _ := Lookup("project")
	if _, err := ParseFilter(k, orTerms("customer", MaxFilterConditions)); err != nil {
		t.Errorf("%d conditions: %v", MaxFilterConditions, err)
	}
	for _, expr := range []string{
		orTerms("customer", 111), // the request
		strings.ReplaceAll(orTerms("customer", MaxFilterConditions+1), " or ", " and "),
	} {
		_, err := ParseFilter(k, expr)
		assertTooMany(t, err, fmt.Sprintf("at most %d conditions", MaxFilterConditions))
	}
	// Built in code, past ParseFilter: CheckCost still holds each part and
	// the sum.
	big := Filter{Any: make([][]Cond, MaxFilterConditions+1)}
	for i := range big.Any {
		big.Any[i] = []Cond{{Column: ColParent, Op: OpEq, Value: int64(i + 1)}}
	}
	assertTooMany(t, big.CheckCost(), fmt.Sprintf("this one has %d", MaxFilterConditions+1))
	full := mustParse(t, orTerms("customer", MaxFilterConditions))
	rest := mustParse(t, orTerms("customer", MaxQueryConditions-MaxFilterConditions))
	if err := full.And(rest).CheckCost(); err != nil {
		t.Errorf("%d conditions in two filters: %v", MaxQueryConditions, err)
	}
	assertTooMany(t, full.And(rest).And(mustParse(t, "customer eq 1")).CheckCost(),
		fmt.Sprintf("at most %d conditions together (the saved list's, the request's and the page's); these have %d", MaxQueryConditions, MaxQueryConditions+1))
}

func assertTooMany(t *testing.T, err error, want string) {
	t.Helper()
	var pe *portal.Error
	if !errors.Is(err, ErrTooManyConditions) || !errors.As(err, &pe) || pe.Code != portal.CodeInvalid ||
		len(pe.Fields) != 1 || pe.Fields[0].Field != "filter" || !strings.Contains(pe.Message, want) {
		t.Errorf("err = %v, want an invalid filter saying %q", err, want)
	}
}

// A filter compares a field only as its type's Operators allow, and
// /api/v1/kinds serves those with each filterable field, so the app's
// builder offers what the server accepts and nothing else.
func TestOperatorsAreTheGrammarsPerType(t *testing.T) {
	k, _ := Lookup("project")
	for _, f := range k.AllFields() {
		if !f.Filterable {
			continue
		}
		for _, o := range []Op{OpEq, OpNe, OpLt, OpLe, OpGt, OpGe, OpContains, OpStartsWith} {
			value := map[FieldType]string{TypeStatus: "Active", TypeRef: "7", TypeDate: "2024-01-31", TypeBoolean: "true"}[f.Type]
			if f.Type.Numeric() {
				value = "12.5"
			} else if value == "" {
				value = "x"
			}
			_, err := ParseFilter(k, f.Name+" "+string(o)+" "+value)
			if allowed := slices.Contains(f.Type.Operators(), o); (err == nil) != allowed {
				t.Errorf("%s %s: %v (allowed %v)", f.Name, o, err, allowed)
			}
		}
	}
	if _, err := ParseFilter(k, "entitystatus lt Active"); err == nil || !strings.Contains(err.Error(), "Status is compared with eq or ne, not lt") {
		t.Errorf("an order on a status: %v", err)
	}
	// A value the field's type refuses is named by the field's label, as the list shows it.
	if _, err := ParseFilter(k, "projectedtotal gt lots"); err == nil || err.Error() != `invalid: Contract value: "lots" is not a number like 1250.50.` {
		t.Errorf("a number that is not one: %v", err)
	}
	b, err := json.Marshal(k)
	if err != nil {
		t.Fatal(err)
	}
	var served struct {
		Fields []struct {
			Name       string `json:"name"`
			Filterable bool   `json:"filterable"`
			Operators  []Op   `json:"operators"`
		} `json:"fields"`
	}
	if err := json.Unmarshal(b, &served); err != nil {
		t.Fatal(err)
	}
	for _, f := range served.Fields {
		want := []Op(nil)
		if kf, _ := k.FieldNamed(f.Name); f.Filterable {
			want = kf.Type.Operators()
		}
		if !slices.Equal(f.Operators, want) {
			t.Errorf("%s served with %v, want %v", f.Name, f.Operators, want)
		}
	}
}
