package portal

import "testing"

// Issue 17, finding 4: "//evil.example/login" and "/\evil.example/login"
// passed as the page a submission came from, and the administrators' page
// rendered them as links that left the portal.
func TestInAppPath(t *testing.T) {
	for _, p := range []string{"/", "/project/list", "/project/view/billing?id=42", "/search?q=caf%C3%A9#top", "/feedback/new"} {
		if !InAppPath(p) {
			t.Errorf("%q refused", p)
		}
	}
	for _, p := range []string{
		"", "project/list", "//evil.example/login", "/\\evil.example/login", "\\\\evil.example", "/\t/evil.example",
		"/\n/evil.example", "https://evil.example/", "javascript:alert(1)", "/ /evil.example", "/project\x00", "/\u00a0/x",
		"/path\\..\\x", "\x7f/x", string([]byte{'/', 0xff}),
	} {
		if InAppPath(p) {
			t.Errorf("%q accepted as a path of the portal", p)
		}
	}
}
