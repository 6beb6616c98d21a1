#!/usr/bin/env python3
"""Re-derives every die, card draw and shuffle of a finished crease match from its seed.

Independent of the server's Rust code on purpose: ChaCha20 is implemented here from RFC 8439
and the mapping from stream words to outcomes from proto/fairness.md, so a bug in the
server's mapping shows up as a mismatch instead of being reproduced. Standard library only
(CI runs it on Python 3.11).

    verify_fairness.py --server http://127.0.0.1:8080 --match <id> [--save match.json]
    verify_fairness.py --saved match.json           (a file written by --save)
    verify_fairness.py --log log.json --seed <hex> --game ctg [--options '{...}'] [--commitment <hex>]
    verify_fairness.py --self-test                  (RFC 8439 and proto/fairness-vectors.json)

Exit status: 0 every draw matches, 1 a mismatch (first one printed as seq, expected, found),
2 the input could not be read or checked (bad arguments, network, match not finished).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import struct
import sys
import urllib.error
import urllib.request
from pathlib import Path

VECTORS = Path(__file__).resolve().parent.parent / "proto" / "fairness-vectors.json"
MASK = 0xFFFFFFFF


# --- ChaCha20 (RFC 8439 section 2.3) -------------------------------------------------------


def _quarter(s, a, b, c, d):
    s[a] = (s[a] + s[b]) & MASK
    s[d] ^= s[a]
    s[d] = ((s[d] << 16) | (s[d] >> 16)) & MASK
    s[c] = (s[c] + s[d]) & MASK
    s[b] ^= s[c]
    s[b] = ((s[b] << 12) | (s[b] >> 20)) & MASK
    s[a] = (s[a] + s[b]) & MASK
    s[d] ^= s[a]
    s[d] = ((s[d] << 8) | (s[d] >> 24)) & MASK
    s[c] = (s[c] + s[d]) & MASK
    s[b] ^= s[c]
    s[b] = ((s[b] << 7) | (s[b] >> 25)) & MASK


def chacha20_block(key: bytes, counter: int, nonce: bytes) -> list[int]:
    """The 16 little-endian words of one 64-byte block (32-bit counter, 96-bit nonce)."""
    init = [0x61707865, 0x3320646E, 0x79622D32, 0x6B206574]
    init += list(struct.unpack("<8I", key)) + [counter & MASK]
    init += list(struct.unpack("<3I", nonce))
    s = init[:]
    for _ in range(10):
        _quarter(s, 0, 4, 8, 12)
        _quarter(s, 1, 5, 9, 13)
        _quarter(s, 2, 6, 10, 14)
        _quarter(s, 3, 7, 11, 15)
        _quarter(s, 0, 5, 10, 15)
        _quarter(s, 1, 6, 11, 12)
        _quarter(s, 2, 7, 8, 13)
        _quarter(s, 3, 4, 9, 14)
    return [(x + y) & MASK for x, y in zip(s, init)]


class Stream:
    """A match's draws: ChaCha20 keyed by the seed, nonce 0, block counter from 0."""

    def __init__(self, seed: bytes):
        if len(seed) != 32:
            raise ValueError("a seed is 32 bytes")
        self.key = seed
        self.block = 0
        self.buffer: list[int] = []
        self.words = 0

    def word(self) -> int:
        if not self.buffer:
            # The server's 64-bit block counter only differs from RFC 8439's 32-bit one
            # (whose high half would be nonce word 0) after 2^32 blocks: never in a match.
            self.buffer = chacha20_block(self.key, self.block, bytes(12))
            self.block += 1
        self.words += 1
        return self.buffer.pop(0)

    def below(self, n: int) -> int:
        if not 1 <= n <= MASK:
            raise ValueError(f"below({n}) is undefined")
        zone = MASK - ((2**32 - n) % n)
        while True:
            x = self.word()
            if x <= zone:
                return x % n

    def roll(self, sides: int) -> int:
        return self.below(sides) + 1

    def chance(self, numerator: int, denominator: int) -> bool:
        return self.below(denominator) < numerator

    def shuffle(self, items: list) -> list:
        items = list(items)
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]
        return items

    def weighted(self, weights: list[int]) -> int:
        pick = self.below(max(sum(weights), 1))
        for index, weight in enumerate(weights):
            if pick < weight:
                return index
            pick -= weight
        return max(len(weights) - 1, 0)


