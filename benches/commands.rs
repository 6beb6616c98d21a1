//! What one accepted command costs the engine, per game: a whole seeded bot match (heuristic
//! bots) replayed command by command. The commands are chosen once, before timing, so the
//! figures are the rules' `decide`, the fold of its events and the copies around them, not
//! the bots'.
//!
//! * `<game>_submit`: [`MatchCore::submit`], the path of the simulator, the arena and the
//!   fairness replay.
//! * `<game>_actor_path`: what the match actor does per command: decide without touching
//!   the live match (it must not change before the journal commits), then adopt the result.
//!
//! Criterion's time is per match; its throughput line is commands per second (the inverse is
//! the time per command). Each group also prints how many commands its match has.

use crease::rules::champions::{self, Champions};
use crease::rules::ctg::{self, Ctg};
use crease::rules::wicketz::{self, Wicketz};
use crease::rules::{BotPolicy, Dice, Game, MatchCore, Seat, Seed, Viewer};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;
use std::time::Duration;

/// A started match and the commands its bots played to the end.
struct Recorded<G: Game> {
    started: MatchCore<G>,
    commands: Vec<(Seat, G::Command)>,
}

fn record<G: Game>(options: &G::Options, seed: u64) -> Recorded<G> {
    let mut core = MatchCore::<G>::new(options, &Seed::from_u64(seed)).expect("options");
    core.start();
    let started = core.clone();
    let mut bots = Dice::new(&Seed::from_u64(seed + 1));
    let mut commands = Vec::new();
    while G::outcome(&core.state).is_none() {
        let Some(&seat) = G::pending(&core.state).first() else {
            break;
        };
        let view = G::view(&core.state, Viewer::Seat(seat));
        let command = G::bot_command(&view, BotPolicy::Heuristic, &mut bots).expect("a bot move");
        core.submit(seat, &command).expect("bots play legal commands");
        commands.push((seat, command));
    }
    Recorded { started, commands }
}

/// The actor's step: decide without touching the match, adopt the result once committed.
/// (Until the single emitter, this was a copy of the match and `submit_observed` on it.)
fn actor_step<G: Game>(core: &mut MatchCore<G>, seat: Seat, command: &G::Command) -> usize {
    let accepted = core
        .decide_observed(seat, command, |state, event| {
            black_box((state, event));
        })
        .expect("legal");
    *core = accepted.next;
    accepted.submitted.events.len()
}

fn bench_game<G: Game>(c: &mut Criterion, name: &str, recorded: &Recorded<G>) {
    let count = recorded.commands.len() as u64;
    let mut group = c.benchmark_group(name);
    group.throughput(Throughput::Elements(count));
    group.sample_size(20);
    group.measurement_time(Duration::from_secs(4));
    group.bench_function("submit", |b| {
        b.iter(|| {
            let mut core = recorded.started.clone();
            for (seat, command) in &recorded.commands {
                black_box(core.submit(*seat, command).expect("legal"));
            }
            core
        })
    });
    group.bench_function("actor_path", |b| {
        b.iter(|| {
            let mut core = recorded.started.clone();
            let mut events = 0;
            for (seat, command) in &recorded.commands {
                events += actor_step(&mut core, *seat, command);
            }
            black_box(events)
        })
    });
    group.finish();
    println!("{name}: {count} commands per match");
}

fn commands(c: &mut Criterion) {
    let ctg = record::<Ctg>(&ctg::Options::default(), 11);
    let wicketz = record::<Wicketz>(&wicketz::Options::default(), 12);
    let champions = record::<Champions>(&champions::Options { players: 4 }, 13);
    bench_game(c, "ctg", &ctg);
    bench_game(c, "wicketz", &wicketz);
    bench_game(c, "champions", &champions);
}

criterion_group!(benches, commands);
criterion_main!(benches);
