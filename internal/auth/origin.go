package auth

import (
	"net/http"
	"net/url"
	"strings"

	"github.com/sellertrends/sellertrends/internal/httpx"
)

// originCheck guards state-changing requests (see checkOrigin).
func (s *Service) originCheck(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !StateChanging(r.Method) || s.originExempt[r.URL.Path] {
			next.ServeHTTP(w, r)
			return
		}
		if err := s.checkOrigin(r); err != nil {
			writeErr(w, r, err)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// StateChanging reports whether a method may change state (anything but GET, HEAD, OPTIONS).
func StateChanging(method string) bool {
	return method != http.MethodGet && method != http.MethodHead && method != http.MethodOptions
}

// checkOrigin is the origin check of a state-changing request, as Better Auth's origin and
// form-CSRF middlewares make it:
//   - an Origin (or Referer) that is present and not trusted is refused, with or without
//     cookies ('Invalid origin'): a sign-in or sign-up from another site must not set a
//     session (login CSRF). Better Auth checks cookie-less requests only on the credential
//     forms; we check every POST, which costs a same-site client nothing;
//   - a request with cookies needs an Origin or Referer ('Missing or null Origin');
//   - a cookie-less cross-site form navigation to the credential forms is 'Invalid request'
//     (the spec's wording), and a cookie-less credential request that carries fetch metadata
//     needs an origin too.
//
// Server-to-server callers (no cookies, no fetch metadata, no Origin) pass: they act on no
// browser session.
func (s *Service) checkOrigin(r *http.Request) *httpx.Error {
	h := r.Header
	origin := h.Get("Origin")
	if origin == "" {
		origin = h.Get("Referer")
	}
	cookies, site, mode := h.Get("Cookie") != "", h.Get("Sec-Fetch-Site"), h.Get("Sec-Fetch-Mode")
	if !cookies && credentialForm(r.URL.Path) && site == "cross-site" && mode == "navigate" {
		return ErrInvalidRequest
	}
	if origin != "" && origin != "null" && !s.trustedOrigin(origin) {
		return ErrInvalidOrigin
	}
	if !cookies {
		if !credentialForm(r.URL.Path) || (site == "" && mode == "" && h.Get("Sec-Fetch-Dest") == "") {
			return nil // server-to-server callers carry neither cookies nor fetch metadata
		}
	}
	if origin == "" || origin == "null" {
		return ErrMissingOrigin
	}
	return nil
}

// credentialForm reports whether path is a sign-in or sign-up endpoint, where Better Auth
// checks cookie-less requests too.
func credentialForm(path string) bool {
	return strings.HasPrefix(path, BasePath+"/sign-in/") || strings.HasPrefix(path, BasePath+"/sign-up/")
}

// trustedOrigin reports whether rawURL's origin is BASE_URL's or one of TRUSTED_ORIGINS.
func (s *Service) trustedOrigin(rawURL string) bool {
	u, err := url.Parse(rawURL)
	if err != nil || u.Scheme == "" || u.Host == "" {
		return false
	}
	o := strings.ToLower(u.Scheme + "://" + u.Host)
	if o == strings.ToLower(s.cfg.BaseURL.Scheme+"://"+s.cfg.BaseURL.Host) {
		return true
	}
	for _, t := range s.cfg.TrustedOrigins {
		if strings.EqualFold(o, t) {
			return true
		}
	}
	return false
}

// SafeURL reports whether a callback/redirect target is a same-site relative path or an
// absolute URL on a trusted origin. Protocol-relative ("//evil"), backslash tricks, control
// characters and javascript: URLs are refused, and so is a path whose percent-decoding holds
// a separator ("/%2F%2Fevil", "/%5Cevil", "/%2f\\evil"): a router or browser that decodes
// it once would leave the site, as Better Auth's isSafeRelativeURL reasons.
func (s *Service) SafeURL(raw string) bool {
	if raw == "" {
		return true
	}
	if hasControl(raw) || strings.Contains(raw, "\\") {
		return false
	}
	if strings.HasPrefix(raw, "/") {
		path := raw
		if i := strings.IndexAny(raw, "?#"); i >= 0 {
			path = raw[:i]
		}
		if strings.HasPrefix(path, "//") || encodedSeparator(path) {
			return false
		}
		u, err := url.Parse(raw)
		return err == nil && u.Scheme == "" && u.Host == ""
	}
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") {
		return false
	}
	return s.trustedOrigin(raw)
}

// encodedSeparator reports whether a path holds a percent-encoded / or \ (any case).
func encodedSeparator(path string) bool {
	p := strings.ToLower(path)
	return strings.Contains(p, "%2f") || strings.Contains(p, "%5c")
}

// hasControl reports C0 and C1 control characters and DEL, which browsers strip or choke on.
func hasControl(s string) bool {
	for _, r := range s {
		if r < 0x20 || (r >= 0x7f && r <= 0x9f) {
			return true
		}
	}
	return false
}

// CheckURLs validates the optional URL Fields of a request, each with its own message.
func (s *Service) CheckURLs(callbackURL, redirectTo, errorCallbackURL, newUserCallbackURL string) *httpx.Error {
	switch {
	case !s.SafeURL(callbackURL):
		return ErrInvalidCallbackURL
	case !s.SafeURL(redirectTo):
		return ErrInvalidRedirectURL
	case !s.SafeURL(errorCallbackURL):
		return ErrInvalidErrorCallback
	case !s.SafeURL(newUserCallbackURL):
		return ErrInvalidNewUserCallback
	}
	return nil
}

// absoluteURL makes a validated callback absolute against BASE_URL (for links in mails).
func (s *Service) absoluteURL(path string) string {
	if strings.HasPrefix(path, "/") {
		return s.cfg.BaseURL.String() + path
	}
	return path
}

// RequireTrustedOrigin guards another package's state-changing route with the same origin check
// as the auth routes: the trends API's writes and the theme server functions.
func (s *Service) RequireTrustedOrigin(next http.Handler) http.Handler { return s.originCheck(next) }
