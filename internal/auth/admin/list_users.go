package admin

import (
	"context"
	"errors"
	"fmt"
	"math"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/sellertrends/sellertrends/internal/auth"
	"github.com/sellertrends/sellertrends/internal/httpx"
)

// maxPage bounds one page of list-users (Better Auth answers every user when no limit is
// given; we answer at most this many, so memory stays bounded).
const maxPage = 1000

// userField is a column list-users may search, filter or sort by, with its kind.
type userField struct{ column, kind string } // kind: text, bool, date

var userFieldsByName = map[string]userField{
	"id": {`"id"`, "text"}, "name": {`"name"`, "text"}, "email": {`"email"`, "text"}, "emailVerified": {`"emailVerified"`, "bool"},
	"image": {`"image"`, "text"}, "createdAt": {`"createdAt"`, "date"}, "updatedAt": {`"updatedAt"`, "date"},
	"role": {`"role"`, "text"}, "banned": {`"banned"`, "bool"}, "banReason": {`"banReason"`, "text"}, "banExpires": {`"banExpires"`, "date"},
}

var operators = map[string]string{"eq": "=", "ne": "<>", "lt": "<", "lte": "<=", "gt": ">", "gte": ">=",
	"in": "in", "not_in": "not in", "contains": "like", "starts_with": "like", "ends_with": "like"}

// listQuery is list-users' query string, validated.
type listQuery struct {
	where         []string
	args          []any
	order         string
	limit, offset int // 0: not given
	invalid       bool
}

// GET /admin/list-users: searchValue/searchField/searchOperator, filterField/filterValue/
// filterOperator, sortBy/sortDirection, limit/offset. Answers {users, total, limit?, offset?};
// a query the database cannot run (an unknown field, a negative limit) answers no users, as
// Better Auth does.
func (p *Plugin) listUsers(w http.ResponseWriter, r *http.Request) {
	q, err := p.parseListQuery(r.URL.Query())
	if err != nil {
		auth.WriteError(w, r, err)
		return
	}
	_, c, ok := p.requireAdminSession(w, r)
	if !ok || !p.allowed(w, r, c, perm("user", "list"), errNotAllowedList) {
		return
	}
	empty := map[string]any{"users": []any{}, "total": 0}
	if q.invalid {
		httpx.WriteJSON(w, http.StatusOK, empty)
		return
	}
	users, total, err := p.queryUsers(r.Context(), q)
	if err != nil {
		auth.WriteError(w, r, err)
		return
	}
	out := map[string]any{"users": users, "total": total}
	if q.limit > 0 {
		out["limit"] = q.limit
	}
	if q.offset > 0 {
		out["offset"] = q.offset
	}
	httpx.WriteJSON(w, http.StatusOK, out)
}

func (p *Plugin) parseListQuery(v url.Values) (listQuery, error) {
	var q listQuery
	var f []string
	enum := func(name string, allowed ...string) string {
		x := v.Get(name)
		if _, ok := v[name]; !ok {
			return ""
		}
		for _, a := range allowed {
			if x == a {
				return x
			}
		}
		f = append(f, fmt.Sprintf(`[query.%s] Invalid option: expected one of "%s"`, name, strings.Join(allowed, `"|"`)))
		return ""
	}
	searchField := enum("searchField", "email", "name")
	searchOp := enum("searchOperator", "contains", "starts_with", "ends_with")
	direction := enum("sortDirection", "asc", "desc")
	filterOp := enum("filterOperator", "eq", "ne", "lt", "lte", "gt", "gte", "in", "not_in", "contains", "starts_with", "ends_with")
	if len(f) > 0 {
		return q, httpx.BadRequest(strings.Join(f, "; "))
	}
	if s := v.Get("searchValue"); s != "" {
		q.add(or(searchField, "email"), or(searchOp, "contains"), []string{s})
	}
	if values, ok := v["filterValue"]; ok {
		q.add(or(v.Get("filterField"), "email"), or(filterOp, "eq"), values)
	}
	q.limit, q.invalid = number(v.Get("limit"), q.invalid)
	q.offset, q.invalid = number(v.Get("offset"), q.invalid)
	q.limit = min(q.limit, maxPage)
	q.order = `"createdAt" asc, "id" asc`
	if by := v.Get("sortBy"); by != "" {
		fl, ok := userFieldsByName[by]
		if !ok {
			q.invalid = true
		}
		q.order = fl.column + " " + or(direction, "asc") + `, "id" asc`
	}
	return q, nil
}