# --- Checking a log --------------------------------------------------------------------------


class Mismatch(Exception):
    def __init__(self, seq, what, expected, found):
        super().__init__(f"seq {seq}: {what}: expected {expected!r}, found {found!r}")
        self.seq, self.what, self.expected, self.found = seq, what, expected, found


class Checker:
    """Walks the events in log order, drawing from the stream exactly what each one drew."""

    def __init__(self, stream: Stream, constants: dict, options: dict):
        self.stream, self.c, self.options = stream, constants, options
        self.draws = 0
        self.seq = 0

    def expect(self, what, expected, found):
        self.draws += 1
        if expected != found:
            raise Mismatch(self.seq, what, expected, found)

    def field(self, event, name):
        if name not in event or event[name] is None:
            raise Mismatch(self.seq, f"{event.get('type')}.{name}", "a recorded value", None)
        return event[name]


class Ctg(Checker):
    def __init__(self, *args):
        super().__init__(*args)
        fmt = self.options.get("format", self.c["default_format"])
        self.distance_sides = self.c["distance_sides"][fmt]
        self.bat_sides = None

    def event(self, e):
        s, kind = self.stream, e.get("type")
        if kind == "pitch_drawn":
            self.expect("pitch card", s.below(self.c["pitch_cards"]), e["card"])
        elif kind == "toss_won":
            self.expect("toss", s.below(2), e["seat"])
        elif kind == "over_dealt":
            order = s.shuffle(range(self.c["over_deck_size"]))
            self.expect("over cards", order[:6], self.field(e, "cards"))
        elif kind == "delivered":
            self.expect("bowler's die", s.roll(e["bowl_sides"]), e["bowl"])
            self.expect("batter's die", s.roll(e["bat_sides"]), e["bat"])
            self.bat_sides = e["bat_sides"]
        elif kind == "to_hit_rerolled":
            if self.bat_sides is None:
                raise Mismatch(self.seq, "re-roll", "a delivery first", e)
            self.expect("re-rolled batter's die", s.roll(self.bat_sides), e["bat"])
        elif kind == "roll":
            self.expect(f"{e['roll_for']} roll", s.roll(e["sides"]), e["face"])
        elif kind == "distance" and not e["added_one"]:
            self.expect("distance die", s.roll(self.distance_sides), e["rolled"])
        elif kind == "bounce":
            self.expect("bounce die", s.roll(6), e["face"])


class Wicketz(Checker):
    def __init__(self, *args):
        super().__init__(*args)
        self.dispenser: list[int] | None = None
        self.out_this_over: list[int] = []
        self.style = None
        self.segments = [seg["segment"] for seg in self.c["indicator"]]
        self.weights = [seg["weight"] for seg in self.c["indicator"]]

    def take(self, what, card):
        front = self.dispenser[0] if self.dispenser else None
        self.expect(what, front, card)
        self.dispenser.pop(0)
        self.out_this_over.append(card)

    def event(self, e):
        s, kind = self.stream, e.get("type")
        if kind == "dispenser_shuffled":
            if self.dispenser is None:
                before = list(range(1, self.c["deck_size"] + 1))
            else:
                before = self.dispenser or self.out_this_over
            self.expect("dispenser order", s.shuffle(before), e["order"])
            self.out_this_over = [c for c in self.out_this_over if c not in e["order"]]
            self.dispenser = list(e["order"])
        elif kind == "toss_won":
            self.expect("toss", s.below(2), e["seat"])
        elif kind == "over_started":
            self.style = e["style"]
        elif kind == "line_spun":
            chance = self.c["line_pre_spin_good"]
            self.expect("line pre-spin", s.chance(chance["numerator"], chance["denominator"]), e["good"])
        elif kind == "delivered":
            segment = self.segments[s.weighted(self.weights)]
            if segment == "bouncer_or_googly":
                segment = "bouncer" if self.style == "pace" else "googly"
            self.expect("bowling indicator", segment, e["delivery"])
        elif kind in ("card_dealt", "wild_card_drawn"):
            self.take("card from the dispenser's front", e["card"])
        elif kind == "over_completed":
            self.dispenser = (self.dispenser or []) + self.out_this_over
            self.out_this_over = []
        elif kind == "ball_completed" and e["ball"].get("catch"):
            catch = e["ball"]["catch"]
            chance = self.c["catch_not_out"]
            for index, not_out in enumerate(catch["spins"]):
                drawn = s.chance(chance["numerator"], chance["denominator"])
                self.expect(f"catch spin {index + 1}", drawn, not_out)
            # The spins stop at the first "not out" or when the lives run out.
            spins = catch["spins"]
            stopped = len(spins) == catch["lives"] or (spins and spins[-1])
            if any(spins[:-1]) or not stopped:
                raise Mismatch(self.seq, "catch spin count", f"{catch['lives']} lives", spins)


