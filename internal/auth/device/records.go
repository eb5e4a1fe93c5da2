package device

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/sellertrends/sellertrends/internal/store"
)

// record is a row of Better Auth's deviceCode table.
type record struct {
	ID, DeviceCode, UserCode, Status string
	UserID, ClientID, Scope          *string
	ExpiresAt                        time.Time
	LastPolledAt                     *time.Time
	PollingInterval                  *int64 // milliseconds
}

const recordColumns = `"id", "deviceCode", "userCode", "userId", "expiresAt", "status", "lastPolledAt", "pollingInterval", "clientId", "scope"`

// Statuses of a device authorization.
const (
	pending  = "pending"
	approved = "approved"
	denied   = "denied"
)

var errNoRecord = errors.New("device: no such code")

type records struct{ st *store.Store }

func (rs records) exec(ctx context.Context, q string, args ...any) (sql.Result, error) {
	return rs.st.DB().ExecContext(ctx, rs.st.Rebind(q), args...)
}

func (rs records) create(ctx context.Context, x *record) error {
	_, err := rs.exec(ctx, `insert into "deviceCode" (`+recordColumns+`) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		x.ID, x.DeviceCode, x.UserCode, x.UserID, rs.st.Time(x.ExpiresAt), x.Status, nil, x.PollingInterval, x.ClientID, x.Scope)
	return err
}

func (rs records) by(ctx context.Context, column, value string) (*record, error) {
	row := rs.st.DB().QueryRowContext(ctx, rs.st.Rebind(`select `+recordColumns+` from "deviceCode" where "`+column+`" = ?`), value)
	var x record
	var exp, polled any
	if err := row.Scan(&x.ID, &x.DeviceCode, &x.UserCode, &x.UserID, &exp, &x.Status, &polled, &x.PollingInterval, &x.ClientID, &x.Scope); err != nil {
		if errors.Is(err, sql.ErrNoRows) {
			return nil, errNoRecord
		}
		return nil, fmt.Errorf("device: read code: %w", err)
	}
	t, err := toTime(exp)
	if err != nil {
		return nil, err
	}
	x.ExpiresAt = t
	if polled != nil {
		t, err := toTime(polled)
		if err != nil {
			return nil, err
		}
		x.LastPolledAt = &t
	}
	return &x, nil
}

// toTime reads a date column as the driver hands it over (time.Time, or ISO text in SQLite).
func toTime(v any) (time.Time, error) {
	switch x := v.(type) {
	case time.Time:
		return x.UTC(), nil
	case string:
		return parseTime(x)
	case []byte:
		return parseTime(string(x))
	case int64:
		return time.UnixMilli(x).UTC(), nil
	}
	return time.Time{}, fmt.Errorf("device: cannot read %T as a time", v)
}

func parseTime(s string) (time.Time, error) {
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02 15:04:05.999999999Z07:00", "2006-01-02 15:04:05"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t.UTC(), nil
		}
	}
	return time.Time{}, fmt.Errorf("device: unrecognised time %q", s)
}

func (rs records) polled(ctx context.Context, id string, now time.Time) error {
	_, err := rs.exec(ctx, `update "deviceCode" set "lastPolledAt" = ? where "id" = ?`, rs.st.Time(now), id)
	return err
}

func (rs records) delete(ctx context.Context, id string) error {
	_, err := rs.exec(ctx, `delete from "deviceCode" where "id" = ?`, id)
	return err
}

// claim binds a pending, unclaimed code to the user who opened it; false when someone else
// was first (or it is no longer pending).
func (rs records) claim(ctx context.Context, id, userID string) (bool, error) {
	res, err := rs.exec(ctx, `update "deviceCode" set "userId" = ? where "id" = ? and "status" = ? and "userId" is null`, userID, id, pending)
	if err != nil {
		return false, err
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

// decide moves a pending code of userID to approved or denied; false when it was not pending.
func (rs records) decide(ctx context.Context, id, userID, status string) (bool, error) {
	res, err := rs.exec(ctx, `update "deviceCode" set "status" = ? where "id" = ? and "status" = ? and "userId" = ?`, status, id, pending, userID)
	if err != nil {
		return false, err
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

// consume deletes an approved code for clientID once: only one poll gets the token.
func (rs records) consume(ctx context.Context, id string, clientID *string) (bool, error) {
	q, args := `delete from "deviceCode" where "id" = ? and "status" = ?`, []any{id, approved}
	if clientID != nil {
		q, args = q+` and "clientId" = ?`, append(args, *clientID)
	}
	res, err := rs.exec(ctx, q, args...)
	if err != nil {
		return false, err
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

// sweep removes codes that expired more than an hour ago (a client that stopped polling never
// deletes its own).
func (rs records) sweep(ctx context.Context, now time.Time) error {
	_, err := rs.exec(ctx, `delete from "deviceCode" where "expiresAt" < ?`, rs.st.Time(now.Add(-time.Hour)))
	return err
}
