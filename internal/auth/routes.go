package auth

import (
	"net/http"

	"github.com/sellertrends/sellertrends/internal/httpx"
)

// coreRoutes is the protocol's route table: grep a path, land on its handler. Plugins add
// theirs with Handle.
func (s *Service) coreRoutes() {
	s.Handle("GET /ok", s.ok, NoLimit)
	s.Handle("GET /error", s.errorPage)
	s.Handle("POST /sign-up/email", s.signUpEmail, strict10s)
	s.Handle("POST /sign-in/email", s.signInEmail, strict10s)
	s.AllowMediaTypes("/sign-up/email", httpx.FormOrJSON) // a sign-in form that works without JavaScript
	s.AllowMediaTypes("/sign-in/email", httpx.FormOrJSON)
	s.Handle("POST /sign-out", s.signOut)
	s.Handle("GET /get-session", s.getSession, NoLimit)
	s.Handle("POST /send-verification-email", s.sendVerificationEmail, strict60s)
	s.Handle("GET /verify-email", s.verifyEmail)
	s.Handle("POST /request-password-reset", s.requestPasswordReset, strict60s)
	s.Handle("POST /forget-password", s.requestPasswordReset, strict60s) // the spec's alias
	s.Handle("GET /reset-password/{token}", s.resetPasswordCallback)
	s.Handle("POST /reset-password", s.resetPassword)
	s.Handle("POST /update-user", s.updateUser)
	s.Handle("POST /change-password", s.changePassword, strict10s)
	s.Handle("POST /change-email", s.changeEmail, strict10s)
	s.Handle("POST /delete-user", s.deleteUser)
	s.Handle("GET /delete-user/callback", s.deleteUserCallback)
	s.Handle("GET /list-sessions", s.listSessions)
	s.Handle("POST /revoke-session", s.revokeSession)
	s.Handle("POST /revoke-sessions", s.revokeSessions)
	s.Handle("POST /revoke-other-sessions", s.revokeOtherSessions)
	s.Handle("GET /list-accounts", s.listAccounts)
	s.Handle("POST /unlink-account", s.unlinkAccount)
	s.Handle("GET /account-info", s.accountInfo)  // as Better Auth's client calls it
	s.Handle("POST /account-info", s.accountInfo) // as the spec names it
}

// mux builds the route table into a ServeMux. Each route is rate limited by its own rule, so an
// attacker's random paths never reach the limiter's store.
func (s *Service) mux() *http.ServeMux {
	mux := http.NewServeMux()
	for _, rt := range s.table {
		rule := defaultRule
		if rt.rule != nil {
			rule = *rt.rule
		}
		mux.Handle(rt.method+" "+BasePath+rt.path, s.limited(rt.path, rule, s.declaredTypes(rt.handler)))
	}
	mux.HandleFunc(BasePath+"/", func(w http.ResponseWriter, r *http.Request) { writeErr(w, r, ErrNotFound) })
	return mux
}

// declaredTypes answers a state-changing request whose body is not of the route's declared
// media types (JSON, or those AllowMediaTypes declares) with 415, before the handler reads it.
func (s *Service) declaredTypes(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if StateChanging(r.Method) {
			allowed, ok := s.mediaTypes[r.URL.Path]
			if !ok {
				allowed = httpx.JSONOnly
			}
			if err := httpx.CheckContentType(r, allowed); err != nil {
				writeErr(w, r, err)
				return
			}
		}
		h(w, r)
	}
}
