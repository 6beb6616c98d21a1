#!/usr/bin/env bash
# PostgreSQL primary failover drill: three crease cluster nodes play matches on a PostgreSQL
# pair managed by Patroni (a primary and a synchronous standby, etcd as the DCS, HAProxy in
# front), the primary is killed with SIGKILL mid-play, and the drill measures how long the
# players wait and checks that nothing acked was lost.
#
#   deploy/patroni/drill.sh                    one run: the primary is killed
#   RUNS=3 deploy/patroni/drill.sh             three runs, then min / median / max of the figures
#   SCENARIO=standby deploy/patroni/drill.sh   the synchronous standby is killed instead
#   SCENARIO=etcd deploy/patroni/drill.sh      etcd is killed for OUTAGE_SECONDS, then restarted
#
# What it does (docs/cluster.md, "PostgreSQL failover with Patroni"):
#  1. installs Debian's patroni, etcd-server and haproxy if they are missing (as root);
#  2. starts a one-member etcd, two PostgreSQL 15 members under Patroni (run as the postgres
#     OS user: PostgreSQL refuses root) and HAProxy routing to the primary through Patroni's
#     GET /primary check, every one of them on 127.0.0.1 and on free ports, with all data in
#     a fresh temporary directory;
#  3. creates the crease database through HAProxy, starts three `crease serve` nodes in
#     cluster mode on it (NATS at $NATS_URL, a cluster name of their own) and plays matches
#     across them with `crease load --acks-file ... --reconnect-for ...`;
#  4. after $PLAY_BEFORE_KILL seconds of play, SIGKILLs the primary's Patroni and then its
#     postmaster (KILL=node, the default: the machine is lost) or only the postmaster
#     (KILL=postmaster: Patroni survives and hands over at once, master_start_timeout 0);
#     SCENARIO=standby kills the synchronous standby the same way and brings it back after
#     OUTAGE_SECONDS; SCENARIO=etcd SIGKILLs etcd and starts it again after OUTAGE_SECONDS;
#  5. waits for the standby's promotion, brings the old member back (its Patroni again, if it
#     was killed), and waits until it is a standby again (Patroni runs pg_rewind when the old
#     primary's WAL went past the new timeline's fork point);
#  6. checks: every ack the load client recorded is in its match's log (same seat, same
#     command, at or before the ack's seq), no match's log has a gap or a duplicate, every
#     finished match verifies (GET /v1/matches/{id}/verify), every match in play at the kill
#     played on afterwards, and `patronictl list` shows the old primary as a standby on the
#     new timeline; prints the figures (with the nodes' fenced writes) and a RESULT line;
#  7. tears everything down on exit, whatever happened (a trap kills every process it
#     started and removes the temporary directory; KEEP=1 keeps the directory for reading).
#
# It stops by itself: each run is bounded by DRILL_TIMEOUT seconds (600 by default), and
# every wait inside it has its own limit. Only loopback addresses are used.
#
# Settings (environment): CREASE_BIN (default: target/release/crease, built if missing; the
# drill copies it first), NATS_URL (nats://127.0.0.1:4222), MATCHES (12), PACE (max),
# LOAD_SECONDS (75), PLAY_BEFORE_KILL (15), LEASE_TTL_MS (2000), KILL (node|postmaster),
# SCENARIO (primary|standby|etcd), OUTAGE_SECONDS (20), RUNS (1), DRILL_TIMEOUT (600), KEEP (0).
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT=$PWD
HERE=$ROOT/deploy/patroni

RUNS=${RUNS:-1}
DRILL_TIMEOUT=${DRILL_TIMEOUT:-600}

