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
  help      print this usage (also -h, --help); starts nothing
  import    import search-term report files:  sellertrends import [--workspace W] [--marketplace M] [--period P] FILE...
  demo      build the demo workspace:  sellertrends demo [--terms N] [--weeks N] [--seed N] [--direct]

  on a remote server (signed in with the device flow; the token is kept in your config directory):
  login       sellertrends login --server URL
  logout      sellertrends logout [--server URL]
  workspaces  sellertrends workspaces --server URL
  import      sellertrends import --server URL [--workspace W] [--marketplace M] [--period P] [--lenient] FILE...
`

// Main runs the subcommand named by args[0] and returns the process exit code.
func Main(args []string) int { return Run(args, os.LookupEnv, os.Stdout, os.Stderr) }

// Run is Main with its environment and output given (tests run it).
func Run(args []string, lookup func(string) (string, bool), stdout, stderr io.Writer) int {
	// Asking for help prints the usage and stops: before the configuration is read, so it works
	// with a broken environment too, and never reaches serve (the default command).
	if len(args) > 0 && isHelp(args[0]) {
		fmt.Fprint(stdout, usage)
		return 0
	}
	cmd := "serve"
	if len(args) > 0 && args[0] != "" && args[0][0] != '-' {
		cmd, args = args[0], args[1:]
	}
	if cmd == "serve" && len(args) > 0 {
		// serve takes no arguments; a typo ("--prot 80") must not start a server either.
		if !isHelp(args[0]) {
			fmt.Fprintf(stderr, "sellertrends serve: unexpected argument %q\n", args[0])
			fmt.Fprint(stderr, usage)
			return 2
		}
		fmt.Fprint(stdout, usage)
		return 0
	}
	cfg, err := config.Load(lookup)
	if err != nil {
		fmt.Fprintln(stderr, "configuration error:", err)
		return 2
	}
	slog.SetDefault(slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: cfg.LogLevel})))
	run, ok := commands[cmd]
	if !ok {
		fmt.Fprint(stderr, usage)
		return 2
	}
	if err := run(cfg, args, stdout); err != nil {
		fmt.Fprintln(stderr, "sellertrends "+cmd+":", err)
		return 1
	}
	return 0
}

// isHelp tells whether an argument asks for the usage.
func isHelp(arg string) bool {
	switch arg {
	case "help", "-h", "-help", "--help":
		return true
	}
	return false
}

// commands maps subcommand names to their runners; each lives in its own file.
var commands = map[string]func(cfg *config.Config, args []string, out io.Writer) error{
	"serve":      serve,
	"demo":       demoCmd,
	"import":     importCmd,
	"login":      loginCmd,
	"logout":     logoutCmd,
	"workspaces": workspacesCmd,
}
