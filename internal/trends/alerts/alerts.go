// Package alerts mails each user a digest of what moved among the items their workspaces watch:
// after every import (the default) or once a week, with a signed one-click unsubscribe link.
// It reads the moves from the warehouse, the recipients and their preferences from the store,
// and sends through the mail layer; it knows nothing about HTTP.
package alerts

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/sellertrends/sellertrends/internal/mail"
	"github.com/sellertrends/sellertrends/internal/plan"
	"github.com/sellertrends/sellertrends/internal/store"
	"github.com/sellertrends/sellertrends/internal/trends/report"
	"github.com/sellertrends/sellertrends/internal/trends/warehouse"
)

// sendTimeout bounds one run of digests (reading the moves and sending every mail).
const sendTimeout = 10 * time.Minute

// Notifier computes and sends digests. Its background work stops with Close.
type Notifier struct {
	base string // BASE_URL without a trailing slash: links in mails are absolute
	st   *store.Store
	wh   *warehouse.Warehouse
	send mail.Sender
	key  []byte // signs unsubscribe links (unsubscribe.go)
	now  func() time.Time
	// plans tells a workspace's plan: only plans with alerts get digests (trends.md: not Free).
	plans func(ctx context.Context, workspace string) (plan.Plan, error)

	ctx    context.Context // cancelled by Close
	cancel context.CancelFunc
	wg     sync.WaitGroup
}

// New builds a notifier; secret is the app secret (AUTH_SECRET) the unsubscribe links are signed with.
func New(baseURL *url.URL, st *store.Store, wh *warehouse.Warehouse, send mail.Sender, secret string) *Notifier {
	ctx, cancel := context.WithCancel(context.Background())
	return &Notifier{base: strings.TrimSuffix(baseURL.String(), "/"), st: st, wh: wh, send: send, key: unsubscribeKey(secret),
		now: func() time.Time { return time.Now().UTC() }, ctx: ctx, cancel: cancel,
		plans: func(context.Context, string) (plan.Plan, error) { return plan.Everything, nil }}
}

// SetPlans makes digests follow each workspace's plan (without it, every workspace gets them).
func (n *Notifier) SetPlans(f func(ctx context.Context, workspace string) (plan.Plan, error)) {
	n.plans = f
}

// alertsAllowed reports whether the workspace's plan includes alerts.
func (n *Notifier) alertsAllowed(ctx context.Context, workspace string) (bool, error) {
	p, err := n.plans(ctx, workspace)
	return err == nil && p.Limits.Alerts, err
}

// Close stops the weekly scheduler and waits for digests being sent.
func (n *Notifier) Close() error {
	n.cancel()
	n.wg.Wait()
	return nil
}

// AfterImport is the import jobs' hook: it sends the digests of a finished import in the
// background, so mail never delays or fails the import; failures are logged.
func (n *Notifier) AfterImport(workspaceID string, recs []*warehouse.PeriodRecord) {
	if n.ctx.Err() != nil { // closing
		return
	}
	imports := make([]Import, 0, len(recs))
	for _, r := range recs {
		imports = append(imports, Import{DatasetID: r.DatasetID, Period: r.Period})
	}
	n.wg.Add(1)
	go func() {
		defer n.wg.Done()
		ctx, cancel := context.WithTimeout(n.ctx, sendTimeout)
		defer cancel()
		if err := n.SendImportDigests(ctx, workspaceID, imports); err != nil {
			slog.Error("alerts: import digests", "workspace", workspaceID, "error", err)
		}
	}()
}

// Import is one period an import wrote.
type Import struct {
	DatasetID int
	Period    report.Period
}

