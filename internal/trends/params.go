package trends

import (
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/sellertrends/sellertrends/internal/httpx"
)

// params reads query parameters; the first bad one becomes a 400 naming it.
type params struct {
	q   url.Values
	err error
}

func (p *params) fail(name, format string, args ...any) {
	if p.err == nil {
		p.err = httpx.BadRequest(name + ": " + fmt.Sprintf(format, args...))
	}
}

func (p *params) str(name string, max int) string {
	v := strings.TrimSpace(p.q.Get(name))
	if len(v) > max {
		p.fail(name, "at most %d characters", max)
		return ""
	}
	return v
}

func (p *params) intIn(name string, def, min, max int) int {
	v := p.q.Get(name)
	if v == "" {
		return def
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < min || n > max {
		p.fail(name, "must be a whole number from %d to %d, got %q", min, max, v)
		return def
	}
	return n
}

func (p *params) oneOf(name, def string, allowed []string) string {
	v := p.q.Get(name)
	if v == "" {
		return def
	}
	if !slices.Contains(allowed, v) {
		p.fail(name, "must be one of %s, got %q", strings.Join(allowed, ", "), v)
		return def
	}
	return v
}

// day reads a date as YYYY-MM-DD (zero when absent).
func (p *params) day(name string) time.Time {
	v := p.q.Get(name)
	if v == "" {
		return time.Time{}
	}
	d, err := time.Parse(time.DateOnly, v)
	if err != nil {
		p.fail(name, "must be a day as YYYY-MM-DD, got %q", v)
	}
	return d
}
