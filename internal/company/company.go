// Package company is the company's own profile: the name, legal name,
// address and contact lines its documents carry as their letterhead (an
// invoice or a vendor bill printed or saved as a PDF). A tenant has one
// profile. With a connected ERP account it is the account's (NetSuite: the
// root subsidiary's name, legal name and main address), stored by every
// pull; a standalone tenant's is stored by whoever set it up (the demo
// seeds its company's). What a store keeps has gone through Clean.
package company

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Limits of a profile's values, in characters; Clean cuts longer ones.
const (
	MaxText  = 200 // any one value: a name, an address line, a phone number
	MaxLines = 3   // street lines of an address (NetSuite's addr1–addr3)
)

// Address is a postal address as a letterhead prints it: its street lines
// first, then the city, region and postal code, then the country.
type Address struct {
	// Lines are the street lines, first to last (at most MaxLines);
	// never nil in a cleaned profile.
	Lines      []string `json:"lines"`
	City       string   `json:"city"`
	Region     string   `json:"region"` // state, province, county
	PostalCode string   `json:"postalCode"`
	// Country is an ISO 3166-1 alpha-2 code ("US"), as NetSuite keeps it,
	// or a country's name as written.
	Country string `json:"country"`
}

// IsZero reports whether the address says nothing.
func (a Address) IsZero() bool {
	return len(a.Lines) == 0 && a.City == "" && a.Region == "" && a.PostalCode == "" && a.Country == ""
}

// Profile is the company as its documents name it. Every value but Name
// may be "" (unknown); Name is never "" in a profile a store returns.
type Profile struct {
	// Name is the name the company goes by (NetSuite's subsidiary
	// `name`); LegalName the name it is registered under
	// (`legalName`), which a letterhead prefers when it is known.
	Name      string  `json:"name"`
	LegalName string  `json:"legalName"`
	Address   Address `json:"address"`
	Phone     string  `json:"phone"`
	Email     string  `json:"email"`
	// TaxID is the company's tax or registration number: an EIN, a VAT
	// or business number.
	TaxID string `json:"taxId"`
}

// Letterhead is the name a document's letterhead shows: the legal name,
// else the name.
func (p Profile) Letterhead() string {
	if p.LegalName != "" {
		return p.LegalName
	}
	return p.Name
}

// Clean returns p fit to store and print, whatever its source (an ERP
// account, a file): every value on one line (line breaks, tabs and runs
// of spaces become one space; control and hidden format characters, such
// as bidi overrides, are dropped), trimmed and cut to MaxText characters;
// the address's empty lines left out and any past MaxLines joined to the
// last; a legal name equal to the name dropped. It never fails: a letterhead
// with a long value is still a letterhead.
func (p Profile) Clean() Profile {
	out := Profile{
		Name:      line(p.Name),
		LegalName: line(p.LegalName),
		Phone:     line(p.Phone),
		Email:     line(p.Email),
		TaxID:     line(p.TaxID),
		Address: Address{
			Lines:      []string{},
			City:       line(p.Address.City),
			Region:     line(p.Address.Region),
			PostalCode: line(p.Address.PostalCode),
			Country:    line(p.Address.Country),
		},
	}
	if out.LegalName == out.Name {
		out.LegalName = ""
	}
	for _, l := range p.Address.Lines {
		// A line given with breaks in it (NetSuite's addrText) is as
		// many lines.
		for part := range strings.Lines(l) {
			if part = line(part); part != "" {
				out.Address.Lines = append(out.Address.Lines, part)
			}
		}
	}
	if n := len(out.Address.Lines); n > MaxLines {
		last := strings.Join(out.Address.Lines[MaxLines-1:], ", ")
		out.Address.Lines = append(out.Address.Lines[:MaxLines-1], cut(last))
	}
	return out
}

// line is s as one cleaned line (see Clean).
func line(s string) string {
	var b strings.Builder
	space := false
	for _, r := range s {
		switch {
		case r == utf8.RuneError, unicode.Is(unicode.Cf, r) && r != '\u200C' && r != '\u200D':
			continue
		case unicode.IsSpace(r) || unicode.IsControl(r):
			space = true
			continue
		}
		if space && b.Len() > 0 {
			b.WriteByte(' ')
		}
		space = false
		b.WriteRune(r)
	}
	return cut(b.String())
}

// cut shortens s to MaxText characters.
func cut(s string) string {
	if utf8.RuneCountInString(s) <= MaxText {
		return s
	}
	return strings.TrimSpace(string([]rune(s)[:MaxText]))
}
