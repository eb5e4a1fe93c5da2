package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"
)

// A team's watchlist is a workspace row of kind "team" under its organization's workspace
// (parentId): its items are watchlist items like any list's, its numbers and digests come from
// the parent's datasets, and its members are the team's (the organization plugin adds them).

// TeamListID is the id of the list of a team.
func TeamListID(teamID string) string { return "team-" + teamID }

// IsTeamList reports whether a workspace id names a team's list.
func IsTeamList(id string) bool { return strings.HasPrefix(id, "team-") }

// EnsureTeamList creates a team's list under its organization's workspace (which must exist)
// if it has none yet. Call it only before a write.
func (s *Store) EnsureTeamList(ctx context.Context, teamID, name, parentID string, now time.Time) error {
	_, err := s.exec(ctx, `insert into "workspace" ("id", "name", "kind", "parentId", "createdAt") values (?, ?, 'team', ?, ?) on conflict ("id") do nothing`,
		TeamListID(teamID), name, parentID, s.dialect.timeArg(now))
	if err != nil {
		return fmt.Errorf("workspace: create team list: %w", err)
	}
	return nil
}

// TeamLists lists the ids of the team lists under a workspace that watch at least one item.
func (s *Store) TeamLists(ctx context.Context, parentID string) ([]string, error) {
	rows, err := s.query(ctx, `select w."id" from "workspace" w where w."parentId" = ? and w."kind" = 'team'
		and exists (select 1 from "watchlistItem" i where i."workspaceId" = w."id") order by w."id"`, parentID)
	if err != nil {
		return nil, fmt.Errorf("workspace: team lists: %w", err)
	}
	defer rows.Close()
	out := []string{}
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		out = append(out, id)
	}
	return out, rows.Err()
}

// DataWorkspace is the workspace whose datasets a list's numbers come from: a team list's
// parent, else the workspace itself.
func (s *Store) DataWorkspace(ctx context.Context, id string) (string, error) {
	if !IsTeamList(id) {
		return id, nil
	}
	var parent sql.NullString
	err := s.queryRow(ctx, `select "parentId" from "workspace" where "id" = ?`, id).Scan(&parent)
	if errors.Is(err, sql.ErrNoRows) || (err == nil && !parent.Valid) {
		return "", ErrNotFound
	}
	return parent.String, err
}
