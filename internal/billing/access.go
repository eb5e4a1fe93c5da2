package billing

import (
	"context"
	"errors"

	"github.com/sellertrends/sellertrends/internal/auth/organization"
	"github.com/sellertrends/sellertrends/internal/store"
)

// UseOrganizations lets members of an organization see and (with billing:manage) buy its plan,
// as the organization plugin's permission code decides.
func (b *Billing) UseOrganizations(p *organization.Plugin) { b.orgs = p }

// may reports whether userID is a member of workspace ws and whether their role grants
// billing:<action> (read: see the plan; manage: buy or change it).
func (b *Billing) may(ctx context.Context, ws, userID, action string) (member, allowed bool, err error) {
	if b.orgs != nil {
		a, err := b.orgs.WorkspaceAccess(ctx, ws, userID, organization.Permissions{"billing": {action}})
		return a.Member, a.Allowed, err
	}
	role, err := b.st.Membership(ctx, ws, userID)
	if errors.Is(err, store.ErrNotFound) {
		return false, false, nil
	}
	return err == nil, role == "owner" || (action == "read" && role != ""), err
}
