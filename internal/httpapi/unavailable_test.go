package httpapi

import (
	"context"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/portico/portico/internal/portal"
	"github.com/portico/portico/internal/records"
	"github.com/portico/portico/internal/sqlstore"
)

// listFails is a tenant's store whose lists fail with err.
type listFails struct {
	TenantStore
	err error
}

func (s listFails) ListRecords(context.Context, records.ListQuery) (records.Page, error) {
	return records.Page{}, s.err
}

// A request whose database connection was lost (an administrator ended
// it, PostgreSQL restarted) is a 503 with Retry-After that says so, never
// a 500; any other store failure stays a 500 with a request id.
func TestALostDatabaseConnectionIsA503(t *testing.T) {
	e, tok := recordsEnv(t)
	e.srv.dbUnavailable = sqlstore.Unavailable
	inner := e.srv.tenants
	for _, c := range []struct {
		name  string
		err   error
		code  int
		retry string
	}{
		{"terminated by an administrator", &pgconn.PgError{Code: "57P01", Message: "terminating connection due to administrator command"}, 503, "1"},
		{"a connection failure", &pgconn.PgError{Code: "08006", Message: "connection failure"}, 503, "1"},
		{"a bug", &pgconn.PgError{Code: "42703", Message: "column does not exist"}, 500, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			e.srv.tenants = func(id portal.TenantID) TenantStore { return listFails{inner(id), c.err} }
			w := e.call("GET", "/api/v1/netsuite/portal-list?type=project", tok, 10, "")
			p := decodeProblem(t, w)
			if w.Code != c.code || w.Header().Get("Retry-After") != c.retry {
				t.Fatalf("%d, Retry-After %q: %+v", w.Code, w.Header().Get("Retry-After"), p)
			}
			if c.code == 503 && p.Detail != msgNoDatabase {
				t.Errorf("detail %q", p.Detail)
			}
		})
	}
}
