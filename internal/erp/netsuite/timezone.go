package netsuite

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	// The zones below must load wherever the binary runs, with or
	// without the system's zoneinfo.
	_ "time/tzdata"

	"github.com/portico/portico/internal/erp"
)

// NetSuite gives one moment two ways. The REST record API gives
// date-times in ISO 8601, in UTC ("Using Datetime Fields",
// https://docs.oracle.com/en/cloud/saas/netsuite/ns-online-help/section_157305090645.html);
// SuiteQL gives them as text without an offset, in the integration user's
// time zone preference, and reads TO_TIMESTAMP literals in that zone. The
// mapping's timezone says which zone that is. The sync keeps ONE time
// base: SuiteQL's text read in the mapping's zone, whichever API a record
// came through (see Fetch). A wrong zone then shifts every time the same
// way, so no change is lost, but it is never silent: where both APIs give
// a record's last-modified time, a disagreement is logged as an error and
// counted (ClockDisagreement), and `portico netsuite check` fails on it.
// Correcting the zone changes the base (TimeBase): the sync then pulls
// every kind again from the beginning and stores its records' times in
// the new base, since the stored ones no longer compare with those read.

// clockTolerance is how far the two APIs' times of one record may
// differ beyond the time between the two reads (both have whole
// seconds). Zone offsets differ by 15 minutes at the least.
const clockTolerance = time.Minute

// stamp is one record's last-modified time as both APIs gave it.
type stamp struct {
	what string        // "customer 42"
	sql  string        // SuiteQL's TO_CHAR text, in the user's zone
	api  time.Time     // the record API's, UTC
	gap  time.Duration // from sending the SuiteQL query to the record API's answer
}

// readings are the instants text stands for in loc: one, or two in the
// hour a daylight-saving change repeats.
func readings(text string, loc *time.Location) []time.Time {
	t, err := time.ParseInLocation(goTimeFormat, text, loc)
	if err != nil {
		return nil
	}
	out := []time.Time{t}
	for _, alt := range []time.Time{t.Add(-time.Hour), t.Add(time.Hour)} {
		if alt.In(loc).Format(goTimeFormat) == text {
			out = append(out, alt)
		}
	}
	return out
}

// agrees reports whether the SuiteQL text, read in loc, is the record
// API's time, or up to gap before it (the record changed between the
// two reads: the document is then the newer).
func (s stamp) agrees(loc *time.Location) bool {
	for _, t := range readings(s.sql, loc) {
		if d := s.api.Sub(t); d >= -clockTolerance && d <= s.gap+clockTolerance {
			return true
		}
	}
	return false
}

// fits reports whether loc is exactly the zone of the SuiteQL text: the
// record API's time shown in loc is the text.
func (s stamp) fits(loc *time.Location) bool {
	return s.api.In(loc).Format(goTimeFormat) == s.sql
}

// offset is the user's zone offset at the stamp's moment, as measured:
// SuiteQL's wall clock less UTC. ok is false when it is not a whole
// quarter hour (the record changed between the two reads).
func (s stamp) offset() (time.Duration, bool) {
	wall, err := time.Parse(goTimeFormat, s.sql)
	if err != nil {
		return 0, false
	}
	d := wall.Sub(s.api.Truncate(time.Second))
	return d, d%(15*time.Minute) == 0 && d.Abs() <= 14*time.Hour
}

// formatOffset writes an offset as ±hh:mm.
func formatOffset(d time.Duration) string {
	sign := "+"
	if d < 0 {
		sign, d = "-", -d
	}
	return fmt.Sprintf("%s%02d:%02d", sign, int(d.Hours()), int(d.Minutes())%60)
}

