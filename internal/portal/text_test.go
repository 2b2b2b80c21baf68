package portal

import "testing"

// Issue 36: bidi controls and other format characters passed the input
// policy in names and file names.
func TestHasHiddenFormat(t *testing.T) {
	for _, s := range []string{
		"invoice\u202Efdp.exe", "\u202Dx", "a\u202Ab", "a\u202Bb", "a\u202Cb", "a\u2066b\u2069", "a\u2067b", "a\u2068b",
		"\u200EAcme", "Acme\u200F", "\u061CAcme", "ad\u200Bmin", "\uFEFFAcme", "Ac\u00ADme", "a\u2060b",
		"\U000E0041", "a\u200D", "\u200Cb", "a \u200Db", "a\u200D\u200Db", "\u200D",
	} {
		if !HasHiddenFormat(s) {
			t.Errorf("%q passes", s)
		}
	}
	for _, s := range []string{
		"", "Acme Ltd", "École", "مرحبا", "שלום", "東京", "می\u200Cخواهم", "क्\u200Dष", "👩\u200D💻", "a\u0301", "Ω\uFE0F",
	} {
		if HasHiddenFormat(s) {
			t.Errorf("%q refused", s)
		}
	}
}
