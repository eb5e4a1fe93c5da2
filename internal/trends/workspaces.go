package trends

import (
	"net/http"
	"slices"

	"github.com/sellertrends/sellertrends/internal/auth"
	"github.com/sellertrends/sellertrends/internal/auth/organization"
	"github.com/sellertrends/sellertrends/internal/httpx"
	"github.com/sellertrends/sellertrends/internal/plan"
	"github.com/sellertrends/sellertrends/internal/store"
	"github.com/sellertrends/sellertrends/internal/trends/warehouse"
)

type workspaceJSON struct {
	store.Workspace
	Slug     string  `json:"slug,omitempty"` // an organization's slug
	Logo     *string `json:"logo,omitempty"` // an organization's logo URL
	Demo     bool    `json:"demo"`
	ReadOnly bool    `json:"readOnly"`
	// Permissions are what the caller's role grants on the workspace's datasets, watchlist and
	// billing (the organization plugin's resources), so screens offer only what is allowed.
	Permissions organization.Permissions `json:"permissions"`
}

// listWorkspaces answers the caller's workspaces (creating the personal one on first use, the
// only time it writes): personal first, then their organizations, then the demo.
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
		out = append(out, workspaceJSON{Workspace: ws, Permissions: organization.Permissions{"dataset": {"read", "import", "delete"}, "watchlist": {"read", "write"}, "billing": {"read", "manage"}}})
	}
	if s.orgs != nil {
		orgs, err := s.orgs.Workspaces(r.Context(), cur.User.ID)
		if err != nil {
			httpx.WriteError(w, r, err)
			return
		}
		for _, o := range orgs {
			grants, err := s.orgs.Grants(r.Context(), o.ID, "organization", o.Role)
			if err != nil {
				httpx.WriteError(w, r, err)
				return
			}
			out = append(out, workspaceJSON{Workspace: store.Workspace{ID: o.ID, Name: o.Name, Kind: "organization", Role: o.Role, CreatedAt: o.CreatedAt},
				Slug: o.Slug, Logo: o.Logo, Permissions: grants})
		}
	}
	out = append(out, workspaceJSON{Workspace: store.Workspace{ID: DemoWorkspace, Name: "Demo (generated data)", Kind: "demo", Role: "viewer"}, Demo: true, ReadOnly: true,
		Permissions: organization.Permissions{"dataset": {"read"}, "watchlist": {"read", "write"}, "billing": {}}})
	httpx.WriteJSON(w, http.StatusOK, out)
}

func (s *Service) listDatasets(w http.ResponseWriter, r *http.Request) {
	c, err := s.access(r, readData)
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
