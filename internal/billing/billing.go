// Package billing is Polar's Better Auth plugin (@polar-sh/better-auth) on our server: checkout,
// customer portal and state, webhooks, the Polar customer kept in step with the user, and the
// plan each workspace is on. Its routes are mounted under /api/auth through the auth core.
package billing

import (
	"context"
	"io/fs"
	"log/slog"
	"net/http"
	"time"

	"github.com/sellertrends/sellertrends/internal/auth"
	"github.com/sellertrends/sellertrends/internal/auth/organization"
	"github.com/sellertrends/sellertrends/internal/billing/polar"
	"github.com/sellertrends/sellertrends/internal/config"
	"github.com/sellertrends/sellertrends/internal/httpx"
	"github.com/sellertrends/sellertrends/internal/plan"
	"github.com/sellertrends/sellertrends/internal/store"
)

var (
	errNotConfigured = httpx.NewError(http.StatusServiceUnavailable, "BILLING_NOT_CONFIGURED", "Billing is not configured on this server")
	// The plugin answers these two with a message and no code.
	errProductNotFound  = httpx.NewError(http.StatusBadRequest, "", "Product not found")
	errSignInToCheckout = httpx.NewError(http.StatusUnauthorized, "", "You must be logged in to checkout")
	errNotYourWorkspace = httpx.NewError(http.StatusForbidden, "FORBIDDEN", "You can only buy a plan for a workspace you own")
)

// Billing is the plugin and the plan lookup the trends API asks.
type Billing struct {
	cfg   config.Billing
	auth  *auth.Service
	st    *store.Store
	polar *polar.Client        // nil when billing is not configured
	orgs  *organization.Plugin // nil: personal workspaces only
	subs  subscriptions
	now   func() time.Time
}

// New builds the plugin from POLAR_* settings.
func New(cfg config.Billing) *Billing {
	b := &Billing{cfg: cfg, now: func() time.Time { return time.Now().UTC() }}
	if cfg.Enabled() {
		b.polar = polar.New(cfg.APIURL, cfg.AccessToken)
	}
	return b
}

func (*Billing) ID() string { return "polar" }

// Register mounts the plugin's routes and hooks on the auth core.
func (b *Billing) Register(s *auth.Service) error {
	b.auth, b.st = s, s.Store()
	b.subs = subscriptions{st: b.st}
	sub, err := fs.Sub(migrations, "migrations")
	if err != nil {
		return err
	}
	if err := b.st.Migrate(context.Background(), "billing", sub); err != nil {
		return err
	}
	s.Handle("POST /checkout", b.checkout)
	s.Handle("GET /customer/portal", b.portal)
	s.Handle("POST /customer/portal", b.portal)
	s.Handle("GET /customer/state", b.state)
	s.Handle("GET /customer/subscriptions/list", b.subscriptionsList)
	s.Handle("GET /customer/orders/list", b.ordersList)
	s.Handle("POST /polar/webhooks", b.webhooks, auth.NoLimit) // Polar retries; signatures guard it
	s.SkipOriginCheck("/polar/webhooks")
	s.OnUserCreated(b.customerCreated)
	s.OnUserUpdated(b.customerUpdated)
	s.OnUserDeleted(b.customerDeleted)
	return nil
}

// Configured reports whether checkouts can be created.
func (b *Billing) Configured() bool { return b.polar != nil }

// PlanOf is the plan a workspace is on: its newest subscription that grants one, else free;
// everything when plans are not enforced.
func (b *Billing) PlanOf(ctx context.Context, workspaceID string) (plan.Plan, error) {
	if !b.cfg.PlansEnforced {
		return plan.Everything, nil
	}
	subs, err := b.subs.ofWorkspace(ctx, workspaceID)
	if err != nil {
		return plan.Plan{}, err
	}
	for _, s := range subs {
		if s.grants() && plan.Valid(s.Plan) {
			return plan.ByName(s.Plan), nil
		}
	}
	return plan.ByName(plan.Free), nil
}

// planOfProduct maps a Polar product id to its plan through POLAR_PRODUCTS.
func (b *Billing) planOfProduct(productID string) (plan.Name, bool) {
	for slug, id := range b.cfg.Products {
		if id == productID {
			return plan.Name(slug), true
		}
	}
	return "", false
}

// The Polar customer follows the user: created at sign-up (external id = user id), updated with
// the email, deleted with the user. Failures are logged: the account must not depend on Polar.
func (b *Billing) customerCreated(ctx context.Context, u *store.User) error {
	if b.polar == nil {
		return nil
	}
	existing, err := b.polar.CustomerByEmail(ctx, u.Email)
	if err != nil {
		return err
	}
	if existing != nil {
		if existing.ExternalID == nil || *existing.ExternalID != u.ID {
			return b.polar.SetExternalID(ctx, existing.ID, u.ID)
		}
		return nil
	}
	_, err = b.polar.CreateCustomer(ctx, u.Email, u.Name, u.ID)
	return err
}

func (b *Billing) customerUpdated(ctx context.Context, u *store.User) error {
	if b.polar == nil {
		return nil
	}
	if err := b.polar.UpdateCustomerExternal(ctx, u.ID, u.Email, u.Name); err != nil && !polar.NotFound(err) {
		slog.Error("billing: update Polar customer", "user", u.ID, "error", err)
	}
	return nil
}

func (b *Billing) customerDeleted(ctx context.Context, userID string) error {
	if err := b.subs.deleteUser(ctx, userID); err != nil {
		return err
	}
	if b.polar == nil {
		return nil
	}
	if err := b.polar.DeleteCustomerExternal(ctx, userID); err != nil && !polar.NotFound(err) {
		slog.Error("billing: delete Polar customer", "user", userID, "error", err)
	}
	return nil
}
