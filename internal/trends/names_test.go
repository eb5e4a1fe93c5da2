package trends_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/sellertrends/sellertrends/internal/testkit"
)

// The explore filters' suggestions: names of the dataset's latest period starting with what was
// typed, most frequent first, case-insensitive; a bad kind is a 400 naming it.
func TestNameSuggestions(t *testing.T) {
	app := testkit.Server(t, testkit.SQLite(t), nil)
	c := app.SignUp(t, "seller@example.com", "password123")
	ws := personal(t, c)
	ds := importSeries(t, c, app, ws)
	base := "/api/trends/" + ws + "/datasets/" + ds + "/names"
	names := func(q string) []string {
		var out []string
		for _, n := range c.Do("GET", base+q, nil).JSON(t)["names"].([]any) {
			out = append(out, n.(string))
		}
		return out
	}
	if got := names("?kind=brand&q=JUN"); !slices.Contains(got, "Juniper & Jade") {
		t.Errorf("brands starting with JUN: %v", got)
	}
	for _, n := range names("?q=h") {
		if !strings.HasPrefix(strings.ToLower(n), "h") {
			t.Errorf("brand %q does not start with h", n)
		}
	}
	if got := names("?kind=brand"); len(got) == 0 || got[0] != "Hydrelle" {
		t.Errorf("most frequent brand first: %v", got) // top brand of 6 terms in the 04-18 file
	}
	if got := names("?kind=category&q=lawn"); !slices.Equal(got, []string{"Lawn and Garden"}) {
		t.Errorf("categories: %v", got)
	}
	if got := names("?kind=brand&q=zzz"); len(got) != 0 {
		t.Errorf("no match: %v", got)
	}
	if res := c.Do("GET", base+"?kind=asin", nil); res.Status != 400 || !strings.HasPrefix(res.JSON(t)["message"].(string), "kind:") {
		t.Errorf("bad kind: %d %s", res.Status, res.Body)
	}
}

// While the demo is generated on a first start, its dataset list says how far it is and shows
// no half-built data; once done, the datasets come back.
func TestDemoBuildingIsReported(t *testing.T) {
	app := testkit.Server(t, testkit.SQLite(t), nil)
	c := app.SignUp(t, "seller@example.com", "password123")
	app.Demo.Start(104)
	app.Demo.Week(30, 104)
	got := c.Do("GET", "/api/trends/demo/datasets", nil).JSON(t)
	b, _ := got["building"].(map[string]any)
	if b == nil || b["week"] != 30.0 || b["weeks"] != 104.0 || len(got["datasets"].([]any)) != 0 {
		t.Errorf("while building: %v", got)
	}
	if own := c.Do("GET", "/api/trends/"+personal(t, c)+"/datasets", nil).JSON(t); own["building"] != nil {
		t.Errorf("a user's own workspace says building: %v", own)
	}
	app.Demo.Done()
	if got := c.Do("GET", "/api/trends/demo/datasets", nil).JSON(t); got["building"] != nil {
		t.Errorf("after: %v", got)
	}
}
