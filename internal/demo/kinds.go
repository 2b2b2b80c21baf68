package demo

import (
	"math/rand/v2"
	"strconv"
	"time"
)

// This file holds one fill function per kind. Each sets the row's promoted
// values, calls head to start the document with them, then appends the
// kind's own fields. Status names must be among the registry's Choices
// for the kind (a test checks every generated status).

// Status weights. Where the right status depends on a record's age, there
// is one table per age band.
var (
	departments = []weighted{
		{"Ecology", 30}, {"Engineering", 20}, {"Field operations", 30}, {"Finance", 7}, {"Sales", 6}, {"Administration", 7},
	}
	clientStatuses = []weighted{{"Prospect", 15}, {"Active", 65}, {"Inactive", 20}}
	vendorCats     = []weighted{
		{"Nursery", 20}, {"Earthworks", 25}, {"Surveying", 15}, {"Laboratory", 12}, {"Equipment", 13}, {"Consulting", 15},
	}
	resourceTypes = []weighted{{"Crew", 35}, {"Equipment", 30}, {"Specialist", 20}, {"Subcontract", 15}}

	projectFuture  = []weighted{{"Proposed", 60}, {"Planning", 40}}
	projectYoung   = []weighted{{"Proposed", 10}, {"Planning", 30}, {"Active", 60}}                 // < 6 months
	projectRunning = []weighted{{"Planning", 5}, {"Active", 70}, {"Monitoring", 20}, {"Closed", 5}} // < 2 years
	projectMature  = []weighted{{"Active", 30}, {"Monitoring", 50}, {"Closed", 20}}                 // < 4 years
	projectOld     = []weighted{{"Active", 5}, {"Monitoring", 45}, {"Closed", 50}}

	requestNew     = []weighted{{"Draft", 30}, {"Submitted", 40}, {"Under review", 30}}                      // < 30 days
	requestRecent  = []weighted{{"Submitted", 15}, {"Under review", 35}, {"Approved", 35}, {"Rejected", 15}} // < 120 days
	requestDecided = []weighted{{"Approved", 70}, {"Rejected", 30}}

	oppFuture = []weighted{{"Lead", 35}, {"Qualified", 35}, {"Proposal", 30}}
	oppRecent = []weighted{{"Proposal", 40}, {"Won", 30}, {"Lost", 30}}
	oppClosed = []weighted{{"Won", 40}, {"Lost", 60}}

	vqNew = []weighted{{"Sent", 60}, {"Received", 40}}
	vqOld = []weighted{{"Received", 15}, {"Approved", 60}, {"Expired", 25}}

	invoiceNew     = []weighted{{"Open", 85}, {"Paid in full", 12}, {"Voided", 3}} // within terms
	invoiceLate    = []weighted{{"Paid in full", 60}, {"Overdue", 35}, {"Voided", 5}}
	invoiceSettled = []weighted{{"Paid in full", 88}, {"Overdue", 7}, {"Voided", 5}}

	billNew  = []weighted{{"Pending approval", 60}, {"Open", 40}}
	billMid  = []weighted{{"Pending approval", 10}, {"Open", 40}, {"Paid in full", 45}, {"Rejected", 5}}
	billOld  = []weighted{{"Paid in full", 93}, {"Open", 3}, {"Rejected", 4}}
	milePlan = []weighted{{"Scheduled", 85}, {"On hold", 15}}
	mileNow  = []weighted{{"Ready to bill", 60}, {"Billed", 30}, {"On hold", 10}}
	mileDone = []weighted{{"Billed", 92}, {"On hold", 8}}

	budgetCats  = []weighted{{"Labor", 30}, {"Materials", 20}, {"Equipment", 15}, {"Subcontract", 20}, {"Monitoring", 15}}
	ledgerTypes = []weighted{{"Released", 20}, {"Reserved", 15}, {"Sold", 50}, {"Retired", 15}}
	creditTypes = []weighted{{"Wetland", 40}, {"Stream", 35}, {"Species", 10}, {"Nutrient", 15}}
)

// Lists whose values are written as {"id", "refName"} list values; the id
// is the 1-based position.
var (
	terms           = []string{"Net 30", "Net 45", "Net 60", "Due on receipt"}
	termDays        = []int32{30, 45, 60, 0}
	employeeTypes   = []string{"Full-time", "Part-time", "Seasonal"}
	offices         = []string{"Raleigh office", "Wilmington office", "Asheville office", "Richmond office", "Charleston office", "Field office"}
	billingTypes    = []string{"Fixed bid, milestone", "Time and materials", "Fixed bid, interval"}
	invoiceItems    = []string{"Professional services", "Construction", "Monitoring", "Mitigation credits", "Design", "Reimbursable expenses"}
	expenseAccounts = []string{"5100 Project materials", "5200 Subcontractors", "5300 Equipment rental", "5400 Laboratory services", "5500 Professional fees"}
	payablesAccount = "2000 Accounts Payable"
	corpsDistricts  = []string{"SAW", "SAW", "NAO", "SAC", "SAS", "SAJ", "LRN", "LRH", "NAB", "MVN", "SAM", "NAP"}
	areaCodes       = []string{"919", "984", "704", "336", "252", "910", "828", "804", "757", "540", "843", "864", "803", "404", "770", "912", "615", "865", "410", "301", "850", "904", "502", "205", "412", "304", "504"}
	streets         = []string{"Road", "Street", "Avenue", "Lane", "Drive", "Parkway", "Church Road", "Mill Road", "Farm Road"}
	basins          = []string{"Neuse", "Cape Fear", "Tar-Pamlico", "Roanoke", "Yadkin", "Catawba", "French Broad", "James", "Savannah", "Santee", "Chowan", "Lumber"}
	milestones      = []string{"Mobilization", "Design approval", "Permit issued", "Construction 50% complete", "Construction complete", "As-built report", "Monitoring year 1", "Monitoring year 2", "Monitoring year 3", "Monitoring year 5", "Credit release", "Closeout"}
	bankCreditTypes = []string{"Wetland, Stream", "Stream", "Wetland", "Wetland, Stream, Nutrient", "Species"}
	invoicePhrases  = []string{"Progress billing", "Milestone billing", "Monitoring services", "Credit sale", "Retainage release", "Time and materials", "Design services"}
)

