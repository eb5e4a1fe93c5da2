package trends

import "net/http"

// route is one API route; the same table registers the handlers and writes the OpenAPI document.
type route struct {
	Method, Path, Summary string
	Params                []param
	handler               http.HandlerFunc
}

type param struct {
	Name, In, Type, Description string
	Required                    bool
}

var (
	pWS      = param{"ws", "path", "string", "workspace id (\"demo\" for the demo)", true}
	pDS      = param{"ds", "path", "integer", "dataset id", true}
	pUnsub   = []param{{"u", "query", "string", "user id", true}, {"t", "query", "string", "the link's signature", true}}
	pListQry = []param{
		{"q", "query", "string", "text to match in the term (case-insensitive)", false},
		{"match", "query", "string", "substring (default) or prefix", false},
		{"list", "query", "string", "all, risers, fallers, new, breakouts or coming-up", false},
		{"window", "query", "integer", "change window in periods: 1, 4 (default), 13 or 52", false},
		{"minRank", "query", "integer", "best rank to include", false},
		{"maxRank", "query", "integer", "worst rank to include", false},
		{"category", "query", "string", "top clicked category or department", false},
		{"brand", "query", "string", "a top clicked brand", false},
		{"asin", "query", "string", "a top clicked product", false},
		{"minPeriods", "query", "integer", "present in at least this many periods", false},
		{"sort", "query", "string", "rank, term, change1, change4, change13, change52, clickConcentration, conversionConcentration, seasonality, comingUp, periodsPresent", false},
		{"order", "query", "string", "asc or desc", false},
		{"limit", "query", "integer", "rows per page, 1 to 1000 (default 100)", false},
		{"offset", "query", "integer", "rows to skip", false},
	}
)

// routes is the API's route table: grep a URL, land on its handler.
func (s *Service) routes() []route {
	base := "/api/trends/{ws}/datasets/{ds}"
	return []route{
		{"GET", "/api/workspaces", "Workspaces the caller can open (their own and the demo)", nil, s.listWorkspaces},
		{"GET", "/api/trends/{ws}/datasets", "Datasets of a workspace", []param{pWS}, s.listDatasets},
		{"GET", base + "/summary", "Periods, latest period, gaps and coverage per period", []param{pWS, pDS}, s.summary},
		{"GET", base + "/overview", "Summary with top risers, fallers, new terms, breakouts and coming-up terms", []param{pWS, pDS}, s.overview},
		{"GET", base + "/history", "Rank history with top products, brands and categories for 1 to 10 terms", []param{pWS, pDS, {"term", "query", "string", "a term; repeat for up to 10", true}}, s.history},
		{"GET", base + "/terms", "Explore and movers: filter, sort and page the latest period's terms", append([]param{pWS, pDS}, pListQry...), s.terms},
		{"GET", base + "/terms.csv", "The same list as CSV, every row, streamed", append([]param{pWS, pDS}, pListQry...), s.termsCSV},
		{"GET", base + "/products/{asin}", "Every term where a product is in the top 3, with its shares over time", []param{pWS, pDS, {"asin", "path", "string", "ASIN", true}}, s.product},
		{"GET", base + "/brands/{brand}", "Every term where a brand is in the top 3, over time", []param{pWS, pDS, {"brand", "path", "string", "brand name", true}}, s.brand},
		{"GET", base + "/root-words", "Demand of every term containing a phrase, per period (estimated searches)", []param{pWS, pDS, {"phrase", "query", "string", "the root phrase", true}}, s.rootWords},
		{"DELETE", base + "/periods/{start}", "Delete one imported period", []param{pWS, pDS, {"start", "path", "string", "the period's first day, YYYY-MM-DD", true}}, s.deletePeriod},
		{"POST", "/api/trends/{ws}/imports", "Upload report files (multipart: files, marketplace, period, lenient); imported in the background", []param{pWS}, s.upload},
		{"GET", "/api/trends/{ws}/imports", "Import jobs of the workspace with progress and results", []param{pWS}, s.listJobs},
		{"GET", "/api/trends/{ws}/imports/{job}", "One import job", []param{pWS, {"job", "path", "string", "job id", true}, {"wait", "query", "boolean", "true: answer when the job ends (long polling, at most 25 s)", false}}, s.getJob},
		{"GET", "/api/workspaces/{ws}/watchlist", "The workspace's watchlist with each item's latest move", []param{pWS}, s.watchlist},
		{"POST", "/api/workspaces/{ws}/watchlist", "Add a term, product or brand (JSON: kind, value)", []param{pWS}, s.addWatch},
		{"DELETE", "/api/workspaces/{ws}/watchlist/{id}", "Remove a watchlist item", []param{pWS, {"id", "path", "string", "item id", true}}, s.removeWatch},
		{"GET", "/api/alerts/settings", "The caller's alert digest settings: frequency (import, weekly or off), threshold (percent of rank) and the email they go to", nil, s.alertSettings},
		{"PUT", "/api/alerts/settings", "Change the caller's alert digest settings (JSON: frequency, threshold 1-500)", nil, s.auth.RequireTrustedOrigin(http.HandlerFunc(s.putAlertSettings)).ServeHTTP},
		{"GET", "/api/alerts/unsubscribe", "Signed unsubscribe link of the digests (no session): an HTML page asking to confirm", pUnsub, s.unsubscribe},
		{"POST", "/api/alerts/unsubscribe", "Unsubscribe from the digests (the page's button, or RFC 8058 one-click POST); no session", pUnsub, s.unsubscribe},
	}
}
