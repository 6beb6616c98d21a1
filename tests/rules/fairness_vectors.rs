//! The fairness test vectors. `proto/fairness-vectors.json` and the vector section of
//! `proto/fairness.md` must be exactly what `Dice` and the three games produce, so neither can
//! drift from the code; `tools/verify_fairness.py --self-test` checks the same file against
//! an independent implementation.
//!
//! Regenerate both with `UPDATE_FAIRNESS=1 cargo test --test rules fairness_vectors::`: the game
//! sequences' commands are then chosen afresh by the bots; otherwise the stored commands are
//! replayed and every event and the final stream position must match.

use crease::rules::champions::{Champions, data as champions_data};
use crease::rules::ctg::types::Format;
use crease::rules::ctg::{Ctg, data as ctg_data};
use crease::rules::wicketz::{Wicketz, data as wicketz_data};
use crease::rules::{BotPolicy, Dice, Game, MatchCore, Seat, Seed, Viewer};
use serde_json::{Value, json};

const VECTORS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/proto/fairness-vectors.json");
const SPEC: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/proto/fairness.md");
const BEGIN: &str = "<!-- vectors:begin (generated from fairness-vectors.json) -->\n";
const END: &str = "<!-- vectors:end -->";

fn updating() -> bool {
    std::env::var_os("UPDATE_FAIRNESS").is_some()
}