# --- several runs: this script once per run, then the figures over the runs ---------------
if [ "$RUNS" -gt 1 ]; then
  results=()
  failed=0
  for run in $(seq 1 "$RUNS"); do
    echo "=== run $run of $RUNS ==="
    log=$(mktemp)
    if RUNS=1 "$0" 2>&1 | tee "$log"; [ "${PIPESTATUS[0]}" != 0 ]; then
      echo "=== run $run failed ==="
      failed=$((failed + 1))
    fi
    # A run that failed its checks still printed its figures.
    line=$(grep '^RESULT ' "$log" | tail -1 || true)
    [ -n "$line" ] && results+=("$line")
    rm -f "$log"
  done
  [ ${#results[@]} -gt 0 ] && printf '%s\n' "${results[@]}" | python3 "$HERE/summarize.py"
  echo "$RUNS runs, $failed failed"
  [ "$failed" = 0 ]
  exit
fi

PG_BIN=${PG_BIN:-/usr/lib/postgresql/15/bin}
NATS_URL=${NATS_URL:-nats://127.0.0.1:4222}
MATCHES=${MATCHES:-12}
PACE=${PACE:-max}
LOAD_SECONDS=${LOAD_SECONDS:-75}
PLAY_BEFORE_KILL=${PLAY_BEFORE_KILL:-15}
LEASE_TTL_MS=${LEASE_TTL_MS:-2000}
KILL=${KILL:-node}
SCENARIO=${SCENARIO:-primary}
OUTAGE_SECONDS=${OUTAGE_SECONDS:-20}
KEEP=${KEEP:-0}

case "$KILL" in node | postmaster) ;; *) echo "KILL must be node or postmaster" >&2; exit 2 ;; esac
case "$SCENARIO" in primary | standby | etcd) ;; *) echo "SCENARIO must be primary, standby or etcd" >&2; exit 2 ;; esac
case "$NATS_URL" in nats://127.0.0.1:* | nats://localhost:*) ;; *)
  echo "NATS_URL must be on loopback: $NATS_URL" >&2; exit 2 ;; esac

log() { printf '[%s] %s\n' "$(date +%T.%3N)" "$*"; }
fail() { log "FAILED: $*" >&2; exit 1; }
now_ms() { date +%s%3N; }

