#!/usr/bin/env bash
# Static checks: gofmt, go vet, staticcheck; TypeScript's compiler for the web app.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p web/dist && touch web/dist/.keep
unformatted=$(gofmt -l cmd internal web/embed.go)
if [ -n "$unformatted" ]; then echo "gofmt needed:"; echo "$unformatted"; exit 1; fi
go vet ./...
go run honnef.co/go/tools/cmd/staticcheck@v0.8.2 ./...
(cd web && npm run lint)
