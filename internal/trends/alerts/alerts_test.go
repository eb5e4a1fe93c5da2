package alerts_test

import (
	"context"
	"html"
	"net"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/sellertrends/sellertrends/internal/mail"
	"github.com/sellertrends/sellertrends/internal/plan"
	"github.com/sellertrends/sellertrends/internal/store"
	"github.com/sellertrends/sellertrends/internal/testkit"
	"github.com/sellertrends/sellertrends/internal/trends/alerts"
	"github.com/sellertrends/sellertrends/internal/trends/warehouse"
)

const base = "https://trends.example.com"

// env is a workspace owned by ann, shared with bob, carol and dave, watching three terms, a
// product and a brand, with the six fixture weeks imported.
type env struct {
	st    *store.Store
	wh    *warehouse.Warehouse
	inbox *testkit.Inbox
	n     *alerts.Notifier
	ws    string
	ds    int
}

var users = []struct {
	id   string
	pref *store.AlertPreference // nil: never chose (the default: after each import, 20%)
}{
	{"ann", nil},
	{"bob", &store.AlertPreference{Frequency: store.AlertsAfterImport, Threshold: 3}},
	{"carol", &store.AlertPreference{Frequency: store.AlertsWeekly, Threshold: 20}},
	{"dave", &store.AlertPreference{Frequency: store.AlertsOff, Threshold: 20}},
}

func email(id string) string { return id + "@example.com" }

