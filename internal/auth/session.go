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

// CreateSession stores a new session for u from request r, after the before-session hooks (a
// banned user is refused there). It sets no cookie: SetSessionCookies does.
func (s *Service) CreateSession(ctx context.Context, r *http.Request, u *store.User, dontRemember bool) (*store.Session, error) {
	for _, h := range s.beforeSession {
		if err := h(ctx, u); err != nil {
			return nil, err
		}
	}
	now := s.now()
	exp := now.Add(s.cfg.AuthSessionExpiresIn)
	if dontRemember {
		// Better Auth keeps a non-remembered session for a day in the database; the browser
		// drops the cookie when it closes.
		exp = now.Add(24 * time.Hour)
	}
	ip, ua := clientIP(r), r.UserAgent()
	x := &store.Session{ID: randomID(32), Token: randomID(32), UserID: u.ID, ExpiresAt: exp, CreatedAt: now, UpdatedAt: now, IPAddress: &ip, UserAgent: &ua}
	if err := s.store.CreateSession(ctx, x); err != nil {
		return nil, err
	}
	return x, nil
}

// SignIn creates a session for u and sets its cookies: what every sign-in path ends with. It
// returns the session and the user as answers carry them (with plugin Fields).
func (s *Service) SignIn(w http.ResponseWriter, r *http.Request, u *store.User, dontRemember bool) (SessionJSON, UserJSON, error) {
	x, err := s.CreateSession(r.Context(), r, u, dontRemember)
	if err != nil {
		return SessionJSON{}, UserJSON{}, err
	}
	sess, user, err := s.Answer(r.Context(), x, u)
	if err != nil {
		return sess, user, err
	}
	s.SetSessionCookies(w, r, sess, user, dontRemember)
	return sess, user, nil
}

// Answer turns stored rows into the session and user answers, with the plugins' Fields.
func (s *Service) Answer(ctx context.Context, x *store.Session, u *store.User) (SessionJSON, UserJSON, error) {
	sess, user := sessionJSON(x), userJSON(u)
	err := s.withFields(ctx, &sess, x, &user, u)
	return sess, user, err
}

// UserAnswer is a user as answers carry it (with the plugins' Fields).
func (s *Service) UserAnswer(ctx context.Context, u *store.User) (UserJSON, error) {
	user := userJSON(u)
	err := s.withFields(ctx, nil, nil, &user, u)
	return user, err
}

func clientIP(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}

// Current is the signed-in caller: the session and user answers, and whether the browser asked
// not to be remembered.
type Current struct {
	Session      SessionJSON
	User         UserJSON
	DontRemember bool
	Bearer       bool   // the token came from a token source (Authorization header), not a cookie
	fromCache    bool   // read from the session-data cookie, not the database
	body         []byte // get-session's answer, when the cookie cache already holds it
}

// sessionToken is the request's session token: the signed cookie, else a token source's.
func (s *Service) sessionToken(r *http.Request) (token string, bearer bool) {
	if t := s.readSigned(r, s.cookies.sessionToken); t != "" {
		return t, false
	}
	for _, src := range s.tokenSources {
		if t := src(r); t != "" {
			return t, true
		}
	}
	return "", false
}