// knownZones are the IANA zones of NetSuite's Time Zone preference
// (Home > Set Preferences), the most used first: when several fit what
// was measured, the first is written.
var knownZones = []string{
	"UTC",
	"America/Los_Angeles", "America/Denver", "America/Phoenix", "America/Chicago", "America/New_York",
	"Europe/London", "Europe/Berlin", "Europe/Paris", "Europe/Amsterdam", "Europe/Madrid", "Europe/Rome",
	"Europe/Zurich", "Europe/Stockholm", "Europe/Warsaw", "Europe/Prague", "Europe/Brussels", "Europe/Vienna",
	"Europe/Dublin", "Europe/Lisbon", "Europe/Athens", "Europe/Helsinki", "Europe/Bucharest", "Europe/Istanbul",
	"Europe/Moscow",
	"America/Toronto", "America/Vancouver", "America/Edmonton", "America/Winnipeg", "America/Halifax",
	"America/St_Johns", "America/Regina", "America/Anchorage", "Pacific/Honolulu", "America/Mexico_City",
	"America/Tijuana", "America/Chihuahua", "America/Guatemala", "America/Bogota", "America/Lima",
	"America/Caracas", "America/La_Paz", "America/Santiago", "America/Sao_Paulo",
	"America/Argentina/Buenos_Aires", "America/Nuuk", "America/Puerto_Rico",
	"Atlantic/Azores", "Atlantic/Cape_Verde", "Atlantic/Reykjavik",
	"Africa/Casablanca", "Africa/Lagos", "Africa/Johannesburg", "Africa/Cairo", "Africa/Nairobi",
	"Asia/Jerusalem", "Asia/Riyadh", "Asia/Baghdad", "Asia/Tehran", "Asia/Dubai", "Asia/Baku", "Asia/Kabul",
	"Asia/Karachi", "Asia/Yekaterinburg", "Asia/Kolkata", "Asia/Kathmandu", "Asia/Dhaka", "Asia/Almaty",
	"Asia/Yangon", "Asia/Bangkok", "Asia/Jakarta", "Asia/Ho_Chi_Minh", "Asia/Shanghai", "Asia/Hong_Kong",
	"Asia/Singapore", "Asia/Kuala_Lumpur", "Asia/Manila", "Asia/Taipei", "Australia/Perth", "Asia/Seoul",
	"Asia/Tokyo", "Australia/Darwin", "Australia/Adelaide", "Australia/Brisbane", "Australia/Sydney",
	"Australia/Melbourne", "Australia/Hobart", "Pacific/Guam", "Asia/Vladivostok", "Pacific/Auckland",
	"Pacific/Fiji", "Pacific/Tongatapu",
}

var (
	zonesOnce sync.Once
	zones     []*time.Location
)

// knownLocations loads knownZones once.
func knownLocations() []*time.Location {
	zonesOnce.Do(func() {
		for _, name := range knownZones {
			if loc, err := time.LoadLocation(name); err == nil {
				zones = append(zones, loc)
			}
		}
	})
	return zones
}

// zoneFit is what the measured stamps say of the user's zone.
type zoneFit struct {
	samples int      // stamps measured (consistent ones)
	zones   []string // known zones every stamp fits, best first
	// best is the zone to write: zones[0], else a fixed offset
	// (Etc/GMT±h) when every stamp had the same whole-hour offset, else
	// the known zone most stamps fit; "" when nothing was measured.
	best    string
	offsets []time.Duration // the distinct offsets measured, in order
	from    time.Time       // the oldest and newest moments measured
	to      time.Time
}

// fitZone says which zones agree with every stamp. Stamps of records
// that changed between the two reads are left out.
func fitZone(stamps []stamp) zoneFit {
	var f zoneFit
	var use []stamp
	for _, s := range stamps {
		off, ok := s.offset()
		if !ok {
			continue
		}
		use = append(use, s)
		if !slices.Contains(f.offsets, off) {
			f.offsets = append(f.offsets, off)
		}
		if f.from.IsZero() || s.api.Before(f.from) {
			f.from = s.api
		}
		if s.api.After(f.to) {
			f.to = s.api
		}
	}
	f.samples = len(use)
	if len(use) == 0 {
		return f
	}
	bestCount := 0
	for _, loc := range knownLocations() {
		n := 0
		for _, s := range use {
			if s.fits(loc) {
				n++
			}
		}
		if n == len(use) {
			f.zones = append(f.zones, loc.String())
		}
		if n > bestCount {
			bestCount, f.best = n, loc.String()
		}
	}
	switch {
	case len(f.zones) > 0:
		f.best = f.zones[0]
	case len(f.offsets) == 1 && f.offsets[0]%time.Hour == 0:
		// Etc/GMT+8 is UTC−8: POSIX signs.
		h := -int(f.offsets[0] / time.Hour)
		f.best = "Etc/GMT"
		if h > 0 {
			f.best += "+" + strconv.Itoa(h)
		} else if h < 0 {
			f.best += strconv.Itoa(h)
		}
	}
	return f
}

