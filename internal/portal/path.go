package portal

import (
	"net/url"
	"strings"
	"unicode"
	"unicode/utf8"
)

// InAppPath reports whether p is a path of the portal itself: a
// same-origin relative reference such as /project/list?x=1, safe to render
// as a link. Browsers read "//host/..." as another site, and turn a
// backslash into a slash and drop tabs and line breaks before they do, so
// "/\evil.example" and "/\t/evil.example" leave the portal too: a path
// with a backslash, a control character or white space is refused, as is
// anything with a scheme or a host.
func InAppPath(p string) bool {
	if !strings.HasPrefix(p, "/") || strings.HasPrefix(p, "//") || !utf8.ValidString(p) ||
		strings.ContainsFunc(p, func(r rune) bool { return r == '\\' || unicode.IsControl(r) || unicode.IsSpace(r) }) {
		return false
	}
	u, err := url.Parse(p)
	return err == nil && u.Scheme == "" && u.Host == "" && u.User == nil && u.Opaque == "" && strings.HasPrefix(u.Path, "/")
}
