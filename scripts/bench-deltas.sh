#!/usr/bin/env bash
# Protocol 1 (events and full views) vs protocol 2 (steps with merge patches) in one run: the same max-pace CTG T10
# load against a fresh release server for each, printing what each seat is sent per ball and
# the server's CPU time per acked command (utime + stime from /proc while the load runs).
#
# usage: scripts/bench-deltas.sh [matches] [seconds]
# env: BIN (default target/release/crease).
set -euo pipefail
matches=${1:-100}
seconds=${2:-30}
BIN=${BIN:-${CARGO_TARGET_DIR:-target}/release/crease}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
ulimit -n "$(ulimit -Hn)"
ticks=$(getconf CLK_TCK)

cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }

run() {
  local protocol=$1 port=$2
  RUST_LOG=warn CREASE_RATE_LIMITS=off DATABASE_URL="sqlite://$work/p$protocol.db" \
    "$BIN" serve --bind "127.0.0.1:$port" >"$work/serve-$protocol.log" 2>&1 &
  local server=$!
  for _ in $(seq 100); do curl -sf "http://127.0.0.1:$port/healthz" >/dev/null && break; sleep 0.1; done
  local before; before=$(cpu_ticks "$server")
  echo "== protocol $protocol: $matches matches at max pace for $seconds s; load average $(cut -d' ' -f1-3 /proc/loadavg)" >&2
  "$BIN" load --server "http://127.0.0.1:$port" --matches "$matches" --pace max --duration "$seconds" \
    --protocol "$protocol" --setup-concurrency 64 --json >"$work/load-$protocol.json"
  local after; after=$(cpu_ticks "$server")
  kill "$server"; wait "$server" 2>/dev/null || true
  python3 - "$protocol" "$work/load-$protocol.json" "$before" "$after" "$ticks" <<'PY' | tee -a "$work/summary"
import json, sys
protocol, path, before, after, ticks = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
r = json.load(open(path))
cpu = (after - before) / ticks
# Setup acks are few (the window opens once every match is set up) but the CPU covers the
# whole run, so CPU per ack is over every ack the players counted plus setup: an upper bound.
acks = max(r["acks"], 1)
print(f"protocol {protocol}: {r['bytes_per_ball_per_seat']:.0f} bytes per ball per seat; "
      f"{r['acks_per_second']:,.0f} acks/s; server CPU {cpu:.1f} s, {cpu * 1e6 / acks:.0f} us per acked command "
      f"(p99 {r['p99_ms']:.1f} ms, errors {r['errors']})")
PY
}

run 1 18301
run 2 18302
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
