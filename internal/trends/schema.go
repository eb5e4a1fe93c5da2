package trends

import (
	"reflect"
	"strings"
	"time"
)

// schemas describes Go types as JSON Schema (OpenAPI 3.1) the way encoding/json writes them:
// structs by their json tags (embedded structs flattened, omitempty fields not required),
// pointers, slices and maps as nullable (nil encodes as null), time.Time as a date-time string.
// Named structs become components referred to by $ref. Written here rather than taken from a
// library because the libraries read nullability from tags, and these types belong to
// packages (warehouse, store) that should not carry documentation tags.
type schemas struct {
	components map[string]any
	names      map[reflect.Type]string
}

func newSchemas() *schemas {
	return &schemas{components: map[string]any{}, names: map[reflect.Type]string{}}
}

var timeType = reflect.TypeFor[time.Time]()

func (g *schemas) of(t reflect.Type) map[string]any {
	switch {
	case t == timeType:
		return map[string]any{"type": "string", "format": "date-time"}
	case t == reflect.TypeFor[csvText]():
		return map[string]any{"type": "string"}
	}
	switch t.Kind() {
	case reflect.Pointer:
		return nullable(g.of(t.Elem()))
	case reflect.Struct:
		return map[string]any{"$ref": "#/components/schemas/" + g.component(t)}
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Uint8 {
			return nullable(map[string]any{"type": "string", "contentEncoding": "base64"})
		}
		return nullable(map[string]any{"type": "array", "items": g.of(t.Elem())})
	case reflect.Array:
		return map[string]any{"type": "array", "items": g.of(t.Elem()), "minItems": t.Len(), "maxItems": t.Len()}
	case reflect.Map:
		return nullable(map[string]any{"type": "object", "additionalProperties": g.of(t.Elem())})
	case reflect.String:
		return map[string]any{"type": "string"}
	case reflect.Bool:
		return map[string]any{"type": "boolean"}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64, reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return map[string]any{"type": "integer"}
	case reflect.Float32, reflect.Float64:
		return map[string]any{"type": "number"}
	}
	return map[string]any{} // an interface: any value
}

// component registers a struct once (a type that refers to itself is not followed twice).
func (g *schemas) component(t reflect.Type) string {
	if name, ok := g.names[t]; ok {
		return name
	}
	name := t.Name()
	if name == "" || g.components[name] != nil {
		name = strings.ReplaceAll(t.String(), ".", "_")
	}
	g.names[t] = name
	g.components[name] = map[string]any{} // a placeholder while its fields are described
	props, required := map[string]any{}, []string{}
	g.fields(t, props, &required)
	obj := map[string]any{"type": "object", "properties": props, "additionalProperties": false}
	if len(required) > 0 {
		obj["required"] = required
	}
	g.components[name] = obj
	return name
}

func (g *schemas) fields(t reflect.Type, props map[string]any, required *[]string) {
	for f := range t.Fields() {
		tag, hasTag := f.Tag.Lookup("json")
		name, opts, _ := strings.Cut(tag, ",")
		switch {
		case name == "-" && opts == "":
			continue
		case f.Anonymous && !hasTag && f.Type.Kind() == reflect.Struct:
			g.fields(f.Type, props, required)
			continue
		case !f.IsExported():
			continue
		}
		if name == "" {
			name = f.Name
		}
		props[name] = g.of(f.Type)
		if !strings.Contains(opts, "omitempty") && !strings.Contains(opts, "omitzero") {
			*required = append(*required, name)
		}
	}
}

// nullable lets a schema be null as well.
func nullable(s map[string]any) map[string]any {
	if typ, ok := s["type"].(string); ok {
		s["type"] = []string{typ, "null"}
		return s
	}
	return map[string]any{"oneOf": []any{s, map[string]any{"type": "null"}}}
}
