package alerts

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/sellertrends/sellertrends/internal/store"
	"github.com/sellertrends/sellertrends/internal/trends/warehouse"
)

// Weekly digests are due every Monday at 08:00 UTC: Amazon's weekly reports end on Saturday,
// so the week's imports are usually in by then. A digest covers the datasets whose latest
// period was imported in the seven days before it was due.
const (
	weeklyDay  = time.Monday
	weeklyHour = 8
	week       = 7 * 24 * time.Hour
)

// weeklyDue is the latest due time at or before now.
func weeklyDue(now time.Time) time.Time {
	now = now.UTC()
	d := time.Date(now.Year(), now.Month(), now.Day(), weeklyHour, 0, 0, 0, time.UTC)
	for d.Weekday() != weeklyDay || d.After(now) {
		d = d.AddDate(0, 0, -1)
	}
	return d
}

// StartWeekly runs the weekly scheduler until Close: once now, then at every tick of every.
// A run sends only digests not sent yet, so ticking often costs one query per weekly user.
func (n *Notifier) StartWeekly(every time.Duration) {
	n.wg.Add(1)
	go func() {
		defer n.wg.Done()
		n.weeklyRun(n.ctx, n.now())
		t := time.NewTicker(every)
		defer t.Stop()
		n.RunWeekly(n.ctx, t.C)
	}()
}

// RunWeekly sends the digests due at each time received from ticks until ctx ends. Tests
// drive it with their own clock.
func (n *Notifier) RunWeekly(ctx context.Context, ticks <-chan time.Time) {
	for {
		select {
		case <-ctx.Done():
			return
		case now := <-ticks:
			n.weeklyRun(ctx, now)
		}
	}
}

func (n *Notifier) weeklyRun(parent context.Context, now time.Time) {
	ctx, cancel := context.WithTimeout(parent, sendTimeout)
	defer cancel()
	if err := n.SendWeeklyDigests(ctx, now); err != nil && parent.Err() == nil { // not when stopping
		slog.Error("alerts: weekly digests", "error", err)
	}
}

// SendWeeklyDigests sends every weekly user the digest due at now, unless they already have
// it. A user with nothing to report is marked done for the week all the same, so later ticks
// do not compute it again.
func (n *Notifier) SendWeeklyDigests(ctx context.Context, now time.Time) error {
	due := weeklyDue(now)
	key := "weekly:" + due.Format(time.DateOnly)
	users, err := n.st.WeeklyAlertRecipients(ctx)
	if err != nil {
		return err
	}
	w := weeklyRun{n: n, due: due, moves: map[string]*Moves{}, items: map[string][]store.WatchlistItem{}}
	var errs []error
	for _, u := range users {
		claimed, err := n.st.ClaimAlertDigest(ctx, u.UserID, key, now)
		if err != nil {
			return errors.Join(append(errs, err)...)
		}
		if !claimed {
			continue
		}
		if err := w.send(ctx, u, key); err != nil {
			errs = append(errs, fmt.Errorf("to user %s: %w", u.UserID, err))
		}
	}
	return errors.Join(errs...)
}

// weeklyRun keeps what one run read, as several users share workspaces.
type weeklyRun struct {
	n     *Notifier
	due   time.Time
	moves map[string]*Moves // by list and dataset id; nil: nothing imported that week
	items map[string][]store.WatchlistItem
}

func (w *weeklyRun) send(ctx context.Context, u store.AlertRecipient, key string) error {
	var sections []*Moves
	for _, ws := range u.Workspaces {
		ms, err := w.workspaceMoves(ctx, ws)
		if err != nil {
			return errors.Join(err, w.n.release(ctx, u, []string{key}))
		}
		for _, m := range ms {
			if m.worthMailing(u.Threshold) {
				sections = append(sections, m)
			}
		}
	}
	if len(sections) == 0 {
		return nil
	}
	return w.n.deliver(ctx, u, []string{key}, w.n.digest(ctx, u, sections, true))
}

// workspaceMoves is what moved in each dataset of the workspace imported during the week.
func (w *weeklyRun) workspaceMoves(ctx context.Context, list string) ([]*Moves, error) {
	// A team's list (store.TeamListID) reads its organization's datasets under its plan.
	ws, err := w.n.st.DataWorkspace(ctx, list)
	if errors.Is(err, store.ErrNotFound) {
		return nil, nil
	} else if err != nil {
		return nil, err
	}
	if ok, err := w.n.alertsAllowed(ctx, ws); !ok {
		return nil, err
	}
	items, ok := w.items[list]
	if !ok {
		if items, err = w.n.st.Watchlist(ctx, list); err != nil {
			return nil, err
		}
		w.items[list] = items
	}
	datasets, err := w.n.wh.Datasets(ctx, ws)
	if err != nil {
		return nil, err
	}
	var out []*Moves
	for _, d := range datasets {
		key := fmt.Sprintf("%s/%d", list, d.ID)
		m, seen := w.moves[key]
		if !seen {
			m, err = w.n.moves(ctx, ws, d.ID, items, func(latest warehouse.PeriodCoverage) bool {
				return latest.ImportedAt.After(w.due.Add(-week)) && !latest.ImportedAt.After(w.due)
			})
			if err != nil {
				return nil, err
			}
			w.moves[key] = m
		}
		if m != nil {
			out = append(out, m)
		}
	}
	return out, nil
}
