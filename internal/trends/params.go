package trends

import (
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

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

// validText answers 400 when a path segment or a query parameter of a request is not valid
// UTF-8 (or the query is malformed), naming it, before the route's handler runs: no handler has
// to think about it, and such text never reaches a store (DuckDB refuses it with an error).
func validText(pattern string, next http.Handler) http.Handler {
	var wildcards []string
	for _, m := range pathParam.FindAllStringSubmatch(pattern, -1) {
		wildcards = append(wildcards, m[1])
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		for _, name := range wildcards {
			if !utf8.ValidString(r.PathValue(name)) {
				httpx.WriteError(w, r, invalidUTF8(name))
				return
			}
		}
		q, err := url.ParseQuery(r.URL.RawQuery)
		if err != nil {
			httpx.WriteError(w, r, httpx.BadRequest("query: "+err.Error()))
			return
		}
		for name, values := range q {
			if !utf8.ValidString(name) {
				httpx.WriteError(w, r, httpx.BadRequest("query: a parameter name is not valid UTF-8"))
				return
			}
			for _, v := range values {
				if !utf8.ValidString(v) {
					httpx.WriteError(w, r, invalidUTF8(name))
					return
				}
			}
		}
		next.ServeHTTP(w, r)
	})
}

func invalidUTF8(name string) error {
	return httpx.BadRequest(name + ": not valid UTF-8 text")
}
