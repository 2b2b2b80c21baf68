package netsuite

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"sync"
	"time"

	"github.com/portico/portico/internal/company"
	"github.com/portico/portico/internal/erp"
)

// The company in NetSuite (NetSuite Help, "Subsidiary" in REST web
// services, and the Schema Browser's subsidiary record): in a OneWorld
// account the company is its root subsidiary, whose record API document
// has the name, the legal name, the tax identification number
// (federalIdNumber: an EIN, or a VAT number) and the main address, a
// subrecord that comes inline with expandSubResources (addr1–addr3, city,
// state, zip, country, addrPhone). An account without subsidiaries has no
// subsidiary record.

var _ erp.Company = (*Client)(nil)

// companyTTL is how long the client keeps what it read of the company
// (or that the account cannot say): the sync asks at every pull, and a
// company changes its address seldom.
const companyTTL = 15 * time.Minute

// companyCache holds the last read of the company.
type companyCache struct {
	mu  sync.Mutex
	at  time.Time
	p   company.Profile
	err error // a permanent failure, kept as long as a profile would be
}

// subsidiaryDoc is what the client reads of a subsidiary's record.
type subsidiaryDoc struct {
	Name            string `json:"name"`
	LegalName       string `json:"legalName"`
	FederalIDNumber string `json:"federalIdNumber"`
	MainAddress     struct {
		Addr1     string  `json:"addr1"`
		Addr2     string  `json:"addr2"`
		Addr3     string  `json:"addr3"`
		City      string  `json:"city"`
		State     refText `json:"state"`
		Zip       string  `json:"zip"`
		Country   refText `json:"country"`
		AddrPhone string  `json:"addrPhone"`
	} `json:"mainAddress"`
}

// refText is a value the record API gives as text ("US") or as a list
// value ({"id": "US", "refName": "United States"}): its text, or the
// value's id.
type refText string

// UnmarshalJSON reads either form; anything else reads as "".
func (t *refText) UnmarshalJSON(b []byte) error {
	var s string
	if json.Unmarshal(b, &s) == nil {
		*t = refText(s)
		return nil
	}
	var v struct {
		ID string `json:"id"`
	}
	if json.Unmarshal(b, &v) == nil {
		*t = refText(v.ID)
	}
	return nil
}

// CompanyProfile implements erp.Company: the root subsidiary's record
// (its id from SuiteQL's subsidiary table, as the base currency), read
// at most every companyTTL. Without subsidiaries it is an error marked
// NotInAccount.
func (c *Client) CompanyProfile(ctx context.Context) (company.Profile, error) {
	c.co.mu.Lock()
	defer c.co.mu.Unlock()
	if !c.co.at.IsZero() && time.Since(c.co.at) < companyTTL {
		return c.co.p, c.co.err
	}
	p, err := c.readCompany(ctx)
	if e, ok := errors.AsType[*erp.Error](err); err == nil || (ok && e.Permanent) {
		c.co.at, c.co.p, c.co.err = time.Now(), p, err
	}
	return p, err
}

// readCompany reads the root subsidiary's record.
func (c *Client) readCompany(ctx context.Context) (company.Profile, error) {
	t, err := c.money(ctx, false)
	if err != nil {
		return company.Profile{}, err
	}
	if t == nil || t.root == "" {
		return company.Profile{}, &erp.Error{Permanent: true, NotInAccount: true,
			Detail: "not in this account: it has no subsidiaries, so the company's name and address cannot be read (the portal keeps the profile it has)"}
	}
	resp, err := c.do(ctx, request{method: "GET", path: "/services/rest/record/v1/subsidiary/" + url.PathEscape(t.root) + "?expandSubResources=true"})
	if err != nil {
		if e, ok := errors.AsType[*erp.Error](err); ok && e.Permanent {
			cp := *e
			cp.Detail = fmt.Sprintf("cannot read the root subsidiary %s, so the company's name and address cannot be read (the integration role needs to see subsidiaries): %s", t.root, e.Detail)
			return company.Profile{}, &cp
		}
		return company.Profile{}, err
	}
	var doc subsidiaryDoc
	if err := json.Unmarshal(resp.body, &doc); err != nil {
		return company.Profile{}, &erp.Error{Status: resp.status, Detail: "unreadable subsidiary record", Err: err}
	}
	a := doc.MainAddress
	return company.Profile{
		Name:      doc.Name,
		LegalName: doc.LegalName,
		TaxID:     doc.FederalIDNumber,
		Phone:     a.AddrPhone,
		Address: company.Address{
			Lines:      []string{a.Addr1, a.Addr2, a.Addr3},
			City:       a.City,
			Region:     string(a.State),
			PostalCode: a.Zip,
			Country:    string(a.Country),
		},
	}.Clean(), nil
}
