// Package web embeds the built React app (web/dist) into the binary.
package web

import "embed"

// Dist holds the Vite build output. `make build` runs the build first; web/dist/.keep keeps the
// directory present so the Go code compiles before the first build.
//
//go:embed all:dist
var Dist embed.FS
