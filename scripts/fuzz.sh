#!/usr/bin/env bash
# Runs every Go fuzz target for a bounded time each (default 10s). New corpus entries that find
# failures are written under testdata/fuzz and kept in git.
set -euo pipefail
cd "$(dirname "$0")/.."
dur=${1:-10s}
grep -rl --include='*_test.go' '^func Fuzz' internal | while read -r f; do
  pkg=./$(dirname "$f")
  for fn in $(grep -o '^func Fuzz[A-Za-z0-9_]*' "$f" | sed 's/^func //'); do
    echo "fuzz $pkg $fn ($dur)"
    go test -run='^$' -fuzz="^${fn}\$" -fuzztime="$dur" "$pkg"
  done
done
