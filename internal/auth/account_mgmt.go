package auth

import (
	"encoding/json"
	"errors"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/sellertrends/sellertrends/internal/auth/password"
	"github.com/sellertrends/sellertrends/internal/httpx"
	"github.com/sellertrends/sellertrends/internal/mail"
	"github.com/sellertrends/sellertrends/internal/store"
)

// Account management (issue 5): endpoints that act on the signed-in user. They read the session
// from the database, never from the cookie cache, as Better Auth's sensitive-session rule does.

var (
	errCredentialNotFound = e(http.StatusBadRequest, "CREDENTIAL_ACCOUNT_NOT_FOUND", "Credential account not found")
	errInvalidPassword    = e(http.StatusBadRequest, "INVALID_PASSWORD", "Invalid password")
	errEmailSame          = e(http.StatusBadRequest, "EMAIL_IS_THE_SAME", "Email is the same")
	errEmailTaken         = e(http.StatusUnprocessableEntity, "USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL", "Couldn't update your email")
	errChangeEmailOff     = e(http.StatusBadRequest, "CHANGE_EMAIL_DISABLED", "Change email is disabled")
	errNoFieldsToUpdate   = e(http.StatusBadRequest, "NO_FIELDS_TO_UPDATE", "No fields to update")
	errSessionNotFound    = e(http.StatusBadRequest, "SESSION_NOT_FOUND", "Session not found")
	errLastAccount        = e(http.StatusBadRequest, "FAILED_TO_UNLINK_LAST_ACCOUNT", "You can't unlink your last account")
	errAccountNotFound    = e(http.StatusBadRequest, "ACCOUNT_NOT_FOUND", "Account not found")
	errDeleteDisabled     = e(http.StatusNotFound, "NOT_FOUND", "Not Found")
	errDeleteBadToken     = e(http.StatusNotFound, "INVALID_TOKEN", "Invalid token")
	// ErrUserHasPassword is set-password's refusal (a server-side operation with no HTTP route).
	ErrUserHasPassword = e(http.StatusBadRequest, "PASSWORD_ALREADY_SET", "user already has a password")
)

// deleteTokenTTL is the emailed account-deletion link's lifetime (spec §9: 24 hours).
const deleteTokenTTL = 24 * time.Hour

// sensitive loads the caller's session from the database (401 without one).
func (s *Service) sensitive(w http.ResponseWriter, r *http.Request) (*lookup, bool) {
	l, err := s.currentSession(w, r, false)
	if err != nil {
		writeErr(w, r, err)
		return nil, false
	}
	if l == nil {
		writeErr(w, r, errUnauthorized)
		return nil, false
	}
	return l, true
}

// fresh additionally requires a session younger than AUTH_SESSION_FRESH_AGE (0 disables it).
func (s *Service) fresh(w http.ResponseWriter, r *http.Request) (*lookup, bool) {
	l, ok := s.sensitive(w, r)
	if !ok {
		return nil, false
	}
	if age := s.cfg.AuthSessionFreshAge; age > 0 && s.now().Sub(time.Time(l.session.CreatedAt)) >= age {
		writeErr(w, r, errSessionNotFresh)
		return nil, false
	}
	return l, true
}

type updateUserBody struct {
	Name  *string         `json:"name"`
	Image json.RawMessage `json:"image"` // absent: unchanged; null: removed
	Email *string         `json:"email"`
}

func (s *Service) updateUser(w http.ResponseWriter, r *http.Request) {
	l, ok := s.sensitive(w, r)
	if !ok {
		return
	}
	var b updateUserBody
	if err := decode(w, r, &b); err != nil {
		writeErr(w, r, err)
		return
	}
	if b.Email != nil {
		writeErr(w, r, e(http.StatusBadRequest, "EMAIL_CAN_NOT_BE_UPDATED", "Email can not be updated"))
		return
	}
	upd := store.UserUpdate{Name: b.Name}
	if len(b.Image) > 0 {
		var img *string
		if err := json.Unmarshal(b.Image, &img); err != nil {
			writeErr(w, r, httpx.BadRequest("[body.image] Invalid input: expected string"))
			return
		}
		upd.Image = &img
	}
	var f fields
	f.maxLen("name", b.Name, maxNameLen)
	if upd.Image != nil {
		f.maxLen("image", *upd.Image, maxURLLen)
	}
	if err := f.err(); err != nil {
		writeErr(w, r, err)
		return
	}
	if b.Name == nil && upd.Image == nil {
		writeErr(w, r, errNoFieldsToUpdate)
		return
	}
	u, err := s.store.UpdateUser(r.Context(), l.user.ID, upd, s.now())
	if err != nil {
		writeErr(w, r, err)
		return
	}
	s.setCacheCookie(w, l.session, userJSON(u), l.dontRemember)
	httpx.WriteJSON(w, http.StatusOK, map[string]bool{"status": true})
}

type changePasswordBody struct {
	NewPassword         *string `json:"newPassword"`
	CurrentPassword     *string `json:"currentPassword"`
	RevokeOtherSessions *bool   `json:"revokeOtherSessions"`
}

