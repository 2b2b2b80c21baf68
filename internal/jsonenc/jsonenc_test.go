package jsonenc

import (
	"encoding/json"
	"testing"
)

// AppendString writes what encoding/json writes, for strings and bytes.
func FuzzAppendString(f *testing.F) {
	for _, s := range []string{"", "plain", `"quoted" \ back`, "tab\tnew\nline\r\x00\x1f", "<a & b>", "é — ünïcode", "\u2028\u2029", "bad \xff\xfe utf-8", "\xe2\x80"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		if got := AppendString(nil, s); string(got) != string(want) {
			t.Errorf("AppendString(%q) = %s, want %s", s, got, want)
		}
		if got := AppendString([]byte("x"), []byte(s)); string(got) != "x"+string(want) {
			t.Errorf("AppendString([]byte(%q)) = %s, want x%s", s, got, want)
		}
	})
}
