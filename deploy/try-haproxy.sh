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
#      node does) leaves the pool;
#   7. TLS (HAProxy's :443 frontend, on a throwaway self-signed certificate made here): a
#      request over HTTPS reaches a node and carries HSTS, plain HTTP on the :80 frontend is
#      redirected to HTTPS, TLS below 1.2 is refused, and a WebSocket upgraded over TLS (a
#      seat of a bot match) gets the match's first frame from the node.
# The nodes are single-node servers with one SQLite database each, so unlike a real cluster
# they cannot serve each other's matches: step 4 runs once only one node is left in the pool.
# The variant configuration differs from deploy/haproxy.cfg only in the servers' addresses
# (127.0.0.1:8081-8083 instead of compose's names), no Docker resolvers, loopback binds (the
# TLS ones on TLS_PORT and REDIRECT_PORT instead of 443 and 80), and a maxconn within this
# shell's open-file limit; it runs with CREASE_TLS_CERT set, so the TLS frontend is on.
#
# usage: deploy/try-haproxy.sh        (after `cargo build --bin crease`)
# env: BIN (default target/debug/crease), PORT (the proxy, default 8090), STATS_PORT (8404),
# TLS_PORT (HTTPS, default 8443), REDIRECT_PORT (plain HTTP that redirects, default 8088).
# Everything it starts (three nodes, haproxy, the stand-in of step 6) is stopped by its pid
# on exit.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${BIN:-${CARGO_TARGET_DIR:-target}/debug/crease}
PORT=${PORT:-8090}
STATS_PORT=${STATS_PORT:-8404}
TLS_PORT=${TLS_PORT:-8443}
REDIRECT_PORT=${REDIRECT_PORT:-8088}
[ -x "$BIN" ] || { echo "no $BIN: build it first (cargo build --bin crease)" >&2; exit 2; }
deploy/check-haproxy.sh >/dev/null
command -v haproxy >/dev/null || { echo "skipped: haproxy is not available" >&2; exit 0; }

for port in 8081 8082 8083 "$PORT" "$STATS_PORT" "$TLS_PORT" "$REDIRECT_PORT"; do
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
  -e "s/^(\s*bind) :443 /\1 127.0.0.1:$TLS_PORT /" \
  -e "s/^(\s*bind) :80$/\1 127.0.0.1:$REDIRECT_PORT/" \
  deploy/haproxy.cfg >"$work/haproxy.cfg"
# A throwaway certificate for the TLS frontend (never a committed key): chain, then key.
openssl req -x509 -newkey rsa:2048 -nodes -days 1 -subj /CN=localhost \
  -addext subjectAltName=DNS:localhost,IP:127.0.0.1 \
  -keyout "$work/key.pem" -out "$work/cert.pem" 2>/dev/null
cat "$work/cert.pem" "$work/key.pem" >"$work/crease.pem"
export CREASE_TLS_CERT="$work/crease.pem"
[ "$(grep -c 'server crease-[0-9] 127.0.0.1:808[0-9]' "$work/haproxy.cfg")" = 3 ] ||
  fail "deploy/haproxy.cfg's server lines changed: update this script's sed"
grep -q "bind 127.0.0.1:$PORT" "$work/haproxy.cfg" || fail "no :8090 bind in deploy/haproxy.cfg"
grep -q "bind 127.0.0.1:$TLS_PORT ssl" "$work/haproxy.cfg" || fail "no :443 ssl bind in deploy/haproxy.cfg"
grep -q "bind 127.0.0.1:$REDIRECT_PORT$" "$work/haproxy.cfg" || fail "no :80 bind in deploy/haproxy.cfg"
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