func (s *Service) changePassword(w http.ResponseWriter, r *http.Request) {
	l, ok := s.sensitive(w, r)
	if !ok {
		return
	}
	var b changePasswordBody
	if !readJSON(w, r, &b, b.validate) {
		return
	}
	if err := s.checkPassword(*b.NewPassword); err != nil {
		writeErr(w, r, err)
		return
	}
	ctx := r.Context()
	acc, err := s.store.CredentialAccount(ctx, l.user.ID)
	if errors.Is(err, store.ErrNotFound) || (err == nil && acc.Password == nil) {
		writeErr(w, r, errCredentialNotFound)
		return
	} else if err != nil {
		writeErr(w, r, err)
		return
	}
	if ok, _ := password.Verify(*acc.Password, *b.CurrentPassword); !ok {
		writeErr(w, r, errInvalidPassword)
		return
	}
	hash, err := password.Hash(*b.NewPassword)
	if err == nil {
		err = s.store.SetPassword(ctx, l.user.ID, hash, s.now())
	}
	if err != nil {
		writeErr(w, r, err)
		return
	}
	var token any
	if b.RevokeOtherSessions != nil && *b.RevokeOtherSessions {
		if err := s.store.DeleteUserSessions(ctx, l.user.ID, ""); err != nil {
			writeErr(w, r, err)
			return
		}
		sess, err := s.createSession(ctx, r, l.user.ID, false)
		if err != nil {
			writeErr(w, r, err)
			return
		}
		s.setSessionCookies(w, r, sessionJSON(sess), l.user, false)
		token = sess.Token
	}
	httpx.WriteJSON(w, http.StatusOK, map[string]any{"token": token, "user": l.user})
}

// SetPassword gives a user without a password (social sign-in only) a credential password.
// It is a server-side operation with no HTTP route, as in Better Auth.
func (s *Service) SetPassword(r *http.Request, userID, newPassword string) error {
	if err := s.checkPassword(newPassword); err != nil {
		return err
	}
	ctx := r.Context()
	acc, err := s.store.CredentialAccount(ctx, userID)
	if err == nil && acc.Password != nil {
		return ErrUserHasPassword
	}
	hash, herr := password.Hash(newPassword)
	if herr != nil {
		return herr
	}
	now := s.now()
	if errors.Is(err, store.ErrNotFound) {
		return s.store.CreateAccount(ctx, &store.Account{ID: randomID(32), AccountID: userID, ProviderID: "credential", UserID: userID, Password: &hash, CreatedAt: now, UpdatedAt: now})
	}
	if err != nil {
		return err
	}
	return s.store.SetPassword(ctx, userID, hash, now)
}

type changeEmailBody struct {
	NewEmail    *string `json:"newEmail"`
	CallbackURL *string `json:"callbackURL"`
}

// changeEmail: a verified user confirms on the current address first; an unverified user's
// email changes at once, unverified, with a verification sent to the new address.
func (s *Service) changeEmail(w http.ResponseWriter, r *http.Request) {
	if !s.cfg.AuthChangeEmailEnabled {
		writeErr(w, r, errChangeEmailOff)
		return
	}
	l, ok := s.sensitive(w, r)
	if !ok {
		return
	}
	var b changeEmailBody
	if !readJSON(w, r, &b, b.validate) {
		return
	}
	if err := s.checkURLs(str(b.CallbackURL), "", "", ""); err != nil {
		writeErr(w, r, err)
		return
	}
	newEmail := lower(strings.TrimSpace(*b.NewEmail))
	if !validEmail(newEmail) {
		writeErr(w, r, errInvalidEmail)
		return
	}
	if newEmail == l.user.Email {
		writeErr(w, r, errEmailSame)
		return
	}
	ctx := r.Context()
	if _, err := s.store.UserByEmail(ctx, newEmail); err == nil {
		writeErr(w, r, errEmailTaken)
		return
	} else if !errors.Is(err, store.ErrNotFound) {
		writeErr(w, r, err)
		return
	}
	cb := str(b.CallbackURL)
	if cb == "" {
		cb = "/"
	}
	if l.user.EmailVerified {
		token, err := s.changeEmailToken(l.user.Email, newEmail, l.user.ID, "change-email-confirmation")
		if err != nil {
			writeErr(w, r, err)
			return
		}
		link := s.cfg.BaseURL.String() + BasePath + "/verify-email?token=" + url.QueryEscape(token) + "&callbackURL=" + url.QueryEscape(cb)
		s.send(ctx, mail.EmailChange(l.user.Email, l.user.Name, newEmail, link))
		httpx.WriteJSON(w, http.StatusOK, map[string]bool{"status": true})
		return
	}
	verified := false
	u, err := s.store.UpdateUser(ctx, l.user.ID, store.UserUpdate{Email: &newEmail, EmailVerified: &verified}, s.now())
	if err != nil {
		writeErr(w, r, errEmailTaken)
		return
	}
	s.setCacheCookie(w, l.session, userJSON(u), l.dontRemember)
	s.sendVerification(ctx, u, cb)
	httpx.WriteJSON(w, http.StatusOK, map[string]bool{"status": true})
}

