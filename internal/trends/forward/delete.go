package forward

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"time"
)

// DeletePath is where the trends owner takes an account's deletion from a forwarding server:
// the account's datasets live in the owner's DuckDB, which no other process may open.
const DeletePath = "/api/internal/delete-user-data"

// signatureHeader carries HMAC-SHA256(AUTH_SECRET, purpose, user id, unix time); every server of
// a deployment shares AUTH_SECRET already (it signs the session cookies they all read).
const signatureHeader = "X-Sellertrends-Signature"

// maxSkew is how old (or early) a signed deletion may be: servers' clocks are NTP-close.
const maxSkew = 5 * time.Minute

type deleteRequest struct {
	UserID    string `json:"userId"`
	Timestamp int64  `json:"timestamp"`
}

func sign(secret []byte, req deleteRequest) string {
	mac := hmac.New(sha256.New, secret)
	fmt.Fprintf(mac, "delete-user-data\n%s\n%d", req.UserID, req.Timestamp)
	return hex.EncodeToString(mac.Sum(nil))
}

// DeleteUserData asks the owner to delete everything the account owns on the trends side (its
// workspaces, datasets, watchlists, settings); a forwarding server runs it as its OnUserDeleted
// hook. An error (the owner unreachable, say) stops the deletion, so nothing is left behind.
func (p *Proxy) DeleteUserData(ctx context.Context, userID string) error {
	req := deleteRequest{UserID: userID, Timestamp: time.Now().Unix()}
	body, _ := json.Marshal(req)
	hr, err := http.NewRequestWithContext(ctx, http.MethodPost, p.owner.String()+DeletePath, bytes.NewReader(body))
	if err != nil {
		return err
	}
	hr.Header.Set("Content-Type", "application/json")
	hr.Header.Set(signatureHeader, sign(p.secret, req))
	client := &http.Client{Transport: p.client.Transport, Timeout: 2 * time.Minute} // a big workspace takes a while
	res, err := client.Do(hr)
	if err != nil {
		return fmt.Errorf("delete user data on the trends owner: %w", err)
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusNoContent {
		msg, _ := io.ReadAll(io.LimitReader(res.Body, 512))
		return fmt.Errorf("delete user data on the trends owner: %s %s", res.Status, msg)
	}
	return nil
}

// DeleteHandler is the owner's side of DeleteUserData: it checks the signature (in constant
// time) and the timestamp, then runs del.
func DeleteHandler(secret []byte, del func(ctx context.Context, userID string) error) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req deleteRequest
		if err := json.NewDecoder(io.LimitReader(r.Body, 4096)).Decode(&req); err != nil || req.UserID == "" {
			http.Error(w, "bad request", http.StatusBadRequest)
			return
		}
		skew := time.Since(time.Unix(req.Timestamp, 0))
		want := sign(secret, req)
		if !hmac.Equal([]byte(want), []byte(r.Header.Get(signatureHeader))) || skew > maxSkew || skew < -maxSkew {
			http.Error(w, "forbidden", http.StatusForbidden)
			return
		}
		if err := del(r.Context(), req.UserID); err != nil {
			http.Error(w, "could not delete: "+strconv.Quote(err.Error()), http.StatusInternalServerError)
			return
		}
		w.WriteHeader(http.StatusNoContent)
	})
}
