package organization

import (
	"net/http"

	"github.com/sellertrends/sellertrends/internal/httpx"
)

// The organization plugin's ORGANIZATION_ERROR_CODES (better-auth 1.7), with the statuses its
// endpoints answer them with.
func bad(code, msg string) *httpx.Error       { return httpx.NewError(http.StatusBadRequest, code, msg) }
func forbidden(code, msg string) *httpx.Error { return httpx.NewError(http.StatusForbidden, code, msg) }

const (
	msgOrgNotFound       = "Organization not found"
	msgNotMemberOfOrg    = "User is not a member of the organization"
	msgNoActiveOrg       = "No active organization"
	msgMemberNotFound    = "Member not found"
	msgOnlyOwner         = "You cannot leave the organization as the only owner"
	msgWithoutOwner      = "You cannot leave the organization without an owner"
	msgNotAMember        = "You are not a member of this organization"
	msgNotAllowedUpdate  = "You are not allowed to update this organization"
	msgNotAllowedDelete  = "You are not allowed to delete this organization"
	msgNotAllowedDelMem  = "You are not allowed to delete this member"
	msgNotAllowedUpdMem  = "You are not allowed to update this member"
	msgNotAllowedInvite  = "You are not allowed to invite users to this organization"
	msgNotAllowedInvRole = "You are not allowed to invite a user with this role"
	msgAlreadyMember     = "User is already a member of this organization"
	msgAlreadyInvited    = "User is already invited to this organization"
	msgInvitationMissing = "Invitation not found"
	msgNotRecipient      = "You are not the recipient of the invitation"
	msgNotAllowedCancel  = "You are not allowed to cancel this invitation"
	msgNotAllowedList    = "You are not allowed to list invitations for this organization"
	msgMembershipLimit   = "Organization membership limit reached"
	msgInvitationLimit   = "Invitation limit reached"
	msgRoleNotFound      = "Role not found"
)

var (
	errOrgExists        = bad("ORGANIZATION_ALREADY_EXISTS", "Organization already exists")
	errSlugTaken        = bad("ORGANIZATION_SLUG_ALREADY_TAKEN", "Organization slug already taken")
	errOrgNotFound      = bad("ORGANIZATION_NOT_FOUND", msgOrgNotFound)
	errNotMemberBad     = bad("USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION", msgNotMemberOfOrg)
	errNotMemberForb    = forbidden("USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION", msgNotMemberOfOrg)
	errNoActiveOrg      = bad("NO_ACTIVE_ORGANIZATION", msgNoActiveOrg)
	errMemberNotFound   = bad("MEMBER_NOT_FOUND", msgMemberNotFound)
	errOnlyOwner        = bad("YOU_CANNOT_LEAVE_THE_ORGANIZATION_AS_THE_ONLY_OWNER", msgOnlyOwner)
	errWithoutOwner     = bad("YOU_CANNOT_LEAVE_THE_ORGANIZATION_WITHOUT_AN_OWNER", msgWithoutOwner)
	errNotAMember       = forbidden("YOU_ARE_NOT_A_MEMBER_OF_THIS_ORGANIZATION", msgNotAMember)
	errCannotUpdateOrg  = forbidden("YOU_ARE_NOT_ALLOWED_TO_UPDATE_THIS_ORGANIZATION", msgNotAllowedUpdate)
	errCannotDeleteOrg  = forbidden("YOU_ARE_NOT_ALLOWED_TO_DELETE_THIS_ORGANIZATION", msgNotAllowedDelete)
	errCannotDeleteMem  = httpx.NewError(http.StatusUnauthorized, "YOU_ARE_NOT_ALLOWED_TO_DELETE_THIS_MEMBER", msgNotAllowedDelMem)
	errCannotUpdateMem  = forbidden("YOU_ARE_NOT_ALLOWED_TO_UPDATE_THIS_MEMBER", msgNotAllowedUpdMem)
	errCannotInvite     = forbidden("YOU_ARE_NOT_ALLOWED_TO_INVITE_USERS_TO_THIS_ORGANIZATION", msgNotAllowedInvite)
	errCannotInviteRole = forbidden("YOU_ARE_NOT_ALLOWED_TO_INVITE_USER_WITH_THIS_ROLE", msgNotAllowedInvRole)
	errAlreadyMember    = bad("USER_IS_ALREADY_A_MEMBER_OF_THIS_ORGANIZATION", msgAlreadyMember)
	errAlreadyInvited   = bad("USER_IS_ALREADY_INVITED_TO_THIS_ORGANIZATION", msgAlreadyInvited)
	errInvitationNone   = bad("INVITATION_NOT_FOUND", msgInvitationMissing)
	errNotRecipient     = forbidden("YOU_ARE_NOT_THE_RECIPIENT_OF_THE_INVITATION", msgNotRecipient)
	errCannotCancel     = forbidden("YOU_ARE_NOT_ALLOWED_TO_CANCEL_THIS_INVITATION", msgNotAllowedCancel)
	errCannotList       = forbidden("YOU_ARE_NOT_ALLOWED_TO_LIST_INVITATIONS", msgNotAllowedList)
	errMembershipLimit  = forbidden("ORGANIZATION_MEMBERSHIP_LIMIT_REACHED", msgMembershipLimit)
	errInvitationLimit  = forbidden("INVITATION_LIMIT_REACHED", msgInvitationLimit)
	errRoleNotFound     = bad("ROLE_NOT_FOUND", msgRoleNotFound)
)
