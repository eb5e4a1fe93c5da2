package store

import (
	"context"
	"fmt"
)

// Deleting an account removes what it owns in these tables; the trends service calls these
// from the account-deletion hook (trends.DeleteUserData), before the user row goes.

// OwnedWorkspaces lists the workspaces that go with the user: their personal workspace and any
// other whose only member they are.
func (s *Store) OwnedWorkspaces(ctx context.Context, userID string) ([]string, error) {
	rows, err := s.query(ctx, `select m."workspaceId" from "workspaceMember" m where m."userId" = ?
		and not exists (select 1 from "workspaceMember" o where o."workspaceId" = m."workspaceId" and o."userId" <> ?)`, userID, userID)
	if err != nil {
		return nil, fmt.Errorf("workspace: owned: %w", err)
	}
	defer rows.Close()
	personal := PersonalWorkspaceID(userID)
	out := []string{personal}
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		if id != personal {
			out = append(out, id)
		}
	}
	return out, rows.Err()
}

// DeleteWorkspace removes a workspace with its watchlist and memberships.
func (s *Store) DeleteWorkspace(ctx context.Context, id string) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	// Children first: SQLite databases opened without foreign keys enforced do not cascade.
	for _, q := range []string{
		`delete from "watchlistItem" where "workspaceId" in (select "id" from "workspace" where "parentId" = ?)`, // its teams' lists
		`delete from "workspace" where "parentId" = ?`,
		`delete from "watchlistItem" where "workspaceId" = ?`, `delete from "workspaceMember" where "workspaceId" = ?`, `delete from "workspace" where "id" = ?`,
	} {
		if _, err := tx.ExecContext(ctx, s.dialect.rebind(q), id); err != nil {
			return fmt.Errorf("workspace: delete: %w", err)
		}
	}
	return tx.Commit()
}

// DeleteUserRows removes the user's own rows in the product's tables: memberships of
// workspaces shared with others, alert settings and the record of digests sent.
func (s *Store) DeleteUserRows(ctx context.Context, userID string) error {
	for _, q := range []string{`delete from "workspaceMember" where "userId" = ?`, `delete from "alertPreference" where "userId" = ?`, `delete from "alertDigest" where "userId" = ?`} {
		if _, err := s.exec(ctx, q, userID); err != nil {
			return fmt.Errorf("user data: delete: %w", err)
		}
	}
	return nil
}
