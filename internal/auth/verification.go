package auth

import (
	"context"
	"log/slog"
	"net/url"
	"time"

	"github.com/golang-jwt/jwt/v5"
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
	if m, ok := s.verificationMail(u, callbackURL); ok {
		s.send(ctx, m)
	}
}

// verificationMail is the verification mail for u, false when its token cannot be made (logged).
func (s *Service) verificationMail(u *store.User, callbackURL string) (mail.Message, bool) {
	token, err := s.verificationToken(u.Email, u.ID)
	if err != nil {
		slog.Error("auth: verification token", "error", err)
		return mail.Message{}, false
	}
	if callbackURL == "" {
		callbackURL = "/"
	}
	link := s.cfg.BaseURL.String() + BasePath + "/verify-email?token=" + url.QueryEscape(token) + "&callbackURL=" + url.QueryEscape(callbackURL)
	return mail.Verification(u.Email, u.Name, link), true
}

// send delivers a mail in the background (background.go) so a slow SMTP server never holds a
// request; ctx bounds only the wait for room in the queue.
func (s *Service) send(ctx context.Context, m mail.Message) {
	if s.mail == nil {
		return
	}
	s.later(ctx, func(ctx context.Context) { s.deliver(ctx, m) })
}

// deliver sends m now; a background job calls it. A failure is logged.
func (s *Service) deliver(ctx context.Context, m mail.Message) {
	if s.mail == nil {
		return
	}
	if err := s.mail.Send(ctx, m); err != nil {
		slog.Error("auth: send mail", "template", m.Template, "error", err)
	}
}