# --- 1. packages ---------------------------------------------------------------------------
install_missing() {
  local wanted=()
  command -v patroni >/dev/null || wanted+=(patroni)
  command -v etcd >/dev/null || wanted+=(etcd-server)
  command -v haproxy >/dev/null || wanted+=(haproxy)
  command -v psql >/dev/null || wanted+=(postgresql-client)
  command -v curl >/dev/null || wanted+=(curl)
  [ -x "$PG_BIN/postgres" ] || wanted+=(postgresql-15)
  [ ${#wanted[@]} -eq 0 ] && return 0
  [ "$(id -u)" = 0 ] || fail "missing ${wanted[*]}; run as root to install them (apt-get)"
  log "installing ${wanted[*]} from Debian's packages"
  # Packages must not start their own daemons (a system etcd on 2379, a system PostgreSQL):
  # Debian's policy-rc.d hook refuses every service start while the install runs.
  local policy_made=0
  if [ ! -e /usr/sbin/policy-rc.d ]; then
    printf '#!/bin/sh\nexit 101\n' >/usr/sbin/policy-rc.d
    chmod +x /usr/sbin/policy-rc.d
    policy_made=1
  fi
  if ! apt-cache show "${wanted[0]}" >/dev/null 2>&1; then
    apt-get update -qq
  fi
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${wanted[@]}" >/dev/null
  [ "$policy_made" = 1 ] && rm -f /usr/sbin/policy-rc.d
  return 0
}
install_missing
for tool in patroni patronictl etcd haproxy psql curl python3; do
  command -v "$tool" >/dev/null || fail "$tool is not installed"
done

# PostgreSQL refuses to run as root: Patroni (and so PostgreSQL) runs as the postgres user.
if [ "$(id -u)" = 0 ]; then
  id postgres >/dev/null 2>&1 || fail "no postgres OS user (install postgresql-15)"
  as_pg() { runuser -u postgres -- "$@"; }
  PG_USER=postgres
else
  as_pg() { "$@"; }
  PG_USER=$(id -un)
fi

# --- the crease binary: copied, so a rebuild of target/ meanwhile changes nothing here ------
if [ -z "${CREASE_BIN:-}" ]; then
  CREASE_BIN=${CARGO_TARGET_DIR:-$ROOT/target}/release/crease
  if [ ! -x "$CREASE_BIN" ]; then
    log "no release binary: cargo build --release --bin crease"
    cargo build --release --bin crease
  fi
fi
[ -x "$CREASE_BIN" ] || fail "CREASE_BIN=$CREASE_BIN is not an executable"

# --- bookkeeping: every process started here is killed on exit ------------------------------
WORK=$(mktemp -d /tmp/crease-patroni-drill.XXXXXX)
chmod 755 "$WORK"
PIDS=()
WATCHDOG=
cleanup() {
  local status=$?
  set +e # a process that is already gone must not stop the cleanup
  trap - EXIT INT TERM
  [ -n "$WATCHDOG" ] && kill "$WATCHDOG" 2>/dev/null
  # TERM to everything, newest first (the load client and the crease nodes before their
  # database), Patroni included (it stops its PostgreSQL); KILL to whatever is still alive a
  # few seconds later, postmasters included.
  local index
  for ((index = ${#PIDS[@]} - 1; index >= 0; index--)); do
    kill -TERM "${PIDS[$index]}" 2>/dev/null
  done
  for pidfile in "$WORK"/pg*/patroni.pid; do
    [ -f "$pidfile" ] && kill -TERM "$(cat "$pidfile")" 2>/dev/null
  done
  sleep 3
  for pidfile in "$WORK"/pg*/patroni.pid; do
    [ -f "$pidfile" ] && kill -KILL "$(cat "$pidfile")" 2>/dev/null
  done
  for member in "$WORK"/pg*; do
    [ -f "$member/data/postmaster.pid" ] && kill -KILL "$(head -1 "$member/data/postmaster.pid")" 2>/dev/null
  done
  for pid in "${PIDS[@]}"; do kill -KILL "$pid" 2>/dev/null; done
  wait 2>/dev/null
  if [ "$KEEP" = 1 ]; then
    log "kept $WORK"
  else
    rm -rf "$WORK"
  fi
  exit "$status"
}
trap cleanup EXIT
trap 'log "interrupted"; exit 130' INT TERM
# The whole run is bounded: past DRILL_TIMEOUT the watchdog ends it (and the trap cleans up).
(
  trap 'kill "$sleeper" 2>/dev/null; exit 0' TERM
  sleep "$DRILL_TIMEOUT" &
  sleeper=$!
  wait "$sleeper"
  echo "drill: over ${DRILL_TIMEOUT}s, stopping" >&2
  kill -TERM $$
) &
WATCHDOG=$!

cp "$CREASE_BIN" "$WORK/crease"
CREASE=$WORK/crease

# waits up to $1 seconds for the command after it to succeed
wait_for() {
  local limit=$1; shift
  local until=$((SECONDS + limit))
  until "$@" >/dev/null 2>&1; do
    [ $SECONDS -lt $until ] || return 1
    sleep 0.2
  done
}

# --- free loopback ports -------------------------------------------------------------------
TAKEN=" "
free_port() { # VAR START: the first port from START up that nothing is bound to and this run
  local candidate=$2 # has not taken yet, into VAR
  while [[ "$TAKEN" == *" $candidate "* ]] || ! python3 -c '
import socket, sys
s = socket.socket()
s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
try:
    s.bind(("127.0.0.1", int(sys.argv[1])))
except OSError:
    sys.exit(1)
' "$candidate"; do
    candidate=$((candidate + 1))
  done
  TAKEN+="$candidate "
  printf -v "$1" '%s' "$candidate"
}
free_port ETCD_PORT 23790
free_port ETCD_PEER_PORT 23800
free_port PG_PORT1 15432
free_port PG_PORT2 15433
free_port REST_PORT1 18008
free_port REST_PORT2 18009
free_port HAPROXY_PORT 15000
free_port STATS_PORT 17000
NODE_PORTS=()
for start in 18081 18082 18083; do
  free_port node_port "$start"
  NODE_PORTS+=("$node_port")
done
SCOPE=crease-drill-$$-$RANDOM
log "work dir $WORK; etcd :$ETCD_PORT, PostgreSQL :$PG_PORT1 :$PG_PORT2, Patroni REST :$REST_PORT1 :$REST_PORT2, HAProxy :$HAPROXY_PORT (stats :$STATS_PORT), crease ${NODE_PORTS[*]}"

secret() { python3 -c 'import secrets; print(secrets.token_hex(16))'; }
SUPERUSER_PASSWORD=$(secret)
REPLICATION_PASSWORD=$(secret)
REWIND_PASSWORD=$(secret)
CREASE_PASSWORD=$(secret)

# --- 2. etcd ---------------------------------------------------------------------------------
mkdir -p "$WORK/etcd"
start_etcd() { # on the same data directory each time (SCENARIO=etcd starts it again)
  etcd --name drill --data-dir "$WORK/etcd/data" \
    --listen-client-urls "http://127.0.0.1:$ETCD_PORT" --advertise-client-urls "http://127.0.0.1:$ETCD_PORT" \
    --listen-peer-urls "http://127.0.0.1:$ETCD_PEER_PORT" --initial-advertise-peer-urls "http://127.0.0.1:$ETCD_PEER_PORT" \
    --initial-cluster "drill=http://127.0.0.1:$ETCD_PEER_PORT" --initial-cluster-state new \
    --initial-cluster-token "$SCOPE" >>"$WORK/etcd/etcd.log" 2>&1 &
  ETCD_PID=$!
  PIDS+=("$ETCD_PID")
}
start_etcd
etcd_healthy() { curl -fsS "http://127.0.0.1:$ETCD_PORT/health" | grep -q '"health":"true"'; }
wait_for 30 etcd_healthy || fail "etcd did not become healthy ($WORK/etcd/etcd.log)"
log "etcd $(etcd --version | sed -n 1p | awk '{print $3}') up on 127.0.0.1:$ETCD_PORT"

# --- 3. two PostgreSQL members under Patroni ---------------------------------------------------
render_member() { # name pg_port rest_port
  local dir=$WORK/$1
  mkdir -p "$dir"
  SCOPE=$SCOPE NAME=$1 LISTEN_HOST=127.0.0.1 CONNECT_HOST=127.0.0.1 PG_PORT=$2 REST_PORT=$3 \
    ETCD_HOSTS=127.0.0.1:$ETCD_PORT CLIENT_NET=127.0.0.1/32 RUN_DIR=$dir PG_BIN=$PG_BIN \
    SUPERUSER_PASSWORD=$SUPERUSER_PASSWORD REPLICATION_PASSWORD=$REPLICATION_PASSWORD \
    REWIND_PASSWORD=$REWIND_PASSWORD "$HERE/render-patroni.sh" >"$dir/patroni.yml"
  chmod 700 "$dir"
  chmod 600 "$dir/patroni.yml"
  chown -R "$PG_USER" "$dir"
}
start_member() { # name: Patroni as the postgres user; its pid (not runuser's) in patroni.pid
  local dir=$WORK/$1
  as_pg sh -c 'echo $$ > "$1/patroni.pid"; exec patroni "$1/patroni.yml" >>"$1/patroni.log" 2>&1' sh "$dir" &
  PIDS+=($!)
  disown $! # no "Killed" notice from the shell when the drill kills it
}
rest() { curl -s -o /dev/null -w '%{http_code}' --max-time 1 "http://127.0.0.1:$1$2" || true; }
is_primary() { [ "$(rest "$1" /primary)" = 200 ]; }
is_sync() { [ "$(rest "$1" /sync)" = 200 ]; }
patronictl_list() { as_pg patronictl -c "$WORK/pg1/patroni.yml" list 2>/dev/null; }

render_member pg1 "$PG_PORT1" "$REST_PORT1"
render_member pg2 "$PG_PORT2" "$REST_PORT2"
start_member pg1
wait_for 90 is_primary "$REST_PORT1" || fail "pg1 did not become the primary ($WORK/pg1/patroni.log)"
log "pg1 bootstrapped and leads"
start_member pg2
wait_for 120 is_sync "$REST_PORT2" || fail "pg2 did not become the synchronous standby ($WORK/pg2/patroni.log)"
log "pg2 is the synchronous standby"
patronictl_list

# --- 4. HAProxy ------------------------------------------------------------------------------------
sed -e "s|@HAPROXY_PORT@|$HAPROXY_PORT|g" -e "s|@STATS_PORT@|$STATS_PORT|g" \
  -e "s|@NAME1@|pg1|g" -e "s|@PG_PORT1@|$PG_PORT1|g" -e "s|@REST_PORT1@|$REST_PORT1|g" \
  -e "s|@NAME2@|pg2|g" -e "s|@PG_PORT2@|$PG_PORT2|g" -e "s|@REST_PORT2@|$REST_PORT2|g" \
  "$HERE/haproxy.cfg.in" >"$WORK/haproxy.cfg"
haproxy -c -q -f "$WORK/haproxy.cfg" || fail "haproxy -c rejected the configuration"
haproxy -db -f "$WORK/haproxy.cfg" >"$WORK/haproxy.log" 2>&1 &
PIDS+=($!)
ADMIN_URL="postgresql://postgres:$SUPERUSER_PASSWORD@127.0.0.1:$HAPROXY_PORT/postgres"
psql_admin() { psql "$ADMIN_URL" -v ON_ERROR_STOP=1 -qAt "$@"; }
# HAProxy 2.6 starts with every server UP until its checks say otherwise: wait until the
# only server left UP is the primary, so nothing below lands on the standby.
up_servers() {
  curl -fsS "http://127.0.0.1:$STATS_PORT/;csv" |
    awk -F, '$1 == "postgres_primary" && $2 != "FRONTEND" && $2 != "BACKEND" && $18 ~ /^UP/ { print $2 }' |
    tr '\n' ' '
}
only_up() { [ "$(up_servers)" = "$1 " ]; }
wait_for 30 only_up pg1 || fail "HAProxy does not route to pg1 alone: UP: $(up_servers)"
wait_for 30 psql_admin -c 'SELECT 1' || fail "no PostgreSQL through HAProxy on :$HAPROXY_PORT"
log "HAProxy on 127.0.0.1:$HAPROXY_PORT routes to pg1 alone (port $(psql_admin -c 'SELECT inet_server_port()'))"

# --- 5. the crease database and three cluster nodes ---------------------------------------------
psql_admin -c "CREATE ROLE crease LOGIN PASSWORD '$CREASE_PASSWORD'" -c "CREATE DATABASE crease OWNER crease"
export DATABASE_URL="postgres://crease:$CREASE_PASSWORD@127.0.0.1:$HAPROXY_PORT/crease"
CLUSTER_NAME=drill$$x$RANDOM
nats_up() { local rest=${NATS_URL#nats://}; (exec 3<>"/dev/tcp/${rest%:*}/${rest##*:}"); }
nats_up || fail "NATS is not reachable at $NATS_URL"
NODE_URLS=()
for i in 1 2 3; do
  port=${NODE_PORTS[$((i - 1))]}
  "$CREASE" serve --bind "127.0.0.1:$port" --nats-url "$NATS_URL" --cluster-name "$CLUSTER_NAME" \
    --node-name "n$i" --lease-ttl-ms "$LEASE_TTL_MS" --advertise-url "http://127.0.0.1:$port" \
    --rate-limits false >"$WORK/n$i.log" 2>&1 &
  PIDS+=($!)
  NODE_URLS+=("http://127.0.0.1:$port")
  # One at a time: the first runs the migrations.
  wait_for 60 curl -fsS "http://127.0.0.1:$port/readyz" || fail "crease n$i did not get ready ($WORK/n$i.log)"
done
log "crease n1..n3 ready on ${NODE_URLS[*]} (cluster $CLUSTER_NAME, lease TTL $LEASE_TTL_MS ms)"

# --- 6. play -----------------------------------------------------------------------------------------
ACKS=$WORK/acks.jsonl
servers=()
for url in "${NODE_URLS[@]}"; do servers+=(--server "$url"); done
LOAD_CMD=("$CREASE" load "${servers[@]}" --matches "$MATCHES" --pace "$PACE" --duration "$LOAD_SECONDS"
  --acks-file "$ACKS" --reconnect-for 90 --json)
log "load: crease load ${servers[*]} --matches $MATCHES --pace $PACE --duration $LOAD_SECONDS --acks-file acks.jsonl --reconnect-for 90 --json"
"${LOAD_CMD[@]}" >"$WORK/load.json" 2>"$WORK/load.err" &
LOAD_PID=$!
PIDS+=("$LOAD_PID")
acks_so_far() { [ -f "$ACKS" ] && wc -l <"$ACKS" || echo 0; }
has_acks() { [ "$(acks_so_far)" -gt 0 ]; }
wait_for 120 has_acks || fail "no ack within 120 s ($WORK/load.err)"
sleep "$PLAY_BEFORE_KILL"
kill -0 "$LOAD_PID" 2>/dev/null || fail "the load client stopped before the kill ($WORK/load.err)"

# --- 7. the failure ---------------------------------------------------------------------------------------
if is_primary "$REST_PORT1"; then
  PRIMARY=pg1 STANDBY=pg2 PRIMARY_REST=$REST_PORT1 STANDBY_REST=$REST_PORT2
elif is_primary "$REST_PORT2"; then
  PRIMARY=pg2 STANDBY=pg1 PRIMARY_REST=$REST_PORT2 STANDBY_REST=$REST_PORT1
else
  fail "no primary before the kill"
fi
is_sync "$STANDBY_REST" || fail "$STANDBY is not the synchronous standby before the kill"
# The member that is lost (SCENARIO=primary or standby) and the one that stays.
if [ "$SCENARIO" = standby ]; then
  LOST=$STANDBY LOST_REST=$STANDBY_REST KEPT=$PRIMARY KEPT_REST=$PRIMARY_REST
else
  LOST=$PRIMARY LOST_REST=$PRIMARY_REST KEPT=$STANDBY KEPT_REST=$STANDBY_REST
fi
kill_member() { # the lost member: its Patroni and postmaster (KILL=node) or the postmaster alone
  local postmaster patroni
  postmaster=$(head -1 "$WORK/$LOST/data/postmaster.pid")
  patroni=$(cat "$WORK/$LOST/patroni.pid")
  if [ "$KILL" = node ]; then
    kill -KILL "$patroni" "$postmaster"
    log "kill -9 of $LOST's Patroni ($patroni) and postmaster ($postmaster), $ACKS_BEFORE acks so far"
    rm -f "$WORK/$LOST/patroni.pid"
  else
    kill -KILL "$postmaster"
    log "kill -9 of $LOST's postmaster ($postmaster), $ACKS_BEFORE acks so far"
  fi
}
ACKS_BEFORE=$(acks_so_far)
LOAD_AVERAGE=$(cut -d' ' -f1 /proc/loadavg)
log "uptime before the kill: $(uptime)"
PROMOTED_MS= ROUTED_MS= REJOINED_MS= DEMOTED=no REWIND=no
KILL_MS=$(now_ms)
case "$SCENARIO" in
primary)
  kill_member
  wait_for 120 is_primary "$KEPT_REST" || fail "$KEPT was not promoted within 120 s"
  PROMOTED_MS=$(now_ms)
  log "$KEPT promoted $((PROMOTED_MS - KILL_MS)) ms after the kill"
  wait_for 30 only_up "$KEPT" || fail "HAProxy does not route to $KEPT alone: UP: $(up_servers)"
  ROUTED_MS=$(now_ms)
  log "HAProxy routes to $KEPT alone $((ROUTED_MS - KILL_MS)) ms after the kill"
  ;;
standby)
  kill_member
  # The primary goes on alone once Patroni takes the lost standby out of
  # synchronous_standby_names; until then its commits wait.
  sleep "$OUTAGE_SECONDS"
  is_primary "$PRIMARY_REST" || fail "$PRIMARY is no longer the primary"
  ;;
etcd)
  kill -KILL "$ETCD_PID"
  log "kill -9 of etcd ($ETCD_PID), $ACKS_BEFORE acks so far"
  # failsafe_mode: the primary stays primary while it reaches every member's REST API.
  until_ms=$(($(now_ms) + OUTAGE_SECONDS * 1000))
  while [ "$(now_ms)" -lt "$until_ms" ]; do
    is_primary "$PRIMARY_REST" || DEMOTED=yes
    sleep 0.5
  done
  start_etcd
  wait_for 30 etcd_healthy || fail "etcd did not come back"
  log "etcd back after ${OUTAGE_SECONDS}s; the primary was demoted meanwhile: $DEMOTED"
  ;;
esac

# --- the lost member rejoins ------------------------------------------------------------------------------
if [ "$SCENARIO" != etcd ]; then
  if [ "$KILL" = node ]; then
    # The lost machine comes back: its Patroni starts and finds the current leader (after a
    # promotion it rewinds the old primary's data directory to the new timeline).
    start_member "$LOST"
  fi
  replica_again() { [ "$(rest "$LOST_REST" /replica)" = 200 ]; }
  wait_for 180 replica_again || fail "$LOST did not rejoin as a standby ($WORK/$LOST/patroni.log)"
  REJOINED_MS=$(now_ms)
  log "$LOST is a standby again $((REJOINED_MS - KILL_MS)) ms after the kill"
  grep -q "pg_rewind" "$WORK/$LOST/patroni.log" && REWIND=yes
  grep -E "rewind" "$WORK/$LOST/patroni.log" | tail -5 || true
fi
both_running() {
  local list
  list=$(patronictl_list)
  [ "$(grep -cE '^\| pg[12] .*(running|streaming)' <<<"$list")" = 2 ] && grep -q 'Sync Standby' <<<"$list"
}
wait_for 120 both_running || fail "the members are not both running with a synchronous standby"

wait "$LOAD_PID" || fail "crease load failed ($WORK/load.err)"
log "load finished: $(cat "$WORK/load.json")"

# --- 8. checks and figures --------------------------------------------------------------------------------
PATRONI_LIST=$(patronictl_list)
echo "$PATRONI_LIST"
if [ "$SCENARIO" != etcd ]; then
  lost_row=$(grep -E "^\| $LOST " <<<"$PATRONI_LIST" || true)
  grep -Eq "Sync Standby|Replica" <<<"$lost_row" || fail "patronictl list does not show $LOST as a standby: $lost_row"
fi
timelines=$(grep -E "^\| pg[12] " <<<"$PATRONI_LIST" | awk -F'|' '{ gsub(/ /, "", $6); print $6 }' | sort -u)
[ "$(wc -l <<<"$timelines")" = 1 ] || fail "the members are on different timelines: $timelines"

python3 "$HERE/check_drill.py" --acks "$ACKS" --kill-ms "$KILL_MS" --scenario "$SCENARIO" --kill "$KILL" \
  --promoted-ms "${PROMOTED_MS:-0}" --routed-ms "${ROUTED_MS:-0}" --rejoined-ms "${REJOINED_MS:-0}" \
  --rewind "$REWIND" --demoted "$DEMOTED" --database-url "$DATABASE_URL" \
  --lease-ttl-ms "$LEASE_TTL_MS" --load-average "$LOAD_AVERAGE" \
  --load-report "$WORK/load.json" "${NODE_URLS[@]}"