// clientPatterns name clients by category (clientCategories order). {C}
// is a county, {T} a town, {P} a place, {F} a feature, {S} a surname,
// {ST} a state name, {N} a small number.
var clientPatterns = [][]string{
	{"{C} County Public Works", "{C} County Parks and Recreation", "{C} County Stormwater Division", "{C} Soil and Water Conservation District", "{C} County Board of Education"},
	{"City of {T}", "Town of {T} Public Utilities", "{T} Water and Sewer Authority", "City of {T} Stormwater Utility"},
	{"{ST} Department of Transportation, Division {N}", "{T} Regional Airport Authority", "{ST} Turnpike Authority", "{C} County Transit"},
	{"{S} Development Group", "{S} Homes", "{P} Ridge Partners", "{S} & {S} Builders", "{P} Commons Land Company", "{P} Point Properties", "{S} Realty Trust"},
	{"{P} Electric Membership Corporation", "{P} Energy", "{P} Pipeline Company", "{T} Power & Light", "{P} Solar Farms"},
	{"{P} Land Trust", "{P} Riverkeeper", "{P} {F} Conservancy", "Friends of {P} {F}", "{P} Audubon Society"},
	{"{S} Aggregates", "{P} Quarry Company", "{S} Timber Company", "{T} Paper Mill", "{S} Poultry Farms"},
}

var clientCategoryWeights = []weighted{
	{"Government", 20}, {"Municipal", 15}, {"Transportation", 10}, {"Developer", 30}, {"Utility", 10}, {"Nonprofit", 8}, {"Industrial", 7},
}

// expand appends pattern with its placeholders filled in.
func expand(b []byte, r *rand.Rand, pattern string) []byte {
	for i := 0; i < len(pattern); i++ {
		if pattern[i] != '{' {
			b = append(b, pattern[i])
			continue
		}
		j := i + 1
		for pattern[j] != '}' {
			j++
		}
		switch pattern[i+1 : j] {
		case "C":
			b = append(b, pick(r, counties)...)
		case "T":
			b = appendTown(b, r)
		case "P":
			b = append(b, places[skewed(r, len(places))]...)
		case "F":
			b = append(b, features[skewed(r, len(features))]...)
		case "S":
			b = append(b, surnames[skewed(r, len(surnames))]...)
		case "ST":
			b = append(b, pick(r, states).name...)
		case "N":
			b = strconv.AppendInt(b, 1+r.Int64N(14), 10)
		}
		i = j
	}
	return b
}

func appendTown(b []byte, r *rand.Rand) []byte {
	return append(append(b, pick(r, places)...), pick(r, townSuffixes)...)
}

// appendSite appends a site name: "Cedar Creek".
func appendSite(b []byte, r *rand.Rand) []byte {
	b = append(b, places[skewed(r, len(places))]...)
	b = append(b, ' ')
	return append(b, features[skewed(r, len(features))]...)
}

// appendTract appends a rare made-up tract name ("Kolanee Tract"): some
// title words then occur only a handful of times even in huge data sets.
func appendTract(b []byte, r *rand.Rand) []byte {
	start := len(b)
	for n := 2 + r.IntN(2); n > 0; n-- {
		b = append(b, pick(r, syllables)...)
	}
	b[start] -= 'a' - 'A'
	return append(b, " Tract"...)
}

func (g *generator) phone(d *doc, key string, r *rand.Rand) {
	g.tmp = append(g.tmp[:0], '(')
	g.tmp = append(g.tmp, pick(r, areaCodes)...)
	g.tmp = append(g.tmp, ") 555-01"...)
	g.tmp = appendDigits(g.tmp, r.Int64N(100), 2)
	d.bytes(key, g.tmp)
}

func (g *generator) address(d *doc, r *rand.Rand) {
	st := pick(r, states)
	g.tmp = strconv.AppendInt(g.tmp[:0], 10+r.Int64N(9990), 10)
	g.tmp = append(g.tmp, ' ')
	g.tmp = append(g.tmp, pick(r, places)...)
	g.tmp = append(g.tmp, ' ')
	g.tmp = append(g.tmp, pick(r, streets)...)
	g.tmp = append(g.tmp, '\n')
	g.tmp = appendTown(g.tmp, r)
	g.tmp = append(g.tmp, ", "...)
	g.tmp = append(g.tmp, st.code...)
	g.tmp = append(g.tmp, ' ')
	g.tmp = strconv.AppendInt(g.tmp, 20000+r.Int64N(23000), 10)
	d.bytes("defaultaddress", g.tmp)
}

// website writes the "url" of an organisation named name: the domain its
// e-mail addresses use.
func (g *generator) website(d *doc, name []byte) {
	g.tmp = g.appendDomain(append(g.tmp[:0], "https://www."...), name)
	d.bytes("url", g.tmp)
}

// email writes a mailbox at a domain made from the name's letters.
func (g *generator) email(d *doc, key, box string, name []byte) {
	g.tmp = append(append(g.tmp[:0], box...), '@')
	g.tmp = g.appendDomain(g.tmp, name)
	d.bytes(key, g.tmp)
}

// appendDomain appends a domain made from the first 18 letters and
// digits of name, lower case, under .example.
func (g *generator) appendDomain(b, name []byte) []byte {
	n := 0
	for _, c := range name {
		if n == 18 {
			break
		}
		switch {
		case c >= 'a' && c <= 'z', c >= '0' && c <= '9':
			b = append(b, c)
			n++
		case c >= 'A' && c <= 'Z':
			b = append(b, c+'a'-'A')
			n++
		}
	}
	return append(b, ".example"...)
}

// projectManager picks a project's manager: Pete (PeteEmployeeID) for
// one project in PeteShare, else any other employee.
func (g *generator) projectManager(r *rand.Rand) int64 {
	id := g.employeeID(r)
	if g.employees.len() < PeteEmployeeID+1 {
		return id
	}
	if g.more.IntN(PeteShare) == 0 {
		return PeteEmployeeID
	}
	if id == PeteEmployeeID {
		id++
	}
	return id
}

func (g *generator) employeeRef(d *doc, key string, r *rand.Rand) {
	id := g.employeeID(r)
	d.ref(key, id, g.employees.get(id))
}

