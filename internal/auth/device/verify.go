package device

import (
	"errors"
	"net/http"
	"regexp"
	"strings"

	"github.com/sellertrends/sellertrends/internal/auth"
	"github.com/sellertrends/sellertrends/internal/httpx"
)

var (
	errInvalidUserCode = oerr(http.StatusBadRequest, "invalid_request", "Invalid user code")
	errExpiredUserCode = oerr(http.StatusBadRequest, "expired_token", "User code has expired")
	errProcessed       = oerr(http.StatusBadRequest, "invalid_request", "Device code already processed")
	errNotClaimed      = oerr(http.StatusBadRequest, "invalid_request", "Device code has not been claimed by a verifying session; call `GET /device` with the `user_code` while signed in before approving or denying")
	errAuthRequired    = oerr(http.StatusUnauthorized, "unauthorized", "Authentication required")
)

var userCodePattern = regexp.MustCompile(`(?i)^[` + userCodeAlphabet + `]+$`)

// find looks a user code up as typed, then (for codes of our alphabet) without case, dashes
// and spaces: "abcd-efgh" finds ABCDEFGH.
func (p *Plugin) find(r *http.Request, userCode string) (*record, error) {
	x, err := p.records.by(r.Context(), "userCode", userCode)
	if !errors.Is(err, errNoRecord) {
		return x, err
	}
	norm := strings.ToUpper(strings.Map(func(c rune) rune {
		if (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') {
			return c
		}
		return -1
	}, userCode))
	if norm == userCode || !userCodePattern.MatchString(norm) {
		return nil, errInvalidUserCode
	}
	x, err = p.records.by(r.Context(), "userCode", norm)
	if errors.Is(err, errNoRecord) {
		return nil, errInvalidUserCode
	}
	return x, err
}

// GET /device?user_code=: the code's status. A signed-in caller opening a pending, unclaimed
// code claims it (only they may then approve or deny) and sees which client asks and for what.
func (p *Plugin) verify(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	if _, ok := q["user_code"]; !ok {
		auth.WriteError(w, r, httpx.BadRequest("[query.user_code] Invalid input: expected string, received undefined"))
		return
	}
	userCode := q.Get("user_code")
	if len(userCode) > maxParam {
		fail(w, r, errInvalidUserCode, false)
		return
	}
	x, err := p.find(r, userCode)
	if err == nil && x.ExpiresAt.Before(p.s.Now()) {
		err = errExpiredUserCode
	}
	if err != nil {
		fail(w, r, err, false)
		return
	}
	c, err := p.s.CurrentSession(w, r, false)
	if err != nil {
		auth.WriteError(w, r, err)
		return
	}
	ctx := r.Context()
	if c != nil && x.UserID == nil && x.Status == pending {
		ok, err := p.records.claim(ctx, x.ID, c.User.ID)
		if err == nil && !ok { // someone else claimed or decided it meanwhile
			x, err = p.records.by(ctx, "id", x.ID)
			if errors.Is(err, errNoRecord) {
				err = errInvalidUserCode
			}
		} else if ok {
			x.UserID = &c.User.ID
		}
		if err != nil {
			fail(w, r, err, false)
			return
		}
	}
	out := map[string]any{"user_code": userCode, "status": x.Status}
	if c != nil && x.UserID != nil && *x.UserID == c.User.ID {
		out["client_id"], out["scope"] = x.ClientID, x.Scope
	}
	writeJSON(w, http.StatusOK, out, false)
}

// POST /device/approve {userCode}
func (p *Plugin) approve(w http.ResponseWriter, r *http.Request) { p.decide(w, r, approved) }

// POST /device/deny {userCode}
func (p *Plugin) deny(w http.ResponseWriter, r *http.Request) { p.decide(w, r, denied) }

// decide approves or denies a pending code the signed-in caller claimed with GET /device.
func (p *Plugin) decide(w http.ResponseWriter, r *http.Request, status string) {
	var b struct {
		UserCode *string `json:"userCode"`
	}
	if !auth.ReadJSON(w, r, &b, func() error { return auth.Required("userCode", b.UserCode) }) {
		return
	}
	c, err := p.s.CurrentSession(w, r, false)
	if err != nil {
		auth.WriteError(w, r, err)
		return
	}
	if c == nil {
		fail(w, r, errAuthRequired, false)
		return
	}
	x, err := p.find(r, *b.UserCode)
	if err == nil {
		err = p.decidable(x, c.User.ID, status)
	}
	if err == nil {
		var ok bool
		if ok, err = p.records.decide(r.Context(), x.ID, c.User.ID, status); err == nil && !ok {
			err = errProcessed // decided by a concurrent request
		}
	}
	if err != nil {
		fail(w, r, err, false)
		return
	}
	writeJSON(w, http.StatusOK, map[string]bool{"success": true}, false)
}

func (p *Plugin) decidable(x *record, userID, status string) error {
	switch {
	case x.ExpiresAt.Before(p.s.Now()):
		return errExpiredUserCode
	case x.Status != pending:
		return errProcessed
	case x.UserID == nil:
		return errNotClaimed
	case *x.UserID != userID:
		verb := "approve"
		if status == denied {
			verb = "deny"
		}
		return oerr(http.StatusForbidden, "access_denied", "You are not authorized to "+verb+" this device authorization")
	}
	return nil
}
