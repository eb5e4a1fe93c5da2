package providers

import "testing"

// Microsoft's tenant binding for id tokens: the issuer must name the token's tenant; the
// organizations endpoint refuses personal accounts and consumers takes only those; a specific
// tenant also fixes the expected issuer.
func TestMicrosoftIDTokenTenants(t *testing.T) {
	const work = "72f988bf-86f1-41af-91ab-2d7cd011db47"
	claims := func(tid string) map[string]any {
		return map[string]any{"tid": tid, "iss": "https://login.microsoftonline.com/" + tid + "/v2.0"}
	}
	cases := []struct {
		tenant, tid string
		ok          bool
	}{
		{"common", work, true}, {"common", microsoftConsumerTenant, true},
		{"organizations", work, true}, {"organizations", microsoftConsumerTenant, false},
		{"consumers", microsoftConsumerTenant, true}, {"consumers", work, false},
	}
	for _, c := range cases {
		if got := microsoftIDToken(c.tenant, "cid").Claims(claims(c.tid)); got != c.ok {
			t.Errorf("tenant %s, token tid %s: %v", c.tenant, c.tid, got)
		}
	}
	if microsoftIDToken("common", "cid").Claims(map[string]any{"tid": work, "iss": "https://login.microsoftonline.com/other/v2.0"}) {
		t.Error("an issuer naming another tenant was accepted")
	}
	if it := microsoftIDToken(work, "cid"); it.Issuer != "https://login.microsoftonline.com/"+work+"/v2.0" || it.JWKSURL != "https://login.microsoftonline.com/"+work+"/discovery/v2.0/keys" {
		t.Errorf("specific tenant: issuer %q, keys %q", it.Issuer, it.JWKSURL)
	}
	if microsoftIDToken("common", "cid").Issuer != "" {
		t.Error("multi-tenant endpoints cannot fix one issuer")
	}
}
