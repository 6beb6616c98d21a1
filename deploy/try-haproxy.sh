#!/usr/bin/env bash
# Runs deploy/haproxy.cfg for real against three local crease nodes, without Docker, and
# checks what the cluster profile relies on HAProxy for:
#   1. requests through the proxy are spread over the three nodes;
#   2. a SIGKILLed node leaves the pool within the /readyz checks (fall 2, inter 1s) and no
#      request reaches it afterwards;
#   3. a stopped node (SIGTERM) leaves it too;
#   4. WebSockets pass through the proxy: `crease load` plays matches through it;
#   5. a restarted node comes back (rise 2);
#   6. a node that still accepts connections but answers /readyz with 503 (what a draining
#      node does) leaves the pool.
# The nodes are single-node servers with one SQLite database each, so unlike a real cluster
# they cannot serve each other's matches: step 4 runs once only one node is left in the pool.
# The variant configuration differs from deploy/haproxy.cfg only in the servers' addresses
# (127.0.0.1:8081-8083 instead of compose's names), no Docker resolvers, loopback binds, and
# a maxconn within this shell's open-file limit.
#
# usage: deploy/try-haproxy.sh        (after `cargo build --bin crease`)
# env: BIN (default target/debug/crease), PORT (the proxy, default 8090), STATS_PORT (8404).
# Everything it starts (three nodes, haproxy, the stand-in of step 6) is stopped by its pid
# on exit.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${BIN:-${CARGO_TARGET_DIR:-target}/debug/crease}
PORT=${PORT:-8090}
STATS_PORT=${STATS_PORT:-8404}
[ -x "$BIN" ] || { echo "no $BIN: build it first (cargo build --bin crease)" >&2; exit 2; }
deploy/check-haproxy.sh >/dev/null
command -v haproxy >/dev/null || { echo "skipped: haproxy is not available" >&2; exit 0; }

for port in 8081 8082 8083 "$PORT" "$STATS_PORT"; do
  if curl -s -o /dev/null --max-time 1 "http://127.0.0.1:$port/"; then
    echo "port $port is already in use here" >&2
    exit 2
  fi
done