func setup(t *testing.T, st *store.Store) *env {
	t.Helper()
	ctx := context.Background()
	now := time.Now().UTC()
	e := &env{st: st, inbox: testkit.SMTP(t), ws: store.PersonalWorkspaceID("ann")}
	for _, u := range users {
		if err := st.CreateUser(ctx, &store.User{ID: u.id, Name: strings.ToUpper(u.id[:1]) + u.id[1:], Email: email(u.id), CreatedAt: now, UpdatedAt: now}); err != nil {
			t.Fatal(err)
		}
		if u.pref != nil {
			if err := st.SetAlertPreference(ctx, u.id, *u.pref, now); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := st.EnsurePersonalWorkspace(ctx, "ann", "Ann's shop", now); err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"bob", "carol", "dave"} { // organizations have no store API yet
		if _, err := st.DB().ExecContext(ctx, st.Rebind(`insert into "workspaceMember" ("workspaceId", "userId", "role", "createdAt") values (?, ?, 'member', ?)`), e.ws, id, st.Time(now)); err != nil {
			t.Fatal(err)
		}
	}
	for i, it := range []store.WatchlistItem{{Kind: "term", Value: "yoga mat"}, {Kind: "term", Value: "snow shovel"}, {Kind: "term", Value: "ice scraper"},
		{Kind: "asin", Value: "B0WATCHED1"}, {Kind: "brand", Value: "Brandy"}} {
		it.ID, it.CreatedAt = string(rune('a'+i)), now
		if err := st.AddWatchlistItem(ctx, e.ws, it, 100); err != nil {
			t.Fatal(err)
		}
	}
	e.wh, e.ds = fixtureWarehouse(t, e.ws)
	e.n = e.notifier(t, e.inbox.URL)
	return e
}

func (e *env) notifier(t *testing.T, smtpURL string) *alerts.Notifier {
	t.Helper()
	sender, err := mail.NewSMTP(smtpURL, "sellertrends <alerts@example.com>")
	if err != nil {
		t.Fatal(err)
	}
	u, _ := url.Parse(base)
	n := alerts.New(u, e.st, e.wh, sender, testkit.Secret)
	t.Cleanup(func() { n.Close() })
	return n
}

func (e *env) termLink(term string) string {
	return base + "/dashboard/term?" + url.Values{"ds": {itoa(e.ds)}, "t": {term}, "ws": {e.ws}}.Encode()
}

func itoa(n int) string { return strconv.Itoa(n) }

// annLines are the moves of week 6 against week 5 at ann's 20% threshold, worked out by hand
// from the fixture: 1,000 → 300 is 70% of the old rank; estimated searches scale with
// rank^-0.85, and (1000/300)^0.85 = 2.78, so +178%.
var annLines = []string{
	"- yoga mat: rank 1,000 → 300, +178% estimated searches (an estimate)",
	"- ice scraper: dropped out of the report (was rank 5,000)",
	"- garden hose: your watched product Title of B0WATCHED1 (B0WATCHED1) left the top 3 clicked products",
	"- hose reel: your watched product Title of B0WATCHED1 (B0WATCHED1) entered the top 3 clicked products",
	"- garden hose: your watched brand Brandy entered the top 3 clicked brands",
	"- yoga mat: Title of B0NEWPROD1 (B0NEWPROD1) entered the top 3 clicked products",
	"- yoga mat: Title of B0AAAAAAA3 (B0AAAAAAA3) left the top 3 clicked products",
	"- yoga mat xl: new search term at rank 400, contains “yoga mat”",
}

func TestImportDigestGoesOnceToEachMemberWhoWantsIt(t *testing.T) {
	testkit.EachDB(t, func(t *testing.T, st *store.Store) {
		e := setup(t, st)
		ctx := context.Background()
		if err := e.n.SendImportDigests(ctx, e.ws, []alerts.Import{{DatasetID: e.ds, Period: week(6)}}); err != nil {
			t.Fatal(err)
		}
		// Sending is synchronous here: the mails are in the inbox when it returns.
		for id, want := range map[string]int{"ann": 1, "bob": 1, "carol": 0, "dave": 0} {
			if got := e.inbox.Count(email(id)); got != want {
				t.Errorf("%s got %d digests, want %d (carol is weekly, dave off)", id, got, want)
			}
		}
		// Never twice: the same import again, a back-filled older week, a re-import of week 6.
		for _, p := range []alerts.Import{{DatasetID: e.ds, Period: week(6)}, {DatasetID: e.ds, Period: week(3)}} {
			if err := e.n.SendImportDigests(ctx, e.ws, []alerts.Import{p}); err != nil {
				t.Fatal(err)
			}
		}
		importWeeks(t, e.wh, e.ws, 6)
		if err := e.n.SendImportDigests(ctx, e.ws, []alerts.Import{{DatasetID: e.ds, Period: week(6)}}); err != nil {
			t.Fatal(err)
		}
		if a, b := e.inbox.Count(email("ann")), e.inbox.Count(email("bob")); a != 1 || b != 1 {
			t.Fatalf("after sending again: ann %d, bob %d digests, want 1 each", a, b)
		}

		ann := e.inbox.Wait(t, email("ann")).Parse(t)
		if ann.Subject != "Your watchlist: 8 moves in Apr 5 – 11, 2026" {
			t.Errorf("subject %q", ann.Subject)
		}
		for _, line := range append(annLines, "== Ann's shop: amazon.com, weekly reports ==", "Apr 5 – 11, 2026 compared with Mar 29 – Apr 4, 2026",
			"Rank moves of 20% or more", "  "+e.termLink("yoga mat"), "  "+e.termLink("yoga mat xl"),
			"Change alert settings: "+base+"/dashboard/watchlist", "Unsubscribe: "+e.n.UnsubscribeURL("ann")) {
			if !strings.Contains(ann.Text, line+"\n") {
				t.Errorf("ann's digest lacks the line %q:\n%s", line, ann.Text)
			}
		}
		// Below ann's threshold (2,000 → 2,100 is 5%), and a breakout already last week.
		for _, absent := range []string{"snow shovel", "yoga mat bag"} {
			if strings.Contains(ann.Text, absent) || strings.Contains(ann.HTML, absent) {
				t.Errorf("ann's digest mentions %q:\n%s", absent, ann.Text)
			}
		}
		// As a browser reads it: entities (&amp; in the link, &#43; for +) decoded.
		if !strings.Contains(html.UnescapeString(ann.HTML), `<a href="`+e.termLink("yoga mat")+`" style="color:#4f46e5">yoga mat</a>: rank 1,000 → 300, +178% estimated searches (an estimate)`) {
			t.Errorf("HTML part lacks the linked move:\n%s", ann.HTML)
		}
		if got := ann.Header.Get("List-Unsubscribe"); got != "<"+e.n.UnsubscribeURL("ann")+">" {
			t.Errorf("List-Unsubscribe %q", got)
		}
		if got := ann.Header.Get("List-Unsubscribe-Post"); got != "List-Unsubscribe=One-Click" {
			t.Errorf("List-Unsubscribe-Post %q", got)
		}

		bob := e.inbox.Wait(t, email("bob")).Parse(t)
		if bob.Subject != "Your watchlist: 9 moves in Apr 5 – 11, 2026" ||
			!strings.Contains(bob.Text, "- snow shovel: rank 2,000 → 2,100, −4% estimated searches (an estimate)\n") ||
			!strings.Contains(bob.Text, "Rank moves of 3% or more") {
			t.Errorf("bob's digest (3%% threshold) should list the snow shovel's 5%% move: %q\n%s", bob.Subject, bob.Text)
		}
		if bob.Header.Get("List-Unsubscribe") == ann.Header.Get("List-Unsubscribe") {
			t.Error("bob's unsubscribe link is ann's")
		}
	})
}

func TestNothingIsSentWithoutWatchlistOrMoves(t *testing.T) {
	e := setup(t, testkit.SQLite(t))
	ctx := context.Background()
	now := time.Now().UTC()
	if err := e.st.EnsurePersonalWorkspace(ctx, "bob", "Bob", now); err != nil {
		t.Fatal(err)
	}
	bobWS := store.PersonalWorkspaceID("bob")
	send := func(w int, ds int) {
		t.Helper()
		if err := e.n.SendImportDigests(ctx, bobWS, []alerts.Import{{DatasetID: ds, Period: week(w)}}); err != nil {
			t.Fatal(err)
		}
	}
	// An empty watchlist: no digest, whatever moved.
	ds := importWeeks(t, e.wh, bobWS, 5, 6)
	send(6, ds)
	// A watchlist where nothing moved: "filler term" keeps rank 9,000 and its top 3.
	if err := e.st.AddWatchlistItem(ctx, bobWS, store.WatchlistItem{ID: "f", Kind: "term", Value: "filler term", CreatedAt: now}, 10); err != nil {
		t.Fatal(err)
	}
	send(6, ds)
	// A dataset's first period has nothing to compare with; a back-filled week 5 is not the
	// latest, so it changes no current move.
	if err := e.st.AddWatchlistItem(ctx, bobWS, store.WatchlistItem{ID: "y", Kind: "term", Value: "yoga mat", CreatedAt: now}, 10); err != nil {
		t.Fatal(err)
	}
	if err := e.wh.DeletePeriod(ctx, ds, week(5).Kind, week(5).Start); err != nil {
		t.Fatal(err)
	}
	send(6, ds)
	importWeeks(t, e.wh, bobWS, 5)
	send(5, ds)
	if n := e.inbox.Count(email("bob")); n != 0 {
		t.Fatalf("bob got %d digests, want none", n)
	}
	// The control: week 6 against week 5, with "yoga mat" watched, is worth a mail.
	send(6, ds)
	if n := e.inbox.Count(email("bob")); n != 1 {
		t.Errorf("bob got %d digests for a real move, want 1", n)
	}
}

func TestFailedSendIsNotMarkedSent(t *testing.T) {
	e := setup(t, testkit.SQLite(t))
	ctx := context.Background()
	ln, err := net.Listen("tcp", "127.0.0.1:0") // a port nothing listens on once closed
	if err != nil {
		t.Fatal(err)
	}
	ln.Close()
	down := e.notifier(t, "smtp://"+ln.Addr().String())
	if err := down.SendImportDigests(ctx, e.ws, []alerts.Import{{DatasetID: e.ds, Period: week(6)}}); err == nil {
		t.Fatal("sending through a dead SMTP server reported no error")
	}
	if err := e.n.SendImportDigests(ctx, e.ws, []alerts.Import{{DatasetID: e.ds, Period: week(6)}}); err != nil {
		t.Fatal(err)
	}
	if a := e.inbox.Count(email("ann")); a != 1 {
		t.Errorf("after the failed send, the retry sent ann %d digests, want 1", a)
	}
}

// nextDue is the first Monday 08:00 UTC after t, worked out independently of the package.
func nextDue(t time.Time) time.Time {
	d := time.Date(t.Year(), t.Month(), t.Day(), 8, 0, 0, 0, time.UTC)
	for !d.After(t) || d.Weekday() != time.Monday {
		d = d.Add(24 * time.Hour)
	}
	return d
}

func TestWeeklyDigestIsSentOnceWhenDue(t *testing.T) {
	testkit.EachDB(t, func(t *testing.T, st *store.Store) {
		e := setup(t, st)
		ctx := context.Background()
		due := nextDue(time.Now().UTC()) // the fixture was imported just now, before this due time
		// Before the due time the week's digest is last week's, which covers no import.
		if err := e.n.SendWeeklyDigests(ctx, due.Add(-time.Minute)); err != nil {
			t.Fatal(err)
		}
		if n := e.inbox.Count(email("carol")); n != 0 {
			t.Fatalf("carol got %d digests before the due time", n)
		}

		// The scheduler, driven by the test's clock.
		ticks := make(chan time.Time)
		runCtx, stop := context.WithCancel(ctx)
		done := make(chan struct{})
		go func() { defer close(done); e.n.RunWeekly(runCtx, ticks) }()
		ticks <- due.Add(time.Minute)
		carol := e.inbox.Wait(t, email("carol")).Parse(t)
		ticks <- due.Add(2 * time.Minute)
		ticks <- due.Add(3 * time.Minute) // received only once the previous tick's run is over
		stop()
		<-done

		if carol.Subject != "Your weekly watchlist digest: 8 moves" {
			t.Errorf("subject %q", carol.Subject)
		}
		for _, line := range append(annLines, "You get this digest once a week because you watch items and chose weekly alerts.") {
			if !strings.Contains(carol.Text, line+"\n") {
				t.Errorf("carol's digest lacks %q:\n%s", line, carol.Text)
			}
		}
		// A week later nothing new was imported: no mail. Nobody else has weekly digests.
		if err := e.n.SendWeeklyDigests(ctx, due.Add(7*24*time.Hour+time.Minute)); err != nil {
			t.Fatal(err)
		}
		for _, id := range []string{"ann", "bob", "carol", "dave"} {
			if n := e.inbox.Count(email(id)); n != 0 {
				t.Errorf("%s got %d more digests, want none", id, n)
			}
		}
		// The per-import run leaves weekly users out.
		if err := e.n.SendImportDigests(ctx, e.ws, []alerts.Import{{DatasetID: e.ds, Period: week(6)}}); err != nil {
			t.Fatal(err)
		}
		if n := e.inbox.Count(email("carol")); n != 0 {
			t.Errorf("carol (weekly) got %d per-import digests", n)
		}
	})
}

func TestUnsubscribeLinkIsSignedPerUser(t *testing.T) {
	testkit.EachDB(t, func(t *testing.T, st *store.Store) {
		e := setup(t, st)
		ctx := context.Background()
		link, err := url.Parse(e.n.UnsubscribeURL("bob"))
		if err != nil || link.Scheme+"://"+link.Host+link.Path != base+alerts.UnsubscribePath || link.Query().Get("u") != "bob" {
			t.Fatalf("link %v %v", link, err)
		}
		token := link.Query().Get("t")
		otherSecret := alerts.New(link, e.st, e.wh, nil, strings.Repeat("x", 40))
		defer otherSecret.Close()
		for _, c := range []struct {
			user, token string
			valid       bool
			n           *alerts.Notifier
		}{
			{"bob", token, true, e.n},
			{"ann", token, false, e.n},         // another user's token
			{"bob", token[1:], false, e.n},     // cut
			{"bob", tamper(token), false, e.n}, // changed
			{"bob", "", false, e.n},
			{"bob", token, false, otherSecret}, // signed with another secret
		} {
			if got := c.n.ValidUnsubscribe(c.user, c.token); got != c.valid {
				t.Errorf("ValidUnsubscribe(%s, %q) = %v", c.user, c.token, got)
			}
		}
		if err := e.n.Unsubscribe(ctx, "bob", "A"+token[1:]); err != alerts.ErrBadToken {
			t.Errorf("bad token: %v", err)
		}
		if err := e.n.Unsubscribe(ctx, "bob", token); err != nil {
			t.Fatal(err)
		}
		if p, err := e.st.AlertPreference(ctx, "bob"); err != nil || p != (store.AlertPreference{Frequency: store.AlertsOff, Threshold: 3}) {
			t.Errorf("bob after unsubscribing: %+v %v (the threshold stays)", p, err)
		}
		if err := e.n.SendImportDigests(ctx, e.ws, []alerts.Import{{DatasetID: e.ds, Period: week(6)}}); err != nil {
			t.Fatal(err)
		}
		if b, a := e.inbox.Count(email("bob")), e.inbox.Count(email("ann")); b != 0 || a != 1 {
			t.Errorf("after bob unsubscribed: bob %d, ann %d digests", b, a)
		}
	})
}

// tamper changes a token's first character (to another one, whatever it was).
func tamper(token string) string {
	if strings.HasPrefix(token, "A") {
		return "B" + token[1:]
	}
	return "A" + token[1:]
}

func TestDigestsFollowTheWorkspacePlan(t *testing.T) {
	e := setup(t, testkit.SQLite(t))
	ctx := context.Background()
	on := plan.Free
	e.n.SetPlans(func(_ context.Context, ws string) (plan.Plan, error) {
		if ws != e.ws {
			t.Errorf("plan asked for %q", ws)
		}
		return plan.ByName(on), nil
	})
	imp := []alerts.Import{{DatasetID: e.ds, Period: week(6)}}
	if err := e.n.SendImportDigests(ctx, e.ws, imp); err != nil {
		t.Fatal(err)
	}
	due := nextDue(time.Now().UTC())
	if err := e.n.SendWeeklyDigests(ctx, due); err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"ann", "bob", "carol"} {
		if n := e.inbox.Count(email(id)); n != 0 {
			t.Errorf("on the Free plan %s got %d digests", id, n)
		}
	}
	on = plan.Pro // an upgrade: the next import's digest goes out
	if err := e.n.SendImportDigests(ctx, e.ws, imp); err != nil {
		t.Fatal(err)
	}
	if n := e.inbox.Count(email("ann")); n != 1 {
		t.Errorf("on the Pro plan ann got %d digests, want 1", n)
	}
}
