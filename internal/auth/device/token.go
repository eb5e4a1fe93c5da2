package device

import (
	"errors"
	"net/http"

	"github.com/sellertrends/sellertrends/internal/auth"
	"github.com/sellertrends/sellertrends/internal/httpx"
	"github.com/sellertrends/sellertrends/internal/store"
)

const grantType = "urn:ietf:params:oauth:grant-type:device_code"

// Error descriptions of the token endpoint (Better Auth's DEVICE_AUTHORIZATION_ERROR_CODES).
var (
	errInvalidDeviceCode = oerr(http.StatusBadRequest, "invalid_grant", "Invalid device code")
	errClientMismatch    = oerr(http.StatusBadRequest, "invalid_grant", "Client ID mismatch")
	errSlowDown          = oerr(http.StatusBadRequest, "slow_down", "Polling too frequently")
	errExpiredDevice     = oerr(http.StatusBadRequest, "expired_token", "Device code has expired")
	errPending           = oerr(http.StatusBadRequest, "authorization_pending", "Authorization pending")
	errDenied            = oerr(http.StatusBadRequest, "access_denied", "Access denied")
	errBadStatus         = oerr(http.StatusInternalServerError, "server_error", "Invalid device code status")
	errNoUser            = oerr(http.StatusInternalServerError, "server_error", "User not found")
)

// POST /device/token {grant_type, device_code, client_id}: the RFC 8628 poll. Pending, too
// early, expired and denied codes answer their OAuth errors; an approved code is consumed once
// and answers a session token (the bearer plugin accepts it on every route).
func (p *Plugin) token(w http.ResponseWriter, r *http.Request) {
	ps, err := readParams(w, r, "grant_type", "device_code", "client_id")
	if err == nil {
		err = ps.required("grant_type", "device_code", "client_id")
		if gt := ps["grant_type"]; gt != nil && *gt != grantType {
			err = errInvalidBody{`[body.grant_type] Invalid input: expected "` + grantType + `"`}
		}
	}
	var routerErr *httpx.Error
	if errors.As(err, &routerErr) {
		auth.WriteError(w, r, routerErr) // the body is not JSON: the router's answer
		return
	}
	if err != nil {
		auth.WriteError(w, r, httpx.BadRequest(err.Error()))
		return
	}
	ctx := r.Context()
	x, err := p.records.by(ctx, "deviceCode", ps.get("device_code"))
	if errors.Is(err, errNoRecord) {
		err = errInvalidDeviceCode
	}
	if err == nil {
		err = p.poll(r, x, ps.get("client_id"))
	}
	if err != nil {
		fail(w, r, err, true)
		return
	}
	u, err := p.s.Store().UserByID(ctx, *x.UserID)
	if errors.Is(err, store.ErrNotFound) {
		err = errNoUser
	}
	if err != nil {
		fail(w, r, err, true)
		return
	}
	if ok, err := p.records.consume(ctx, x.ID, x.ClientID); err != nil || !ok {
		if err == nil {
			err = errInvalidDeviceCode // another poll consumed it first
		}
		fail(w, r, err, true)
		return
	}
	sess, err := p.s.CreateSession(ctx, r, u, false) // refuses banned users
	if err != nil {
		fail(w, r, err, true)
		return
	}
	scope := ""
	if x.Scope != nil {
		scope = *x.Scope
	}
	writeJSON(w, http.StatusOK, map[string]any{"access_token": sess.Token, "token_type": "Bearer",
		"expires_in": int(sess.ExpiresAt.Sub(p.s.Now()).Seconds()), "scope": scope}, true)
}

// poll runs the checks of one poll in Better Auth's order, recording the poll time.
func (p *Plugin) poll(r *http.Request, x *record, clientID string) error {
	if x.ClientID != nil && !auth.EqualConstantTime(*x.ClientID, clientID) {
		return errClientMismatch
	}
	now := p.s.Now()
	if x.LastPolledAt != nil && x.PollingInterval != nil && now.Sub(*x.LastPolledAt).Milliseconds() < *x.PollingInterval {
		return errSlowDown
	}
	ctx := r.Context()
	if err := p.records.polled(ctx, x.ID, now); err != nil {
		return err
	}
	if x.ExpiresAt.Before(now) {
		if err := p.records.delete(ctx, x.ID); err != nil {
			return err
		}
		return errExpiredDevice
	}
	switch {
	case x.Status == pending:
		return errPending
	case x.Status == denied:
		if err := p.records.delete(ctx, x.ID); err != nil {
			return err
		}
		return errDenied
	case x.Status != approved || x.UserID == nil:
		return errBadStatus
	}
	return nil
}
