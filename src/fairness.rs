//! Fairness: where seeds and tokens come from, and how a finished log is checked.
//!
//! A match's seed is 32 bytes from the OS RNG. Only `sha256(seed)` is public while the match
//! runs; the seed is revealed when it ends. Because every die is drawn from the seed's
//! stream by `Game::decide`, and the log holds every command that reached the engine, anyone
//! with the seed and the log can re-run the match through [`MatchCore`] and must get exactly
//! the logged events: [`replay`] is that check, and recovery after a restart uses the same
//! code path, so a log that would not verify is also one the server refuses to resume.

use crate::record::{
    AbandonRecord, AdjournmentRecord, CommandRecord, CommandSource, EntryKind, ForfeitRecord, LogEntry,
};
use crate::rules::{BotPolicy, Dice, Game, MatchCore, Outcome, Seat, Seed, Viewer};
use rand::Rng;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

/// A fresh match seed from the operating system's generator (via rand's thread RNG, which is
/// a ChaCha CSPRNG reseeded from the OS).
pub fn new_seed() -> Seed {
    let mut bytes = [0u8; 32];
    rand::rng().fill_bytes(&mut bytes);
    Seed(bytes)
}

/// A fresh bearer token: 32 random bytes, hex. Shown to its player once, then only hashed.
pub fn new_token() -> String {
    let mut bytes = [0u8; 32];
    rand::rng().fill_bytes(&mut bytes);
    hex::encode(bytes)
}

/// What the database keeps of a token.
pub fn token_hash(token: &str) -> String {
    hex::encode(Sha256::digest(token.as_bytes()))
}

/// The outcome of a match someone forfeited: every other seat shares first place.
pub fn forfeit_outcome(seat_count: usize, loser: Seat, reason: &str) -> Outcome {
    let placings = (0..seat_count)
        .map(|index| if index == loser.index() { 2 } else { 1 })
        .collect();
    Outcome {
        placings,
        summary: format!("Seat {} forfeited ({reason})", loser.0),
    }
}

/// The outcome of a match an operator abandoned: every seat shares the one place, so
/// nobody won or lost; it is never rated ([`Ending::is_rated`]).
pub fn abandon_outcome(seat_count: usize, record: &AbandonRecord) -> Outcome {
    let summary = if record.by == AbandonRecord::SERVER {
        format!("No result: abandoned ({})", record.reason)
    } else {
        format!("No result: abandoned by an operator ({})", record.reason)
    };
    Outcome {
        placings: vec![1; seat_count],
        summary,
    }
}

/// How a match ended without the engine deciding it: the log's last entry.
#[derive(Clone, Debug, PartialEq)]
pub enum Ending {
    Forfeit(ForfeitRecord),
    Abandon(AbandonRecord),
}

impl Ending {
    pub fn outcome(&self, seat_count: usize) -> Outcome {
        match self {
            Ending::Forfeit(record) => forfeit_outcome(seat_count, record.seat, &record.reason),
            Ending::Abandon(record) => abandon_outcome(seat_count, record),
        }
    }

    /// Whether the result moves ratings: a forfeit is a loss; an abandonment is no result.
    pub fn is_rated(&self) -> bool {
        matches!(self, Ending::Forfeit(_))
    }
}

/// The first place where a log and a re-run of its commands disagree.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema, thiserror::Error)]
#[error("log diverges at seq {seq}: {reason}")]
pub struct Mismatch {
    pub seq: i64,
    pub reason: String,
}

/// `verify`'s answer.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(tag = "status", rename_all = "snake_case")]
pub enum VerifyReport {
    /// Every logged event is exactly what the seed and the logged commands produce.
    Ok {
        commands: usize,
        events: usize,
        seed: String,
    },
    Mismatch {
        seq: i64,
        reason: String,
    },
    /// The match is not over, so its seed is still secret and cannot be checked publicly.
    NotFinished,
}

/// A log replayed from its seed: the rebuilt match, plus what the log says happened besides
/// the engine.
pub struct Replayed<G: Game> {
    pub core: MatchCore<G>,
    pub commands: usize,
    pub events: usize,
    /// A forfeit or an abandonment that ended the match, if one did.
    pub ending: Option<Ending>,
    pub last_seq: i64,
}

