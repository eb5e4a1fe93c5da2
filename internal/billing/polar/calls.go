package polar

import (
	"context"
	"encoding/json"
	"net/url"
	"strconv"
)

// CheckoutCreate is POST /v1/checkouts/'s body (the fields the Better Auth plugin sends).
type CheckoutCreate struct {
	Products           []string       `json:"products"`
	ExternalCustomerID string         `json:"external_customer_id,omitempty"`
	SuccessURL         string         `json:"success_url,omitempty"`
	ReturnURL          string         `json:"return_url,omitempty"`
	Metadata           map[string]any `json:"metadata,omitempty"`
	CustomFieldData    map[string]any `json:"custom_field_data,omitempty"`
	AllowDiscountCodes bool           `json:"allow_discount_codes"`
	DiscountID         string         `json:"discount_id,omitempty"`
	EmbedOrigin        string         `json:"embed_origin,omitempty"`
	// The SDK sends these three whatever the caller gives (its defaults): so do we.
	AllowTrial            bool `json:"allow_trial"`
	IsBusinessCustomer    bool `json:"is_business_customer"`
	RequireBillingAddress bool `json:"require_billing_address"`
}

// Checkout is the part of Polar's Checkout answer we read.
type Checkout struct {
	ID  string `json:"id"`
	URL string `json:"url"`
}

// CreateCheckout creates a checkout session (201 with the whole Checkout).
func (c *Client) CreateCheckout(ctx context.Context, in CheckoutCreate) (*Checkout, error) {
	var out Checkout
	return &out, c.do(ctx, "POST", "/v1/checkouts/", nil, "", in, &out)
}

// Customer is the part of a Polar customer we read.
type Customer struct {
	ID         string  `json:"id"`
	Email      string  `json:"email"`
	Name       *string `json:"name"`
	ExternalID *string `json:"external_id"`
}

type customerList struct {
	Items []Customer `json:"items"`
}

// CustomerByEmail finds a customer by email (nil when none).
func (c *Client) CustomerByEmail(ctx context.Context, email string) (*Customer, error) {
	var out customerList
	if err := c.do(ctx, "GET", "/v1/customers/", url.Values{"email": {email}}, "", nil, &out); err != nil {
		return nil, err
	}
	if len(out.Items) == 0 {
		return nil, nil
	}
	return &out.Items[0], nil
}

// CreateCustomer creates a customer whose external id is our user id.
func (c *Client) CreateCustomer(ctx context.Context, email, name, externalID string) (*Customer, error) {
	var out Customer
	in := map[string]any{"email": email, "name": name, "external_id": externalID}
	return &out, c.do(ctx, "POST", "/v1/customers/", nil, "", in, &out)
}

// SetExternalID links an existing customer (found by email) to our user id.
func (c *Client) SetExternalID(ctx context.Context, customerID, externalID string) error {
	return c.do(ctx, "PATCH", "/v1/customers/"+url.PathEscape(customerID), nil, "", map[string]any{"external_id": externalID}, nil)
}

// UpdateCustomerExternal keeps the customer's email and name in step with the user's.
func (c *Client) UpdateCustomerExternal(ctx context.Context, externalID, email, name string) error {
	return c.do(ctx, "PATCH", "/v1/customers/external/"+url.PathEscape(externalID), nil, "", map[string]any{"email": email, "name": name}, nil)
}

// DeleteCustomerExternal deletes the customer of a user.
func (c *Client) DeleteCustomerExternal(ctx context.Context, externalID string) error {
	return c.do(ctx, "DELETE", "/v1/customers/external/"+url.PathEscape(externalID), nil, "", nil, nil)
}

// CustomerSession is a short-lived token for the customer portal.
type CustomerSession struct {
	Token             string `json:"token"`
	CustomerPortalURL string `json:"customer_portal_url"`
}

// CreateCustomerSession opens a customer-portal session for a user.
func (c *Client) CreateCustomerSession(ctx context.Context, externalID, returnURL string) (*CustomerSession, error) {
	in := map[string]any{"external_customer_id": externalID}
	if returnURL != "" {
		in["return_url"] = returnURL
	}
	var out CustomerSession
	return &out, c.do(ctx, "POST", "/v1/customer-sessions/", nil, "", in, &out)
}

// CustomerState is the customer's state (subscriptions, benefits, meters), passed through to
// the client as Polar gives it.
func (c *Client) CustomerState(ctx context.Context, externalID string) (json.RawMessage, error) {
	var out json.RawMessage
	return out, c.do(ctx, "GET", "/v1/customers/external/"+url.PathEscape(externalID)+"/state", nil, "", nil, &out)
}

// PortalList lists the customer's subscriptions or orders ("subscriptions" | "orders") through
// the customer-portal API with a customer session token, passed through as Polar gives it.
func (c *Client) PortalList(ctx context.Context, what, sessionToken string, q url.Values) (json.RawMessage, error) {
	var out json.RawMessage
	return out, c.do(ctx, "GET", "/v1/customer-portal/"+what+"/", q, sessionToken, nil, &out)
}

// Page builds page/limit query values (zero values left out).
func Page(page, limit int) url.Values {
	q := url.Values{}
	if page > 0 {
		q.Set("page", strconv.Itoa(page))
	}
	if limit > 0 {
		q.Set("limit", strconv.Itoa(limit))
	}
	return q
}
