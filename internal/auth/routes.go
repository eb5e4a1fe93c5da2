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
	mux.HandleFunc(p+"/", func(w http.ResponseWriter, r *http.Request) { writeErr(w, r, errNotFound) })
	return mux
}
