package netsuitetest

import (
	"bytes"
	"encoding/json"
	"strconv"
)

// Records keep their fields as one compact JSON object each rather than a
// map: a million decoded documents would take gigabytes, while SuiteQL
// needs only the few members a query names, which members finds in one
// pass over the bytes. The documents are always produced by encoding/json
// or rebuilt from valid JSON by this package, but the scanner still
// bounds-checks everything and reports malformed input instead of
// panicking.

// members calls fn with the raw key (without quotes, escapes not decoded)
// and raw value of each member of the JSON object doc, until fn returns
// false. It reports whether doc was a well-formed object as far as it was
// read.
func members(doc []byte, fn func(key, val []byte) bool) bool {
	i := skipSpace(doc, 0)
	if i >= len(doc) || doc[i] != '{' {
		return false
	}
	i = skipSpace(doc, i+1)
	if i < len(doc) && doc[i] == '}' {
		return true
	}
	for i < len(doc) {
		if doc[i] != '"' {
			return false
		}
		end, ok := skipString(doc, i)
		if !ok {
			return false
		}
		key := doc[i+1 : end-1]
		i = skipSpace(doc, end)
		if i >= len(doc) || doc[i] != ':' {
			return false
		}
		i = skipSpace(doc, i+1)
		vend, ok := skipValue(doc, i)
		if !ok {
			return false
		}
		if !fn(key, doc[i:vend]) {
			return true
		}
		i = skipSpace(doc, vend)
		if i >= len(doc) {
			return false
		}
		if doc[i] == '}' {
			return true
		}
		if doc[i] != ',' {
			return false
		}
		i = skipSpace(doc, i+1)
	}
	return false
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\n' || b[i] == '\t' || b[i] == '\r') {
		i++
	}
	return i
}

// skipString returns the index after the string starting at b[i] == '"'.
func skipString(b []byte, i int) (int, bool) {
	for j := i + 1; j < len(b); j++ {
		switch b[j] {
		case '\\':
			j++
		case '"':
			return j + 1, true
		}
	}
	return 0, false
}

// skipValue returns the index after the JSON value starting at b[i]. It
// tracks nesting with a counter, so deep documents cost no stack.
func skipValue(b []byte, i int) (int, bool) {
	if i >= len(b) {
		return 0, false
	}
	switch b[i] {
	case '"':
		return skipString(b, i)
	case '{', '[':
		depth := 0
		for j := i; j < len(b); j++ {
			switch b[j] {
			case '"':
				end, ok := skipString(b, j)
				if !ok {
					return 0, false
				}
				j = end - 1
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return j + 1, true
				}
			}
		}
		return 0, false
	default:
		j := i
		for j < len(b) && b[j] != ',' && b[j] != '}' && b[j] != ']' && b[j] != ' ' &&
			b[j] != '\n' && b[j] != '\t' && b[j] != '\r' {
			j++
		}
		return j, j > i
	}
}

// unquote decodes a raw JSON string value.
func unquote(raw []byte) (string, bool) {
	if len(raw) < 2 || raw[0] != '"' || raw[len(raw)-1] != '"' {
		return "", false
	}
	if bytes.IndexByte(raw, '\\') < 0 {
		return string(raw[1 : len(raw)-1]), true
	}
	var s string
	return s, json.Unmarshal(raw, &s) == nil
}

// keyIs reports whether a raw member key equals name.
func keyIs(key []byte, name string) bool {
	if bytes.IndexByte(key, '\\') < 0 {
		return string(key) == name
	}
	s, ok := unquote(append(append([]byte{'"'}, key...), '"'))
	return ok && s == name
}

// keyString decodes a raw member key.
func keyString(key []byte) string {
	if bytes.IndexByte(key, '\\') < 0 {
		return string(key)
	}
	s, _ := unquote(append(append([]byte{'"'}, key...), '"'))
	return s
}

// refID returns the id of a reference or list value {"id": "5", ...}
// (the id may also be a number), and its refName when given.
func refID(raw []byte) (id, name string, ok bool) {
	members(raw, func(k, v []byte) bool {
		switch {
		case keyIs(k, "id"):
			if s, isStr := unquote(v); isStr {
				id, ok = s, s != ""
			} else if _, err := strconv.ParseInt(string(v), 10, 64); err == nil {
				id, ok = string(v), true
			}
		case keyIs(k, "refName"):
			name, _ = unquote(v)
		}
		return true
	})
	return id, name, ok
}
