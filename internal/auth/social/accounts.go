package social

import (
	"context"
	"strings"
	"time"

	"golang.org/x/oauth2"

	"github.com/sellertrends/sellertrends/internal/auth"
	"github.com/sellertrends/sellertrends/internal/auth/social/providers"
	"github.com/sellertrends/sellertrends/internal/store"
)

// accountByProvider finds the account a provider's user id is linked as, or store.ErrNotFound.
func (p *plugin) accountByProvider(ctx context.Context, providerID, accountID string) (*store.Account, error) {
	st := p.s.Store()
	var userID string
	err := st.DB().QueryRowContext(ctx, st.Rebind(`select "userId" from "account" where "providerId" = ? and "accountId" = ?`),
		providerID, accountID).Scan(&userID)
	if err != nil {
		if strings.Contains(err.Error(), "no rows") {
			return nil, store.ErrNotFound
		}
		return nil, err
	}
	all, err := st.AccountsByUser(ctx, userID)
	if err != nil {
		return nil, err
	}
	for _, a := range all {
		if a.ProviderID == providerID && a.AccountID == accountID {
			return a, nil
		}
	}
	return nil, store.ErrNotFound
}

// tokenFields are the account columns a token answer fills (spec §7), encrypted at rest when
// AUTH_ENCRYPT_OAUTH_TOKENS is on.
type tokenFields struct {
	access, refresh, id   *string
	accessExp, refreshExp *time.Time
	scope                 *string
}

func (p *plugin) fields(tok *oauth2.Token) tokenFields {
	var f tokenFields
	f.access = p.seal(tok.AccessToken)
	f.refresh = p.seal(tok.RefreshToken)
	if id, _ := tok.Extra("id_token").(string); id != "" {
		f.id = p.seal(id)
	}
	if !tok.Expiry.IsZero() {
		e := tok.Expiry
		f.accessExp = &e
	}
	if secs := numberExtra(tok, "refresh_token_expires_in"); secs > 0 {
		e := p.s.Now().Add(time.Duration(secs) * time.Second)
		f.refreshExp = &e
	}
	if sc, _ := tok.Extra("scope").(string); sc != "" {
		joined := strings.Join(strings.Fields(strings.ReplaceAll(sc, ",", " ")), ",")
		f.scope = &joined
	}
	return f
}

func numberExtra(tok *oauth2.Token, key string) int64 {
	switch v := tok.Extra(key).(type) {
	case float64:
		return int64(v)
	case string:
		var n int64
		for _, c := range v {
			if c < '0' || c > '9' {
				return 0
			}
			n = n*10 + int64(c-'0')
		}
		return n
	}
	return 0
}

func (p *plugin) createAccount(ctx context.Context, pr *providers.Provider, info *providers.UserInfo, tok *oauth2.Token, userID string) error {
	f := p.fields(tok)
	now := p.s.Now()
	return p.s.Store().CreateAccount(ctx, &store.Account{ID: auth.NewID(), AccountID: info.ID, ProviderID: pr.ID, UserID: userID,
		AccessToken: f.access, RefreshToken: f.refresh, IDToken: f.id, AccessTokenExpiresAt: f.accessExp,
		RefreshTokenExpiresAt: f.refreshExp, Scope: f.scope, CreatedAt: now, UpdatedAt: now})
}

// updateTokens stores a new token answer on an account; a missing refresh token, id token or
// scope keeps the stored one (providers often omit them on refresh).
func (p *plugin) updateTokens(ctx context.Context, accountID string, tok *oauth2.Token) error {
	st := p.s.Store()
	f := p.fields(tok)
	q := `update "account" set "accessToken" = ?, "accessTokenExpiresAt" = ?, "updatedAt" = ?`
	args := []any{f.access, optTime(st, f.accessExp), st.Time(p.s.Now())}
	if f.refresh != nil {
		q += `, "refreshToken" = ?, "refreshTokenExpiresAt" = ?`
		args = append(args, f.refresh, optTime(st, f.refreshExp))
	}
	if f.id != nil {
		q += `, "idToken" = ?`
		args = append(args, f.id)
	}
	if f.scope != nil {
		q += `, "scope" = ?`
		args = append(args, f.scope)
	}
	_, err := st.DB().ExecContext(ctx, st.Rebind(q+` where "id" = ?`), append(args, accountID)...)
	return err
}

func optTime(st *store.Store, t *time.Time) any {
	if t == nil {
		return nil
	}
	return st.Time(*t)
}

// seal encrypts a token for storage when encryption is on; "" stays absent.
func (p *plugin) seal(v string) *string {
	if v == "" {
		return nil
	}
	if p.enc != nil {
		v = p.enc.encrypt(v)
	}
	return &v
}

// open reads a stored token back.
func (p *plugin) open(v *string) string {
	if v == nil {
		return ""
	}
	if p.enc != nil {
		return p.enc.decrypt(*v)
	}
	return *v
}
