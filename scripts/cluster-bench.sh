#!/usr/bin/env bash
# One node vs a three-node cluster on this machine, in one run, with the same load generator:
#   * one node (single-node mode, PostgreSQL, no NATS) vs three cluster nodes (PostgreSQL +
#     NATS, the load spread over the three, a match's two seats on two nodes), at human pace
#     and at max pace;
#   * routed vs local sockets: one node that runs matches and one gateway node
#     (--runs-matches false), the same human-pace load through each, so every socket of the
#     second run is routed over NATS to the other node.
# Every phase has its own fresh database and servers.
# Prints each run's acks/s and command-to-ack latency, the ratios, and the load average.
#
# usage: scripts/cluster-bench.sh [human matches] [max matches] [seconds]
# env: ROUTING_ONLY=1 runs only routed vs local, twice each, interleaved; BIN (default target/release/crease), PG_ADMIN (default postgres://postgres@127.0.0.1:5432),
#      NATS_URL (default nats://127.0.0.1:4222).
set -euo pipefail
human=${1:-1000}
max=${2:-300}
seconds=${3:-30}
BIN=${BIN:-${CARGO_TARGET_DIR:-target}/release/crease}
PG_ADMIN=${PG_ADMIN:-postgres://postgres@127.0.0.1:5432}
NATS_URL=${NATS_URL:-nats://127.0.0.1:4222}
work=$(mktemp -d)
ulimit -n "$(ulimit -Hn)"
pids=()
dbs=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  for db in "${dbs[@]}"; do psql "$PG_ADMIN/postgres" -qc "DROP DATABASE IF EXISTS $db WITH (FORCE)" || true; done
  rm -rf "$work"
}
trap cleanup EXIT

fresh_db() {
  local db="crease_cluster_bench_$$_$1"
  psql "$PG_ADMIN/postgres" -qc "CREATE DATABASE $db"
  dbs+=("$db")
  echo "$PG_ADMIN/$db"
}

# start <port> <database url> [serve flags...]: one server, waited for until it answers.
start() {
  local port=$1 url=$2; shift 2
  RUST_LOG=warn CREASE_RATE_LIMITS=off DATABASE_URL=$url "$BIN" serve --bind "127.0.0.1:$port" "$@" \
    >"$work/serve-$port.log" 2>&1 &
  pids+=($!)
  for _ in $(seq 200); do curl -sf "http://127.0.0.1:$port/readyz" >/dev/null && return; sleep 0.1; done
  echo "server on $port did not start" >&2; cat "$work/serve-$port.log" >&2; exit 1
}

stop_all() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  pids=()
}

# load <label> <pace> <matches> <server args...>: one load run; appends its JSON to results.
load() {
  local label=$1 pace=$2 matches=$3; shift 3
  echo "== $label: $matches matches at $pace pace for $seconds s; load average $(cut -d' ' -f1-3 /proc/loadavg)" >&2
  "$BIN" load "$@" --matches "$matches" --pace "$pace" --duration "$seconds" \
    --setup-concurrency 64 --json >"$work/$label.json"
  python3 - "$label" "$work/$label.json" <<'PY' | tee -a "$work/results.txt"
import json, sys
label, path = sys.argv[1], sys.argv[2]
r = json.load(open(path))
print(f"{label}: {r['matches_started']} matches, {r['acks_per_second']:,.0f} acks/s, p50 {r['p50_ms']:.2f} ms, "
      f"p99 {r['p99_ms']:.2f} ms, errors {r['errors']}, reconnects {r['reconnects']}")
PY
}

cluster_flags() {
  echo --nats-url "$NATS_URL" --cluster-name "bench$$$1" --node-name "$2"
}

echo "machine: $(nproc) cores; load average at start $(cut -d' ' -f1-3 /proc/loadavg)" >&2

