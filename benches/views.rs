//! What a viewer's socket costs the actor per state change, by protocol: protocol 1 encodes
//! the full view into an `update`; protocol 2 diffs it against the held view into a `step`'s
//! merge patch. Over the home seat's views of a whole CTG T10 match (random-policy bots), one
//! view per decision, as the actor renders them. Prints the bytes each protocol sends and the
//! time ratio of the two, measured in the same run.

use crease::protocol::Frame;
use crease::protocol::delta::HeldView;
use crease::rules::ctg::event::Event;
use crease::rules::ctg::view::View;
use crease::rules::ctg::{Ctg, Options, bot, engine, view};
use crease::rules::{BotPolicy, Dice, Game, Seat, Seed, Viewer};
use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use std::time::{Duration, Instant};

/// The home seat's view after every decision of one whole T10 match (the default format).
fn match_views() -> Vec<View> {
    let mut state = Ctg::initial_state(&Options::default()).expect("options");
    let mut out: Vec<Event> = Vec::new();
    engine::start(&mut state, &mut out);
    let mut dice = Dice::new(&Seed::from_u64(1));
    let mut bots = Dice::new(&Seed::from_u64(2));
    let mut views = vec![Ctg::view(&state, Viewer::Seat(Seat(0)))];
    while Ctg::outcome(&state).is_none() {
        let seat = Seat(state.pending_mask().trailing_zeros() as u8);
        let ask = view::ask(&state, seat).expect("asked");
        let situation = view::situation(&state, seat);
        let command = bot::choose(&ask, &situation, BotPolicy::Random, &mut bots);
        engine::execute(&mut state, seat, &command, &mut dice, &mut out).expect("bot commands are legal");
        views.push(Ctg::view(&state, Viewer::Seat(Seat(0))));
    }
    views
}

fn protocol_1(views: &[View]) -> usize {
    let pending = [Seat(0)];
    views
        .iter()
        .enumerate()
        .map(|(seq, view)| {
            Frame::update(seq as i64, view, &pending, Some(59_000), None)
                .as_str()
                .len()
        })
        .sum()
}

fn protocol_2(views: &[View]) -> usize {
    let pending = [Seat(0)];
    let mut held = HeldView::new(&views[0]).expect("a view");
    views[1..]
        .iter()
        .enumerate()
        .map(|(seq, view)| {
            let patch = held.advance(view).expect("a patch");
            Frame::step(seq as i64, &[], &patch, &pending, Some(59_000), None)
                .as_str()
                .len()
        })
        .sum()
}

fn per_view(views: &[View], encode: fn(&[View]) -> usize) -> Duration {
    let rounds = 20;
    let started = Instant::now();
    for _ in 0..rounds {
        black_box(encode(black_box(views)));
    }
    started.elapsed() / (rounds * views.len() as u32)
}

fn views(c: &mut Criterion) {
    let views = match_views();
    let (full, patched) = (protocol_1(&views), protocol_2(&views));
    let (v1, v2) = (per_view(&views, protocol_1), per_view(&views, protocol_2));
    println!(
        "{} views: protocol 1 {} bytes per view, protocol 2 {} bytes per view ({:.2}x); \
         time per view {:.1} us vs {:.1} us ({:.2}x)",
        views.len(),
        full / views.len(),
        patched / views.len(),
        patched as f64 / full as f64,
        v1.as_secs_f64() * 1e6,
        v2.as_secs_f64() * 1e6,
        v2.as_secs_f64() / v1.as_secs_f64(),
    );
    let mut group = c.benchmark_group("ctg_t10_views");
    group.bench_function("protocol_1_updates", |b| b.iter(|| protocol_1(black_box(&views))));
    group.bench_function("protocol_2_steps", |b| b.iter(|| protocol_2(black_box(&views))));
    group.finish();
}

criterion_group!(benches, views);
criterion_main!(benches);
