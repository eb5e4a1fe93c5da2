package alerts

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"net/url"

	"github.com/sellertrends/sellertrends/internal/store"
)

// unsubscribeKey derives the key of unsubscribe links from the app secret, so a signature made
// for anything else with that secret is never a valid unsubscribe token.
func unsubscribeKey(secret string) []byte {
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write([]byte("sellertrends alert unsubscribe v1"))
	return mac.Sum(nil)
}

func (n *Notifier) unsubscribeToken(userID string) string {
	mac := hmac.New(sha256.New, n.key)
	mac.Write([]byte(userID))
	return base64.RawURLEncoding.EncodeToString(mac.Sum(nil))
}

// UnsubscribeURL is the user's signed one-click unsubscribe link. It does not expire: an
// unsubscribe link in an old mail must still work.
func (n *Notifier) UnsubscribeURL(userID string) string {
	return n.base + UnsubscribePath + "?" + url.Values{"u": {userID}, "t": {n.unsubscribeToken(userID)}}.Encode()
}

// UnsubscribePath is where the unsubscribe links point (served by the trends API, no session).
const UnsubscribePath = "/api/alerts/unsubscribe"

// ValidUnsubscribe reports whether token is the user's unsubscribe token (constant-time compare).
func (n *Notifier) ValidUnsubscribe(userID, token string) bool {
	if userID == "" || token == "" {
		return false
	}
	return hmac.Equal([]byte(token), []byte(n.unsubscribeToken(userID)))
}

// ErrBadToken is Unsubscribe's answer to a token that is not the user's.
var ErrBadToken = errors.New("alerts: invalid unsubscribe token")

// Unsubscribe turns the user's digests off when token is theirs; a user who no longer exists
// answers store.ErrNotFound.
func (n *Notifier) Unsubscribe(ctx context.Context, userID, token string) error {
	if !n.ValidUnsubscribe(userID, token) {
		return ErrBadToken
	}
	if _, err := n.st.UserByID(ctx, userID); err != nil {
		return err
	}
	return n.st.SetAlertFrequency(ctx, userID, store.AlertsOff, n.now())
}
