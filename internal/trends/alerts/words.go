package alerts

import (
	"context"
	"fmt"
	"math"
	"net/url"
	"strconv"
	"strings"

	"github.com/sellertrends/sellertrends/internal/mail"
	"github.com/sellertrends/sellertrends/internal/store"
	"github.com/sellertrends/sellertrends/internal/trends/report"
	"github.com/sellertrends/sellertrends/internal/trends/warehouse"
)

// digest writes a user's mail: one section per dataset, in a seller's words (ranks, estimated
// searches labelled as estimates), each line linking to its term page.
func (n *Notifier) digest(ctx context.Context, u store.AlertRecipient, moves []*Moves, weekly bool) mail.Message {
	names := n.workspaceNames(ctx, u.UserID)
	d := mail.Digest{Name: u.Name, Heading: "What moved in your watchlist", Settings: n.base + "/dashboard/watchlist",
		Unsubscribe: n.UnsubscribeURL(u.UserID)}
	total := 0
	for _, m := range moves {
		s := m.section(n.base, names[m.Workspace], u.Threshold)
		for _, g := range s.Groups {
			total += len(g.Items) + g.More
		}
		d.Sections = append(d.Sections, s)
	}
	var subject string
	if weekly {
		d.Intro = "Here is this week's digest of the items you watch, for the reports imported in the last seven days."
		d.Why = "You get this digest once a week because you watch items and chose weekly alerts."
		subject = fmt.Sprintf("Your weekly watchlist digest: %s", plural(total, "move", "moves"))
	} else {
		d.Intro = fmt.Sprintf("A report for %s was just imported. Here is what moved among the items you watch.", periodLabel(moves[0].Period))
		d.Why = "You get this mail after each import because you watch items in this workspace."
		subject = fmt.Sprintf("Your watchlist: %s in %s", plural(total, "move", "moves"), periodLabel(moves[0].Period))
	}
	return mail.AlertDigest(u.Email, subject, d)
}

// workspaceNames maps the user's workspace ids to their names (empty when unreadable: the
// section then names only the marketplace).
func (n *Notifier) workspaceNames(ctx context.Context, userID string) map[string]string {
	out := map[string]string{}
	ws, err := n.st.WorkspacesOf(ctx, userID)
	if err != nil {
		return out
	}
	for _, w := range ws {
		out[w.ID] = w.Name
	}
	return out
}

func (m *Moves) section(base, workspace string, threshold int) mail.DigestSection {
	title := fmt.Sprintf("%s, %s reports", m.Dataset.Marketplace, kindAdjective(m.Dataset.Kind))
	if workspace != "" {
		title = workspace + ": " + title
	}
	s := mail.DigestSection{Title: title, Subtitle: fmt.Sprintf("%s compared with %s", periodLabel(m.Period), periodLabel(m.Previous))}
	link := func(term string) string { return termLink(base, m.Workspace, m.Dataset.ID, term) }

	var ranks []mail.DigestItem
	for _, r := range m.ranksBeyond(threshold) {
		ranks = append(ranks, mail.DigestItem{Label: r.Term, Link: link(r.Term), Text: r.words()})
	}
	var tops []mail.DigestItem
	for _, t := range m.Tops {
		tops = append(tops, mail.DigestItem{Label: t.Term, Link: link(t.Term), Text: t.words()})
	}
	var breakouts []mail.DigestItem
	for _, b := range m.Breakouts {
		breakouts = append(breakouts, mail.DigestItem{Label: b.Term, Link: link(b.Term), Text: b.words(m.Dataset.Kind)})
	}
	s.Groups = appendGroup(s.Groups, fmt.Sprintf("Rank moves of %d%% or more", threshold), ranks)
	s.Groups = appendGroup(s.Groups, "Top 3 clicked products and brands", tops)
	s.Groups = appendGroup(s.Groups, "New breakouts among your root words", breakouts)
	return s
}

