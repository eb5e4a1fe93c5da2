// Package trends serves the trends API under /api/: workspaces, datasets and every trends
// question, imports (browser uploads queued as background jobs) and watchlists. It checks the
// caller's access to the workspace on every route before asking the warehouse anything.
package trends

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"time"

	"github.com/sellertrends/sellertrends/internal/auth"
	"github.com/sellertrends/sellertrends/internal/auth/organization"
	"github.com/sellertrends/sellertrends/internal/config"
	"github.com/sellertrends/sellertrends/internal/plan"
	"github.com/sellertrends/sellertrends/internal/store"
	"github.com/sellertrends/sellertrends/internal/trends/alerts"
	"github.com/sellertrends/sellertrends/internal/trends/warehouse"
)

// DemoWorkspace is the generated workspace every signed-in user can read.
const DemoWorkspace = "demo"

// PlanFunc tells the plan a workspace is on (billing answers it; cli wires it in).
type PlanFunc func(ctx context.Context, workspace string) (plan.Plan, error)

// Service answers the trends API.
type Service struct {
	cfg    *config.Config
	store  *store.Store
	wh     *warehouse.Warehouse
	auth   *auth.Service
	jobs   *Jobs
	alerts *alerts.Notifier // nil: no alert digests (and no unsubscribe page)
	plans  PlanFunc
	orgs   *organization.Plugin // organizations as shared workspaces; their access check
	now    func() time.Time
	// Demo is the demo workspace's first generation; the server's start fills it in.
	Demo *DemoProgress
}

// New builds the service and starts its import worker.
func New(cfg *config.Config, st *store.Store, wh *warehouse.Warehouse, authSvc *auth.Service) *Service {
	s := &Service{cfg: cfg, store: st, wh: wh, auth: authSvc, plans: func(context.Context, string) (plan.Plan, error) { return plan.Everything, nil },
		now: func() time.Time { return time.Now().UTC() }, Demo: &DemoProgress{}}
	s.jobs = NewJobs(JobsConfig{Warehouse: wh, Store: st, DataDir: cfg.DataDir, PerUser: cfg.ImportQueuePerUser})
	s.jobs.newDataset = s.allowDataset
	// Jobs a stopped or killed server left are resumed or failed before any new one is queued.
	if err := s.jobs.Recover(context.Background(), s.uploadsDir()); err != nil {
		slog.Error("import jobs: recovering those left unfinished", "error", err)
	}
	s.jobs.Start()
	return s
}

// Jobs is the import job runner, which `sellertrends import` hands its files to (the socket).
func (s *Service) Jobs() *Jobs { return s.jobs }

// uploadsDir holds the uploads' temporary files until their jobs end.
func (s *Service) uploadsDir() string { return filepath.Join(s.jobs.dataDir, "uploads") }

// PauseAt returns a warehouse step hook (warehouse.OnStep) that stops the import at the named
// step for good (DEBUG_IMPORT_PAUSE_AT), after saying so on stderr, so a test can kill the
// process at that exact point.
func PauseAt(step string) func(string) {
	return func(at string) {
		if at != step {
			return
		}
		fmt.Fprintf(os.Stderr, "DEBUG_IMPORT_PAUSE_AT: import paused at step %s\n", at)
		select {}
	}
}

// allowDataset checks one more dataset against the workspace's plan.
func (s *Service) allowDataset(ctx context.Context, workspace string, have int) error {
	if workspace == DemoWorkspace {
		return nil
	}
	p, err := s.plans(ctx, workspace)
	if err != nil {
		return err
	}
	return p.Allow(plan.Datasets, have, 1)
}

// SetPlans makes the service enforce each workspace's plan (without it, nothing is limited).
func (s *Service) SetPlans(f PlanFunc) { s.plans = f }

// UseOrganizations makes organizations workspaces of their members, each member's access
// decided by the organization plugin's permission code. Call it before serving.
func (s *Service) UseOrganizations(p *organization.Plugin) { s.orgs = p }

// UseAlerts sends alert digests through n after every import and serves the alert settings
// and unsubscribe routes with it. Call it before the first upload.
func (s *Service) UseAlerts(n *alerts.Notifier) {
	s.alerts = n
	s.jobs.afterImport = n.AfterImport
}

// Close stops the import worker; the running import is cancelled (jobs.go: run).
func (s *Service) Close() error { s.jobs.Close(); return nil }

// Handler returns the API handler; every route needs a session.
func (s *Service) Handler() http.Handler {
	mux := http.NewServeMux()
	for _, r := range s.routes() {
		mux.Handle(r.Method+" "+r.Path, s.handler(r))
	}
	mux.HandleFunc("GET /api/openapi.json", s.openAPI)
	// The unsubscribe link of the alert digests is a page, not an API route: outside the table
	// (and the OpenAPI document), without a session (its link is signed).
	mux.HandleFunc("GET "+alerts.UnsubscribePath, s.unsubscribe)
	mux.HandleFunc("POST "+alerts.UnsubscribePath, s.unsubscribe)
	mux.HandleFunc("/api/", notFound)
	return s.sessionExceptOpenAPI(mux)
}

// sessionExceptOpenAPI asks for a session on every real route; the OpenAPI document and the
// unsubscribe page (its link is signed) are public, and unknown paths answer 404 whether or
// not the caller is signed in.
func (s *Service) sessionExceptOpenAPI(mux *http.ServeMux) http.Handler {
	protected, stored := s.auth.RequireSession(mux), s.auth.RequireStoredSession(mux)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, pattern := mux.Handler(r)
		switch {
		case r.URL.Path == "/api/openapi.json" || r.URL.Path == alerts.UnsubscribePath || pattern == "/api/":
			mux.ServeHTTP(w, r)
		case sensitiveReads[pattern]:
			stored.ServeHTTP(w, r)
		default:
			protected.ServeHTTP(w, r)
		}
	})
}

// sensitiveReads are the reads that never trust the 60 s session-data cookie alone (writes
// never do): the export of a whole dataset and the account's alert settings with its email.
var sensitiveReads = map[string]bool{
	"GET /api/trends/{ws}/datasets/{ds}/terms.csv": true,
	"GET /api/alerts/settings":                     true,
}
