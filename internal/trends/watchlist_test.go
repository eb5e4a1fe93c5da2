package trends_test

import (
	"fmt"
	"testing"

	"github.com/sellertrends/sellertrends/internal/store"
	"github.com/sellertrends/sellertrends/internal/testkit"
)

// Watched products and brands carry their latest numbers (hand-counted in
// testdata/US_Top_Search_Terms_Simple_Week_2026_04_18.csv), not only terms.
func TestWatchedProductsAndBrandsShowLatestNumbers(t *testing.T) {
	testkit.EachDB(t, func(t *testing.T, st *store.Store) {
		app := testkit.Server(t, st, nil)
		c := app.SignUp(t, "seller@example.com", "password123")
		ws := personal(t, c)
		ds := importSeries(t, c, app, ws)
		path := "/api/workspaces/" + ws + "/watchlist"
		for _, it := range [][2]string{{"asin", "b0djoykvj9"}, {"brand", "Juniper & Jade"}, {"asin", "B0NEVERSEEN"}} {
			if res := c.Do("POST", path, map[string]string{"kind": it[0], "value": it[1]}); res.Status != 201 {
				t.Fatalf("add %v: %d %s", it, res.Status, res.Body)
			}
		}
		items := c.Do("GET", path+"?ds="+ds, nil).JSON(t)["items"].([]any)
		got := map[string]map[string]any{}
		for _, it := range items {
			m := it.(map[string]any)
			got[m["value"].(string)], _ = m["presence"].(map[string]any)
		}
		asin := got["B0DJOYKVJ9"]
		if asin["terms"] != 1.0 || asin["bestTerm"] != "paper towels" || asin["bestRank"] != 4.0 || asin["slot"] != 1.0 ||
			fmt.Sprintf("%.4f", asin["clickShare"]) != "0.2893" || asin["title"] != `Juniper & Jade Cordless Paper Towels, 12" x 18", Oeko-Tex Certified` {
			t.Errorf("product: %v", asin)
		}
		if brand := got["Juniper & Jade"]; brand["terms"] != 6.0 || brand["bestTerm"] != "paper towels" || brand["bestRank"] != 4.0 {
			t.Errorf("brand: %v", brand)
		}
		if unseen := got["B0NEVERSEEN"]; unseen == nil || unseen["terms"] != 0.0 {
			t.Errorf("unknown product: %v", unseen)
		}
		if res := c.Do("GET", path+"?ds=x", nil); res.Status != 400 {
			t.Errorf("bad ds: %d", res.Status)
		}
		if res := c.Do("GET", path+"?ds=999", nil); res.Status != 404 {
			t.Errorf("unknown ds: %d", res.Status)
		}
	})
}

// On the demo, each user keeps a personal watchlist: writes succeed, land in their own list, and
// no one else sees them; the items show the demo's numbers.
func TestDemoWatchlistIsPersonal(t *testing.T) {
	testkit.EachDB(t, func(t *testing.T, st *store.Store) {
		app := testkit.Server(t, st, nil)
		a := app.SignUp(t, "a@example.com", "password123")
		b := app.SignUp(t, "b@example.com", "password123")
		res := a.Do("POST", "/api/workspaces/demo/watchlist", map[string]string{"kind": "term", "value": "yoga mat"})
		if res.Status != 201 {
			t.Fatalf("add on demo: %d %s", res.Status, res.Body)
		}
		id := res.JSON(t)["id"].(string)
		if items := a.Do("GET", "/api/workspaces/demo/watchlist", nil).JSON(t)["items"].([]any); len(items) != 1 {
			t.Errorf("a's demo list: %v", items)
		}
		if items := a.Do("GET", "/api/workspaces/"+personal(t, a)+"/watchlist", nil).JSON(t)["items"].([]any); len(items) != 1 {
			t.Errorf("a's own list: %v", items)
		}
		if items := b.Do("GET", "/api/workspaces/demo/watchlist", nil).JSON(t)["items"].([]any); len(items) != 0 {
			t.Errorf("b sees a's items: %v", items)
		}
		if res := b.Do("DELETE", "/api/workspaces/demo/watchlist/"+id, nil); res.Status != 404 {
			t.Errorf("b removed a's item: %d", res.Status)
		}
		if res := a.Do("DELETE", "/api/workspaces/demo/watchlist/"+id, nil); res.Status != 204 {
			t.Errorf("a removes: %d %s", res.Status, res.Body)
		}
		if res := app.Client(t).Do("GET", "/api/workspaces/demo/watchlist", nil); res.Status != 401 {
			t.Errorf("anonymous: %d", res.Status)
		}
	})
}
