package organization

import (
	"context"
	"errors"
	"time"

	"github.com/sellertrends/sellertrends/internal/plan"
	"github.com/sellertrends/sellertrends/internal/store"
)

// An organization is a trends workspace: its id is the workspace id, its members share its
// datasets, watchlists and imports as their roles allow. The trends API and billing ask
// WorkspaceAccess, which runs the same permission code as the plugin's own endpoints, so a
// custom role granting dataset:import lets its holders import and nothing else decides it.

// Access is a user's standing in a workspace.
type Access struct {
	Member  bool   // false: the workspace is not theirs (or does not exist)
	Kind    string // personal | organization
	Role    string // the member's role(s), comma-separated as stored
	Allowed bool   // the role grants what was asked
}

// Workspace is an organization as one of its members sees it in the workspace list.
type Workspace struct {
	ID        string    `json:"id"`
	Name      string    `json:"name"`
	Slug      string    `json:"slug"`
	Logo      *string   `json:"logo"`
	Role      string    `json:"role"`
	CreatedAt time.Time `json:"createdAt"`
}

// WorkspaceAccess reports whether userID may do need in workspaceID. A personal workspace's
// members (workspaceMember) hold the built-in role stored there; an organization's members hold
// their member roles, custom roles included. It only reads.
func (p *Plugin) WorkspaceAccess(ctx context.Context, workspaceID, userID string, need Permissions) (Access, error) {
	role, err := p.st.Membership(ctx, workspaceID, userID)
	if err == nil {
		return Access{Member: true, Kind: "personal", Role: role, Allowed: builtinRoles[role].authorize(need, false)}, nil
	} else if !errors.Is(err, store.ErrNotFound) {
		return Access{}, err
	}
	m, err := p.membership(ctx, workspaceID, userID)
	if err != nil || m == nil {
		return Access{}, err
	}
	a := Access{Member: true, Kind: "organization", Role: m.Role}
	// Built-in roles answer without reading organizationRole; custom roles (or a built-in one
	// extended by a custom row) need the organization's roles.
	for _, r := range parseRoleList(m.Role) {
		if builtinRoles[r].authorize(need, false) {
			a.Allowed = true
			return a, nil
		}
	}
	a.Allowed, err = p.allowed(ctx, workspaceID, m.Role, need)
	return a, err
}

// Workspaces lists the organizations userID belongs to, oldest membership first.
func (p *Plugin) Workspaces(ctx context.Context, userID string) ([]Workspace, error) {
	rows, err := p.db().QueryContext(ctx, p.q(`select o."id", o."name", o."slug", o."logo", m."role", o."createdAt" from "member" m
		join "organization" o on o."id" = m."organizationId" where m."userId" = ? order by m."createdAt", o."id" limit 1000`), userID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []Workspace{}
	for rows.Next() {
		var w Workspace
		var created dbTime
		if err := rows.Scan(&w.ID, &w.Name, &w.Slug, &w.Logo, &w.Role, &created); err != nil {
			return nil, err
		}
		w.CreatedAt = created.Time
		out = append(out, w)
	}
	return out, rows.Err()
}

// Name is an organization's name ("" when there is none).
func (p *Plugin) Name(ctx context.Context, orgID string) (string, error) {
	o, err := p.orgBy(ctx, orgID, false)
	if err != nil || o == nil {
		return "", err
	}
	return o.Name, nil
}

// PlanFunc answers the plan a workspace is on (billing fills it in; nil: unlimited).
type PlanFunc func(ctx context.Context, workspaceID string) (plan.Plan, error)

// SetPlans lets billing's plans limit seats: members plus pending invitations.
func (p *Plugin) SetPlans(f PlanFunc) { p.plans = f }

// OnDeleted runs after an organization is deleted, so the workspace's data goes with it.
func (p *Plugin) OnDeleted(h func(ctx context.Context, orgID string) error) { p.onDeleted = h }

// checkSeats refuses adding one more seat (a member or a pending invitation) beyond the plan's
// seat count; without plans (billing not configured) there is no limit. Pending, unexpired
// invitations hold a seat until accepted, rejected or cancelled.
func (p *Plugin) checkSeats(ctx context.Context, orgID string, adding int) error {
	if p.plans == nil {
		return nil
	}
	pl, err := p.plans(ctx, orgID)
	if err != nil || pl.Limits.Seats == plan.Unlimited {
		return err
	}
	used, err := p.SeatsUsed(ctx, orgID)
	if err != nil {
		return err
	}
	if err := pl.Allow(plan.Seats, used, adding); err != nil {
		var le *plan.LimitError
		if errors.As(err, &le) {
			return le.HTTP()
		}
		return err
	}
	return nil
}

// productResources are the workspace's own resources, the ones the screens ask about.
var productResources = []string{"dataset", "watchlist", "billing"}

// Grants lists what roles grant on the workspace's own resources (dataset, watchlist, billing),
// so a screen shows only the actions its user may take. kind is Access.Kind.
func (p *Plugin) Grants(ctx context.Context, workspaceID, kind, roles string) (Permissions, error) {
	out := Permissions{}
	var custom map[string]Permissions
	if kind == "organization" {
		var err error
		if custom, err = p.customRoles(ctx, workspaceID); err != nil {
			return nil, err
		}
	}
	for _, res := range productResources {
		out[res] = []string{}
		for _, action := range statements[res] {
			for _, role := range parseRoleList(roles) {
				if merged(builtinRoles[role], custom[role]).authorize(Permissions{res: {action}}, false) {
					out[res] = append(out[res], action)
					break
				}
			}
		}
	}
	return out, nil
}

// SeatsUsed counts an organization's members plus its pending, unexpired invitations (0 for a
// workspace that is no organization).
func (p *Plugin) SeatsUsed(ctx context.Context, orgID string) (int, error) {
	var used int
	err := p.db().QueryRowContext(ctx, p.q(`select (select count(*) from "member" where "organizationId" = ?) +
		(select count(*) from "invitation" where "organizationId" = ? and "status" = 'pending' and "expiresAt" > ?)`),
		orgID, orgID, p.st.Time(p.now())).Scan(&used)
	return used, err
}
