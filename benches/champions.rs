//! One Cricket Champions over through `MatchCore::submit` (each command decided on one copy,
//! its events folded once) (three batting rolls, two bowling
//! rolls, both stops), and the pure resolution alone.

use crease::rules::champions::data::ruleset;
use crease::rules::champions::resolve::{BattingSide, BowlingSide, RoleMods, resolve_over};
use crease::rules::champions::{Champions, Command, Face, Options};
use crease::rules::{MatchCore, Seed};
use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;

fn one_over(c: &mut Criterion) {
    let mut core = MatchCore::<Champions>::new(&Options { players: 4 }, &Seed::from_u64(1)).expect("options");
    core.start();
    let over = core.state.over().cloned().expect("an over");
    let bowler = over.bowler.expect("bowler");
    let script = [
        (over.batsman, Command::Roll { dice: vec![] }),
        (over.batsman, Command::Roll { dice: vec![0, 2, 4] }),
        (over.batsman, Command::Roll { dice: vec![1, 3] }),
        (over.batsman, Command::Stop { powers: vec![] }),
        (bowler, Command::Roll { dice: vec![] }),
        (bowler, Command::Roll { dice: vec![5] }),
        (bowler, Command::Stop { powers: vec![] }),
    ];
    c.bench_function("champions_one_over", |b| {
        b.iter(|| {
            let mut over = core.clone();
            for (seat, command) in &script {
                over.submit(*seat, command).expect("legal");
            }
            black_box(over)
        })
    });
    let mods = RoleMods::default();
    let bat = [
        Face::One,
        Face::Two,
        Face::Four,
        Face::Two,
        Face::Defence,
        Face::Two,
    ];
    let bowl = [
        Face::Wicket,
        Face::Wide,
        Face::Xp,
        Face::Save,
        Face::Wicket,
        Face::Dot,
    ];
    c.bench_function("champions_resolve_over", |b| {
        b.iter(|| {
            let side = BattingSide {
                faces: black_box(&bat),
                mods: &mods,
                bought_defence: 0,
                wickets_left: 10,
            };
            resolve_over(
                ruleset(),
                &side,
                Some(&BowlingSide {
                    faces: black_box(&bowl),
                    mods: &mods,
                }),
            )
        })
    });
}

criterion_group!(benches, one_over);
criterion_main!(benches);