// The demo company's currencies, as its account lists them: its base
// currency, and the one its Canadian clients are invoiced in.
const (
	BaseCurrency    = "USD"
	ForeignCurrency = "CAD"
	// ForeignClientEvery: every this many clients is Canadian (client
	// ids divisible by it), invoiced in ForeignCurrency.
	ForeignClientEvery = 16
)

// companyRefs writes the subsidiary and currency every transaction and
// entity carries in a one-company account: the base currency, or the
// record's own (a transaction in a foreign currency, rw.currency).
func companyRefs(d *doc, rw *row) {
	d.sel("subsidiary", 1, CompanyName)
	if rw.currency == ForeignCurrency {
		d.sel("currency", 2, ForeignCurrency)
		return
	}
	d.sel("currency", 1, BaseCurrency)
}

func (g *generator) employee(r *rand.Rand, rw *row) {
	first := pick(r, firstNames)
	last := surnames[skewed(r, len(surnames))]
	t := append(g.title[:0], first...)
	if chance(r, 0.3) {
		t = append(t, ' ', byte('A'+r.IntN(26)), '.')
	}
	t = append(append(t, ' '), last...)
	pete := rw.id == PeteEmployeeID
	if pete {
		first, last = "Pete", "Manager"
		t = append(t[:0], PeteName...)
	}
	g.title, rw.title = t, t
	g.employees.add(t)
	rw.status = choose(r, departments)
	rw.day, rw.hasDay = g.dayBetween(r, g.sixYearsAgo(), g.nowDay-14), true

	d := g.head(rw)
	d.str("firstname", first)
	d.str("lastname", last)
	g.tmp = append(g.tmp[:0], first[0]+'a'-'A')
	for _, c := range []byte(last) {
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c >= 'a' && c <= 'z' {
			g.tmp = append(g.tmp, c)
		}
	}
	g.tmp = strconv.AppendInt(g.tmp, rw.id, 10)
	g.tmp = append(g.tmp, "@"+CompanyDomain...)
	if pete {
		g.tmp = append(g.tmp[:0], PeteEmail...)
	}
	d.bytes("email", g.tmp)
	d.str("title", pick(r, jobTitles[rw.status]))
	g.phone(d, "phone", r)
	if rw.id > 1 {
		// Supervisors come from the first tenth of staff: a real org chart
		// is a pyramid.
		sup := 1 + r.Int64N(max(1, min(rw.id-1, int64(g.opt.Size("employee"))/10)))
		d.ref("supervisor", sup, g.employees.get(sup))
	}
	et := skewed(r, len(employeeTypes))
	d.sel("employeetype", et+1, employeeTypes[et])
	o := r.IntN(len(offices))
	d.sel("location", o+1, offices[o])
	d.bool("isinactive", chance(r, 0.06))
	d.sel("subsidiary", 1, CompanyName)
}

func (g *generator) customer(r *rand.Rand, rw *row) {
	cat := choose(r, clientCategoryWeights)
	ci := 0
	for clientCategories[ci] != cat {
		ci++
	}
	t := expand(g.title[:0], r, pick(r, clientPatterns[ci]))
	g.title, rw.title = t, t
	g.customers.add(t)
	rw.status = choose(r, clientStatuses)
	rw.day, rw.hasDay = g.dayBetween(r, g.sixYearsAgo(), g.nowDay-7), true
	rw.hasAmount = true
	if rw.status == "Active" && chance(r, 0.6) {
		rw.amount = logUniform(r, 50_000, 25_000_000)
	}
	if chance(r, 0.25) {
		rw.externalID = "crm-" + strconv.FormatInt(rw.id, 10)
	}

	d := g.head(rw)
	d.sel("custentity_res_client_type", ci+1, cat)
	g.email(d, "email", "ap", t)
	g.phone(d, "phone", r)
	g.address(d, r)
	ti := skewed(r, len(terms))
	d.sel("terms", ti+1, terms[ti])
	g.employeeRef(d, "salesrep", r)
	if chance(g.more, 0.7) {
		g.website(d, t)
	}
	d.bool("isinactive", rw.status == "Inactive")
	companyRefs(d, rw)
}

func (g *generator) vendor(r *rand.Rand, rw *row) {
	cat := choose(r, vendorCats)
	t := expand(g.title[:0], r, pick(r, vendorNamePatterns[cat]))
	g.title, rw.title = t, t
	g.vendors.add(t)
	g.vendorCat = append(g.vendorCat, uint8(indexOf(vendorCats, cat)))
	rw.status = cat
	rw.day, rw.hasDay = g.dayBetween(r, g.sixYearsAgo(), g.nowDay-7), true
	rw.hasAmount = true
	if chance(r, 0.5) {
		rw.amount = logUniform(r, 20_000, 8_000_000)
	}
	if chance(r, 0.25) {
		rw.externalID = "ap-" + strconv.FormatInt(rw.id, 10)
	}

	d := g.head(rw)
	g.email(d, "email", "billing", t)
	g.phone(d, "phone", r)
	g.address(d, r)
	ti := skewed(r, len(terms))
	d.sel("terms", ti+1, terms[ti])
	d.str("custentity_res_insurance_expiry", g.cal.date(g.dayBetween(r, g.nowDay-60, g.nowDay+365)))
	d.bool("custentity_res_w9_on_file", chance(r, 0.92))
	d.bool("custentity_res_prequalified", chance(r, 0.7))
	d.bool("is1099eligible", chance(r, 0.4))
	companyRefs(d, rw)
}

func indexOf(ws []weighted, name string) int {
	for i, w := range ws {
		if w.name == name {
			return i
		}
	}
	return -1
}

