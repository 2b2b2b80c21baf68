package netsuitetest

import (
	"cmp"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// vkind is the type of a SuiteQL value as the fake sees it.
type vkind uint8

const (
	vNull vkind = iota
	vStr
	vNum
	vBool
	vRef  // a reference or list value: s is the internal id, name its refName
	vDate // a date field: s is yyyy-mm-dd
	vTime // a date-time (Modified, Created, deleteddate, TO_TIMESTAMP): t is Unix seconds
)

// value is one column of one row, or a literal of a query.
type value struct {
	k    vkind
	s    string
	name string
	f    float64 // vNum; vBool as 0/1; vRef's id when numeric
	t    int64
}

// decodeRaw turns a raw JSON member of a record document into a value.
// Objects with an id are references or list values; arrays (sublists)
// and other objects are not SuiteQL columns and read as null.
func decodeRaw(raw []byte) value {
	if len(raw) == 0 {
		return value{}
	}
	switch c := raw[0]; {
	case c == '"':
		s, ok := unquote(raw)
		if !ok {
			return value{}
		}
		if isDate(s) {
			return value{k: vDate, s: s}
		}
		return value{k: vStr, s: s}
	case c == '-' || (c >= '0' && c <= '9'):
		f, err := strconv.ParseFloat(string(raw), 64)
		if err != nil {
			return value{}
		}
		return value{k: vNum, f: f}
	case c == 't':
		return value{k: vBool, f: 1}
	case c == 'f':
		return value{k: vBool}
	case c == '{':
		id, name, ok := refID(raw)
		if !ok {
			return value{}
		}
		f, err := strconv.ParseFloat(id, 64)
		if err != nil {
			f = math.NaN()
		}
		return value{k: vRef, s: id, name: name, f: f}
	}
	return value{}
}

// isDate reports whether s is a yyyy-mm-dd date, the record API's form
// of date fields.
func isDate(s string) bool {
	if len(s) != 10 || s[4] != '-' || s[7] != '-' {
		return false
	}
	_, err := time.Parse(time.DateOnly, s)
	return err == nil
}

// formatNumber writes a number as SuiteQL does: no exponent, no trailing
// zeros (1594771.60 → "1594771.6").
func formatNumber(f float64) string {
	return strconv.FormatFloat(f, 'f', -1, 64)
}

// DefaultDateFormat is NetSuite's default Date Format preference: what
// SuiteQL gives for a date or date-time column read without TO_CHAR
// unless the integration user chose another (account.yaml's [8]).
// Date-times lose their time of day that way, which is why clients must
// read them through TO_CHAR (account.yaml's [8]).
const DefaultDateFormat = "M/D/YYYY"

// dateLayout translates a Date Format preference, in NetSuite's
// notation (M/D/YYYY, DD/MM/YYYY, D.M.YYYY, YYYY-MM-DD, ...), to a Go
// layout.
func dateLayout(format string) (string, error) {
	var b strings.Builder
	var y, m, d bool
	u := strings.ToUpper(format)
	for i := 0; i < len(u); {
		switch {
		case strings.HasPrefix(u[i:], "YYYY"):
			b.WriteString("2006")
			i, y = i+4, true
		case strings.HasPrefix(u[i:], "MM"):
			b.WriteString("01")
			i, m = i+2, true
		case strings.HasPrefix(u[i:], "DD"):
			b.WriteString("02")
			i, d = i+2, true
		case u[i] == 'M':
			b.WriteString("1")
			i, m = i+1, true
		case u[i] == 'D':
			b.WriteString("2")
			i, d = i+1, true
		case strings.IndexByte("/.- ", u[i]) >= 0:
			b.WriteByte(u[i])
			i++
		default:
			return "", fmt.Errorf("netsuitetest: date format %q: only D, DD, M, MM and YYYY with / . - or space", format)
		}
	}
	if !y || !m || !d {
		return "", fmt.Errorf("netsuitetest: date format %q needs a day, a month and a four-digit year", format)
	}
	return b.String(), nil
}

// text is the string SuiteQL returns for v read as a bare column, dates
// and date-times in the user's date format (Go layout) and zone; ok is
// false for null (the column is then absent from the item).
func (v value) text(loc *time.Location, layout string) (string, bool) {
	switch v.k {
	case vStr, vRef:
		return v.s, true
	case vNum:
		return formatNumber(v.f), true
	case vBool:
		if v.f != 0 {
			return "T", true
		}
		return "F", true
	case vDate:
		d, err := time.ParseInLocation(time.DateOnly, v.s, loc)
		if err != nil {
			return v.s, true
		}
		return d.Format(layout), true
	case vTime:
		return time.Unix(v.t, 0).In(loc).Format(layout), true
	}
	return "", false
}

// instant returns the moment a date or date-time value stands for (a date
// is midnight in the account zone).
func (v value) instant(loc *time.Location) (int64, bool) {
	switch v.k {
	case vTime:
		return v.t, true
	case vDate, vStr:
		for _, layout := range []string{time.DateTime, time.DateOnly} {
			if t, err := time.ParseInLocation(layout, v.s, loc); err == nil {
				return t.Unix(), true
			}
		}
	}
	return 0, false
}

// compareLit compares a row's value with a literal of a WHERE condition;
// ok is false when they cannot be compared (null, or types SuiteQL would
// not convert between), which makes the condition false.
func compareLit(v, lit value, loc *time.Location) (int, bool) {
	if v.k == vNull {
		return 0, false
	}
	switch lit.k {
	case vTime:
		t, ok := v.instant(loc)
		return cmp.Compare(t, lit.t), ok
	case vNum:
		switch v.k {
		case vNum, vBool:
			return cmp.Compare(v.f, lit.f), true
		case vRef, vStr:
			f, err := strconv.ParseFloat(v.s, 64)
			return cmp.Compare(f, lit.f), err == nil
		}
	case vStr:
		switch v.k {
		case vStr, vDate, vRef:
			return strings.Compare(v.s, lit.s), true
		case vBool:
			b, _ := v.text(loc, "")
			return strings.Compare(b, lit.s), true
		case vNum:
			f, err := strconv.ParseFloat(lit.s, 64)
			return cmp.Compare(v.f, f), err == nil
		case vTime:
			t, ok := lit.instant(loc)
			return cmp.Compare(v.t, t), ok
		}
	}
	return 0, false
}

// compareOrder orders two values of one ORDER BY column; nulls sort last
// (Oracle's default for ascending order).
func compareOrder(a, b value) int {
	switch {
	case a.k == vNull && b.k == vNull:
		return 0
	case a.k == vNull:
		return 1
	case b.k == vNull:
		return -1
	}
	switch a.k {
	case vNum, vBool:
		if b.k == vNum || b.k == vBool {
			return cmp.Compare(a.f, b.f)
		}
	case vRef:
		if b.k == vRef && !math.IsNaN(a.f) && !math.IsNaN(b.f) {
			return cmp.Compare(a.f, b.f)
		}
	case vTime:
		if b.k == vTime {
			return cmp.Compare(a.t, b.t)
		}
	}
	if a.k != b.k {
		return cmp.Compare(a.k, b.k)
	}
	return strings.Compare(a.s, b.s)
}
