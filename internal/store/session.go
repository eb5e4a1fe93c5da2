package store

import (
	"context"
	"fmt"
	"time"
)

// Session is a row of Better Auth's "session" table.
type Session struct {
	ID        string    `json:"id"`
	ExpiresAt time.Time `json:"expiresAt"`
	Token     string    `json:"token"`
	CreatedAt time.Time `json:"createdAt"`
	UpdatedAt time.Time `json:"updatedAt"`
	IPAddress *string   `json:"ipAddress"`
	UserAgent *string   `json:"userAgent"`
	UserID    string    `json:"userId"`
	// Extra holds the carried columns (carried.go) when the session was read with its user.
	Extra map[string]any `json:"extra,omitempty"`
}

const sessionColumns = `"id", "expiresAt", "token", "createdAt", "updatedAt", "ipAddress", "userAgent", "userId"`

func scanSession(row interface{ Scan(...any) error }) (*Session, error) {
	var x Session
	var exp, created, updated dbTime
	if err := row.Scan(&x.ID, &exp, &x.Token, &created, &updated, &x.IPAddress, &x.UserAgent, &x.UserID); err != nil {
		return nil, notFound(err)
	}
	x.ExpiresAt, x.CreatedAt, x.UpdatedAt = exp.Time, created.Time, updated.Time
	return &x, nil
}

// CreateSession inserts x.
func (s *Store) CreateSession(ctx context.Context, x *Session) error {
	_, err := s.exec(ctx, `insert into "session" (`+sessionColumns+`) values (?, ?, ?, ?, ?, ?, ?, ?)`,
		x.ID, s.dialect.timeArg(x.ExpiresAt), x.Token, s.dialect.timeArg(x.CreatedAt), s.dialect.timeArg(x.UpdatedAt), x.IPAddress, x.UserAgent, x.UserID)
	if err != nil {
		return fmt.Errorf("session: create: %w", err)
	}
	return nil
}

// SessionAndUser returns the session with token and its user, or ErrNotFound: from the session
// cache when one is configured, otherwise in one query.
func (s *Store) SessionAndUser(ctx context.Context, token string) (*Session, *User, error) {
	if s.sessions != nil {
		return s.cachedSessionAndUser(ctx, token)
	}
	return s.sessionAndUserFromDB(ctx, token)
}

func (s *Store) sessionAndUserFromDB(ctx context.Context, token string) (*Session, *User, error) {
	q := `select s."id", s."expiresAt", s."token", s."createdAt", s."updatedAt", s."ipAddress", s."userAgent", s."userId",
		u."id", u."name", u."email", u."emailVerified", u."image", u."createdAt", u."updatedAt"`
	if len(s.carriedSession) > 0 {
		q += ", " + carriedList(s.carriedSession, "s")
	}
	if len(s.carriedUser) > 0 {
		q += ", " + carriedList(s.carriedUser, "u")
	}
	q += ` from "session" s join "user" u on u."id" = s."userId" where s."token" = ?`
	var x Session
	var u User
	var exp, created, updated, ucreated, uupdated dbTime
	var verified dbBool
	sessExtra, userExtra := newCarriedScan(s.carriedSession), newCarriedScan(s.carriedUser)
	dest := []any{&x.ID, &exp, &x.Token, &created, &updated, &x.IPAddress, &x.UserAgent, &x.UserID,
		&u.ID, &u.Name, &u.Email, &verified, &u.Image, &ucreated, &uupdated}
	dest = append(append(dest, sessExtra.targets()...), userExtra.targets()...)
	if err := s.queryRow(ctx, q, token).Scan(dest...); err != nil {
		if err = notFound(err); err == ErrNotFound {
			return nil, nil, err
		}
		return nil, nil, fmt.Errorf("session: by token: %w", err)
	}
	x.ExpiresAt, x.CreatedAt, x.UpdatedAt = exp.Time, created.Time, updated.Time
	u.EmailVerified, u.CreatedAt, u.UpdatedAt = bool(verified), ucreated.Time, uupdated.Time
	x.Extra, u.Extra = sessExtra.values(), userExtra.values()
	return &x, &u, nil
}

// SessionsByUser lists a user's sessions, oldest first (the order Better Auth lists them in).
func (s *Store) SessionsByUser(ctx context.Context, userID string) ([]*Session, error) {
	rows, err := s.query(ctx, `select `+sessionColumns+` from "session" where "userId" = ? order by "createdAt", "id"`, userID)
	if err != nil {
		return nil, fmt.Errorf("session: by user: %w", err)
	}
	defer rows.Close()
	var out []*Session
	for rows.Next() {
		x, err := scanSession(rows)
		if err != nil {
			return nil, fmt.Errorf("session: by user: %w", err)
		}
		out = append(out, x)
	}
	return out, rows.Err()
}

// ExtendSession moves a session's expiry (get-session refresh).
func (s *Store) ExtendSession(ctx context.Context, token string, expiresAt, now time.Time) error {
	owner, err := s.sessionOwner(ctx, token)
	if err != nil {
		return fmt.Errorf("session: extend: %w", err)
	}
	_, err = s.exec(ctx, `update "session" set "expiresAt" = ?, "updatedAt" = ? where "token" = ?`,
		s.dialect.timeArg(expiresAt), s.dialect.timeArg(now), token)
	if err != nil {
		return fmt.Errorf("session: extend: %w", err)
	}
	return s.invalidateUser(ctx, owner)
}

// DeleteSession removes the session with token (no error if it is already gone).
func (s *Store) DeleteSession(ctx context.Context, token string) error {
	owner, err := s.sessionOwner(ctx, token)
	if err != nil {
		return fmt.Errorf("session: delete: %w", err)
	}
	if _, err := s.exec(ctx, `delete from "session" where "token" = ?`, token); err != nil {
		return fmt.Errorf("session: delete: %w", err)
	}
	return s.invalidateUser(ctx, owner)
}

// DeleteUserSessions removes every session of a user except keepToken ("" keeps none).
func (s *Store) DeleteUserSessions(ctx context.Context, userID, keepToken string) error {
	if _, err := s.exec(ctx, `delete from "session" where "userId" = ? and "token" <> ?`, userID, keepToken); err != nil {
		return fmt.Errorf("session: delete for user: %w", err)
	}
	return s.invalidateUser(ctx, userID)
}
