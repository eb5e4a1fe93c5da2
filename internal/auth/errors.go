package auth

import (
	"net/http"

	"github.com/sellertrends/sellertrends/internal/httpx"
)

// Better Auth's error catalogue (spec §8, BASE_ERROR_CODES): code, message and status as its
// endpoints answer them, so the official client surfaces the same texts.
var (
	ErrUnauthorized           = e(http.StatusUnauthorized, "UNAUTHORIZED", "Unauthorized")
	ErrInvalidEmail           = e(http.StatusBadRequest, "INVALID_EMAIL", "Invalid email")
	ErrInvalidEmailPassword   = e(http.StatusUnauthorized, "INVALID_EMAIL_OR_PASSWORD", "Invalid email or password")
	ErrPasswordTooShort       = e(http.StatusBadRequest, "PASSWORD_TOO_SHORT", "Password too short")
	ErrPasswordTooLong        = e(http.StatusBadRequest, "PASSWORD_TOO_LONG", "Password too long")
	ErrUserExists             = e(http.StatusUnprocessableEntity, "USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL", "User already exists. Use another email.")
	ErrEmailNotVerified       = e(http.StatusForbidden, "EMAIL_NOT_VERIFIED", "Email not verified")
	ErrInvalidToken           = e(http.StatusBadRequest, "INVALID_TOKEN", "Invalid token")
	ErrUserNotFound           = e(http.StatusBadRequest, "USER_NOT_FOUND", "User not found")
	ErrEmailMismatch          = e(http.StatusBadRequest, "EMAIL_MISMATCH", "Email mismatch")
	ErrEmailAlreadyVerified   = e(http.StatusBadRequest, "EMAIL_ALREADY_VERIFIED", "Email is already verified")
	ErrFailedCreateUser       = e(http.StatusUnprocessableEntity, "FAILED_TO_CREATE_USER", "Failed to create user")
	ErrMissingOrigin          = e(http.StatusForbidden, "MISSING_OR_NULL_ORIGIN", "Missing or null Origin")
	ErrInvalidOrigin          = e(http.StatusForbidden, "INVALID_ORIGIN", "Invalid origin")
	ErrInvalidRequest         = e(http.StatusForbidden, "INVALID_REQUEST", "Invalid request")
	ErrInvalidCallbackURL     = e(http.StatusForbidden, "INVALID_CALLBACK_URL", "Invalid callbackURL")
	ErrInvalidRedirectURL     = e(http.StatusForbidden, "INVALID_REDIRECT_URL", "Invalid redirectURL")
	ErrInvalidErrorCallback   = e(http.StatusForbidden, "INVALID_ERROR_CALLBACK_URL", "Invalid errorCallbackURL")
	ErrInvalidNewUserCallback = e(http.StatusForbidden, "INVALID_NEW_USER_CALLBACK_URL", "Invalid newUserCallbackURL")
	ErrSessionNotFresh        = e(http.StatusForbidden, "SESSION_NOT_FRESH", "Session is not fresh")
	ErrTooManyRequests        = e(http.StatusTooManyRequests, "TOO_MANY_REQUESTS", "Too many requests. Please try again later.")
	ErrNotFound               = e(http.StatusNotFound, "NOT_FOUND", "Not Found")
	ErrCredentialNotFound     = e(http.StatusBadRequest, "CREDENTIAL_ACCOUNT_NOT_FOUND", "Credential account not found")
	ErrInvalidPassword        = e(http.StatusBadRequest, "INVALID_PASSWORD", "Invalid password")
	ErrEmailSame              = e(http.StatusBadRequest, "", "Email is the same") // Better Auth sends no code
	ErrEmailTaken             = e(http.StatusUnprocessableEntity, "USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL", "Couldn't update your email")
	ErrChangeEmailOff         = e(http.StatusBadRequest, "CHANGE_EMAIL_DISABLED", "Change email is disabled")
	ErrNoFieldsToUpdate       = e(http.StatusBadRequest, "", "No fields to update") // Better Auth sends no code
	ErrLastAccount            = e(http.StatusBadRequest, "FAILED_TO_UNLINK_LAST_ACCOUNT", "You can't unlink your last account")
	ErrProviderNotConfigured  = e(http.StatusBadRequest, "PROVIDER_NOT_CONFIGURED", "Account is not associated with a configured social provider.")
	ErrAccountNotFound        = e(http.StatusBadRequest, "ACCOUNT_NOT_FOUND", "Account not found")
	ErrDeleteDisabled         = e(http.StatusNotFound, "NOT_FOUND", "Not Found")
	ErrNoUserInfo             = e(http.StatusNotFound, "FAILED_TO_GET_USER_INFO", "Failed to get user info")
	ErrDeleteBadToken         = e(http.StatusNotFound, "INVALID_TOKEN", "Invalid token")
	// ErrUserHasPassword is set-password's refusal (a server-side operation with no HTTP route).
	ErrUserHasPassword = e(http.StatusBadRequest, "PASSWORD_ALREADY_SET", "user already has a password")
)

func e(status int, code, msg string) *httpx.Error { return httpx.NewError(status, code, msg) }

// Verify-email failures travel as ?error=<code> on the redirect (spec §8).
const (
	verifyTokenExpired = "token_expired"
	verifyInvalidToken = "invalid_token"
	verifyUserNotFound = "user_not_found"
)
