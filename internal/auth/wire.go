package auth

import (
	"bytes"
	"encoding/json"
	"sort"
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

// UserJSON is a user as Better Auth returns it (same keys, same order). Extra holds the Fields
// plugins add to the user (the admin plugin's role, banned, ...), written after the core ones.
type UserJSON struct {
	Name          string         `json:"name"`
	Email         string         `json:"email"`
	EmailVerified bool           `json:"emailVerified"`
	Image         *string        `json:"image"`
	CreatedAt     isoTime        `json:"createdAt"`
	UpdatedAt     isoTime        `json:"updatedAt"`
	ID            string         `json:"id"`
	Extra         map[string]any `json:"-"`
}

// SessionJSON is a session as Better Auth returns it. Extra holds plugin Fields
// (activeOrganizationId, impersonatedBy, ...).
type SessionJSON struct {
	ExpiresAt isoTime        `json:"expiresAt"`
	Token     string         `json:"token"`
	CreatedAt isoTime        `json:"createdAt"`
	UpdatedAt isoTime        `json:"updatedAt"`
	IPAddress *string        `json:"ipAddress"`
	UserAgent *string        `json:"userAgent"`
	UserID    string         `json:"userId"`
	ID        string         `json:"id"`
	Extra     map[string]any `json:"-"`
}

type userAlias UserJSON
type sessionAlias SessionJSON

func (u UserJSON) MarshalJSON() ([]byte, error) {
	return withExtra(compactJSON(userAlias(u)), u.Extra)
}

func (x SessionJSON) MarshalJSON() ([]byte, error) {
	return withExtra(compactJSON(sessionAlias(x)), x.Extra)
}

func (u *UserJSON) UnmarshalJSON(b []byte) error {
	if err := json.Unmarshal(b, (*userAlias)(u)); err != nil {
		return err
	}
	u.Extra = extraKeys(b, userKeys)
	return nil
}

func (x *SessionJSON) UnmarshalJSON(b []byte) error {
	if err := json.Unmarshal(b, (*sessionAlias)(x)); err != nil {
		return err
	}
	x.Extra = extraKeys(b, sessionKeys)
	return nil
}

var (
	userKeys    = map[string]bool{"name": true, "email": true, "emailVerified": true, "image": true, "createdAt": true, "updatedAt": true, "id": true}
	sessionKeys = map[string]bool{"expiresAt": true, "token": true, "createdAt": true, "updatedAt": true, "ipAddress": true, "userAgent": true, "userId": true, "id": true}
)

// withExtra appends extra's keys (sorted, so the bytes are stable) to the JSON object obj.
func withExtra(obj []byte, extra map[string]any) ([]byte, error) {
	if len(extra) == 0 {
		return obj, nil
	}
	keys := make([]string, 0, len(extra))
	for k := range extra {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	out := append([]byte{}, obj[:len(obj)-1]...)
	for _, k := range keys {
		out = append(out, ',')
		out = append(out, compactJSON(k)...)
		out = append(out, ':')
		out = append(out, compactJSON(extra[k])...)
	}
	return append(out, '}'), nil
}

// extraKeys returns the keys of the JSON object b that are not in known (nil when none).
func extraKeys(b []byte, known map[string]bool) map[string]any {
	var all map[string]any
	if json.Unmarshal(b, &all) != nil {
		return nil
	}
	var extra map[string]any
	for k, v := range all {
		if !known[k] {
			if extra == nil {
				extra = map[string]any{}
			}
			extra[k] = v
		}
	}
	return extra
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
