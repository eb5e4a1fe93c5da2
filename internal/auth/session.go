package auth

import (
	"context"
	"errors"
	"net"
	"net/http"
	"time"

	"github.com/sellertrends/sellertrends/internal/httpx"
	"github.com/sellertrends/sellertrends/internal/store"
)

func writeErr(w http.ResponseWriter, r *http.Request, err error) { httpx.WriteError(w, r, err) }

// createSession stores a new session for u from request r.
func (s *Service) createSession(ctx context.Context, r *http.Request, userID string, dontRemember bool) (*store.Session, error) {
	now := s.now()
	exp := now.Add(s.cfg.AuthSessionExpiresIn)
	if dontRemember {
		// Better Auth keeps a non-remembered session for a day in the database; the browser
		// drops the cookie when it closes.
		exp = now.Add(24 * time.Hour)
	}
	ip, ua := clientIP(r), r.UserAgent()
	x := &store.Session{ID: randomID(32), Token: randomID(32), UserID: userID, ExpiresAt: exp, CreatedAt: now, UpdatedAt: now, IPAddress: &ip, UserAgent: &ua}
	if err := s.store.CreateSession(ctx, x); err != nil {
		return nil, err
	}
	return x, nil
}

func clientIP(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}

// lookup is what get-session and RequireSession share.
type lookup struct {
	session      SessionJSON
	user         UserJSON
	fromCache    bool
	dontRemember bool
	body         []byte // get-session's answer, when the cookie cache already holds it
}

// currentSession finds the request's session: from the cache cookie when allowed and fresh,
// otherwise from the database (deleting it if expired). It writes cookie changes to w.
// It returns nil when there is no valid session.
func (s *Service) currentSession(w http.ResponseWriter, r *http.Request, useCache bool) (*lookup, error) {
	token := s.readSigned(r, s.cookies.sessionToken)
	if token == "" {
		return nil, nil
	}
	dontRemember := s.readSigned(r, s.cookies.dontRemember) != ""
	if c, err := r.Cookie(s.cookies.sessionData); err == nil && c.Value != "" && useCache {
		now := s.now()
		if e, ok := s.memo.get(c.Value, now); ok && equalConstantTime(e.payload.Session.Token, token) {
			return &lookup{session: e.payload.Session, user: e.payload.User, fromCache: true, dontRemember: dontRemember, body: e.body}, nil
		}
		if p, exp, ok := s.decodeCookieCache(c.Value, now); ok && equalConstantTime(p.Session.Token, token) {
			body := compactJSON(SessionResponse{Session: p.Session, User: p.User})
			if sessExp := time.Time(p.Session.ExpiresAt); sessExp.Before(exp) {
				exp = sessExp
			}
			s.memo.put(c.Value, memoEntry{payload: p, body: append(body, '\n'), expiresAt: exp})
			return &lookup{session: p.Session, user: p.User, fromCache: true, dontRemember: dontRemember}, nil
		}
		s.setCookie(w, s.cookies.sessionData, "", -1)
	}
	sess, user, err := s.store.SessionAndUser(r.Context(), token)
	if errors.Is(err, store.ErrNotFound) {
		s.clearSessionCookies(w)
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if sess.ExpiresAt.Before(s.now()) {
		s.clearSessionCookies(w)
		if err := s.store.DeleteSession(r.Context(), token); err != nil {
			return nil, err
		}
		return nil, nil
	}
	return &lookup{session: sessionJSON(sess), user: userJSON(user), dontRemember: dontRemember}, nil
}

type ctxKey struct{}

// Current is the signed-in caller, as RequireSession puts it in the request context.
type Current struct {
	Session SessionJSON
	User    UserJSON
}

// SessionFrom returns the caller RequireSession found.
func SessionFrom(ctx context.Context) (*Current, bool) {
	c, ok := ctx.Value(ctxKey{}).(*Current)
	return c, ok
}

// RequireSession lets only signed-in callers through, answering Better Auth's 401 otherwise.
// Other packages (trends, account screens) mount their handlers behind it.
func (s *Service) RequireSession(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		l, err := s.currentSession(w, r, true)
		if err != nil {
			writeErr(w, r, err)
			return
		}
		if l == nil {
			writeErr(w, r, errUnauthorized)
			return
		}
		ctx := context.WithValue(r.Context(), ctxKey{}, &Current{Session: l.session, User: l.user})
		next.ServeHTTP(w, r.WithContext(ctx))
	})
}

// UserID returns the signed-in user's id for r, reading the session like RequireSession.
func (s *Service) UserID(w http.ResponseWriter, r *http.Request) (string, bool) {
	if c, ok := SessionFrom(r.Context()); ok {
		return c.User.ID, true
	}
	l, err := s.currentSession(w, r, true)
	if err != nil || l == nil {
		return "", false
	}
	return l.user.ID, true
}
