package admin

import (
	"net/http"

	"github.com/sellertrends/sellertrends/internal/httpx"
)

// The admin plugin's error catalogue (Better Auth's ADMIN_ERROR_CODES): code, message and status
// as its endpoints answer them.
var (
	errCannotBanYourself     = e(http.StatusBadRequest, "YOU_CANNOT_BAN_YOURSELF", "You cannot ban yourself")
	errCannotRemoveYourself  = e(http.StatusBadRequest, "YOU_CANNOT_REMOVE_YOURSELF", "You cannot remove yourself")
	errNotAllowedChangeRole  = e(http.StatusForbidden, "YOU_ARE_NOT_ALLOWED_TO_CHANGE_USERS_ROLE", "You are not allowed to change users role")
	errNotAllowedCreate      = e(http.StatusForbidden, "YOU_ARE_NOT_ALLOWED_TO_CREATE_USERS", "You are not allowed to create users")
	errNotAllowedList        = e(http.StatusForbidden, "YOU_ARE_NOT_ALLOWED_TO_LIST_USERS", "You are not allowed to list users")
	errNotAllowedListSess    = e(http.StatusForbidden, "YOU_ARE_NOT_ALLOWED_TO_LIST_USERS_SESSIONS", "You are not allowed to list users sessions")
	errNotAllowedBan         = e(http.StatusForbidden, "YOU_ARE_NOT_ALLOWED_TO_BAN_USERS", "You are not allowed to ban users")
	errNotAllowedImpersonate = e(http.StatusForbidden, "YOU_ARE_NOT_ALLOWED_TO_IMPERSONATE_USERS", "You are not allowed to impersonate users")
	errNotAllowedRevoke      = e(http.StatusForbidden, "YOU_ARE_NOT_ALLOWED_TO_REVOKE_USERS_SESSIONS", "You are not allowed to revoke users sessions")
	errNotAllowedDelete      = e(http.StatusForbidden, "YOU_ARE_NOT_ALLOWED_TO_DELETE_USERS", "You are not allowed to delete users")
	errNotAllowedSetPassword = e(http.StatusForbidden, "YOU_ARE_NOT_ALLOWED_TO_SET_USERS_PASSWORD", "You are not allowed to set users password")
	errNotAllowedGet         = e(http.StatusForbidden, "YOU_ARE_NOT_ALLOWED_TO_GET_USER", "You are not allowed to get user")
	errNotAllowedUpdate      = e(http.StatusForbidden, "YOU_ARE_NOT_ALLOWED_TO_UPDATE_USERS", "You are not allowed to update users")
	errNotAllowedSetEmail    = e(http.StatusForbidden, "YOU_ARE_NOT_ALLOWED_TO_SET_USERS_EMAIL", "You are not allowed to update users email")
	errNonExistentRole       = e(http.StatusBadRequest, "YOU_ARE_NOT_ALLOWED_TO_SET_NON_EXISTENT_VALUE", "You are not allowed to set a non-existent role value")
	errCannotImpersonateAdm  = e(http.StatusForbidden, "YOU_CANNOT_IMPERSONATE_ADMINS", "You cannot impersonate admins")
	errInvalidRoleType       = e(http.StatusBadRequest, "INVALID_ROLE_TYPE", "Invalid role type")
	errNoDataToUpdate        = e(http.StatusBadRequest, "NO_DATA_TO_UPDATE", "No data to update")
	errPasswordViaUpdate     = e(http.StatusBadRequest, "PASSWORD_CANNOT_BE_UPDATED_VIA_UPDATE_USER", "Password cannot be updated through update-user. Use the set-user-password endpoint instead")
	errUserIDImmutable       = e(http.StatusBadRequest, "USER_ID_CANNOT_BE_UPDATED", "User id cannot be updated")
	errUserExists            = e(http.StatusBadRequest, "USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL", "User already exists. Use another email.")
	errUserNotFound          = e(http.StatusNotFound, "USER_NOT_FOUND", "User not found")
	// ErrBanned refuses a banned user's sign-in (and any other new session), with the plugin's
	// default bannedUserMessage.
	ErrBanned = e(http.StatusForbidden, "BANNED_USER", "You have been banned from this application. Please contact support if you believe this is an error.")

	// Better Auth answers these without a code.
	errNotImpersonating   = e(http.StatusBadRequest, "", "You are not impersonating anyone")
	errNoAdminSession     = e(http.StatusBadRequest, "", "Failed to find admin session")
	errNoPermissionsGiven = e(http.StatusBadRequest, "", "invalid permission check. no permission(s) were passed.")
)

func e(status int, code, msg string) *httpx.Error { return httpx.NewError(status, code, msg) }

var errNotAllowedSetPhone = e(http.StatusForbidden, "YOU_ARE_NOT_ALLOWED_TO_SET_USERS_PHONE_NUMBER", "You are not allowed to update users phone number")
