#!/usr/bin/env bash
# A burst of concurrent logins with random unknown names (the attack no per-name or
# per-address bucket sees), against a fresh release server twice in one run: with the
# password pool as configured by default (one hashing thread per core, a queue of 32) and
# with a pool as wide as the burst (what hashing on tokio's blocking pool amounted to before).
# Prints each server's resident memory before and at its peak (VmHWM), the answers, the time
# the burst took, and the ratio of the peaks.
#
# usage: scripts/bench-logins.sh [logins]
# env: BIN (default target/release/crease).
set -euo pipefail
logins=${1:-100}
BIN=${BIN:-${CARGO_TARGET_DIR:-target}/release/crease}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

kib() { awk -v key="$2:" '$1 == key {print $2}' "/proc/$1/status"; }

run() {
  local label=$1 port=$2
  shift 2
  RUST_LOG=warn "$BIN" serve --bind "127.0.0.1:$port" --database-url "sqlite://$work/$label.db" \
    --rate-limits off "$@" >"$work/serve-$label.log" 2>&1 &
  local server=$!
  for _ in $(seq 100); do curl -sf "http://127.0.0.1:$port/healthz" >/dev/null && break; sleep 0.1; done
  local before; before=$(kib "$server" VmRSS)
  echo "== $label ($*): $logins logins at once; load average $(cut -d' ' -f1-3 /proc/loadavg)" >&2
  local started; started=$(date +%s.%N)
  seq "$logins" | xargs -P "$logins" -I{} curl -s -o /dev/null -w '%{http_code}\n' \
    -H 'content-type: application/json' \
    -d '{"username":"nobody-{}-'"$RANDOM"'","password":"a guess of some length"}' \
    "http://127.0.0.1:$port/v1/sessions" >"$work/codes-$label"
  local finished; finished=$(date +%s.%N)
  local peak; peak=$(kib "$server" VmHWM)
  kill "$server"; wait "$server" 2>/dev/null || true
  local answers; answers=$(sort "$work/codes-$label" | uniq -c | awk '{printf "%s x %s, ", $1, $2}')
  printf '%s: RSS %d MiB before, peak %d MiB; answers: %s in %.2f s\n' "$label" \
    $((before / 1024)) $((peak / 1024)) "${answers%, }" "$(awk -v a="$started" -v b="$finished" 'BEGIN {print b - a}')" | tee -a "$work/summary"
  echo "$peak" >"$work/peak-$label"
}

port=$((20000 + RANDOM % 20000))
run pooled "$port"
run unbounded "$((port + 1))" --password-hash-threads "$logins" --password-hash-queue "$logins"
awk -v a="$(cat "$work/peak-unbounded")" -v b="$(cat "$work/peak-pooled")" \
  'BEGIN {printf "peak RSS, unbounded / pooled: %.1fx\n", a / b}'
