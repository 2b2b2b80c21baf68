package httpapi

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/portico/portico/internal/feedback"
	"github.com/portico/portico/internal/portal"
	"github.com/portico/portico/internal/records"
	"github.com/portico/portico/internal/search"
)

// The input policy: every text a request carries — its path, each query
// parameter (name and value), each string of a JSON body (member names
// too), each field of a form and each file name — is valid UTF-8, has no
// control characters (tab, CR and LF only in a field that takes several
// lines) and is no longer than its field allows. A text of one line (a
// name, a title, a file name) holds no invisible format characters either
// (portal.HasHiddenFormat: bidi controls, direction marks, zero-width
// spaces), which make what a person reads differ from what is stored; a
// text of several lines (a message, a note) may, as prose in
// right-to-left scripts needs them. It is checked here and nowhere else:
// withInputPolicy for paths, queries and JSON bodies, checkForm for the
// forms a handler parses. Handlers then check meaning (a known kind, a
// date, a filter), never encoding.

// textRule is what one field accepts.
type textRule struct {
	max       int  // characters (runes)
	multiline bool // tab, CR and LF allowed
}

// Field rules by where the field is. A field not named gets the place's
// default. Domain checks may be stricter (a record's text field holds 200
// characters, a list name 80); these bounds keep every value cheap to
// handle before they run.
var (
	queryRules = map[string]textRule{
		"idToken":      {max: 16 << 10}, // identity tokens are JWTs of a few KiB
		"oauthIdToken": {max: 16 << 10},
		"filter":       {max: 16 << 10}, // the filter grammar bounds its own terms
		"columns":      {max: 4 << 10},
		"ids":          {max: 4 << 10}, // a selection: records.MaxBulk ids
		"cursor":       {max: 2 << 10},
		"q":            {max: 200},
		"query":        {max: search.MaxQuery},
	}
	queryDefault = textRule{max: 200}

	bodyRules = map[string]textRule{
		"filter":  {max: 16 << 10},
		"note":    {max: records.MaxNote, multiline: true},
		"comment": {max: records.MaxNote, multiline: true}, // an approval decision's, which becomes a note
	}
	bodyDefault = textRule{max: 1000}

	formRules = map[string]textRule{
		"message":  {max: feedback.MaxMessage, multiline: true},
		"page":     {max: feedback.MaxPage},
		"category": {max: 50},
	}
	formDefault = textRule{max: 200}

	pathRule = textRule{max: 2 << 10}
	nameRule = textRule{max: 100} // a query parameter's or JSON member's name
)

// maxJSONBody is the largest JSON request body.
const maxJSONBody = 64 << 10

// checkText returns what is wrong with v under rule, or "".
func checkText(v string, rule textRule) string {
	if !utf8.ValidString(v) {
		return "Not valid text (UTF-8)."
	}
	if strings.ContainsFunc(v, func(r rune) bool {
		if rule.multiline && (r == '\n' || r == '\r' || r == '\t') {
			return false
		}
		return unicode.IsControl(r) || r == '\u2028' || r == '\u2029'
	}) {
		if rule.multiline {
			return "Remove the control characters (only line breaks and tabs are allowed)."
		}
		return "Remove the control characters and line breaks."
	}
	if !rule.multiline && portal.HasHiddenFormat(v) {
		return "Remove the invisible formatting characters (such as direction marks or zero-width spaces): type the text again."
	}
	if n := utf8.RuneCountInString(v); n > rule.max {
		return fmt.Sprintf("At most %d characters.", rule.max)
	}
	return ""
}

func ruleFor(rules map[string]textRule, def textRule, name string) textRule {
	if r, ok := rules[name]; ok {
		return r
	}
	return def
}