func (g *generator) resource(r *rand.Rand, rw *row) {
	typ := choose(r, resourceTypes)
	region := r.IntN(len(regions))
	t := append(g.title[:0], pick(r, resourceNames[typ])...)
	t = append(t, ' ')
	t = appendDigits(t, 1+r.Int64N(40), 2)
	t = append(t, " — "...)
	t = append(t, regions[region]...)
	g.title, rw.title = t, t
	rw.status = typ
	rw.hasAmount = true
	switch typ {
	case "Crew":
		rw.amount = between(r, 180, 450) * 100
	case "Equipment":
		rw.amount = between(r, 85, 300) * 100
	case "Specialist":
		rw.amount = between(r, 95, 210) * 100
	default:
		rw.amount = between(r, 60, 180) * 100
	}
	rw.created = int64(g.dayBetween(r, g.sixYearsAgo(), g.nowDay-1))*86400 + 9*3600

	d := g.head(rw)
	d.sel("custentity_res_region", region+1, regions[region])
	d.int("custentity_res_capacity_hours", 20+10*r.Int64N(5))
	g.tmp = appendTown(g.tmp[:0], r)
	d.bytes("custentity_res_home_base", g.tmp)
	d.bool("isinactive", chance(r, 0.08))
	d.sel("subsidiary", 1, CompanyName)
}

func (g *generator) project(r *rand.Rand, rw *row) {
	bank := (rw.id-1)%8 == 0
	typ := skewed(r, projectTypeBank)
	if bank {
		typ = projectTypeBank
	}
	t := appendSite(g.title[:0], r)
	t = append(t, ' ')
	t = append(t, projectTypes[typ]...)
	switch x := r.Float64(); {
	case x < 0.05:
		t = append(t, " — "...)
		t = appendTract(t, r)
	case x < 0.20 && !bank:
		t = append(t, " at "...)
		t = append(t, surnames[skewed(r, len(surnames))]...)
		t = append(t, " Farm"...)
	case x < 0.40:
		t = append(t, " — Phase "...)
		t = strconv.AppendInt(t, 2+r.Int64N(4), 10)
	}
	g.title, rw.title = t, t

	c := g.customerID(r)
	rw.parent, rw.parentName = c, g.customers.get(c)
	var start int32
	if chance(r, 0.93) {
		start = g.dayBetween(r, g.sixYearsAgo(), g.nowDay-1)
	} else {
		start = g.dayBetween(r, g.nowDay+1, g.nowDay+120)
	}
	rw.day, rw.hasDay = start, true
	rw.created = int64(min(start, g.nowDay)-int32(between(r, 7, 90)))*86400 + between(r, 7*3600, 18*3600)
	age := g.nowDay - start
	switch {
	case age < 0:
		rw.status = choose(r, projectFuture)
	case age < 182:
		rw.status = choose(r, projectYoung)
	case age < 730:
		rw.status = choose(r, projectRunning)
	case age < 1461:
		rw.status = choose(r, projectMature)
	default:
		rw.status = choose(r, projectOld)
	}
	rw.hasAmount = true
	switch {
	case bank:
		rw.amount = logUniform(r, 50_000_000, 500_000_000)
	case typ == 3: // habitat monitoring
		rw.amount = logUniform(r, 1_500_000, 15_000_000)
	default:
		rw.amount = logUniform(r, 2_000_000, 250_000_000) / 100 * 100
	}
	g.projects.add(t)
	g.projCustomer = append(g.projCustomer, int32(c))
	g.projStart = append(g.projStart, start)

	d := g.head(rw)
	d.sel("custentity_res_project_type", typ+1, projectTypes[typ])
	pm := g.projectManager(r)
	g.projManager = append(g.projManager, int32(pm))
	d.ref("projectmanager", pm, g.employees.get(pm))
	end := start + int32(between(r, 180, 1500))
	d.str("projectedenddate", g.cal.date(end))
	if rw.status == "Closed" {
		d.str("enddate", g.cal.date(min(end+int32(between(g.more, -60, 120)), g.nowDay)))
	}
	bt := r.IntN(len(billingTypes))
	d.sel("jobbillingtype", bt+1, billingTypes[bt])
	var pct int64
	switch rw.status {
	case "Planning":
		pct = 5
	case "Active":
		pct = between(r, 10, 90)
	case "Monitoring":
		pct = 95
	case "Closed":
		pct = 100
	}
	d.int("percentcomplete", pct)
	d.money("custentity_res_acres", between(r, 50, 60_000))
	if typ == 1 || typ == 5 || typ == 6 {
		d.int("custentity_res_linear_feet", between(r, 300, 25_000))
	}
	st := pick(r, states)
	g.tmp = append(append(g.tmp[:0], pick(r, counties)...), " County"...)
	d.bytes("custentity_res_county", g.tmp)
	d.sel("custentity_res_state", indexOfState(st.code)+1, st.code)
	g.tmp = append(g.tmp[:0], '0', '3')
	g.tmp = appendDigits(g.tmp, r.Int64N(100_000_000), 8)
	d.bytes("custentity_res_huc", g.tmp)
	if rw.status != "Proposed" {
		y, _ := civil(start)
		g.tmp = append(g.tmp[:0], pick(r, corpsDistricts)...)
		g.tmp = append(g.tmp, '-')
		g.tmp = strconv.AppendInt(g.tmp, int64(y), 10)
		g.tmp = append(g.tmp, '-')
		g.tmp = appendDigits(g.tmp, r.Int64N(3000), 5)
		d.bytes("custentity_res_permit_number", g.tmp)
	}
	g.tmp = appendMicrodegrees(g.tmp[:0], between(r, 31_000_000, 39_500_000))
	d.key("custentity_res_latitude")
	d.b = append(d.b, g.tmp...)
	g.tmp = appendMicrodegrees(g.tmp[:0], -between(r, 76_000_000, 90_000_000))
	d.key("custentity_res_longitude")
	d.b = append(d.b, g.tmp...)
	if bank {
		d.str("custentity_res_credit_types", pick(r, bankCreditTypes))
		g.serviceArea(d, "custentity_res_service_area", r)
	}
	if rw.status == "Monitoring" || rw.status == "Closed" {
		g.ecometrics(d, r, start)
	}
	rw.notes = rw.status == "Active" && chance(r, 0.2)
	d.bool("isinactive", rw.status == "Closed")
	companyRefs(d, rw)
}

// serviceArea writes the river basin a bank's credits may offset.
func (g *generator) serviceArea(d *doc, key string, r *rand.Rand) {
	g.tmp = append(append(g.tmp[:0], pick(r, basins)...), " River Basin"...)
	d.bytes(key, g.tmp)
}

func indexOfState(code string) int {
	for i, s := range states {
		if s.code == code {
			return i
		}
	}
	return -1
}

