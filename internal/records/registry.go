package records

// Helpers that keep the registry below readable.
func title(name, label string) Field {
	return Field{Name: name, Label: label, Column: ColTitle, Type: TypeText, Required: true}
}
func code(name, label string) Field {
	return Field{Name: name, Label: label, Column: ColCode, Type: TypeText}
}
func status(name, label string, choices ...string) Field {
	return Field{Name: name, Label: label, Column: ColStatus, Type: TypeStatus, Choices: choices, Required: true}
}
func parent(name, label, kind string) Field {
	return Field{Name: name, Label: label, Column: ColParent, Type: TypeRef, Ref: kind, Required: true}
}
func project(name string) Field {
	return Field{Name: name, Label: "Project", Column: ColProject, Type: TypeRef, Ref: "project"}
}
func money(name, label string) Field {
	return Field{Name: name, Label: label, Column: ColAmount, Type: TypeMoney}
}
func quantity(name, label string) Field {
	return Field{Name: name, Label: label, Column: ColAmount, Type: TypeQuantity}
}
func date(name, label string) Field {
	return Field{Name: name, Label: label, Column: ColDate, Type: TypeDate}
}

var (
	filesTab   = Tab{Name: "files", Label: "Files", Source: TabFiles}
	notesTab   = Tab{Name: "notes", Label: "Notes", Source: TabSublist}
	historyTab = Tab{Name: "history", Label: "History", Source: TabHistory}
)

func related(name, label, kind string) Tab {
	return Tab{Name: name, Label: label, Source: TabRelated, Kind: kind}
}

