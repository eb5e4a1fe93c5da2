package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/sellertrends/sellertrends/internal/store"
)

// pickLocalWorkspace turns import's --workspace into a workspace id: an id is taken as it is,
// an email names that user's personal workspace, and without the flag the store's only
// workspace is the obvious choice.
func pickLocalWorkspace(ctx context.Context, st *store.Store, flag string) (string, error) {
	switch {
	case strings.Contains(flag, "@"):
		u, err := st.UserByEmail(ctx, strings.ToLower(flag))
		if errors.Is(err, store.ErrNotFound) {
			return "", fmt.Errorf("--workspace: no user with the email %s (see `sellertrends workspaces`)", flag)
		}
		if err != nil {
			return "", err
		}
		return store.PersonalWorkspaceID(u.ID), nil
	case flag != "":
		return flag, nil
	}
	all, err := st.AllWorkspaces(ctx)
	if err != nil {
		return "", err
	}
	switch len(all) {
	case 0:
		return "", errors.New("no workspace yet: sign up in the app first, or name one with --workspace")
	case 1:
		return all[0].ID, nil
	}
	return "", fmt.Errorf("%d workspaces: name one with --workspace (an id or its owner's email; see `sellertrends workspaces`)", len(all))
}

// localWorkspaces lists the workspaces of the store on this machine (DATABASE_URL or DATA_DIR).
func localWorkspaces(ctx context.Context, st *store.Store, out io.Writer) error {
	all, err := st.AllWorkspaces(ctx)
	if err != nil {
		return err
	}
	tw := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tNAME\tKIND\tOWNERS")
	for _, w := range all {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", w.ID, w.Name, w.Kind, strings.Join(w.Owners, ", "))
	}
	return tw.Flush()
}
