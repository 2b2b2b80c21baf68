package demo

// Word lists the names are built from. They are read-only. Lists are
// ordered from common to rare where pickSkewed is used on them, so a few
// words ("Cedar", "Creek", "Wetland") appear in many titles and others in
// few: search benchmarks then have both common and rare terms.

// places are the first word of site, bank and organisation names.
var places = []string{
	"Cedar", "Willow", "Mill", "Pine", "Heron", "Oak", "Beaver", "Sycamore", "Cypress", "Maple",
	"Laurel", "Hickory", "Otter", "Crane", "Fox", "Turkey", "Walnut", "Bear", "Deer", "Poplar",
	"Sandy", "Rocky", "Muddy", "Clear", "Little", "Big", "Upper", "Lower", "Black", "White",
	"Red", "Stony", "Long", "Crooked", "Silver", "Spring", "Buck", "Elk", "Aspen", "Birch",
	"Juniper", "Magnolia", "Tupelo", "Alder", "Hemlock", "Chestnut", "Dogwood", "Redbud", "Persimmon", "Holly",
	"Kingfisher", "Osprey", "Egret", "Bittern", "Mink", "Muskrat", "Trout", "Bass", "Catfish", "Sturgeon",
	"Hellbender", "Paddlefish", "Salamander", "Bobcat", "Panther", "Wolf", "Raven", "Falcon", "Plover", "Rail",
	"Marsh Hen", "Sweetgum", "Blackwater", "Whiteoak", "Briar", "Thistle", "Fern", "Sedge", "Rush", "Cattail",
}

// features are the water or landform part of a site name.
var features = []string{
	"Creek", "Branch", "Run", "River", "Swamp", "Fork", "Marsh", "Brook", "Bottoms", "Meadow",
	"Hollow", "Slough", "Prairie", "Pond", "Bayou", "Lake", "Pocosin", "Bog", "Fen", "Seep",
}

// projectTypes are the kinds of project the company runs, most common
// first. The last, projectTypeBank, is reserved for mitigation bank
// projects (the banks credit records point at); the others are picked
// from projectTypes[:projectTypeBank].
var projectTypes = []string{
	"Wetland Restoration", "Stream Restoration", "Riparian Buffer", "Habitat Monitoring", "Erosion Control",
	"Bank Stabilization", "Floodplain Reconnection", "Living Shoreline", "Stormwater Wetland", "Culvert Replacement",
	"Dam Removal", "Invasive Species Control", "Pollinator Meadow", "Oyster Reef Restoration", "Nutrient Offset",
	"Longleaf Pine Restoration", "Mitigation Bank",
}

// projectTypeBank is the index of "Mitigation Bank" in projectTypes.
const projectTypeBank = 16

// syllables build rare tract names ("Kolanee Tract") so that some title
// terms occur only a handful of times even among a million projects.
var syllables = []string{
	"ka", "lo", "wa", "nee", "ta", "ho", "mi", "sa", "pe", "ko", "ra", "chi", "to", "na", "lu", "ve",
	"que", "ban", "tal", "mo", "se", "wan", "go", "tuc",
}

