//! The heuristic bot beats the random bot in simulation, and neither ever sends a command
//! the engine refuses.

use crease::cli::simulate::champions::simulate;
use crease::rules::BotPolicy::{Heuristic, Random};

#[test]
fn heuristic_beats_random_head_to_head() {
    let stats = simulate(2, 200, 1_000, &[Heuristic, Random], || {}).expect("simulation");
    assert_eq!(stats.refused_bot_commands, 0);
    assert!(
        stats.winner_seat_pct[0] > 75.0,
        "heuristic won only {:.1}%",
        stats.winner_seat_pct[0]
    );
    assert!(stats.points_per_seat[0] > stats.points_per_seat[1]);
}

#[test]
fn one_heuristic_bot_beats_three_random_bots() {
    let stats = simulate(4, 100, 2_000, &[Random, Random, Heuristic, Random], || {}).expect("simulation");
    assert_eq!(stats.refused_bot_commands, 0);
    assert!(
        stats.winner_seat_pct[2] > 50.0,
        "heuristic won only {:.1}%",
        stats.winner_seat_pct[2]
    );
}

#[test]
fn win_shares_add_up_and_seats_are_fair_among_equals() {
    let stats = simulate(5, 100, 3_000, &[Heuristic; 5], || {}).expect("simulation");
    let total: f64 = stats.winner_seat_pct.iter().sum();
    assert!((total - 100.0).abs() < 1e-6, "win shares sum to {total}");
    assert!(
        stats.winner_seat_pct.iter().all(|p| *p < 45.0),
        "{:?}",
        stats.winner_seat_pct
    );
}