// withInputPolicy refuses a request whose path or query breaks the
// policy: 400 (the address is malformed). It runs before authentication:
// it reads nothing but the request. JSON bodies are checked where they
// are decoded (decodeJSON: 422 naming each field), forms by checkForm.
func (s *Server) withInputPolicy(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !policyApplies(r.URL.Path) {
			next.ServeHTTP(w, r)
			return
		}
		if err := checkAddress(r.URL); err != nil {
			s.writeError(w, r, err)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// checkAddress checks a request's path and query parameters.
func checkAddress(u *url.URL) error {
	if msg := checkText(u.Path, pathRule); msg != "" {
		return portal.Invalid("The address is not acceptable: "+msg, portal.FieldError{Field: "path", Message: msg})
	}
	values, err := url.ParseQuery(u.RawQuery)
	if err != nil {
		return portal.Invalid("The query string is malformed.", portal.FieldError{Field: "query", Message: "Not a valid query string."})
	}
	errs := checkValues(values, queryRules, queryDefault, "query", "A parameter name: ")
	if len(errs) > 0 {
		sortFields(errs)
		return portal.Invalid(fmt.Sprintf("The %s parameter is not acceptable: %s", errs[0].Field, errs[0].Message), errs...)
	}
	return nil
}

// checkJSON checks the strings of a JSON body under the policy. A body
// that is not JSON is left to the decoder to refuse.
func checkJSON(buf []byte) error {
	if !utf8.Valid(buf) {
		return portal.Invalid("The request body is not valid UTF-8.", portal.FieldError{Field: "body", Message: "Not valid text (UTF-8)."})
	}
	dec := json.NewDecoder(bytes.NewReader(buf))
	dec.UseNumber()
	var v any
	if dec.Decode(&v) != nil {
		return nil
	}
	var errs []portal.FieldError
	walkJSON(v, "body", &errs)
	if len(errs) > 0 {
		sortFields(errs)
		return &portal.Error{Code: portal.CodeUnprocessable, Message: "Please correct the highlighted fields.", Fields: errs}
	}
	return nil
}

// decodeJSON reads a request's JSON body into v: every JSON body a
// handler reads comes through here, so the input policy (checkJSON) holds
// for all of them whatever the Content-Type says. A body over
// maxJSONBody, unknown members and data after the value are refused.
func decodeJSON(r *http.Request, v any) error { return decodeJSONUpTo(r, v, maxJSONBody) }

// decodeJSONUpTo is decodeJSON for a body of up to limit bytes (a whole
// access file is larger than any other body).
func decodeJSONUpTo(r *http.Request, v any, limit int) error {
	buf, err := io.ReadAll(io.LimitReader(r.Body, int64(limit)+1))
	if err != nil {
		return portal.Errorf(portal.CodeInvalid, "The request body could not be read.")
	}
	if len(buf) > limit {
		return portal.Errorf(portal.CodeInvalid, "The request body is larger than %d KB.", limit>>10)
	}
	if err := checkJSON(buf); err != nil {
		return err
	}
	dec := json.NewDecoder(bytes.NewReader(buf))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return portal.Errorf(portal.CodeInvalid, "The request body is not valid JSON for this call.")
	}
	if dec.More() {
		return portal.Errorf(portal.CodeInvalid, "The request body has data after the JSON value.")
	}
	return nil
}

// noBody refuses a request that carries a body to a call that takes none
// (its input is all in the address): such a body is a client's mistake,
// never silently ignored.
func noBody(r *http.Request) error {
	if n, _ := r.Body.Read(make([]byte, 1)); n > 0 {
		return portal.Invalid("This call takes no request body: its input is in the address.",
			portal.FieldError{Field: "body", Message: "Must be empty."})
	}
	return nil
}

// walkJSON checks every string in v; field is the member it is the value
// of (array elements take their array's name).
func walkJSON(v any, field string, errs *[]portal.FieldError) {
	switch x := v.(type) {
	case string:
		if msg := checkText(x, ruleFor(bodyRules, bodyDefault, field)); msg != "" {
			*errs = append(*errs, portal.FieldError{Field: field, Message: msg})
		}
	case []any:
		for _, e := range x {
			walkJSON(e, field, errs)
		}
	case map[string]any:
		for name, e := range x {
			if msg := checkText(name, nameRule); msg != "" {
				*errs = append(*errs, portal.FieldError{Field: field, Message: "A member name: " + msg})
				continue
			}
			walkJSON(e, name, errs)
		}
	}
}

// checkValues checks named values (a query's, a form's) under the rules
// for their names: one error per bad name (reported under where) or per
// field whose values break its rule.
func checkValues(values map[string][]string, rules map[string]textRule, def textRule, where, namePrefix string) []portal.FieldError {
	var errs []portal.FieldError
	for name, vs := range values {
		if msg := checkText(name, nameRule); msg != "" {
			errs = append(errs, portal.FieldError{Field: where, Message: namePrefix + msg})
			continue
		}
		rule := ruleFor(rules, def, name)
		for _, v := range vs {
			if msg := checkText(v, rule); msg != "" {
				errs = append(errs, portal.FieldError{Field: name, Message: msg})
				break
			}
		}
	}
	return errs
}

// checkForm checks a parsed form's values and file names under the
// policy: a 422 naming each field.
func checkForm(f *multipart.Form) error {
	if f == nil {
		return nil
	}
	errs := checkValues(f.Value, formRules, formDefault, "form", "A field name: ")
	for name, fhs := range f.File {
		for _, fh := range fhs {
			if msg := checkText(fh.Filename, textRule{max: 255}); msg != "" {
				errs = append(errs, portal.FieldError{Field: name, Message: "The file name: " + msg})
				break
			}
		}
	}
	if len(errs) > 0 {
		sortFields(errs)
		return &portal.Error{Code: portal.CodeUnprocessable, Message: "Please correct the highlighted fields.", Fields: errs}
	}
	return nil
}

// sortFields orders field errors by field, so an answer does not depend on
// map order.
func sortFields(errs []portal.FieldError) {
	slices.SortStableFunc(errs, func(a, b portal.FieldError) int { return strings.Compare(a.Field, b.Field) })
}

// IdempotencyKeyHeader names the header that makes a create land once
// (the IETF httpapi draft "The Idempotency-Key HTTP Header Field").
const IdempotencyKeyHeader = "Idempotency-Key"

// idempotencyKey reads a request's Idempotency-Key: absent is "", else a
// structured-field string ("..."; a bare token is accepted too) of 1 to
// 255 visible ASCII characters.
func idempotencyKey(r *http.Request) (string, error) {
	v := strings.TrimSpace(r.Header.Get(IdempotencyKeyHeader))
	if v == "" {
		return "", nil
	}
	if len(v) >= 2 && v[0] == '"' && v[len(v)-1] == '"' {
		v = v[1 : len(v)-1]
	}
	ok := len(v) >= 1 && len(v) <= 255
	for i := 0; ok && i < len(v); i++ {
		ok = v[i] > ' ' && v[i] < 0x7f && v[i] != '"' && v[i] != '\\'
	}
	if !ok {
		return "", portal.Invalid("The Idempotency-Key header is not valid.",
			portal.FieldError{Field: IdempotencyKeyHeader, Message: "1 to 255 visible ASCII characters, such as a UUID."})
	}
	return v, nil
}
