package billing_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	standardwebhooks "github.com/standard-webhooks/standard-webhooks/libraries/go"

	"github.com/sellertrends/sellertrends/internal/plan"
	"github.com/sellertrends/sellertrends/internal/store"
	"github.com/sellertrends/sellertrends/internal/testkit"
)

const (
	token    = "polar_oat_test"
	secret   = "polar_whs_test-secret"
	proID    = "11111111-1111-1111-1111-111111111111"
	teamID   = "22222222-2222-2222-2222-222222222222"
	checkURL = "/api/auth/checkout"
)

func billingEnv(p *polarStandIn) map[string]string {
	return map[string]string{"POLAR_ACCESS_TOKEN": token, "POLAR_API_URL": p.URL, "POLAR_WEBHOOK_SECRET": secret,
		"POLAR_PRODUCTS": "pro:" + proID + ",team:" + teamID, "POLAR_SUCCESS_URL": "http://localhost/dashboard/billing?checkout={CHECKOUT_ID}"}
}

func userID(t *testing.T, c *testkit.Client) string {
	t.Helper()
	return c.Do("GET", "/api/auth/get-session", nil).JSON(t)["user"].(map[string]any)["id"].(string)
}

func TestCheckout(t *testing.T) {
	testkit.EachDB(t, func(t *testing.T, st *store.Store) {
		p := newPolar(t, token)
		app := testkit.Server(t, st, billingEnv(p))
		if res := app.Client(t).Do("POST", checkURL, map[string]any{"slug": "pro"}); res.Status != 401 {
			t.Errorf("without a session: %d", res.Status)
		}
		c := app.SignUp(t, "buyer@example.com", "password123")
		uid := userID(t, c)
		// The sign-up created the Polar customer with our user id as its external id.
		if created := p.recorded("POST", "/v1/customers/"); len(created) != 1 || created[0].Body["external_id"] != uid || created[0].Body["email"] != "buyer@example.com" {
			t.Errorf("customer at sign-up: %+v", created)
		}
		bad := map[string]map[string]any{
			"embedOrigin":    {"slug": "pro", "embedOrigin": "not a url"},
			"metadata keys":  {"slug": "pro", "metadata": manyKeys(51)},
			"metadata key":   {"slug": "pro", "metadata": map[string]any{strings.Repeat("k", 41): "v"}},
			"metadata value": {"slug": "pro", "metadata": map[string]any{"k": map[string]any{"nested": 1}}},
			"products":       {"products": 5},
			"successUrl":     {"slug": "pro", "successUrl": "nope"},
		}
		for name, body := range bad {
			res := c.Do("POST", checkURL, body)
			if res.Status != 400 || res.JSON(t)["code"] != "VALIDATION_ERROR" {
				t.Errorf("%s: %d %s", name, res.Status, res.Body)
			}
		}
		if res := c.Do("POST", checkURL, map[string]any{"slug": "enterprise"}); res.Status != 400 || !strings.Contains(string(res.Body), "Product not found") {
			t.Errorf("unknown slug: %d %s", res.Status, res.Body)
		}
		if res := c.Do("POST", checkURL, map[string]any{"slug": "pro", "successUrl": "https://evil.example/x"}); res.Status != 403 {
			t.Errorf("untrusted success URL: %d %s", res.Status, res.Body)
		}
		if res := c.Do("POST", checkURL, map[string]any{"slug": "pro", "referenceId": "personal-someone-else"}); res.Status != 403 {
			t.Errorf("someone else's workspace: %d %s", res.Status, res.Body)
		}
		// Polar answers 503 once: retried. Then the request is checked field by field.
		p.failNext("POST /v1/checkouts/", 503)
		res := c.Do("POST", checkURL, map[string]any{"slug": "pro", "redirect": false, "embedOrigin": app.URL, "metadata": map[string]any{"seats": 2, "note": "hi", "gift": false}})
		if res.Status != 200 {
			t.Fatalf("checkout: %d %s", res.Status, res.Body)
		}
		if m := res.JSON(t); m["url"] != "https://sandbox.polar.sh/checkout/polar_c_123" || m["redirect"] != false {
			t.Errorf("answer: %v", m)
		}
		calls := p.recorded("POST", "/v1/checkouts/")
		if len(calls) != 2 {
			t.Fatalf("checkout calls: %d, want 2 (one retry)", len(calls))
		}
		b := calls[1].Body
		meta, _ := b["metadata"].(map[string]any)
		if calls[1].Auth != "Bearer "+token || fmt.Sprint(b["products"]) != "["+proID+"]" || b["external_customer_id"] != uid ||
			b["embed_origin"] != app.URL || b["allow_discount_codes"] != true || meta["referenceId"] != "personal-"+uid ||
			meta["seats"] != float64(2) || meta["gift"] != false || !strings.Contains(fmt.Sprint(b["success_url"]), "{CHECKOUT_ID}") {
			t.Errorf("request to Polar: %s %+v", calls[1].Auth, b)
		}
		// Polar refuses: its reason is surfaced, as a 502 (Polar's side), never a 500.
		p.failNext("POST /v1/checkouts/", 422)
		if res := c.Do("POST", checkURL, map[string]any{"products": proID}); res.Status != 502 || !strings.Contains(string(res.Body), "Product is archived") {
			t.Errorf("Polar refusal: %d %s", res.Status, res.Body)
		}
		// Portal, state and lists go through a customer session.
		if res := c.Do("POST", "/api/auth/customer/portal", map[string]any{"redirect": false}); res.Status != 200 || res.JSON(t)["redirect"] != false {
			t.Errorf("portal: %d %s", res.Status, res.Body)
		}
		for _, path := range []string{"/api/auth/customer/state", "/api/auth/customer/subscriptions/list?page=1&limit=5", "/api/auth/customer/orders/list"} {
			if res := c.Do("GET", path, nil); res.Status != 200 {
				t.Errorf("%s: %d %s", path, res.Status, res.Body)
			}
		}
		if res := c.Do("GET", "/api/auth/customer/orders/list?page=x", nil); res.Status != 400 {
			t.Errorf("bad page: %d", res.Status)
		}
		// The email follows the user; deleting the user deletes the customer.
		if res := c.Do("POST", "/api/auth/delete-user", map[string]any{"password": "password123"}); res.Status != 200 {
			t.Fatalf("delete-user: %d %s", res.Status, res.Body)
		}
		if del := p.recorded("DELETE", "/v1/customers/external/"+uid); len(del) != 1 {
			t.Errorf("customer not deleted with the user: %d calls", len(del))
		}
	})
}