func or(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// number reads limit/offset as JavaScript's Number(x) || undefined: absent, 0 or not a number
// means "not given"; negative or fractional values fail in the database (invalid).
func number(s string, invalid bool) (int, bool) {
	if s == "" {
		return 0, invalid
	}
	n, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil || n == 0 || math.IsNaN(n) {
		return 0, invalid
	}
	if n < 0 || n != math.Trunc(n) || n > math.MaxInt32 {
		return 0, true
	}
	return int(n), invalid
}

// add appends one condition; a field, operator or value the database would refuse marks the
// query invalid.
func (q *listQuery) add(field, op string, values []string) {
	fl, ok := userFieldsByName[field]
	if !ok {
		q.invalid = true
		return
	}
	list := op == "in" || op == "not_in"
	if list != (len(values) > 1) {
		q.invalid = true // Better Auth needs an array for in/not_in and one value otherwise
		return
	}
	args := make([]any, 0, len(values))
	for _, s := range values {
		a, ok := fieldValue(fl.kind, s)
		if !ok {
			q.invalid = true
			return
		}
		args = append(args, a)
	}
	switch op {
	case "in", "not_in":
		q.where = append(q.where, fmt.Sprintf("%s %s (%s)", fl.column, operators[op], strings.TrimSuffix(strings.Repeat("?, ", len(args)), ", ")))
		q.args = append(q.args, args...)
	case "contains", "starts_with", "ends_with":
		if fl.kind != "text" {
			q.invalid = true
			return
		}
		pattern := likeEscape(values[0])
		switch op {
		case "contains":
			pattern = "%" + pattern + "%"
		case "starts_with":
			pattern += "%"
		default:
			pattern = "%" + pattern
		}
		q.where = append(q.where, fl.column+` like ? escape '\'`)
		q.args = append(q.args, pattern)
	default:
		q.where = append(q.where, fl.column+" "+operators[op]+" ?")
		q.args = append(q.args, args[0])
	}
}

// fieldValue converts a query-string value to the field's kind (bool as true/false, dates as
// ISO 8601); ok false when it does not convert.
func fieldValue(kind, s string) (any, bool) {
	switch kind {
	case "bool":
		b, err := strconv.ParseBool(s)
		return b, err == nil
	case "date":
		t, err := time.Parse(time.RFC3339Nano, s)
		return t.UTC(), err == nil
	}
	return s, true
}

func likeEscape(s string) string {
	return strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(s)
}

// queryUsers runs the page and the total with the same conditions.
func (p *Plugin) queryUsers(ctx context.Context, q listQuery) ([]auth.UserJSON, int, error) {
	st := p.s.Store()
	args := make([]any, len(q.args))
	for i, a := range q.args {
		switch x := a.(type) {
		case bool:
			args[i] = p.boolArg(x)
		case time.Time:
			args[i] = st.Time(x)
		default:
			args[i] = a
		}
	}
	where := ""
	if len(q.where) > 0 {
		where = " where " + strings.Join(q.where, " and ")
	}
	var total int
	if err := st.DB().QueryRowContext(ctx, st.Rebind(`select count(*) from "user"`+where), args...).Scan(&total); err != nil {
		return nil, 0, fmt.Errorf("admin: count users: %w", err)
	}
	limit := q.limit
	if limit == 0 {
		limit = maxPage
	}
	rows, err := st.DB().QueryContext(ctx, st.Rebind(fmt.Sprintf(`select "id" from "user"%s order by %s limit %d offset %d`, where, q.order, limit, q.offset)), args...)
	if err != nil {
		return nil, 0, fmt.Errorf("admin: list users: %w", err)
	}
	var ids []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return nil, 0, err
		}
		ids = append(ids, id)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, 0, err
	}
	users := make([]auth.UserJSON, 0, len(ids))
	for _, id := range ids {
		u, err := p.userAnswer(ctx, id)
		if errors.Is(err, errUserNotFound) {
			continue // removed meanwhile
		}
		if err != nil {
			return nil, 0, err
		}
		users = append(users, u)
	}
	return users, total, nil
}
