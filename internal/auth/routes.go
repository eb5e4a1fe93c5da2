package auth

import "net/http"

// routes is the protocol's route table: grep a path, land on its handler.
func (s *Service) routes() http.Handler {
	mux := http.NewServeMux()
	p := BasePath
	mux.HandleFunc("GET "+p+"/ok", s.ok)
	mux.HandleFunc("GET "+p+"/error", s.errorPage)
	mux.HandleFunc("POST "+p+"/sign-up/email", s.signUpEmail)
	mux.HandleFunc("POST "+p+"/sign-in/email", s.signInEmail)
	mux.HandleFunc("POST "+p+"/sign-out", s.signOut)
	mux.HandleFunc("GET "+p+"/get-session", s.getSession)
	mux.HandleFunc("POST "+p+"/send-verification-email", s.sendVerificationEmail)
	mux.HandleFunc("GET "+p+"/verify-email", s.verifyEmail)
	mux.HandleFunc("POST "+p+"/request-password-reset", s.requestPasswordReset)
	mux.HandleFunc("POST "+p+"/forget-password", s.requestPasswordReset) // the spec's alias
	mux.HandleFunc("GET "+p+"/reset-password/{token}", s.resetPasswordCallback)
	mux.HandleFunc("POST "+p+"/reset-password", s.resetPassword)
	mux.HandleFunc("POST "+p+"/update-user", s.updateUser)
	mux.HandleFunc("POST "+p+"/change-password", s.changePassword)
	mux.HandleFunc("POST "+p+"/change-email", s.changeEmail)
	mux.HandleFunc("POST "+p+"/delete-user", s.deleteUser)
	mux.HandleFunc("GET "+p+"/delete-user/callback", s.deleteUserCallback)
	mux.HandleFunc("GET "+p+"/list-sessions", s.listSessions)
	mux.HandleFunc("POST "+p+"/revoke-session", s.revokeSession)
	mux.HandleFunc("POST "+p+"/revoke-sessions", s.revokeSessions)
	mux.HandleFunc("POST "+p+"/revoke-other-sessions", s.revokeOtherSessions)
	mux.HandleFunc("GET "+p+"/list-accounts", s.listAccounts)
	mux.HandleFunc("POST "+p+"/unlink-account", s.unlinkAccount)
	mux.HandleFunc("GET "+p+"/account-info", s.accountInfo)  // as Better Auth's client calls it
	mux.HandleFunc("POST "+p+"/account-info", s.accountInfo) // as the spec names it
	mux.HandleFunc(p+"/", func(w http.ResponseWriter, r *http.Request) { writeErr(w, r, errNotFound) })
	return mux
}
