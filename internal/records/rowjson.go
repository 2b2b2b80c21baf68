package records

import (
	"bytes"
	"encoding/json"
	"errors"
	"github.com/portico/portico/internal/jsonenc"
	"math"
	"slices"
	"strconv"
	"strings"
)

// AppendJSON appends the page as encoding/json writes it, byte for byte
// (TestPageJSONMatchesEncodingJSON sets every field); its rows, most of a
// list's answer, are written by RecordRows.AppendJSON. Written by hand,
// not by encoding/json around the rows: reflecting over its columns was
// 3% of a small list request's CPU.
func (p ListPage) AppendJSON(b []byte) ([]byte, error) {
	b = append(b, `{"list":{"id":`...)
	b = jsonenc.AppendString(b, p.List.ID)
	b = append(b, `,"name":`...)
	b = jsonenc.AppendString(b, p.List.Name)
	b = append(b, `},"columns":`...)
	b = appendColumns(b, p.Columns)
	b = append(b, `,"rows":`...)
	b, err := p.Rows.AppendJSON(b)
	if err != nil {
		return b, err
	}
	b = append(b, `,"hasMore":`...)
	b = strconv.AppendBool(b, p.HasMore)
	b = append(b, `,"nextCursor":`...)
	if p.NextCursor == nil {
		b = append(b, "null"...)
	} else {
		b = jsonenc.AppendString(b, *p.NextCursor)
	}
	if p.Total != nil {
		b = append(b, `,"total":`...)
		b = strconv.AppendInt(b, *p.Total, 10)
	}
	if p.TotalEstimated {
		b = append(b, `,"totalEstimated":true`...)
	}
	if p.Totals != nil { // rare: encoding/json's own float format
		totals, err := json.Marshal(p.Totals)
		if err != nil {
			return b, err
		}
		b = append(append(b, `,"totals":`...), totals...)
	}
	if p.TotalsEstimated != nil {
		b = append(b, `,"totalsEstimated":`...)
		b = strconv.AppendBool(b, *p.TotalsEstimated)
	}
	return append(b, '}'), nil
}

