package admin_test

import (
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/sellertrends/sellertrends/internal/store"
	"github.com/sellertrends/sellertrends/internal/testkit"
)

// list-users searches, filters, sorts and pages like Better Auth, with the total of the whole
// match; a query the database could not run answers no users; bad enums are 400s.
func TestListUsers(t *testing.T) {
	testkit.EachDB(t, func(t *testing.T, st *store.Store) {
		w := newWorld(t, st, nil) // admin@example.com (admin), user@example.com (user)
		for i, name := range []string{"Carol", "Dave", "Erin"} {
			res := w.admin.Do("POST", "/api/auth/admin/create-user", map[string]any{"email": fmt.Sprintf("%s%d@shop.test", name, i), "name": name})
			if res.Status != http.StatusOK {
				t.Fatal(res.Status, string(res.Body))
			}
		}
		w.admin.Do("POST", "/api/auth/admin/ban-user", map[string]any{"userId": w.userID})
		list := func(q string) ([]string, map[string]any) {
			t.Helper()
			res := w.admin.Do("GET", "/api/auth/admin/list-users?"+q, nil)
			if res.Status != http.StatusOK {
				t.Fatalf("list-users?%s: %d %s", q, res.Status, res.Body)
			}
			m := res.JSON(t)
			var emails []string
			for _, u := range m["users"].([]any) {
				emails = append(emails, u.(map[string]any)["email"].(string))
			}
			return emails, m
		}
		cases := []struct {
			query string
			want  []string
			total float64
		}{
			{"", []string{"admin@example.com", "user@example.com", "carol0@shop.test", "dave1@shop.test", "erin2@shop.test"}, 5},
			{"searchValue=shop", []string{"carol0@shop.test", "dave1@shop.test", "erin2@shop.test"}, 3},
			{"searchValue=Da&searchField=name&searchOperator=starts_with", []string{"dave1@shop.test"}, 1},
			{"searchValue=.test&searchOperator=ends_with", []string{"carol0@shop.test", "dave1@shop.test", "erin2@shop.test"}, 3},
			{"searchValue=%25", nil, 0}, // a literal %, not a wildcard
			{"filterField=role&filterValue=admin", []string{"admin@example.com"}, 1},
			{"filterField=banned&filterValue=true", []string{"user@example.com"}, 1},
			{"filterField=role&filterValue=user&filterOperator=ne", []string{"admin@example.com"}, 1},
			{"filterField=name&filterValue=Carol&filterValue=Erin&filterOperator=in", []string{"carol0@shop.test", "erin2@shop.test"}, 2},
			{"sortBy=email&sortDirection=desc&limit=2", []string{"user@example.com", "erin2@shop.test"}, 5},
			{"sortBy=email&limit=2&offset=2", []string{"dave1@shop.test", "erin2@shop.test"}, 5},
			{"searchValue=shop&sortBy=name&sortDirection=desc&limit=1&offset=1", []string{"dave1@shop.test"}, 3},
			{"limit=abc", []string{"admin@example.com", "user@example.com", "carol0@shop.test", "dave1@shop.test", "erin2@shop.test"}, 5},
			// What Better Auth's database refuses answers nothing.
			{"sortBy=password", nil, 0},
			{"filterField=password&filterValue=x", nil, 0},
			{"filterField=role&filterValue=admin&filterOperator=in", nil, 0},
			{"filterField=banned&filterValue=maybe", nil, 0},
			{"limit=-1", nil, 0},
			{"offset=1.5", nil, 0},
		}
		for _, c := range cases {
			got, m := list(c.query)
			if !strings.Contains(c.query, "sortBy") { // users created in the same millisecond have no order
				slices.Sort(got)
				slices.Sort(c.want)
			}
			if !slices.Equal(got, c.want) || m["total"] != c.total {
				t.Errorf("list-users?%s = %v total %v, want %v total %v", c.query, got, m["total"], c.want, c.total)
			}
		}
		_, m := list("limit=2&offset=3")
		if m["limit"] != float64(2) || m["offset"] != float64(3) {
			t.Errorf("limit/offset not echoed: %v", m)
		}
		if _, m := list(""); m["limit"] != nil || m["offset"] != nil {
			t.Errorf("limit/offset echoed when not asked: %v", m)
		}
		for _, q := range []string{"searchField=phone&searchValue=x", "sortDirection=up", "filterOperator=like&filterValue=x", "searchOperator=regex&searchValue=x"} {
			wantError(t, q, w.admin.Do("GET", "/api/auth/admin/list-users?"+q, nil), 400, "VALIDATION_ERROR")
		}
		// Injection attempts are values, never SQL.
		if got, _ := list("searchValue=" + url.QueryEscape(`' or 1=1 --`)); len(got) != 0 {
			t.Errorf("injection matched %v", got)
		}
	})
}
