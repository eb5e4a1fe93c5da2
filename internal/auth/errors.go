package auth

import (
	"net/http"

	"github.com/sellertrends/sellertrends/internal/httpx"
)

// Better Auth's error catalogue (spec §8, BASE_ERROR_CODES): code, message and status as its
// endpoints answer them, so the official client surfaces the same texts.
var (
	errUnauthorized          = e(http.StatusUnauthorized, "UNAUTHORIZED", "Unauthorized")
	errInvalidEmail          = e(http.StatusBadRequest, "INVALID_EMAIL", "Invalid email")
	errInvalidEmailPassword  = e(http.StatusUnauthorized, "INVALID_EMAIL_OR_PASSWORD", "Invalid email or password")
	errPasswordTooShort      = e(http.StatusBadRequest, "PASSWORD_TOO_SHORT", "Password too short")
	errPasswordTooLong       = e(http.StatusBadRequest, "PASSWORD_TOO_LONG", "Password too long")
	errUserExists            = e(http.StatusUnprocessableEntity, "USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL", "User already exists. Use another email.")
	errEmailNotVerified      = e(http.StatusForbidden, "EMAIL_NOT_VERIFIED", "Email not verified")
	errInvalidToken          = e(http.StatusBadRequest, "INVALID_TOKEN", "Invalid token")
	errUserNotFound          = e(http.StatusBadRequest, "USER_NOT_FOUND", "User not found")
	errEmailMismatch         = e(http.StatusBadRequest, "EMAIL_MISMATCH", "Email mismatch")
	errEmailAlreadyVerified  = e(http.StatusBadRequest, "EMAIL_ALREADY_VERIFIED", "Email is already verified")
	errFailedCreateUser      = e(http.StatusUnprocessableEntity, "FAILED_TO_CREATE_USER", "Failed to create user")
	errMissingOrigin         = e(http.StatusForbidden, "MISSING_OR_NULL_ORIGIN", "Missing or null Origin")
	errInvalidOrigin         = e(http.StatusForbidden, "INVALID_ORIGIN", "Invalid origin")
	errInvalidRequest        = e(http.StatusForbidden, "INVALID_REQUEST", "Invalid request")
	errInvalidCallbackURL    = e(http.StatusForbidden, "INVALID_CALLBACK_URL", "Invalid callbackURL")
	errInvalidRedirectURL    = e(http.StatusForbidden, "INVALID_REDIRECT_URL", "Invalid redirectURL")
	errInvalidErrorCallback  = e(http.StatusForbidden, "INVALID_ERROR_CALLBACK_URL", "Invalid errorCallbackURL")
	errInvalidNewUserCallbck = e(http.StatusForbidden, "INVALID_NEW_USER_CALLBACK_URL", "Invalid newUserCallbackURL")
	errSessionNotFresh       = e(http.StatusForbidden, "SESSION_NOT_FRESH", "Session is not fresh")
	errTooManyRequests       = e(http.StatusTooManyRequests, "TOO_MANY_REQUESTS", "Too many requests. Please try again later.")
	errNotFound              = e(http.StatusNotFound, "NOT_FOUND", "Not Found")
)

func e(status int, code, msg string) *httpx.Error { return httpx.NewError(status, code, msg) }

// Verify-email failures travel as ?error=<code> on the redirect (spec §8).
const (
	verifyTokenExpired = "token_expired"
	verifyInvalidToken = "invalid_token"
	verifyUserNotFound = "user_not_found"
)
