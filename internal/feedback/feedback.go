// Package feedback is the feedback form (SPEC §1, §2 /feedback): what a
// submission is, the rules it must meet, and what an attachment may be.
// The store keeps submissions; administrators read them; each is forwarded
// to the ERP as the ERPType record.
package feedback

import (
	"net/http"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/portico/portico/internal/portal"
	"github.com/portico/portico/internal/records"
)

// ERPType is the ERP record type a submission is forwarded as (the
// feedback form's external record-type id, SPEC §3).
const ERPType = "customrecord_res_feedback"

// Limits of a submission.
const (
	MaxMessage    = 5000    // characters
	MaxPage       = 500     // characters
	MaxAttachment = 5 << 20 // bytes
)

// Categories are the kinds of feedback a user can send.
var Categories = []string{"bug", "idea", "question", "other"}

// AttachmentTypes are the content types an attachment may have, judged from
// its bytes (not from the name or what the browser claims): screenshots,
// PDFs and plain text; each with the name extensions that say it, the
// first the one an attachment named otherwise is given.
var AttachmentTypes = map[string][]string{
	"image/png":       {"png"},
	"image/jpeg":      {"jpg", "jpeg"},
	"image/gif":       {"gif"},
	"image/webp":      {"webp"},
	"application/pdf": {"pdf"},
	"text/plain":      {"txt", "log"},
}

// Submission is one piece of feedback.
type Submission struct {
	ID       int64     `json:"id"`
	At       time.Time `json:"at"`
	UserID   int64     `json:"userId"`
	User     string    `json:"user"` // the user's name, when read back
	RoleID   int64     `json:"roleId"`
	Category string    `json:"category"`
	Message  string    `json:"message"`
	Page     string    `json:"page"`
	// The attachment: name, content type and size; File only when asked for.
	FileName string `json:"fileName,omitempty"`
	FileType string `json:"fileType,omitempty"`
	FileSize int64  `json:"fileSize,omitempty"`
	File     []byte `json:"-"`
	// ERPState is where forwarding to the ERP stands: "" done, "pending",
	// "failed" with ERPError.
	ERPState string `json:"erpState"`
	ERPError string `json:"erpError,omitempty"`
}

// Check validates a submission's text fields and attachment, trimming
// them, and names the content type of the attachment from its bytes. The
// attachment is named by that type too: the name it was sent with, checked
// as a record's file name is (records.UploadName; "attachment" when that
// refuses it), with the type's extension added unless it has one
// ("report.html" holding text is "report.html.txt"). Every problem is one
// field error (a 422).
func (s *Submission) Check() error {
	var errs []portal.FieldError
	add := func(field, msg string) { errs = append(errs, portal.FieldError{Field: field, Message: msg}) }
	s.Category, s.Message, s.Page = strings.TrimSpace(s.Category), strings.TrimSpace(s.Message), strings.TrimSpace(s.Page)
	if !slices.Contains(Categories, s.Category) {
		add("category", "Choose a category: bug, idea, question or other.")
	}
	switch n := utf8.RuneCountInString(s.Message); {
	case !utf8.ValidString(s.Message):
		add("message", "The message is not valid text.")
	case n == 0:
		add("message", "Write a message.")
	case n > MaxMessage:
		add("message", "Keep the message under 5,000 characters.")
	}
	if utf8.RuneCountInString(s.Page) > MaxPage || (s.Page != "" && !portal.InAppPath(s.Page)) {
		add("page", "The page must be a path of the portal, such as /project/list.")
	}
	if s.File != nil {
		s.FileSize = int64(len(s.File))
		s.FileType = strings.TrimSpace(strings.Split(http.DetectContentType(s.File), ";")[0])
		switch {
		case s.FileSize == 0:
			add("attachment", "The attachment is empty.")
		case s.FileSize > MaxAttachment:
			add("attachment", "The attachment is larger than 5 MB.")
		case AttachmentTypes[s.FileType] == nil:
			add("attachment", "Attach a screenshot (PNG, JPEG, GIF, WebP), a PDF or a text file.")
		}
		name, msg := records.UploadName(s.FileName)
		if msg != "" {
			name = "attachment"
		}
		s.FileName = records.NamedAs(name, AttachmentTypes[s.FileType]...)
	}
	if len(errs) > 0 {
		return &portal.Error{Code: portal.CodeUnprocessable, Message: "Please correct the highlighted fields.", Fields: errs}
	}
	return nil
}