// surnames serve for landowners, people and firms.
var surnames = []string{
	"Smith", "Johnson", "Williams", "Brown", "Jones", "Miller", "Davis", "Wilson", "Anderson", "Taylor",
	"Thomas", "Moore", "Martin", "Jackson", "Thompson", "White", "Harris", "Clark", "Lewis", "Robinson",
	"Walker", "Young", "Allen", "King", "Wright", "Scott", "Hill", "Green", "Adams", "Baker",
	"Nelson", "Carter", "Mitchell", "Roberts", "Turner", "Phillips", "Campbell", "Parker", "Evans", "Edwards",
	"Collins", "Stewart", "Morris", "Rogers", "Reed", "Cook", "Morgan", "Bell", "Murphy", "Bailey",
	"Cooper", "Richardson", "Cox", "Howard", "Ward", "Peterson", "Gray", "James", "Watson", "Brooks",
	"Kelly", "Sanders", "Price", "Bennett", "Wood", "Barnes", "Ross", "Henderson", "Coleman", "Jenkins",
	"Perry", "Powell", "Long", "Patterson", "Hughes", "Washington", "Butler", "Simmons", "Foster", "Bryant",
	"Alexander", "Russell", "Griffin", "Hayes", "Myers", "Ford", "Hamilton", "Graham", "Sullivan", "Wallace",
	"Woods", "Cole", "West", "Jordan", "Owens", "Reynolds", "Fisher", "Ellis", "Harrison", "Gibson",
	"McDonald", "Marshall", "Wells", "Hunter", "Hicks", "Crawford", "Boyd", "Mason", "Kennedy", "Warren",
	"Dixon", "Burns", "Gordon", "Shaw", "Holmes", "Rice", "Hunt", "Black", "Daniels", "Palmer",
	"Mills", "Grant", "Knight", "Ferguson", "Stone", "Hawkins", "Dunn", "Perkins", "Hudson", "Spencer",
	"Stephens", "Pierce", "Hansen", "Riley", "Carroll", "Duncan", "Armstrong", "Elliott", "Weaver", "Greene",
	"Lane", "Chapman", "Harper", "Fletcher", "Hale", "Whitfield", "Lowry", "Pruitt", "Calloway", "Haywood",
	"Okafor", "Nguyen", "Garcia", "Martinez", "Rodriguez", "Lopez", "Hernandez", "Gonzalez", "Kim", "Patel",
	"Chen", "Singh", "Tanaka", "Novak", "Kowalski", "Larsen", "Lindqvist", "O'Brien", "MacLeod", "Dubois",
	"Fontaine", "Moreau", "Bianchi", "Rossi", "Haddad", "Mensah", "Adeyemi", "Banerjee", "Iyer", "Yamamoto",
	"Abernathy", "Beauchamp", "Cartwright", "Delacroix", "Ellsworth", "Fairbanks", "Gallagher", "Hollingsworth", "Ingram", "Jernigan",
	"Kilpatrick", "Lockhart", "Merriweather", "Northcutt", "Oglesby", "Pendleton", "Quarles", "Rutledge", "Satterfield", "Tillman",
}

// firstNames are given names for employees, contacts and note authors.
var firstNames = []string{
	"James", "Mary", "Robert", "Patricia", "John", "Jennifer", "Michael", "Linda", "David", "Elizabeth",
	"William", "Barbara", "Richard", "Susan", "Joseph", "Jessica", "Thomas", "Sarah", "Charles", "Karen",
	"Maya", "Daniel", "Nancy", "Matthew", "Lisa", "Anthony", "Betty", "Mark", "Margaret", "Donald",
	"Sandra", "Steven", "Ashley", "Paul", "Kimberly", "Andrew", "Emily", "Joshua", "Donna", "Kenneth",
	"Michelle", "Kevin", "Carol", "Brian", "Amanda", "George", "Melissa", "Timothy", "Deborah", "Ronald",
	"Stephanie", "Jason", "Rebecca", "Edward", "Sharon", "Jeffrey", "Laura", "Ryan", "Cynthia", "Jacob",
	"Amy", "Gary", "Kathleen", "Nicholas", "Angela", "Eric", "Shirley", "Jonathan", "Anna", "Stephen",
	"Brenda", "Larry", "Pamela", "Justin", "Emma", "Scott", "Nicole", "Brandon", "Helen", "Benjamin",
	"Samantha", "Samuel", "Katherine", "Gregory", "Christine", "Alexander", "Debra", "Frank", "Rachel", "Patrick",
	"Carolyn", "Raymond", "Janet", "Jack", "Catherine", "Dennis", "Maria", "Jerry", "Heather", "Tyler",
	"Aaliyah", "Kwame", "Priya", "Hiroshi", "Ingrid", "Mateo", "Sofia", "Tomasz", "Aisha", "Lars",
	"Wen", "Ravi", "Chiamaka", "Diego", "Noor", "Elena", "Kofi", "Freya", "Yusuf", "Hana",
}

// counties name county-government clients.
var counties = []string{
	"Harbor", "Alder", "Brunswick", "Carver", "Dane", "Edgecombe", "Franklin", "Granville", "Halifax", "Iredell",
	"Jasper", "Kershaw", "Lenoir", "Madison", "Nash", "Onslow", "Pender", "Randolph", "Sampson", "Tyrrell",
	"Union", "Vance", "Wayne", "Yadkin", "Beaufort", "Camden", "Chowan", "Dare", "Gates", "Hyde",
	"Martin", "Pamlico", "Pitt", "Warren", "Wilkes", "Surry", "Stokes", "Rowan", "Person", "Orange",
	"Moore", "Lee", "Hoke", "Greene", "Duplin", "Currituck", "Craven", "Bladen", "Anson", "Alamance",
}

