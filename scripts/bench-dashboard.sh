#!/usr/bin/env bash
# Times every dashboard screen in headless Chromium against the benchmark set (default 3M terms x
# 156 weeks), served by the real binary. The set is generated once into BENCH_DATA_DIR (default
# ./data-bench, ~16 GB, a few minutes) as the demo workspace, and reused afterwards; `make
# bench-trends` uses the same directory. Not a test: it prints a table for the README.
set -euo pipefail
cd "$(dirname "$0")/.."
export BENCH_DATA_DIR=${BENCH_DATA_DIR:-$PWD/data-bench}
if ! command -v chromium >/dev/null 2>&1 && [ ! -x /usr/bin/chromium ]; then
  SUDO=$([ "$(id -u)" = 0 ] || echo sudo)
  $SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium >/dev/null
fi
(cd web && [ -d node_modules/playwright-core ] || npm install --no-audit --no-fund >/dev/null)
make build >/dev/null
if [ ! -f "$BENCH_DATA_DIR/trends.duckdb" ]; then
  echo "==> generating ${TERMS:-3000000} terms x ${WEEKS:-156} weeks into $BENCH_DATA_DIR"
  DATA_DIR=$BENCH_DATA_DIR DUCKDB_IMPORT_MEMORY_LIMIT=${BUILD_MEMORY:-3GB} ./bin/sellertrends demo --direct --terms "${TERMS:-3000000}" --weeks "${WEEKS:-156}"
fi
node web/e2e/bench-dashboard.mjs
