package auth

import (
	"context"
	"errors"
	"net/http"
	"strings"

	"github.com/sellertrends/sellertrends/internal/config"
	"github.com/sellertrends/sellertrends/internal/mail"
	"github.com/sellertrends/sellertrends/internal/ratelimit"
	"github.com/sellertrends/sellertrends/internal/store"
)

// The seam plugins build on. A plugin (social sign-in, organizations, admin, device
// authorization, Polar, bearer) is a package beside this one: it registers its routes under
// BasePath, its hooks and the Fields it adds to the user and session answers, all before
// Handler is called. Its tables come from its own migrations (store.Migrate).

// Plugin is a Better Auth plugin. Register is called once, by Service.Use.
type Plugin interface {
	ID() string
	Register(s *Service) error
}

// Use registers plugins in order. It must be called before Handler.
func (s *Service) Use(plugins ...Plugin) error {
	for _, p := range plugins {
		if err := p.Register(s); err != nil {
			return err
		}
		s.plugins = append(s.plugins, p.ID())
	}
	return nil
}

// Plugins lists the ids of the registered plugins.
func (s *Service) Plugins() []string { return append([]string(nil), s.plugins...) }

// route is one entry of the route table.
type route struct {
	method, path string
	handler      http.HandlerFunc
	rule         *ratelimit.Rule
}

// Handle mounts a handler at "METHOD /path" under BasePath (e.g. "POST /organization/create").
// rule, when given, replaces the default rate-limit rule for the path.
func (s *Service) Handle(pattern string, h http.HandlerFunc, rule ...ratelimit.Rule) {
	method, path, ok := strings.Cut(pattern, " ")
	if !ok || !strings.HasPrefix(path, "/") {
		panic("auth: route pattern must be \"METHOD /path\": " + pattern)
	}
	rt := route{method: method, path: path, handler: h}
	if len(rule) > 0 {
		rt.rule = &rule[0]
	}
	s.table = append(s.table, rt)
}

// SkipOriginCheck exempts a path (under BasePath) from the origin check: for server-to-server
// callers that prove themselves otherwise (Polar's signed webhooks).
func (s *Service) SkipOriginCheck(path string) {
	if s.originExempt == nil {
		s.originExempt = map[string]bool{}
	}
	s.originExempt[BasePath+path] = true
}

// AllowMediaTypes declares the body media types a POST path (under BasePath) takes, in the
// order its 415 answer lists them (Better Auth's allowedMediaTypes), e.g. httpx.FormOrJSON.
// Every other state-changing route takes JSON only and answers a body of another type with 415
// UNSUPPORTED_MEDIA_TYPE. ReadJSON reads a form as an object of strings.
func (s *Service) AllowMediaTypes(path string, types []string) {
	if s.mediaTypes == nil {
		s.mediaTypes = map[string][]string{}
	}
	s.mediaTypes[BasePath+path] = types
}

// Wrap adds a middleware around the whole /api/auth handler (outermost last registered).
func (s *Service) Wrap(mw func(http.Handler) http.Handler) { s.wrappers = append(s.wrappers, mw) }

// TokenSource finds a session token somewhere other than the session cookie (the bearer
// plugin's Authorization header). It answers "" when the request carries none.
type TokenSource func(r *http.Request) string

// AddTokenSource makes every session read (get-session, RequireSession, sensitive endpoints)
// also accept tokens that src finds.
func (s *Service) AddTokenSource(src TokenSource) { s.tokenSources = append(s.tokenSources, src) }

// FieldsFunc turns the values of a plugin's carried columns (store.Carried: nil, a string, a
// bool, or a time as an RFC 3339 string) into the fields it adds to an answer.
type FieldsFunc func(vals map[string]any) (map[string]any, error)

