package trends

import (
	"net/http"
	"slices"

	"github.com/sellertrends/sellertrends/internal/auth"
	"github.com/sellertrends/sellertrends/internal/httpx"

	"github.com/sellertrends/sellertrends/internal/store"
	"github.com/sellertrends/sellertrends/internal/trends/warehouse"
)

// route is one API route; the same table registers the handlers and writes the OpenAPI document.
type route struct {
	Method, Path, Summary string
	Params                []param
	handler               http.HandlerFunc
	Answer                answer
}

// answer is what a route answers: its success status and body, and its error statuses (every
// error body is {code, message}). TestOpenAPIStatusesAreReal checks them against real answers.
type answer struct {
	Status  int
	Body    any   // a value of the answer's type; nil for no body
	Request any   // the request body's type (uploadForm: the multipart form); nil for none
	Errors  []int // besides these, any route may answer 500 when something breaks
}

// Error statuses: 400 a parameter (the message names it), 401 no session, 403 the demo is
// read-only, a plan limit, or the caller's role in an organization does not grant it, 404 not
// yours or not there, 409 already there, 413 too large; route.errors adds the 403 and 415 of
// the shared write checks.
var (
	eList  = []int{400, 401}
	eRead  = []int{400, 401, 403, 404}
	eWrite = []int{400, 401, 403, 404}
	eWatch = []int{400, 401, 403, 404} // the demo's watchlist is the caller's own: no read-only refusal, but roles apply
)

// errors are the route's error statuses as documented: a state-changing route also answers
// 403 to a request from an untrusted origin, and one with a body 415 to a body of another
// media type than it declares (guard).
func (r route) errors() []int {
	out := slices.Clone(r.Answer.Errors)
	if auth.StateChanging(r.Method) && !slices.Contains(out, http.StatusForbidden) {
		out = append(out, http.StatusForbidden)
	}
	if r.Answer.Request != nil {
		out = append(out, http.StatusUnsupportedMediaType)
	}
	slices.Sort(out)
	return out
}

// mediaTypes are the body types a route declares.
func (r route) mediaTypes() []string {
	if _, form := r.Answer.Request.(uploadForm); form {
		return []string{"multipart/form-data"}
	}
	return httpx.JSONOnly
}

// handler is the route's handler behind the checks every route shares: for a state-changing
// route the origin check of the auth routes first (a cookie-authenticated write from another
// site is refused), then the text of the parameters, then the declared media type of the body.
func (s *Service) handler(r route) http.Handler {
	var h http.Handler = r.handler
	if r.Answer.Request != nil {
		types := r.mediaTypes()
		h = http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
			if err := httpx.CheckContentType(req, types); err != nil {
				httpx.WriteError(w, req, err)
				return
			}
			r.handler(w, req)
		})
	}
	h = validText(r.Path, h)
	if auth.StateChanging(r.Method) {
		h = s.auth.RequireTrustedOrigin(h)
	}
	return h
}

func ok(body any, errors []int) answer {
	return answer{Status: http.StatusOK, Body: body, Errors: errors}
}

// uploadForm documents the upload's multipart form (the handler reads it part by part).
type uploadForm struct {
	Files       []formFile `json:"files"`                 // one or more report files (CSV, JSON, gzip or zip), at most 50
	Marketplace string     `json:"marketplace,omitempty"` // e.g. amazon.com or US, when the files do not say
	Period      string     `json:"period,omitempty"`      // e.g. 2026-04-05..2026-04-11, when the files do not say
	Lenient     string     `json:"lenient,omitempty"`     // "true": skip bad rows and report them
}

// formFile is a file part of a multipart form.
type formFile []byte

type param struct {
	Name, In, Type, Description string
	Required                    bool
}

var (
	pWS      = param{"ws", "path", "string", "workspace id (\"demo\" for the demo)", true}
	pDS      = param{"ds", "path", "integer", "dataset id", true}
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
		pAt,
	}
	pTeam = param{"team", "query", "string", "a team of the organization: its own list instead of the organization's (its members, owners and admins only)", false}
	pAt   = param{"at", "query", "string", "a day (YYYY-MM-DD) of an earlier period: its measures as they stood then (default: the latest period)", false}
)

