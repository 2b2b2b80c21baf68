package records

import (
	"bytes"
	"encoding/json"
	"math"
	"math/rand/v2"
	"reflect"
	"testing"
)

// A row encodes exactly as encoding/json encodes the same map.
func TestRowJSONMatchesEncodingJSON(t *testing.T) {
	strs := []string{"", "plain", `quote " and \ backslash`, "<b>&amp;</b>", "tab\tnew\nline\r\x00\x1f\x7f",
		"caf\u00e9 — \u2028\u2029 ✓ 😀", "bad \xff\xfe utf-8", "\xe2\x82", "emoji at end 😀"}
	floats := []float64{0, -0, 1, -1, 0.1, 1250.5, 95.25, 1e-6, 9.99e-7, 1e-7, 1.5e-10, 1e20, 1e21, -2.5e22, 123456789.123, math.MaxFloat64, math.SmallestNonzeroFloat64}
	values := []any{nil, true, false, int64(0), int64(-42), int64(math.MaxInt64), 7, Ref{ID: 3, RefName: "A & <B>"}, []string{"x"}, map[string]any{"k": 1}}
	for _, s := range strs {
		values = append(values, s)
	}
	for _, f := range floats {
		values = append(values, f)
	}
	r := rand.New(rand.NewPCG(1, 2))
	for i := range 2000 {
		row := Row{}
		for range r.IntN(20) {
			row[strs[r.IntN(len(strs))]+string(rune('a'+r.IntN(26)))] = values[r.IntN(len(values))]
		}
		if i < len(values) {
			row["v"] = values[i]
		}
		got, err := row.AppendJSON(nil)
		if err != nil {
			t.Fatal(err)
		}
		want, _ := json.Marshal(map[string]any(row))
		if string(got) != string(want) {
			t.Fatalf("row %v:\n got %s\nwant %s", row, got, want)
		}
	}
	if _, err := (Row{"x": math.NaN()}).AppendJSON(nil); err == nil {
		t.Error("NaN encoded without an error")
	}
}

func BenchmarkRowJSON(b *testing.B) {
	row := Row{"id": int64(500000), "companyname": "Wolf Branch Pollinator Meadow at Lewis Farm", "entityid": "PRJ-0500000",
		"entitystatus": "Monitoring", "customer": Ref{ID: 42, RefName: "Poplar Ridge Partners"}, "projectedtotal": 171593.0, "startdate": "2026-01-10"}
	page := make([]Row, 50)
	for i := range page {
		page[i] = row
	}
	b.Run("AppendJSON", func(b *testing.B) {
		var buf []byte
		for b.Loop() {
			buf = buf[:0]
			for _, r := range page {
				buf, _ = r.AppendJSON(buf)
			}
		}
	})
	b.Run("encoding/json", func(b *testing.B) {
		for b.Loop() {
			json.Marshal(page)
		}
	})
}