// townSuffixes turn a place word into a town name ("Cedarville").
var townSuffixes = []string{"ville", "ton", " Springs", " Falls", " Crossing", " Hill", " Grove", "port", "field", "burg"}

// states are where the company works: mitigation banking is busiest in
// the Southeast and Mid-Atlantic.
var states = []struct{ code, name string }{
	{"NC", "North Carolina"}, {"VA", "Virginia"}, {"SC", "South Carolina"}, {"GA", "Georgia"},
	{"TN", "Tennessee"}, {"MD", "Maryland"}, {"FL", "Florida"}, {"KY", "Kentucky"},
	{"AL", "Alabama"}, {"PA", "Pennsylvania"}, {"WV", "West Virginia"}, {"LA", "Louisiana"},
}

// clientCategories is the client-type list field of customers; the index
// selects the name patterns in clientName.
var clientCategories = []string{"Government", "Municipal", "Transportation", "Developer", "Utility", "Nonprofit", "Industrial"}

// vendorItems are vendor-bill line descriptions by vendor category, in the
// order of the vendor status field's Choices (Nursery, Earthworks, ...).
var vendorItems = map[string][]string{
	"Nursery":    {"Native plant plugs", "Live stakes", "Bare-root hardwood seedlings", "Wetland seed mix", "Container shrubs", "Riparian seed mix"},
	"Earthworks": {"Grading and excavation", "Channel construction", "Coir log installation", "Rock vane installation", "Topsoil hauling", "Culvert removal"},
	"Surveying":  {"As-built survey", "Topographic survey", "Boundary survey", "Cross-section survey", "Drone orthoimagery"},
	"Laboratory": {"Water quality analysis", "Soil nutrient analysis", "Benthic macroinvertebrate ID", "Sediment testing", "eDNA sampling"},
	"Equipment":  {"Excavator rental", "Marsh buggy rental", "Hydroseeder rental", "Skid steer rental", "Water pump rental"},
	"Consulting": {"Hydrologic modeling", "Geotechnical review", "Cultural resources survey", "Permit drafting", "Legal review of conservation easement"},
}

// vendorNamePatterns name vendors by category; {P} is a place word, {S} a
// surname.
var vendorNamePatterns = map[string][]string{
	"Nursery":    {"{P} Native Nursery", "{S} Wetland Nursery", "{P} Native Plants", "{P} Seed Company", "{S} Farms Native Seed"},
	"Earthworks": {"{S} Grading & Excavation", "{P} Earthmoving", "{S} Site Works", "{S} Brothers Construction", "{P} Ecological Construction"},
	"Surveying":  {"{S} Land Surveying", "{P} Geomatics", "{S} & {S} Surveyors", "{P} Mapping Services"},
	"Laboratory": {"{P} Analytical Laboratories", "{S} Environmental Labs", "{P} Water Testing", "{S} Aquatic Sciences"},
	"Equipment":  {"{P} Equipment Rental", "{S} Heavy Equipment", "{P} Machinery", "{S} Pump & Supply"},
	"Consulting": {"{S} Ecological Consulting", "{P} Hydrology Associates", "{S} & {S} Engineers", "{P} Environmental Law Group", "{S} Archaeology"},
}

// jobTitles are employee titles by department, in the order of the
// employee status field's Choices.
var jobTitles = map[string][]string{
	"Ecology":          {"Wetland Scientist", "Senior Ecologist", "Botanist", "Wildlife Biologist", "Aquatic Biologist", "Ecologist"},
	"Engineering":      {"Water Resources Engineer", "Project Engineer", "GIS Analyst", "Senior Engineer", "Hydrologist"},
	"Field operations": {"Field Technician", "Crew Lead", "Equipment Operator", "Field Supervisor", "Planting Foreman"},
	"Finance":          {"Accountant", "Billing Specialist", "Controller", "Accounts Payable Clerk"},
	"Sales":            {"Business Development Manager", "Credit Sales Manager", "Proposal Manager"},
	"Administration":   {"Office Manager", "HR Generalist", "Contracts Administrator", "IT Specialist"},
}

// resourceNames are generic resources by type, in the order of the
// generic resource status field's Choices.
var resourceNames = map[string][]string{
	"Crew":        {"Planting Crew", "Survey Crew", "Monitoring Crew", "Construction Crew", "Invasives Crew", "Seeding Crew"},
	"Equipment":   {"Tracked Excavator", "Skid Steer", "Marsh Buggy", "Hydroseeder", "Survey Drone", "Dump Truck", "Boat and Trailer"},
	"Specialist":  {"Senior Wetland Scientist", "Fluvial Geomorphologist", "Herpetologist", "GIS Specialist", "Soil Scientist", "Arborist"},
	"Subcontract": {"Erosion Control Install", "Fencing Install", "Prescribed Burn", "Tree Clearing", "Stream Crossing Install"},
}