// appendMicrodegrees appends a coordinate given in millionths of a degree.
func appendMicrodegrees(b []byte, v int64) []byte {
	if v < 0 {
		b = append(b, '-')
		v = -v
	}
	b = strconv.AppendInt(b, v/1_000_000, 10)
	b = append(b, '.')
	return appendDigits(b, v%1_000_000, 6)
}

// ecometrics appends the project's monitoring results: two metrics for
// each of its last monitoring years (at most five, to keep the document
// near the size of a real one).
func (g *generator) ecometrics(d *doc, r *rand.Rand, start int32) {
	y0, _ := civil(start)
	yNow, _ := civil(g.nowDay)
	last := min(yNow-y0, 7)
	if last < 1 {
		return
	}
	first := r.IntN(len(metrics))
	d.array("ecometrics")
	for y := max(1, last-4); y <= last; y++ {
		for m := range 2 {
			mt := metrics[(first+m)%len(metrics)]
			d.open("")
			d.int("year", int64(y0+y))
			d.str("metric", mt.name)
			d.int("value", int64(mt.target)*int64(60+r.IntN(80))/100)
			d.int("target", int64(mt.target))
			d.str("unit", mt.unit)
			d.closeObj()
		}
	}
	d.closeArr()
}

func (g *generator) projectRequest(r *rand.Rand, rw *row) {
	t := append(g.title[:0], pick(r, requestTypes)...)
	t = append(t, " — "...)
	t = appendSite(t, r)
	if chance(r, 0.5) {
		t = append(t, ", "...)
		t = append(t, surnames[skewed(r, len(surnames))]...)
		t = append(t, " property"...)
	}
	g.title, rw.title = t, t
	c := g.customerID(r)
	rw.parent, rw.parentName = c, g.customers.get(c)
	rw.day, rw.hasDay = g.dayBetween(r, g.nowDay-4*365, g.nowDay), true
	switch age := g.nowDay - rw.day; {
	case age < 30:
		rw.status = choose(r, requestNew)
	case age < 120:
		rw.status = choose(r, requestRecent)
	default:
		rw.status = choose(r, requestDecided)
	}
	rw.amount, rw.hasAmount = logUniform(r, 500_000, 40_000_000)/100*100, true

	d := g.head(rw)
	g.tmp = append(g.tmp[:0], "Client requests "...)
	g.tmp = append(g.tmp, t...)
	g.tmp = append(g.tmp, " on about "...)
	g.tmp = strconv.AppendInt(g.tmp, between(r, 2, 400), 10)
	g.tmp = append(g.tmp, " acres; access from "...)
	g.tmp = append(g.tmp, pick(r, places)...)
	g.tmp = append(g.tmp, ' ')
	g.tmp = append(g.tmp, pick(r, streets)...)
	g.tmp = append(g.tmp, '.')
	d.bytes("custrecord_res_pr_description", g.tmp)
	g.tmp = append(g.tmp[:0], pick(r, firstNames)...)
	g.tmp = append(append(g.tmp, ' '), surnames[skewed(r, len(surnames))]...)
	d.bytes("custrecord_res_pr_contact", g.tmp)
	d.str("custrecord_res_pr_due", g.cal.date(rw.day+int32(between(r, 30, 120))))
	g.tmp = append(append(g.tmp[:0], pick(r, counties)...), " County"...)
	d.bytes("custrecord_res_pr_county", g.tmp)
	g.employeeRef(d, "owner", r)
}

func (g *generator) opportunity(r *rand.Rand, rw *row) {
	suffix := r.IntN(len(opportunitySuffixes))
	t := appendSite(g.title[:0], r)
	t = append(t, ' ')
	t = append(t, projectTypes[skewed(r, len(projectTypes))]...)
	t = append(t, " — "...)
	t = append(t, opportunitySuffixes[suffix]...)
	g.title, rw.title = t, t
	c := g.customerID(r)
	rw.parent, rw.parentName = c, g.customers.get(c)
	rw.day, rw.hasDay = g.dayBetween(r, g.nowDay-5*365, g.nowDay+365), true
	switch age := g.nowDay - rw.day; {
	case age < 0:
		rw.status = choose(r, oppFuture)
	case age < 30:
		rw.status = choose(r, oppRecent)
	default:
		rw.status = choose(r, oppClosed)
	}
	rw.amount, rw.hasAmount = logUniform(r, 1_000_000, 300_000_000)/1000*1000, true
	// The opportunity was opened weeks to months before its expected close.
	opened := min(rw.day, g.nowDay) - int32(between(r, 14, 240))
	rw.created = int64(opened)*86400 + between(r, 7*3600, 18*3600)

	d := g.head(rw)
	var prob int64
	switch rw.status {
	case "Lead":
		prob = 10
	case "Qualified":
		prob = 30
	case "Proposal":
		prob = 60
	case "Won":
		prob = 100
	}
	d.int("custrecord_res_opp_probability", prob)
	g.employeeRef(d, "custrecord_res_opp_salesrep", r)
	reg := r.IntN(len(regions))
	d.sel("custrecord_res_opp_region", reg+1, regions[reg])
	if opportunitySuffixes[suffix] == "credit purchase" {
		ct := choose(r, creditTypes)
		d.sel("custrecord_res_opp_credit_type", indexOf(creditTypes, ct)+1, ct)
		d.money("custrecord_res_opp_credits_needed", between(r, 25, 2500))
	}
	if chance(r, 0.6) {
		d.array("communication")
		last := min(rw.day, g.nowDay)
		for n := 1 + r.IntN(4); n > 0; n-- {
			d.open("")
			d.str("date", g.cal.date(g.dayBetween(r, opened, last)))
			d.str("type", pick(r, communicationTypes))
			d.str("subject", pick(r, communicationSubjects))
			d.bytes("author", g.employees.get(g.employeeID(r)))
			d.str("text", pick(r, noteTexts))
			d.closeObj()
		}
		d.closeArr()
	}
}

