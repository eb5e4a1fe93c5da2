package trends

import (
	"net/http"

	"github.com/sellertrends/sellertrends/internal/auth"
	"github.com/sellertrends/sellertrends/internal/auth/organization"
	"github.com/sellertrends/sellertrends/internal/httpx"
	"github.com/sellertrends/sellertrends/internal/plan"
	"github.com/sellertrends/sellertrends/internal/store"
)

var (
	errNoTeam     = httpx.NewError(http.StatusNotFound, "NOT_FOUND", "Team not found")
	errNotInTeam  = httpx.NewError(http.StatusForbidden, "FORBIDDEN", "Only the team's members and the organization's owners and admins may use the team's watchlist")
	errTeamNoOrgs = httpx.BadRequest("team: only an organization's workspace has teams")
)

// teamWatchAccess resolves ?team= on the watchlist routes: the team's own list inside an
// organization's workspace. The team's members and those who manage teams (owners, admins)
// read and change it, whatever their role grants on the organization's own list; other members
// get 403, non-members 404. Its numbers come from the organization's datasets (c.workspace).
func (s *Service) teamWatchAccess(r *http.Request, write bool) (string, *caller, error) {
	cur, ok := auth.SessionFrom(r.Context())
	if !ok {
		return "", nil, httpx.NewError(http.StatusUnauthorized, "UNAUTHORIZED", "Unauthorized")
	}
	ws, team := r.PathValue("ws"), r.URL.Query().Get("team")
	if team == "" || len(team) > 200 {
		return "", nil, httpx.BadRequest("team: must be a team id")
	}
	if ws == DemoWorkspace || s.orgs == nil {
		return "", nil, errTeamNoOrgs
	}
	a, err := s.orgs.TeamWatchlistAccess(r.Context(), ws, team, cur.User.ID)
	switch {
	case err != nil:
		return "", nil, err
	case !a.Member:
		return "", nil, errNoWorkspace
	case a.TeamName == "":
		return "", nil, errNoTeam
	case !a.Allowed:
		return "", nil, errNotInTeam
	}
	c := &caller{userID: cur.User.ID, workspace: ws}
	if cur.Bearer {
		if err := s.allow(r, ws, plan.API); err != nil {
			return "", nil, err
		}
	}
	if write {
		if err := s.ensureOrgWorkspace(r, ws); err != nil {
			return "", nil, err
		}
		if err := s.store.EnsureTeamList(r.Context(), team, a.TeamName, ws, s.now()); err != nil {
			return "", nil, err
		}
	}
	return store.TeamListID(team), c, nil
}

// planWorkspace is the workspace whose plan limits a list: a team list counts under its
// organization's plan (the demo's list is the caller's personal one, its own plan).
func planWorkspace(list string, c *caller) string {
	if store.IsTeamList(list) {
		return c.workspace
	}
	return list
}

// teamMembersAnswer lists a team's members.
type teamMembersAnswer struct {
	Members []organization.TeamPerson `json:"members"`
}

// teamMembers answers who is in a team, to those who may use its watchlist. Membership of the
// workspace is checked first, so someone else's answers 404 whatever the query holds.
func (s *Service) teamMembers(w http.ResponseWriter, r *http.Request) {
	cur, _ := auth.SessionFrom(r.Context())
	if ws := r.PathValue("ws"); ws != DemoWorkspace {
		a, err := s.standing(r, ws, cur, readWatch)
		if err == nil && !a.Member {
			err = errNoWorkspace
		}
		if err != nil {
			httpx.WriteError(w, r, err)
			return
		}
	}
	if _, _, err := s.teamWatchAccess(r, false); err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	members, err := s.orgs.TeamMembers(r.Context(), r.PathValue("ws"), r.URL.Query().Get("team"))
	if err != nil {
		httpx.WriteError(w, r, err)
		return
	}
	httpx.WriteJSON(w, http.StatusOK, teamMembersAnswer{Members: members})
}
