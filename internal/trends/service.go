// Package trends serves the trends API under /api/: workspaces, datasets and every trends
// question, imports (browser uploads queued as background jobs) and watchlists. It checks the
// caller's access to the workspace on every route before asking the warehouse anything.
package trends

import (
	"net/http"
	"time"

	"github.com/sellertrends/sellertrends/internal/auth"
	"github.com/sellertrends/sellertrends/internal/config"
	"github.com/sellertrends/sellertrends/internal/store"
	"github.com/sellertrends/sellertrends/internal/trends/alerts"
	"github.com/sellertrends/sellertrends/internal/trends/warehouse"
)

// DemoWorkspace is the generated workspace every signed-in user can read.
const DemoWorkspace = "demo"

// Limits are a workspace's plan limits; plans (billing) fill them later.
type Limits struct {
	WatchlistItems int
}

// DefaultLimits are the Free plan's (trends.md).
var DefaultLimits = Limits{WatchlistItems: 10}

// Service answers the trends API.
type Service struct {
	cfg    *config.Config
	store  *store.Store
	wh     *warehouse.Warehouse
	auth   *auth.Service
	jobs   *Jobs
	alerts *alerts.Notifier // nil: no alert digests (and no unsubscribe page)
	limits func(workspace string) Limits
	now    func() time.Time
}

// New builds the service and starts its import worker.
func New(cfg *config.Config, st *store.Store, wh *warehouse.Warehouse, authSvc *auth.Service) *Service {
	s := &Service{cfg: cfg, store: st, wh: wh, auth: authSvc, limits: func(string) Limits { return DefaultLimits },
		now: func() time.Time { return time.Now().UTC() }}
	s.jobs = newJobs(wh)
	return s
}

// UseAlerts sends alert digests through n after every import and serves the alert settings
// and unsubscribe routes with it. Call it before the first upload.
func (s *Service) UseAlerts(n *alerts.Notifier) {
	s.alerts = n
	s.jobs.afterImport = n.AfterImport
}

// Close stops the import worker after the running job.
func (s *Service) Close() error { s.jobs.close(); return nil }

// Handler returns the API handler; every route needs a session.
func (s *Service) Handler() http.Handler {
	mux := http.NewServeMux()
	for _, r := range s.routes() {
		mux.Handle(r.Method+" "+r.Path, r.handler)
	}
	mux.HandleFunc("GET /api/openapi.json", s.openAPI)
	mux.HandleFunc("/api/", notFound)
	return s.sessionExceptOpenAPI(mux)
}

// sessionExceptOpenAPI asks for a session on every real route; the OpenAPI document and the
// unsubscribe page (its link is signed) are public, and unknown paths answer 404 whether or
// not the caller is signed in.
func (s *Service) sessionExceptOpenAPI(mux *http.ServeMux) http.Handler {
	protected := s.auth.RequireSession(mux)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if _, pattern := mux.Handler(r); r.URL.Path == "/api/openapi.json" || r.URL.Path == alerts.UnsubscribePath || pattern == "/api/" {
			mux.ServeHTTP(w, r)
			return
		}
		protected.ServeHTTP(w, r)
	})
}
