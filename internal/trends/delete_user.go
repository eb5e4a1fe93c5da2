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
		if err := s.jobs.dropWorkspace(ctx, ws); err != nil {
			return fmt.Errorf("delete user data: imports of %s: %w", ws, err)
		}
		if err := s.wh.DeleteWorkspace(ctx, ws); err != nil {
			return fmt.Errorf("delete user data: datasets of %s: %w", ws, err)
		}
		if err := s.store.DeleteWorkspace(ctx, ws); err != nil {
			return err
		}
	}
	return s.store.DeleteUserRows(ctx, userID)
}
