#!/usr/bin/env bash
# Runs every Go fuzz target for a bounded number of inputs each (default 20000x, 5-16 s here; a
# duration such as 10s also works). New corpus entries that find failures are written under
# testdata/fuzz and kept in git. Counts, not durations, by default: with a duration, Go 1.26's
# fuzz coordinator can report "context deadline exceeded" as a failure when the time runs out
# while a worker is busy (golang/go#75804, fixed in Go 1.27), which failed CI once with no
# failing input; a count has no deadline to race. Minimization is bounded by count for the same
# reason.
set -euo pipefail
cd "$(dirname "$0")/.."
dur=${1:-20000x}
grep -rl --include='*_test.go' '^func Fuzz' internal | while read -r f; do
  pkg=./$(dirname "$f")
  for fn in $(grep -o '^func Fuzz[A-Za-z0-9_]*' "$f" | sed 's/^func //'); do
    echo "fuzz $pkg $fn ($dur)"
    go test -run='^$' -fuzz="^${fn}\$" -fuzztime="$dur" -fuzzminimizetime=1000x "$pkg"
  done
done