/// The other direction of [`replay`]: a match between `policy` bots on every seat, logged as
/// its actor logs it (the start's events, then each command's entry followed by its events,
/// numbered from 1), for benches and tests of the reads. The bots draw from `bots`, apart
/// from the match's dice. Stops at the match's end or once `max_entries` entries are logged.
/// Panics if a bot has no command or is refused one: only a broken game does that.
pub fn bot_log<G: Game>(
    options: &G::Options,
    seed: &Seed,
    bots: &Seed,
    policy: BotPolicy,
    max_entries: usize,
) -> Vec<LogEntry> {
    fn push(log: &mut Vec<LogEntry>, kind: EntryKind, payload: serde_json::Value) {
        let seq = log.len() as i64 + 1;
        log.push(LogEntry {
            seq,
            at: chrono::Utc::now(),
            kind,
            payload,
        });
    }
    let mut core = MatchCore::<G>::new(options, seed).expect("options");
    let mut dice = Dice::new(bots);
    let mut log = Vec::new();
    for event in core.start() {
        push(
            &mut log,
            EntryKind::Event,
            serde_json::to_value(event).expect("an event"),
        );
    }
    while log.len() < max_entries && G::outcome(&core.state).is_none() {
        let seat = *G::pending(&core.state).first().expect("a seat is asked");
        let view = G::view(&core.state, Viewer::Seat(seat));
        let command = G::bot_command(&view, policy, &mut dice).expect("a bot command");
        let submitted = core.submit(seat, &command).expect("bot commands are legal");
        let record = CommandRecord {
            seat,
            source: CommandSource::Bot,
            command: serde_json::to_value(command).expect("a command"),
        };
        push(
            &mut log,
            EntryKind::Command,
            serde_json::to_value(record).expect("a record"),
        );
        for event in submitted.events {
            push(
                &mut log,
                EntryKind::Event,
                serde_json::to_value(event).expect("an event"),
            );
        }
    }
    log
}

/// Re-runs `log` from `seed`: the start, then every logged command through
/// [`MatchCore::submit`], comparing each produced event with the logged one. `on_event` sees
/// every verified event with the state right after it, which is what `Game::redact` needs.
pub fn replay<G: Game>(
    options: &G::Options,
    seed: &Seed,
    log: &[LogEntry],
    mut on_event: impl FnMut(&G::State, i64, &G::Event),
) -> Result<Replayed<G>, Mismatch> {
    crate::telemetry::record_log_replay(G::ID);
    let mismatch = |seq: i64, reason: String| Mismatch { seq, reason };
    let mut core = MatchCore::<G>::new(options, seed).map_err(|error| mismatch(0, error.to_string()))?;
    let mut shadow = core.state.clone();
    let mut expected: std::collections::VecDeque<G::Event> = core.start().into();
    let mut replayed = Replayed {
        core: core.clone(),
        commands: 0,
        events: 0,
        ending: None,
        last_seq: 0,
    };
    let mut last_seq = 0;
    for entry in log {
        if entry.seq != last_seq + 1 {
            return Err(mismatch(entry.seq, format!("expected seq {}", last_seq + 1)));
        }
        last_seq = entry.seq;
        if replayed.ending.is_some() {
            return Err(mismatch(entry.seq, "entry after the match ended".into()));
        }
        match entry.kind {
            EntryKind::Event => {
                let Some(produced) = expected.pop_front() else {
                    return Err(mismatch(entry.seq, "event that no command produced".into()));
                };
                let logged: G::Event = serde_json::from_value(entry.payload.clone())
                    .map_err(|error| mismatch(entry.seq, format!("unreadable event: {error}")))?;
                if logged != produced {
                    let produced = serde_json::to_string(&produced).unwrap_or_default();
                    return Err(mismatch(
                        entry.seq,
                        format!("the seed and commands produce {produced}"),
                    ));
                }
                G::apply(&mut shadow, &logged);
                on_event(&shadow, entry.seq, &logged);
                replayed.events += 1;
            }
            EntryKind::Command => {
                if !expected.is_empty() {
                    return Err(mismatch(
                        entry.seq,
                        format!("{} produced events are missing", expected.len()),
                    ));
                }
                let record: CommandRecord = serde_json::from_value(entry.payload.clone())
                    .map_err(|error| mismatch(entry.seq, format!("unreadable command entry: {error}")))?;
                let command: G::Command = serde_json::from_value(record.command)
                    .map_err(|error| mismatch(entry.seq, format!("unreadable command: {error}")))?;
                let submitted = core
                    .submit(record.seat, &command)
                    .map_err(|reject| mismatch(entry.seq, format!("the engine refuses it: {reject}")))?;
                expected = submitted.events.into();
                replayed.commands += 1;
            }
            EntryKind::Forfeit => {
                let record: ForfeitRecord = serde_json::from_value(entry.payload.clone())
                    .map_err(|error| mismatch(entry.seq, format!("unreadable forfeit: {error}")))?;
                replayed.ending = Some(Ending::Forfeit(record));
            }
            EntryKind::Abandon => {
                let record: AbandonRecord = serde_json::from_value(entry.payload.clone())
                    .map_err(|error| mismatch(entry.seq, format!("unreadable abandonment: {error}")))?;
                replayed.ending = Some(Ending::Abandon(record));
            }
            // Adjourning changes the clocks, never the game: it is checked for its place
            // (never inside a command's events) and its shape, and otherwise passed over.
            EntryKind::Adjournment => {
                if !expected.is_empty() {
                    return Err(mismatch(
                        entry.seq,
                        format!("{} produced events are missing", expected.len()),
                    ));
                }
                serde_json::from_value::<AdjournmentRecord>(entry.payload.clone())
                    .map_err(|error| mismatch(entry.seq, format!("unreadable adjournment: {error}")))?;
            }
        }
    }
    if !expected.is_empty() {
        return Err(mismatch(
            last_seq + 1,
            format!("{} produced events are missing", expected.len()),
        ));
    }
    replayed.core = core;
    replayed.last_seq = last_seq;
    Ok(replayed)
}