// describe says what was measured, for a comment or a message.
func (f zoneFit) describe() string {
	var offs []string
	for _, o := range f.offsets {
		offs = append(offs, formatOffset(o))
	}
	s := fmt.Sprintf("%d %s", f.samples, plural(f.samples, "record", "records"))
	if !f.from.Equal(f.to) {
		s += fmt.Sprintf(" modified from %s to %s", f.from.Format(time.DateOnly), f.to.Format(time.DateOnly))
	} else {
		s += " modified " + f.from.Format(time.DateOnly)
	}
	return s + ": " + plural(len(offs), "offset ", "offsets ") + strings.Join(offs, ", ")
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// stampSpec says where one kind's last-modified times are: its SuiteQL
// table, condition and column, and its record API type and field.
type stampSpec struct {
	kind, table, where, modified string
	recordType, recordModified   string
}

func specOf(km *KindMap) stampSpec {
	return stampSpec{kind: km.kind.Name, table: km.Table, where: km.Where, modified: km.Modified,
		recordType: km.RecordType, recordModified: km.RecordModified}
}

// sampleTimes reads the last-modified times of up to n records of a
// kind from both APIs: the newest, then the newest modified before
// each of the three months, six months and nine months before it, so
// that samples fall in different seasons where the account has them
// (a zone with daylight saving shows two offsets). A record SuiteQL or
// the record API cannot read is skipped; an account that cannot be
// reached is an error.
func (c *Client) sampleTimes(ctx context.Context, sp stampSpec, n int) ([]stamp, error) {
	var out []stamp
	var seen []string
	var newest time.Time
	for i := range n {
		q := "SELECT id, TO_CHAR(" + sp.modified + ", '" + sqlTimeFormat + "') AS " + colModified + " FROM " + sp.table
		var where []string
		if sp.where != "" {
			where = append(where, sp.where)
		}
		if i > 0 {
			if newest.IsZero() {
				break
			}
			// The literal is read in the user's zone, whichever that
			// is: a few hours do not matter here.
			before := newest.AddDate(0, -3*i, 0)
			where = append(where, sp.modified+" <= TO_TIMESTAMP('"+before.Format(goTimeFormat)+"', '"+sqlTimeFormat+"')")
		}
		if len(where) > 0 {
			q += " WHERE " + strings.Join(where, " AND ")
		}
		q += " ORDER BY " + sp.modified + " DESC, id DESC"
		began := time.Now()
		p, err := c.suiteQL(ctx, q, 1, 0)
		if err != nil {
			if unreachable(err) {
				return nil, err
			}
			break
		}
		if len(p.Items) == 0 {
			break
		}
		row := p.Items[0]
		if i == 0 {
			newest, _ = time.Parse(goTimeFormat, row[colModified])
		}
		if slices.Contains(seen, row["id"]) {
			continue
		}
		seen = append(seen, row["id"])
		api, err := c.recordModified(ctx, sp, row["id"])
		if err != nil {
			if unreachable(err) {
				return nil, err
			}
			continue
		}
		out = append(out, stamp{what: sp.kind + " " + row["id"], sql: row[colModified], api: api, gap: time.Since(began)})
	}
	return out, nil
}

// recordModified reads a record's last-modified time from the record API.
func (c *Client) recordModified(ctx context.Context, sp stampSpec, id string) (time.Time, error) {
	resp, err := c.do(ctx, request{method: "GET",
		path: "/services/rest/record/v1/" + url.PathEscape(sp.recordType) + "/" + url.PathEscape(id)})
	if err != nil {
		return time.Time{}, err
	}
	var doc map[string]any
	if err := json.Unmarshal(resp.body, &doc); err != nil {
		return time.Time{}, &erp.Error{Status: resp.status, Detail: "unreadable record", Err: err}
	}
	s, _ := doc[sp.recordModified].(string)
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		return time.Time{}, &erp.Error{Detail: fmt.Sprintf("%s %s has no %s date-time", sp.recordType, id, sp.recordModified)}
	}
	return t.UTC(), nil
}

