package billing

import (
	"encoding/json"
	"strings"
	"time"
)

// The plugin answers what @polar-sh/sdk made of Polar's JSON, not the JSON itself: keys in
// camelCase, times as JavaScript writes a Date (UTC, milliseconds), and a page of a list under
// "result" (the SDK's page iterator). sdkShape gives our answers that shape, so the plugin's
// client reads them unchanged (TestSamePolarCallsAsBetterAuth compares them).

// records are objects whose keys are data (ids, the seller's metadata), kept as they are.
var records = map[string]bool{"metadata": true, "custom_field_data": true, "customer_metadata": true,
	"user_metadata": true, "payment_processor_metadata": true, "prices": true}

// dateKeys are the time fields whose names do not end in _at.
var dateKeys = map[string]bool{"current_period_start": true, "current_period_end": true, "trial_start": true, "trial_end": true}

// sdkShape converts Polar's JSON; asPage wraps it as a page of a list.
func sdkShape(raw json.RawMessage, asPage bool) ([]byte, error) {
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return nil, err
	}
	v = camel(v, "")
	if asPage {
		v = map[string]any{"result": v}
	}
	return json.Marshal(v)
}

func camel(v any, key string) any {
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, val := range x {
			if records[k] {
				out[camelKey(k)] = val
				continue
			}
			out[camelKey(k)] = camel(val, k)
		}
		return out
	case []any:
		for i := range x {
			x[i] = camel(x[i], key)
		}
		return x
	case string:
		if strings.HasSuffix(key, "_at") || dateKeys[key] {
			if t, err := time.Parse(time.RFC3339Nano, x); err == nil {
				return t.UTC().Format("2006-01-02T15:04:05.000Z")
			}
		}
	}
	return v
}

func camelKey(k string) string {
	parts := strings.Split(k, "_")
	for i := 1; i < len(parts); i++ {
		if parts[i] != "" {
			parts[i] = strings.ToUpper(parts[i][:1]) + parts[i][1:]
		}
	}
	return strings.Join(parts, "")
}