/// Checks a finished match: the seed matches its commitment, and the log replays exactly.
pub fn verify<G: Game>(
    options: &G::Options,
    seed_hex: &str,
    commitment: &str,
    log: &[LogEntry],
) -> VerifyReport {
    let Some(seed) = Seed::from_hex(seed_hex) else {
        return VerifyReport::Mismatch {
            seq: 0,
            reason: "the stored seed is not 32 hex bytes".into(),
        };
    };
    if seed.commitment() != commitment {
        return VerifyReport::Mismatch {
            seq: 0,
            reason: "sha256(seed) differs from the published commitment".into(),
        };
    }
    match replay::<G>(options, &seed, log, |_, _, _| {}) {
        Ok(replayed) => VerifyReport::Ok {
            commands: replayed.commands,
            events: replayed.events,
            seed: seed.to_hex(),
        },
        Err(Mismatch { seq, reason }) => VerifyReport::Mismatch { seq, reason },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_random_and_only_their_hash_is_kept() {
        let (a, b) = (new_token(), new_token());
        assert_ne!(a, b);
        assert_eq!(a.len(), 64);
        assert_eq!(token_hash(&a), token_hash(&a));
        assert_ne!(token_hash(&a), a);
    }

    #[test]
    fn seeds_differ_and_commit_to_themselves() {
        let (a, b) = (new_seed(), new_seed());
        assert_ne!(a, b);
        assert_eq!(
            Seed::from_hex(&a.to_hex()).map(|s| s.commitment()),
            Some(a.commitment())
        );
    }

    #[test]
    fn a_forfeit_puts_the_loser_last() {
        let outcome = forfeit_outcome(2, Seat(1), "left");
        assert_eq!(outcome.winners(), vec![Seat(0)]);
    }

    #[test]
    fn an_abandonment_places_everyone_equal_and_is_unrated() {
        let ending = Ending::Abandon(AbandonRecord {
            reason: "stuck".into(),
            by: "admin".into(),
        });
        let outcome = ending.outcome(3);
        assert_eq!(outcome.placings, vec![1, 1, 1]);
        assert!(outcome.summary.contains("stuck"), "{}", outcome.summary);
        assert!(!ending.is_rated());
        let forfeit = Ending::Forfeit(ForfeitRecord {
            seat: Seat(0),
            reason: "left".into(),
        });
        assert!(forfeit.is_rated());
    }
}
