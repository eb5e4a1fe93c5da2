package billing

import (
	"context"
	"net/http"
	"time"

	"github.com/sellertrends/sellertrends/internal/auth"
	"github.com/sellertrends/sellertrends/internal/httpx"
	"github.com/sellertrends/sellertrends/internal/plan"
)

// Usage is how much of its plan a workspace uses (the trends side counts it: cli wires it).
type Usage struct {
	Datasets       int `json:"datasets"`
	WatchlistItems int `json:"watchlistItems"`
	Seats          int `json:"seats"`
}

// UsageFunc counts a workspace's usage.
type UsageFunc func(ctx context.Context, workspaceID string) (Usage, error)

// planAnswer is GET /api/billing/{ws}: the plan, its limits and usage, the plans on sale.
type planAnswer struct {
	Configured    bool             `json:"configured"`
	Enforced      bool             `json:"enforced"`
	Plan          plan.Plan        `json:"plan"`
	Usage         Usage            `json:"usage"`
	Plans         []planForSale    `json:"plans"`
	Subscriptions []subscriptionJS `json:"subscriptions"`
	CanManage     bool             `json:"canManage"`
}

type planForSale struct {
	plan.Plan
	Purchasable bool `json:"purchasable"` // a Polar product is configured for it
}

type subscriptionJS struct {
	ID                string     `json:"id"`
	Plan              plan.Name  `json:"plan"`
	Status            string     `json:"status"`
	CancelAtPeriodEnd bool       `json:"cancelAtPeriodEnd"`
	CurrentPeriodEnd  *time.Time `json:"currentPeriodEnd"`
}

// APIHandler serves GET /api/billing/{ws} to members of the workspace (behind RequireSession).
func (b *Billing) APIHandler(usage UsageFunc) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /api/billing/{ws}", func(w http.ResponseWriter, r *http.Request) {
		cur, ok := auth.SessionFrom(r.Context())
		if !ok {
			httpx.WriteError(w, r, auth.ErrUnauthorized)
			return
		}
		ws := r.PathValue("ws")
		member, _, err := b.may(r.Context(), ws, cur.User.ID, "read")
		if err != nil {
			httpx.WriteError(w, r, err)
			return
		} else if !member {
			httpx.WriteError(w, r, httpx.NewError(http.StatusNotFound, "NOT_FOUND", "Workspace not found"))
			return
		}
		_, manage, err := b.may(r.Context(), ws, cur.User.ID, "manage")
		if err != nil {
			httpx.WriteError(w, r, err)
			return
		}
		ans, err := b.answer(r.Context(), ws, usage)
		if err != nil {
			httpx.WriteError(w, r, err)
			return
		}
		ans.CanManage = manage
		httpx.WriteJSON(w, http.StatusOK, ans)
	})
	mux.HandleFunc("/api/billing/", httpx.NotFound)
	return mux
}

func (b *Billing) answer(ctx context.Context, ws string, usage UsageFunc) (*planAnswer, error) {
	p, err := b.PlanOf(ctx, ws)
	if err != nil {
		return nil, err
	}
	ans := &planAnswer{Configured: b.Configured(), Enforced: b.cfg.PlansEnforced, Plan: p, Subscriptions: []subscriptionJS{}}
	if usage != nil {
		if ans.Usage, err = usage(ctx, ws); err != nil {
			return nil, err
		}
	}
	for _, c := range plan.Catalogue {
		_, sold := b.cfg.Products[string(c.Name)]
		ans.Plans = append(ans.Plans, planForSale{Plan: c, Purchasable: sold && b.Configured()})
	}
	subs, err := b.subs.ofWorkspace(ctx, ws)
	if err != nil {
		return nil, err
	}
	for _, s := range subs {
		ans.Subscriptions = append(ans.Subscriptions, subscriptionJS{ID: s.ID, Plan: s.Plan, Status: s.Status, CancelAtPeriodEnd: s.CancelAtPeriodEnd, CurrentPeriodEnd: s.CurrentPeriodEnd})
	}
	return ans, nil
}
