package auth

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"net/url"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/sellertrends/sellertrends/internal/httpx"
	"github.com/sellertrends/sellertrends/internal/mail"
	"github.com/sellertrends/sellertrends/internal/store"
)

// verificationTTL is the email-verification token's lifetime (spec §9: 3600 s).
const verificationTTL = time.Hour

// verifyClaims is Better Auth's email-verification JWT payload (HS256 with the secret).
type verifyClaims struct {
	Email       string `json:"email"`
	UpdateTo    string `json:"updateTo,omitempty"`
	RequestType string `json:"requestType,omitempty"`
	UserID      string `json:"userId,omitempty"`
	jwt.RegisteredClaims
}

// changeEmailToken is the two-step email change's token: requestType is
// change-email-confirmation (mailed to the current address) or change-email-verification (to the new one).
func (s *Service) changeEmailToken(email, updateTo, userID, requestType string) (string, error) {
	now := s.now()
	c := verifyClaims{Email: email, UpdateTo: updateTo, UserID: userID, RequestType: requestType, RegisteredClaims: jwt.RegisteredClaims{
		IssuedAt: jwt.NewNumericDate(now), ExpiresAt: jwt.NewNumericDate(now.Add(verificationTTL))}}
	return jwt.NewWithClaims(jwt.SigningMethodHS256, c).SignedString(s.secret)
}

func (s *Service) verificationToken(email, userID string) (string, error) {
	now := s.now()
	c := verifyClaims{Email: email, UserID: userID, RegisteredClaims: jwt.RegisteredClaims{
		IssuedAt: jwt.NewNumericDate(now), ExpiresAt: jwt.NewNumericDate(now.Add(verificationTTL))}}
	return jwt.NewWithClaims(jwt.SigningMethodHS256, c).SignedString(s.secret)
}

// sendVerification mails a verification link. Failures are logged, never shown: the account
// exists and the user can ask for another link.
func (s *Service) sendVerification(ctx context.Context, u *store.User, callbackURL string) {
	token, err := s.verificationToken(u.Email, u.ID)
	if err != nil {
		slog.Error("auth: verification token", "error", err)
		return
	}
	if callbackURL == "" {
		callbackURL = "/"
	}
	link := s.cfg.BaseURL.String() + BasePath + "/verify-email?token=" + url.QueryEscape(token) + "&callbackURL=" + url.QueryEscape(callbackURL)
	s.send(ctx, mail.Verification(u.Email, u.Name, link))
}

// send delivers a mail in the background with a deadline so a slow SMTP server never holds a request.
func (s *Service) send(_ context.Context, m mail.Message) {
	if s.mail == nil {
		return
	}
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if err := s.mail.Send(ctx, m); err != nil {
			slog.Error("auth: send mail", "template", m.Template, "error", err)
		}
	}()
}

type sendVerificationBody struct {
	Email       *string `json:"email"`
	CallbackURL *string `json:"callbackURL"`
}

// sendVerificationEmail mails a new link. Signed in: only to your own, unverified address.
// Anonymous: always answers status true so it does not reveal which emails exist.
func (s *Service) sendVerificationEmail(w http.ResponseWriter, r *http.Request) {
	var b sendVerificationBody
	if !readJSON(w, r, &b, b.validate) {
		return
	}
	if !validEmail(lower(*b.Email)) {
		writeErr(w, r, httpx.BadRequest("[body.email] Invalid email address"))
		return
	}
	if err := s.checkURLs(str(b.CallbackURL), "", "", ""); err != nil {
		writeErr(w, r, err)
		return
	}
	email := lower(*b.Email)
	l, err := s.currentSession(w, r, false)
	if err != nil {
		writeErr(w, r, err)
		return
	}
	if l != nil {
		if l.user.Email != email {
			writeErr(w, r, errEmailMismatch)
			return
		}
		if l.user.EmailVerified {
			writeErr(w, r, errEmailAlreadyVerified)
			return
		}
		s.sendVerification(r.Context(), l.user.toStore(), str(b.CallbackURL))
		httpx.WriteJSON(w, http.StatusOK, map[string]bool{"status": true})
		return
	}
	if u, err := s.store.UserByEmail(r.Context(), email); err == nil && !u.EmailVerified {
		s.sendVerification(r.Context(), u, str(b.CallbackURL))
	} else if err != nil && !errors.Is(err, store.ErrNotFound) {
		writeErr(w, r, err)
		return
	}
	httpx.WriteJSON(w, http.StatusOK, map[string]bool{"status": true})
}

