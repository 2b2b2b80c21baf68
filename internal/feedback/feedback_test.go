package feedback

import (
	"strings"
	"testing"
)

func TestCheckRefusesPagesOutsideThePortal(t *testing.T) {
	for _, page := range []string{"//evil.example/login", "/\\evil.example/login", "https://evil.example/", strings.Repeat("/x", 300)} {
		s := Submission{Category: "bug", Message: "hi", Page: page}
		if err := s.Check(); err == nil || !strings.Contains(err.Error(), "highlighted") {
			t.Errorf("page %q: err = %v", page, err)
		}
	}
	s := Submission{Category: "bug", Message: "hi", Page: " /project/list?x=1 "}
	if err := s.Check(); err != nil || s.Page != "/project/list?x=1" {
		t.Errorf("a portal path: %q, err %v", s.Page, err)
	}
}

// Issue 36: an attachment kept any name — "report.html" or "x.svg" holding
// a script, a name with a right-to-left override — and reached the
// administrator under it. Its type is judged from its bytes, and its name
// now says that type.
func TestAttachmentNamedByItsType(t *testing.T) {
	png := []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\x0dIHDR")
	pdf := []byte("%PDF-1.7\n")
	svg := []byte(`<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>`)
	for _, c := range []struct {
		name    string
		content []byte
		want    string
	}{
		{"screen.png", png, "screen.png"},
		{"Screen Shot.PNG", png, "Screen Shot.PNG"},
		{"Screenshot at 10.15.32", png, "Screenshot at 10.15.32.png"},
		{"photo.jpg", png, "photo.jpg.png"},
		{`C:\fakepath\plan.pdf`, pdf, "plan.pdf"},
		{"notes.log", []byte("line one\n"), "notes.log"},
		{"report.html", []byte("hello <b>there</b>"), "report.html.txt"},
		{"x.svg", svg, "x.svg.txt"},
		{"", png, "attachment.png"},
		{"  ", png, "attachment.png"},
		{"screen\u202Egnp.exe", png, "attachment.png"},
		{strings.Repeat("a", 201), png, "attachment.png"},
	} {
		s := Submission{Category: "bug", Message: "hi", FileName: c.name, File: c.content}
		if err := s.Check(); err != nil || s.FileName != c.want {
			t.Errorf("%q: named %q (want %q), err %v", c.name, s.FileName, c.want, err)
		}
	}
}