# phase <label> <pace> <matches> <one|three|local|routed>: fresh database, fresh servers, one
# load run, servers stopped: no phase inherits another's matches or its CPU backlog.
phase() {
  local label=$1 pace=$2 matches=$3 shape=$4 url
  url=$(fresh_db "${label//-/_}")
  case $shape in
    one)
      start 18100 "$url"
      load "$label" "$pace" "$matches" --server http://127.0.0.1:18100 ;;
    three)
      for n in 1 2 3; do
        # shellcheck disable=SC2046
        start "1811$n" "$url" $(cluster_flags "$label" "n$n")
      done
      load "$label" "$pace" "$matches" --server http://127.0.0.1:18111 \
        --server http://127.0.0.1:18112 --server http://127.0.0.1:18113
      curl -s http://127.0.0.1:18111/v1/cluster | python3 -c '
import json, sys
info = json.load(sys.stdin)
print("  nodes:", ", ".join("%s alive=%s live matches=%s" % (n["name"], n["alive"], n["matches"]) for n in info["nodes"]))' >&2 ;;
    local|routed)
      # One node runs the matches, one gateway runs none: the load goes through one of them.
      # shellcheck disable=SC2046
      start 18121 "$url" $(cluster_flags "$label" runner)
      # shellcheck disable=SC2046
      start 18122 "$url" $(cluster_flags "$label" gateway) --runs-matches false
      local port=18121
      [ "$shape" = routed ] && port=18122
      load "$label" "$pace" "$matches" --server "http://127.0.0.1:$port" ;;
  esac
  stop_all
  sleep 5 # let the load average settle a little between phases
}

routed_matches=$(( human / 5 > 0 ? human / 5 : 1 ))
if [ -n "${ROUTING_ONLY:-}" ]; then
  # Routed vs local alone, twice each and interleaved (local, routed, local, routed), so that
  # the machine's drift falls on both sides; the summary takes each pair's ratio.
  phase local-sockets human "$routed_matches" local
  phase routed-sockets human "$routed_matches" routed
  phase local-sockets-2 human "$routed_matches" local
  phase routed-sockets-2 human "$routed_matches" routed
  python3 - "$work" <<'PY'
import json, sys
work = sys.argv[1]
for suffix in ["", "-2"]:
    l = json.load(open(f"{work}/local-sockets{suffix}.json"))
    t = json.load(open(f"{work}/routed-sockets{suffix}.json"))
    print(f"pair{suffix or '-1'}: routed vs local socket at human pace: p50 {t['p50_ms']:.2f} vs {l['p50_ms']:.2f} ms "
          f"({t['p50_ms'] / l['p50_ms']:.2f}x), p99 {t['p99_ms']:.2f} vs {l['p99_ms']:.2f} ms "
          f"({t['p99_ms'] / l['p99_ms']:.2f}x); errors {l['errors']} / {t['errors']}")
PY
  echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
  exit 0
fi
phase one-node-human human "$human" one
phase three-nodes-human human "$human" three
phase one-node-max max "$max" one
phase three-nodes-max max "$max" three
phase local-sockets human "$routed_matches" local
phase routed-sockets human "$routed_matches" routed

python3 - "$work" <<'PY'
import json, sys
work = sys.argv[1]
r = {name: json.load(open(f"{work}/{name}.json")) for name in
     ["one-node-human", "one-node-max", "three-nodes-human", "three-nodes-max", "local-sockets", "routed-sockets"]}
def ratio(a, b, key):
    return r[a][key] / r[b][key] if r[b][key] else float("nan")
print(f"max pace: three nodes / one node = {ratio('three-nodes-max', 'one-node-max', 'acks_per_second'):.2f}x acks/s")
print(f"human pace p99: one node {r['one-node-human']['p99_ms']:.2f} ms, "
      f"three nodes {r['three-nodes-human']['p99_ms']:.2f} ms")
l, t = r["local-sockets"], r["routed-sockets"]
print(f"routed vs local socket: p50 {t['p50_ms']:.2f} vs {l['p50_ms']:.2f} ms (+{t['p50_ms'] - l['p50_ms']:.2f} ms), "
      f"p99 {t['p99_ms']:.2f} vs {l['p99_ms']:.2f} ms (+{t['p99_ms'] - l['p99_ms']:.2f} ms)")
PY
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
