#!/usr/bin/env bash
# Fairness anyone can check, end to end: starts the debug server on a fresh SQLite file and a
# free port, plays one finished match of each game with `crease bot` against the server's
# bots, and re-derives every draw of each with tools/verify_fairness.py (independent of the
# Rust code). Then proves the verifier can fail: its self-test against the published vectors,
# and a saved log with one die changed must be rejected. Exits non-zero on any failure.
#
# usage: tools/check-fairness.sh        env: CREASE_BIN (default target/debug/crease), PYTHON
set -euo pipefail
# A relative CREASE_BIN is relative to where the script was called from.
if [ -n "${CREASE_BIN:-}" ] && [ "${CREASE_BIN#/}" = "$CREASE_BIN" ]; then CREASE_BIN="$PWD/$CREASE_BIN"; fi
cd "$(dirname "$0")/.."
BIN=${CREASE_BIN:-target/debug/crease}
PYTHON=${PYTHON:-python3}
VERIFY=("$PYTHON" tools/verify_fairness.py)
[ -x "$BIN" ] || { echo "check-fairness: no server binary at $BIN (cargo build first)" >&2; exit 2; }
as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }
# The verifier needs Python 3.7 or later (standard library only); curl waits for the server.
for tool in "$PYTHON:python3" "curl:curl"; do
  if ! command -v "${tool%%:*}" >/dev/null; then
    echo "check-fairness: installing ${tool#*:} (Debian package)" >&2
    as_root apt-get update -q && as_root apt-get install -y -q "${tool#*:}"
  fi
done
work=$(mktemp -d)
server=
cleanup() {
  if [ -n "$server" ]; then kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT
fail() { echo "check-fairness: FAIL: $*" >&2; [ -f "$work/serve.log" ] && tail -20 "$work/serve.log" >&2; exit 1; }

"${VERIFY[@]}" --self-test || fail "the verifier disagrees with RFC 8439 or proto/fairness-vectors.json"

port=$($PYTHON -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
url="http://127.0.0.1:$port"
RUST_LOG=warn CREASE_RATE_LIMITS=off DATABASE_URL="sqlite://$work/crease.db" \
  "$BIN" serve --bind "127.0.0.1:$port" >"$work/serve.log" 2>&1 &
server=$!
for _ in $(seq 100); do
  curl -sf "$url/healthz" >/dev/null && break
  kill -0 "$server" 2>/dev/null || fail "the server exited at start"
  sleep 0.1
done
curl -sf "$url/healthz" >/dev/null || fail "the server did not answer /healthz within 10 s"

# Each match takes about a second: T20 (distance die D8), Wicketz's full 20 overs (the
# dispenser runs out and is reshuffled), three Champions seats.
play() {
  local game=$1; shift
  local report
  report=$(timeout 120 "$BIN" bot --server "$url" --game "$game" --vs-bot "$@" 2>"$work/bot-$game.log") \
    || { tail -5 "$work/bot-$game.log" >&2; fail "crease bot could not finish a $game match"; }
  $PYTHON -c 'import json, sys; print(json.loads(sys.stdin.readline())["match_id"])' <<<"$report"
}
for spec in "ctg --format t20" "wicketz --options {\"overs\":20,\"bowling_variations\":true,\"wild_card\":true}" "champions --players 3"; do
  # shellcheck disable=SC2086 # the spec is split into the game and its bot flags on purpose
  set -- $spec
  game=$1
  id=$(play "$@")
  "${VERIFY[@]}" --server "$url" --match "$id" --save "$work/$game.json" \
    || fail "$game match $id did not verify"
done

# The same check from a bare log body and the seed, as a third party holding only those would.
read -r seed commitment options < <($PYTHON -c '
import json, sys
saved = json.load(open(sys.argv[1] + "/ctg.json"))
json.dump(saved["log"], open(sys.argv[1] + "/ctg-log.json", "w"))
m = saved["match"]
print(m["seed"], m["seed_commitment"], json.dumps(m["options"], separators=(",", ":")))
' "$work")
"${VERIFY[@]}" --log "$work/ctg-log.json" --seed "$seed" --commitment "$commitment" --game ctg \
  --options "$options" || fail "the bare log and seed of the ctg match did not verify"

# The verifier must catch a changed draw: one die face of the CTG match, and the toss of
# the Wicketz match (a value drawn with below(2)), each changed to another legal value.
$PYTHON - "$work" <<'EOF'
import json, sys
work = sys.argv[1]
def tamper(game, kind, field, change):
    saved = json.load(open(f"{work}/{game}.json"))
    for entry in saved["log"]["entries"]:
        payload = entry["payload"]
        if entry["kind"] == "event" and payload.get("type") == kind:
            payload[field] = change(payload)
            break
    else:
        sys.exit(f"no {kind} event in the {game} log")
    json.dump(saved, open(f"{work}/{game}-tampered.json", "w"))
    print(f"changed {game} {kind}.{field} at seq {entry['seq']}")
tamper("ctg", "delivered", "bowl", lambda e: e["bowl"] % e["bowl_sides"] + 1)
tamper("wicketz", "toss_won", "seat", lambda e: 1 - e["seat"])
EOF
for game in ctg wicketz; do
  set +e
  out=$("${VERIFY[@]}" --saved "$work/$game-tampered.json")
  status=$?
  set -e
  echo "tampered $game log: exit $status: $out"
  [ "$status" -eq 1 ] && grep -q '^MISMATCH at seq' <<<"$out" \
    || fail "the verifier accepted a $game log with a changed draw"
done
# And a seed that is not the committed one.
$PYTHON - "$work" <<'EOF'
import json, sys
saved = json.load(open(f"{sys.argv[1]}/champions.json"))
seed = saved["match"]["seed"]
saved["match"]["seed"] = ("1" if seed[0] != "1" else "2") + seed[1:]
json.dump(saved, open(f"{sys.argv[1]}/champions-tampered.json", "w"))
EOF
set +e
out=$("${VERIFY[@]}" --saved "$work/champions-tampered.json")
status=$?
set -e
echo "wrong seed: exit $status: $out"
[ "$status" -eq 1 ] && grep -q 'commitment' <<<"$out" || fail "the verifier accepted a seed that is not the committed one"
echo "check-fairness: ok"
