package config

import (
	"log/slog"
	"strings"
	"testing"
	"time"
)

func load(env map[string]string) (*Config, error) {
	return Load(func(k string) (string, bool) { v, ok := env[k]; return v, ok })
}

func TestDefaults(t *testing.T) {
	c, err := load(nil)
	if err != nil {
		t.Fatal(err)
	}
	checks := []struct {
		name      string
		got, want any
	}{
		{"PORT", c.Port, 3000},
		{"BASE_URL", c.BaseURL.String(), "http://localhost:3000"},
		{"APP_ENV", c.AppEnv, "development"},
		{"DATA_DIR", c.DataDir, "./data"},
		{"AUTH_RATE_LIMIT_ENABLED", c.AuthRateLimitEnabled, false},
		{"AUTH_PASSWORD_MIN_LENGTH", c.AuthPasswordMinLength, 8},
		{"AUTH_PASSWORD_MAX_LENGTH", c.AuthPasswordMaxLength, 128},
		{"AUTH_SESSION_EXPIRES_IN", c.AuthSessionExpiresIn, 7 * 24 * time.Hour},
		{"AUTH_SESSION_UPDATE_AGE", c.AuthSessionUpdateAge, 24 * time.Hour},
		{"AUTH_CHANGE_EMAIL_ENABLED", c.AuthChangeEmailEnabled, true},
		{"AUTH_DELETE_USER_ENABLED", c.AuthDeleteUserEnabled, true},
		{"MARKETPLACE", c.Marketplace, "Amazon"},
		{"LOG_LEVEL", c.LogLevel, slog.LevelError},
		{"MAX_UPLOAD_BYTES", c.MaxUploadBytes, int64(4 << 30)},
		{"AUTH_ADMIN_IMPERSONATION_DURATION", c.AdminImpersonationDuration, time.Hour},
		{"AUTH_ADMIN_IMPERSONATE_ADMINS", c.AdminImpersonateAdmins, false},
		{"AUTH_DEVICE_CODE_EXPIRES_IN", c.DeviceCodeExpiresIn, 30 * time.Minute},
		{"AUTH_DEVICE_INTERVAL", c.DeviceInterval, 5 * time.Second},
		{"AUTH_DEVICE_CODE_LENGTH", c.DeviceCodeLength, 40},
		{"AUTH_DEVICE_USER_CODE_LENGTH", c.DeviceUserCodeLength, 8},
	}
	for _, ck := range checks {
		if ck.got != ck.want {
			t.Errorf("%s default = %v, want %v", ck.name, ck.got, ck.want)
		}
	}
}

func TestProductionDefaults(t *testing.T) {
	c, err := load(map[string]string{"APP_ENV": "production", "AUTH_SECRET": strings.Repeat("s", 32)})
	if err != nil {
		t.Fatal(err)
	}
	if !c.AuthRateLimitEnabled {
		t.Error("rate limiting should be on by default in production")
	}
	c, err = load(map[string]string{"APP_ENV": "production", "AUTH_SECRET": strings.Repeat("s", 32), "AUTH_RATE_LIMIT_ENABLED": "false"})
	if err != nil || c.AuthRateLimitEnabled {
		t.Errorf("AUTH_RATE_LIMIT_ENABLED=false should override production: %v %v", c, err)
	}
}

func TestParsedValues(t *testing.T) {
	c, err := load(map[string]string{
		"PORT": "8080", "BASE_URL": "https://trends.example.com/", "AUTH_SESSION_FRESH_AGE": "0",
		"TRUSTED_ORIGINS": "https://a.example.com, https://b.example.com/path", "AUTH_ADMIN_EMAILS": "Boss@Example.com",
		"LOG_LEVEL": "debug", "DATABASE_URL": "postgres://root@127.0.0.1:5432/test",
	})
	if err != nil {
		t.Fatal(err)
	}
	if c.Port != 8080 || c.BaseURL.String() != "https://trends.example.com" || c.AuthSessionFreshAge != 0 {
		t.Errorf("got port %d base %s fresh %v", c.Port, c.BaseURL, c.AuthSessionFreshAge)
	}
	if strings.Join(c.TrustedOrigins, " ") != "https://a.example.com https://b.example.com" {
		t.Errorf("TrustedOrigins = %v", c.TrustedOrigins)
	}
	if c.AdminEmails[0] != "boss@example.com" || c.LogLevel != slog.LevelDebug {
		t.Errorf("AdminEmails %v LogLevel %v", c.AdminEmails, c.LogLevel)
	}
}

