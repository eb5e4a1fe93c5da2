#!/usr/bin/env bash
# Runs every test. Installs what it needs: npm packages and Debian's chromium for browser tests.
set -euo pipefail
cd "$(dirname "$0")/.."

echo "==> installing web dependencies"
(cd web && npm install --no-audit --no-fund)  # npm ci rejects this lock file over optional platform packages

if ! command -v chromium >/dev/null 2>&1 && [ ! -x /usr/bin/chromium ]; then
  echo "==> installing chromium (Debian)"
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium >/dev/null
fi

echo "==> building the web app"
(cd web && npm run build)

echo "==> lint (gofmt, go vet, staticcheck, tsc, eslint)"
bash scripts/lint.sh

echo "==> Go tests (SQLite and PostgreSQL)"
go test -count=1 -timeout 20m ./...

echo "==> Go fuzz tests (bounded)"
bash scripts/fuzz.sh 20000x

echo "==> web unit tests"
(cd web && npm test)

echo "==> building the binary for browser tests"
go build -o bin/sellertrends ./cmd/sellertrends

echo "==> browser tests (headless chromium)"
(cd web && npm run e2e)
