#!/usr/bin/env bash
# Development: the Go API on :3000 and Vite with hot reload on :5173 (proxying /api and
# /_serverFn to Go). Open http://localhost:5173. Ctrl-C stops both.
set -euo pipefail
cd "$(dirname "$0")/.."
(cd web && [ -d node_modules ] || npm install)
mkdir -p web/dist && touch web/dist/.keep
go build -o bin/sellertrends ./cmd/sellertrends
BASE_URL=${BASE_URL:-http://localhost:5173} TRUSTED_ORIGINS=${TRUSTED_ORIGINS:-http://localhost:3000} ./bin/sellertrends serve &
api=$!
trap 'kill $api 2>/dev/null' EXIT
cd web && npx vite --port 5173
