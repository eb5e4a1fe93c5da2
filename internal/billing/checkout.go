package billing

import (
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"unicode/utf8"

	"github.com/sellertrends/sellertrends/internal/auth"
	"github.com/sellertrends/sellertrends/internal/billing/polar"
	"github.com/sellertrends/sellertrends/internal/httpx"
	"github.com/sellertrends/sellertrends/internal/store"
)

// checkoutBody is the plugin's CheckoutParams.
type checkoutBody struct {
	Products           json.RawMessage `json:"products"` // a string or a list of strings
	Slug               *string         `json:"slug"`
	ReferenceID        *string         `json:"referenceId"`
	CustomFieldData    map[string]any  `json:"customFieldData"`
	Metadata           map[string]any  `json:"metadata"`
	AllowDiscountCodes *bool           `json:"allowDiscountCodes"`
	DiscountID         *string         `json:"discountId"`
	Redirect           *bool           `json:"redirect"`
	EmbedOrigin        *string         `json:"embedOrigin"`
	SuccessURL         *string         `json:"successUrl"`
	ReturnURL          *string         `json:"returnUrl"`
	AllowTrial         *bool           `json:"allowTrial"`

	products []string
}

// validate applies the plugin's zod rules, with its limits on metadata.
func (b *checkoutBody) validate() error {
	var problems []string
	bad := func(field, msg string) { problems = append(problems, fmt.Sprintf("[body.%s] %s", field, msg)) }
	if len(b.Products) > 0 && string(b.Products) != "null" {
		var one string
		if json.Unmarshal(b.Products, &one) == nil {
			b.products = []string{one}
		} else if json.Unmarshal(b.Products, &b.products) != nil {
			bad("products", "Invalid input: expected string or array of strings")
		}
	}
	scalar := func(field string, m map[string]any, maxLen int) {
		for k, v := range m {
			switch x := v.(type) {
			case string:
				if maxLen > 0 && utf8.RuneCountInString(x) > maxLen {
					bad(field+"."+k, fmt.Sprintf("Too big: expected string to have <=%d characters", maxLen))
				}
			case float64, bool:
			default:
				bad(field+"."+k, "Invalid input: expected string, number or boolean")
			}
		}
	}
	scalar("customFieldData", b.CustomFieldData, 0)
	scalar("metadata", b.Metadata, 500)
	if len(b.Metadata) > 50 {
		bad("metadata", "Metadata can have at most 50 key-value pairs")
	}
	for k := range b.Metadata {
		if utf8.RuneCountInString(k) > 40 {
			bad("metadata", "Metadata keys must be at most 40 characters")
			break
		}
	}
	if b.EmbedOrigin != nil {
		if u, err := url.Parse(*b.EmbedOrigin); err != nil || u.Scheme == "" || u.Host == "" {
			bad("embedOrigin", "Invalid URL")
		}
	}
	for field, v := range map[string]*string{"successUrl": b.SuccessURL, "returnUrl": b.ReturnURL} {
		if v != nil && !strings.HasPrefix(*v, "/") {
			if u, err := url.Parse(*v); err != nil || u.Scheme == "" {
				bad(field, "Must be a valid URL or a relative path starting with /")
			}
		}
	}
	if len(problems) > 0 {
		return httpx.BadRequest(strings.Join(problems, "; "))
	}
	return nil
}

// checkout creates a Polar checkout for the signed-in user and answers {url, redirect}. The
// plan it buys is for referenceId's workspace (one the user owns), else their personal one.
func (b *Billing) checkout(w http.ResponseWriter, r *http.Request) {
	// The plugin's order: the body, then the product, then the session (authenticatedUsersOnly).
	cur, err := b.auth.CurrentSession(w, r, false)
	if err != nil {
		auth.WriteError(w, r, err)
		return
	}
	var body checkoutBody
	if !auth.ReadJSON(w, r, &body, body.validate) {
		return
	}
	if b.polar == nil {
		auth.WriteError(w, r, errNotConfigured)
		return
	}
	products := body.products
	if body.Slug != nil {
		id, ok := b.cfg.Products[*body.Slug]
		if !ok {
			auth.WriteError(w, r, errProductNotFound)
			return
		}
		products = []string{id}
	}
	if len(products) == 0 {
		auth.WriteError(w, r, errProductNotFound)
		return
	}
	if cur == nil {
		auth.WriteError(w, r, errSignInToCheckout)
		return
	}
	workspace := store.PersonalWorkspaceID(cur.User.ID)
	if body.ReferenceID != nil {
		_, manage, err := b.may(r.Context(), *body.ReferenceID, cur.User.ID, "manage")
		if err != nil || !manage {
			auth.WriteError(w, r, errNotYourWorkspace)
			return
		}
		workspace = *body.ReferenceID
	}
	success, ret, err := b.redirectTargets(body)
	if err != nil {
		auth.WriteError(w, r, err)
		return
	}
	meta := map[string]any{}
	for k, v := range body.Metadata {
		meta[k] = v
	}
	meta["referenceId"] = workspace
	in := polar.CheckoutCreate{
		Products: products, ExternalCustomerID: cur.User.ID, SuccessURL: success, ReturnURL: ret,
		Metadata: meta, CustomFieldData: body.CustomFieldData, AllowDiscountCodes: body.AllowDiscountCodes == nil || *body.AllowDiscountCodes,
		DiscountID: str(body.DiscountID), EmbedOrigin: str(body.EmbedOrigin), AllowTrial: body.AllowTrial == nil || *body.AllowTrial,
	}
	co, err := b.polar.CreateCheckout(r.Context(), in)
	if err != nil {
		slog.Error("billing: checkout", "user", cur.User.ID, "error", err)
		auth.WriteError(w, r, checkoutFailed(err))
		return
	}
	httpx.WriteJSON(w, http.StatusOK, map[string]any{"url": co.URL, "redirect": body.Redirect == nil || *body.Redirect})
}

// redirectTargets resolves successUrl/returnUrl against BASE_URL, POLAR_SUCCESS_URL being the
// default. Polar sends the browser to them, so a URL from the request must be ours or a trusted
// origin, like every callback; the operator's setting is trusted as configured.
func (b *Billing) redirectTargets(body checkoutBody) (success, ret string, err error) {
	base := strings.TrimRight(b.auth.Config().BaseURL.String(), "/")
	resolve := func(v *string) (string, error) {
		if v == nil || *v == "" {
			return "", nil
		}
		// {CHECKOUT_ID} is Polar's placeholder; braces are not a URL's, so check without it.
		if !b.auth.SafeURL(strings.ReplaceAll(*v, "{CHECKOUT_ID}", "x")) {
			return "", auth.ErrInvalidCallbackURL
		}
		if strings.HasPrefix(*v, "/") {
			return base + *v, nil
		}
		return *v, nil
	}
	if success, err = resolve(body.SuccessURL); err != nil {
		return "", "", err
	}
	if success == "" {
		success = b.cfg.SuccessURL
	}
	ret, err = resolve(body.ReturnURL)
	return success, ret, err
}

// checkoutFailed surfaces Polar's reason when it gave one (e.g. an archived product).
func checkoutFailed(err error) *httpx.Error {
	msg := "Checkout creation failed"
	if e, ok := err.(*polar.APIError); ok && e.Status >= 400 && e.Status < 500 && e.Detail != "" {
		msg += ": " + e.Detail
	}
	return httpx.NewError(http.StatusBadGateway, "CHECKOUT_CREATION_FAILED", msg)
}

func str(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}
