package organization_test

import (
	"encoding/json"
	"testing"
)

func decodeList(t *testing.T, raw []byte) []map[string]any {
	t.Helper()
	var out []map[string]any
	if err := json.Unmarshal(raw, &out); err != nil {
		t.Fatalf("not a list: %s", raw)
	}
	return out
}
