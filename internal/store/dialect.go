package store

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/pressly/goose/v3"
)

// dialect holds everything that differs between SQLite and PostgreSQL.
type dialect int

const (
	sqlite dialect = iota
	postgres
)

type timeValue = time.Time

func (d dialect) dir() string {
	if d == postgres {
		return "postgres"
	}
	return "sqlite"
}

func (d dialect) goose() goose.Dialect {
	if d == postgres {
		return goose.DialectPostgres
	}
	return goose.DialectSQLite3
}

// rebind turns ? placeholders into $n for PostgreSQL. Queries never contain a literal '?'.
func (d dialect) rebind(q string) string {
	if d != postgres || !strings.Contains(q, "?") {
		return q
	}
	var b strings.Builder
	n := 0
	for _, r := range q {
		if r == '?' {
			n++
			b.WriteString("$" + strconv.Itoa(n))
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// betterAuthTime is how Better Auth's SQLite adapter writes dates: ISO 8601, milliseconds, Z.
const betterAuthTime = "2006-01-02T15:04:05.000Z"

// timeArg is the bind value of a date column.
func (d dialect) timeArg(t time.Time) any {
	if d == sqlite {
		return t.UTC().Format(betterAuthTime)
	}
	return t.UTC()
}

// boolArg: Better Auth stores booleans as 0/1 integers in SQLite.
func (d dialect) boolArg(b bool) any {
	if d == sqlite {
		if b {
			return 1
		}
		return 0
	}
	return b
}

// dbTime scans a date column whichever way the driver hands it over.
type dbTime struct{ time.Time }

func (t *dbTime) Scan(v any) error {
	switch x := v.(type) {
	case time.Time:
		t.Time = x.UTC()
	case string:
		return t.parse(x)
	case []byte:
		return t.parse(string(x))
	case int64: // epoch milliseconds, as some adapters write
		t.Time = time.UnixMilli(x).UTC()
	default:
		return fmt.Errorf("store: cannot scan %T into a time", v)
	}
	return nil
}

func (t *dbTime) parse(s string) error {
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02 15:04:05.999999999Z07:00", "2006-01-02 15:04:05"} {
		if p, err := time.Parse(layout, s); err == nil {
			t.Time = p.UTC()
			return nil
		}
	}
	if ms, err := strconv.ParseInt(s, 10, 64); err == nil { // epoch milliseconds written as text
		t.Time = time.UnixMilli(ms).UTC()
		return nil
	}
	return fmt.Errorf("store: unrecognised time %q", s)
}

// nullTime scans an optional date column.
type nullTime struct {
	Time  time.Time
	Valid bool
}

func (t *nullTime) Scan(v any) error {
	if v == nil {
		t.Valid = false
		return nil
	}
	var d dbTime
	if err := d.Scan(v); err != nil {
		return err
	}
	t.Time, t.Valid = d.Time, true
	return nil
}

// dbBool scans 0/1 integers (SQLite) and booleans (PostgreSQL).
type dbBool bool

func (b *dbBool) Scan(v any) error {
	switch x := v.(type) {
	case bool:
		*b = dbBool(x)
	case int64:
		*b = x != 0
	case []byte:
		*b = string(x) == "1" || string(x) == "true"
	case string:
		*b = x == "1" || x == "true"
	default:
		return fmt.Errorf("store: cannot scan %T into a bool", v)
	}
	return nil
}
