"""The checks and figures of deploy/patroni/drill.sh, after a PostgreSQL member or etcd was
killed (SCENARIO=primary, standby or etcd).

Reads the load client's acks file (`crease load --acks-file`: one JSON line per acked command)
and the database (through `psql`, on the drill's HAProxy address), and asks the crease nodes
over HTTP. Fails (exit 1) when an acked command is missing from its match's log, when a
match's log has a gap or a duplicate seq, when a finished match does not verify, or when a
match in play at the kill is still live and never resumed. Prints the figures, then one `RESULT` line
(key=value) that drill.sh's several-run mode summarises.

Python's standard library and the psql client only.
"""

import argparse
import csv
import io
import json
import statistics
import subprocess
import sys
import urllib.request

parser = argparse.ArgumentParser()
parser.add_argument("--acks", required=True)
parser.add_argument("--kill-ms", type=int, required=True)
parser.add_argument("--scenario", choices=["primary", "standby", "etcd"], default="primary")
# 0: did not happen in this scenario (only the primary's loss promotes the standby).
parser.add_argument("--promoted-ms", type=int, default=0)
parser.add_argument("--routed-ms", type=int, default=0)
parser.add_argument("--rejoined-ms", type=int, default=0)
parser.add_argument("--demoted", choices=["yes", "no"], default="no", help="SCENARIO=etcd: the primary lost its role")
parser.add_argument("--database-url", required=True)
parser.add_argument("--rewind", choices=["yes", "no"], required=True, help="whether pg_rewind ran")
parser.add_argument("--kill", default="node")
parser.add_argument("--lease-ttl-ms", type=int, default=0)
parser.add_argument("--load-average", default="?", help="1-minute load average at the kill")
parser.add_argument("--load-report")
parser.add_argument("nodes", nargs="+", help="the crease nodes' base URLs")
args = parser.parse_args()
kill = args.kill_ms
failures = []