func (g *generator) questionnaire(r *rand.Rand, rw *row) {
	v := 1 + r.Int64N(int64(g.vendors.len()))
	rw.parent, rw.parentName = v, g.vendors.get(v)
	sent := g.dayBetween(r, g.nowDay-5*365, g.nowDay)
	y, _ := civil(sent)
	qt := r.IntN(len(questionnaireTypes))
	t := strconv.AppendInt(g.title[:0], int64(y), 10)
	t = append(t, ' ')
	t = append(t, questionnaireTypes[qt]...)
	t = append(t, " questionnaire — "...)
	t = append(t, rw.parentName...)
	g.title, rw.title = t, t
	if g.nowDay-sent < 30 {
		rw.status = choose(r, vqNew)
	} else {
		rw.status = choose(r, vqOld)
	}
	if rw.status != "Sent" {
		rw.day, rw.hasDay = min(sent+int32(between(r, 3, 45)), g.nowDay), true
	}
	rw.created = int64(sent)*86400 + between(r, 7*3600, 18*3600)

	d := g.head(rw)
	d.str("custrecord_res_vq_sent", g.cal.date(sent))
	d.sel("custrecord_res_vq_type", qt+1, questionnaireTypes[qt])
	if rw.status == "Approved" {
		g.employeeRef(d, "custrecord_res_vq_reviewer", r)
	}
	if rw.status != "Sent" {
		d.array("answers")
		first := r.IntN(len(questions))
		for i := range 5 + r.IntN(4) {
			q := questions[(first+i)%len(questions)]
			d.open("")
			d.str("question", q.q)
			d.str("answer", pick(r, q.answers))
			d.closeObj()
		}
		d.closeArr()
	}
}

// line is one line of an invoice or bill.
type line struct {
	item     int   // index into the kind's item list
	quantity int64 // whole units
	rate     int64 // hundredths
}

// makeLines builds 1–3 lines whose amounts add up to about target
// hundredths, and returns their exact total.
func (g *generator) makeLines(r *rand.Rand, items int, target int64) int64 {
	g.lines = g.lines[:0]
	n := 1 + r.IntN(3)
	var total int64
	for i := range n {
		share := target / int64(n)
		if i == 0 {
			share += target % int64(n)
		}
		q := between(r, 1, 40)
		rate := max(1, share/q)
		g.lines = append(g.lines, line{item: r.IntN(items), quantity: q, rate: rate})
		total += q * rate
	}
	return total
}

// expense is one expense line of a vendor bill (NetSuite's "expense"
// sublist): an amount charged straight to an account.
type expense struct {
	account int   // index into expenseAccounts
	item    int   // index into the vendor's item list: the line's memo
	amount  int64 // hundredths
}

// The shapes of vendor bills' lines, per 100 bills: a services company
// enters most subcontractor bills as expense lines. The rest have item
// lines only.
const (
	billsOfExpenses = 40 // expense lines only
	billsOfBoth     = 15 // item lines and expense lines
)

// vendorExpenseAccount is the expense account (an index into
// expenseAccounts) a vendor's bills are charged to, by vendor category;
// another category's go to the first.
var vendorExpenseAccount = map[string]int{
	"Nursery": 0, "Earthworks": 1, "Surveying": 1, "Laboratory": 3, "Equipment": 2, "Consulting": 4,
}

// billExpenses turns some of a bill's item lines (g.lines, from
// makeLines) into expense lines (g.expenses) charged to expense account
// account, the vendor's (a later line sometimes to another): the bill's
// lines, items and expenses together, add up to the same total as
// before. Its choices come from g.more, so the bill's other values stay
// what they were. A bill of one line of one unit, which cannot be
// shared, keeps its item line when it was to have both.
func (g *generator) billExpenses(account int) {
	g.expenses = g.expenses[:0]
	keep := len(g.lines) // item lines kept: the first ones
	switch n := g.more.IntN(100); {
	case n < billsOfExpenses:
		keep = 0
	case n < billsOfExpenses+billsOfBoth && keep > 1:
		keep = 1 + g.more.IntN(keep-1)
	case n < billsOfExpenses+billsOfBoth && g.lines[0].quantity > 1:
		// One line: some of its units are billed as an expense.
		l := &g.lines[0]
		moved := 1 + g.more.Int64N(l.quantity-1)
		l.quantity -= moved
		g.expenses = append(g.expenses, expense{account: account, item: l.item, amount: moved * l.rate})
		return
	}
	for i, l := range g.lines[keep:] {
		a := account
		if i > 0 && chance(g.more, 0.3) {
			a = g.more.IntN(len(expenseAccounts))
		}
		g.addExpense(expense{account: a, item: l.item, amount: l.quantity * l.rate})
	}
	g.lines = g.lines[:keep]
}

// addExpense adds e to the bill's expense lines, or its amount to the line
// of the same account and memo: no one enters the same expense twice.
func (g *generator) addExpense(e expense) {
	for i := range g.expenses {
		if g.expenses[i].account == e.account && g.expenses[i].item == e.item {
			g.expenses[i].amount += e.amount
			return
		}
	}
	g.expenses = append(g.expenses, e)
}

// writeExpenses writes g.expenses as the document's "expense" sublist,
// as NetSuite's record API gives it (line, account, memo, amount), and
// nothing when there are none. items names the memos.
func (g *generator) writeExpenses(d *doc, items []string) {
	writeTransactionLines(d, "expense", len(g.expenses), func(i int) {
		e := g.expenses[i]
		d.sel("account", e.account+1, expenseAccounts[e.account])
		d.str("memo", items[e.item])
		d.money("amount", e.amount)
	})
}

// writeLines writes g.lines as the document's item sublist under key,
// and nothing when there are none (a bill of expenses only).
func (g *generator) writeLines(d *doc, key string, items []string) {
	writeTransactionLines(d, key, len(g.lines), func(i int) {
		l := g.lines[i]
		d.sel("item", l.item+1, items[l.item])
		d.str("description", items[l.item])
		d.int("quantity", l.quantity)
		d.money("rate", l.rate)
		d.money("amount", l.quantity*l.rate)
	})
}

// writeTransactionLines writes n lines of a transaction's sublist under
// key, each numbered from 1 as NetSuite's "line" and filled by member(i),
// and nothing when n is 0.
func writeTransactionLines(d *doc, key string, n int, member func(i int)) {
	if n == 0 {
		return
	}
	d.array(key)
	for i := range n {
		d.open("")
		d.int("line", int64(i+1))
		member(i)
		d.closeObj()
	}
	d.closeArr()
}

