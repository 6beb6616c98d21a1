#!/usr/bin/env bash
# A spectator storm next to none, in one run: a human-pace CTG T10 load against a fresh release
# server, while spectator sockets open at `rate` a second on its live matches, each resuming
# from seq 0 (the costliest resume a spectator can ask for). The storm runs `period` seconds on
# and as many off, so the players' latency with the storm and without it (the baseline) sample
# the same stretch of time on the same server; each line gives both and their ratio.
#
#   one-address  the storm from one address, default limits
#   many         the storm from 200 loopback addresses, default limits (the node-wide rate holds)
#   unlimited    the storm from 200 addresses with every spectator limit off: what serving every
#                one costs now that a spectator's resume never reads the log
#
# usage: scripts/bench-spectators.sh [rate] [matches] [seconds] [period]
# env: BIN (default target/release/crease); PG=postgres://postgres@127.0.0.1:5432 runs each phase
# on a fresh PostgreSQL database there instead of a fresh SQLite file.
set -euo pipefail
rate=${1:-200}
matches=${2:-200}
seconds=${3:-60}
period=${4:-5}
pace=${PACE:-human}
BIN=${BIN:-${CARGO_TARGET_DIR:-target}/release/crease}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
ulimit -n "$(ulimit -Hn)"

# The players all come from one address: let it create freely, keep every other limit.
creations=(--rate-limit-ip-per-minute 100000 --rate-limit-ip-burst 100000
  --rate-limit-player-per-minute 100000 --rate-limit-player-burst 100000)
no_spectator_limits=(--spectator-connects-per-minute 0 --spectator-connects-per-second 0
  --max-spectators-per-match 0 --max-spectators-per-address 0)

phase() {
  local label=$1 port=$2 addresses=$3
  shift 3
  local database="sqlite://$work/$label.db"
  if [ -n "${PG:-}" ]; then
    database="$PG/bench_spectators_${label//-/_}_$$"
    psql "$PG/postgres" -qc "CREATE DATABASE ${database##*/}" >/dev/null
  fi
  RUST_LOG=warn DATABASE_URL="$database" \
    "$BIN" serve --bind "127.0.0.1:$port" "${creations[@]}" "$@" >"$work/serve-$label.log" 2>&1 &
  local server=$!
  for _ in $(seq 100); do curl -sf "http://127.0.0.1:$port/healthz" >/dev/null && break; sleep 0.1; done
  echo "== $label: $matches matches at $pace pace for $seconds s, $rate spectators/s from $addresses address(es), $period s on / $period s off; load average $(cut -d' ' -f1-3 /proc/loadavg)" >&2
  "$BIN" load --server "http://127.0.0.1:$port" --matches "$matches" --pace "$pace" --duration "$seconds" \
    --spectators-per-second "$rate" --spectator-resume-from 0 --spectator-period "$period" \
    --spectator-addresses "$addresses" --json >"$work/load-$label.json" ||
    { tail -20 "$work/serve-$label.log" >&2; exit 1; }
  if ! kill "$server" 2>/dev/null; then
    echo "the server of phase $label exited early; its log ends:" >&2
    tail -20 "$work/serve-$label.log" >&2
    exit 1
  fi
  wait "$server" 2>/dev/null || true
  if [ -n "${PG:-}" ]; then psql "$PG/postgres" -qc "DROP DATABASE ${database##*/}" >/dev/null; fi
  python3 - "$label" "$work/load-$label.json" <<'PY'
import json, sys
label, path = sys.argv[1:3]
r = json.load(open(path))
s = r["spectators"]
print(f"{label:12} players without the storm: {s['quiet_acks']} acks, p50 {s['quiet_p50_ms']:.1f} ms, "
      f"p99 {s['quiet_p99_ms']:.1f} ms | with it: {s['storm_acks']} acks, p50 {s['storm_p50_ms']:.1f} ms, "
      f"p99 {s['storm_p99_ms']:.1f} ms ({s['storm_p99_ms'] / max(s['quiet_p99_ms'], 1e-9):.2f}x) | "
      f"spectators {s['attempted']} tried, {s['served']} served (resume p99 {s['served_p99_ms']:.1f} ms), "
      f"{s['refused']} refused, {s['failed']} failed; player errors {r['errors']}")
PY
}

port=$((20000 + RANDOM % 20000))
phase one-address "$port" 1
phase many "$((port + 1))" 200
phase unlimited "$((port + 2))" 200 "${no_spectator_limits[@]}"

# What one spectator socket costs the server, resuming from seq 0 and with no resume at all, on
# one server in one run: its CPU (utime + stime) over a storm on 20 idle matches, per socket.
cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
RUST_LOG=warn DATABASE_URL="sqlite://$work/cost.db" "$BIN" serve --bind "127.0.0.1:$((port + 3))" \
  "${creations[@]}" "${no_spectator_limits[@]}" >"$work/serve-cost.log" 2>&1 &
server=$!
for _ in $(seq 100); do curl -sf "http://127.0.0.1:$((port + 3))/healthz" >/dev/null && break; sleep 0.1; done
for resume in 0 -1; do
  before=$(cpu_ticks "$server")
  "$BIN" load --server "http://127.0.0.1:$((port + 3))" --matches 20 --pace idle --duration 15 \
    --spectators-per-second "$rate" --spectator-resume-from="$resume" --spectator-addresses 200 \
    --json >"$work/cost-$resume.json"
  after=$(cpu_ticks "$server")
  python3 - "$resume" "$work/cost-$resume.json" "$before" "$after" "$(getconf CLK_TCK)" <<'PY'
import json, sys
resume, path, before, after, ticks = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
s = json.load(open(path))["spectators"]
cpu = (after - before) / ticks
how = "resume_from=0" if resume == "0" else "no resume_from"
print(f"cost         {how:15} {s['served']} spectator sockets served: server CPU {cpu:.2f} s, "
      f"{cpu * 1000 / max(s['served'], 1):.2f} ms per socket (20 idle matches set up included)")
PY
done
kill "$server"; wait "$server" 2>/dev/null || true
