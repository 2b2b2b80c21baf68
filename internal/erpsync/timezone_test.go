package erpsync_test

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/portico/portico/internal/erp/netsuite"
	"github.com/portico/portico/internal/erp/netsuitetest"
	"github.com/portico/portico/internal/erpsync"
	"github.com/portico/portico/internal/portal"
	"github.com/portico/portico/internal/sqlstore"
)

// zoneMapping is the shipped mapping with its timezone entry set to zone.
func zoneMapping(t testing.TB, zone string) []byte {
	t.Helper()
	m := strings.Replace(string(netsuite.DefaultMapping), "\ntimezone: UTC\n", "\ntimezone: "+zone+"\n", 1)
	if !strings.Contains(m, "\ntimezone: "+zone+"\n") {
		t.Fatal("the shipped mapping has no timezone entry to replace")
	}
	return []byte(m)
}

func mustZone(t testing.TB, name string) *time.Location {
	t.Helper()
	loc, err := time.LoadLocation(name)
	if err != nil {
		t.Fatal(err)
	}
	return loc
}

// zoned is a fake account whose integration user's time zone is zone
// and date format dateFormat ("": NetSuite's default), read with a
// mapping that says mappingZone.
func zoned(t testing.TB, perKind int, zone, dateFormat, mappingZone string) *fakeAccount {
	t.Helper()
	return newAccountConfig(t, perKind, netsuitetest.Config{Location: mustZone(t, zone), DateFormat: dateFormat},
		zoneMapping(t, mappingZone))
}

// fetched names the records a test opens in the portal (so the engine
// fetches them whole from the record API) and then edits in NetSuite: a
// record of each family.
var fetched = []struct {
	kind, recordType, title string
}{
	{"project", "job", "companyName"},
	{"customer", "customer", "companyName"},
	{"invoice", "invoice", "memo"},
	{"customrecord_res_opportunity", "customrecord_res_opportunity", "name"},
}

