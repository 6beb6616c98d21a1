//! What a live match's `/log` (or a resume from beyond the recent past) costs the actor: the
//! old read replayed the stored log through the engine (`fairness::replay`, every command
//! re-decided and every die re-rolled) and redacted each event; the new one folds the stored
//! events with `Game::apply` (`matches::recent::from_log`). Over one whole CTG T10 match
//! (random-policy bots), for the spectator. Prints both times per read and their ratio,
//! measured in the same run.

use crease::fairness;
use crease::matches::recent;
use crease::record::LogEntry;
use crease::rules::ctg::{Ctg, Options};
use crease::rules::{BotPolicy, Game, Seed, Viewer};
use criterion::{Criterion, criterion_group, criterion_main};
use serde_json::Value;
use std::hint::black_box;
use std::time::{Duration, Instant};

/// One whole T10 match's log as its actor writes it, random-policy bots drawing from seed 2.
fn match_log(options: &Options, seed: &Seed) -> Vec<LogEntry> {
    fairness::bot_log::<Ctg>(options, seed, &Seed::from_u64(2), BotPolicy::Random, usize::MAX)
}

/// The old read: replay through the engine, redacting each verified event.
fn replayed(options: &Options, seed: &Seed, log: &[LogEntry]) -> usize {
    let mut visible = Vec::new();
    fairness::replay::<Ctg>(options, seed, log, |state, seq, event| {
        visible.extend(Ctg::redact(state, event, Viewer::Spectator).map(|event| (seq, event)));
    })
    .expect("the log replays");
    visible.len()
}

/// The new read: fold the stored events.
fn folded(options: &Options, log: &[LogEntry]) -> usize {
    let initial = Ctg::initial_state(options).expect("options");
    let history = recent::from_log::<Ctg>(initial, log, Viewer::Spectator, 0).expect("folds");
    black_box::<&Value>(&history.view);
    history.events.len()
}

fn per_read(read: impl Fn() -> usize) -> Duration {
    let rounds = 50;
    let started = Instant::now();
    for _ in 0..rounds {
        black_box(read());
    }
    started.elapsed() / rounds
}

fn history(c: &mut Criterion) {
    let (options, seed) = (Options::default(), Seed::from_u64(1));
    let log = match_log(&options, &seed);
    assert_eq!(replayed(&options, &seed, &log), folded(&options, &log));
    let old = per_read(|| replayed(&options, &seed, &log));
    let new = per_read(|| folded(&options, &log));
    println!(
        "{} log entries: replay {:.1} us per read, fold {:.1} us per read ({:.2}x)",
        log.len(),
        old.as_secs_f64() * 1e6,
        new.as_secs_f64() * 1e6,
        new.as_secs_f64() / old.as_secs_f64(),
    );
    let mut group = c.benchmark_group("ctg_t10_live_log");
    group.bench_function("replay_through_engine", |b| {
        b.iter(|| replayed(&options, &seed, black_box(&log)))
    });
    group.bench_function("fold_stored_events", |b| {
        b.iter(|| folded(&options, black_box(&log)))
    });
    group.finish();
}

criterion_group!(benches, history);
criterion_main!(benches);
