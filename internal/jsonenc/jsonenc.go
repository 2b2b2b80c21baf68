// Package jsonenc writes JSON by hand where encoding/json's reflection
// costs too much (list pages, the demo's million documents, the NetSuite
// fake's records): the pieces that must match what encoding/json writes.
package jsonenc

import "unicode/utf8"

const hexDigits = "0123456789abcdef"

// AppendString appends s as a JSON string, quoted as encoding/json quotes
// it by default: control characters, quotes and backslashes escaped; <, >
// and & as \u003c, \u003e and \u0026; invalid UTF-8 as \ufffd; U+2028 and
// U+2029 escaped. A run of plain ASCII is copied as it is.
func AppendString[S string | []byte](b []byte, s S) []byte {
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
		r, size := decodeRune(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xF])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// decodeRune is utf8.DecodeRuneInString or utf8.DecodeRune, as s is.
func decodeRune[S string | []byte](s S) (rune, int) {
	if t, ok := any(s).(string); ok {
		return utf8.DecodeRuneInString(t)
	}
	return utf8.DecodeRune([]byte(s))
}