enum Call {
    Roll(u8),
    Below(u32),
    Chance(u32, u32),
    Weighted(&'static [u32]),
    Shuffle(u32),
}

fn stream_vector(name: &str, seed: Seed, words: usize, calls: &[Call]) -> Value {
    let mut dice = Dice::new(&seed);
    let words: Vec<u32> = (0..words).map(|_| dice.word()).collect();
    let mut dice = Dice::new(&seed);
    let calls: Vec<Value> = calls
        .iter()
        .map(|call| {
            let (op, arg, result) = match call {
                Call::Roll(sides) => ("roll", json!(sides), json!(dice.roll(*sides))),
                Call::Below(n) => ("below", json!(n), json!(dice.below(*n))),
                Call::Chance(k, n) => ("chance", json!([k, n]), json!(dice.chance(*k, *n))),
                Call::Weighted(weights) => ("weighted", json!(weights), json!(dice.weighted(weights))),
                Call::Shuffle(n) => {
                    let mut items: Vec<u32> = (0..*n).collect();
                    dice.shuffle(&mut items);
                    ("shuffle", json!(n), json!(items))
                }
            };
            json!({"op": op, "arg": arg, "result": result, "words_after": dice.position() as u64})
        })
        .collect();
    json!({
        "name": name,
        "seed": seed.to_hex(),
        "commitment": seed.commitment(),
        "words": words,
        "calls": calls,
    })
}

fn streams() -> Value {
    // 3e9 leaves a rejection zone of 30% of the words, so these calls show rejection sampling.
    let calls = [
        Call::Roll(6),
        Call::Roll(6),
        Call::Roll(8),
        Call::Below(2),
        Call::Below(1),
        Call::Below(3_000_000_000),
        Call::Below(3_000_000_000),
        Call::Below(3_000_000_000),
        Call::Below(3_000_000_000),
        Call::Below(3_000_000_000),
        Call::Below(3_000_000_000),
        Call::Chance(14, 20),
        Call::Chance(35, 100),
        Call::Weighted(&[6, 2, 2, 3, 2, 3, 1, 1]),
        Call::Shuffle(2),
        Call::Shuffle(6),
        Call::Shuffle(15),
    ];
    json!([
        // RFC 8439 appendix A.1, test vector 1: key, nonce and counter all zero.
        stream_vector("zero", Seed([0; 32]), 16, &[]),
        stream_vector("fixed", Seed(std::array::from_fn(|i| i as u8)), 20, &calls),
    ])
}

/// The numbers the verifier needs besides the events: deck sizes, dice faces, weights.
fn constants() -> Value {
    let ctg = ctg_data::ruleset().expect("the CTG ruleset loads");
    let deck = ctg.over_decks[0].len();
    // One deck size lets the verifier skip working out the bowler's type for each over.
    assert!(
        ctg.over_decks.iter().all(|d| d.len() == deck),
        "CTG over decks differ in size: proto/fairness.md and the verifier must then use the bowl type"
    );
    let wicketz = wicketz_data::ruleset();
    let ids: Vec<u16> = wicketz_data::deck().iter().map(|card| card.id).collect();
    let numbered: Vec<u16> = (1..=ids.len() as u16).collect();
    assert_eq!(ids, numbered, "the Wicketz deck is numbered 1..N in order");
    let chance = |c: &wicketz_data::Chance| json!({"numerator": c.numerator, "denominator": c.denominator});
    let champions = champions_data::ruleset();
    json!({
        "ctg": {
            "pitch_cards": ctg.pitch_cards.len(),
            "over_deck_size": deck,
            "distance_sides": {"t10": Format::T10.distance_sides(), "t20": Format::T20.distance_sides()},
            "default_format": crease::rules::ctg::Options::default().format,
        },
        "wicketz": {
            "deck_size": ids.len(),
            "line_pre_spin_good": chance(&wicketz.line_pre_spin_good),
            "catch_not_out": chance(&wicketz.catch_not_out),
            "indicator": wicketz.indicator.iter()
                .map(|s| json!({"segment": s.segment, "weight": s.weight}))
                .collect::<Vec<_>>(),
        },
        "champions": {
            "xp_cards": champions.xp_cards.iter().map(|c| c.id.clone()).collect::<Vec<_>>(),
            "market_size": champions.market_size,
            "dice": {"batting": champions.batting_die, "bowling": champions.bowling_die},
        },
    })
}

/// A real match opening: the start, then `commands` bot moves (or the stored ones, replayed),
/// as the log entries `GET /v1/matches/{id}/log` would show, plus the stream position after.
/// `adjust` may change a bot's command before it is played (when generating only), to reach
/// draws the bots never choose.
fn sequence<G: Game>(
    options: Value,
    seed: Seed,
    stored: Option<&Value>,
    commands: usize,
    adjust: fn(&mut Value),
) -> Value {
    let parsed: G::Options = serde_json::from_value(options.clone()).expect("options parse");
    let mut core = MatchCore::<G>::new(&parsed, &seed).expect("options are valid");
    let mut log: Vec<Value> = Vec::new();
    let push = |log: &mut Vec<Value>, kind: &str, payload: Value| {
        let seq = log.len() + 1;
        log.push(json!({"seq": seq, "kind": kind, "payload": payload}));
    };
    for event in core.start() {
        push(&mut log, "event", serde_json::to_value(event).unwrap());
    }
    let replay: Option<Vec<(Seat, Value)>> = stored.map(|stored| {
        stored["log"]
            .as_array()
            .expect("a stored log")
            .iter()
            .filter(|entry| entry["kind"] == "command")
            .map(|entry| {
                let seat = serde_json::from_value(entry["payload"]["seat"].clone()).expect("a seat");
                (seat, entry["payload"]["command"].clone())
            })
            .collect()
    });
    let mut bots = Dice::new(&Seed::from_u64(99));
    for index in 0.. {
        let (seat, command) = match &replay {
            Some(stored) => match stored.get(index) {
                Some(step) => step.clone(),
                None => break,
            },
            None => {
                let Some(&seat) = G::pending(&core.state).first() else {
                    break;
                };
                if index == commands {
                    break;
                }
                let view = G::view(&core.state, Viewer::Seat(seat));
                let Some(command) = G::bot_command(&view, BotPolicy::Heuristic, &mut bots) else {
                    break;
                };
                let mut command = serde_json::to_value(command).unwrap();
                adjust(&mut command);
                (seat, command)
            }
        };
        let parsed: G::Command = serde_json::from_value(command.clone()).expect("a command");
        let submitted = core
            .submit(seat, &parsed)
            .unwrap_or_else(|reject| panic!("command {index} refused: {reject}"));
        push(
            &mut log,
            "command",
            json!({"seat": seat, "source": "bot", "command": command}),
        );
        for event in submitted.events {
            push(&mut log, "event", serde_json::to_value(event).unwrap());
        }
    }
    json!({
        "seed": seed.to_hex(),
        "options": options,
        "log": log,
        "words": core.dice.position() as u64,
    })
}

fn vectors(stored: Option<&Value>) -> Value {
    let stored_sequence = |game: &str| {
        stored
            .filter(|_| !updating())
            .map(|stored| &stored["games"][game]["sequence"])
    };
    let seed = |n: u64| Seed::from_u64(n);
    json!({
        "_doc": "Generated by `UPDATE_FAIRNESS=1 cargo test --test rules fairness_vectors::` and checked by that test against the server's code, and by `tools/verify_fairness.py --self-test` against an independent implementation. Layout: proto/fairness.md.",
        "streams": streams(),
        "games": {
            "ctg": {
                "constants": constants()["ctg"],
                "sequence": sequence::<Ctg>(json!({"format": "t10"}), seed(1), stored_sequence("ctg"), 40, |_| {}),
            },
            "wicketz": {
                "constants": constants()["wicketz"],
                "sequence": sequence::<Wicketz>(
                    json!({"overs": 2, "bowling_variations": true, "wild_card": true}),
                    seed(2),
                    stored_sequence("wicketz"),
                    16,
                    // The bots always bowl on the wicket; an off-side line adds the pre-spin.
                    |command| {
                        if command["type"] == "set_over" {
                            command["line"] = json!("off_side");
                        }
                    },
                ),
            },
            "champions": {
                "constants": constants()["champions"],
                "sequence": sequence::<Champions>(json!({"players": 3}), seed(3), stored_sequence("champions"), 6, |_| {}),
            },
        },
    })
}

fn hex_words(words: &Value) -> String {
    let words: Vec<String> = words
        .as_array()
        .unwrap()
        .iter()
        .map(|w| format!("{:08x}", w.as_u64().unwrap()))
        .collect();
    words
        .chunks(8)
        .map(|row| row.join(" "))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The vector section of proto/fairness.md, rendered from the JSON.
fn render(vectors: &Value) -> String {
    let mut out = String::new();
    for stream in vectors["streams"].as_array().unwrap() {
        out += &format!(
            "#### Stream `{}`\n\nSeed (hex) `{}`\n\nCommitment `sha256(seed)` = `{}`\n\nFirst words, in draw order (hex):\n\n```\n{}\n```\n\n",
            stream["name"].as_str().unwrap(),
            stream["seed"].as_str().unwrap(),
            stream["commitment"].as_str().unwrap(),
            hex_words(&stream["words"]),
        );
        let calls = stream["calls"].as_array().unwrap();
        if !calls.is_empty() {
            out += "Calls on a fresh stream of this seed, in this order:\n\n| call | result | words drawn so far |\n| --- | --- | --- |\n";
            for call in calls {
                let arg = match &call["arg"] {
                    Value::Array(items) => items.iter().map(Value::to_string).collect::<Vec<_>>().join(", "),
                    other => other.to_string(),
                };
                let arg = if call["op"] == "shuffle" {
                    format!("[0, 1, …, {}]", call["arg"].as_u64().unwrap() - 1)
                } else if call["op"] == "weighted" {
                    format!("[{arg}]")
                } else {
                    arg
                };
                out += &format!(
                    "| `{}({})` | `{}` | {} |\n",
                    call["op"].as_str().unwrap(),
                    arg,
                    call["result"],
                    call["words_after"]
                );
            }
            out += "\n";
        }
    }
    for (game, vector) in vectors["games"].as_object().unwrap() {
        let sequence = &vector["sequence"];
        out += &format!(
            "#### Game `{game}`\n\nConstants:\n\n```json\n{}\n```\n\n",
            vector["constants"]
        );
        out += &format!(
            "A real opening: seed (hex) `{}`, options `{}`. After these entries the stream has given {} words.\n\n```\n",
            sequence["seed"].as_str().unwrap(),
            sequence["options"],
            sequence["words"],
        );
        for entry in sequence["log"].as_array().unwrap() {
            out += &format!(
                "{} {} {}\n",
                entry["seq"],
                entry["kind"].as_str().unwrap(),
                entry["payload"]
            );
        }
        out += "```\n\n";
    }
    out
}

#[test]
fn vectors_match_the_dice_and_the_games() {
    let stored: Option<Value> = std::fs::read_to_string(VECTORS)
        .ok()
        .map(|text| serde_json::from_str(&text).expect("fairness-vectors.json is JSON"));
    let fresh = vectors(stored.as_ref());
    let spec = std::fs::read_to_string(SPEC).expect("proto/fairness.md exists");
    let (head, rest) = spec
        .split_once(BEGIN)
        .expect("proto/fairness.md has the begin marker");
    let (_, tail) = rest
        .split_once(END)
        .expect("proto/fairness.md has the end marker");
    let rendered = format!("{head}{BEGIN}{}{END}{tail}", render(&fresh));
    if updating() {
        std::fs::write(VECTORS, serde_json::to_string_pretty(&fresh).unwrap() + "\n").unwrap();
        std::fs::write(SPEC, rendered).unwrap();
        return;
    }
    let stored = stored.expect("proto/fairness-vectors.json exists (UPDATE_FAIRNESS=1 writes it)");
    for key in ["streams", "games"] {
        assert!(
            stored[key] == fresh[key],
            "proto/fairness-vectors.json `{key}` differs from what the code produces; if the change is intended, regenerate with UPDATE_FAIRNESS=1 and say so in the changelog: it breaks every verifier"
        );
    }
    assert!(
        spec == rendered,
        "proto/fairness.md's vector section is stale: UPDATE_FAIRNESS=1"
    );
}

#[test]
fn the_vectors_exercise_rejection_and_every_game_draws() {
    if updating() {
        return; // the other test is rewriting the file; the next plain run checks it
    }
    let stored: Value = serde_json::from_str(&std::fs::read_to_string(VECTORS).unwrap()).unwrap();
    // A `below` that used more than one word is a rejected draw: the part most easily got
    // wrong by a re-implementation, so the vectors must contain one.
    let calls = stored["streams"][1]["calls"].as_array().unwrap();
    let mut before = 0;
    let mut rejected = false;
    for call in calls {
        let after = call["words_after"].as_u64().unwrap();
        rejected |= call["op"] == "below" && after - before > 1;
        before = after;
    }
    assert!(rejected, "no rejected word in the fixed stream's calls");
    for game in ["ctg", "wicketz", "champions"] {
        let words = stored["games"][game]["sequence"]["words"].as_u64().unwrap();
        assert!(words > 20, "{game}'s sequence draws only {words} words");
    }
    let kinds: Vec<&Value> = stored["games"]["wicketz"]["sequence"]["log"]
        .as_array()
        .unwrap()
        .iter()
        .map(|entry| &entry["payload"]["type"])
        .collect();
    assert!(
        kinds.contains(&&json!("line_spun")),
        "the Wicketz sequence has no line pre-spin"
    );
    // RFC 8439 A.1 test vector 1 keystream starts 76 b8 e0 ad a0 f1 3d 90.
    assert_eq!(stored["streams"][0]["words"][0], json!(0xade0b876u32));
    assert_eq!(stored["streams"][0]["words"][1], json!(0x903df1a0u32));
}