// TestEditsAfterAFetchAndDeletionsArriveWhateverTheZone opens records (the
// engine fetches them whole from the record API, which gives UTC), edits
// them in NetSuite a minute later and deletes others, on accounts west
// and east of UTC, read with a mapping whose zone is right and one whose
// zone is UTC (what `netsuite mapping` wrote before it measured the
// zone): every edit arrives at the next pull, and every deletion. Before
// the sync kept one time base, the Los Angeles account read as UTC lost
// all 41 edits (for good: 40 were still lost 9 hours later) and missed
// all 12 deletions, on both engines.
func TestEditsAfterAFetchAndDeletionsArriveWhateverTheZone(t *testing.T) {
	for _, tc := range []struct{ zone, format, mapping string }{
		{"America/Los_Angeles", "", "UTC"},
		{"America/Los_Angeles", "", "America/Los_Angeles"},
		{"Europe/Berlin", "DD/MM/YYYY", "UTC"},
		{"Europe/Berlin", "DD/MM/YYYY", "Europe/Berlin"},
	} {
		t.Run(strings.ReplaceAll(tc.zone, "/", "_")+"_mapping_"+strings.ReplaceAll(tc.mapping, "/", "_"), func(t *testing.T) {
			stores(t, func(t *testing.T, ten *sqlstore.Tenant) {
				ctx := context.Background()
				a := zoned(t, 30, tc.zone, tc.format, tc.mapping)
				eng := erpsync.New(a.connector(t, 1000), ten, erpsync.Options{Now: a.clock.Now})
				if err := eng.Pull(ctx, nil, true); err != nil {
					t.Fatal(err)
				}
				// People work in NetSuite; the next pull brings it.
				const opened = 10
				a.clock.Advance(10 * time.Minute)
				for _, f := range fetched {
					for id := int64(1); id <= opened; id++ {
						if err := a.fake.Update(f.recordType, id, map[string]any{f.title: fmt.Sprintf("First edit %d", id)}); err != nil {
							t.Fatal(err)
						}
					}
				}
				a.clock.Advance(time.Minute)
				if err := eng.Pull(ctx, nil, false); err != nil {
					t.Fatal(err)
				}
				// Record pages opened: each record fetched whole.
				for _, f := range fetched {
					for id := int64(1); id <= opened; id++ {
						if err := eng.EnrichNow(ctx, f.kind, id); err != nil {
							t.Fatalf("%s %d: %v", f.kind, id, err)
						}
					}
				}
				// A change made in the portal: written to NetSuite and read
				// back from the record API.
				const written = 14
				editProjectAt(t, ten, written, `{"companyname": "Written from the portal"}`, a.clock.Now())
				if n, err := eng.Push(ctx); err != nil || n != 1 {
					t.Fatalf("push: %d, %v", n, err)
				}
				// A minute later, people edit them in NetSuite and delete
				// others.
				a.clock.Advance(time.Minute)
				edits := 1
				if err := a.fake.Update("job", written, map[string]any{"companyName": "Edited in NetSuite after the portal"}); err != nil {
					t.Fatal(err)
				}
				for _, f := range fetched {
					for id := int64(1); id <= opened; id++ {
						if err := a.fake.Update(f.recordType, id, map[string]any{f.title: fmt.Sprintf("Edited in NetSuite %d", id)}); err != nil {
							t.Fatal(err)
						}
						edits++
					}
				}
				deletions := 0
				for _, f := range fetched {
					for id := int64(opened + 1); id <= opened+3; id++ {
						if err := a.fake.Delete(f.recordType, id); err != nil {
							t.Fatal(err)
						}
						deletions++
					}
				}
				a.clock.Advance(time.Minute)
				if err := eng.Pull(ctx, nil, false); err != nil {
					t.Fatal(err)
				}
				lost, missed := 0, 0
				if r, err := ten.Record(ctx, "project", written); err != nil || r.Title != "Edited in NetSuite after the portal" {
					lost++
					t.Logf("lost: the edit after the portal's write: %q %v", r.Title, err)
				}
				for _, f := range fetched {
					for id := int64(1); id <= opened; id++ {
						r, err := ten.Record(ctx, f.kind, id)
						if err != nil {
							t.Fatal(err)
						}
						if r.Title != fmt.Sprintf("Edited in NetSuite %d", id) {
							lost++
							t.Logf("lost: %s %d: %q", f.kind, id, r.Title)
						}
					}
					for id := int64(opened + 1); id <= opened+3; id++ {
						if _, err := ten.Record(ctx, f.kind, id); !portal.IsNotFound(err) {
							missed++
						}
					}
				}
				t.Logf("account in %s, mapping says %s: %d of %d edits made a minute after the record was fetched lost, %d of %d deletions missed",
					tc.zone, tc.mapping, lost, edits, missed, deletions)
				if lost > 0 || missed > 0 {
					t.Errorf("%d of %d edits lost, %d of %d deletions missed", lost, edits, missed, deletions)
				}
				// A wrong zone is never silent: the status says what
				// disagreed and the fix, and a counter counts it.
				st, err := eng.Status(ctx)
				if err != nil {
					t.Fatal(err)
				}
				var m strings.Builder
				if err := eng.WritePrometheus(ctx, &m); err != nil {
					t.Fatal(err)
				}
				quiet := metric(t, m.String(), "portico_sync_erp_clock_disagreements_total") == 0
				if tc.zone == tc.mapping {
					if st.Clock != "" || !quiet {
						t.Errorf("right zone, yet a disagreement: %q\n%s", st.Clock, m.String())
					}
					return
				}
				for _, want := range []string{"timezone: " + tc.zone, "read in the mapping's timezone UTC", "the record API's (UTC) is"} {
					if !strings.Contains(st.Clock, want) {
						t.Errorf("status after a disagreement lacks %q: %q", want, st.Clock)
					}
				}
				if quiet {
					t.Errorf("no disagreement counted:\n%s", m.String())
				}
				t.Logf("the status says: %s", st.Clock)
			})
		})
	}
}

// metric returns the value of the one series of a metric in Prometheus'
// text exposition format, failing the test when it is not there once.
func metric(t testing.TB, text, name string) float64 {
	t.Helper()
	var values []float64
	for line := range strings.Lines(text) {
		series, value, ok := strings.Cut(strings.TrimSpace(line), " ")
		if !ok || strings.HasPrefix(series, "#") {
			continue
		}
		if n, _, _ := strings.Cut(series, "{"); n != name {
			continue
		}
		v, err := strconv.ParseFloat(value, 64)
		if err != nil {
			t.Fatalf("%s: value %q: %v", name, value, err)
		}
		values = append(values, v)
	}
	if len(values) != 1 {
		t.Fatalf("%d series of %s in:\n%s", len(values), name, text)
	}
	return values[0]
}
