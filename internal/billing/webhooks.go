package billing

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"time"

	standardwebhooks "github.com/standard-webhooks/standard-webhooks/libraries/go"

	"github.com/sellertrends/sellertrends/internal/auth"
	"github.com/sellertrends/sellertrends/internal/httpx"
	"github.com/sellertrends/sellertrends/internal/store"
)

const maxWebhookBody = 1 << 20

// event is a Polar webhook payload: {type, timestamp, data}.
type event struct {
	Type string          `json:"type"`
	Data json.RawMessage `json:"data"`
}

// polarObject is the part of a subscription or order we read.
type polarObject struct {
	ID                string         `json:"id"`
	Status            string         `json:"status"`
	ProductID         string         `json:"product_id"`
	SubscriptionID    *string        `json:"subscription_id"`
	CancelAtPeriodEnd bool           `json:"cancel_at_period_end"`
	CurrentPeriodEnd  *time.Time     `json:"current_period_end"`
	CreatedAt         time.Time      `json:"created_at"`
	ModifiedAt        *time.Time     `json:"modified_at"`
	Metadata          map[string]any `json:"metadata"`
	Customer          struct {
		ExternalID *string `json:"external_id"`
	} `json:"customer"`
}

func (o polarObject) modified() time.Time {
	if o.ModifiedAt != nil && !o.ModifiedAt.IsZero() {
		return *o.ModifiedAt
	}
	return o.CreatedAt
}

// webhooks verifies a delivery's Standard Webhooks signature (POLAR_WEBHOOK_SECRET's bytes are
// the key, as Polar signs; timestamps more than 5 minutes off are refused), applies it once
// (by its webhook-id) and acknowledges unknown types.
func (b *Billing) webhooks(w http.ResponseWriter, r *http.Request) {
	if b.cfg.WebhookSecret == "" {
		auth.WriteError(w, r, httpx.NewError(http.StatusServiceUnavailable, "BILLING_NOT_CONFIGURED", "Polar webhook secret not found"))
		return
	}
	payload, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxWebhookBody))
	if err != nil {
		auth.WriteError(w, r, httpx.NewError(http.StatusRequestEntityTooLarge, "PAYLOAD_TOO_LARGE", "Request body is too large"))
		return
	}
	hook, err := standardwebhooks.NewWebhookRaw([]byte(b.cfg.WebhookSecret))
	if err == nil {
		err = hook.Verify(payload, r.Header)
	}
	if err != nil {
		auth.WriteError(w, r, httpx.NewError(http.StatusBadRequest, "BAD_REQUEST", "Webhook Error: "+err.Error()))
		return
	}
	var ev event
	if err := json.Unmarshal(payload, &ev); err != nil || ev.Type == "" {
		auth.WriteError(w, r, httpx.NewError(http.StatusBadRequest, "BAD_REQUEST", "Webhook Error: the payload is not a Polar event"))
		return
	}
	ctx := r.Context()
	id := r.Header.Get("webhook-id")
	first, err := b.subs.firstDelivery(ctx, id, ev.Type, b.now())
	if err != nil {
		auth.WriteError(w, r, err)
		return
	}
	if first {
		if err := b.apply(ctx, ev); err != nil {
			b.subs.forgetDelivery(context.WithoutCancel(ctx), id) // let Polar retry it
			slog.Error("billing: webhook", "type", ev.Type, "error", err)
			auth.WriteError(w, r, httpx.NewError(http.StatusBadRequest, "BAD_REQUEST", "Webhook error: See server logs for more information."))
			return
		}
	}
	httpx.WriteJSON(w, http.StatusOK, map[string]bool{"received": true})
}

// apply updates the subscription record an event is about. Events for products that are not a
// plan, or for customers that are not ours, are acknowledged and ignored.
func (b *Billing) apply(ctx context.Context, ev event) error {
	var o polarObject
	switch ev.Type {
	case "subscription.created", "subscription.active", "subscription.updated", "subscription.canceled",
		"subscription.uncanceled", "subscription.revoked", "order.paid", "order.refunded":
		if err := json.Unmarshal(ev.Data, &o); err != nil {
			return errors.New("data is not a subscription or order")
		}
	default:
		return nil
	}
	if ev.Type == "order.refunded" {
		if o.SubscriptionID == nil {
			return nil
		}
		return b.subs.revoke(ctx, *o.SubscriptionID, o.modified(), b.now())
	}
	p, ok := b.planOfProduct(o.ProductID)
	if !ok || o.Customer.ExternalID == nil {
		return nil
	}
	userID := *o.Customer.ExternalID
	sub := Subscription{ID: o.ID, UserID: userID, ProductID: o.ProductID, Plan: p, Status: o.Status,
		CancelAtPeriodEnd: o.CancelAtPeriodEnd, CurrentPeriodEnd: o.CurrentPeriodEnd, ModifiedAt: o.modified()}
	if ev.Type == "order.paid" {
		if o.SubscriptionID == nil {
			return nil // a one-time purchase grants no plan
		}
		sub.ID, sub.Status, sub.CurrentPeriodEnd = *o.SubscriptionID, "active", nil
	}
	sub.WorkspaceID = b.workspaceFor(ctx, userID, o.Metadata)
	_, err := b.subs.save(ctx, sub, b.now())
	return err
}

// workspaceFor is the checkout's referenceId when the buyer may manage that workspace, else
// the buyer's personal workspace.
func (b *Billing) workspaceFor(ctx context.Context, userID string, meta map[string]any) string {
	if ref, ok := meta["referenceId"].(string); ok && ref != "" {
		if _, manage, err := b.may(ctx, ref, userID, "manage"); err == nil && manage {
			return ref
		}
	}
	return store.PersonalWorkspaceID(userID)
}