// Every bad value stops start-up with a message naming the variable.
func TestBadValuesNameTheVariable(t *testing.T) {
	cases := map[string]string{
		"PORT": "abc", "BASE_URL": "ftp://x", "APP_ENV": "staging", "DATABASE_URL": "mysql://x",
		"REDIS_URL": "http://x", "SMTP_URL": "mail.example.com", "AUTH_SECRET": "short",
		"AUTH_REQUIRE_EMAIL_VERIFICATION": "maybe", "AUTH_RATE_LIMIT_ENABLED": "2x",
		"AUTH_SESSION_EXPIRES_IN": "0", "AUTH_SESSION_UPDATE_AGE": "-1", "AUTH_SESSION_FRESH_AGE": "1d",
		"AUTH_PASSWORD_MIN_LENGTH": "0", "AUTH_PASSWORD_MAX_LENGTH": "x", "TRUSTED_ORIGINS": "not a url",
		"LOG_LEVEL": "loud", "MAX_UPLOAD_BYTES": "0",
		"AUTH_DEVICE_CODE_EXPIRES_IN": "30", "AUTH_DEVICE_INTERVAL": "-5s", "AUTH_ADMIN_IMPERSONATION_DURATION": "2 hours ago",
		"AUTH_DEVICE_CODE_LENGTH": "0", "AUTH_DEVICE_USER_CODE_LENGTH": "192", "AUTH_ADMIN_IMPERSONATE_ADMINS": "yes please",
		"TRENDS_OWNER_URL": "trends-owner:3000",
	}
	for name, value := range cases {
		t.Run(name, func(t *testing.T) {
			_, err := load(map[string]string{name: value})
			if err == nil || !strings.HasPrefix(err.Error(), name+":") {
				t.Fatalf("%s=%q: err = %v, want one naming %s", name, value, err, name)
			}
		})
	}
	if _, err := load(map[string]string{"APP_ENV": "production"}); err == nil || !strings.Contains(err.Error(), "AUTH_SECRET") {
		t.Errorf("production without AUTH_SECRET: %v", err)
	}
	if _, err := load(map[string]string{"AUTH_PASSWORD_MIN_LENGTH": "20", "AUTH_PASSWORD_MAX_LENGTH": "10"}); err == nil {
		t.Error("max below min accepted")
	}
	// A trends owner is shared only through one PostgreSQL; SQLite files are each server's own.
	if _, err := load(map[string]string{"TRENDS_OWNER_URL": "http://10.0.0.5:3000"}); err == nil || !strings.Contains(err.Error(), "DATABASE_URL") {
		t.Errorf("TRENDS_OWNER_URL without DATABASE_URL: %v", err)
	}
}

// Time strings follow Better Auth's ms() format; anything below a second or above a year is refused.
func TestTimeStrings(t *testing.T) {
	good := map[string]time.Duration{"30m": 30 * time.Minute, "5s": 5 * time.Second, "1h": time.Hour, "1 hour": time.Hour,
		"2 Days": 48 * time.Hour, "1.5m": 90 * time.Second, "1w": 7 * 24 * time.Hour, "10 secs": 10 * time.Second}
	for v, want := range good {
		c, err := load(map[string]string{"AUTH_DEVICE_CODE_EXPIRES_IN": v, "AUTH_DEVICE_INTERVAL": v})
		if err != nil || c.DeviceCodeExpiresIn != want || c.DeviceInterval != want {
			t.Errorf("%q: got %v / %v, %v; want %v", v, c.DeviceCodeExpiresIn, c.DeviceInterval, err, want)
		}
	}
	for _, v := range []string{"0s", "500ms", "5", "s", "5 s s", "-1m", "1m ago", "2y", "1e3s", "5sec!"} {
		if _, err := load(map[string]string{"AUTH_DEVICE_INTERVAL": v}); err == nil || !strings.HasPrefix(err.Error(), "AUTH_DEVICE_INTERVAL:") {
			t.Errorf("%q accepted or unnamed: %v", v, err)
		}
	}
	c, err := load(map[string]string{"AUTH_ADMIN_USER_IDS": " id1 ,ID2,, "})
	if err != nil || strings.Join(c.AdminUserIDs, "|") != "id1|ID2" {
		t.Errorf("AUTH_ADMIN_USER_IDS = %q, %v (ids keep their case)", c.AdminUserIDs, err)
	}
}

// Cognito's endpoints and issuer come from its domain, region and pool: with a client id and
// any of them missing the configuration is refused, naming the missing variable.
func TestCognitoNeedsDomainRegionPool(t *testing.T) {
	full := map[string]string{"COGNITO_CLIENT_ID": "c", "COGNITO_DOMAIN": "auth.example.com", "COGNITO_REGION": "eu-west-1", "COGNITO_USER_POOL_ID": "p"}
	if _, err := load(full); err != nil {
		t.Fatalf("complete cognito: %v", err)
	}
	for _, missing := range []string{"COGNITO_DOMAIN", "COGNITO_REGION", "COGNITO_USER_POOL_ID"} {
		env := map[string]string{}
		for k, v := range full {
			if k != missing {
				env[k] = v
			}
		}
		if _, err := load(env); err == nil || !strings.Contains(err.Error(), missing) {
			t.Errorf("without %s: %v", missing, err)
		}
	}
	if _, err := load(map[string]string{"COGNITO_DOMAIN": "x"}); err != nil {
		t.Errorf("cognito off: %v", err)
	}
}

// SOCIAL_TEST_IDP_URL points the providers at a stand-in for browser tests; production refuses it.
func TestSocialTestIDPURL(t *testing.T) {
	c, err := load(map[string]string{"SOCIAL_TEST_IDP_URL": "http://127.0.0.1:9999"})
	if err != nil || c.Social.TestIDPURL != "http://127.0.0.1:9999" {
		t.Fatalf("development: %v %q", err, c.Social.TestIDPURL)
	}
	if _, err := load(map[string]string{"SOCIAL_TEST_IDP_URL": "ftp://x"}); err == nil {
		t.Error("a non-http URL was accepted")
	}
	_, err = load(map[string]string{"APP_ENV": "production", "AUTH_SECRET": strings.Repeat("s", 40), "SOCIAL_TEST_IDP_URL": "http://127.0.0.1:9999"})
	if err == nil || !strings.Contains(err.Error(), "SOCIAL_TEST_IDP_URL") {
		t.Errorf("production: %v", err)
	}
}
