package admin

import (
	"bytes"
	"encoding/json"
	"time"
	"unicode/utf8"
)

// patch is the user data create-user and update-user accept (Better Auth spreads its data
// into the user row): core columns, then the plugin's. Keys we do not store are ignored, as
// Better Auth's adapter drops fields outside the schema. A pointer to nil means "set NULL".
type patch struct {
	Name          *string
	Email         *string
	EmailVerified *bool
	Image         **string
	Banned        *bool
	BanReason     **string
	BanExpires    **time.Time
}

func parsePatch(data map[string]json.RawMessage) (patch, error) {
	var p patch
	var f fields
	if v, ok := data["name"]; ok {
		p.Name = str(&f, "name", v)
	}
	if v, ok := data["email"]; ok {
		p.Email = str(&f, "email", v)
	}
	if v, ok := data["emailVerified"]; ok {
		p.EmailVerified = boolean(&f, "emailVerified", v)
	}
	if v, ok := data["image"]; ok {
		p.Image = nullable(&f, "image", v)
	}
	if v, ok := data["banned"]; ok {
		p.Banned = boolean(&f, "banned", v)
	}
	if v, ok := data["banReason"]; ok {
		p.BanReason = nullable(&f, "banReason", v)
	}
	if v, ok := data["banExpires"]; ok {
		p.BanExpires = date(&f, "banExpires", v)
	}
	return p, f.err()
}

func isNull(v json.RawMessage) bool { return bytes.Equal(bytes.TrimSpace(v), []byte("null")) }

func str(f *fields, name string, v json.RawMessage) *string {
	var s string
	if err := json.Unmarshal(v, &s); err != nil || isNull(v) {
		f.add("[body.data.%s] Invalid input: expected string", name)
		return nil
	}
	if utf8.RuneCountInString(s) > maxField {
		f.add("[body.data.%s] Too big: expected string to have <=%d characters", name, maxField)
		return nil
	}
	return &s
}

func nullable(f *fields, name string, v json.RawMessage) **string {
	if isNull(v) {
		var none *string
		return &none
	}
	s := str(f, name, v)
	if s == nil {
		return nil
	}
	return &s
}

func boolean(f *fields, name string, v json.RawMessage) *bool {
	var b bool
	if err := json.Unmarshal(v, &b); err != nil || isNull(v) {
		f.add("[body.data.%s] Invalid input: expected boolean", name)
		return nil
	}
	return &b
}

func date(f *fields, name string, v json.RawMessage) **time.Time {
	if isNull(v) {
		var none *time.Time
		return &none
	}
	var s string
	if json.Unmarshal(v, &s) == nil {
		if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
			t = t.UTC()
			tp := &t
			return &tp
		}
	}
	f.add("[body.data.%s] Invalid input: expected date", name)
	return nil
}

// banKeys says whether data touches the ban columns (which need the ban permission).
func banKeys(data map[string]json.RawMessage) bool {
	_, a := data["banned"]
	_, b := data["banReason"]
	_, c := data["banExpires"]
	return a || b || c
}

// adminSet is the patch's plugin columns as update takes them.
func (p patch) adminSet(set map[string]any) map[string]any {
	if p.Banned != nil {
		set["banned"] = *p.Banned
	}
	if p.BanReason != nil {
		set["banReason"] = *p.BanReason
	}
	if p.BanExpires != nil {
		if *p.BanExpires == nil {
			set["banExpires"] = nil
		} else {
			set["banExpires"] = **p.BanExpires
		}
	}
	return set
}
