package store

import (
	"context"
	"fmt"
	"log/slog"
	"time"
)

// SessionCache keeps session-and-user lookups out of the database when several servers run side
// by side (Redis: internal/sessioncache). The store fills it on a miss and clears a user's
// entries after every change to that user or their sessions, so a revoked session stops working
// on every server at once; the cache never decides on its own that a session is valid.
type SessionCache interface {
	// Lookup returns the cached pair for token, or ok false and a ticket for Fill.
	Lookup(ctx context.Context, token string) (sess *Session, user *User, ticket string, ok bool, err error)
	// Fill stores the pair read from the database after Lookup missed, unless an invalidation
	// happened since the ticket was issued (the pair read may already be stale).
	Fill(ctx context.Context, ticket string, sess *Session, user *User, ttl time.Duration) error
	// InvalidateUser drops every cached session of the user.
	InvalidateUser(ctx context.Context, userID string) error
}

// SessionCacheTTL bounds how long an entry lives even without invalidation.
const SessionCacheTTL = 5 * time.Minute

// WithSessionCache makes the store read sessions through c.
func (s *Store) WithSessionCache(c SessionCache) { s.sessions = c }

// cachedSessionAndUser answers from the cache, or reads the database and fills the cache.
func (s *Store) cachedSessionAndUser(ctx context.Context, token string) (*Session, *User, error) {
	sess, user, ticket, ok, err := s.sessions.Lookup(ctx, token)
	if err == nil && ok {
		return sess, user, nil
	}
	if err != nil {
		slog.Error("session cache: lookup failed, reading the database", "error", err)
	}
	sess, user, err = s.sessionAndUserFromDB(ctx, token)
	if err != nil || ticket == "" {
		return sess, user, err
	}
	ttl := min(SessionCacheTTL, time.Until(sess.ExpiresAt))
	if ttl > 0 {
		if err := s.sessions.Fill(ctx, ticket, sess, user, ttl); err != nil {
			slog.Error("session cache: fill failed", "error", err)
		}
	}
	return sess, user, nil
}

// invalidateUser clears the user's cached sessions after a change in the database. A failure
// is returned: a change that cannot reach the cache would leave revoked sessions usable for up
// to SessionCacheTTL on other servers.
func (s *Store) invalidateUser(ctx context.Context, userID string) error {
	if s.sessions == nil || userID == "" { // no cache, or the session was already gone
		return nil
	}
	return s.sessions.InvalidateUser(ctx, userID)
}

// sessionOwner finds who owns a session before it is deleted, for the invalidation after.
func (s *Store) sessionOwner(ctx context.Context, token string) (string, error) {
	if s.sessions == nil {
		return "", nil
	}
	var userID string
	err := s.queryRow(ctx, `select "userId" from "session" where "token" = ?`, token).Scan(&userID)
	if err = notFound(err); err == ErrNotFound {
		return "", nil
	}
	return userID, err
}

// SessionOwners lists the users who own the sessions matching where (a condition on "session"
// with ? placeholders), so a plugin that changes many users' sessions at once can drop their
// cached sessions afterwards (InvalidateUsers). Without a session cache it asks nothing.
func (s *Store) SessionOwners(ctx context.Context, where string, args ...any) ([]string, error) {
	if s.sessions == nil {
		return nil, nil
	}
	rows, err := s.query(ctx, `select distinct "userId" from "session" where `+where, args...)
	if err != nil {
		return nil, fmt.Errorf("session: owners: %w", err)
	}
	defer rows.Close()
	var ids []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		ids = append(ids, id)
	}
	return ids, rows.Err()
}

// InvalidateUsers drops the cached sessions of each user.
func (s *Store) InvalidateUsers(ctx context.Context, userIDs []string) error {
	for _, id := range userIDs {
		if err := s.invalidateUser(ctx, id); err != nil {
			return err
		}
	}
	return nil
}
