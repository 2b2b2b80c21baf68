package portal

import "unicode"

// HasHiddenFormat reports whether s holds a format character that a line
// of text such as a name or a file name may not hold: any character of
// Unicode category Cf — bidi controls (U+202E RIGHT-TO-LEFT OVERRIDE makes
// "invoice\u202Efdp.exe" read as "invoiceexe.pdf"), direction marks,
// zero-width spaces, byte-order marks, soft hyphens, tags — except a
// zero-width non-joiner or joiner (U+200C, U+200D) inside a word, where
// Persian, the Indic scripts and emoji sequences need them.
func HasHiddenFormat(s string) bool {
	rs := []rune(s)
	for i, r := range rs {
		if !unicode.Is(unicode.Cf, r) {
			continue
		}
		if (r == '\u200C' || r == '\u200D') && i > 0 && i < len(rs)-1 && wordRune(rs[i-1]) && wordRune(rs[i+1]) {
			continue
		}
		return true
	}
	return false
}

// wordRune reports whether r may stand beside a joiner: neither a space
// nor a control or format character.
func wordRune(r rune) bool {
	return !unicode.IsSpace(r) && !unicode.IsControl(r) && !unicode.Is(unicode.Cf, r)
}
