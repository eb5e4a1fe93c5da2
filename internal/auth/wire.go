package auth

import (
	"bytes"
	"encoding/json"
	"time"

	"github.com/sellertrends/sellertrends/internal/store"
)

// isoTime marshals as JavaScript's Date.toJSON (milliseconds, Z), the form Better Auth sends.
type isoTime time.Time

func (t isoTime) MarshalJSON() ([]byte, error) {
	return []byte(`"` + time.Time(t).UTC().Format("2006-01-02T15:04:05.000Z") + `"`), nil
}

func (t *isoTime) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	p, err := time.Parse(time.RFC3339Nano, s)
	*t = isoTime(p)
	return err
}

// UserJSON is a user as Better Auth returns it (same keys, same order).
type UserJSON struct {
	Name          string  `json:"name"`
	Email         string  `json:"email"`
	EmailVerified bool    `json:"emailVerified"`
	Image         *string `json:"image"`
	CreatedAt     isoTime `json:"createdAt"`
	UpdatedAt     isoTime `json:"updatedAt"`
	ID            string  `json:"id"`
}

// SessionJSON is a session as Better Auth returns it.
type SessionJSON struct {
	ExpiresAt isoTime `json:"expiresAt"`
	Token     string  `json:"token"`
	CreatedAt isoTime `json:"createdAt"`
	UpdatedAt isoTime `json:"updatedAt"`
	IPAddress *string `json:"ipAddress"`
	UserAgent *string `json:"userAgent"`
	UserID    string  `json:"userId"`
	ID        string  `json:"id"`
}

func userJSON(u *store.User) UserJSON {
	return UserJSON{Name: u.Name, Email: u.Email, EmailVerified: u.EmailVerified, Image: u.Image,
		CreatedAt: isoTime(u.CreatedAt), UpdatedAt: isoTime(u.UpdatedAt), ID: u.ID}
}

func sessionJSON(x *store.Session) SessionJSON {
	return SessionJSON{ExpiresAt: isoTime(x.ExpiresAt), Token: x.Token, CreatedAt: isoTime(x.CreatedAt), UpdatedAt: isoTime(x.UpdatedAt),
		IPAddress: x.IPAddress, UserAgent: x.UserAgent, UserID: x.UserID, ID: x.ID}
}

func (u UserJSON) toStore() *store.User {
	return &store.User{ID: u.ID, Name: u.Name, Email: u.Email, EmailVerified: u.EmailVerified, Image: u.Image,
		CreatedAt: time.Time(u.CreatedAt), UpdatedAt: time.Time(u.UpdatedAt)}
}

// SessionResponse is get-session's answer.
type SessionResponse struct {
	Session SessionJSON `json:"session"`
	User    UserJSON    `json:"user"`
}

// compactJSON marshals like JavaScript's JSON.stringify: no HTML escaping, no trailing newline.
// The session_data signature covers these exact bytes.
func compactJSON(v any) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)
	return bytes.TrimRight(b.Bytes(), "\n")
}
