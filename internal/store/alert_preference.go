package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// Alert frequencies: a digest after each import, one a week, or none.
const (
	AlertsAfterImport = "import"
	AlertsWeekly      = "weekly"
	AlertsOff         = "off"
)

// AlertPreference is a user's choice of alert digests. Threshold is how far a watched term's
// rank must move to be listed, in percent of its previous rank.
type AlertPreference struct {
	Frequency string `json:"frequency"`
	Threshold int    `json:"threshold"`
}

// DefaultAlertPreference applies to users who never chose: a digest after each import, listing
// rank moves of 20% or more.
var DefaultAlertPreference = AlertPreference{Frequency: AlertsAfterImport, Threshold: 20}

// AlertRecipient is a user who may get a digest, with their preference.
type AlertRecipient struct {
	UserID, Email, Name string
	AlertPreference
	Workspaces []string // WeeklyAlertRecipients: their workspaces that watch something
}

// AlertPreference returns the user's preference, or the default when they never chose.
func (s *Store) AlertPreference(ctx context.Context, userID string) (AlertPreference, error) {
	p := DefaultAlertPreference
	err := s.queryRow(ctx, `select "frequency", "threshold" from "alertPreference" where "userId" = ?`, userID).Scan(&p.Frequency, &p.Threshold)
	if errors.Is(err, sql.ErrNoRows) {
		return DefaultAlertPreference, nil
	}
	if err != nil {
		return p, fmt.Errorf("alert preference: get: %w", err)
	}
	return p, nil
}

// SetAlertPreference stores the user's preference (the caller validates it).
func (s *Store) SetAlertPreference(ctx context.Context, userID string, p AlertPreference, now time.Time) error {
	_, err := s.exec(ctx, `insert into "alertPreference" ("userId", "frequency", "threshold", "updatedAt") values (?, ?, ?, ?)
		on conflict ("userId") do update set "frequency" = excluded."frequency", "threshold" = excluded."threshold", "updatedAt" = excluded."updatedAt"`,
		userID, p.Frequency, p.Threshold, s.dialect.timeArg(now))
	if err != nil {
		return fmt.Errorf("alert preference: set: %w", err)
	}
	return nil
}

// SetAlertFrequency changes only the frequency (unsubscribing keeps the threshold).
func (s *Store) SetAlertFrequency(ctx context.Context, userID, frequency string, now time.Time) error {
	_, err := s.exec(ctx, `insert into "alertPreference" ("userId", "frequency", "threshold", "updatedAt") values (?, ?, ?, ?)
		on conflict ("userId") do update set "frequency" = excluded."frequency", "updatedAt" = excluded."updatedAt"`,
		userID, frequency, DefaultAlertPreference.Threshold, s.dialect.timeArg(now))
	if err != nil {
		return fmt.Errorf("alert preference: set frequency: %w", err)
	}
	return nil
}

// AlertRecipients lists the members of a workspace whose frequency (the default for those who
// never chose) is frequency.
func (s *Store) AlertRecipients(ctx context.Context, workspaceID, frequency string) ([]AlertRecipient, error) {
	rows, err := s.query(ctx, `select u."id", u."email", u."name", coalesce(p."frequency", ?), coalesce(p."threshold", ?)
		from `+s.workspaceMembers()+` m join "user" u on u."id" = m."userId" left join "alertPreference" p on p."userId" = u."id"
		where m."workspaceId" = ? and coalesce(p."frequency", ?) = ? order by u."id"`,
		DefaultAlertPreference.Frequency, DefaultAlertPreference.Threshold, workspaceID, DefaultAlertPreference.Frequency, frequency)
	if err != nil {
		return nil, fmt.Errorf("alert preference: recipients: %w", err)
	}
	defer rows.Close()
	out := []AlertRecipient{}
	for rows.Next() {
		var r AlertRecipient
		if err := rows.Scan(&r.UserID, &r.Email, &r.Name, &r.Frequency, &r.Threshold); err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

// WeeklyAlertRecipients lists the users who chose a weekly digest, each with the workspaces they
// belong to that watch at least one item.
func (s *Store) WeeklyAlertRecipients(ctx context.Context) ([]AlertRecipient, error) {
	rows, err := s.query(ctx, `select u."id", u."email", u."name", p."frequency", p."threshold", m."workspaceId"
		from "alertPreference" p join "user" u on u."id" = p."userId" join `+s.workspaceMembers()+` m on m."userId" = u."id"
		where p."frequency" = ? and exists (select 1 from "watchlistItem" w where w."workspaceId" = m."workspaceId")
		order by u."id", m."workspaceId"`, AlertsWeekly)
	if err != nil {
		return nil, fmt.Errorf("alert preference: weekly recipients: %w", err)
	}
	defer rows.Close()
	out := []AlertRecipient{}
	for rows.Next() {
		var r AlertRecipient
		var ws string
		if err := rows.Scan(&r.UserID, &r.Email, &r.Name, &r.Frequency, &r.Threshold, &ws); err != nil {
			return nil, err
		}
		if n := len(out); n > 0 && out[n-1].UserID == r.UserID {
			out[n-1].Workspaces = append(out[n-1].Workspaces, ws)
			continue
		}
		r.Workspaces = []string{ws}
		out = append(out, r)
	}
	return out, rows.Err()
}
