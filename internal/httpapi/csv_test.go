package httpapi

import (
	"testing"

	"github.com/portico/portico/internal/records"
)

// Issue 17, finding 8: the export missed |, the full-width ＝, and an =
// behind a byte-order mark or a zero-width space. OWASP's CSV Injection
// guidance: a cell starting with = + - @ tab or CR gets a leading '.
func TestCSVNeutralisesFormulas(t *testing.T) {
	for in, want := range map[string]string{
		"=1+1":                    "'=1+1",
		"+1":                      "'+1",
		"-1":                      "'-1",
		"@SUM(A1)":                "'@SUM(A1)",
		"\t=1":                    "'\t=1",
		"\r=1":                    "'\r=1",
		"\n=1":                    "'\n=1",
		"|cmd":                    "'|cmd",
		"＝1+1":                    "'＝1+1",
		"＋1":                      "'＋1",
		"－1":                      "'－1",
		"＠SUM(A1)":                "'＠SUM(A1)",
		"\uFEFF=1+1":              "'\uFEFF=1+1",
		"\u200B=HYPERLINK(\"x\")": "'\u200B=HYPERLINK(\"x\")",
		"\u200B\u200D\u2060=1":    "'\u200B\u200D\u2060=1",
		" =1":                     "' =1",
		"\u00A0@x":                "'\u00A0@x",
		// Issue 36: any format character (Unicode Cf: bidi controls,
		// direction marks, soft hyphens) or space before the sign.
		"\u202E=1+1":                    "'\u202E=1+1",
		"\u200E=1":                      "'\u200E=1",
		"\u200F\u2066+1":                "'\u200F\u2066+1",
		"\u00AD-1":                      "'\u00AD-1",
		"\u061C@x":                      "'\u061C@x",
		"\u2009=1":                      "'\u2009=1",
		"\v=1":                          "'\v=1",
		"\u202E\u200B \t=1":             "'\u202E\u200B \t=1",
		"\u202EAcme":                    "\u202EAcme",
		"Acme = best":                   "Acme = best",
		"a|b":                           "a|b",
		"":                              "",
		"\u200B":                        "\u200B",
		"École":                         "École",
		"=cmd|' /C calc'!A0":            "'=cmd|' /C calc'!A0",
		"DDE(\"cmd\";\"/C calc\";\"\")": "DDE(\"cmd\";\"/C calc\";\"\")",
	} {
		if got := csvValue(in); got != want {
			t.Errorf("csvValue(%q) = %q, want %q", in, got, want)
		}
	}
	if got := csvValue(records.Ref{RefName: "＝1"}); got != "'＝1" {
		t.Errorf("a reference's name: %q", got)
	}
	if got := csvValue(-12.5); got != "-12.50" {
		t.Errorf("a negative amount stays a number: %q", got)
	}
}