// CurrentSession finds the request's session: from the cache cookie when allowed and fresh,
// otherwise from the database (deleting it if expired). It writes cookie changes to w.
// It returns nil when there is no valid session.
func (s *Service) CurrentSession(w http.ResponseWriter, r *http.Request, useCache bool) (*Current, error) {
	token, bearer := s.sessionToken(r)
	if token == "" {
		return nil, nil
	}
	dontRemember := s.readSigned(r, s.cookies.dontRemember) != ""
	if c, err := r.Cookie(s.cookies.sessionData); err == nil && c.Value != "" && useCache && !bearer {
		now := s.now()
		if e, ok := s.memo.get(c.Value, now); ok && equalConstantTime(e.payload.Session.Token, token) {
			return &Current{Session: e.payload.Session, User: e.payload.User, fromCache: true, DontRemember: dontRemember, body: e.body}, nil
		}
		if p, exp, ok := s.decodeCookieCache(c.Value, now); ok && equalConstantTime(p.Session.Token, token) {
			body := compactJSON(SessionResponse{Session: p.Session, User: p.User})
			if sessExp := time.Time(p.Session.ExpiresAt); sessExp.Before(exp) {
				exp = sessExp
			}
			s.memo.put(c.Value, memoEntry{payload: p, body: append(body, '\n'), expiresAt: exp})
			return &Current{Session: p.Session, User: p.User, fromCache: true, DontRemember: dontRemember}, nil
		}
		s.setCookie(w, s.cookies.sessionData, "", -1)
	}
	sess, user, err := s.store.SessionAndUser(r.Context(), token)
	if errors.Is(err, store.ErrNotFound) {
		if !bearer {
			s.clearSessionCookies(w)
		}
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if sess.ExpiresAt.Before(s.now()) {
		if !bearer {
			s.clearSessionCookies(w)
		}
		if err := s.store.DeleteSession(r.Context(), token); err != nil {
			return nil, err
		}
		return nil, nil
	}
	sj, uj, err := s.Answer(r.Context(), sess, user)
	if err != nil {
		return nil, err
	}
	return &Current{Session: sj, User: uj, DontRemember: dontRemember, Bearer: bearer}, nil
}

type ctxKey struct{}

// SessionFrom returns the caller RequireSession found.
func SessionFrom(ctx context.Context) (*Current, bool) {
	c, ok := ctx.Value(ctxKey{}).(*Current)
	return c, ok
}

// RequireSession lets only signed-in callers through, answering Better Auth's 401 otherwise.
// Other packages (trends, account screens) mount their handlers behind it. Reads (GET, HEAD)
// may trust the 60 s session-data cookie; anything that changes state reads the session from
// the database, so a signed-out, revoked or deleted session cannot change anything.
func (s *Service) RequireSession(next http.Handler) http.Handler {
	return s.requireSession(next, cacheAllowed)
}

// RequireStoredSession is RequireSession reading the session from the database for every
// method: for sensitive reads (a whole dataset exported, the account's email), which a session
// signed out, revoked or deleted in the last 60 s must not get either.
func (s *Service) RequireStoredSession(next http.Handler) http.Handler {
	return s.requireSession(next, func(*http.Request) bool { return false })
}

// cacheAllowed tells whether a request may be authenticated by the 60 s session-data cookie
// alone: only reads. Everything that changes state reads the session from the database.
func cacheAllowed(r *http.Request) bool {
	return r.Method == http.MethodGet || r.Method == http.MethodHead
}

func (s *Service) requireSession(next http.Handler, useCache func(*http.Request) bool) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		l, err := s.CurrentSession(w, r, useCache(r))
		if err != nil {
			writeErr(w, r, err)
			return
		}
		if l == nil {
			writeErr(w, r, ErrUnauthorized)
			return
		}
		ctx := context.WithValue(r.Context(), ctxKey{}, l)
		next.ServeHTTP(w, r.WithContext(ctx))
	})
}

// RequireUser is RequireSession for a handler of this package or a plugin: it answers 401 and
// returns false when there is no session. Like RequireSession, only reads trust the cookie cache.
func (s *Service) RequireUser(w http.ResponseWriter, r *http.Request) (*Current, bool) {
	l, err := s.CurrentSession(w, r, cacheAllowed(r))
	if err != nil {
		writeErr(w, r, err)
		return nil, false
	}
	if l == nil {
		writeErr(w, r, ErrUnauthorized)
		return nil, false
	}
	return l, true
}

// UserID returns the signed-in user's id for r, reading the session like RequireSession.
func (s *Service) UserID(w http.ResponseWriter, r *http.Request) (string, bool) {
	if c, ok := SessionFrom(r.Context()); ok {
		return c.User.ID, true
	}
	l, err := s.CurrentSession(w, r, cacheAllowed(r))
	if err != nil || l == nil {
		return "", false
	}
	return l.User.ID, true
}

// RevokeSession deletes one session by token.
func (s *Service) RevokeSession(ctx context.Context, token string) error {
	return s.store.DeleteSession(ctx, token)
}

// RevokeUserSessions deletes every session of a user but keepToken's ("" keeps none).
func (s *Service) RevokeUserSessions(ctx context.Context, userID, keepToken string) error {
	return s.store.DeleteUserSessions(ctx, userID, keepToken)
}