// A list page and a tab page encode exactly as encoding/json encodes them,
// every field set or not, with rows, no rows and nil rows.
func TestPageJSONMatchesEncodingJSON(t *testing.T) {
	cursor, total, estimated := "eyJ2Ijpb", int64(1234), true
	rows := []Row{{"id": int64(1), "companyname": "A <b> \"c\"", "customer": Ref{ID: 2, RefName: "Z"}, "projectedtotal": 12.5}, {"id": int64(2)}}
	k, _ := Lookup("project")
	cols := k.Columns(k.BuiltInList().Columns)
	amount := int64(1250)
	recs := []Record{{ID: 1, Title: "A <b> \"c\"", ParentID: 2, ParentName: "Z", Amount: &amount}, {ID: 2}}
	lists := []ListPage{
		{},
		{Rows: k.RecordRows(nil, cols)},
		{List: ListRef{ID: "customsearch_x", Name: "All"}, Columns: []ColumnInfo{{Name: "rows", Label: `"rows":null`, Type: TypeText},
			{Name: "projectedtotal", Label: "Value <&>", Type: TypeMoney, Sortable: true, Summable: true, Currency: "USD"}},
			Rows: k.RecordRows(recs, cols), HasMore: true, NextCursor: &cursor, Total: &total, TotalEstimated: true,
			Totals: map[string][]UnitTotal{"projectedtotal": {{Total: 12.5}, {Unit: "EUR", Total: 3}}}, TotalsEstimated: &estimated},
		{Rows: k.RecordRows(recs, nil), Totals: map[string][]UnitTotal{}},
	}
	if got, _ := lists[1].AppendJSON(nil); !bytes.Contains(got, []byte(`"rows":[]`)) {
		t.Errorf("a page of no records: %s", got)
	}
	// Every field of the fullest page is set: a field added to ListPage
	// must be set there too, and so is checked.
	for _, full := range []reflect.Value{reflect.ValueOf(lists[2]), reflect.ValueOf(lists[2].List), reflect.ValueOf(lists[2].Columns[1])} {
		for i := range full.NumField() {
			if full.Field(i).IsZero() {
				t.Errorf("the full page leaves %s.%s unset", full.Type().Name(), full.Type().Field(i).Name)
			}
		}
	}
	for _, p := range lists {
		got, err := p.AppendJSON(nil)
		want, _ := json.Marshal(p)
		if err != nil || string(got) != string(want) {
			t.Errorf("list page:\n got %s (%v)\nwant %s", got, err, want)
		}
	}
	for _, p := range []TabPage{{}, {Rows: rows, HasMore: true, Columns: []ColumnInfo{{Name: "a"}}, Totals: &StatusTotals{}}} {
		got, err := p.AppendJSON(nil)
		want, _ := json.Marshal(p)
		if err != nil || string(got) != string(want) {
			t.Errorf("tab page:\n got %s (%v)\nwant %s", got, err, want)
		}
	}
}

// Rows written straight from records are the rows Kind.Row makes of
// them, byte for byte, for every kind, whatever the columns (repeated,
// unknown, none), with values read by the list query or from the document.
func TestRecordRowsMatchRows(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	strs := []string{"", "Heron Marsh", "<b>&</b> \"q\"", "caf\u00e9 \u2028", "bad \xff"}
	values := []any{nil, "Active", 12.5, -0.25, true, Ref{ID: 7, RefName: "Acme & Co"}}
	for _, k := range All() {
		names := fieldNames(k.AllFields())
		for range 40 {
			cols := []string{"nosuchfield"}
			for range r.IntN(len(names) + 3) {
				cols = append(cols, names[r.IntN(len(names))])
			}
			recs := make([]Record, r.IntN(4))
			for i := range recs {
				rec := Record{ID: r.Int64N(1 << 40), Title: strs[r.IntN(len(strs))], Code: strs[r.IntN(len(strs))],
					Status: strs[r.IntN(len(strs))], Date: []string{"", "2026-03-07"}[r.IntN(2)], Fields: json.RawMessage(`{}`),
					Currency: []string{"", "EUR", "<GBP>"}[r.IntN(3)]}
				if r.IntN(2) == 0 {
					amount := r.Int64N(1<<40) - 1<<39
					rec.Amount = &amount
				}
				if r.IntN(2) == 0 {
					rec.ParentID, rec.ParentName = r.Int64N(1000)+1, strs[r.IntN(len(strs))]
				}
				if r.IntN(2) == 0 {
					rec.ProjectID, rec.ProjectName = r.Int64N(1000)+1, strs[r.IntN(len(strs))]
				}
				doc := map[string]any{}
				for _, f := range k.Document {
					switch r.IntN(3) {
					case 0:
						if rec.Extra == nil {
							rec.Extra = map[string]any{}
						}
						rec.Extra[f.Name] = values[r.IntN(len(values))]
					case 1:
						doc[f.Name] = strs[r.IntN(len(strs))]
					}
				}
				rec.Fields, _ = json.Marshal(doc)
				recs[i] = rec
			}
			got, err := k.RecordRows(recs, k.Columns(cols)).AppendJSON(nil)
			want, _ := json.Marshal(k.Rows(recs, k.Columns(cols)))
			if err != nil || string(got) != string(want) {
				t.Fatalf("%s, columns %v:\n got %s (%v)\nwant %s", k.Name, cols, got, err, want)
			}
		}
	}
	if got, _ := (RecordRows{}).AppendJSON(nil); string(got) != "null" {
		t.Errorf("the zero rows: %s", got)
	}
}
