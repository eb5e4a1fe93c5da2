package billing

import (
	"encoding/json"
	"log/slog"
	"net/http"
	"net/url"
	"strconv"

	"github.com/sellertrends/sellertrends/internal/auth"
	"github.com/sellertrends/sellertrends/internal/billing/polar"
	"github.com/sellertrends/sellertrends/internal/httpx"
)

// portal opens Polar's customer portal for the signed-in user: {url, redirect}.
func (b *Billing) portal(w http.ResponseWriter, r *http.Request) {
	cur, ok := b.auth.RequireUser(w, r)
	if !ok {
		return
	}
	var body struct {
		Redirect *bool `json:"redirect"`
	}
	if r.Method == http.MethodPost && !auth.ReadJSON(w, r, &body, nil) {
		return
	}
	if b.polar == nil {
		auth.WriteError(w, r, errNotConfigured)
		return
	}
	ret := b.auth.Config().BaseURL.String() + "/dashboard/billing"
	cs, err := b.polar.CreateCustomerSession(r.Context(), cur.User.ID, ret)
	if err != nil {
		b.failed(w, r, "Customer portal creation failed", err)
		return
	}
	httpx.WriteJSON(w, http.StatusOK, map[string]any{"url": cs.CustomerPortalURL, "redirect": body.Redirect == nil || *body.Redirect})
}

// state answers Polar's customer state for the signed-in user.
func (b *Billing) state(w http.ResponseWriter, r *http.Request) {
	cur, ok := b.auth.RequireUser(w, r)
	if !ok {
		return
	}
	if b.polar == nil {
		auth.WriteError(w, r, errNotConfigured)
		return
	}
	st, err := b.polar.CustomerState(r.Context(), cur.User.ID)
	if err != nil {
		b.failed(w, r, "Subscriptions list failed", err)
		return
	}
	b.writeSDK(w, r, st, false)
}

func (b *Billing) subscriptionsList(w http.ResponseWriter, r *http.Request) {
	b.portalList(w, r, "subscriptions", "Polar subscriptions list failed", "active")
}

func (b *Billing) ordersList(w http.ResponseWriter, r *http.Request) {
	b.portalList(w, r, "orders", "Orders list failed", "productBillingType")
}

// portalList lists the user's subscriptions or orders through a customer session, with the
// plugin's page/limit query and one filter.
func (b *Billing) portalList(w http.ResponseWriter, r *http.Request, what, failure, filter string) {
	cur, ok := b.auth.RequireUser(w, r)
	if !ok {
		return
	}
	q := r.URL.Query()
	page, ok1 := optionalInt(q.Get("page"))
	limit, ok2 := optionalInt(q.Get("limit"))
	if !ok1 || !ok2 {
		auth.WriteError(w, r, httpx.BadRequest("[query.page] Invalid input: expected number"))
		return
	}
	if b.polar == nil {
		auth.WriteError(w, r, errNotConfigured)
		return
	}
	cs, err := b.polar.CreateCustomerSession(r.Context(), cur.User.ID, "")
	if err != nil {
		b.failed(w, r, failure, err)
		return
	}
	pq := polar.Page(page, limit)
	if v := q.Get(filter); v != "" {
		pq.Set(snake(filter), v)
	}
	list, err := b.polar.PortalList(r.Context(), what, cs.Token, pq)
	if err != nil {
		b.failed(w, r, failure, err)
		return
	}
	b.writeSDK(w, r, list, true)
}

// failed answers the plugin's message for a Polar call that failed (502: Polar's side).
func (b *Billing) failed(w http.ResponseWriter, r *http.Request, msg string, err error) {
	slog.Error("billing: "+msg, "error", err)
	auth.WriteError(w, r, httpx.NewError(http.StatusBadGateway, "POLAR_REQUEST_FAILED", msg))
}

// writeSDK answers Polar's JSON as the plugin does (sdkShape).
func (b *Billing) writeSDK(w http.ResponseWriter, r *http.Request, raw json.RawMessage, asPage bool) {
	out, err := sdkShape(raw, asPage)
	if err != nil {
		b.failed(w, r, "Polar answered something that is not JSON", err)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.Write(out)
}

func optionalInt(v string) (int, bool) {
	if v == "" {
		return 0, true
	}
	n, err := strconv.Atoi(v)
	return n, err == nil && n >= 0 && n <= 1000
}

func snake(s string) string {
	if s == "productBillingType" {
		return "product_billing_type"
	}
	return url.QueryEscape(s)
}
