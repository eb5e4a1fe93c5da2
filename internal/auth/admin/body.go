package admin

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/sellertrends/sellertrends/internal/httpx"
)

// id is a body field Better Auth reads with z.coerce.string(): a string, or a number or
// boolean turned into one.
type id struct {
	Value string
	Set   bool
}

func (v *id) UnmarshalJSON(b []byte) error {
	if bytes.Equal(b, []byte("null")) {
		return nil
	}
	var s string
	if err := json.Unmarshal(b, &s); err == nil {
		v.Value, v.Set = s, true
		return nil
	}
	var n json.Number
	if err := json.Unmarshal(b, &n); err == nil {
		v.Value, v.Set = n.String(), true
		return nil
	}
	var t bool
	if err := json.Unmarshal(b, &t); err == nil {
		v.Value, v.Set = strconv.FormatBool(t), true
		return nil
	}
	return fmt.Errorf("expected string")
}

// roles is a role field: one role or a list of them, stored comma-separated.
type roles struct {
	List []string
	Set  bool
	Bad  bool // neither a string nor a list of strings (INVALID_ROLE_TYPE)
}

func (v *roles) UnmarshalJSON(b []byte) error {
	v.Set = true
	if bytes.Equal(b, []byte("null")) {
		v.Bad = true
		return nil
	}
	var s string
	if err := json.Unmarshal(b, &s); err == nil {
		v.List = []string{s}
		return nil
	}
	var list []any
	if err := json.Unmarshal(b, &list); err != nil {
		v.Bad = true
		return nil
	}
	for _, x := range list {
		s, ok := x.(string)
		if !ok {
			v.Bad = true
			return nil
		}
		v.List = append(v.List, s)
	}
	return nil
}

// check refuses a role that is not a string (INVALID_ROLE_TYPE) or names no role we have.
func (v roles) check() error {
	if v.Bad || len(v.List) == 0 {
		return errInvalidRoleType
	}
	for _, r := range v.List {
		if _, ok := Roles[r]; !ok {
			return errNonExistentRole
		}
	}
	return nil
}

func (v roles) String() string { return strings.Join(v.List, ",") }

// fields collects zod-style validation messages.
type fields []string

func (f *fields) required(name string, set bool) {
	if !set {
		*f = append(*f, fmt.Sprintf("[body.%s] Invalid input: expected string, received undefined", name))
	}
}

func (f *fields) add(format string, args ...any) { *f = append(*f, fmt.Sprintf(format, args...)) }

func (f fields) err() error {
	if len(f) == 0 {
		return nil
	}
	return httpx.BadRequest(strings.Join(f, "; "))
}

// maxField caps free-text fields (names, reasons, ids) so no body is expensive to store.
const maxField = 2048
