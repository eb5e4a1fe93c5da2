#!/usr/bin/env bash
# Measures the trends engine on the benchmark set (default 3M terms x 156 weeks, generated once
# into BENCH_DATA_DIR, default ./data-bench, and reused): the screens' questions, the same
# questions in the local PostgreSQL, and the import of a 3M-row weekly CSV and its SP-API JSON
# next to DuckDB's bare read_csv. Smaller: TERMS=100000 WEEKS=52 BENCH_DATA_DIR=/tmp/small.
set -euo pipefail
cd "$(dirname "$0")/.."
go run ./bench/trends -terms "${TERMS:-3000000}" -weeks "${WEEKS:-156}" -dir "${BENCH_DATA_DIR:-$PWD/data-bench}" \
  -memory "${MEMORY:-512MB}" -import-memory "${IMPORT_MEMORY:-1GB}" -postgres "${POSTGRES_URL-postgres://root@127.0.0.1:5432/test}"