// clockWatch counts the records whose two last-modified times
// disagreed, and keeps the last account of it.
type clockWatch struct {
	mu   sync.Mutex
	n    int64
	last string
}

// ClockDisagreement returns how many records this client read from both
// APIs whose last-modified times disagreed (the mapping's timezone is
// not the integration user's), and the last such error's text ("" when
// none did).
func (c *Client) ClockDisagreement() (count int64, last string) {
	c.clock.mu.Lock()
	defer c.clock.mu.Unlock()
	return c.clock.n, c.clock.last
}

// watch checks one record's two times against the mapping's zone; a
// disagreement is logged as an error and counted.
func (c *Client) watch(s stamp) {
	loc := c.m.Location()
	if s.agrees(loc) {
		return
	}
	msg := c.disagreement(s)
	c.clock.mu.Lock()
	c.clock.n++
	c.clock.last = msg
	c.clock.mu.Unlock()
	c.log.Error(msg, "record", s.what, "suiteql", s.sql, "record_api", s.api.Format(time.RFC3339), "timezone", c.m.TimeZone)
}

// disagreement is the error text for a stamp the mapping's zone does not
// explain: both times, the zone, and the fix.
func (c *Client) disagreement(s stamp) string {
	loc := c.m.Location()
	read := "unreadable"
	if rs := readings(s.sql, loc); len(rs) > 0 {
		read = rs[0].UTC().Format(time.RFC3339)
	}
	fix := "set timezone: in the mapping to the integration user's time zone preference (Home > Set Preferences > Time Zone)"
	if f := fitZone([]stamp{s}); f.best != "" {
		fix = fmt.Sprintf("set timezone: %s in the mapping (SuiteQL's offset here is %s; the integration user's Time Zone preference says which zone)",
			f.best, formatOffset(f.offsets[0]))
	}
	return fmt.Sprintf("NetSuite's two clocks disagree on %s: SuiteQL's last-modified %q, read in the mapping's timezone %s, is %s; "+
		"the record API's (UTC) is %s. The mapping's timezone is not the zone SuiteQL uses: %s, then run `portico netsuite check`. "+
		"Until then the sync keeps SuiteQL's times, so no change is lost, but times shown are off; once it is corrected, the sync pulls every kind again from the beginning and stores the right times",
		s.what, s.sql, c.m.TimeZone, read, s.api.Format(time.RFC3339), fix)
}

// family names a kind's record family, whose system fields differ:
// entity, transaction or custom record.
func family(table, recordType string) string {
	switch {
	case table == "transaction":
		return "transaction"
	case strings.HasPrefix(strings.ToLower(recordType), "customrecord"):
		return "custom record"
	}
	return "entity"
}

// families are the record families in the order the check and the
// mapping writer sample them.
var families = []string{"entity", "transaction", "custom record"}

// zoneSamples is how many records of each family the check and the
// mapping writer compare.
const zoneSamples = 3