def psql(script):
    done = subprocess.run(
        ["psql", args.database_url, "-qAt", "-F", "\t", "-v", "ON_ERROR_STOP=1", "-f", "-"],
        input=script,
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        sys.exit(f"psql failed: {done.stderr}")
    return [line.split("\t") for line in done.stdout.splitlines() if line]


def get(url):
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


acks = [json.loads(line) for line in open(args.acks) if line.strip()]
if not acks:
    sys.exit("no acks recorded")
before = [ack for ack in acks if ack["acked_ms"] < kill]
after_kill = [ack for ack in acks if ack["acked_ms"] >= kill]
# Commands sent after the kill and acked. The first of them may come within milliseconds: the
# old primary's backends and walsender run on until they notice their postmaster is gone, so
# a commit can still beat the kill (synchronous replication: it is on the standby too).
sent_after = [ack for ack in acks if ack["sent_ms"] >= kill]
first_sent_after = min((ack["acked_ms"] - kill for ack in sent_after), default=None)


def pause(times, until=kill + 60_000):
    """The longest stretch without an ack after the kill (from the kill itself to the first
    ack, or between two acks, up to `until`), and when the ack that ended it came, both in ms."""
    points = [kill, *sorted(time for time in times if time <= until)]
    if len(points) < 2:
        return None, None
    gap, end = max((later - earlier, later) for earlier, later in zip(points, points[1:]))
    return gap, end - kill


# Where the players waited: the longest pause in acks after the kill, and the first ack after
# it (play resumed).
max_pause, resumed_at = pause([ack["acked_ms"] for ack in after_kill])
if resumed_at is None:
    failures.append("no ack after the kill")

# Per match, for the matches in play at the kill (an ack in the 5 s before it): when its own
# longest pause after the kill ended.
in_play = {ack["match_id"] for ack in before if ack["acked_ms"] >= kill - 5000}
acked_after = {}
for ack in after_kill:
    acked_after.setdefault(ack["match_id"], []).append(ack["acked_ms"])
last_ack = {}
for ack in acks:
    last_ack[ack["match_id"]] = max(last_ack.get(ack["match_id"], 0), ack["acked_ms"])
run_end = max(last_ack.values())

# --- the database -------------------------------------------------------------------------------
buffer = io.StringIO()
writer = csv.writer(buffer, lineterminator="\n")
for ack in acks:
    writer.writerow(
        [ack["match_id"], ack["seat"], ack["last_seq"], json.dumps(ack["command"]), ack["sent_ms"], ack["acked_ms"]]
    )
script = f"""
CREATE TEMP TABLE acks (match_id text, seat int, last_seq bigint, command jsonb, sent_ms bigint, acked_ms bigint);
COPY acks FROM STDIN WITH (FORMAT csv);
{buffer.getvalue()}\\.
-- 1. every ack: its seq is in the log, and the last command at or before it is this seat's,
--    from the player, with exactly the content sent
SELECT 'acks', count(*),
       count(*) FILTER (WHERE NOT EXISTS (
           SELECT 1 FROM match_event e WHERE e.match_id = a.match_id AND e.seq = a.last_seq)),
       count(*) FILTER (WHERE NOT coalesce((
           SELECT e.payload -> 'command' = a.command
                  AND (e.payload ->> 'seat')::int = a.seat
                  AND e.payload ->> 'source' = 'player'
             FROM match_event e
            WHERE e.match_id = a.match_id AND e.kind = 'command' AND e.seq <= a.last_seq
            ORDER BY e.seq DESC LIMIT 1), false))
  FROM acks a;
-- 2. two acks for one seq of one match (two owners both acking)
SELECT 'twice', count(*) FROM (SELECT match_id, last_seq FROM acks GROUP BY 1, 2 HAVING count(*) > 1) twice;
-- 3. gaps: each match's seqs run from its first without a hole (the primary key forbids a
--    duplicate); the first seq of every match
SELECT 'gaps', count(*) FILTER (WHERE n <> hi - lo + 1), count(*), min(lo), max(lo), sum(n)
  FROM (SELECT match_id, count(*) AS n, min(seq) AS lo, max(seq) AS hi FROM match_event GROUP BY 1) m;
-- 4. matches in play at the kill that are still live now, and finished matches
SELECT 'status', status, count(*) FROM "match" WHERE match_id IN (SELECT DISTINCT match_id FROM acks) GROUP BY 2 ORDER BY 2;
-- 5. when each log entry of the minute after the kill was written
SELECT 'at', round(extract(epoch FROM at) * 1000)::bigint
  FROM match_event WHERE at >= to_timestamp({kill} / 1000.0) AND at <= to_timestamp({kill + 60_000} / 1000.0);
-- 6. leases: matches that changed owner (epoch > 1) and the highest epoch
SELECT 'leases', count(*) FILTER (WHERE epoch > 1), coalesce(max(epoch), 0) FROM match_lease;
-- 7. finished matches of this run, to verify
SELECT 'finished', match_id FROM "match" WHERE status = 'finished' AND match_id IN (SELECT DISTINCT match_id FROM acks);
"""
rows = psql(script)


def labelled(label):
    return [row[1:] for row in rows if row[0] == label]


(total, missing_seq, wrong_command) = map(int, labelled("acks")[0])
twice = int(labelled("twice")[0][0])
gaps, logged_matches, first_lo, last_lo, entries = labelled("gaps")[0]
gaps = int(gaps)
statuses = {status: int(count) for status, count in labelled("status")}
# The same pause, seen in the log: the longest stretch without a write after the kill.
log_pause, log_resumed_at = pause([int(row[0]) for row in labelled("at")])
moved, max_epoch = map(int, labelled("leases")[0])
finished = [row[0] for row in labelled("finished")]

if missing_seq or wrong_command:
    failures.append(f"acked commands lost: {missing_seq} acked seqs missing, {wrong_command} with another command")
if twice:
    failures.append(f"{twice} seqs acked twice")
if gaps:
    failures.append(f"{gaps} matches with a gap in their log")
if first_lo != last_lo:
    failures.append(f"matches' logs start at different seqs ({first_lo} to {last_lo})")

# Matches in play at the kill that are still live but got no ack in the run's last 10 s (at
# this pace a playing match has several a second): stuck, nobody runs them.
live_now = set(
    row[0]
    for row in psql(
        "SELECT match_id FROM \"match\" WHERE status = 'live' AND match_id IN ("
        + ",".join(f"'{match_id}'" for match_id in sorted(in_play) or ["-"])
        + ");"
    )
)
stuck = sorted(match for match in in_play if match in live_now and last_ack[match] < run_end - 10_000)
# Each match's longest pause up to the end of the run; one far longer than the database's
# outage means the match waited for something else (its turn clock, say).
per_match_pause = {
    match: pause(times, until=run_end) for match, times in acked_after.items() if match in in_play and match not in stuck
}
per_match = {match: end for match, (gap, end) in per_match_pause.items()}
stalled = sorted(match for match, (gap, end) in per_match_pause.items() if gap > (max_pause or 0) + 15_000)
if stalled:
    failures.append(
        f"{len(stalled)} matches paused 15 s longer than the outage: "
        + ", ".join(f"{match} ({per_match_pause[match][0]} ms, ended at +{per_match_pause[match][1]} ms)" for match in stalled[:5])
    )
if stuck:
    failures.append(f"{len(stuck)} matches in play at the kill never resumed: {stuck[:5]}")

# --- every finished match verifies (any node answers for any match) ----------------------------
verified = 0
for number, match_id in enumerate(finished):
    status, body = get(f"{args.nodes[number % len(args.nodes)]}/v1/matches/{match_id}/verify")
    if status == 200 and json.loads(body).get("status") == "ok":
        verified += 1
    else:
        failures.append(f"match {match_id} does not verify: {status} {body[:200]}")

fenced = 0.0
for node in args.nodes:
    status, body = get(f"{node}/metrics")
    for line in body.splitlines():
        if line.startswith("crease_cluster_fenced_writes_total"):
            fenced += float(line.rsplit(" ", 1)[1])

# pg_rewind runs only when the old primary's WAL went past the point where the new primary's
# timeline forked (drill.sh checks the rejoin itself: a standby again, on the new timeline).

load = {}
if args.load_report:
    try:
        load = json.load(open(args.load_report))
    except (OSError, ValueError):
        load = {}

delays = sorted(per_match.values())
print(f"acks recorded: {len(acks)} ({len(before)} before the kill, {len(sent_after)} of commands sent after it)")
def after(ms):
    return ms - kill if ms else None


if args.scenario == "primary":
    print(
        f"promotion: {after(args.promoted_ms)} ms after the kill; HAProxy on the new primary alone after "
        f"{after(args.routed_ms)} ms; old primary a standby again after {after(args.rejoined_ms)} ms "
        f"(pg_rewind ran: {args.rewind})"
    )
elif args.scenario == "standby":
    print(f"lost standby a standby again after {after(args.rejoined_ms)} ms (the primary stayed primary)")
else:
    print(f"etcd lost and restarted; the primary was demoted meanwhile: {args.demoted}")
print(
    f"kill -> first ack after the longest pause: {resumed_at} ms (the pause: {max_pause} ms); "
    f"first ack of a command sent after the kill: {first_sent_after} ms; "
    f"in the log: the longest pause in writes {log_pause} ms, ended {log_resumed_at} ms after the kill"
)
if delays:
    print(
        f"matches in play at the kill: {len(in_play)}; kill -> each one's first ack after its pause: "
        f"min {delays[0]} ms, median {statistics.median(delays):.0f} ms, max {delays[-1]} ms "
        f"({len(delays)} resumed, {len(stalled)} of them after a pause 15 s longer than the outage, {len(stuck)} stuck)"
    )
print(
    f"log: {total} acks checked, {missing_seq} missing, {wrong_command} with another command; "
    f"{logged_matches} matches, {entries} entries, {gaps} with a gap; {twice} seqs acked twice"
)
print(f"matches of this run by status: {statuses}; finished and verified: {verified}/{len(finished)}")
print(f"leases: {moved} matches changed owner (highest epoch {max_epoch}); fenced writes on the nodes: {fenced:.0f}")
if load:
    print(
        f"load client: {load.get('acks')} acks in its window, {load.get('errors')} errors "
        f"(commands answered unavailable or match_moved count here), {load.get('reconnects')} reconnects"
    )
result = {
    "scenario": args.scenario,
    "kill": args.kill,
    "lease_ttl_ms": args.lease_ttl_ms,
    "load1": args.load_average,
    "resumed_ms": resumed_at,
    "first_sent_after_kill_ack_ms": first_sent_after,
    "promotion_ms": after(args.promoted_ms),
    "routed_ms": after(args.routed_ms),
    "rejoined_ms": after(args.rejoined_ms),
    "max_pause_ms": max_pause,
    "log_resumed_ms": log_resumed_at,
    "per_match_median_ms": round(statistics.median(delays)) if delays else None,
    "per_match_max_ms": delays[-1] if delays else None,
    "per_match_longest_pause_ms": max((gap for gap, _ in per_match_pause.values()), default=None),
    "acks": len(acks),
    "lost": missing_seq + wrong_command,
    "gaps": gaps,
    "stuck": len(stuck),
    "stalled": len(stalled),
    "verified": f"{verified}/{len(finished)}",
    "rewind": args.rewind,
    "demoted": args.demoted,
}
print("RESULT " + " ".join(f"{key}={value}" for key, value in result.items()))
if failures:
    print("FAILED:", *failures, sep="\n  ", file=sys.stderr)
    sys.exit(1)
print("drill passed: no acked command lost, no gap, every finished match verifies, every match played on")
