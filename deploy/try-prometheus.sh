#!/usr/bin/env bash
# Runs Prometheus for real (Debian's prometheus package, installed by check-prometheus.sh)
# against a live crease node, without Docker, and checks what promtool cannot:
#   1. Prometheus scrapes the node's /metrics (`up` is 1);
#   2. every alert rule of deploy/prometheus/alerts.yml evaluates on the node's real series
#      without an error, and none is pending or firing on a healthy node;
#   3. every query of deploy/grafana/crease-dashboard.json returns series after some traffic
#      (matches played, probes, matchmaking, a refusal), except the cluster panels', which
#      a single node never records.
# The variant configuration differs from deploy/prometheus/prometheus.yml only in the target
# (the local node instead of compose's names) and a 1 s scrape and evaluation interval, so a
# few seconds give each rate() its samples.
#
# usage: deploy/try-prometheus.sh        (after `cargo build --bin crease`)
# env: BIN (default target/debug/crease), PORT (the node, default 18180), PROM_PORT (19090).
# Everything it starts (the node, Prometheus) is stopped by its pid on exit.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${BIN:-${CARGO_TARGET_DIR:-target}/debug/crease}
PORT=${PORT:-18180}
PROM_PORT=${PROM_PORT:-19090}
[ -x "$BIN" ] || { echo "no $BIN: build it first (cargo build --bin crease)" >&2; exit 2; }
deploy/check-prometheus.sh >/dev/null
command -v prometheus >/dev/null || { echo "skipped: prometheus is not available" >&2; exit 0; }
for port in "$PORT" "$PROM_PORT"; do
  if curl -s -o /dev/null --max-time 1 "http://127.0.0.1:$port/"; then
    echo "port $port is already in use here" >&2
    exit 2
  fi
done

work=$(mktemp -d)
node_pid=
prom_pid=
cleanup() {
  for pid in $node_pid $prom_pid; do kill "$pid" 2>/dev/null || true; done
  for pid in $node_pid $prom_pid; do wait "$pid" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT
fail() {
  echo "FAIL: $*" >&2
  tail -n 20 "$work/prometheus.log" >&2 || true
  exit 1
}

base="http://127.0.0.1:$PORT"
api="http://127.0.0.1:$PROM_PORT/api/v1"
RUST_LOG=warn "$BIN" serve --bind "127.0.0.1:$PORT" --database-url "sqlite://$work/crease.db" \
  --rate-limit-ip-burst 40 >"$work/node.log" 2>&1 &
node_pid=$!

# Debian's python3-yaml (with docker-compose or the prometheus tooling) when another python3
# on the PATH lacks yaml.
python=python3
if ! python3 -c 'import yaml' 2>/dev/null && [ -x /usr/bin/python3 ]; then
  python=/usr/bin/python3
fi
"$python" - deploy/prometheus/prometheus.yml "$work/prometheus.yml" "127.0.0.1:$PORT" <<'PY'
import sys, yaml
config = yaml.safe_load(open(sys.argv[1]))
config["global"]["scrape_interval"] = "1s"
config["global"]["evaluation_interval"] = "1s"
config["global"]["scrape_timeout"] = "1s"
config["scrape_configs"][0]["static_configs"] = [{"targets": [sys.argv[3]], "labels": {"deployment": "single"}}]
yaml.safe_dump(config, open(sys.argv[2], "w"))
PY
cp deploy/prometheus/alerts.yml "$work/"
prometheus --config.file="$work/prometheus.yml" --storage.tsdb.path="$work/data" \
  --web.listen-address="127.0.0.1:$PROM_PORT" >"$work/prometheus.log" 2>&1 &
prom_pid=$!

for _ in $(seq 100); do
  curl -sf -o /dev/null "$base/readyz" && curl -sf -o /dev/null "$api/status/buildinfo" && break
  sleep 0.1
done
curl -sf -o /dev/null "$base/readyz" || fail "the node did not start"
echo "1. $(prometheus --version 2>&1 | sed -n 1p) scraping $base every second"

# Traffic that makes each series appear: played matches (commands, journal, mailboxes,
# sockets), a verification (a log replay), probes, two paired tickets, and a refusal.
"$BIN" load --server "$base" --matches 2 --pace max >"$work/load.txt" 2>&1 ||
  fail "crease load failed: $(cat "$work/load.txt")"
post() { curl -s -X POST "$base$1" -H 'content-type: application/json' ${3:+-H "authorization: Bearer $3"} -d "$2"; }
field() { python3 -c "import json, sys; print(json.load(sys.stdin)$1)"; }
finished=$(curl -s "$base/v1/matches?status=finished" | field '["matches"][0]["match_id"]')
curl -sf -o /dev/null "$base/v1/matches/$finished/verify" || fail "no verification"
curl -sf -o /dev/null "$base/v1/matches/$finished/log" || fail "no log"
for name in prom-home prom-away; do
  token=$(post /v1/players "{\"name\":\"$name\"}" | field '["token"]')
  post /v1/matchmaking/tickets '{"game":"ctg","options":{"format":"t10"}}' "$token" >/dev/null
done
for attempt in $(seq 60); do
  status=$(curl -s -o /dev/null -w '%{http_code}' -X POST "$base/v1/players" \
    -H 'content-type: application/json' -d "{\"name\":\"burst $attempt\"}")
  [ "$status" = 429 ] && break
done
[ "$status" = 429 ] || fail "no refusal after 60 creations"
for _ in $(seq 10); do curl -s -o /dev/null "$base/readyz"; sleep 0.5; done
sleep 3

python3 - "$api" deploy/grafana/crease-dashboard.json <<'PY'
import json, sys, urllib.parse, urllib.request

api, dashboard_file = sys.argv[1:]

def get(path, **query):
    url = f"{api}/{path}?{urllib.parse.urlencode(query)}"
    answer = json.load(urllib.request.urlopen(url, timeout=10))
    if answer.get("status") != "success":
        sys.exit(f"FAIL: {url}: {answer}")
    return answer["data"]

up = get("query", query='up{job="crease"}')["result"]
if [sample["value"][1] for sample in up] != ["1"]:
    sys.exit(f"FAIL: up is {up}")

rules = [rule for group in get("rules")["groups"] for rule in group["rules"]]
broken = [(rule["name"], rule.get("lastError")) for rule in rules if rule["health"] != "ok"]
if len(rules) < 11 or broken:
    sys.exit(f"FAIL: {len(rules)} rules, broken: {broken}")
print(f"2. {len(rules)} alert rules evaluated on the node's series, all healthy", end="")
active = [(alert["labels"]["alertname"], alert["state"]) for alert in get("alerts")["alerts"]]
if active:
    sys.exit(f"\nFAIL: alerts active on a healthy node: {active}")
print("; none pending or firing")

dashboard = json.load(open(dashboard_file))
empty, answered, cluster = [], 0, 0
for panel in dashboard["panels"]:
    for target in panel.get("targets", []):
        expr = target["expr"].replace("$__rate_interval", "30s").replace("$instance", ".*")
        result = get("query", query=expr)["result"]
        if "crease_cluster_" in expr:
            cluster += 1
        elif result:
            answered += 1
        else:
            empty.append(f'{panel["title"]}: {expr}')
if empty:
    sys.exit("FAIL: dashboard queries with no data:\n  " + "\n  ".join(empty))
print(f"3. dashboard: {answered} queries return series; {cluster} cluster queries not recorded on a single node")
PY
echo "try-prometheus: all 3 steps passed"
