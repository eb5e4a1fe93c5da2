package trends

import (
	"net/http"
	"reflect"
	"regexp"
	"strconv"
	"strings"

	"github.com/sellertrends/sellertrends/internal/httpx"
)

var pathParam = regexp.MustCompile(`\{([^}]+)\}`)

var statusText = map[int]string{
	http.StatusBadRequest:            "A parameter is invalid; the message names it",
	http.StatusUnauthorized:          "No session",
	http.StatusForbidden:             "The demo workspace is read-only, the plan's limit is reached, or a write came from an untrusted origin",
	http.StatusNotFound:              "No such workspace, dataset or item (or not yours)",
	http.StatusConflict:              "Already there",
	http.StatusRequestEntityTooLarge: "The upload is larger than MAX_UPLOAD_BYTES",
	http.StatusUnsupportedMediaType:  "The body is not of the route's declared media type",
}

// openAPIDocument describes every route of the route table, with its answers' bodies and
// statuses, so the document and the routes cannot drift apart.
func (s *Service) openAPIDocument() map[string]any {
	g := newSchemas()
	g.component(reflect.TypeFor[httpx.Error]()) // "Error", the body of every error
	paths := map[string]map[string]any{}
	for _, r := range s.routes() {
		op := map[string]any{
			"summary":     r.Summary,
			"operationId": operationID(r.Method, r.Path),
			"security":    []map[string][]string{{"session": {}}},
			"responses":   responses(g, r.Answer, r.errors()),
		}
		var ps []map[string]any
		for _, p := range r.Params {
			ps = append(ps, map[string]any{"name": p.Name, "in": p.In, "required": p.Required || p.In == "path", "description": p.Description, "schema": map[string]string{"type": p.Type}})
		}
		if ps != nil {
			op["parameters"] = ps
		}
		if body := requestBody(g, r.Answer.Request); body != nil {
			op["requestBody"] = body
		}
		if paths[r.Path] == nil {
			paths[r.Path] = map[string]any{}
		}
		paths[r.Path][strings.ToLower(r.Method)] = op
	}
	return map[string]any{
		"openapi": "3.1.0",
		"info":    map[string]any{"title": "sellertrends API", "version": "1", "description": "Search-term trends for marketplace sellers. Authenticate with the Better Auth session cookie from /api/auth/sign-in/email. Every error answers {code, message}; any route may also answer 500 when something breaks."},
		"paths":   paths,
		"components": map[string]any{
			"schemas": g.components,
			"securitySchemes": map[string]any{
				"session": map[string]any{"type": "apiKey", "in": "cookie", "name": "better-auth.session_token"},
			},
		},
	}
}

func responses(g *schemas, a answer, errors []int) map[string]any {
	out := map[string]any{}
	success := map[string]any{"description": http.StatusText(a.Status)}
	switch a.Body.(type) {
	case nil:
	case csvText:
		success["content"] = map[string]any{"text/csv": map[string]any{"schema": g.of(reflect.TypeFor[csvText]())}}
	default:
		success["content"] = map[string]any{"application/json": map[string]any{"schema": g.of(reflect.TypeOf(a.Body))}}
	}
	out[strconv.Itoa(a.Status)] = success
	for _, code := range errors {
		out[strconv.Itoa(code)] = map[string]any{"description": statusText[code],
			"content": map[string]any{"application/json": map[string]any{"schema": map[string]any{"$ref": "#/components/schemas/Error"}}}}
	}
	return out
}

func requestBody(g *schemas, req any) map[string]any {
	switch req.(type) {
	case nil:
		return nil
	case uploadForm:
		form := g.components[g.component(reflect.TypeFor[uploadForm]())].(map[string]any)
		form["properties"].(map[string]any)["files"] = map[string]any{"type": "array", "minItems": 1, "maxItems": maxFilesPerUpload,
			"items": map[string]any{"type": "string", "contentMediaType": "application/octet-stream"}}
		return map[string]any{"required": true, "content": map[string]any{"multipart/form-data": map[string]any{"schema": map[string]any{"$ref": "#/components/schemas/uploadForm"}}}}
	}
	return map[string]any{"required": true, "content": map[string]any{"application/json": map[string]any{"schema": g.of(reflect.TypeOf(req))}}}
}

func operationID(method, path string) string {
	p := pathParam.ReplaceAllString(path, "by-$1")
	return strings.ToLower(method) + strings.ReplaceAll(strings.ReplaceAll(strings.TrimPrefix(p, "/api"), "/", "_"), ".", "_")
}

func (s *Service) openAPI(w http.ResponseWriter, r *http.Request) {
	httpx.WriteJSON(w, http.StatusOK, s.openAPIDocument())
}
