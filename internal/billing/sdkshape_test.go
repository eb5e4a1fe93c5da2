package billing

import (
	"encoding/json"
	"reflect"
	"testing"
)

// Polar's JSON reaches the plugin's client as the SDK shapes it: camelCase keys, times as a
// JavaScript Date writes them, the seller's metadata keys as they are, a list page under result.
func TestSDKShape(t *testing.T) {
	in := `{"id":"cus_1","created_at":"2026-11-01T10:00:00+02:00","modified_at":null,"external_id":"u1",
		"metadata":{"seat_count":2,"created_at":"not a time"},"active_subscriptions":[{"current_period_end":"2027-01-01T00:00:00Z","trial_end":null,"status":"active"}]}`
	got, err := sdkShape(json.RawMessage(in), false)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"id":"cus_1","createdAt":"2026-11-01T08:00:00.000Z","modifiedAt":null,"externalId":"u1",
		"metadata":{"seat_count":2,"created_at":"not a time"},"activeSubscriptions":[{"currentPeriodEnd":"2027-01-01T00:00:00.000Z","trialEnd":null,"status":"active"}]}`
	var g, w any
	json.Unmarshal(got, &g)
	json.Unmarshal([]byte(want), &w)
	if !reflect.DeepEqual(g, w) {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	page, err := sdkShape(json.RawMessage(`{"items":[],"pagination":{"total_count":0,"max_page":0}}`), true)
	if err != nil || string(page) != `{"result":{"items":[],"pagination":{"maxPage":0,"totalCount":0}}}` {
		t.Errorf("page: %s %v", page, err)
	}
	if _, err := sdkShape(json.RawMessage(`not json`), false); err == nil {
		t.Error("not JSON accepted")
	}
}