// regions qualify generic resources and opportunities.
var regions = []string{"Piedmont", "Coastal Plain", "Mountains", "Tidewater", "Sandhills", "Blue Ridge", "Lowcountry", "Delta"}

// requestTypes are what clients ask for in a project request.
var requestTypes = []string{
	"Wetland delineation", "Stream assessment", "Mitigation credit purchase", "Restoration design",
	"Habitat survey", "Erosion control plan", "Section 404 permit support", "Monitoring report",
	"Stormwater retrofit study", "Invasive species survey",
}

// opportunitySuffixes follow the site name in opportunity titles.
var opportunitySuffixes = []string{
	"design-build proposal", "credit purchase", "monitoring contract", "on-call services", "full-delivery RFP",
	"feasibility study", "construction bid", "easement acquisition",
}

// questionnaireTypes are the vendor questionnaires the company sends.
var questionnaireTypes = []string{
	"Safety & Insurance", "Prequalification", "DBE Certification", "Sustainability", "Annual Compliance", "Cybersecurity",
}

// questions are the vendor questionnaire's questions with the answers a
// vendor might give.
var questions = []struct {
	q       string
	answers []string
}{
	{"Do you carry general liability insurance of at least $1,000,000?", []string{"Yes", "Yes", "Yes", "No"}},
	{"What is your current experience modification rate (EMR)?", []string{"0.72", "0.81", "0.89", "0.95", "1.04"}},
	{"Have you had an OSHA recordable incident in the last three years?", []string{"No", "No", "Yes, one"}},
	{"Are your field staff trained in erosion and sediment control?", []string{"Yes, all crew leads", "Yes", "In progress"}},
	{"Do you hold a state contractor license?", []string{"Yes, unlimited", "Yes, limited", "Not required for our work"}},
	{"Are you a certified disadvantaged business enterprise?", []string{"No", "Yes", "Application pending"}},
	{"Describe your invasive species hygiene protocol.", []string{"Equipment washed between sites", "Written protocol on file", "Follows state guidance"}},
	{"Can you provide three references for similar work?", []string{"Attached", "Yes", "Available on request"}},
}

// noteTexts are the notes sublist's texts.
var noteTexts = []string{
	"Site visit: beaver activity observed near the outlet culvert; recommend exclusion fencing.",
	"Client asked for an updated schedule before the next board meeting.",
	"Planting complete on the north cell; survival check due in the fall.",
	"Invoice sent; client AP confirmed receipt.",
	"Heavy rain last week, silt fence on the east slope needs repair.",
	"Agency site walk scheduled with the Corps reviewer.",
	"Monitoring plots 3 and 7 relocated after bank erosion.",
	"Vendor confirmed delivery of live stakes for next Tuesday.",
	"Easement survey recorded at the county register of deeds.",
	"Japanese stiltgrass treatment scheduled for late summer.",
	"Hydrology gauge data downloaded; groundwater within 12 inches for 30 consecutive days.",
	"Credit release request submitted to the interagency review team.",
	"Client requested a copy of the as-built drawings.",
	"Crew reported a nesting osprey near the staging area; work paused within 200 feet.",
	"Budget revised after the change order for additional rock.",
	"Followed up by phone, waiting on the signed task order.",
}

// metrics are the ecological measures projects track, with a target and
// the unit.
var metrics = []struct {
	name, unit string
	target     int
}{
	{"Stem density", "stems/acre", 320},
	{"Native cover", "%", 70},
	{"Invasive cover", "%", 5},
	{"Groundwater within 12 in", "days", 30},
	{"Bank pins eroded", "in/yr", 2},
	{"Benthic index", "score", 60},
	{"Canopy cover", "%", 40},
}

// communicationTypes are the kinds of opportunity communication.
var communicationTypes = []string{"Email", "Call", "Meeting", "Site visit"}

// communicationSubjects are the opportunity communication subjects.
var communicationSubjects = []string{
	"Introductory call", "Credit availability question", "Site walk", "Proposal follow-up",
	"Pricing discussion", "Schedule for permit submittal", "Revised scope", "Contract terms",
}