type deleteUserBody struct {
	Password    *string `json:"password"`
	Token       *string `json:"token"`
	CallbackURL *string `json:"callbackURL"`
}

// deleteUser deletes the account: at once with the right password (or a fresh session), with a
// mailed token, or by sending that mail. It removes the user, sessions and accounts.
func (s *Service) deleteUser(w http.ResponseWriter, r *http.Request) {
	if !s.cfg.AuthDeleteUserEnabled {
		writeErr(w, r, errDeleteDisabled)
		return
	}
	l, ok := s.sensitive(w, r)
	if !ok {
		return
	}
	var b deleteUserBody
	if err := decode(w, r, &b); err != nil {
		writeErr(w, r, err)
		return
	}
	if err := s.checkURLs(str(b.CallbackURL), "", "", ""); err != nil {
		writeErr(w, r, err)
		return
	}
	ctx := r.Context()
	if b.Password != nil {
		acc, err := s.store.CredentialAccount(ctx, l.user.ID)
		if err != nil || acc.Password == nil {
			writeErr(w, r, errCredentialNotFound)
			return
		}
		if ok, _ := password.Verify(*acc.Password, *b.Password); !ok {
			writeErr(w, r, errInvalidPassword)
			return
		}
	}
	if b.Token != nil {
		if err := s.consumeDeleteToken(r, l.user.ID, *b.Token); err != nil {
			writeErr(w, r, err)
			return
		}
		s.finishDelete(w, r, l.user.ID)
		return
	}
	if b.Password == nil {
		// Without a password, the account goes only by the emailed link.
		token := randomLowerID(32)
		now := s.now()
		v := &store.Verification{ID: randomID(32), Identifier: "delete-account-" + token, Value: l.user.ID, ExpiresAt: now.Add(deleteTokenTTL), CreatedAt: now, UpdatedAt: now}
		if err := s.store.CreateVerification(ctx, v); err != nil {
			writeErr(w, r, err)
			return
		}
		cb := str(b.CallbackURL)
		if cb == "" {
			cb = "/"
		}
		link := s.cfg.BaseURL.String() + BasePath + "/delete-user/callback?token=" + token + "&callbackURL=" + url.QueryEscape(cb)
		s.send(ctx, mail.AccountDeletion(l.user.Email, l.user.Name, link))
		httpx.WriteJSON(w, http.StatusOK, map[string]any{"success": true, "message": "Verification email sent"})
		return
	}
	s.finishDelete(w, r, l.user.ID)
}

func (s *Service) finishDelete(w http.ResponseWriter, r *http.Request, userID string) {
	if err := s.store.DeleteUser(r.Context(), userID); err != nil {
		writeErr(w, r, err)
		return
	}
	s.clearSessionCookies(w)
	httpx.WriteJSON(w, http.StatusOK, map[string]any{"success": true, "message": "User deleted"})
}

func (s *Service) consumeDeleteToken(r *http.Request, userID, token string) error {
	if token == "" || len(token) > 64 {
		return errDeleteBadToken
	}
	v, err := s.store.VerificationByIdentifier(r.Context(), "delete-account-"+token)
	if errors.Is(err, store.ErrNotFound) || (err == nil && (v.ExpiresAt.Before(s.now()) || !equalConstantTime(v.Value, userID))) {
		return errDeleteBadToken
	}
	if err != nil {
		return err
	}
	return s.store.DeleteVerification(r.Context(), v.Identifier)
}

// deleteUserCallback is the mailed deletion link: the browser's session must be the user's.
func (s *Service) deleteUserCallback(w http.ResponseWriter, r *http.Request) {
	if !s.cfg.AuthDeleteUserEnabled {
		writeErr(w, r, errDeleteDisabled)
		return
	}
	cb := r.URL.Query().Get("callbackURL")
	if !s.safeURL(cb) {
		writeErr(w, r, errInvalidCallbackURL)
		return
	}
	l, ok := s.sensitive(w, r)
	if !ok {
		return
	}
	if err := s.consumeDeleteToken(r, l.user.ID, r.URL.Query().Get("token")); err != nil {
		writeErr(w, r, err)
		return
	}
	if err := s.store.DeleteUser(r.Context(), l.user.ID); err != nil {
		writeErr(w, r, err)
		return
	}
	s.clearSessionCookies(w)
	if cb != "" {
		http.Redirect(w, r, cb, http.StatusFound)
		return
	}
	httpx.WriteJSON(w, http.StatusOK, map[string]any{"success": true, "message": "User deleted"})
}

// randomLowerID is Better Auth's delete token alphabet: digits and lower-case letters.
func randomLowerID(n int) string { return strings.ToLower(randomID(n)) }

func (b *changePasswordBody) validate() error {
	var f fields
	f.required("newPassword", b.NewPassword)
	f.required("currentPassword", b.CurrentPassword)
	return f.err()
}

func (b *changeEmailBody) validate() error {
	var f fields
	f.required("newEmail", b.NewEmail)
	f.maxLen("callbackURL", b.CallbackURL, maxURLLen)
	return f.err()
}