func appendGroup(groups []mail.DigestGroup, title string, items []mail.DigestItem) []mail.DigestGroup {
	if len(items) == 0 {
		return groups
	}
	g := mail.DigestGroup{Title: title, Items: items}
	if len(items) > maxItemsPerGroup {
		g.Items, g.More = items[:maxItemsPerGroup], len(items)-maxItemsPerGroup
	}
	return append(groups, g)
}

// termLink is the term page's absolute address.
func termLink(base, workspace string, dataset int, term string) string {
	q := url.Values{"ws": {workspace}, "ds": {strconv.Itoa(dataset)}, "t": {term}}
	return base + "/dashboard/term?" + q.Encode()
}

// words says a rank move as sellers read it: "rank 1,210 → 300, about +227% searches (estimate)".
func (r RankMove) words() string {
	switch {
	case r.Old == 0:
		return fmt.Sprintf("entered the report at rank %s", num(r.New))
	case r.New == 0:
		return fmt.Sprintf("dropped out of the report (was rank %s)", num(r.Old))
	}
	change := warehouse.EstimatedSearches(r.New)/warehouse.EstimatedSearches(r.Old) - 1
	return fmt.Sprintf("rank %s → %s, %s estimated searches (an estimate)", num(r.Old), num(r.New), signedPercent(change))
}

func (t TopChange) words() string {
	verb := "left"
	if t.Entered {
		verb = "entered"
	}
	switch t.Watched {
	case "brand":
		return fmt.Sprintf("your watched brand %s %s the top 3 clicked brands", t.Who, verb)
	case "asin":
		return fmt.Sprintf("your watched product %s %s the top 3 clicked products", product(t.Who, t.Title), verb)
	}
	return fmt.Sprintf("%s %s the top 3 clicked products", product(t.Who, t.Title), verb)
}

func product(asin, title string) string {
	if title == "" {
		return asin
	}
	if r := []rune(title); len(r) > 60 {
		title = strings.TrimSpace(string(r[:60])) + "…"
	}
	return fmt.Sprintf("%s (%s)", title, asin)
}

func (b Breakout) words(kind report.PeriodKind) string {
	what := fmt.Sprintf("contains “%s”", b.Phrase)
	switch {
	case b.New:
		return fmt.Sprintf("new search term at rank %s, %s", num(b.Rank), what)
	case b.RankAgo > 0:
		return fmt.Sprintf("rank %s → %s over %s, %s", num(b.RankAgo), num(b.Rank), plural(breakoutWindow, string(kind), string(kind)+"s"), what)
	}
	return fmt.Sprintf("breakout at rank %s, %s", num(b.Rank), what)
}

// num writes an integer with thousands separators: 1,210.
func num(n int) string {
	s := strconv.Itoa(n)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	if neg {
		return "-" + s
	}
	return s
}

func signedPercent(f float64) string {
	p := int(math.Round(f * 100))
	switch {
	case p > 0:
		return "+" + num(p) + "%"
	case p < 0:
		return "−" + num(-p) + "%"
	}
	return "no change in"
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return num(n) + " " + many
}

func kindAdjective(k report.PeriodKind) string {
	switch k {
	case report.Week:
		return "weekly"
	case report.Month:
		return "monthly"
	case report.Quarter:
		return "quarterly"
	case report.Day:
		return "daily"
	}
	return string(k)
}

// periodLabel names a period as the screens do: "Apr 12 – 18, 2026", "April 2026", "Q2 2026".
func periodLabel(p report.Period) string {
	s, e := p.Start, p.End
	switch p.Kind {
	case report.Month:
		return s.Format("January 2006")
	case report.Quarter:
		return fmt.Sprintf("Q%d %d", (int(s.Month())-1)/3+1, s.Year())
	case report.Day:
		return s.Format("Jan 2, 2006")
	}
	switch {
	case s.Year() != e.Year():
		return s.Format("Jan 2, 2006") + " – " + e.Format("Jan 2, 2006")
	case s.Month() != e.Month():
		return s.Format("Jan 2") + " – " + e.Format("Jan 2, 2006")
	}
	return s.Format("Jan 2") + " – " + e.Format("2, 2006")
}
