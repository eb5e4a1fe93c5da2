package auth

import (
	"net/http"
	"time"

	"github.com/sellertrends/sellertrends/internal/httpx"
)

// getSession answers the current session and user, or null. A database-read session older than
// the update age is extended (unless remember-me is off or refresh is disabled) and the cache
// cookie is rewritten, as Better Auth does.
func (s *Service) getSession(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("Pragma", "no-cache")
	q := r.URL.Query()
	disableCache, ok1 := queryBool(q.Get("disableCookieCache"))
	disableRefresh, ok2 := queryBool(q.Get("disableRefresh"))
	if !ok1 || !ok2 {
		writeErr(w, r, httpx.BadRequest("[query.disableCookieCache] Invalid input: expected boolean"))
		return
	}
	l, err := s.CurrentSession(w, r, !disableCache)
	if err != nil {
		writeErr(w, r, err)
		return
	}
	if l == nil {
		httpx.WriteJSON(w, http.StatusOK, nil)
		return
	}
	if l.body != nil {
		w.Header().Set("Content-Type", "application/json")
		w.Write(l.body)
		return
	}
	if l.fromCache || l.DontRemember || disableRefresh {
		pair := encodePair(l.Session, l.User)
		if !l.fromCache && !disableRefresh {
			s.setCacheCookiePair(w, pair, l.DontRemember)
		}
		writeSession(w, pair)
		return
	}
	now := s.now()
	expiresIn, updateAge := s.cfg.AuthSessionExpiresIn, s.cfg.AuthSessionUpdateAge
	if !time.Time(l.Session.ExpiresAt).Add(-expiresIn).Add(updateAge).After(now) {
		exp := now.Add(expiresIn)
		if err := s.store.ExtendSession(r.Context(), l.Session.Token, exp, now); err != nil {
			writeErr(w, r, err)
			return
		}
		l.Session.ExpiresAt, l.Session.UpdatedAt = isoTime(exp), isoTime(now)
		s.SetSessionCookies(w, r, l.Session, l.User, false)
		httpx.WriteJSON(w, http.StatusOK, SessionResponse{Session: l.Session, User: l.User})
		return
	}
	pair := encodePair(l.Session, l.User)
	s.setCacheCookiePair(w, pair, false)
	writeSession(w, pair)
}

// writeSession answers {"session":…,"user":…} from the pair already encoded for the cookie.
func writeSession(w http.ResponseWriter, pair sessionPair) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusOK)
	w.Write(append(pair.object(""), '\n'))
}

// queryBool parses an optional boolean query value ("" is false).
func queryBool(v string) (bool, bool) {
	switch v {
	case "", "false":
		return false, true
	case "true":
		return true, true
	}
	return false, false
}