// AddUserFields adds fields made from the plugin's columns cols of "user" to every user answer
// (they then travel in the session-data cookie like Better Auth's additional fields). The columns
// are read in get-session's one query with the session, so the fields cost no query there.
func (s *Service) AddUserFields(cols []store.Carried, f FieldsFunc) {
	s.store.CarryUserColumns(cols...)
	s.userFields = append(s.userFields, f)
}

// AddSessionFields is AddUserFields for columns of "session" and the session answer.
func (s *Service) AddSessionFields(cols []store.Carried, f FieldsFunc) {
	s.store.CarrySessionColumns(cols...)
	s.sessionFields = append(s.sessionFields, f)
}

// OnUserCreated runs after a user is created (sign-up, admin, social sign-in). An error is
// logged; the account exists either way.
func (s *Service) OnUserCreated(h func(ctx context.Context, u *store.User) error) {
	s.userCreatedHooks = append(s.userCreatedHooks, h)
}

// OnUserUpdated runs after a user's profile or email changed. An error is logged.
func (s *Service) OnUserUpdated(h func(ctx context.Context, u *store.User) error) {
	s.userUpdatedHooks = append(s.userUpdatedHooks, h)
}

// OnUserDeleted runs before a user's row is deleted, so owners of other data (workspaces,
// datasets, billing) remove theirs. An error stops the deletion.
func (s *Service) OnUserDeleted(h func(ctx context.Context, userID string) error) {
	s.userDeletedHooks = append(s.userDeletedHooks, h)
}

// AccountInfoFunc answers the provider's live user info for one of the caller's accounts (the
// social plugin: it knows the providers). Its error is written as it is.
type AccountInfoFunc func(ctx context.Context, a *store.Account) (map[string]any, error)

// SetAccountInfo lets a plugin answer /account-info for accounts that are not the credential one.
func (s *Service) SetAccountInfo(f AccountInfoFunc) { s.accountInfoHook = f }

// BeforeSession runs before a session is created for a user; an error refuses it (the admin
// plugin refuses banned users this way).
func (s *Service) BeforeSession(h func(ctx context.Context, u *store.User) error) {
	s.beforeSession = append(s.beforeSession, h)
}

// Store, Config, Mail and Now give plugins what the core uses.
func (s *Service) Store() *store.Store    { return s.store }
func (s *Service) Config() *config.Config { return s.cfg }
func (s *Service) Mail() mail.Sender      { return s.mail }
func (s *Service) Secret() []byte         { return s.secret }

// withFields fills the plugin fields of a user and a session answer (either may be nil) from
// the carried columns their rows were read with, or, for rows read without them, from one
// query per row.
func (s *Service) withFields(ctx context.Context, sess *SessionJSON, sRow *store.Session, user *UserJSON, uRow *store.User) error {
	if user != nil && len(s.userFields) > 0 {
		if err := s.addFields(ctx, &user.Extra, "user", uRow.ID, uRow.Extra, s.userFields); err != nil {
			return err
		}
	}
	if sess != nil && len(s.sessionFields) > 0 {
		return s.addFields(ctx, &sess.Extra, "session", sRow.ID, sRow.Extra, s.sessionFields)
	}
	return nil
}

func (s *Service) addFields(ctx context.Context, dst *map[string]any, table, id string, vals map[string]any, fields []FieldsFunc) error {
	if vals == nil {
		var err error
		if vals, err = s.store.CarriedValues(ctx, table, id); errors.Is(err, store.ErrNotFound) {
			return nil // a row deleted meanwhile: an answer without the plugins' fields
		} else if err != nil {
			return err
		}
	}
	for _, f := range fields {
		m, err := f(vals)
		if err != nil {
			return err
		}
		*dst = merge(*dst, m)
	}
	return nil
}

func merge(dst, src map[string]any) map[string]any {
	if len(src) == 0 {
		return dst
	}
	if dst == nil {
		dst = make(map[string]any, len(src))
	}
	for k, v := range src {
		dst[k] = v
	}
	return dst
}