func (g *generator) invoice(r *rand.Rand, rw *row) {
	p := g.projectID(r, true)
	g.setProject(rw, p, true)
	t := append(g.title[:0], pick(r, invoicePhrases)...)
	t = append(t, ", "...)
	t = append(t, rw.projectName...)
	g.title, rw.title = t, t
	start := g.projStart[p-1]
	rw.day, rw.hasDay = g.dayBetween(r, max(start, g.sixYearsAgo()), g.nowDay), true
	ti := skewed(r, len(terms))
	due := rw.day + termDays[ti]
	switch late := g.nowDay - due; {
	case late <= 0:
		rw.status = choose(r, invoiceNew)
	case late < 60:
		rw.status = choose(r, invoiceLate)
	default:
		rw.status = choose(r, invoiceSettled)
	}
	rw.amount = g.makeLines(r, len(invoiceItems), logUniform(r, 100_000, 25_000_000))
	rw.hasAmount = true
	if rw.parent%ForeignClientEvery == 0 { // a Canadian client is invoiced in its dollars
		rw.currency = ForeignCurrency
	}

	d := g.head(rw)
	d.str("duedate", g.cal.date(due))
	d.sel("terms", ti+1, terms[ti])
	remaining := int64(0)
	if rw.status == "Open" || rw.status == "Overdue" {
		remaining = rw.amount
	}
	d.money("amountremaining", remaining)
	if chance(r, 0.4) {
		g.tmp = append(g.tmp[:0], "PO-"...)
		g.tmp = appendDigits(g.tmp, r.Int64N(1_000_000), 6)
		d.bytes("otherrefnum", g.tmp)
	}
	g.writeLines(d, "item", invoiceItems)
	companyRefs(d, rw)
}

func (g *generator) vendorBill(r *rand.Rand, rw *row) {
	v := 1 + r.Int64N(int64(g.vendors.len()))
	rw.parent, rw.parentName = v, g.vendors.get(v)
	p := g.projectID(r, true)
	g.setProject(rw, p, false)
	items := vendorItems[vendorCats[g.vendorCat[v-1]].name]
	rw.amount = g.makeLines(r, len(items), logUniform(r, 30_000, 12_000_000))
	rw.hasAmount = true
	t := append(g.title[:0], items[g.lines[0].item]...)
	t = append(t, ", "...)
	t = append(t, rw.projectName...)
	g.title, rw.title = t, t
	rw.day, rw.hasDay = g.dayBetween(r, max(g.projStart[p-1], g.sixYearsAgo()), g.nowDay), true
	switch age := g.nowDay - rw.day; {
	case age < 14:
		rw.status = choose(r, billNew)
	case age < 60:
		rw.status = choose(r, billMid)
	default:
		rw.status = choose(r, billOld)
	}

	d := g.head(rw)
	ti := skewed(r, len(terms))
	d.str("duedate", g.cal.date(rw.day+termDays[ti]))
	d.sel("terms", ti+1, terms[ti])
	remaining := int64(0)
	if rw.status == "Open" || rw.status == "Pending approval" {
		remaining = rw.amount
	}
	d.money("amountremaining", remaining)
	if chance(g.more, 0.5) {
		g.tmp = append(g.tmp[:0], "PO-"...)
		g.tmp = appendDigits(g.tmp, g.more.Int64N(1_000_000), 6)
		d.bytes("otherrefnum", g.tmp)
	}
	switch rw.status {
	case "Pending approval":
		d.sel("approvalstatus", 1, "Pending Approval")
		// The approval workflow routes a bill to its project's manager.
		pm := int64(g.projManager[p-1])
		d.ref("nextapprover", pm, g.employees.get(pm))
	case "Rejected":
		d.sel("approvalstatus", 3, "Rejected")
	default:
		d.sel("approvalstatus", 2, "Approved")
	}
	// The header's account is the payables account the bill is owed on
	// (NetSuite's default A/P account); its lines carry the expense accounts.
	d.sel("account", len(expenseAccounts)+1, payablesAccount)
	g.tmp = strconv.AppendInt(g.tmp[:0], between(r, 1000, 99999), 10)
	d.bytes("custbody_res_vendor_invoice", g.tmp)
	// rw.amount, from the lines makeLines drew, is the total of the
	// item and expense lines billExpenses makes of them.
	g.billExpenses(vendorExpenseAccount[vendorCats[g.vendorCat[v-1]].name])
	g.writeLines(d, "item", items)
	g.writeExpenses(d, items)
	companyRefs(d, rw)
}

func (g *generator) billing(r *rand.Rand, rw *row) {
	p := g.projectID(r, false)
	g.setProject(rw, p, true)
	mi := r.IntN(len(milestones))
	t := append(g.title[:0], milestones[mi]...)
	t = append(t, ", "...)
	t = append(t, rw.projectName...)
	g.title, rw.title = t, t
	start := g.projStart[p-1]
	rw.day, rw.hasDay = g.dayBetween(r, max(start, g.sixYearsAgo()), min(start+3*365, g.nowDay+365)), true
	switch age := g.nowDay - rw.day; {
	case age < 0:
		rw.status = choose(r, milePlan)
	case age < 14:
		rw.status = choose(r, mileNow)
	default:
		rw.status = choose(r, mileDone)
	}
	rw.amount, rw.hasAmount = logUniform(r, 200_000, 40_000_000)/100*100, true
	// A schedule line is entered when the contract is signed, before the
	// milestone's date.
	rw.created = int64(min(max(start-30, g.sixYearsAgo()), g.nowDay))*86400 + between(r, 7*3600, 18*3600)

	d := g.head(rw)
	d.int("custrecord_res_bil_milestone_no", int64(mi+1))
	d.int("custrecord_res_bil_percent", between(r, 5, 30))
	d.str("custrecord_res_bil_description", milestones[mi])
}

