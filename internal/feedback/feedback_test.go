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
