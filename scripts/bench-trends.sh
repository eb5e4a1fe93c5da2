#!/usr/bin/env bash
# Measures the trends engine on a generated dataset (defaults: 100k terms x 52 weeks, and a 1M-row
# weekly CSV import next to DuckDB's bare read_csv). Raise the size with TERMS/WEEKS/CSV_ROWS.
set -euo pipefail
cd "$(dirname "$0")/.."
go run ./bench/trends -terms "${TERMS:-100000}" -weeks "${WEEKS:-52}" -csv-rows "${CSV_ROWS:-1000000}" -memory "${MEMORY:-1GB}"
