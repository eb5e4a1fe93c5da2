package trends

import (
	"context"
	"errors"
	"net/http"
	"strconv"

	"github.com/sellertrends/sellertrends/internal/auth"
	"github.com/sellertrends/sellertrends/internal/auth/organization"
	"github.com/sellertrends/sellertrends/internal/httpx"
	"github.com/sellertrends/sellertrends/internal/plan"
	"github.com/sellertrends/sellertrends/internal/store"
	"github.com/sellertrends/sellertrends/internal/trends/warehouse"
)

var (
	errNoWorkspace = httpx.NewError(http.StatusNotFound, "NOT_FOUND", "Workspace not found")
	// errAccountGone: the session-data cookie outlived its account (deleted in the last 60 s).
	errAccountGone = httpx.NewError(http.StatusUnauthorized, "UNAUTHORIZED", "Unauthorized")
	errNoDataset   = httpx.NewError(http.StatusNotFound, "NOT_FOUND", "Dataset not found")
	errReadOnly    = httpx.NewError(http.StatusForbidden, "FORBIDDEN", "The demo workspace is read-only: import your own reports into your workspace")
)

func notFound(w http.ResponseWriter, r *http.Request) { httpx.NotFound(w, r) }

// need is what a route does in a workspace, as a permission of the organization plugin's
// resources (dataset, watchlist): the same code decides for organizations' custom roles.
type need struct {
	resource, action string
	write            bool // refused on the read-only demo
}

var (
	readData   = need{"dataset", "read", false}
	importData = need{"dataset", "import", true}
	deleteData = need{"dataset", "delete", true}
	readWatch  = need{"watchlist", "read", false}
	writeWatch = need{"watchlist", "write", true}
)

// errDenied is a member whose role does not grant the action (a member deleting a period).
func errDenied(n need) error {
	what := map[need]string{
		readData: "read its datasets", importData: "import reports", deleteData: "delete imported data",
		readWatch: "read its watchlist", writeWatch: "change its watchlist",
	}[n]
	return httpx.NewError(http.StatusForbidden, "FORBIDDEN", "Your role in this workspace does not allow you to "+what)
}

// caller is the signed-in user and the workspace a request names, once access is checked.
type caller struct {
	userID    string
	workspace string
	readOnly  bool
}

// access checks that the caller may do n in the workspace in the path: their personal
// workspace, an organization they are a member of (as their role allows), or the demo (read
// only). Someone else's workspace answers 404, not 403, so workspace ids reveal nothing.
func (s *Service) access(r *http.Request, n need) (*caller, error) {
	cur, ok := auth.SessionFrom(r.Context())
	if !ok {
		return nil, httpx.NewError(http.StatusUnauthorized, "UNAUTHORIZED", "Unauthorized")
	}
	ws := r.PathValue("ws")
	c := &caller{userID: cur.User.ID, workspace: ws}
	if ws == DemoWorkspace {
		c.readOnly = true
		if n.write {
			return nil, errReadOnly
		}
		return c, nil
	}
	a, err := s.standing(r, ws, cur, n)
	if err != nil {
		return nil, err
	}
	if !a.Member {
		return nil, errNoWorkspace
	}
	if !a.Allowed {
		return nil, errDenied(n)
	}
	if a.Kind == "organization" && n.write {
		// The organization's workspace row (its watchlist items belong to it) is made on its
		// first write: organizations adopted from Better Auth have none, and reads never write.
		if err := s.ensureOrgWorkspace(r, ws); err != nil {
			return nil, err
		}
	}
	if cur.Bearer { // a script or the command line: the plan must include API access
		if err := s.allow(r, ws, plan.API); err != nil {
			return nil, err
		}
	}
	return c, nil
}

// standing asks the organization plugin's permission code; without it (a service built
// without organizations) only the personal workspace's own row counts, whose owner may do all.
func (s *Service) standing(r *http.Request, ws string, cur *auth.Current, n need) (organization.Access, error) {
	ctx := r.Context()
	ask := func() (organization.Access, error) {
		if s.orgs != nil {
			return s.orgs.WorkspaceAccess(ctx, ws, cur.User.ID, organization.Permissions{n.resource: {n.action}})
		}
		role, err := s.store.Membership(ctx, ws, cur.User.ID)
		if errors.Is(err, store.ErrNotFound) {
			return organization.Access{}, nil
		}
		return organization.Access{Member: err == nil, Kind: "personal", Role: role, Allowed: role == "owner"}, err
	}
	a, err := ask()
	if err == nil && !a.Member && ws == store.PersonalWorkspaceID(cur.User.ID) {
		// Made at sign-up; users adopted from a Better Auth database get theirs on first use,
		// the only time a read writes (a write transaction takes SQLite's one write lock).
		if err = s.ensurePersonal(ctx, cur); err == nil {
			a, err = ask()
		}
	}
	return a, err
}

func (s *Service) ensureOrgWorkspace(r *http.Request, ws string) error {
	name, err := s.orgs.Name(r.Context(), ws)
	if err != nil {
		return err
	}
	return s.store.EnsureWorkspace(r.Context(), ws, name, "organization", s.now())
}

// dataset resolves {ds} within the caller's workspace.
func (s *Service) dataset(r *http.Request, c *caller) (*warehouse.Dataset, error) {
	id, err := strconv.Atoi(r.PathValue("ds"))
	if err != nil || id < 1 {
		return nil, httpx.BadRequest("dataset: must be a dataset id (a positive integer)")
	}
	d, err := s.wh.DatasetByID(r.Context(), c.workspace, id)
	if errors.Is(err, warehouse.ErrNotFound) {
		return nil, errNoDataset
	}
	return d, err
}

// ensurePersonal creates the caller's personal workspace if missing; 401 when the account is
// gone (a read answered from the session-data cookie of an account deleted since).
func (s *Service) ensurePersonal(ctx context.Context, cur *auth.Current) error {
	err := s.store.EnsurePersonalWorkspace(ctx, cur.User.ID, cur.User.Name, s.now())
	if errors.Is(err, store.ErrNotFound) {
		return errAccountGone
	}
	return err
}