// checkZone proves the mapping's timezone: for a record of each family
// (the first kind of it whose table and record type answered), SuiteQL's
// last-modified time read in the mapping's zone against the record API's.
// A disagreement fails with both values, the entry to fix and the zone
// that fits what was measured. It returns an error only when NetSuite
// cannot be reached.
func (c *Client) checkZone(ctx context.Context, on []*kindCheck) ([]CheckResult, error) {
	loc := c.m.Location()
	type sampled struct {
		fam    string
		kc     *kindCheck
		stamps []stamp
	}
	var got []sampled
	var all []stamp
	for _, fam := range families {
		i := slices.IndexFunc(on, func(kc *kindCheck) bool {
			return kc.tableOK && kc.cat != nil && family(kc.km.Table, kc.km.RecordType) == fam
		})
		if i < 0 {
			got = append(got, sampled{fam: fam})
			continue
		}
		st, err := c.sampleTimes(ctx, specOf(on[i].km), zoneSamples)
		if err != nil {
			return nil, err
		}
		got = append(got, sampled{fam, on[i], st})
		all = append(all, st...)
	}
	fit := fitZone(all)
	var out []CheckResult
	for _, s := range got {
		r := CheckResult{What: "time zone: " + s.fam, Status: CheckOK}
		if s.kc == nil || len(s.stamps) == 0 {
			r.Status, r.Note = CheckSkipped, "no "+s.fam+" record to compare"
			if s.kc != nil {
				r.What += " (" + s.kc.k.Name + ")"
			}
			out = append(out, r)
			continue
		}
		bad := slices.IndexFunc(s.stamps, func(st stamp) bool { return !st.agrees(loc) })
		if bad < 0 {
			st := s.stamps[0]
			r.What += " (" + st.what + ")"
			r.Note = fmt.Sprintf("SuiteQL's last-modified %q, read in %s, is the record API's %s", st.sql, c.m.TimeZone,
				st.api.Format(time.RFC3339))
			out = append(out, r)
			continue
		}
		st := s.stamps[bad]
		r.What += " (" + st.what + ")"
		r.Status = CheckFailed
		read, apart := "unreadable", ""
		if rs := readings(st.sql, loc); len(rs) > 0 {
			read = rs[0].UTC().Format(time.RFC3339)
			apart = fmt.Sprintf(" (%s apart)", st.api.Sub(rs[0]).Abs())
		}
		r.Note = fmt.Sprintf("SuiteQL's last-modified %q, read in the mapping's timezone %s, is %s; the record API's (UTC) is %s%s: "+
			"the mapping's timezone is not the integration user's, so every time the sync reads is off", st.sql, c.m.TimeZone,
			read, st.api.Format(time.RFC3339), apart)
		r.Fix = "timezone (the integration user's Time Zone preference, Home > Set Preferences)"
		if fit.best != "" {
			r.Fix = fmt.Sprintf("timezone: %s (measured on %s", fit.best, fit.describe())
			if len(fit.zones) > 1 {
				r.Fix += "; " + strings.Join(fit.zones[1:min(len(fit.zones), 4)], ", ") + " fit too"
			}
			r.Fix += "; check it against the integration user's Time Zone preference)"
		}
		out = append(out, r)
	}
	return out, nil
}

// zoneEntry writes the mapping's timezone entry from what the records'
// two times say: the best fitting zone, with a comment saying what was
// measured and, when other zones fit too or none quite does, to verify.
func zoneEntry(stamps []stamp) string {
	const head = "# The zone SuiteQL shows date-times in: the integration user's time zone\n" +
		"# preference (Home > Set Preferences > Time Zone). "
	fit := fitZone(stamps)
	if fit.best == "" {
		return head + "No record could be read through both\n" +
			"# SuiteQL and the record API to measure it: set it to that preference.\n" +
			"timezone: UTC\n"
	}
	var b strings.Builder
	b.WriteString(head + "Measured by comparing\n")
	b.WriteString("# SuiteQL's last-modified times with the record API's (UTC) on\n")
	b.WriteString(commentLines(fit.describe() + "."))
	switch {
	case len(fit.zones) == 0:
		b.WriteString(commentLines(fmt.Sprintf("No well-known zone fits every record: %s is the nearest. Verify it against the preference.", fit.best)))
	case len(fit.zones) > 1:
		others := strings.Join(fit.zones[1:min(len(fit.zones), 6)], ", ")
		if len(fit.offsets) > 1 {
			b.WriteString(commentLines(fmt.Sprintf("These keep the same clock and fit as well: %s. Verify against the preference.", others)))
		} else {
			b.WriteString(commentLines(fmt.Sprintf("These fit as well: %s. The records measured show one offset, which may not tell these apart: verify against the preference.", others)))
		}
	}
	b.WriteString("timezone: " + fit.best + "\n")
	return b.String()
}

// commentLines wraps text into YAML comment lines of about 72 columns.
func commentLines(text string) string {
	var b strings.Builder
	line := "#"
	for _, w := range strings.Fields(text) {
		if len(line)+1+len(w) > 74 && line != "#" {
			b.WriteString(line + "\n")
			line = "#"
		}
		line += " " + w
	}
	return b.String() + line + "\n"
}
