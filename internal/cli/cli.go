// Package cli turns command-line arguments into one of sellertrends' subcommands and wires
// the packages together for it. It is the only place that reads the environment (through config).
package cli

import (
	"fmt"
	"io"
	"log/slog"
	"os"

	"github.com/sellertrends/sellertrends/internal/config"
)

const usage = `usage: sellertrends [command] [flags]

commands:
  serve     start the web server (the default)
  import    import search-term report files:  sellertrends import [--workspace W] [--marketplace M] [--period P] FILE...
  demo      build the demo workspace:  sellertrends demo [--terms N] [--weeks N] [--seed N] [--direct]

  on a remote server (signed in with the device flow; the token is kept in your config directory):
  login       sellertrends login --server URL
  logout      sellertrends logout [--server URL]
  workspaces  sellertrends workspaces --server URL
  import      sellertrends import --server URL [--workspace W] [--marketplace M] [--period P] [--lenient] FILE...
`

// Main runs the subcommand named by args[0] and returns the process exit code.
func Main(args []string) int {
	cmd := "serve"
	if len(args) > 0 && args[0] != "" && args[0][0] != '-' {
		cmd, args = args[0], args[1:]
	}
	cfg, err := config.Load(os.LookupEnv)
	if err != nil {
		fmt.Fprintln(os.Stderr, "configuration error:", err)
		return 2
	}
	slog.SetDefault(slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: cfg.LogLevel})))
	run, ok := commands[cmd]
	if !ok {
		fmt.Fprint(os.Stderr, usage)
		return 2
	}
	if err := run(cfg, args, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "sellertrends "+cmd+":", err)
		return 1
	}
	return 0
}

// commands maps subcommand names to their runners; each lives in its own file.
var commands = map[string]func(cfg *config.Config, args []string, out io.Writer) error{
	"serve":      serve,
	"demo":       demoCmd,
	"import":     importCmd,
	"login":      loginCmd,
	"logout":     logoutCmd,
	"workspaces": workspacesCmd,
	"help":       func(*config.Config, []string, io.Writer) error { fmt.Print(usage); return nil },
}
