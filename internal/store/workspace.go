package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"time"
)

// Workspace owns datasets and watchlists; Role is the caller's role in it.
type Workspace struct {
	ID        string    `json:"id"`
	Name      string    `json:"name"`
	Kind      string    `json:"kind"` // personal | organization
	Role      string    `json:"role"` // owner | admin | member
	CreatedAt time.Time `json:"createdAt"`
}

// PersonalWorkspaceID is the id of a user's personal workspace.
func PersonalWorkspaceID(userID string) string { return "personal-" + userID }

// EnsurePersonalWorkspace creates the user's personal workspace if it does not exist yet
// (users adopted from a Better Auth database have none). ErrNotFound: the user is gone.
func (s *Store) EnsurePersonalWorkspace(ctx context.Context, userID, name string, now time.Time) error {
	id := PersonalWorkspaceID(userID)
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var exists int
	err = tx.QueryRowContext(ctx, s.dialect.rebind(`select count(*) from "workspace" where "id" = ?`), id).Scan(&exists)
	if err != nil || exists > 0 {
		return err
	}
	// A read answered from a session-data cookie of a deleted account must not bring its
	// workspace back (SQLite databases without enforced foreign keys would let it).
	var users int
	if err := tx.QueryRowContext(ctx, s.dialect.rebind(`select count(*) from "user" where "id" = ?`), userID).Scan(&users); err != nil {
		return err
	}
	if users == 0 {
		return ErrNotFound
	}
	if _, err := tx.ExecContext(ctx, s.dialect.rebind(`insert into "workspace" ("id", "name", "kind", "createdAt") values (?, ?, 'personal', ?)`), id, name, s.dialect.timeArg(now)); err != nil {
		return fmt.Errorf("workspace: create: %w", err)
	}
	if _, err := tx.ExecContext(ctx, s.dialect.rebind(`insert into "workspaceMember" ("workspaceId", "userId", "role", "createdAt") values (?, ?, 'owner', ?)`), id, userID, s.dialect.timeArg(now)); err != nil {
		return fmt.Errorf("workspace: add owner: %w", err)
	}
	return tx.Commit()
}

// WorkspacesOf lists the workspaces a user belongs to, with their role.
func (s *Store) WorkspacesOf(ctx context.Context, userID string) ([]Workspace, error) {
	rows, err := s.query(ctx, `select w."id", w."name", w."kind", m."role", w."createdAt" from "workspace" w
		join "workspaceMember" m on m."workspaceId" = w."id" where m."userId" = ? order by w."createdAt"`, userID)
	if err != nil {
		return nil, fmt.Errorf("workspace: list: %w", err)
	}
	defer rows.Close()
	out := []Workspace{}
	for rows.Next() {
		var w Workspace
		var created dbTime
		if err := rows.Scan(&w.ID, &w.Name, &w.Kind, &w.Role, &created); err != nil {
			return nil, err
		}
		w.CreatedAt = created.Time
		out = append(out, w)
	}
	return out, rows.Err()
}

// Membership returns the user's role in a workspace, or ErrNotFound when they are not a member.
func (s *Store) Membership(ctx context.Context, workspaceID, userID string) (string, error) {
	var role string
	err := s.queryRow(ctx, `select "role" from "workspaceMember" where "workspaceId" = ? and "userId" = ?`, workspaceID, userID).Scan(&role)
	if errors.Is(err, sql.ErrNoRows) {
		return "", ErrNotFound
	}
	return role, err
}

// MemberCount is the number of members of a workspace (a plan's seats).
func (s *Store) MemberCount(ctx context.Context, workspaceID string) (int, error) {
	var n int
	err := s.queryRow(ctx, `select count(*) from "workspaceMember" where "workspaceId" = ?`, workspaceID).Scan(&n)
	return n, err
}

// WorkspaceListing is a workspace with its owners' emails, for `sellertrends workspaces`.
type WorkspaceListing struct {
	Workspace
	Owners []string
}

// AllWorkspaces lists every workspace with its owners' emails, oldest first.
func (s *Store) AllWorkspaces(ctx context.Context) ([]WorkspaceListing, error) {
	rows, err := s.query(ctx, `select w."id", w."name", w."kind", w."createdAt", coalesce(u."email", '') from "workspace" w
		left join "workspaceMember" m on m."workspaceId" = w."id" and m."role" = 'owner'
		left join "user" u on u."id" = m."userId" order by w."createdAt", w."id", u."email"`)
	if err != nil {
		return nil, fmt.Errorf("workspace: list all: %w", err)
	}
	defer rows.Close()
	var out []WorkspaceListing
	for rows.Next() {
		var w Workspace
		var created dbTime
		var email string
		if err := rows.Scan(&w.ID, &w.Name, &w.Kind, &created, &email); err != nil {
			return nil, err
		}
		w.CreatedAt = created.Time
		if n := len(out); n > 0 && out[n-1].ID == w.ID {
			out[n-1].Owners = append(out[n-1].Owners, email)
			continue
		}
		l := WorkspaceListing{Workspace: w}
		if email != "" {
			l.Owners = []string{email}
		}
		out = append(out, l)
	}
	return out, rows.Err()
}

// EnsureWorkspace creates a workspace row for an organization's workspace if it has none yet,
// so its watchlist items have a workspace to belong to. Membership stays in the organization
// plugin's tables. Call it only before a write: reads must never take the write lock.
func (s *Store) EnsureWorkspace(ctx context.Context, id, name, kind string, now time.Time) error {
	var exists int
	if err := s.queryRow(ctx, `select count(*) from "workspace" where "id" = ?`, id).Scan(&exists); err != nil || exists > 0 {
		return err
	}
	_, err := s.exec(ctx, `insert into "workspace" ("id", "name", "kind", "createdAt") values (?, ?, ?, ?) on conflict ("id") do nothing`,
		id, name, kind, s.dialect.timeArg(now))
	if err != nil {
		return fmt.Errorf("workspace: create: %w", err)
	}
	return nil
}

// AddWorkspaceMembers adds a select of ("workspaceId", "userId") pairs to the workspace members
// that alert digests go to (the organization plugin's members: its tables are its own). Call it
// at start-up, before serving.
func (s *Store) AddWorkspaceMembers(selectSQL string) {
	if !slices.Contains(s.memberSources, selectSQL) {
		s.memberSources = append(s.memberSources, selectSQL)
	}
}

// workspaceMembers is a subquery of every (workspaceId, userId) membership.
func (s *Store) workspaceMembers() string {
	q := `select "workspaceId", "userId" from "workspaceMember"`
	for _, src := range s.memberSources {
		q += " union " + src
	}
	return "(" + q + ")"
}