func TestCheckoutWithoutBilling(t *testing.T) {
	app := testkit.Server(t, testkit.SQLite(t), nil)
	c := app.SignUp(t, "free@example.com", "password123")
	if res := c.Do("POST", checkURL, map[string]any{"slug": "pro"}); res.Status != 503 || res.JSON(t)["code"] != "BILLING_NOT_CONFIGURED" {
		t.Errorf("checkout without billing: %d %s", res.Status, res.Body)
	}
	pl, err := app.Billing.PlanOf(context.Background(), "personal-"+userID(t, c))
	if err != nil || pl.Name != plan.Everything.Name {
		t.Errorf("unconfigured billing: plan %v (%v), want everything unlimited", pl.Name, err)
	}
}

func manyKeys(n int) map[string]any {
	m := map[string]any{}
	for i := range n {
		m[fmt.Sprintf("k%d", i)] = i
	}
	return m
}

// webhook sends a signed delivery; at shifts the signature's timestamp.
func webhook(t *testing.T, c *testkit.Client, id, payload string, at time.Time, tamper bool) testkit.Response {
	t.Helper()
	wh, err := standardwebhooks.NewWebhookRaw([]byte(secret))
	if err != nil {
		t.Fatal(err)
	}
	sig, err := wh.Sign(id, at, []byte(payload))
	if err != nil {
		t.Fatal(err)
	}
	if tamper {
		payload = strings.Replace(payload, "active", "trialing", 1)
	}
	return c.Do("POST", "/api/auth/polar/webhooks", payload, "webhook-id", id, "webhook-timestamp", fmt.Sprint(at.Unix()), "webhook-signature", sig, "Origin", "")
}

func subscriptionEvent(typ, status, product, user string, modified time.Time) string {
	return fmt.Sprintf(`{"type":%q,"timestamp":%q,"data":{"id":"sub_1","status":%q,"product_id":%q,"cancel_at_period_end":false,"current_period_end":"2027-01-01T00:00:00Z","created_at":"2026-11-01T00:00:00Z","modified_at":%q,"metadata":{},"customer":{"id":"cus_1","external_id":%q}}}`,
		typ, modified.Format(time.RFC3339), status, product, modified.Format(time.RFC3339Nano), user)
}

