// Command sellertrends serves the sellertrends web app and runs its maintenance commands.
package main

import (
	"os"

	"github.com/sellertrends/sellertrends/internal/cli"
)

func main() {
	os.Exit(cli.Main(os.Args[1:]))
}
