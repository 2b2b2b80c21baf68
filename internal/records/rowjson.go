package records

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"slices"
	"strconv"
	"unicode/utf8"
)

// AppendJSON appends the page as encoding/json writes it, byte for byte;
// its rows, most of a list's answer (a third of a list request's time
// when encoded by reflection), are written by Row.AppendJSON.
func (p ListPage) AppendJSON(b []byte) ([]byte, error) {
	rows := p.Rows
	p.Rows = nil
	return appendWithRows(b, p, rows)
}

// AppendJSON appends the tab's page as encoding/json writes it, byte for
// byte, its rows written by Row.AppendJSON.
func (p TabPage) AppendJSON(b []byte) ([]byte, error) {
	rows := p.Rows
	p.Rows = nil
	return appendWithRows(b, p, rows)
}

// rowsKey is how encoding/json writes a page's Rows field left nil: the
// key cannot occur elsewhere unescaped (a string escapes its quotes), and
// no other field of a page is named "rows".
var rowsKey = []byte(`"rows":null`)

// appendWithRows appends page, a struct whose Rows field (tagged "rows")
// is nil, by encoding/json, with rows in place of that null: the page's
// other fields keep their tags' encoding, whatever fields it gains.
func appendWithRows(b []byte, page any, rows []Row) ([]byte, error) {
	head, err := json.Marshal(page)
	if err != nil {
		return b, err
	}
	at := bytes.Index(head, rowsKey)
	if at < 0 {
		return b, errors.New("records: a page without rows")
	}
	if rows == nil {
		return append(b, head...), nil
	}
	b = append(b, head[:at+len(rowsKey)-len("null")]...)
	b = append(b, '[')
	for i, r := range rows {
		if i > 0 {
			b = append(b, ',')
		}
		if b, err = r.AppendJSON(b); err != nil {
			return b, err
		}
	}
	b = append(b, ']')
	return append(b, head[at+len(rowsKey):]...), nil
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
		b = appendJSONString(b, k)
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
		return appendJSONString(b, v), nil
	case int64:
		return strconv.AppendInt(b, v, 10), nil
	case int:
		return strconv.AppendInt(b, int64(v), 10), nil
	case bool:
		return strconv.AppendBool(b, v), nil
	case float64:
		return appendJSONFloat(b, v)
	case Ref:
		b = append(b, `{"id":`...)
		b = strconv.AppendInt(b, v.ID, 10)
		b = append(b, `,"refName":`...)
		b = appendJSONString(b, v.RefName)
		return append(b, '}'), nil
	}
	j, err := json.Marshal(v)
	return append(b, j...), err
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

const hexDigits = "0123456789abcdef"

// appendJSONString quotes s as encoding/json does by default: control
// characters, quotes and backslashes escaped; <, > and & as \u003c,
// \u003e and \u0026; invalid UTF-8 as \ufffd; U+2028 and U+2029 escaped.
func appendJSONString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' && c != '<' && c != '>' && c != '&' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '\\', '"':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
