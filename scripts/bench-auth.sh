#!/usr/bin/env bash
# Loads sellertrends and a Better Auth 1.7.25 server (same settings: SQLite, cookie cache on) side
# by side with wrk on 127.0.0.1, plus a bare net/http /ok handler as the machine's ceiling, and
# prints req/s, p50, p99 and the ratios. Not a test: the figures go in the README.
set -euo pipefail
cd "$(dirname "$0")/.."
DUR=${DUR:-10s}
CONNS_LIST=${CONNS:-8 16}
command -v wrk >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk >/dev/null; }
(cd bench/auth && [ -d node_modules/better-auth ] || npm install --no-audit --no-fund >/dev/null)
make build >/dev/null
go build -o bin/bare ./bench/bare
work=$(mktemp -d); trap 'kill $(jobs -p) 2>/dev/null; rm -rf "$work"' EXIT
ST=3911; BA=3912; BARE=3913; STR=3914
# A tiny demo built beforehand keeps the server from generating the default one while measured.
for d in st str; do DATA_DIR=$work/$d ./bin/sellertrends demo --terms 10 --weeks 1 >/dev/null; done
DATA_DIR=$work/st PORT=$ST BASE_URL=http://127.0.0.1:$ST AUTH_RATE_LIMIT_ENABLED=false LOG_LEVEL=error ./bin/sellertrends serve >/dev/null &
# A second sellertrends with REDIS_URL: its get-session goes through the Redis session cache.
DATA_DIR=$work/str PORT=$STR BASE_URL=http://127.0.0.1:$STR AUTH_RATE_LIMIT_ENABLED=false REDIS_URL=redis://127.0.0.1:6379/0 LOG_LEVEL=error ./bin/sellertrends serve >/dev/null 2>&1 &
node bench/auth/server.mjs $BA "$work/ba.db" >/dev/null &
./bin/bare $BARE &
for p in $ST $BA $BARE $STR; do for i in $(seq 100); do curl -s -o /dev/null "127.0.0.1:$p/ok" -o /dev/null && break; curl -s -o /dev/null "127.0.0.1:$p/api/auth/ok" && break; sleep 0.1; done; done

signup() { # $1 port -> cookie header value
  curl -s -c "$work/jar$1" -H 'content-type: application/json' -H "origin: http://127.0.0.1:$1" \
    -d '{"email":"bench@example.com","password":"bench-password-1","name":"Bench"}' "127.0.0.1:$1/api/auth/sign-up/email" >/dev/null
  curl -s -b "$work/jar$1" -c "$work/jar$1" "127.0.0.1:$1/api/auth/get-session" >/dev/null
  awk '(/^#HttpOnly_/ || !/^#/) && NF>=7 {printf "%s=%s; ", $6, $7}' "$work/jar$1"
}
ST_COOKIE=$(signup $ST); BA_COOKIE=$(signup $BA); STR_COOKIE=$(signup $STR)
for p in "$ST:$ST_COOKIE" "$BA:$BA_COOKIE" "$STR:$STR_COOKIE"; do # a benchmark of "null" answers would measure nothing
  curl -s -H "Cookie: ${p#*:}" "127.0.0.1:${p%%:*}/api/auth/get-session?disableCookieCache=true" | grep -q bench@example.com || { echo "no session on port ${p%%:*}" >&2; exit 1; }
done

run() { # name url cookie [extra wrk args] -> "rps p50 p99"
  local out
  out=$(wrk -t2 -c"$CONNS" -d"$DUR" --latency -H "Cookie: $3" -H "Origin: ${2%%/api*}" "${@:4}" "$2" 2>&1)
  local rps p50 p99
  rps=$(awk '/Requests\/sec/ {print $2}' <<<"$out")
  p50=$(awk '$1=="50%" {print $2}' <<<"$out")
  p99=$(awk '$1=="99%" {print $2}' <<<"$out")
  echo "$rps $p50 $p99"
}
ms() { awk -v v="$1" 'BEGIN { if (v ~ /us$/) { sub(/us/,"",v); printf "%.2f", v/1000 } else if (v ~ /ms$/) { sub(/ms/,"",v); printf "%.2f", v } else { sub(/s/,"",v); printf "%.0f", v*1000 } }'; }

for CONNS in $CONNS_LIST; do
echo
echo "date: $(date -u +%Y-%m-%dT%H:%MZ)  machine: $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo)  wrk -t2 -c$CONNS -d$DUR"
read -r bare_rps bare_p50 bare_p99 <<<"$(run bare "http://127.0.0.1:$BARE/ok" "")"
printf "| case | sellertrends req/s | p50 ms | p99 ms | Better Auth req/s | p50 ms | p99 ms | ratio |\n|---|---|---|---|---|---|---|---|\n"
for c in "get-session (cookie cache)|/api/auth/get-session" "get-session (database)|/api/auth/get-session?disableCookieCache=true" "sign-in|/api/auth/sign-in/email"; do
  name=${c%%|*}; path=${c#*|}
  extra=(); [ "$name" = sign-in ] && extra=(-s bench/auth/signin.lua)
  read -r a a50 a99 <<<"$(run st "http://127.0.0.1:$ST$path" "$ST_COOKIE" "${extra[@]}")"
  read -r b b50 b99 <<<"$(run ba "http://127.0.0.1:$BA$path" "$BA_COOKIE" "${extra[@]}")"
  printf "| %s | %.0f | %s | %s | %.0f | %s | %s | %.1fx |\n" "$name" "$a" "$(ms $a50)" "$(ms $a99)" "$b" "$(ms $b50)" "$(ms $b99)" "$(awk -v a="$a" -v b="$b" 'BEGIN{print a/b}')"
  [ "$name" = "get-session (cookie cache)" ] && cache_rps=$a
  [ "$name" = "get-session (database)" ] && { db_ba=$b; db_ba50=$b50; db_ba99=$b99; }
done
read -r r r50 r99 <<<"$(run str "http://127.0.0.1:$STR/api/auth/get-session?disableCookieCache=true" "$STR_COOKIE")"
printf "| get-session (Redis session cache, REDIS_URL) | %.0f | %s | %s | %.0f | %s | %s | %.1fx (vs its database path) |\n" "$r" "$(ms $r50)" "$(ms $r99)" "$db_ba" "$(ms $db_ba50)" "$(ms $db_ba99)" "$(awk -v a="$r" -v b="$db_ba" 'BEGIN{print a/b}')"
printf "| bare net/http /ok (ceiling) | %.0f | %s | %s | | | | cookie-cache path at %.0f%% of it |\n" "$bare_rps" "$(ms $bare_p50)" "$(ms $bare_p99)" "$(awk -v a="$cache_rps" -v b="$bare_rps" 'BEGIN{print 100*a/b}')"
done