work=$(mktemp -d)
declare -A node_pid=()
proxy_pid=
stub_pid=
cleanup() {
  for pid in "${node_pid[@]}" $proxy_pid $stub_pid; do kill "$pid" 2>/dev/null || true; done
  for pid in "${node_pid[@]}" $proxy_pid $stub_pid; do wait "$pid" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT

fail() {
  echo "FAIL: $*" >&2
  echo "--- haproxy log (tail)" >&2
  tail -n 20 "$work/haproxy.log" >&2 || true
  exit 1
}

start_node() {
  # The load test of step 4 creates matches from one address: no per-IP limit here.
  CREASE_RATE_LIMITS=off RUST_LOG=warn "$BIN" serve --bind "127.0.0.1:808$1" \
    --database-url "sqlite://$work/node-$1.db" >>"$work/node-$1.log" 2>&1 &
  node_pid[$1]=$!
}

# Sends signal $2 to crease-N and reaps it (quietly: bash would report a SIGKILLed job).
stop_node() {
  kill "-$2" "${node_pid[$1]}"
  { wait "${node_pid[$1]}"; } 2>/dev/null || true
  unset "node_pid[$1]"
}

# Column $2 of crease-N's line in HAProxy's stats CSV: 18 is its state (UP, DOWN, ...), 17
# the requests redispatched away from it, 37 and 38 its last check's status and HTTP code.
stat() {
  { curl -s --max-time 2 "http://127.0.0.1:$STATS_PORT/;csv" || true; } |
    awk -F, -v server="crease-$1" -v column="$2" '$1 == "crease_nodes" && $2 == server { print $column }'
}
state() { stat "$1" 18; }

now_ms() { echo $(($(date +%s%N) / 1000000)); }

# Waits until crease-N is in state $2 (e.g. "UP", "DOWN"), at most 20 s; prints the seconds
# since $3 (milliseconds since the epoch, default now).
wait_state() {
  local since=${3:-$(now_ms)} now
  for _ in $(seq 200); do
    now=$(state "$1")
    if [[ $now == "$2"* ]]; then
      awk -v ms=$(($(now_ms) - since)) 'BEGIN { printf "%.1f\n", ms / 1000 }'
      return 0
    fi
    sleep 0.1
  done
  fail "crease-$1 is '$now', not $2, after 20 s"
}

# Sends N requests through the proxy and prints how many each node answered ("crease-1 10"),
# and how many failed ("status-503 2"; status-000: no answer at all).
spread() {
  local headers
  for _ in $(seq "$1"); do
    headers=$(curl -s --max-time 5 -o /dev/null -D - "http://127.0.0.1:$PORT/readyz" | tr -d '\r') || true
    if [ -z "$headers" ]; then
      echo status-000
      continue
    fi
    awk 'NR == 1 && $2 != 200 { print "status-" $2 } tolower($1) == "x-crease-backend:" { print $2 }' <<<"$headers"
  done | sort | uniq -c | awk '{ print $2, $1 }'
}

# HAProxy needs two descriptors per connection and refuses to start on fewer; compose gives
# its container 65536, a shell may have far fewer.
files=$(ulimit -Hn)
maxconn=20000
if [ "$files" != unlimited ] && [ "$files" -lt 40100 ]; then
  maxconn=$(((files - 100) / 2))
fi
sed -E \
  -e 's/^(\s*server crease-([0-9])) crease-[0-9]:8080/\1 127.0.0.1:808\2/' \
  -e "s/^(\s*maxconn) 20000$/\1 $maxconn/" \
  -e 's/ resolvers docker//' \
  -e '/^resolvers docker/,/^$/d' \
  -e "s/^(\s*bind) :8090/\1 127.0.0.1:$PORT/" \
  -e "s/^(\s*bind) :8404/\1 127.0.0.1:$STATS_PORT/" \
  deploy/haproxy.cfg >"$work/haproxy.cfg"
[ "$(grep -c 'server crease-[0-9] 127.0.0.1:808[0-9]' "$work/haproxy.cfg")" = 3 ] ||
  fail "deploy/haproxy.cfg's server lines changed: update this script's sed"
grep -q "bind 127.0.0.1:$PORT" "$work/haproxy.cfg" || fail "no :8090 bind in deploy/haproxy.cfg"
haproxy -c -q -f "$work/haproxy.cfg" || fail "the variant configuration is invalid"

for n in 1 2 3; do start_node "$n"; done
haproxy -db -f "$work/haproxy.cfg" >"$work/haproxy.log" 2>&1 &
proxy_pid=$!
for n in 1 2 3; do wait_state "$n" UP >/dev/null; done
echo "1. three nodes UP behind 127.0.0.1:$PORT"

answered=$(spread 30)
echo "   30 requests answered by: $(echo "$answered" | paste -sd, | sed 's/,/, /g')"
[ "$(echo "$answered" | grep -c '^crease-[123] ')" = 3 ] || fail "not every node answered"
! grep -q '^status-' <<<"$answered" || fail "a request failed"

# A node that has only just come UP goes DOWN at its first failed check; after one more
# passed check it takes two (fall 2), which is the steady state this step shows.
sleep 2
killed=$(now_ms)
stop_node 3 KILL
# Before the checks notice, a request sent to crease-3 fails to connect and is redispatched.
answered=$(spread 10)
echo "2. crease-3 SIGKILLed; 10 requests right after answered by: $(echo "$answered" | paste -sd, | sed 's/,/, /g')"
! grep -q '^status-' <<<"$answered" || fail "a request failed while crease-3 was still in the pool"
echo "   redispatched from crease-3 to another node: $(stat 3 17)"
echo "   crease-3 DOWN $(wait_state 3 DOWN "$killed") s after the kill"
answered=$(spread 30)
echo "   30 requests answered by: $(echo "$answered" | paste -sd, | sed 's/,/, /g')"
! grep -q '^crease-3 ' <<<"$answered" || fail "crease-3 still answers"
! grep -q '^status-' <<<"$answered" || fail "a request failed after crease-3 left"

stopped=$(now_ms)
stop_node 2 TERM
echo "3. crease-2 stopped (SIGTERM): DOWN $(wait_state 2 DOWN "$stopped") s after the signal"

echo "4. crease load through the proxy (WebSockets via HAProxy to crease-1):"
"$BIN" load --server "http://127.0.0.1:$PORT" --matches 3 --pace max >"$work/load.txt" 2>/dev/null ||
  fail "crease load through the proxy failed: $(cat "$work/load.txt")"
sed 's/^/   /' "$work/load.txt"
grep -q "3 of 3 matches started, 3 completed" "$work/load.txt" || fail "not every match was played"
grep -q "^errors 0 " "$work/load.txt" || fail "the load run had errors"

restarted=$(now_ms)
start_node 3
echo "5. crease-3 restarted: UP again $(wait_state 3 UP "$restarted") s after its start"
answered=$(spread 10)
grep -q '^crease-3 ' <<<"$answered" || fail "crease-3 is UP but gets no requests"

# Until the cluster mode's drain lands, no crease node answers 503 while alive: a stand-in
# on crease-3's port does, the way a draining node will.
sleep 2
replaced=$(now_ms)
stop_node 3 KILL
python3 -c '
import http.server
class NotReady(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        self.send_response(503)
        self.send_header("content-length", "0")
        self.end_headers()
    def log_message(self, *args):
        pass
http.server.HTTPServer(("127.0.0.1", 8083), NotReady).serve_forever()
' &
stub_pid=$!
echo "6. crease-3 replaced by a stand-in answering 503 on /readyz: DOWN $(wait_state 3 DOWN "$replaced") s later"
sleep 1.2
check="$(stat 3 37) $(stat 3 38)"
[ "$check" = "L7STS 503" ] || fail "crease-3's last check was '$check', not a 503 answer"
echo "   its last check: $check (HTTP answer, wrong status)"
echo "try-haproxy: all 6 steps passed"
