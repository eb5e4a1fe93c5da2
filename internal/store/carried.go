package store

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"time"
)

// CarriedKind is how a carried column's value is read: text, a boolean or a time.
type CarriedKind int

const (
	CarriedText CarriedKind = iota
	CarriedBool
	CarriedTime
)

// Carried is a plugin's column of "session" or "user" (admin's role, organization's
// activeOrganizationId) that is read with the session and its user in get-session's one query,
// so a plugin's answer fields cost no query of their own on the hot path.
type Carried struct {
	Name string
	Kind CarriedKind
}

// Carried values in Session.Extra and User.Extra are nil (NULL), a string, a bool, or a time as
// an RFC 3339 string in UTC: JSON-safe, so the Redis session cache carries them unchanged.

// CarrySessionColumns adds columns of "session" to every session read with its user.
func (s *Store) CarrySessionColumns(cols ...Carried) {
	s.carriedSession = append(s.carriedSession, cols...)
}

// CarryUserColumns adds columns of "user" to every session read with its user.
func (s *Store) CarryUserColumns(cols ...Carried) { s.carriedUser = append(s.carriedUser, cols...) }

// CarriedValues reads the carried columns of one session (table "session") or user ("user") by
// id, for a row that was not read through SessionAndUser; ErrNotFound when the row is gone.
func (s *Store) CarriedValues(ctx context.Context, table, id string) (map[string]any, error) {
	cols := s.carriedSession
	if table == "user" {
		cols = s.carriedUser
	}
	if len(cols) == 0 {
		return map[string]any{}, nil
	}
	vals := newCarriedScan(cols)
	err := s.queryRow(ctx, `select `+carriedList(cols, "t")+fmt.Sprintf(` from %q t where t."id" = ?`, table), id).Scan(vals.targets()...)
	if err != nil {
		if err = notFound(err); err == ErrNotFound {
			return nil, err
		}
		return nil, fmt.Errorf("%s: carried columns: %w", table, err)
	}
	return vals.values(), nil
}

// carriedList is the select list of cols on the table aliased alias, each led by a comma
// except the first.
func carriedList(cols []Carried, alias string) string {
	names := make([]string, len(cols))
	for i, c := range cols {
		names[i] = fmt.Sprintf(`%s.%q`, alias, c.Name)
	}
	return strings.Join(names, ", ")
}

// carriedScan holds the scan targets of carried columns.
type carriedScan struct {
	cols []Carried
	dest []any
}

func newCarriedScan(cols []Carried) *carriedScan {
	c := &carriedScan{cols: cols, dest: make([]any, len(cols))}
	for i, col := range cols {
		switch col.Kind {
		case CarriedBool:
			c.dest[i] = new(nullBool)
		case CarriedTime:
			c.dest[i] = new(nullTime)
		default:
			c.dest[i] = new(sql.NullString)
		}
	}
	return c
}

func (c *carriedScan) targets() []any { return c.dest }

// values is the scanned row as Extra holds it.
func (c *carriedScan) values() map[string]any {
	out := make(map[string]any, len(c.cols))
	for i, col := range c.cols {
		var v any
		switch x := c.dest[i].(type) {
		case *nullBool:
			if x.valid {
				v = bool(x.v)
			}
		case *nullTime:
			if x.Valid {
				v = x.Time.UTC().Format(time.RFC3339Nano)
			}
		case *sql.NullString:
			if x.Valid {
				v = x.String
			}
		}
		out[col.Name] = v
	}
	return out
}

// nullBool is a dbBool that may be NULL.
type nullBool struct {
	v     dbBool
	valid bool
}

func (n *nullBool) Scan(v any) error {
	if n.valid = v != nil; !n.valid {
		return nil
	}
	return n.v.Scan(v)
}
