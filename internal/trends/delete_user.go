package trends

import (
	"context"
	"fmt"
)

// DeleteUserData removes everything an account owns on the trends side, as the deletion mail
// promises: its workspaces (the personal one and any it is the only member of) with their
// import jobs and upload files, datasets in the warehouse and watchlists; its memberships
// elsewhere; its alert settings and digest records. The auth core runs it before the user row
// is deleted (auth.Service.OnUserDeleted, wired in internal/app); an error stops the deletion.
func (s *Service) DeleteUserData(ctx context.Context, userID string) error {
	owned, err := s.store.OwnedWorkspaces(ctx, userID)
	if err != nil {
		return err
	}
	for _, ws := range owned {
		if err := s.DeleteWorkspaceData(ctx, ws); err != nil {
			return fmt.Errorf("delete user data: %w", err)
		}
	}
	return s.store.DeleteUserRows(ctx, userID)
}

// DeleteWorkspaceData removes a workspace's import jobs and upload files, its datasets in the
// warehouse and its watchlist: an account's own workspaces when it is deleted, an
// organization's when the organization is (organization.Plugin.OnDeleted, wired in internal/app).
func (s *Service) DeleteWorkspaceData(ctx context.Context, ws string) error {
	if err := s.jobs.dropWorkspace(ctx, ws); err != nil {
		return fmt.Errorf("imports of %s: %w", ws, err)
	}
	if err := s.wh.DeleteWorkspace(ctx, ws); err != nil {
		return fmt.Errorf("datasets of %s: %w", ws, err)
	}
	return s.store.DeleteWorkspace(ctx, ws)
}
