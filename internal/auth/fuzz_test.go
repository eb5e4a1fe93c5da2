package auth

import (
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/sellertrends/sellertrends/internal/config"
	"github.com/sellertrends/sellertrends/internal/httpx"
)

func fuzzService(t testing.TB) *Service {
	cfg, err := config.Load(func(k string) (string, bool) {
		v, ok := map[string]string{"BASE_URL": "https://app.example", "TRUSTED_ORIGINS": "https://partner.example"}[k]
		return v, ok
	})
	if err != nil {
		t.Fatal(err)
	}
	return New(cfg, nil, nil, nil, "fuzz-secret-fuzz-secret-fuzz-secret-00")
}

// FuzzSafeURL: whatever the input, an accepted callback never leads off the trusted origins.
func FuzzSafeURL(f *testing.F) {
	for _, s := range []string{"/dashboard", "//evil.example", "https://app.example/x", "https://evil.example", "/\\evil", "javascript:alert(1)", "https://app.example@evil.example", "/%2F%2Fevil", " /x"} {
		f.Add(s)
	}
	s := fuzzService(f)
	f.Fuzz(func(t *testing.T, raw string) {
		if !s.SafeURL(raw) || raw == "" {
			return
		}
		// Resolve as a browser would, against the app's own URL.
		base, _ := url.Parse("https://app.example/sign-in")
		ref, err := url.Parse(raw)
		if err != nil {
			t.Fatalf("accepted an unparsable URL %q", raw)
		}
		got := base.ResolveReference(ref)
		if host := strings.ToLower(got.Host); host != "app.example" && host != "partner.example" {
			t.Fatalf("accepted %q which leads to %q", raw, got.Host)
		}
	})
}

// FuzzDecodeSignIn: any body gets a 4xx-class error or decodes; never a panic or a 500.
func FuzzDecodeSignIn(f *testing.F) {
	for _, s := range []string{`{"email":"a@b.co","password":"x"}`, `{"email":1}`, `[]`, `{`, `null`, `{"rememberMe":"x"}`, `"str"`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, body string) {
		r := httptest.NewRequest("POST", "/api/auth/sign-in/email", strings.NewReader(body))
		var b signInBody
		err := Decode(httptest.NewRecorder(), r, &b)
		if err == nil {
			err = b.validate()
		}
		if err == nil {
			return
		}
		e, ok := err.(*httpx.Error)
		if !ok || e.Status < 400 || e.Status >= 500 || e.Code == "" {
			t.Fatalf("body %q: error %v is not a typed 4xx", body, err)
		}
	})
}
