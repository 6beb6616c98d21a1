#!/usr/bin/env bash
# The bot benchmarks of issue 15, as printed figures (not timed tests): every shipped fixed
# exploit against the heuristic (the finding) and against `hard`, `hard` against the
# heuristic, and the realism figures of hard-vs-hard CTG T20. Each arena line is policy A's
# score with its 95 % Wilson interval; targets: hard >= 55 % (lower bound > 50 %) against
# every exploit over 2,000 matches, >= 60 % against the heuristic over 10,000.
#
# usage: scripts/bench-bots.sh [exploit matches] [heuristic matches] [realism matches]
# env: BIN (default target/release/crease), SEED (default 1).
set -euo pipefail
exploit_matches=${1:-2000}
heuristic_matches=${2:-10000}
realism_matches=${3:-1000}
BIN=${BIN:-${CARGO_TARGET_DIR:-target}/release/crease}
SEED=${SEED:-1}

uptime
score() { # game A B matches [extra args]: the arena's report without its timing line
  local game=$1 a=$2 b=$3 matches=$4
  shift 4
  "$BIN" arena "$game" --a "$a" --b "$b" --matches "$matches" --seed "$SEED" "$@" | sed -n 1,3p
}
exploits() { "$BIN" arena "$1" --list | awk '{print $1}' | grep -vx -e random -e heuristic -e hard; }

echo "== the finding: each fixed exploit (A) against the heuristic"
for game in ctg wicketz champions; do
  for exploit in $(exploits "$game"); do score "$game" "$exploit" heuristic "$exploit_matches"; done
done
echo "== hard (A) against each fixed exploit and the heuristic"
for game in ctg wicketz champions; do
  for exploit in $(exploits "$game"); do score "$game" hard "$exploit" "$exploit_matches"; done
  score "$game" hard heuristic "$heuristic_matches"
done
echo "== realism: hard vs hard, CTG T20 (band in docs/rules/ctg.md)"
"$BIN" simulate ctg --format t20 --policy hard --matches "$realism_matches" --seed "$SEED"
uptime
