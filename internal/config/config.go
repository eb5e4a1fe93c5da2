// Package config reads every environment variable the server understands into one Config.
// It is the only package that looks at the environment; everything else receives a Config.
package config

import (
	"fmt"
	"log/slog"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// Config is the parsed, validated configuration of one sellertrends process.
type Config struct {
	Port    int
	BaseURL *url.URL
	AppEnv  string // development | production
	DataDir string

	DatabaseURL string // empty: SQLite under DataDir
	RedisURL    string
	SMTPURL     string
	MailFrom    string

	AuthSecret                   string // empty in development until cli fills it from DataDir
	AuthRequireEmailVerification bool
	AuthRateLimitEnabled         bool
	AuthRateLimitStorage         string // memory | database | redis
	AuthSessionExpiresIn         time.Duration
	AuthSessionUpdateAge         time.Duration
	AuthSessionFreshAge          time.Duration
	AuthPasswordMinLength        int
	AuthPasswordMaxLength        int
	AuthChangeEmailEnabled       bool
	AuthDeleteUserEnabled        bool
	AuthRevokeSessionsOnReset    bool
	TrustedOrigins               []string
	AdminEmails                  []string
	AdminUserIDs                 []string
	// Admin plugin: how long an impersonation session lasts, and whether admins may
	// impersonate other admins.
	AdminImpersonationDuration time.Duration
	AdminImpersonateAdmins     bool
	// Device authorization (RFC 8628): code lifetime, polling interval, code lengths.
	DeviceCodeExpiresIn  time.Duration
	DeviceInterval       time.Duration
	DeviceCodeLength     int
	DeviceUserCodeLength int

	Marketplace       string
	LogLevel          slog.Level
	MaxUploadBytes    int64
	DuckDBMemory      string
	DuckDBWriteMemory string
	// ImportQueuePerUser is how many imports one user may have queued or running at once; an
	// upload past it answers 429 at once.
	ImportQueuePerUser int
	// DebugImportPauseAt names an import step at which every import stops and waits forever
	// (a test or an operator then kills the process there); empty in normal operation.
	DebugImportPauseAt string
	// TrendsOwnerURL, when set, is the server that owns the trends store (DuckDB): this server
	// opens none and forwards the trends API to it (several servers on one PostgreSQL).
	TrendsOwnerURL string

	Billing Billing
	Social  Social
}

// Production reports whether APP_ENV is production.
func (c *Config) Production() bool { return c.AppEnv == "production" }

// Load parses the variables found by lookup (os.LookupEnv in main, a map in tests).
// The first bad value stops with an error naming the variable.
func Load(lookup func(string) (string, bool)) (*Config, error) {
	p := parser{lookup: lookup}
	c := &Config{}
	c.AppEnv = p.oneOf("APP_ENV", "development", "development", "production")
	c.Port = p.intRange("PORT", 3000, 1, 65535)
	c.BaseURL = p.url("BASE_URL", fmt.Sprintf("http://localhost:%d", c.Port))
	c.DataDir = p.str("DATA_DIR", "./data")
	c.DatabaseURL = p.databaseURL("DATABASE_URL")
	c.RedisURL = p.schemeURL("REDIS_URL", "redis", "rediss")
	c.SMTPURL = p.schemeURL("SMTP_URL", "smtp", "smtps")
	c.MailFrom = p.str("MAIL_FROM", "sellertrends <no-reply@localhost>")
	c.AuthSecret = p.str("AUTH_SECRET", "")
	if c.Production() && c.AuthSecret == "" && p.err == nil {
		p.err = fmt.Errorf("AUTH_SECRET: required when APP_ENV=production")
	}
	if c.AuthSecret != "" && len(c.AuthSecret) < 32 && p.err == nil {
		p.err = fmt.Errorf("AUTH_SECRET: must be at least 32 characters")
	}
	c.AuthRequireEmailVerification = p.boolean("AUTH_REQUIRE_EMAIL_VERIFICATION", false)
	c.AuthRateLimitEnabled = p.boolean("AUTH_RATE_LIMIT_ENABLED", c.Production())
	storage := "database"
	if c.RedisURL != "" {
		storage = "redis"
	}
	c.AuthRateLimitStorage = p.oneOf("AUTH_RATE_LIMIT_STORAGE", storage, "memory", "database", "redis")
	if c.AuthRateLimitStorage == "redis" && c.RedisURL == "" && p.err == nil {
		p.err = fmt.Errorf("AUTH_RATE_LIMIT_STORAGE: redis needs REDIS_URL")
	}
	c.AuthSessionExpiresIn = p.seconds("AUTH_SESSION_EXPIRES_IN", 7*24*time.Hour, false)
	c.AuthSessionUpdateAge = p.seconds("AUTH_SESSION_UPDATE_AGE", 24*time.Hour, true)
	c.AuthSessionFreshAge = p.seconds("AUTH_SESSION_FRESH_AGE", 24*time.Hour, true)
	c.AuthPasswordMinLength = p.intRange("AUTH_PASSWORD_MIN_LENGTH", 8, 1, 1024)
	c.AuthPasswordMaxLength = p.intRange("AUTH_PASSWORD_MAX_LENGTH", 128, 1, 1024)
	if c.AuthPasswordMaxLength < c.AuthPasswordMinLength && p.err == nil {
		p.err = fmt.Errorf("AUTH_PASSWORD_MAX_LENGTH: must not be below AUTH_PASSWORD_MIN_LENGTH")
	}
	c.AuthChangeEmailEnabled = p.boolean("AUTH_CHANGE_EMAIL_ENABLED", true)
	c.AuthDeleteUserEnabled = p.boolean("AUTH_DELETE_USER_ENABLED", true)
	c.AuthRevokeSessionsOnReset = p.boolean("AUTH_REVOKE_SESSIONS_ON_PASSWORD_RESET", true)
	c.TrustedOrigins = p.origins("TRUSTED_ORIGINS")
	c.AdminEmails = p.list("AUTH_ADMIN_EMAILS", true)
	c.AdminUserIDs = p.list("AUTH_ADMIN_USER_IDS", false)
	c.AdminImpersonationDuration = p.timeString("AUTH_ADMIN_IMPERSONATION_DURATION", time.Hour)
	c.AdminImpersonateAdmins = p.boolean("AUTH_ADMIN_IMPERSONATE_ADMINS", false)
	c.DeviceCodeExpiresIn = p.timeString("AUTH_DEVICE_CODE_EXPIRES_IN", 30*time.Minute)
	c.DeviceInterval = p.timeString("AUTH_DEVICE_INTERVAL", 5*time.Second)
	c.DeviceCodeLength = p.intRange("AUTH_DEVICE_CODE_LENGTH", 40, 1, 191)
	c.DeviceUserCodeLength = p.intRange("AUTH_DEVICE_USER_CODE_LENGTH", 8, 1, 191)
	c.Marketplace = p.str("MARKETPLACE", "Amazon")
	c.LogLevel = p.level("LOG_LEVEL", slog.LevelError)
	c.MaxUploadBytes = p.int64Min("MAX_UPLOAD_BYTES", 4<<30, 1)
	c.DuckDBMemory = p.str("DUCKDB_MEMORY_LIMIT", "512MB")
	c.DuckDBWriteMemory = p.str("DUCKDB_IMPORT_MEMORY_LIMIT", "1GB")
	c.ImportQueuePerUser = p.intRange("IMPORT_QUEUE_PER_USER", 20, 1, 10_000)
	c.DebugImportPauseAt = p.str("DEBUG_IMPORT_PAUSE_AT", "")
	c.TrendsOwnerURL = p.schemeURL("TRENDS_OWNER_URL", "http", "https")
	if c.TrendsOwnerURL != "" && c.DatabaseURL == "" && p.err == nil {
		p.err = fmt.Errorf("TRENDS_OWNER_URL: needs DATABASE_URL (the servers must share one PostgreSQL)")
	}
	c.Billing = p.billing()
	c.Social = p.social(c.Production())
	if p.err != nil {
		return nil, p.err
	}
	return c, nil
}

// parser keeps the first error so Load reads as a list of variables.
type parser struct {
	lookup func(string) (string, bool)
	err    error
}

func (p *parser) raw(name string) (string, bool) {
	v, ok := p.lookup(name)
	v = strings.TrimSpace(v)
	return v, ok && v != ""
}

func (p *parser) fail(name, format string, args ...any) {
	if p.err == nil {
		p.err = fmt.Errorf("%s: %s", name, fmt.Sprintf(format, args...))
	}
}

func (p *parser) str(name, def string) string {
	if v, ok := p.raw(name); ok {
		return v
	}
	return def
}

func (p *parser) oneOf(name, def string, allowed ...string) string {
	v := p.str(name, def)
	for _, a := range allowed {
		if v == a {
			return v
		}
	}
	p.fail(name, "%q is not one of %s", v, strings.Join(allowed, ", "))
	return def
}

func (p *parser) intRange(name string, def, min, max int) int {
	v, ok := p.raw(name)
	if !ok {
		return def
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < min || n > max {
		p.fail(name, "%q is not an integer between %d and %d", v, min, max)
		return def
	}
	return n
}

func (p *parser) int64Min(name string, def, min int64) int64 {
	v, ok := p.raw(name)
	if !ok {
		return def
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n < min {
		p.fail(name, "%q is not an integer of at least %d", v, min)
		return def
	}
	return n
}

// seconds parses a whole number of seconds; zero is allowed only where it means "off".
func (p *parser) seconds(name string, def time.Duration, zeroOK bool) time.Duration {
	v, ok := p.raw(name)
	if !ok {
		return def
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n < 0 || (n == 0 && !zeroOK) || n > 400*24*3600 {
		p.fail(name, "%q is not a number of seconds (0 to 34560000%s)", v, map[bool]string{false: ", not 0"}[zeroOK])
		return def
	}
	return time.Duration(n) * time.Second
}

// timeStringPattern is Better Auth's ms() format: "30m", "5s", "1 hour", "2d" (no sign, no "ago").
var timeStringPattern = regexp.MustCompile(`(?i)^(\d+|\d+\.\d+) ?(seconds?|secs?|s|minutes?|mins?|m|hours?|hrs?|h|days?|d|weeks?|w|months?|mo|years?|yrs?|y)$`)

var timeUnits = map[byte]time.Duration{'s': time.Second, 'm': time.Minute, 'h': time.Hour, 'd': 24 * time.Hour, 'w': 7 * 24 * time.Hour, 'y': 8766 * time.Hour}

// timeString parses a positive duration written as Better Auth's time strings ('30m', '5s',
// '1h'), at least one second and at most a year.
func (p *parser) timeString(name string, def time.Duration) time.Duration {
	v, ok := p.raw(name)
	if !ok {
		return def
	}
	m := timeStringPattern.FindStringSubmatch(v)
	if m == nil {
		p.fail(name, "%q is not a time string like '30m', '5s' or '1h'", v)
		return def
	}
	n, _ := strconv.ParseFloat(m[1], 64)
	unit := strings.ToLower(m[2])
	per := timeUnits[unit[0]]
	if strings.HasPrefix(unit, "mo") {
		per = 30 * 24 * time.Hour
	}
	d := time.Duration(n * float64(per))
	if d < time.Second || d > 8766*time.Hour {
		p.fail(name, "%q must be between 1s and 1y", v)
		return def
	}
	return d
}

func (p *parser) boolean(name string, def bool) bool {
	v, ok := p.raw(name)
	if !ok {
		return def
	}
	b, err := strconv.ParseBool(v)
	if err != nil {
		p.fail(name, "%q is not true or false", v)
		return def
	}
	return b
}

func (p *parser) url(name, def string) *url.URL {
	v := p.str(name, def)
	u, err := url.Parse(strings.TrimRight(v, "/"))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		p.fail(name, "%q is not an http(s) URL", v)
		u, _ = url.Parse(def)
	}
	return u
}

func (p *parser) schemeURL(name string, schemes ...string) string {
	v, ok := p.raw(name)
	if !ok {
		return ""
	}
	u, err := url.Parse(v)
	if err == nil && u.Host != "" {
		for _, s := range schemes {
			if u.Scheme == s {
				return v
			}
		}
	}
	p.fail(name, "not a URL with scheme %s", strings.Join(schemes, " or "))
	return ""
}

func (p *parser) databaseURL(name string) string {
	return p.schemeURL(name, "postgres", "postgresql")
}

func (p *parser) origins(name string) []string {
	var out []string
	for _, o := range p.list(name, false) {
		u, err := url.Parse(o)
		if err != nil || u.Scheme == "" || u.Host == "" {
			p.fail(name, "%q is not an origin like https://example.com", o)
			continue
		}
		out = append(out, u.Scheme+"://"+u.Host)
	}
	return out
}

func (p *parser) list(name string, lower bool) []string {
	v, _ := p.raw(name)
	var out []string
	for _, s := range strings.Split(v, ",") {
		if s = strings.TrimSpace(s); s != "" {
			if lower {
				s = strings.ToLower(s)
			}
			out = append(out, s)
		}
	}
	return out
}

func (p *parser) level(name string, def slog.Level) slog.Level {
	v, ok := p.raw(name)
	if !ok {
		return def
	}
	var l slog.Level
	if err := l.UnmarshalText([]byte(v)); err != nil {
		p.fail(name, "%q is not one of debug, info, warn, error", v)
		return def
	}
	return l
}