// registry lists the 15 record kinds of SPEC.md §3. ERP types are NetSuite
// REST record types; the custom records are the company's own
// (customrecord_res_*). Link templates are paths under the account's UI host.
var registry = []*Kind{
	{
		Name: "project", Route: "project", Label: "Project", Plural: "Projects", ERPType: "job",
		DefaultList: "customsearch_res_project_list",
		Fields: []Field{
			title("companyname", "Project name"), code("entityid", "Project ID"),
			status("entitystatus", "Status", "Proposed", "Planning", "Active", "Monitoring", "Closed"),
			parent("customer", "Client", "customer"), money("projectedtotal", "Contract value"),
			date("startdate", "Start date"),
		},
		Tabs: []Tab{
			{Name: "billing", Label: "Billing", Source: TabCustom, Kind: "billing"},
			{Name: "credits", Label: "Credits", Source: TabCustom, Kind: "creditledger"},
			{Name: "budget", Label: "Budget", Source: TabCustom, Kind: "budget"},
			{Name: "ecometrics", Label: "Ecometrics", Source: TabCustom},
			{Name: "costdetails", Label: "Cost details", Source: TabCustom, Kind: "vendorbill"},
			filesTab, related("invoices", "Invoices", "invoice"), notesTab, historyTab,
		},
		ERPLink: "/app/accounting/project/project.nl?id={id}", CanEdit: true,
	},
	{
		Name: "projectrequest", Route: "projectrequest", Label: "Project request", Plural: "Project requests",
		ERPType: "customrecord_res_project_request", DefaultList: "customsearch_res_projectrequest_list",
		Fields: []Field{
			title("name", "Request"), code("custrecord_res_pr_number", "Request number"),
			status("custrecord_res_pr_status", "Status", "Draft", "Submitted", "Under review", "Approved", "Rejected"),
			parent("custrecord_res_pr_customer", "Client", "customer"),
			money("custrecord_res_pr_estimate", "Estimated value"), date("custrecord_res_pr_date", "Requested on"),
		},
		Tabs:      []Tab{notesTab, historyTab},
		CanCreate: true, CanEdit: true,
	},
	{
		Name: "customer", Route: "customer", Label: "Client", Plural: "Clients", ERPType: "customer",
		DefaultList: "customsearch_res_customer_list",
		Fields: []Field{
			title("companyname", "Client name"), code("entityid", "Client ID"),
			status("entitystatus", "Status", "Prospect", "Active", "Inactive"),
			money("balance", "Balance"), date("datecreated", "Client since"),
		},
		Tabs: []Tab{
			filesTab, related("projects", "Projects", "project"), related("invoices", "Invoices", "invoice"),
			related("opportunities", "Opportunities", "customrecord_res_opportunity"), notesTab, historyTab,
		},
		ERPLink: "/app/common/entity/custjob.nl?id={id}", CanCreate: true, CanEdit: true,
	},
	{
		Name: "vendor", Route: "vendor", Label: "Vendor", Plural: "Vendors", ERPType: "vendor",
		DefaultList: "customsearch_res_vendor_list",
		Fields: []Field{
			title("companyname", "Vendor name"), code("entityid", "Vendor ID"),
			status("category", "Category", "Nursery", "Earthworks", "Surveying", "Laboratory", "Equipment", "Consulting"),
			money("balance", "Balance"), date("datecreated", "Vendor since"),
		},
		Tabs: []Tab{
			filesTab, related("bills", "Bills", "vendorbill"),
			related("questionnaires", "Questionnaires", "customrecord_res_vendor_questions"), notesTab,
		},
		ERPLink: "/app/common/entity/vendor.nl?id={id}",
	},
	{
		Name: "vendorbill", Route: "vendorbill", Label: "Vendor bill", Plural: "Vendor bills", ERPType: "vendorBill",
		DefaultList: "customsearch_res_vendorbill_list",
		Fields: []Field{
			title("memo", "Description"), code("tranid", "Bill number"),
			status("status", "Status", "Pending approval", "Open", "Paid in full", "Rejected"),
			parent("entity", "Vendor", "vendor"), project("custbody_res_project"),
			money("total", "Amount"), date("trandate", "Bill date"),
		},
		Tabs:    []Tab{filesTab},
		ERPLink: "/app/accounting/transactions/vendbill.nl?id={id}",
	},
	{
		Name: "invoice", Route: "invoice", Label: "Invoice", Plural: "Invoices", ERPType: "invoice",
		DefaultList: "customsearch_res_invoice_list",
		Fields: []Field{
			title("memo", "Description"), code("tranid", "Invoice number"),
			status("status", "Status", "Open", "Paid in full", "Overdue", "Voided"),
			parent("entity", "Client", "customer"), project("job"),
			money("total", "Amount"), date("trandate", "Invoice date"),
		},
		Tabs:    []Tab{filesTab},
		ERPLink: "/app/accounting/transactions/custinvc.nl?id={id}",
	},
	{
		Name: "customrecord_res_vendor_questions", Route: "vendorquestionnaire", Label: "Vendor questionnaire",
		Plural: "Vendor questionnaires", ERPType: "customrecord_res_vendor_questions",
		DefaultList: "customsearch_res_vendorquestions_list",
		Fields: []Field{
			title("name", "Questionnaire"), code("custrecord_res_vq_number", "Number"),
			status("custrecord_res_vq_status", "Status", "Sent", "Received", "Approved", "Expired"),
			parent("custrecord_res_vq_vendor", "Vendor", "vendor"), date("custrecord_res_vq_date", "Received on"),
		},
		Tabs:    []Tab{Tab{Name: "answers", Label: "Answers", Source: TabSublist}, notesTab},
		ERPLink: "/app/common/custom/custrecordentry.nl?rectype=286&id={id}",
	},
	{
		Name: "genericresource", Route: "genericresource", Label: "Generic resource", Plural: "Generic resources",
		ERPType: "genericResource", DefaultList: "customsearch_res_genericresource_list",
		Fields: []Field{
			title("name", "Resource"), code("entityid", "Resource ID"),
			status("custentity_res_type", "Type", "Crew", "Equipment", "Specialist", "Subcontract"),
			money("laborcost", "Hourly rate"),
		},
		Tabs: []Tab{notesTab},
	},
	{
		Name: "employee", Route: "employee", Label: "Employee", Plural: "Employees", ERPType: "employee",
		DefaultList: "customsearch_res_employee_list",
		Fields: []Field{
			title("entityid", "Name"), code("custentity_res_employee_number", "Employee number"),
			status("department", "Department", "Ecology", "Engineering", "Field operations", "Finance", "Sales", "Administration"),
			date("hiredate", "Hire date"),
		},
		Tabs: []Tab{notesTab},
	},
	{
		Name: "billing", Route: "billing", Label: "Billing", Plural: "Billing", ERPType: "customrecord_res_billing",
		DefaultList: "customsearch_res_billing_list",
		Fields: []Field{
			title("name", "Milestone"), code("custrecord_res_bil_number", "Billing number"),
			status("custrecord_res_bil_status", "Status", "Scheduled", "Ready to bill", "Billed", "On hold"),
			parent("custrecord_res_bil_customer", "Client", "customer"), project("custrecord_res_bil_project"),
			money("custrecord_res_bil_amount", "Amount"), date("custrecord_res_bil_date", "Billing date"),
		},
		Tabs: []Tab{notesTab},
	},
	{
		Name: "billing_summary", Route: "billing-summary", Label: "Billing summary", Plural: "Billing summaries",
		ERPType: "customrecord_res_billing_summary", DefaultList: "customsearch_res_billing_summary_list",
		Fields: []Field{
			title("name", "Summary"), code("custrecord_res_bs_number", "Summary number"),
			status("custrecord_res_bs_status", "Status", "Open", "Closed"),
			project("custrecord_res_bs_project"), money("custrecord_res_bs_billed", "Billed to date"),
			date("custrecord_res_bs_period", "Period"),
		},
		Tabs: []Tab{notesTab},
	},
	{
		Name: "budget", Route: "budget", Label: "Budget", Plural: "Budgets", ERPType: "customrecord_res_budget",
		DefaultList: "customsearch_res_budget_list",
		Fields: []Field{
			title("name", "Budget line"), code("custrecord_res_bud_number", "Budget number"),
			status("custrecord_res_bud_category", "Category", "Labor", "Materials", "Equipment", "Subcontract", "Monitoring"),
			project("custrecord_res_bud_project"), money("custrecord_res_bud_amount", "Budgeted"),
			date("custrecord_res_bud_year", "Fiscal year start"),
		},
		Tabs: []Tab{notesTab},
	},
	{
		Name: "creditledger", Route: "creditledger", Label: "Credit ledger", Plural: "Credit ledger",
		ERPType: "customrecord_res_credit_ledger", DefaultList: "customsearch_res_creditledger_list",
		Fields: []Field{
			title("name", "Entry"), code("custrecord_res_cl_number", "Entry number"),
			status("custrecord_res_cl_type", "Transaction", "Released", "Reserved", "Sold", "Retired"),
			parent("custrecord_res_cl_customer", "Buyer", "customer"), project("custrecord_res_cl_bank"),
			quantity("custrecord_res_cl_credits", "Credits"), date("custrecord_res_cl_date", "Date"),
		},
		Tabs: []Tab{notesTab},
	},
	{
		Name: "creditavailability", Route: "creditavailability", Label: "Credit availability",
		Plural: "Credit availability", ERPType: "customrecord_res_credit_availability",
		DefaultList: "customsearch_res_creditavailability_list",
		Fields: []Field{
			title("name", "Credit pool"), code("custrecord_res_ca_number", "Pool number"),
			status("custrecord_res_ca_credit_type", "Credit type", "Wetland", "Stream", "Species", "Nutrient"),
			project("custrecord_res_ca_bank"), quantity("custrecord_res_ca_available", "Available credits"),
			date("custrecord_res_ca_asof", "As of"),
		},
		Tabs: []Tab{notesTab},
	},
	{
		Name: "customrecord_res_opportunity", Route: "opportunity", Label: "Opportunity", Plural: "Opportunities",
		ERPType: "customrecord_res_opportunity", DefaultList: "customsearch_res_opportunity_list",
		Fields: []Field{
			title("name", "Opportunity"), code("custrecord_res_opp_number", "Opportunity number"),
			status("custrecord_res_opp_stage", "Stage", "Lead", "Qualified", "Proposal", "Won", "Lost"),
			parent("custrecord_res_opp_customer", "Client", "customer"),
			money("custrecord_res_opp_value", "Expected value"), date("custrecord_res_opp_close", "Expected close"),
		},
		Tabs: []Tab{
			filesTab, Tab{Name: "communication", Label: "Communication", Source: TabSublist},
			Tab{Name: "credits", Label: "Client's credits", Source: TabCustom, Kind: "creditledger", Through: ColParent}, notesTab,
			historyTab,
		},
		CanCreate: true, CanEdit: true,
	},
}