func (g *generator) billingSummary(r *rand.Rand, rw *row) {
	p := g.projectID(r, true)
	g.setProject(rw, p, false)
	day := g.dayBetween(r, max(g.projStart[p-1], g.sixYearsAgo()), g.nowDay)
	y, m := civil(day)
	period := dayOf(y, m, 1)
	rw.day, rw.hasDay = period, true
	t := append(g.title[:0], "Billing summary "...)
	t = append(t, m.String()...)
	t = append(t, ' ')
	t = strconv.AppendInt(t, int64(y), 10)
	t = append(t, ", "...)
	t = append(t, rw.projectName...)
	g.title, rw.title = t, t
	yNow, mNow := civil(g.nowDay)
	monthsAgo := (yNow-y)*12 + int(mNow-m)
	if monthsAgo <= 1 || chance(r, 0.05) {
		rw.status = "Open"
	} else {
		rw.status = "Closed"
	}
	billed := logUniform(r, 100_000, 200_000_000)
	rw.amount, rw.hasAmount = billed, true
	next := dayOf(y, m+1, 1)
	rw.created = int64(min(next, g.nowDay))*86400 + between(r, 0, 6*3600)

	d := g.head(rw)
	c := int64(g.projCustomer[p-1])
	d.ref("custrecord_res_bs_customer", c, g.customers.get(c))
	contract := billed + billed*between(r, 0, 200)/100
	d.money("custrecord_res_bs_contract_value", contract)
	d.money("custrecord_res_bs_remaining", contract-billed)
	d.int("custrecord_res_bs_percent_billed", billed*100/contract)
	d.int("custrecord_res_bs_invoices", between(r, 1, 30))
}

func (g *generator) budget(r *rand.Rand, rw *row) {
	p := g.projectID(r, false)
	g.setProject(rw, p, false)
	rw.status = choose(r, budgetCats)
	// Fiscal years start on 1 July.
	y0, m0 := civil(max(g.projStart[p-1], g.sixYearsAgo()))
	if m0 < time.July {
		y0--
	}
	yNow, mNow := civil(g.nowDay)
	if mNow < time.July {
		yNow--
	}
	fy := int(between(r, int64(y0), int64(max(y0, yNow))))
	rw.day, rw.hasDay = dayOf(fy, time.July, 1), true
	t := append(g.title[:0], "FY"...)
	t = strconv.AppendInt(t, int64(fy+1), 10)
	t = append(t, ' ')
	t = append(t, rw.status...)
	t = append(t, " budget, "...)
	t = append(t, rw.projectName...)
	g.title, rw.title = t, t
	budgeted := logUniform(r, 100_000, 100_000_000) / 10000 * 10000
	rw.amount, rw.hasAmount = max(budgeted, 10000), true
	rw.created = int64(min(rw.day-int32(between(r, 0, 45)), g.nowDay))*86400 + between(r, 7*3600, 18*3600)

	d := g.head(rw)
	actual := rw.amount * between(r, 0, 120) / 100
	if rw.day > g.nowDay-30 {
		actual /= 4
	}
	d.money("custrecord_res_bud_actual", actual)
	d.money("custrecord_res_bud_variance", rw.amount-actual)
	g.employeeRef(d, "custrecord_res_bud_owner", r)
}

func (g *generator) creditLedger(r *rand.Rand, rw *row) {
	bank := g.bankID(r)
	g.setProject(rw, bank, false)
	rw.status = choose(r, ledgerTypes)
	ct := choose(r, creditTypes)
	if rw.status == "Released" {
		rw.amount = between(r, 100, 5000)
	} else {
		rw.amount = between(r, 10, 2500)
		// The buyer of the credits: a developer or agency needing
		// compensatory mitigation, not the bank's own sponsor.
		c := g.customerID(r)
		rw.parent, rw.parentName = c, g.customers.get(c)
	}
	rw.hasAmount = true
	var verb string
	switch rw.status {
	case "Released":
		verb = "Release of "
	case "Reserved":
		verb = "Reservation of "
	case "Retired":
		verb = "Retirement of "
	default:
		verb = "Sale of "
	}
	t := append(g.title[:0], verb...)
	t = appendHundredths(t, rw.amount)
	t = append(t, ' ')
	t = append(t, ct...)
	t = append(t, " credits, "...)
	t = append(t, rw.projectName...)
	g.title, rw.title = t, t
	rw.day, rw.hasDay = g.dayBetween(r, max(g.projStart[bank-1], g.sixYearsAgo()), g.nowDay), true

	d := g.head(rw)
	d.sel("custrecord_res_cl_credit_type", indexOf(creditTypes, ct)+1, ct)
	if rw.status == "Sold" || rw.status == "Reserved" {
		d.money("custrecord_res_cl_price_per_credit", between(r, 15_000, 450_000)*100)
	}
	if rw.status == "Sold" || rw.status == "Retired" {
		y, _ := civil(rw.day)
		g.tmp = append(g.tmp[:0], pick(r, corpsDistricts)...)
		g.tmp = append(g.tmp, '-')
		g.tmp = strconv.AppendInt(g.tmp, int64(y), 10)
		g.tmp = append(g.tmp, '-')
		g.tmp = appendDigits(g.tmp, r.Int64N(3000), 5)
		d.bytes("custrecord_res_cl_permit", g.tmp)
	}
	g.serviceArea(d, "custrecord_res_cl_service_area", r)
}

func (g *generator) creditAvailability(r *rand.Rand, rw *row) {
	bank := g.bankID(r)
	g.setProject(rw, bank, false)
	rw.status = choose(r, creditTypes)
	t := append(g.title[:0], rw.projectName...)
	t = append(t, ", "...)
	t = append(t, rw.status...)
	t = append(t, " credit pool "...)
	t = strconv.AppendInt(t, 1+r.Int64N(4), 10)
	g.title, rw.title = t, t
	released := between(r, 500, 60_000)
	sold := released * between(r, 0, 90) / 100
	reserved := (released - sold) * between(r, 0, 30) / 100
	rw.amount, rw.hasAmount = released-sold-reserved, true
	rw.day, rw.hasDay = g.dayBetween(r, max(g.projStart[bank-1], g.nowDay-2*365), g.nowDay), true

	d := g.head(rw)
	d.money("custrecord_res_ca_released", released)
	d.money("custrecord_res_ca_sold", sold)
	d.money("custrecord_res_ca_reserved", reserved)
	d.money("custrecord_res_ca_price", between(r, 15_000, 450_000)*100)
	g.serviceArea(d, "custrecord_res_ca_service_area", r)
}
