package netsuitetest_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/portico/portico/internal/demo"
	"github.com/portico/portico/internal/erp/netsuitetest"
)

// FuzzSuiteQL feeds the query engine arbitrary text: it must answer every
// query with a page of valid JSON or an error, and never panic.
func FuzzSuiteQL(f *testing.F) {
	fake, err := netsuitetest.New(netsuitetest.Config{})
	if err != nil {
		f.Fatal(err)
	}
	if _, err := demo.Generate(context.Background(), fake, demo.Options{PerKind: 20, Now: start}); err != nil {
		f.Fatal(err)
	}
	for _, q := range []string{
		projectColumns + ` WHERE lastmodifieddate > TO_TIMESTAMP('2026-11-22 07:00:00', 'YYYY-MM-DD HH24:MI:SS') OR (lastmodifieddate = TO_TIMESTAMP('2026-11-22 07:00:00', 'YYYY-MM-DD HH24:MI:SS') AND id > 123) ORDER BY lastmodifieddate, id`,
		`SELECT id, memo FROM transaction WHERE type = 'VendBill' AND (lastmodifieddate > TO_TIMESTAMP('2020-01-01 00:00:00', 'YYYY-MM-DD HH24:MI:SS') OR (lastmodifieddate = TO_TIMESTAMP('2020-01-01 00:00:00', 'YYYY-MM-DD HH24:MI:SS') AND id > 0)) ORDER BY lastmodifieddate, id`,
		`SELECT recordid, TO_CHAR(deleteddate, 'YYYY-MM-DD HH24:MI:SS') AS deleteddate FROM deletedrecord WHERE type = 'job' AND deleteddate >= TO_TIMESTAMP('2026-01-01 00:00:00', 'YYYY-MM-DD HH24:MI:SS') ORDER BY deleteddate, recordid`,
		`select id, BUILTIN.DF(custrecord_res_opp_stage) from customrecord_res_opportunity where name <> 'x' and (id < 5 or id >= -2.5) order by name desc`,
		`SELECT TO_CHAR(startdate, 'DD/MM/YYYY') x FROM job WHERE startdate = '2025-01-01' ORDER BY startdate`,
		`SELECT id FROM job WHERE ((((id > 1))))`, `SELECT`, `'`, `SELECT id FROM job WHERE id = TO_TIMESTAMP(`,
	} {
		f.Add(q, 1000, 0)
	}
	f.Fuzz(func(t *testing.T, q string, limit, offset int) {
		limit = 1 + abs(limit)%1000
		offset = abs(offset) % 100
		out, err := fake.RunQuery(q, limit, offset)
		if err == nil && !json.Valid(out) {
			t.Errorf("%q: invalid JSON %.200s", q, out)
		}
	})
}

func abs(n int) int {
	if n < 0 {
		return -(n + 1) // no overflow at math.MinInt
	}
	return n
}
