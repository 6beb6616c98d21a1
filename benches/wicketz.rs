//! One Wicketz ball: `decide` for a stroke (deal, read, catch spins, next delivery) plus the
//! fold of its events, from a mid-innings state, as the match runs it ([`MatchCore::decide`]:
//! one copy of the state, each event folded once).

use crease::rules::wicketz::Wicketz;
use crease::rules::wicketz::state::Phase;
use crease::rules::{BotPolicy, Dice, Game, MatchCore, Seed, Viewer};
use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;

/// A match played by bots until the batting side is asked for a stroke in the third over.
fn mid_innings() -> MatchCore<Wicketz> {
    let mut core =
        MatchCore::<Wicketz>::new(&Default::default(), &Seed::from_u64(7)).expect("default options");
    core.start();
    let mut bot_dice = Dice::new(&Seed::from_u64(8));
    while !(core.state.phase == Phase::AwaitStroke
        && core.state.current().is_some_and(|i| i.legal_balls > 12))
    {
        let seat = Wicketz::pending(&core.state)[0];
        let view = Wicketz::view(&core.state, Viewer::Seat(seat));
        let command = Wicketz::bot_command(&view, BotPolicy::Heuristic, &mut bot_dice).expect("asked");
        core.submit(seat, &command).expect("bots play legal commands");
    }
    core
}

fn one_ball(c: &mut Criterion) {
    let core = mid_innings();
    let seat = Wicketz::pending(&core.state)[0];
    let command = Wicketz::default_command(&core.state, seat).expect("a stroke is asked");
    c.bench_function("wicketz_one_ball_decide_and_apply", |b| {
        b.iter(|| black_box(core.decide(seat, &command).expect("legal")))
    });
    c.bench_function("wicketz_view_for_the_batter", |b| {
        b.iter(|| black_box(Wicketz::view(&core.state, Viewer::Seat(seat))))
    });
}

criterion_group!(benches, one_ball);
criterion_main!(benches);
