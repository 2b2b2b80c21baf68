package netsuitetest

import (
	"encoding/json"
	"net/http"
)

// Content types. NetSuite marks its error documents with Oracle's
// resource media type (registered with IANA, type=error); results are
// sent as plain JSON, since their exact media type could not be confirmed
// from NetSuite's documentation and clients read them as JSON either way.
const (
	contentTypeError = "application/vnd.oracle.resource+json; type=error"
	contentTypeJSON  = "application/json; charset=UTF-8"
)

// errorTypeURL is the "type" of an error envelope: the section of RFC 2616
// (or RFC 6585 for 429) that defines the status, as NetSuite links it,
// for the statuses the fake answers with an envelope (500 otherwise).
func errorTypeURL(status int) string {
	const rfc2616 = "https://www.w3.org/Protocols/rfc2616/rfc2616-sec10.html#sec10."
	switch status {
	case http.StatusBadRequest:
		return rfc2616 + "4.1"
	case http.StatusNotFound:
		return rfc2616 + "4.5"
	case http.StatusMethodNotAllowed:
		return rfc2616 + "4.6"
	case http.StatusTooManyRequests:
		return "https://tools.ietf.org/html/rfc6585#section-4"
	default:
		return rfc2616 + "5.1"
	}
}

// errorDetail is one entry of o:errorDetails.
type errorDetail struct {
	Detail string `json:"detail"`
	Code   string `json:"o:errorCode"`
	Path   string `json:"o:errorPath,omitempty"`
}

// apiError is a REST failure to answer with the error envelope.
type apiError struct {
	status int
	// typeURL and title override the envelope's "type" and "title",
	// which otherwise follow the status (NetSuite's IDEMPOTENCY_ERROR is
	// a 400 titled "Conflict", linked to RFC 2616's section on 409).
	typeURL, title string
	errorDetail
}

func newAPIError(status int, code, detail string) *apiError {
	return &apiError{status: status, errorDetail: errorDetail{Detail: detail, Code: code}}
}

// writeError answers with NetSuite's REST error envelope.
func writeError(w http.ResponseWriter, e *apiError) {
	typeURL, title := e.typeURL, e.title
	if typeURL == "" {
		typeURL = errorTypeURL(e.status)
	}
	if title == "" {
		title = http.StatusText(e.status)
	}
	body, _ := json.Marshal(struct {
		Type    string        `json:"type"`
		Title   string        `json:"title"`
		Status  int           `json:"status"`
		Details []errorDetail `json:"o:errorDetails"`
	}{typeURL, title, e.status, []errorDetail{e.errorDetail}})
	w.Header().Set("Content-Type", contentTypeError)
	w.WriteHeader(e.status)
	_, _ = w.Write(body)
}

// writeRESTletError answers as a RESTlet whose script threw: NetSuite
// wraps the error as {"error": {"code", "message"}}.
func writeRESTletError(w http.ResponseWriter, status int, code, message string) {
	body, _ := json.Marshal(map[string]map[string]string{"error": {"code": code, "message": message}})
	w.Header().Set("Content-Type", contentTypeJSON)
	w.WriteHeader(status)
	_, _ = w.Write(body)
}

// writeJSON answers 200 with a JSON document.
func writeJSON(w http.ResponseWriter, body []byte) {
	w.Header().Set("Content-Type", contentTypeJSON)
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(body)
}