# crease-1 is the only node left in the pool, so the player, its match and its socket all
# reach the one database that knows them.
https="https://127.0.0.1:$TLS_PORT"
headers=$(curl -sk --max-time 5 -o /dev/null -D - "$https/readyz" | tr -d '\r')
status=$(awk 'NR == 1 { print $2 }' <<<"$headers")
backend=$(awk 'tolower($1) == "x-crease-backend:" { print $2 }' <<<"$headers")
hsts=$(awk 'tolower($1) == "strict-transport-security:" { print $2 }' <<<"$headers")
protocol=$(curl -sk --max-time 5 -o /dev/null -w '%{scheme} %{http_version}' "$https/readyz")
echo "7. TLS on 127.0.0.1:$TLS_PORT: GET /readyz answered $status by $backend ($protocol), HSTS $hsts"
[ "$status" = 200 ] && [ "$backend" = crease-1 ] || fail "HTTPS did not reach crease-1"
[ "$hsts" = max-age=63072000 ] || fail "no HSTS header over HTTPS"
http_hsts=$(curl -s --max-time 5 -o /dev/null -D - "http://127.0.0.1:$PORT/readyz" | grep -ci '^strict-transport-security' || true)
[ "$http_hsts" = 0 ] || fail "HSTS sent over plain HTTP (browsers ignore it there; it is a mistake)"
redirect=$(curl -s --max-time 5 -o /dev/null -w '%{http_code} %{redirect_url}' "http://127.0.0.1:$REDIRECT_PORT/v1/games?x=1")
echo "   plain HTTP on 127.0.0.1:$REDIRECT_PORT: $redirect"
[ "$redirect" = "301 https://127.0.0.1:$REDIRECT_PORT/v1/games?x=1" ] || fail "no redirect to HTTPS"
# Debian's OpenSSL refuses TLS 1.1 on the client side by itself (SECLEVEL 2): lowered here,
# so the refusal can only come from the proxy (a "protocol version" alert it sends).
old_tls=$(openssl s_client -connect "127.0.0.1:$TLS_PORT" -tls1_1 -cipher 'DEFAULT:@SECLEVEL=0' </dev/null 2>&1 || true)
grep -q "alert protocol version" <<<"$old_tls" || fail "TLS 1.1 was not refused by the proxy: $(tail -n 3 <<<"$old_tls")"
echo "   TLS 1.1 refused by the proxy (protocol version alert); negotiated by default: $(openssl s_client -connect "127.0.0.1:$TLS_PORT" </dev/null 2>/dev/null | awk '/^ *Protocol *:/ { print $3; exit }')"
token=$(curl -sk --max-time 5 -X POST "$https/v1/players" -H 'content-type: application/json' \
  -d '{"name":"tls"}' | python3 -c 'import json, sys; print(json.load(sys.stdin)["token"])') ||
  fail "no player over HTTPS"
match=$(curl -sk --max-time 5 -X POST "$https/v1/matches" -H "authorization: Bearer $token" \
  -H 'content-type: application/json' -d '{"game":"ctg","options":{"format":"t10"},"opponent":"bot"}' |
  python3 -c 'import json, sys; print(json.load(sys.stdin)["match_id"])') || fail "no match over HTTPS"
# A WebSocket client over TLS in a few lines (no package to install): the upgrade must come
# back 101 from the node through the proxy, and the node's first frame (the snapshot) must
# arrive through the tunnel.
ws=$(python3 - "$TLS_PORT" "$match" "$token" <<'PY_WS'
import base64, json, os, socket, ssl, struct, sys

port, match, token = sys.argv[1:]
context = ssl.create_default_context()
context.check_hostname = False
context.verify_mode = ssl.CERT_NONE  # the throwaway self-signed certificate
sock = context.wrap_socket(socket.create_connection(("127.0.0.1", int(port)), timeout=5))
key = base64.b64encode(os.urandom(16)).decode()
sock.sendall(
    f"GET /v1/matches/{match}/ws?token={token} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
    f"Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
    "Sec-WebSocket-Version: 13\r\n\r\n".encode()
)
data = b""
while b"\r\n\r\n" not in data:
    chunk = sock.recv(4096)
    if not chunk:
        sys.exit("connection closed during the upgrade")
    data += chunk
head, data = data.split(b"\r\n\r\n", 1)
status = head.split(b"\r\n")[0].decode()
if " 101 " not in status + " ":
    sys.exit(f"upgrade refused: {status}")

def read(count):
    global data
    while len(data) < count:
        chunk = sock.recv(65536)
        if not chunk:
            sys.exit("connection closed before the first frame")
        data += chunk
    taken, data = data[:count], data[count:]
    return taken

first, second = read(2)
length = second & 0x7F
if length == 126:
    (length,) = struct.unpack("!H", read(2))
elif length == 127:
    (length,) = struct.unpack("!Q", read(8))
message = json.loads(read(length))
# A masked Close (1000) so the node sees a clean end.
mask = os.urandom(4)
payload = struct.pack("!H", 1000)
sock.sendall(bytes([0x88, 0x80 | len(payload)]) + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload)))
print(f"{status} / first frame: opcode {first & 0x0F}, {length} bytes, type {message.get('type')}")
PY_WS
) || fail "the WebSocket over TLS failed: $ws"
echo "   WebSocket over TLS: $ws"
grep -q "101 .* type snapshot" <<<"$ws" || fail "no snapshot through the TLS tunnel"
echo "try-haproxy: all 7 steps passed"