// SendImportDigests mails every member of the workspace who wants a digest after each import
// one mail with what moved in the imported datasets, if the workspace watches anything and
// something moved. A dataset counts when the import wrote its latest period (a back-filled
// older period changes no current move). Each user gets each dataset's period once, however
// often it is re-imported or this is called.
func (n *Notifier) SendImportDigests(ctx context.Context, workspaceID string, imports []Import) error {
	if ok, err := n.alertsAllowed(ctx, workspaceID); !ok {
		return err
	}
	// The workspace's own list goes to all its members; each team's list (store.TeamListID)
	// to the team's members only, over the same imported datasets.
	teams, err := n.st.TeamLists(ctx, workspaceID)
	if err != nil {
		return err
	}
	var errs []error
	for _, list := range append([]string{workspaceID}, teams...) {
		errs = append(errs, n.sendListDigests(ctx, workspaceID, list, imports))
	}
	return errors.Join(errs...)
}

// sendListDigests sends the import digests of one list whose numbers come from workspaceID.
func (n *Notifier) sendListDigests(ctx context.Context, workspaceID, list string, imports []Import) error {
	items, err := n.st.Watchlist(ctx, list)
	if err != nil || len(items) == 0 {
		return err
	}
	users, err := n.st.AlertRecipients(ctx, list, store.AlertsAfterImport)
	if err != nil || len(users) == 0 {
		return err
	}
	var all []*Moves
	for _, ds := range newestPerDataset(imports) {
		m, err := n.moves(ctx, workspaceID, ds.DatasetID, items, func(latest warehouse.PeriodCoverage) bool {
			return latest.Start.Equal(ds.Period.Start)
		})
		if err != nil {
			return err
		}
		if m != nil {
			all = append(all, m)
		}
	}
	if len(all) == 0 {
		return nil
	}
	// A team list's digest is its own: a member of the team also gets the organization's.
	suffix := ""
	if list != workspaceID {
		suffix = ":" + list
	}
	var errs []error
	for _, u := range users {
		if err := n.sendImportDigest(ctx, u, all, suffix); err != nil {
			errs = append(errs, fmt.Errorf("to user %s: %w", u.UserID, err))
		}
	}
	return errors.Join(errs...)
}

// newestPerDataset keeps the newest period of each dataset, in the order the datasets come.
func newestPerDataset(imports []Import) []Import {
	var out []Import
	at := map[int]int{}
	for _, im := range imports {
		i, ok := at[im.DatasetID]
		switch {
		case !ok:
			at[im.DatasetID] = len(out)
			out = append(out, im)
		case im.Period.Start.After(out[i].Period.Start):
			out[i] = im
		}
	}
	return out
}

// sendImportDigest sends one user the sections they have not had yet.
func (n *Notifier) sendImportDigest(ctx context.Context, u store.AlertRecipient, all []*Moves, keySuffix string) error {
	var sections []*Moves
	var keys []string
	for _, m := range all {
		if !m.worthMailing(u.Threshold) {
			continue
		}
		key := fmt.Sprintf("import:%d:%s", m.Dataset.ID, m.Period.Start.Format(time.DateOnly)) + keySuffix
		claimed, err := n.st.ClaimAlertDigest(ctx, u.UserID, key, n.now())
		if err != nil {
			return errors.Join(err, n.release(ctx, u, keys))
		}
		if claimed {
			sections, keys = append(sections, m), append(keys, key)
		}
	}
	if len(sections) == 0 {
		return nil
	}
	return n.deliver(ctx, u, keys, n.digest(ctx, u, sections, false))
}

// deliver sends the mail; when it fails the claims are released so nothing is marked sent
// that was not.
func (n *Notifier) deliver(ctx context.Context, u store.AlertRecipient, keys []string, msg mail.Message) error {
	if err := n.send.Send(ctx, msg); err != nil {
		return errors.Join(err, n.release(ctx, u, keys))
	}
	return nil
}

// release forgets claims (even when ctx has ended: they must not stay marked sent).
func (n *Notifier) release(ctx context.Context, u store.AlertRecipient, keys []string) error {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	var errs []error
	for _, k := range keys {
		errs = append(errs, n.st.ReleaseAlertDigest(ctx, u.UserID, k))
	}
	return errors.Join(errs...)
}