func TestWebhooks(t *testing.T) {
	testkit.EachDB(t, func(t *testing.T, st *store.Store) {
		p := newPolar(t, token)
		app := testkit.Server(t, st, billingEnv(p))
		c := app.SignUp(t, "sub@example.com", "password123")
		uid := userID(t, c)
		ws := "personal-" + uid
		planOf := func() plan.Name {
			t.Helper()
			pl, err := app.Billing.PlanOf(context.Background(), ws)
			if err != nil {
				t.Fatal(err)
			}
			return pl.Name
		}
		if planOf() != plan.Free {
			t.Fatalf("new workspace on %s, want free", planOf())
		}
		now := time.Now()
		t0 := now.Add(-time.Hour)
		active := subscriptionEvent("subscription.active", "active", proID, uid, t0)
		anon := app.Client(t)
		if res := webhook(t, anon, "msg_tampered", active, now, true); res.Status != 400 {
			t.Errorf("tampered: %d %s", res.Status, res.Body)
		}
		if res := webhook(t, anon, "msg_stale", active, now.Add(-10*time.Minute), false); res.Status != 400 {
			t.Errorf("stale: %d %s", res.Status, res.Body)
		}
		if planOf() != plan.Free {
			t.Fatalf("a refused delivery changed the plan to %s", planOf())
		}
		if res := webhook(t, anon, "msg_1", active, now, false); res.Status != 200 || res.JSON(t)["received"] != true {
			t.Fatalf("valid: %d %s", res.Status, res.Body)
		}
		if planOf() != plan.Pro {
			t.Fatalf("after subscription.active: %s", planOf())
		}
		// A replayed delivery is acknowledged and not applied again: the record's status set by
		// hand stays.
		st.DB().Exec(st.Rebind(`update "billingSubscription" set "status" = 'past_due' where "id" = 'sub_1'`))
		if res := webhook(t, anon, "msg_1", active, now, false); res.Status != 200 {
			t.Errorf("replay: %d", res.Status)
		}
		if planOf() != plan.Free {
			t.Errorf("replayed delivery re-applied: %s", planOf())
		}
		revoked := subscriptionEvent("subscription.revoked", "canceled", proID, uid, t0.Add(time.Minute))
		if res := webhook(t, anon, "msg_2", revoked, now, false); res.Status != 200 {
			t.Fatalf("revoked: %d", res.Status)
		}
		// An older "updated" arriving late never undoes the newer revocation.
		late := subscriptionEvent("subscription.updated", "active", proID, uid, t0.Add(30*time.Second))
		if res := webhook(t, anon, "msg_3", late, now, false); res.Status != 200 {
			t.Fatalf("late: %d", res.Status)
		}
		if planOf() != plan.Free {
			t.Errorf("out-of-order event downgraded the newer state: %s", planOf())
		}
		team := strings.Replace(subscriptionEvent("subscription.created", "active", teamID, uid, t0.Add(2*time.Minute)), "sub_1", "sub_2", 1)
		webhook(t, anon, "msg_4", team, now, false)
		if planOf() != plan.Team {
			t.Errorf("team subscription: %s", planOf())
		}
		refund := fmt.Sprintf(`{"type":"order.refunded","data":{"id":"ord_1","status":"refunded","subscription_id":"sub_2","product_id":%q,"created_at":"2026-11-01T00:00:00Z","modified_at":%q,"customer":{"external_id":%q}}}`,
			teamID, t0.Add(3*time.Minute).Format(time.RFC3339Nano), uid)
		webhook(t, anon, "msg_5", refund, now, false)
		if planOf() != plan.Free {
			t.Errorf("refunded order kept the plan: %s", planOf())
		}
		if res := webhook(t, anon, "msg_6", `{"type":"benefit.created","data":{"id":"b"}}`, now, false); res.Status != 200 {
			t.Errorf("unknown type: %d %s", res.Status, res.Body)
		}
		if res := webhook(t, anon, "msg_7", `[1,2]`, now, false); res.Status != 400 {
			t.Errorf("not an event: %d", res.Status)
		}
		var n int
		st.DB().QueryRow(`select count(*) from "billingWebhook"`).Scan(&n)
		if n != 6 {
			t.Errorf("deliveries recorded: %d, want 6", n)
		}
		_ = http.StatusOK
	})
}

func TestPlanAPI(t *testing.T) {
	testkit.EachDB(t, func(t *testing.T, st *store.Store) {
		p := newPolar(t, token)
		app := testkit.Server(t, st, billingEnv(p))
		if res := app.Client(t).Do("GET", "/api/billing/personal-x", nil); res.Status != 401 {
			t.Errorf("without a session: %d", res.Status)
		}
		a := app.SignUp(t, "a@example.com", "password123")
		b := app.SignUp(t, "b@example.com", "password123")
		if res := b.Do("GET", "/api/billing/personal-"+userID(t, a), nil); res.Status != 404 {
			t.Errorf("someone else's workspace: %d %s", res.Status, res.Body)
		}
		res := a.Do("GET", "/api/billing/personal-"+userID(t, a), nil)
		if res.Status != 200 {
			t.Fatalf("own workspace: %d %s", res.Status, res.Body)
		}
		m := res.JSON(t)
		pl := m["plan"].(map[string]any)
		limits := pl["limits"].(map[string]any)
		usage := m["usage"].(map[string]any)
		if pl["name"] != "free" || limits["watchlistItems"] != float64(10) || usage["seats"] != float64(1) || m["canManage"] != true || m["configured"] != true {
			t.Errorf("answer: %s", res.Body)
		}
		if plans := m["plans"].([]any); len(plans) != 3 || plans[1].(map[string]any)["purchasable"] != true || plans[0].(map[string]any)["purchasable"] != false {
			t.Errorf("plans on sale: %v", plans)
		}
	})
}
