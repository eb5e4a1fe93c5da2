package trends

import (
	"net/http"
	"regexp"
	"strings"

	"github.com/sellertrends/sellertrends/internal/httpx"
)

var pathParam = regexp.MustCompile(`\{([^}]+)\}`)

// openAPIDocument describes every route of the route table, so the two cannot drift apart.
func (s *Service) openAPIDocument() map[string]any {
	paths := map[string]map[string]any{}
	for _, r := range s.routes() {
		op := map[string]any{
			"summary":     r.Summary,
			"operationId": operationID(r.Method, r.Path),
			"security":    []map[string][]string{{"session": {}}},
			"responses": map[string]any{
				"200": map[string]any{"description": "Success"},
				"400": map[string]any{"description": "A parameter is invalid; the message names it"},
				"401": map[string]any{"description": "No session"},
				"404": map[string]any{"description": "No such workspace, dataset or item (or not yours)"},
			},
		}
		var ps []map[string]any
		for _, p := range r.Params {
			ps = append(ps, map[string]any{"name": p.Name, "in": p.In, "required": p.Required || p.In == "path", "description": p.Description, "schema": map[string]string{"type": p.Type}})
		}
		if ps != nil {
			op["parameters"] = ps
		}
		if paths[r.Path] == nil {
			paths[r.Path] = map[string]any{}
		}
		paths[r.Path][strings.ToLower(r.Method)] = op
	}
	return map[string]any{
		"openapi": "3.1.0",
		"info":    map[string]any{"title": "sellertrends API", "version": "1", "description": "Search-term trends for marketplace sellers. Authenticate with the Better Auth session cookie from /api/auth/sign-in/email."},
		"paths":   paths,
		"components": map[string]any{"securitySchemes": map[string]any{
			"session": map[string]any{"type": "apiKey", "in": "cookie", "name": "better-auth.session_token"},
		}},
	}
}

func operationID(method, path string) string {
	p := pathParam.ReplaceAllString(path, "by-$1")
	return strings.ToLower(method) + strings.ReplaceAll(strings.ReplaceAll(strings.TrimPrefix(p, "/api"), "/", "_"), ".", "_")
}

func (s *Service) openAPI(w http.ResponseWriter, r *http.Request) {
	httpx.WriteJSON(w, http.StatusOK, s.openAPIDocument())
}
