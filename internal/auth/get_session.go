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
	l, err := s.currentSession(w, r, !disableCache)
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
	if l.fromCache || l.dontRemember || disableRefresh {
		if !l.fromCache && !disableRefresh {
			s.setCacheCookie(w, l.session, l.user, l.dontRemember)
		}
		httpx.WriteJSON(w, http.StatusOK, SessionResponse{Session: l.session, User: l.user})
		return
	}
	now := s.now()
	expiresIn, updateAge := s.cfg.AuthSessionExpiresIn, s.cfg.AuthSessionUpdateAge
	if !time.Time(l.session.ExpiresAt).Add(-expiresIn).Add(updateAge).After(now) {
		exp := now.Add(expiresIn)
		if err := s.store.ExtendSession(r.Context(), l.session.Token, exp, now); err != nil {
			writeErr(w, r, err)
			return
		}
		l.session.ExpiresAt, l.session.UpdatedAt = isoTime(exp), isoTime(now)
		s.setSessionCookies(w, r, l.session, l.user, false)
	} else {
		s.setCacheCookie(w, l.session, l.user, false)
	}
	httpx.WriteJSON(w, http.StatusOK, SessionResponse{Session: l.session, User: l.user})
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
