package records

// Helpers that keep the registry below readable.
func title(name, label string) Field {
	return Field{Name: name, Label: label, Column: ColTitle, Type: TypeText, Required: true}
}

// code is the record's number or id, which the ERP assigns: read-only.
func code(name, label string) Field {
	return Field{Name: name, Label: label, Column: ColCode, Type: TypeText, ReadOnly: true}
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

// doc declares a document field of the kind: kept in the record's
// document under its name, not in a promoted column.
func doc(name, label string, t FieldType) Field {
	return Field{Name: name, Label: label, Column: DocColumn(name), Type: t}
}
func docRef(name, label, kind string) Field {
	f := doc(name, label, TypeRef)
	f.Ref = kind
	return f
}
func docStatus(name, label string, choices ...string) Field {
	f := doc(name, label, TypeStatus)
	f.Choices = choices
	return f
}

// list marks a document field held as a list value ({"id", "refName"})
// whose choices are the account's (terms, currencies, regions): shown,
// filtered and sorted as the text of its refName.
func list(name, label string) Field {
	f := doc(name, label, TypeText)
	f.named = true
	return f
}

// readOnly marks a system field (see Field.ReadOnly).
func (f Field) readOnly() Field { f.ReadOnly = true; return f }

// per marks a quantity whose unit is, in each record, the value of the
// named field (see Field.Per).
func (f Field) per(unit string) Field { f.Per = unit; return f }

// noSort marks long free text that gets no sort index.
func (f Field) noSort() Field { f.unsorted = true; return f }

// newestFirst is a transaction list's default order: by its date, the
// newest first.
func newestFirst(field string) SortSpec { return SortSpec{Field: field, Dir: "desc"} }

// Document fields several kinds share.
var (
	currencyField = list("currency", "Currency").readOnly()
	termsField    = list("terms", "Terms")
	inactiveField = doc("isinactive", "Inactive", TypeBoolean)
	emailField    = doc("email", "Email", TypeEmail)
	phoneField    = doc("phone", "Phone", TypePhone)
	addressField  = doc("defaultaddress", "Address", TypeText).readOnly().noSort()
)

var (
	filesTab   = Tab{Name: "files", Label: "Files", Source: TabFiles}
	notesTab   = Tab{Name: "notes", Label: "Notes", Source: TabSublist}
	historyTab = Tab{Name: "history", Label: "History", Source: TabHistory}
)

// lineItems is a transaction's item sublist (NetSuite's "item" on
// invoices and vendor bills): one line per item sold or bought. An
// invoice's item lines add up to its amount; a vendor bill's, together
// with its expense lines (billExpenses), add up to its amount.
var lineItems = Tab{Name: "item", Label: "Items", Source: TabLines, Columns: []ColumnInfo{
	member("item", "Item", TypeText), member("description", "Description", TypeText),
	member("quantity", "Quantity", TypeNumber), member("rate", "Rate", TypeMoney),
	total(member("amount", "Amount", TypeMoney)),
}}

// billExpenses is a vendor bill's expense sublist (NetSuite's "expense",
// VendorBillExpenseCollection): one line per cost charged straight to a
// general-ledger account rather than bought as an item (most
// subcontractor bills). Its account is a reference, shown by its refName;
// the line's department, class, location and customer are not shown. A
// bill may have expense lines, item lines or both; its amount is the
// total of all of them.
var billExpenses = Tab{Name: "expense", Label: "Expenses", Source: TabLines, Columns: []ColumnInfo{
	member("account", "Account", TypeText), member("memo", "Memo", TypeText),
	total(member("amount", "Amount", TypeMoney)),
}}

// member is a column of a lines tab; a money member is in its record's
// currency.
func member(name, label string, t FieldType) ColumnInfo {
	return ColumnInfo{Name: name, Label: label, Type: t}
}

// total marks a lines column whose values add up to the lines' total (an
// amount, not a rate).
func total(c ColumnInfo) ColumnInfo { c.Summable = true; return c }

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
		Document: []Field{
			docRef("projectmanager", "Project manager", "employee"), doc("percentcomplete", "% complete", TypePercent),
			doc("projectedenddate", "Projected end", TypeDate), doc("enddate", "End date", TypeDate),
			list("custentity_res_project_type", "Project type"), list("jobbillingtype", "Billing type"),
			doc("custentity_res_acres", "Acres", TypeQuantity), doc("custentity_res_linear_feet", "Linear feet", TypeNumber),
			doc("custentity_res_county", "County", TypeText), list("custentity_res_state", "State"),
			doc("custentity_res_huc", "HUC", TypeText), doc("custentity_res_permit_number", "Permit number", TypeText),
			inactiveField, currencyField,
		},
		Owner: "projectmanager",
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
		Document: []Field{
			docRef("owner", "Owner", "employee"), doc("custrecord_res_pr_contact", "Contact", TypeText),
			doc("custrecord_res_pr_due", "Response due", TypeDate), doc("custrecord_res_pr_county", "County", TypeText),
			doc("custrecord_res_pr_description", "Description", TypeText).noSort(),
		},
		Owner:     "owner",
		Tabs:      []Tab{notesTab, historyTab},
		CanCreate: true, CanEdit: true,
	},
	{
		Name: "customer", Route: "customer", Label: "Client", Plural: "Clients", ERPType: "customer",
		DefaultList: "customsearch_res_customer_list",
		Fields: []Field{
			title("companyname", "Client name"), code("entityid", "Client ID"),
			status("entitystatus", "Status", "Prospect", "Active", "Inactive"),
			money("balance", "Balance").readOnly(), date("datecreated", "Client since").readOnly(),
		},
		Document: []Field{
			emailField, phoneField, doc("url", "Website", TypeURL), docRef("salesrep", "Sales rep", "employee"),
			list("custentity_res_client_type", "Client type"), termsField, addressField, inactiveField, currencyField,
		},
		Owner: "salesrep", Address: addressField.Name,
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
			money("balance", "Balance").readOnly(), date("datecreated", "Vendor since").readOnly(),
		},
		Document: []Field{
			emailField, phoneField, termsField, addressField, doc("is1099eligible", "1099 eligible", TypeBoolean),
			doc("custentity_res_w9_on_file", "W-9 on file", TypeBoolean),
			doc("custentity_res_prequalified", "Prequalified", TypeBoolean),
			doc("custentity_res_insurance_expiry", "Insurance expires", TypeDate), currencyField,
		},
		Address: addressField.Name,
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
		Document: []Field{
			doc("duedate", "Due date", TypeDate), doc("amountremaining", "Amount remaining", TypeMoney).readOnly(),
			termsField, doc("otherrefnum", "PO/reference", TypeText),
			doc("custbody_res_vendor_invoice", "Vendor invoice number", TypeText),
			docStatus("approvalstatus", "Approval status", "Pending Approval", "Approved", "Rejected"),
			docRef("nextapprover", "Next approver", "employee"),
			list("account", "A/P account"), currencyField,
		},
		// NetSuite's vendor bill approval: the approval status drives the
		// bill's status (Bill:Pending Approval, Bill:Open, Bill:Rejected).
		Approval: &Approval{Status: "approvalstatus", NextApprover: "nextapprover",
			Pending: "Pending Approval", Approved: "Approved", Rejected: "Rejected",
			Then: map[string]string{"Approved": "Open", "Rejected": "Rejected"}},
		DefaultSort: newestFirst("trandate"),
		Tabs:        []Tab{lineItems, billExpenses, filesTab, notesTab},
		ERPLink:     "/app/accounting/transactions/vendbill.nl?id={id}",
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
		Document: []Field{
			doc("duedate", "Due date", TypeDate), doc("amountremaining", "Amount remaining", TypeMoney).readOnly(),
			termsField, doc("otherrefnum", "PO/reference", TypeText), currencyField,
		},
		DefaultSort: newestFirst("trandate"),
		Tabs:        []Tab{lineItems, filesTab},
		ERPLink:     "/app/accounting/transactions/custinvc.nl?id={id}",
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
		Document: []Field{
			doc("custrecord_res_vq_sent", "Sent on", TypeDate), list("custrecord_res_vq_type", "Questionnaire type"),
			docRef("custrecord_res_vq_reviewer", "Reviewer", "employee"),
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
		Document: []Field{
			list("custentity_res_region", "Region"), doc("custentity_res_capacity_hours", "Weekly capacity (hours)", TypeNumber),
			doc("custentity_res_home_base", "Home base", TypeText), inactiveField,
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
		Document: []Field{
			emailField, phoneField, doc("title", "Job title", TypeText), docRef("supervisor", "Supervisor", "employee"),
			list("employeetype", "Employee type"), list("location", "Office"), inactiveField,
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
		Document: []Field{
			doc("custrecord_res_bil_milestone_no", "Milestone number", TypeNumber),
			doc("custrecord_res_bil_percent", "% of contract", TypePercent),
			doc("custrecord_res_bil_description", "Milestone", TypeText),
		},
		DefaultSort: newestFirst("custrecord_res_bil_date"),
		Tabs:        []Tab{notesTab},
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
		Document: []Field{
			docRef("custrecord_res_bs_customer", "Client", "customer"),
			doc("custrecord_res_bs_contract_value", "Contract value", TypeMoney),
			doc("custrecord_res_bs_remaining", "Remaining to bill", TypeMoney).readOnly(),
			doc("custrecord_res_bs_percent_billed", "% billed", TypePercent).readOnly(),
			doc("custrecord_res_bs_invoices", "Invoices", TypeNumber).readOnly(),
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
		Document: []Field{
			doc("custrecord_res_bud_actual", "Actual", TypeMoney).readOnly(),
			doc("custrecord_res_bud_variance", "Variance", TypeMoney).readOnly(),
			docRef("custrecord_res_bud_owner", "Owner", "employee"),
		},
		Owner: "custrecord_res_bud_owner",
		Tabs:  []Tab{notesTab},
	},
	{
		Name: "creditledger", Route: "creditledger", Label: "Credit ledger", Plural: "Credit ledger",
		ERPType: "customrecord_res_credit_ledger", DefaultList: "customsearch_res_creditledger_list",
		Fields: []Field{
			title("name", "Entry"), code("custrecord_res_cl_number", "Entry number"),
			status("custrecord_res_cl_type", "Transaction", "Released", "Reserved", "Sold", "Retired"),
			parent("custrecord_res_cl_customer", "Buyer", "customer"), project("custrecord_res_cl_bank"),
			quantity("custrecord_res_cl_credits", "Credits").per("custrecord_res_cl_credit_type"), date("custrecord_res_cl_date", "Date"),
		},
		Document: []Field{
			list("custrecord_res_cl_credit_type", "Credit type"),
			doc("custrecord_res_cl_price_per_credit", "Price per credit", TypeMoney),
			doc("custrecord_res_cl_permit", "Permit", TypeText), doc("custrecord_res_cl_service_area", "Service area", TypeText),
		},
		DefaultSort: newestFirst("custrecord_res_cl_date"),
		Tabs:        []Tab{notesTab},
	},
	{
		Name: "creditavailability", Route: "creditavailability", Label: "Credit availability",
		Plural: "Credit availability", ERPType: "customrecord_res_credit_availability",
		DefaultList: "customsearch_res_creditavailability_list",
		Fields: []Field{
			title("name", "Credit pool"), code("custrecord_res_ca_number", "Pool number"),
			status("custrecord_res_ca_credit_type", "Credit type", "Wetland", "Stream", "Species", "Nutrient"),
			project("custrecord_res_ca_bank"),
			quantity("custrecord_res_ca_available", "Available credits").per("custrecord_res_ca_credit_type"),
			date("custrecord_res_ca_asof", "As of"),
		},
		Document: []Field{
			doc("custrecord_res_ca_released", "Released credits", TypeQuantity).per("custrecord_res_ca_credit_type"),
			doc("custrecord_res_ca_sold", "Sold credits", TypeQuantity).per("custrecord_res_ca_credit_type"),
			doc("custrecord_res_ca_reserved", "Reserved credits", TypeQuantity).per("custrecord_res_ca_credit_type"),
			doc("custrecord_res_ca_price", "Price per credit", TypeMoney),
			doc("custrecord_res_ca_service_area", "Service area", TypeText),
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
		Document: []Field{
			docRef("custrecord_res_opp_salesrep", "Sales rep", "employee"),
			doc("custrecord_res_opp_probability", "Probability", TypePercent), list("custrecord_res_opp_region", "Region"),
			list("custrecord_res_opp_credit_type", "Credit type"),
			doc("custrecord_res_opp_credits_needed", "Credits needed", TypeQuantity).per("custrecord_res_opp_credit_type"),
		},
		Owner: "custrecord_res_opp_salesrep",
		Tabs: []Tab{
			filesTab, Tab{Name: "communication", Label: "Communication", Source: TabSublist},
			Tab{Name: "credits", Label: "Client's credits", Source: TabCustom, Kind: "creditledger", Through: ColParent}, notesTab,
			historyTab,
		},
		CanCreate: true, CanEdit: true,
	},
}
