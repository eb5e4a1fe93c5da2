package billing

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"time"

	"github.com/sellertrends/sellertrends/internal/plan"
	"github.com/sellertrends/sellertrends/internal/store"
)

//go:embed migrations
var migrations embed.FS

// Subscription is our record of a Polar subscription: which workspace it pays for and whether
// it grants its plan now.
type Subscription struct {
	ID                string
	WorkspaceID       string
	UserID            string
	ProductID         string
	Plan              plan.Name
	Status            string // Polar's: active, trialing, past_due, canceled, ...
	CancelAtPeriodEnd bool
	CurrentPeriodEnd  *time.Time
	ModifiedAt        time.Time // Polar's modified_at: the newest state wins
}

// grants reports whether the subscription gives its plan now.
func (s Subscription) grants() bool { return s.Status == "active" || s.Status == "trialing" }

type subscriptions struct{ st *store.Store }

func (r subscriptions) q(s string) string { return r.st.Rebind(s) }

// save writes sub unless the stored state is newer (events arrive out of order). It reports
// whether it wrote.
func (r subscriptions) save(ctx context.Context, sub Subscription, now time.Time) (bool, error) {
	db := r.st.DB()
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return false, err
	}
	defer tx.Rollback()
	var stored int64
	err = tx.QueryRowContext(ctx, r.q(`select "modifiedAt" from "billingSubscription" where "id" = ?`), sub.ID).Scan(&stored)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		_, err = tx.ExecContext(ctx, r.q(`insert into "billingSubscription" ("id", "workspaceId", "userId", "productId", "plan", "status", "cancelAtPeriodEnd", "currentPeriodEnd", "modifiedAt", "updatedAt") values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`),
			sub.ID, sub.WorkspaceID, sub.UserID, sub.ProductID, string(sub.Plan), sub.Status, sub.CancelAtPeriodEnd, ms(sub.CurrentPeriodEnd), sub.ModifiedAt.UnixMilli(), r.st.Time(now))
	case err != nil:
		return false, err
	case stored > sub.ModifiedAt.UnixMilli():
		return false, nil
	default:
		_, err = tx.ExecContext(ctx, r.q(`update "billingSubscription" set "workspaceId" = ?, "userId" = ?, "productId" = ?, "plan" = ?, "status" = ?, "cancelAtPeriodEnd" = ?, "currentPeriodEnd" = ?, "modifiedAt" = ?, "updatedAt" = ? where "id" = ?`),
			sub.WorkspaceID, sub.UserID, sub.ProductID, string(sub.Plan), sub.Status, sub.CancelAtPeriodEnd, ms(sub.CurrentPeriodEnd), sub.ModifiedAt.UnixMilli(), r.st.Time(now), sub.ID)
	}
	if err != nil {
		return false, fmt.Errorf("billing: save subscription: %w", err)
	}
	return true, tx.Commit()
}

// revoke ends a subscription's grant (a refunded order) unless a newer state is stored.
func (r subscriptions) revoke(ctx context.Context, id string, at time.Time, now time.Time) error {
	_, err := r.st.DB().ExecContext(ctx, r.q(`update "billingSubscription" set "status" = 'revoked', "modifiedAt" = ?, "updatedAt" = ? where "id" = ? and "modifiedAt" <= ?`),
		at.UnixMilli(), r.st.Time(now), id, at.UnixMilli())
	return err
}

// ofWorkspace lists a workspace's subscriptions, newest first.
func (r subscriptions) ofWorkspace(ctx context.Context, workspaceID string) ([]Subscription, error) {
	rows, err := r.st.DB().QueryContext(ctx, r.q(`select "id", "workspaceId", "userId", "productId", "plan", "status", "cancelAtPeriodEnd", "currentPeriodEnd", "modifiedAt" from "billingSubscription" where "workspaceId" = ? order by "modifiedAt" desc`), workspaceID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Subscription
	for rows.Next() {
		var s Subscription
		var p string
		var end sql.NullInt64
		var mod int64
		if err := rows.Scan(&s.ID, &s.WorkspaceID, &s.UserID, &s.ProductID, &p, &s.Status, &s.CancelAtPeriodEnd, &end, &mod); err != nil {
			return nil, err
		}
		s.Plan, s.ModifiedAt = plan.Name(p), time.UnixMilli(mod).UTC()
		if end.Valid {
			t := time.UnixMilli(end.Int64).UTC()
			s.CurrentPeriodEnd = &t
		}
		out = append(out, s)
	}
	return out, rows.Err()
}

// deleteUser removes the subscription records a deleted user paid for.
func (r subscriptions) deleteUser(ctx context.Context, userID string) error {
	_, err := r.st.DB().ExecContext(ctx, r.q(`delete from "billingSubscription" where "userId" = ?`), userID)
	return err
}

// firstDelivery records a webhook delivery id; false when it was seen before.
func (r subscriptions) firstDelivery(ctx context.Context, id, typ string, now time.Time) (bool, error) {
	res, err := r.st.DB().ExecContext(ctx, r.q(`insert into "billingWebhook" ("id", "type", "receivedAt") values (?, ?, ?) on conflict ("id") do nothing`), id, typ, r.st.Time(now))
	if err != nil {
		return false, err
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

// forgetDelivery lets a delivery whose handling failed be retried by Polar.
func (r subscriptions) forgetDelivery(ctx context.Context, id string) {
	r.st.DB().ExecContext(ctx, r.q(`delete from "billingWebhook" where "id" = ?`), id)
}

func ms(t *time.Time) any {
	if t == nil {
		return nil
	}
	return t.UnixMilli()
}
