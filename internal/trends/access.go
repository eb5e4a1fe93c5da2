package trends

import (
	"context"
	"errors"
	"net/http"
	"strconv"

	"github.com/sellertrends/sellertrends/internal/auth"
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

// caller is the signed-in user and the workspace a request names, once access is checked.
type caller struct {
	userID    string
	workspace string
	readOnly  bool
}

// access checks that the caller may use the workspace in the path. Someone else's workspace
// answers 404, not 403, so workspace ids reveal nothing.
func (s *Service) access(r *http.Request, write bool) (*caller, error) {
	cur, ok := auth.SessionFrom(r.Context())
	if !ok {
		return nil, httpx.NewError(http.StatusUnauthorized, "UNAUTHORIZED", "Unauthorized")
	}
	ws := r.PathValue("ws")
	c := &caller{userID: cur.User.ID, workspace: ws}
	if ws == DemoWorkspace {
		c.readOnly = true
		if write {
			return nil, errReadOnly
		}
		return c, nil
	}
	_, err := s.store.Membership(r.Context(), ws, cur.User.ID)
	if errors.Is(err, store.ErrNotFound) && ws == store.PersonalWorkspaceID(cur.User.ID) {
		// Made at sign-up; users adopted from a Better Auth database get theirs on first use,
		// the only time a read writes (a write transaction takes SQLite's one write lock).
		if err = s.ensurePersonal(r.Context(), cur); err == nil {
			_, err = s.store.Membership(r.Context(), ws, cur.User.ID)
		}
	}
	if errors.Is(err, store.ErrNotFound) {
		return nil, errNoWorkspace
	} else if err != nil {
		return nil, err
	}
	if cur.Bearer { // a script or the command line: the plan must include API access
		if err := s.allow(r, ws, plan.API); err != nil {
			return nil, err
		}
	}
	return c, nil
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
