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

// TeamPerson is a member of a team as the workspace settings list them.
type TeamPerson struct {
	UserID string `json:"userId"`
	Name   string `json:"name"`
	Email  string `json:"email"`
}

// TeamMembers lists the members of team teamID of organization orgID who are still members of
// the organization (those its watchlist's digests go to), by email. Better Auth's
// list-team-members answers only the team's own members; the settings page needs the list for
// the owners and admins who manage the team too (the caller checks TeamWatchlistAccess).
func (p *Plugin) TeamMembers(ctx context.Context, orgID, teamID string) ([]TeamPerson, error) {
	rows, err := p.db().QueryContext(ctx, p.q(`select u."id", u."name", u."email" from "teamMember" tm
		join "team" t on t."id" = tm."teamId" join "member" om on om."organizationId" = t."organizationId" and om."userId" = tm."userId"
		join "user" u on u."id" = tm."userId" where tm."teamId" = ? and t."organizationId" = ? order by u."email" limit 1000`), teamID, orgID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []TeamPerson{}
	for rows.Next() {
		var m TeamPerson
		if err := rows.Scan(&m.UserID, &m.Name, &m.Email); err != nil {
			return nil, err
		}
		out = append(out, m)
	}
	return out, rows.Err()
}
