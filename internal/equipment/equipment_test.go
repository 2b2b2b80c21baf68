package equipment

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/portico/portico/internal/portal"
)

var secret = []byte(strings.Repeat("s", 32))

// service starts a fake equipment-charge service answering with h, and a
// client of it.
func service(t *testing.T, h http.HandlerFunc) *Client {
	t.Helper()
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return New(srv.URL+"/", secret)
}

func TestChargesSignsTheCallAndDecodesTheAnswer(t *testing.T) {
	var jtis []string
	c := service(t, func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet || r.URL.Path != "/field-equipment-charge-data/list" || r.URL.Query().Get("projectId") != "42" {
			t.Errorf("request %s %s", r.Method, r.URL)
		}
		var claims jwt.RegisteredClaims
		raw, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
		_, err := jwt.ParseWithClaims(raw, &claims, func(*jwt.Token) (any, error) { return secret, nil },
			jwt.WithValidMethods([]string{"HS256"}), jwt.WithIssuer("portico"), jwt.WithSubject("acme"), jwt.WithIssuedAt())
		if !ok || err != nil {
			t.Errorf("token %q: %v", raw, err)
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		if age := claims.ExpiresAt.Sub(claims.IssuedAt.Time); age != 5*time.Minute {
			t.Errorf("token max age %v, want 5m", age)
		}
		jtis = append(jtis, claims.ID)
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"data": [
			{"id": 17, "date": "2026-03-07", "equipment": "Excavator 320", "hours": 6.5, "rate": 120, "amount": 780, "description": "Trenching", "extra": true},
			{"id": 18, "date": "2026-03-08", "equipment": "Pump", "hours": 0, "rate": 0, "amount": 0}
		]}`))
	})
	got, err := c.Charges(context.Background(), "acme", 42)
	if err != nil {
		t.Fatal(err)
	}
	want := []Charge{
		{ID: 17, Date: "2026-03-07", Equipment: "Excavator 320", Hours: 6.5, Rate: 120, Amount: 780, Description: "Trenching"},
		{ID: 18, Date: "2026-03-08", Equipment: "Pump"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("charges %+v, want %+v", got, want)
	}
	if _, err := c.Charges(context.Background(), "acme", 42); err != nil {
		t.Fatal(err)
	}
	if len(jtis) != 2 || jtis[0] == "" || jtis[0] == jtis[1] {
		t.Errorf("jti not fresh per call: %q", jtis)
	}
}

func TestChargesOfAProjectWithoutCharges(t *testing.T) {
	c := service(t, func(w http.ResponseWriter, r *http.Request) { w.Write([]byte(`{"data": []}`)) })
	got, err := c.Charges(context.Background(), "acme", 1)
	if err != nil || got == nil || len(got) != 0 {
		t.Errorf("charges %#v, err %v; want an empty list", got, err)
	}
}

// failsWith checks err is an unavailable portal.Error showing message
// whose logged cause mentions cause and carries no credential or query.
func failsWith(t *testing.T, err error, message, cause string) {
	t.Helper()
	var pe *portal.Error
	if !errors.As(err, &pe) || pe.Code != portal.CodeUnavailable || pe.Message != message {
		t.Fatalf("err %v, want an unavailable error saying %q", err, message)
	}
	if !strings.Contains(err.Error(), cause) {
		t.Errorf("cause %q does not mention %q", err, cause)
	}
	if strings.Contains(err.Error(), "Bearer") || strings.Contains(err.Error(), "projectId") || strings.Contains(err.Error(), "eyJ") {
		t.Errorf("cause %q carries a credential or a query string", err)
	}
}

func TestChargesFailures(t *testing.T) {
	for name, c := range map[string]struct {
		status         int
		body           string
		message, cause string
	}{
		"401":               {401, `{"error":"bad token"}`, msgRefused, "401"},
		"403":               {403, ``, msgRefused, "403"},
		"500":               {500, `{"data": []}`, msgUnavailable, "500"},
		"302":               {302, ``, msgUnavailable, "302"},
		"not JSON":          {200, `<html>oops</html>`, msgUnavailable, "malformed"},
		"no data":           {200, `{"items": []}`, msgUnavailable, `no "data"`},
		"data not an array": {200, `{"data": {"id": 1}}`, msgUnavailable, "malformed"},
		"missing amount":    {200, `{"data": [{"id": 1, "date": "2026-01-02", "equipment": "Pump", "hours": 1, "rate": 2}]}`, msgUnavailable, "charge 0 lacks"},
		"bad date":          {200, `{"data": [{"id": 1, "date": "02/01/2026", "equipment": "Pump", "hours": 1, "rate": 2, "amount": 2}]}`, msgUnavailable, "not yyyy-mm-dd"},
		"fractional id":     {200, `{"data": [{"id": 1.5, "date": "2026-01-02", "equipment": "Pump", "hours": 1, "rate": 2, "amount": 2}]}`, msgUnavailable, "malformed"},
		"string amount":     {200, `{"data": [{"id": 1, "date": "2026-01-02", "equipment": "Pump", "hours": 1, "rate": 2, "amount": "2"}]}`, msgUnavailable, "malformed"},
		"trailing garbage":  {200, `{"data": []} {}`, msgUnavailable, "malformed"},
		"oversize":          {200, `{"data": [` + strings.Repeat(" ", maxBody) + `]}`, msgUnavailable, "over 4194304 bytes"},
	} {
		t.Run(name, func(t *testing.T) {
			cl := service(t, func(w http.ResponseWriter, r *http.Request) {
				w.WriteHeader(c.status)
				w.Write([]byte(c.body))
			})
			_, err := cl.Charges(context.Background(), "acme", 42)
			failsWith(t, err, c.message, c.cause)
		})
	}
}

func TestChargesTimeOut(t *testing.T) {
	slow := func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-time.After(5 * time.Second):
		}
	}
	c := service(t, slow)
	c.client.Timeout = 50 * time.Millisecond
	_, err := c.Charges(context.Background(), "acme", 42)
	failsWith(t, err, msgTimeout, "Client.Timeout")

	// The caller's deadline counts too.
	c = service(t, slow)
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	_, err = c.Charges(ctx, "acme", 42)
	failsWith(t, err, msgTimeout, "deadline exceeded")
}

func TestChargesServiceDown(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	srv.Close()
	_, err := New(srv.URL, secret).Charges(context.Background(), "acme", 42)
	failsWith(t, err, msgUnavailable, "connect")
}
