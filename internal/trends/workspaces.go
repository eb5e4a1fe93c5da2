package trends

import (
	"net/http"
	"slices"

	"github.com/sellertrends/sellertrends/internal/auth"
	"github.com/sellertrends/sellertrends/internal/httpx"
	"github.com/sellertrends/sellertrends/internal/plan"
	"github.com/sellertrends/sellertrends/internal/store"
	"github.com/sellertrends/sellertrends/internal/trends/warehouse"
)

type workspaceJSON struct {
	store.Workspace
	Demo     bool `json:"demo"`
	ReadOnly bool `json:"readOnly"`
}

// listWorkspaces answers the caller's workspaces (creating the personal one on first use, the
// only time it writes) and the demo.
func (s *Service) listWorkspaces(w http.ResponseWriter, r *http.Request) {
	cur, _ := auth.SessionFrom(r.Context())
	mine, err := s.store.WorkspacesOf(r.Context(), cur.User.ID)
	personal := store.PersonalWorkspaceID(cur.User.ID)
	if err == nil && !slices.ContainsFunc(mine, func(ws store.Workspace) bool { return ws.ID == personal }) {
		if err = s.ensurePersonal(r.Context(), cur); err == nil {
			mine, err = s.store.WorkspacesOf(r.Context(), cur.User.ID)
		}
	}
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	out := make([]workspaceJSON, 0, len(mine)+1)
	for _, ws := range mine {
		out = append(out, workspaceJSON{Workspace: ws})
	}
	out = append(out, workspaceJSON{Workspace: store.Workspace{ID: DemoWorkspace, Name: "Demo (generated data)", Kind: "demo", Role: "viewer"}, Demo: true, ReadOnly: true})
	httpx.WriteJSON(w, http.StatusOK, out)
}

func (s *Service) listDatasets(w http.ResponseWriter, r *http.Request) {
	c, err := s.access(r, false)
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	if c.workspace == DemoWorkspace {
		if b := s.Demo.state(); b != nil {
			// Half-generated weeks have no measures yet: show none until the demo is complete.
			httpx.WriteJSON(w, http.StatusOK, map[string]any{"workspace": c.workspace, "demo": true, "datasets": []warehouse.Dataset{}, "building": b})
			return
		}
	}
	ds, err := s.wh.Datasets(r.Context(), c.workspace)
	if err == nil && c.workspace != DemoWorkspace {
		err = s.capPeriods(r, c.workspace, ds)
	}
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	httpx.WriteJSON(w, http.StatusOK, datasetsAnswer{Workspace: c.workspace, Demo: c.workspace == DemoWorkspace, Datasets: ds})
}

// capPeriods counts no more periods per dataset than the workspace's plan shows.
func (s *Service) capPeriods(r *http.Request, workspace string, ds []warehouse.Dataset) error {
	p, err := s.plans(r.Context(), workspace)
	if err != nil || p.VisiblePeriods() == plan.Unlimited {
		return err
	}
	for i := range ds {
		ds[i].Periods = min(ds[i].Periods, p.VisiblePeriods())
	}
	return nil
}
