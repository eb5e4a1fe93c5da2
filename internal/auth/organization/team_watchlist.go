package organization

import "context"

// TeamAccess is a user's standing towards a team's own watchlist.
type TeamAccess struct {
	Member   bool   // a member of the organization (false: answer as if it did not exist)
	TeamName string // "" when the organization has no such team
	Allowed  bool   // in the team, or an owner or admin (team:update) of the organization
}

// TeamWatchlistAccess reports whether userID may read and change the watchlist of team teamID
// of organization orgID: the team's members may, and so may whoever may manage the teams
// (owners, admins, custom roles granting team:update); other members may not.
func (p *Plugin) TeamWatchlistAccess(ctx context.Context, orgID, teamID, userID string) (TeamAccess, error) {
	m, err := p.membership(ctx, orgID, userID)
	if err != nil || m == nil {
		return TeamAccess{}, err
	}
	a := TeamAccess{Member: true}
	t, err := p.team(ctx, orgID, teamID)
	if err != nil || t == nil {
		return a, err
	}
	a.TeamName = t.Name
	if a.Allowed, err = p.inTeam(ctx, teamID, userID); err != nil || a.Allowed {
		return a, err
	}
	manage, err := p.WorkspaceAccess(ctx, orgID, userID, Permissions{"team": {"update"}})
	a.Allowed = manage.Allowed
	return a, err
}