class Champions(Checker):
    def event(self, e):
        s, kind = self.stream, e.get("type")
        if kind == "deck_shuffled":
            order = s.shuffle(self.c["xp_cards"])
            market = self.c["market_size"]
            pile = e["draw_pile"].get("order")
            if pile is None:
                raise Mismatch(self.seq, "deck_shuffled.draw_pile.order", "a recorded order", None)
            self.expect("xp deck", order, list(e["market"]) + list(pile))
            if len(e["market"]) != min(market, len(order)):
                raise Mismatch(self.seq, "market size", market, len(e["market"]))
        elif kind == "round_started":
            # The order cards of the seats still in, shuffled from ascending seat order.
            self.expect("player order", s.shuffle(sorted(e["order"])), e["order"])
        elif kind == "dice_rolled":
            faces = self.c["dice"][e["role"]]
            if len(e["dice"]) != len(e["faces"]):
                raise Mismatch(self.seq, "dice rolled", len(e["dice"]), len(e["faces"]))
            for die, face in zip(e["dice"], e["faces"]):
                self.expect(f"{e['role']} die {die}", faces[s.below(len(faces))], face)


GAMES = {"ctg": Ctg, "wicketz": Wicketz, "champions": Champions}


def check(game, options, seed_hex, commitment, entries, constants):
    """Returns (draws, words) when every draw matches; raises Mismatch at the first that
    does not. The commitment is checked first: a seed that is not the committed one proves
    nothing, however well its stream matches."""
    try:
        seed = bytes.fromhex(seed_hex)
    except (TypeError, ValueError):
        raise Mismatch(0, "seed", "64 hex digits", seed_hex) from None
    if len(seed) != 32:
        raise Mismatch(0, "seed", "32 bytes", len(seed))
    if commitment is not None:
        actual = hashlib.sha256(seed).hexdigest()
        if actual != commitment.lower():
            raise Mismatch(0, "sha256(seed) against the published commitment", commitment, actual)
    if game not in GAMES:
        raise ValueError(f"unknown game {game!r}")
    checker = GAMES[game](Stream(seed), constants["games"][game]["constants"], options or {})
    last = 0
    for entry in sorted(entries, key=lambda entry: entry["seq"]):
        checker.seq = entry["seq"]
        if entry["seq"] != last + 1:
            raise Mismatch(entry["seq"], "log sequence", last + 1, entry["seq"])
        last = entry["seq"]
        if entry["kind"] == "event":
            checker.event(entry["payload"])
    return checker.draws, checker.stream.words


# --- Self-test ---------------------------------------------------------------------------


