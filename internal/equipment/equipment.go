// Package equipment is the client of the external equipment-charge service
// (SPEC §7: "/field-equipment-charge-data/list with a JWT"), whose charges
// show on a project's cost-details tab.
//
// The spec does not show the service's payload, so this package fixes the
// contract (docs/api.md repeats it):
//
//	GET {base}/field-equipment-charge-data/list?projectId=<project record id>
//	Authorization: Bearer <JWT>
//
// The JWT is HS256-signed with the shared secret; its claims are iss
// "portico", sub the tenant id, iat, exp = iat + 5 minutes (SPEC §9's token
// max age) and a random jti. A 200 answer is JSON:
//
//	{"data": [{"id": 17, "date": "2026-03-07", "equipment": "Excavator 320",
//	           "hours": 6.5, "rate": 120, "amount": 780,
//	           "description": "Trenching, north bank"}]}
//
// id (a positive integer), date (yyyy-mm-dd), equipment (a non-empty name),
// hours, rate and amount (numbers) are required; description is optional;
// other members are ignored. An answer that breaks this, or is larger than
// 4 MiB, is refused as malformed. 401 and 403 mean the service refused the
// portal's credentials; any other status is a failure.
package equipment

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/portico/portico/internal/portal"
)

const (
	listPath    = "/field-equipment-charge-data/list" // below the configured base URL
	tokenMaxAge = 5 * time.Minute                     // SPEC §9: token max age for the sync helper
	timeout     = 10 * time.Second                    // the whole call, body included
	maxBody     = 4 << 20                             // bytes of an answer
)

// The messages users see; the causes go to the log only.
const (
	msgUnavailable = "The equipment-charge service is unavailable right now."
	msgTimeout     = "The equipment-charge service did not answer in time."
	msgRefused     = "The equipment-charge service refused the portal's credentials."
)

// Charge is one equipment charge of a project, as the service lists it.
type Charge struct {
	ID          int64   `json:"id"`
	Date        string  `json:"date"` // yyyy-mm-dd
	Equipment   string  `json:"equipment"`
	Hours       float64 `json:"hours"`
	Rate        float64 `json:"rate"`
	Amount      float64 `json:"amount"`
	Description string  `json:"description"`
}

// Client calls the equipment-charge service. It is safe for concurrent use.
type Client struct {
	base   string
	secret []byte
	client *http.Client
}

// New returns a client of the service at baseURL (scheme, host and an
// optional path prefix; config.Load validates it) that signs its tokens
// with secret. Calls time out after 10 seconds.
func New(baseURL string, secret []byte) *Client {
	return &Client{
		base:   strings.TrimRight(baseURL, "/"),
		secret: secret,
		client: &http.Client{Timeout: timeout},
	}
}

// Charges lists the equipment charges of project projectID of tenant, in
// the service's order. Every error is a *portal.Error with
// portal.CodeUnavailable whose Message is safe to show (the service is
// unavailable, did not answer in time, or refused the credentials) and
// whose cause is for the log only.
func (c *Client) Charges(ctx context.Context, tenant portal.TenantID, projectID int64) ([]Charge, error) {
	token, err := c.token(tenant, time.Now())
	if err != nil {
		return nil, portal.Wrap(portal.CodeUnavailable, err, msgUnavailable)
	}
	target := c.base + listPath + "?" + url.Values{"projectId": {strconv.FormatInt(projectID, 10)}}.Encode()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, target, nil)
	if err != nil {
		return nil, portal.Wrap(portal.CodeUnavailable, err, msgUnavailable)
	}
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Accept", "application/json")
	resp, err := c.client.Do(req)
	if err != nil {
		return nil, failure(err)
	}
	defer resp.Body.Close()
	switch {
	case resp.StatusCode == http.StatusUnauthorized || resp.StatusCode == http.StatusForbidden:
		return nil, portal.Wrap(portal.CodeUnavailable, fmt.Errorf("equipment service answered %s", resp.Status), msgRefused)
	case resp.StatusCode != http.StatusOK:
		return nil, portal.Wrap(portal.CodeUnavailable, fmt.Errorf("equipment service answered %s", resp.Status), msgUnavailable)
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxBody+1))
	if err != nil {
		return nil, failure(err)
	}
	if len(body) > maxBody {
		return nil, portal.Wrap(portal.CodeUnavailable, fmt.Errorf("equipment service answer is over %d bytes", maxBody), msgUnavailable)
	}
	charges, err := decode(body)
	if err != nil {
		return nil, portal.Wrap(portal.CodeUnavailable, fmt.Errorf("malformed equipment service answer: %w", err), msgUnavailable)
	}
	return charges, nil
}

// token signs the call's JWT, issued at now.
func (c *Client) token(tenant portal.TenantID, now time.Time) (string, error) {
	jti := make([]byte, 16)
	rand.Read(jti)
	return jwt.NewWithClaims(jwt.SigningMethodHS256, jwt.RegisteredClaims{
		Issuer:    "portico",
		Subject:   string(tenant),
		IssuedAt:  jwt.NewNumericDate(now),
		ExpiresAt: jwt.NewNumericDate(now.Add(tokenMaxAge)),
		ID:        hex.EncodeToString(jti),
	}).SignedString(c.secret)
}

// failure classifies a transport error. The URL (and its query) is left
// out of the cause: the log never carries query strings.
func failure(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	var ne net.Error
	if errors.Is(err, context.DeadlineExceeded) || (errors.As(err, &ne) && ne.Timeout()) {
		return portal.Wrap(portal.CodeUnavailable, fmt.Errorf("equipment service: %w", err), msgTimeout)
	}
	return portal.Wrap(portal.CodeUnavailable, fmt.Errorf("equipment service: %w", err), msgUnavailable)
}

// wireCharge is a charge as it arrives; pointers tell a missing member
// from a zero one.
type wireCharge struct {
	ID          *int64   `json:"id"`
	Date        *string  `json:"date"`
	Equipment   *string  `json:"equipment"`
	Hours       *float64 `json:"hours"`
	Rate        *float64 `json:"rate"`
	Amount      *float64 `json:"amount"`
	Description string   `json:"description"`
}

// decode checks an answer against the contract in the package comment.
func decode(body []byte) ([]Charge, error) {
	var answer struct {
		Data *[]wireCharge `json:"data"`
	}
	if err := json.Unmarshal(body, &answer); err != nil {
		return nil, err
	}
	if answer.Data == nil {
		return nil, errors.New(`no "data" array`)
	}
	out := make([]Charge, 0, len(*answer.Data))
	for i, w := range *answer.Data {
		if w.ID == nil || *w.ID <= 0 || w.Date == nil || w.Equipment == nil || strings.TrimSpace(*w.Equipment) == "" ||
			w.Hours == nil || w.Rate == nil || w.Amount == nil {
			return nil, fmt.Errorf("charge %d lacks id, date, equipment, hours, rate or amount", i)
		}
		if _, err := time.Parse(time.DateOnly, *w.Date); err != nil {
			return nil, fmt.Errorf("charge %d: date %q is not yyyy-mm-dd", i, *w.Date)
		}
		out = append(out, Charge{ID: *w.ID, Date: *w.Date, Equipment: *w.Equipment, Hours: *w.Hours,
			Rate: *w.Rate, Amount: *w.Amount, Description: w.Description})
	}
	return out, nil
}
