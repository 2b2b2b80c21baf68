package netsuite_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/portico/portico/internal/erp/netsuite"
	"github.com/portico/portico/internal/erp/netsuitetest"
	"github.com/portico/portico/internal/records"
)

// zonedAccount serves a fake account whose integration user has the
// given time zone and date format preferences, seeded with demo data
// modified over the past years (so in both seasons), and returns its
// URL.
func zonedAccount(t *testing.T, zone, dateFormat string) string {
	t.Helper()
	loc, err := time.LoadLocation(zone)
	if err != nil {
		t.Fatal(err)
	}
	return servedAccount(t, netsuitetest.Config{Location: loc, DateFormat: dateFormat}, 40)
}

// withZone is the shipped mapping with its timezone set to zone.
func withZone(t *testing.T, zone string) []byte {
	t.Helper()
	m := strings.Replace(string(netsuite.DefaultMapping), "\ntimezone: UTC\n", "\ntimezone: "+zone+"\n", 1)
	if !strings.Contains(m, "\ntimezone: "+zone+"\n") {
		t.Fatal("the shipped mapping has no timezone entry")
	}
	return []byte(m)
}

// zoneResults are the check's time zone results.
func zoneResults(rep *netsuite.Report) []netsuite.CheckResult {
	var out []netsuite.CheckResult
	for _, r := range rep.Results {
		if strings.HasPrefix(r.What, "time zone: ") {
			out = append(out, r)
		}
	}
	return out
}

// TestCheckProvesTheZone: on accounts west and east of UTC, a mapping
// whose timezone is wrong fails the check for each record family, naming
// both times, the entry and the zone that fits; the right zone passes.
func TestCheckProvesTheZone(t *testing.T) {
	for _, tc := range []struct{ zone, format, wrong string }{
		{"America/Los_Angeles", "", "UTC"},
		{"Europe/Berlin", "DD/MM/YYYY", "UTC"},
		{"Europe/Berlin", "DD/MM/YYYY", "America/Los_Angeles"},
	} {
		t.Run(tc.zone+" mapped as "+tc.wrong, func(t *testing.T) {
			url := zonedAccount(t, tc.zone, tc.format)
			rep, err := checkClient(t, url, withZone(t, tc.wrong), "cs").Check(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			zr := zoneResults(rep)
			if len(zr) != 3 {
				t.Fatalf("time zone results: %d, want one per family\n%s", len(zr), dump(rep))
			}
			for _, r := range zr {
				if r.Status != netsuite.CheckFailed || !r.Status.Failure() {
					t.Errorf("%s: %s, want failed", r.What, r.Status)
				}
				for _, want := range []string{"read in the mapping's timezone " + tc.wrong + ", is ", "the record API's (UTC) is "} {
					if !strings.Contains(r.Note, want) {
						t.Errorf("%s: note lacks %q: %s", r.What, want, r.Note)
					}
				}
				if !strings.HasPrefix(r.Fix, "timezone: "+tc.zone+" (measured on ") {
					t.Errorf("%s: fix %q, want timezone: %s", r.What, r.Fix, tc.zone)
				}
				if r.Kind != "" {
					t.Errorf("%s: kind %q: the zone is the account's", r.What, r.Kind)
				}
			}
			t.Logf("%s: %s\n  fix: %s", zr[0].What, zr[0].Note, zr[0].Fix)

			rep, err = checkClient(t, url, withZone(t, tc.zone), "cs").Check(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if f := rep.Failures(); len(f) > 0 {
				t.Fatalf("the right zone fails:\n%s", dump(&netsuite.Report{Results: f}))
			}
			for _, r := range zoneResults(rep) {
				if r.Status != netsuite.CheckOK || !strings.Contains(r.Note, "read in "+tc.zone+", is the record API's") {
					t.Errorf("right zone: %s %s %s", r.What, r.Status, r.Note)
				}
			}
		})
	}
}

// TestGenerateMappingFindsTheZone: `netsuite mapping` writes the zone the
// records' two times show, with what it measured.
func TestGenerateMappingFindsTheZone(t *testing.T) {
	for _, tc := range []struct{ zone, format string }{
		{"America/Los_Angeles", ""},
		{"Europe/Berlin", "DD/MM/YYYY"},
		{"Asia/Kolkata", "D.M.YYYY"},
		{"UTC", ""},
	} {
		t.Run(tc.zone, func(t *testing.T) {
			url := zonedAccount(t, tc.zone, tc.format)
			out, err := checkClient(t, url, netsuite.DefaultMapping, "cs").GenerateMapping(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			m, err := netsuite.ParseMapping(out)
			if err != nil {
				t.Fatalf("%v\n%s", err, out)
			}
			if m.TimeZone != tc.zone {
				t.Errorf("timezone %q, want %q", m.TimeZone, tc.zone)
			}
			s := string(out)
			head := s[strings.Index(s, "# The zone SuiteQL"):strings.Index(s, "\nkinds:")]
			if !strings.Contains(head, "Measured by comparing") || !strings.Contains(head, "records modified from") {
				t.Errorf("the entry does not say what was measured:\n%s", head)
			}
			t.Logf("%s", head)
			rep, err := checkClient(t, url, out, "cs").Check(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if f := rep.Failures(); len(f) > 0 {
				t.Fatalf("the written mapping fails its check:\n%s", dump(&netsuite.Report{Results: f}))
			}
		})
	}
}

// TestFetchKeepsSuiteQLsTime: a record read through the record API (UTC)
// carries SuiteQL's last-modified time read in the mapping's zone, the
// time base of every pull; with the zone right they are the same moment,
// with it wrong the client says so.
func TestFetchKeepsSuiteQLsTime(t *testing.T) {
	url := zonedAccount(t, "America/Los_Angeles", "")
	ctx := context.Background()
	k, _ := records.Lookup("customer")
	right := checkClient(t, url, withZone(t, "America/Los_Angeles"), "cs")
	wrong := checkClient(t, url, withZone(t, "UTC"), "cs")
	a, err := right.Fetch(ctx, k, 3)
	if err != nil {
		t.Fatal(err)
	}
	b, err := wrong.Fetch(ctx, k, 3)
	if err != nil {
		t.Fatal(err)
	}
	off := a.ModifiedAt.Sub(b.ModifiedAt)
	if off != 7*time.Hour && off != 8*time.Hour {
		t.Errorf("right zone %v, wrong zone %v: want the wrong one 7 or 8 hours early", a.ModifiedAt, b.ModifiedAt)
	}
	if n, _ := right.ClockDisagreement(); n != 0 {
		t.Errorf("right zone: %d disagreements", n)
	}
	n, last := wrong.ClockDisagreement()
	if n != 1 || !strings.Contains(last, "customer 3") || !strings.Contains(last, "set timezone: America/Los_Angeles") {
		t.Errorf("wrong zone: %d disagreements, %q", n, last)
	}
}
