package httpapi

import (
	"net/http"

	"github.com/portico/portico/internal/access"
	"github.com/portico/portico/internal/shortlist"
)

// routes registers the whole HTTP surface. Read this file to know the API.
// Routes added with s.public need no session; everything else goes through
// s.handle, behind withAuth (a token, an enabled user, a role they hold).
func (s *Server) routes() {
	// Public: health for load balancers and `make run`; the sign-in exchange
	// and token upkeep, which carry their own credentials.
	s.public("GET /api/v1/health", s.health)
	s.public("GET /api/v1/auth/login", s.login)
	s.public("POST /api/v1/auth/refresh", s.refresh)
	s.public("POST /api/v1/auth/logout", s.logout)
	// Prometheus scrapes with its own token (PORTICO_METRICS_TOKEN).
	s.public("GET /metrics", s.metrics)
	// The operator API: the deployment's tenants, for automation, with
	// its own token (PORTICO_OPERATOR_TOKEN; operator.go); at any address.
	s.public("GET /operator/v1/tenants", s.operator(s.operatorTenants))
	s.public("POST /operator/v1/tenants", s.operator(s.operatorAddTenant))
	s.public("GET /operator/v1/tenants/{id}", s.operator(s.operatorGetTenant))
	s.public("DELETE /operator/v1/tenants/{id}", s.operator(s.operatorDelete))
	s.public("POST /operator/v1/tenants/{id}/suspend", s.operator(s.operatorSuspend(true)))
	s.public("POST /operator/v1/tenants/{id}/resume", s.operator(s.operatorSuspend(false)))
	s.public("POST /operator/v1/tenants/{id}/hosts", s.operator(s.operatorHosts))
	s.public("POST /operator/v1/tenants/{id}/environment", s.operator(s.operatorEnvironment))
	s.public("GET /operator/v1/tenants/{id}/export", s.operator(s.operatorExport))

	s.handle("GET /api/v1/auth/me", s.me)
	s.handle("POST /api/v1/auth/role", s.switchRole)
	s.handle("GET /api/v1/layout/configurations/{layoutId}", s.layout)
	s.handle("GET /api/v1/kinds", s.kinds)
	s.handle("GET /api/v1/kinds/routes", s.kindRoutes)
	// The user's dashboard: each part only for a role that may see it.
	s.handle("GET /api/v1/dashboard", s.dashboard)
	// The company's own name and address: the letterhead of its documents.
	s.handle("GET /api/v1/company", s.company)

	// Records (SPEC §7 base paths), under /api/v1/{erp}/... .
	erp := "/api/v1/" + s.erp
	s.handle("GET "+erp+"/"+s.product+"-list", s.list)
	s.handle("GET "+erp+"/"+s.product+"-record", s.recordView)
	s.handle("GET "+erp+"/"+s.product+"-file", s.files)
	// Notes and files added to a record (its Notes and Files tabs).
	s.handle("POST "+erp+"/"+s.product+"-file", s.uploadFile)
	s.handle("POST "+erp+"/"+s.product+"-note", s.addNote)
	s.handle("POST "+erp+"/"+s.product+"-crud", s.saveRecord)
	s.handle("PUT "+erp+"/"+s.product+"-crud", s.saveRecord)
	// A selection of records: its CSV (GET), one field set on all (POST).
	s.handle("GET "+erp+"/"+s.product+"-bulk", s.bulkExport)
	s.handle("POST "+erp+"/"+s.product+"-bulk", s.bulkEdit)
	// Approve or reject records waiting for the caller's decision.
	s.handle("POST "+erp+"/"+s.product+"-approval", s.decide)
	s.handle("GET "+erp+"/"+s.product, s.searchRecords)
	s.handle("GET "+erp+"/listConfiguration", s.lists)
	s.handle("POST "+erp+"/listConfiguration", s.saveList)
	s.handle("PUT "+erp+"/listConfiguration", s.saveList)
	s.handle("DELETE "+erp+"/listConfiguration", s.deleteList)
	s.handle("GET "+erp+"/project", s.recordOf("project"))
	s.handle("GET "+erp+"/projects", s.listOf("project"))
	s.handle("GET "+erp+"/billing", s.listOf("billing"))
	s.handle("GET "+erp+"/billing-summary", s.listOf("billing_summary"))
	s.handle("GET "+erp+"/budgets", s.listOf("budget"))
	s.handle("GET "+erp+"/creditLedger", s.listOf("creditledger"))
	s.handle("GET "+erp+"/creditavailability", s.listOf("creditavailability"))
	s.handle("GET /api/v1/projectRequests", s.listOf("projectrequest"))
	s.handle("POST /api/v1/projectRequests", s.saveOf("projectrequest"))
	s.handle("PUT /api/v1/projectRequests", s.saveOf("projectrequest"))

	// The caller's own shortlists: the records they opened last (the app
	// posts each record page it shows) and their favourites.
	s.handle("GET /api/v1/me/recent", s.shelf(shortlist.Recent))
	s.handle("POST /api/v1/me/recent", s.visited)
	s.handle("GET /api/v1/me/favourites", s.shelf(shortlist.Favourites))
	s.handle("PUT /api/v1/me/favourites", s.favourite)
	s.handle("DELETE /api/v1/me/favourites", s.favourite)

	// Reports: saved lists with grouping and a chart.
	s.handle("GET /api/v1/reports", s.needs("reports.view", s.reports))
	s.handle("POST /api/v1/reports", s.needs("reports.view", s.saveReport))
	s.handle("PUT /api/v1/reports", s.needs("reports.view", s.saveReport))
	s.handle("DELETE /api/v1/reports", s.needs("reports.view", s.deleteReport))
	s.handle("GET /api/v1/reports/run", s.needs("reports.view", s.runReport))
	s.handle("POST /api/v1/reports/run", s.needs("reports.view", s.runReport))

	// Feedback, and what administrators see of the tenant's activity.
	s.handle("POST /api/v1/feedback", s.needs("feedback.create", s.sendFeedback))
	s.handle("GET /api/v1/feedback", s.needs("feedback.admin", s.feedbackList))
	s.handle("GET /api/v1/feedback/{id}/attachment", s.needs("feedback.admin", s.feedbackAttachment))
	s.handle("GET /api/v1/audit", s.needs("audit.view", s.auditLog))
	s.handle("GET /api/v1/audit/users", s.needs("audit.view", s.auditUsers))

	// Administration of the tenant's users, roles and menus: the access
	// file (as `portico roles export` / `import`), replaced whole with
	// If-Match; a preview of what a role's rules let a user see.
	s.handle("GET /api/v1/admin/access", s.needs(access.PermAdmin, s.accessSetup))
	s.handle("PUT /api/v1/admin/access", s.needs(access.PermAdmin, s.replaceAccess))
	s.handle("GET /api/v1/admin/access/preview", s.needs(access.PermAdmin, s.accessPreview))
	s.handle("POST /api/v1/admin/access/preview", s.needs(access.PermAdmin, s.accessPreview))

	// The ERP sync: its status and runs for administrators; retrying or
	// discarding a change the ERP refused for those who may edit it.
	s.handle("GET /api/v1/sync/status", s.needs("sync.view", s.syncStatus))
	s.handle("POST /api/v1/sync/run", s.needs("sync.admin", s.syncRun))
	s.handle("POST /api/v1/sync/writes/{action}", s.writeAction)

	// Live updates: a server-sent event stream of the tenant's changes the
	// role may see, and "someone is editing" presence.
	s.handle("GET /api/v1/events", s.eventStream)
	s.handle("POST /api/v1/events/editing", s.editing)
	s.handle("DELETE /api/v1/events/editing", s.editing)

	// Anything else under /api is an API miss: a problem document, never
	// the app's index page.
	s.mux.HandleFunc(apiMiss, s.apiNotFound)

	// The single-page app: hashed assets, and index.html for client routes.
	// (Registered for every method: "GET /" would conflict with "/api/".)
	s.mux.HandleFunc("/", s.serveApp)
}

// apiMiss is the pattern of every /api path no route above matches.
const apiMiss = "/api/"

func (s *Server) public(pattern string, h http.HandlerFunc) { s.mux.Handle(pattern, h) }

func (s *Server) handle(pattern string, h http.HandlerFunc) {
	s.private = append(s.private, pattern)
	s.mux.Handle(pattern, s.withAuth(h))
}