def self_test(vectors) -> list[str]:
    """Checks this file against RFC 8439 and the published vectors; returns the failures."""
    failures = []

    def same(name, expected, found):
        if expected != found:
            failures.append(f"{name}: expected {expected!r}, found {found!r}")

    # RFC 8439 section 2.3.2: key 00..1f, counter 1, nonce 00 00 00 09 00 00 00 4a 00 00 00 00.
    block = chacha20_block(bytes(range(32)), 1, bytes.fromhex("000000090000004a00000000"))
    same("RFC 8439 2.3.2 block", [0xE4E7F110, 0x15593BD1, 0x1FDD0F50, 0xC47120A3], block[:4])
    same("RFC 8439 2.3.2 block end", [0xD19C12B5, 0xB94E16DE, 0xE883D0CB, 0x4E3C50A2], block[12:])
    for vector in vectors["streams"]:
        stream = Stream(bytes.fromhex(vector["seed"]))
        same(f"{vector['name']} commitment", vector["commitment"], hashlib.sha256(stream.key).hexdigest())
        same(f"{vector['name']} words", vector["words"], [stream.word() for _ in vector["words"]])
        stream = Stream(bytes.fromhex(vector["seed"]))
        for step, call in enumerate(vector["calls"]):
            op, arg = call["op"], call["arg"]
            if op == "shuffle":
                result = stream.shuffle(range(arg))
            elif op == "chance":
                result = stream.chance(*arg)
            else:
                result = getattr(stream, op)(arg)
            same(f"{vector['name']} call {step} {op}({arg})", call["result"], result)
            same(f"{vector['name']} call {step} words after", call["words_after"], stream.words)
    zero = Stream(bytes(32))
    # RFC 8439 appendix A.1, test vector 1 (all-zero key, nonce and counter).
    same("RFC 8439 A.1 #1", "76b8e0ada0f13d90405d6ae55386bd28", struct.pack("<4I", *[zero.word() for _ in range(4)]).hex())
    for game, vector in vectors["games"].items():
        sequence = vector["sequence"]
        try:
            draws, words = check(game, sequence["options"], sequence["seed"], None, sequence["log"], vectors)
            # The engine's stream position after the sequence: drawing one word too many or
            # too few anywhere shows here even if every compared value happened to match.
            same(f"{game} sequence words used", sequence["words"], words)
            if draws == 0:
                failures.append(f"{game} sequence: no draw was checked")
        except Mismatch as error:
            failures.append(f"{game} sequence: {error}")
    return failures


# --- Command line ------------------------------------------------------------------------


def fetch(url):
    request = urllib.request.Request(url, headers={"accept": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.load(response)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--server", help="base URL, e.g. http://127.0.0.1:8080")
    parser.add_argument("--match", help="match id (with --server)")
    parser.add_argument("--save", help="also write the fetched match and log to this file")
    parser.add_argument("--saved", help="a file written by --save, instead of --server")
    parser.add_argument("--log", help="a GET /v1/matches/{id}/log body, with --seed and --game")
    parser.add_argument("--seed", help="the revealed seed, 64 hex digits")
    parser.add_argument("--commitment", help="the published sha256(seed), checked when given")
    parser.add_argument("--game", choices=sorted(GAMES))
    parser.add_argument("--options", default="{}", help="the match's options as JSON")
    parser.add_argument("--vectors", default=str(VECTORS), help="proto/fairness-vectors.json")
    parser.add_argument("--self-test", action="store_true")
    args = parser.parse_args(argv)
    try:
        vectors = json.loads(Path(args.vectors).read_text())
    except (OSError, ValueError) as error:
        print(f"error: cannot read {args.vectors}: {error}", file=sys.stderr)
        return 2
    if args.self_test:
        failures = self_test(vectors)
        for failure in failures:
            print(f"FAIL {failure}")
        print("self-test ok" if not failures else f"self-test: {len(failures)} failures")
        return 1 if failures else 0
    try:
        if args.server and args.match:
            base = args.server.rstrip("/") + "/v1/matches/" + args.match
            saved = {"match": fetch(base), "log": fetch(base + "/log")}
            if args.save:
                Path(args.save).write_text(json.dumps(saved, indent=1))
        elif args.saved:
            saved = json.loads(Path(args.saved).read_text())
        elif args.log and args.seed and args.game:
            options = json.loads(args.options)
            match = {"game": args.game, "options": options, "status": "finished"}
            match.update(seed=args.seed, seed_commitment=args.commitment)
            saved = {"match": match, "log": json.loads(Path(args.log).read_text())}
        else:
            parser.error("give --server and --match, --saved, --log with --seed and --game, or --self-test")
        match, log = saved["match"], saved["log"]
        if match.get("status") != "finished" or not match.get("seed"):
            print(f"error: the match is {match.get('status')}: its seed is still secret", file=sys.stderr)
            return 2
        draws, words = check(
            match["game"], match.get("options") or {}, match["seed"],
            match.get("seed_commitment"), log["entries"], vectors,
        )
    except Mismatch as error:
        print(f"MISMATCH at seq {error.seq}: {error.what}: expected {error.expected!r}, found {error.found!r}")
        return 1
    except (OSError, ValueError, KeyError, TypeError, urllib.error.URLError) as error:
        print(f"error: {type(error).__name__}: {error}", file=sys.stderr)
        return 2
    print(f"ok: {match['game']} match, commitment matches, {draws} draws re-derived from {words} words")
    return 0


if __name__ == "__main__":
    sys.exit(main())