// routes is the API's route table: grep a URL, land on its handler.
func (s *Service) routes() []route {
	base := "/api/trends/{ws}/datasets/{ds}"
	return []route{
		{"GET", "/api/workspaces", "Workspaces the caller can open (their own and the demo)", nil, s.listWorkspaces, ok([]workspaceJSON{}, eList)},
		{"GET", "/api/trends/{ws}/datasets", "Datasets of a workspace", []param{pWS}, s.listDatasets, ok(datasetsAnswer{}, eRead)},
		{"GET", base + "/summary", "Periods, latest period, gaps and coverage per period", []param{pWS, pDS}, s.summary, ok(warehouse.Summary{}, eRead)},
		{"GET", base + "/overview", "Summary with top risers, fallers, new terms, breakouts and coming-up terms", []param{pWS, pDS}, s.overview, ok(overviewAnswer{}, eRead)},
		{"GET", base + "/history", "Rank history with top products, brands and categories for 1 to 10 terms", []param{pWS, pDS, {"term", "query", "string", "a term; repeat for up to 10", true}, pAt}, s.history, ok(historyAnswer{}, eRead)},
		{"GET", base + "/terms", "Explore and movers: filter, sort and page the terms of the latest period (or of an earlier one: at)", append([]param{pWS, pDS}, pListQry...), s.terms, ok(warehouse.Page{}, eRead)},
		{"GET", base + "/terms.csv", "The same list as CSV, every row, streamed; text cells that would start a formula begin with an apostrophe", append([]param{pWS, pDS}, pListQry...), s.termsCSV, ok(csvText(""), eRead)},
		{"GET", base + "/products/{asin}", "Every term where a product is in the top 3, with its shares over time", []param{pWS, pDS, {"asin", "path", "string", "ASIN", true}}, s.product, ok(warehouse.Presence{}, eRead)},
		{"GET", base + "/brands/{brand}", "Every term where a brand is in the top 3, over time", []param{pWS, pDS, {"brand", "path", "string", "brand name", true}}, s.brand, ok(warehouse.Presence{}, eRead)},
		{"GET", base + "/root-words", "Demand of every term containing a phrase, per period (estimated searches)", []param{pWS, pDS, {"phrase", "query", "string", "the root phrase", true}}, s.rootWords, ok(rootWordsAnswer{}, eRead)},
		{"DELETE", base + "/periods/{start}", "Delete one imported period", []param{pWS, pDS, {"start", "path", "string", "the period's first day, YYYY-MM-DD", true}}, s.deletePeriod, answer{Status: http.StatusNoContent, Errors: eWrite}},
		{"POST", "/api/trends/{ws}/imports", "Upload report files (multipart: files, marketplace, period, lenient); imported in the background", []param{pWS}, s.upload, answer{Status: http.StatusAccepted, Body: jobsAnswer{}, Request: uploadForm{}, Errors: slices.Concat(eWrite, []int{http.StatusRequestEntityTooLarge, http.StatusTooManyRequests})}},
		{"GET", "/api/trends/{ws}/imports", "Import jobs of the workspace with progress and results", []param{pWS}, s.listJobs, ok(jobsAnswer{}, eRead)},
		{"GET", "/api/trends/{ws}/imports/{job}", "One import job", []param{pWS, {"job", "path", "string", "job id", true}, {"wait", "query", "boolean", "true: answer when the job ends (long polling, at most 25 s)", false}}, s.getJob, ok(Job{}, eRead)},
		{"DELETE", "/api/trends/{ws}/imports/{job}", "Cancel an import job if it is still queued or running (a finished one is left as it is)", []param{pWS, {"job", "path", "string", "job id", true}}, s.cancelJob, answer{Status: http.StatusNoContent, Errors: eWrite}},
		{"GET", base + "/names", "Brand or category names of the latest period starting with a prefix (suggestions for the filters)", []param{pWS, pDS, {"kind", "query", "string", "brand (default) or category", false}, {"q", "query", "string", "the prefix typed so far", false}}, s.names, ok(namesAnswer{}, eRead)},
		// On "demo" the watchlist routes read and write the caller's own personal list, shown with the demo's numbers.
		{"GET", "/api/workspaces/{ws}/watchlist", "The watchlist with each item's latest numbers (on demo: the caller's own list over the demo data)", []param{pWS, {"ds", "query", "integer", "dataset whose numbers to show (default: the first)", false}, pTeam}, s.watchlist, ok(watchlistAnswer{}, eRead)},
		{"POST", "/api/workspaces/{ws}/watchlist", "Add a term, product or brand (JSON: kind, value)", []param{pWS, pTeam}, s.addWatch, answer{Status: http.StatusCreated, Body: store.WatchlistItem{}, Request: addWatchBody{}, Errors: slices.Concat(eWatch, []int{http.StatusConflict})}},
		{"DELETE", "/api/workspaces/{ws}/watchlist/{id}", "Remove a watchlist item", []param{pWS, {"id", "path", "string", "item id", true}, pTeam}, s.removeWatch, answer{Status: http.StatusNoContent, Errors: eWatch}},
		{"GET", "/api/workspaces/{ws}/team-members", "The members of a team of the organization, whom its watchlist's digests go to (the team's members, owners and admins; Better Auth's list-team-members answers the team's own members only)",
			[]param{pWS, {"team", "query", "string", "the team", true}}, s.teamMembers, ok(teamMembersAnswer{}, eRead)},
		{"GET", "/api/alerts/settings", "The caller's alert digest settings: frequency (import, weekly or off), threshold (percent of rank) and the email they go to", nil, s.alertSettings, ok(alertSettingsJSON{}, []int{400, 401})},
		{"PUT", "/api/alerts/settings", "Change the caller's alert digest settings (JSON: frequency, threshold 1-500)", nil, s.putAlertSettings,
			answer{Status: http.StatusOK, Body: alertSettingsJSON{}, Request: alertSettingsBody{}, Errors: []int{400, 401}}},
	}
}
