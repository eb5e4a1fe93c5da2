package organization_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/sellertrends/sellertrends/internal/store"
	"github.com/sellertrends/sellertrends/internal/testkit"
)

// subscribe records an active subscription of a workspace to a plan, as Polar's webhook would.
func subscribe(t *testing.T, st *store.Store, ws, planName string) {
	t.Helper()
	_, err := st.DB().Exec(st.Rebind(`insert into "billingSubscription" ("id", "workspaceId", "userId", "productId", "plan", "status", "cancelAtPeriodEnd", "currentPeriodEnd", "modifiedAt", "updatedAt") values (?, ?, 'u', 'p', ?, 'active', ?, null, 1, ?)`),
		"sub-"+ws+planName, ws, planName, false, st.Time(time.Now()))
	if err != nil {
		t.Fatal(err)
	}
}

func inviteStatus(t *testing.T, c *testkit.Client, org, email string) (int, map[string]any) {
	t.Helper()
	return post(t, c, "invite-member", map[string]any{"email": email, "role": "member", "organizationId": org})
}

// A plan's seats are members plus pending invitations: inviting past them answers 403
// PLAN_LIMIT_REACHED naming the plan that has more; a cancelled invitation frees its seat; the
// billing page counts the same seats.
func TestSeatsFollowThePlan(t *testing.T) {
	testkit.EachDB(t, func(t *testing.T, st *store.Store) {
		app := testkit.Server(t, st, map[string]string{"PLANS_ENFORCED": "true"})
		owner := app.SignUp(t, "owner@example.com", "password123")
		_, org := post(t, owner, "create", map[string]any{"name": "Seats", "slug": "seats"})
		id := org["id"].(string)

		// Free: one seat, the owner's.
		status, body := inviteStatus(t, owner, id, "a@example.com")
		wantErr(t, "free plan invites", status, body, 403, "PLAN_LIMIT_REACHED")
		if msg, _ := body["message"].(string); !strings.Contains(msg, "Upgrade to Pro") {
			t.Errorf("refusal names no upgrade: %v", body)
		}

		// Pro: three seats = the owner + two pending invitations.
		subscribe(t, st, id, "pro")
		a := app.SignUp(t, "a@example.com", "password123")
		_, invA := inviteStatus(t, owner, id, "a@example.com")
		if status, body := inviteStatus(t, owner, id, "b@example.com"); status != 200 {
			t.Fatalf("second seat: %d %v", status, body)
		}
		status, body = inviteStatus(t, owner, id, "c@example.com")
		wantErr(t, "fourth seat", status, body, 403, "PLAN_LIMIT_REACHED")
		if msg, _ := body["message"].(string); !strings.Contains(msg, "Upgrade to Team") {
			t.Errorf("refusal names no upgrade: %v", body)
		}
		// Resending a pending invitation takes no new seat.
		if status, body := post(t, owner, "invite-member", map[string]any{"email": "b@example.com", "role": "member", "organizationId": id, "resend": true}); status != 200 {
			t.Errorf("resend at the limit: %d %v", status, body)
		}
		// Accepting keeps the count (the invitation held the seat).
		if status, body := post(t, a, "accept-invitation", map[string]any{"invitationId": invA["id"]}); status != 200 {
			t.Fatalf("accept at the limit: %d %v", status, body)
		}
		if res := owner.Do("GET", "/api/billing/"+id, nil); res.Status != 200 || res.JSON(t)["usage"].(map[string]any)["seats"] != float64(3) || res.JSON(t)["canManage"] != true {
			t.Errorf("owner's billing answer: %d %s", res.Status, res.Body)
		}
		// Members see the plan but cannot manage it (billing:manage is the owner's).
		if res := a.Do("GET", "/api/billing/"+id, nil); res.Status != 200 || res.JSON(t)["canManage"] != false || res.JSON(t)["plan"].(map[string]any)["name"] != "pro" {
			t.Errorf("member's billing answer: %d %s", res.Status, res.Body)
		}
		// Cancelling the pending invitation frees a seat.
		_, full := get(t, owner, "get-full-organization?organizationId="+id)
		inv := full["invitations"].([]any)
		var pending string
		for _, v := range inv {
			if m := v.(map[string]any); m["status"] == "pending" {
				pending = m["id"].(string)
			}
		}
		if status, body := post(t, owner, "cancel-invitation", map[string]any{"invitationId": pending}); status != 200 {
			t.Fatalf("cancel: %d %v", status, body)
		}
		if status, body := inviteStatus(t, owner, id, "c@example.com"); status != 200 {
			t.Errorf("seat freed by the cancel: %d %v", status, body)
		}
		// Someone outside the organization sees nothing of its billing.
		stranger := app.SignUp(t, "stranger@example.com", "password123")
		if res := stranger.Do("GET", "/api/billing/"+id, nil); res.Status != 404 {
			t.Errorf("stranger's billing answer: %d", res.Status)
		}
	})
}

// Without plans enforced (no billing configured) seats are unlimited: more invitations than the
// largest plan's seats go out.
func TestSeatsUnlimitedWithoutBilling(t *testing.T) {
	testkit.EachDB(t, func(t *testing.T, st *store.Store) {
		app := testkit.Server(t, st, nil)
		owner := app.SignUp(t, "owner@example.com", "password123")
		_, org := post(t, owner, "create", map[string]any{"name": "Open", "slug": "open"})
		for i := range 12 {
			if status, body := inviteStatus(t, owner, org["id"].(string), fmt.Sprintf("u%d@example.com", i)); status != 200 {
				t.Fatalf("invitation %d: %d %v", i+1, status, body)
			}
		}
	})
}