// appendColumns appends cols as encoding/json writes a []ColumnInfo.
func appendColumns(b []byte, cols []ColumnInfo) []byte {
	if cols == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i, c := range cols {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"name":`...)
		b = jsonenc.AppendString(b, c.Name)
		b = append(b, `,"label":`...)
		b = jsonenc.AppendString(b, c.Label)
		b = append(b, `,"type":`...)
		b = jsonenc.AppendString(b, string(c.Type))
		b = append(b, `,"sortable":`...)
		b = strconv.AppendBool(b, c.Sortable)
		if c.Summable {
			b = append(b, `,"summable":true`...)
		}
		if c.Currency != "" {
			b = append(b, `,"currency":`...)
			b = jsonenc.AppendString(b, c.Currency)
		}
		b = append(b, '}')
	}
	return append(b, ']')
}

// AppendJSON appends the tab's page as encoding/json writes it, byte for
// byte, its rows written by Row.AppendJSON.
func (p TabPage) AppendJSON(b []byte) ([]byte, error) {
	rows := p.Rows
	p.Rows = nil
	return appendWithRows(b, p, rowList(rows))
}

// rowsKey is how encoding/json writes a page's rows left empty (a nil
// []Row, a zero RecordRows): the key cannot occur elsewhere unescaped (a
// string escapes its quotes), and no other field of a page is named "rows".
var rowsKey = []byte(`"rows":null`)

// jsonAppender appends its JSON to a buffer.
type jsonAppender interface {
	AppendJSON(b []byte) ([]byte, error)
}

// appendWithRows appends page, a struct whose rows field (tagged "rows")
// is left empty, by encoding/json, with rows in place of its null: the
// page's other fields keep their tags' encoding, whatever fields it gains.
func appendWithRows(b []byte, page any, rows jsonAppender) ([]byte, error) {
	head, err := json.Marshal(page)
	if err != nil {
		return b, err
	}
	at := bytes.Index(head, rowsKey)
	if at < 0 {
		return b, errors.New("records: a page without rows")
	}
	b = append(b, head[:at+len(rowsKey)-len("null")]...)
	if b, err = rows.AppendJSON(b); err != nil {
		return b, err
	}
	return append(b, head[at+len(rowsKey):]...), nil
}

// rowList is rows as encoding/json writes a []Row: null when nil.
type rowList []Row

func (rows rowList) AppendJSON(b []byte) ([]byte, error) {
	if rows == nil {
		return append(b, "null"...), nil
	}
	b = append(b, '[')
	for i, r := range rows {
		if i > 0 {
			b = append(b, ',')
		}
		var err error
		if b, err = r.AppendJSON(b); err != nil {
			return b, err
		}
	}
	return append(b, ']'), nil
}

// RecordRows are records shown as rows of columns: each encodes as the
// Row that Kind.Row makes of it, but written straight from the record,
// with no Row made. The zero RecordRows holds no rows and encodes as null.
type RecordRows struct {
	kind    *Kind
	columns []ColumnInfo
	records []Record
}

// RecordRows shows records as rows of the given columns.
func (k *Kind) RecordRows(rs []Record, cols []ColumnInfo) RecordRows {
	return RecordRows{kind: k, columns: cols, records: rs}
}

// MarshalJSON is AppendJSON, for encoding/json.
func (rr RecordRows) MarshalJSON() ([]byte, error) { return rr.AppendJSON(nil) }

// AppendJSON appends the rows exactly as encoding/json writes Rows (keys
// sorted, HTML characters escaped), without making them: each key is
// encoded once, and each value straight from its record (Field.cell).
func (rr RecordRows) AppendJSON(b []byte) ([]byte, error) {
	if rr.kind == nil {
		return append(b, "null"...), nil
	}
	type cell struct {
		name  string
		key   []byte // the name as a JSON key, with its colon
		field *Field // nil for the id
	}
	cells := make([]cell, 0, len(rr.columns)+1)
	money := false // a row shows money: its currency goes with it (Row)
	for _, c := range rr.columns {
		if f, ok := rr.kind.FieldNamed(c.Name); ok {
			cells = append(cells, cell{name: c.Name, field: &f})
			money = money || rr.kind.UnitOf(f).Currency
		}
	}
	cells = append(cells, cell{name: "id"})
	slices.SortStableFunc(cells, func(a, b cell) int { return strings.Compare(a.name, b.name) })
	// A name shown twice is one key of a row, and a column named "id"
	// hides the id, as in Row.
	cells = slices.CompactFunc(cells, func(a, b cell) bool { return a.name == b.name })
	for i := range cells {
		cells[i].key = append(jsonenc.AppendString(nil, cells[i].name), ':')
	}
	b = append(b, '[')
	for i, r := range rr.records {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, '{')
		if money && r.Currency != "" { // RowCurrency sorts before every field name
			b = append(b, `"`+RowCurrency+`":`...)
			b = append(jsonenc.AppendString(b, r.Currency), ',')
		}
		for j, c := range cells {
			if j > 0 {
				b = append(b, ',')
			}
			b = append(b, c.key...)
			if c.field == nil {
				b = strconv.AppendInt(b, r.ID, 10)
				continue
			}
			var err error
			if b, err = c.field.cell(r).appendJSON(b); err != nil {
				return b, err
			}
		}
		b = append(b, '}')
	}
	return append(b, ']'), nil
}

// AppendJSON appends the row as encoding/json writes a map[string]any,
// byte for byte (keys sorted, HTML characters escaped), without reflection
// for the values rows hold (strings, integers, floats, booleans, nil and
// references); any other value goes through encoding/json.
func (r Row) AppendJSON(b []byte) ([]byte, error) {
	var stack [24]string
	keys := stack[:0]
	for k := range r {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	b = append(b, '{')
	for i, k := range keys {
		if i > 0 {
			b = append(b, ',')
		}
		b = jsonenc.AppendString(b, k)
		b = append(b, ':')
		var err error
		if b, err = appendJSONValue(b, r[k]); err != nil {
			return b, err
		}
	}
	return append(b, '}'), nil
}

func appendJSONValue(b []byte, v any) ([]byte, error) {
	switch v := v.(type) {
	case nil:
		return append(b, "null"...), nil
	case string:
		return jsonenc.AppendString(b, v), nil
	case int64:
		return strconv.AppendInt(b, v, 10), nil
	case int:
		return strconv.AppendInt(b, int64(v), 10), nil
	case bool:
		return strconv.AppendBool(b, v), nil
	case float64:
		return appendJSONFloat(b, v)
	case Ref:
		return appendJSONRef(b, v), nil
	}
	j, err := json.Marshal(v)
	return append(b, j...), err
}

func appendJSONRef(b []byte, r Ref) []byte {
	b = append(b, `{"id":`...)
	b = strconv.AppendInt(b, r.ID, 10)
	b = append(b, `,"refName":`...)
	b = jsonenc.AppendString(b, r.RefName)
	return append(b, '}')
}

// appendJSONFloat formats f as encoding/json does: the shortest decimal
// that reads back as f, in exponent form only for very small or very
// large magnitudes (with a two-digit exponent written as e-07, not e-7).
func appendJSONFloat(b []byte, f float64) ([]byte, error) {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return b, &json.UnsupportedValueError{Str: strconv.FormatFloat(f, 'g', -1, 64)}
	}
	format := byte('f')
	if abs := math.Abs(f); abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	start := len(b)
	b = strconv.AppendFloat(b, f, format, -1, 64)
	if format == 'e' {
		// clean up e-09 to e-9
		if n := len(b) - start; n >= 4 && b[len(b)-4] == 'e' && b[len(b)-3] == '-' && b[len(b)-2] == '0' {
			b[len(b)-2] = b[len(b)-1]
			b = b[:len(b)-1]
		}
	}
	return b, nil
}
