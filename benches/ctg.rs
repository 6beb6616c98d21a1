//! One CTG ball, from the field to the ball's end, with random-policy bots on the state.

use crease::rules::ctg::event::Event;
use crease::rules::ctg::state::{Phase, State};
use crease::rules::ctg::{Ctg, Options, bot, engine, view};
use crease::rules::{BotPolicy, Dice, Game, Seat, Seed};
use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;

fn step(state: &mut State, dice: &mut Dice, bots: &mut Dice, out: &mut Vec<Event>) {
    let seat = Seat(state.pending_mask().trailing_zeros() as u8);
    let ask = view::ask(state, seat).expect("asked");
    let situation = view::situation(state, seat);
    let command = bot::choose(&ask, &situation, BotPolicy::Random, bots);
    engine::execute(state, seat, &command, dice, out).expect("bot commands are legal");
}

fn one_ball(c: &mut Criterion) {
    let mut state = Ctg::initial_state(&Options::t20()).expect("options");
    let mut out = Vec::new();
    engine::start(&mut state, &mut out);
    let mut dice = Dice::new(&Seed::from_u64(1));
    let mut bots = Dice::new(&Seed::from_u64(2));
    while !(state.phase == Phase::SetField && state.over == 3) {
        step(&mut state, &mut dice, &mut bots, &mut out);
    }
    c.bench_function("ctg_one_ball_random", |b| {
        b.iter(|| {
            let mut s = state.clone();
            out.clear();
            loop {
                step(&mut s, &mut dice, &mut bots, &mut out);
                if out.iter().any(|e| matches!(e, Event::BallEnded { .. })) {
                    break;
                }
            }
            black_box(&s);
        })
    });
}

criterion_group!(benches, one_ball);
criterion_main!(benches);