// verifyEmail marks the address verified and signs the user in. Failures redirect to the
// callback with ?error=<code>, or answer 401 without one.
func (s *Service) verifyEmail(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	token, callbackURL := q.Get("token"), q.Get("callbackURL")
	if !s.safeURL(callbackURL) || len(callbackURL) > maxURLLen {
		writeErr(w, r, errInvalidCallbackURL)
		return
	}
	fail := func(code string) {
		if callbackURL != "" {
			http.Redirect(w, r, appendQuery(callbackURL, "error", code), http.StatusFound)
			return
		}
		writeErr(w, r, e(http.StatusUnauthorized, code, code))
	}
	if token == "" || len(token) > maxTokenLen {
		fail(verifyInvalidToken)
		return
	}
	var c verifyClaims
	_, err := jwt.ParseWithClaims(token, &c, func(*jwt.Token) (any, error) { return s.secret, nil },
		jwt.WithValidMethods([]string{"HS256"}), jwt.WithTimeFunc(s.now))
	if errors.Is(err, jwt.ErrTokenExpired) {
		fail(verifyTokenExpired)
		return
	}
	if err != nil || c.Email == "" {
		fail(verifyInvalidToken)
		return
	}
	if c.UpdateTo != "" {
		s.verifyEmailChange(w, r, &c, callbackURL, fail)
		return
	}
	ctx := r.Context()
	u, err := s.store.UserByEmail(ctx, lower(c.Email))
	if errors.Is(err, store.ErrNotFound) {
		fail(verifyUserNotFound)
		return
	}
	if err != nil {
		writeErr(w, r, err)
		return
	}
	if c.UserID != "" && !equalConstantTime(c.UserID, u.ID) {
		fail(verifyInvalidToken)
		return
	}
	if !u.EmailVerified {
		verified := true
		if u, err = s.store.UpdateUser(ctx, u.ID, store.UserUpdate{EmailVerified: &verified}, s.now()); err != nil {
			writeErr(w, r, err)
			return
		}
		if err := s.signInAfterVerification(w, r, u); err != nil {
			writeErr(w, r, err)
			return
		}
	}
	if callbackURL != "" {
		http.Redirect(w, r, callbackURL, http.StatusFound)
		return
	}
	httpx.WriteJSON(w, http.StatusOK, map[string]any{"status": true, "user": nil})
}

// verifyEmailChange runs the two steps of a verified user's email change: the current address
// approves (a verification goes to the new one), then the new address confirms and the email changes.
func (s *Service) verifyEmailChange(w http.ResponseWriter, r *http.Request, c *verifyClaims, callbackURL string, fail func(string)) {
	ctx := r.Context()
	u, err := s.store.UserByID(ctx, c.UserID)
	if errors.Is(err, store.ErrNotFound) {
		fail(verifyUserNotFound)
		return
	}
	if err != nil {
		writeErr(w, r, err)
		return
	}
	if u.Email != lower(c.Email) {
		fail(verifyInvalidToken)
		return
	}
	switch c.RequestType {
	case "change-email-confirmation":
		token, err := s.changeEmailToken(u.Email, c.UpdateTo, u.ID, "change-email-verification")
		if err != nil {
			writeErr(w, r, err)
			return
		}
		cb := callbackURL
		if cb == "" {
			cb = "/"
		}
		link := s.cfg.BaseURL.String() + BasePath + "/verify-email?token=" + url.QueryEscape(token) + "&callbackURL=" + url.QueryEscape(cb)
		s.send(ctx, mail.Verification(c.UpdateTo, u.Name, link))
	case "change-email-verification":
		newEmail, verified := lower(c.UpdateTo), true
		if _, err := s.store.UpdateUser(ctx, u.ID, store.UserUpdate{Email: &newEmail, EmailVerified: &verified}, s.now()); err != nil {
			fail(verifyInvalidToken) // the address was taken in the meantime
			return
		}
	default:
		fail(verifyInvalidToken)
		return
	}
	if callbackURL != "" {
		http.Redirect(w, r, callbackURL, http.StatusFound)
		return
	}
	httpx.WriteJSON(w, http.StatusOK, map[string]bool{"status": true})
}

// signInAfterVerification starts a session unless the browser already has one for this user,
// so following the mailed link lands on the dashboard.
func (s *Service) signInAfterVerification(w http.ResponseWriter, r *http.Request, u *store.User) error {
	l, err := s.currentSession(w, r, false)
	if err != nil {
		return err
	}
	if l != nil && l.user.ID == u.ID {
		s.setCacheCookie(w, l.session, userJSON(u), l.dontRemember)
		return nil
	}
	sess, err := s.createSession(r.Context(), r, u.ID, false)
	if err != nil {
		return err
	}
	s.setSessionCookies(w, r, sessionJSON(sess), userJSON(u), false)
	return nil
}

// appendQuery adds key=value to a URL that may already have a query.
func appendQuery(raw, key, value string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return raw
	}
	q := u.Query()
	q.Set(key, value)
	u.RawQuery = q.Encode()
	return u.String()
}

func (b *sendVerificationBody) validate() error {
	var f fields
	f.required("email", b.Email)
	f.maxLen("callbackURL", b.CallbackURL, maxURLLen)
	return f.err()
}
