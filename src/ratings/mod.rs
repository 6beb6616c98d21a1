//! Glicko-2 skill ratings, one per player, game and rating pool.
//!
//! The pool (the ratings' `format` column) is the game's own: `GameExtras::rating_pool` of
//! the match's options (a CTG T10 and a T20 are rated apart), worked out by the match's
//! actor and handed to the store with the result.
//!
//! The arithmetic is the maintained `skillratings` crate (Glickman's Glicko-2); this module
//! decides *what* is rated and *against whom*:
//!
//! * a match is rated only when every seat is a distinct human player (bot matches are not),
//!   and only once it has a result (a match cancelled before it started never has one);
//! * a forfeit is already a result whose forfeiting seat placed last, so it counts as a loss;
//! * a multi-seat result (Champions) is read pairwise from `Outcome.placings`: each player
//!   beat everyone placed below, lost to everyone above and drew with equals, and all of
//!   those games form one rating period measured against the opponents' ratings *before*
//!   the match (so the order seats are processed in does not matter).
//!
//! `store/ratings.rs` writes the update in the same transaction that finishes the match.

use skillratings::Outcomes;
use skillratings::glicko2::{Glicko2Config, Glicko2Rating, glicko2_rating_period};

/// A player's Glicko-2 triple (rating, deviation, volatility).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rating {
    pub rating: f64,
    pub deviation: f64,
    pub volatility: f64,
}

impl Default for Rating {
    /// Glickman's starting values: 1500, RD 350, volatility 0.06.
    fn default() -> Self {
        Rating::from(Glicko2Rating::new())
    }
}

impl From<Glicko2Rating> for Rating {
    fn from(value: Glicko2Rating) -> Self {
        Rating {
            rating: value.rating,
            deviation: value.deviation,
            volatility: value.volatility,
        }
    }
}

impl From<Rating> for Glicko2Rating {
    fn from(value: Rating) -> Self {
        Glicko2Rating {
            rating: value.rating,
            deviation: value.deviation,
            volatility: value.volatility,
        }
    }
}

/// One seat of a finished match as the rating update sees it.
#[derive(Clone, Debug, PartialEq)]
pub struct RatedSeat {
    pub seat: i32,
    pub player_id: Option<String>,
    pub bot: bool,
}

/// Whether a finished match changes ratings: every seat a human, no player twice, at least
/// two seats, and one placing per seat.
pub fn is_rated(seats: &[RatedSeat], placings: &[u8]) -> bool {
    let humans: Vec<&str> = seats
        .iter()
        .filter(|seat| !seat.bot)
        .filter_map(|seat| seat.player_id.as_deref())
        .collect();
    let mut distinct = humans.clone();
    distinct.sort_unstable();
    distinct.dedup();
    seats.len() >= 2
        && humans.len() == seats.len()
        && distinct.len() == humans.len()
        && placings.len() == seats.len()
}

/// The new rating of every seat after one match, from the ratings before it and the
/// placings (1 is best; equal placings drew).
pub fn update(before: &[Rating], placings: &[u8]) -> Vec<Rating> {
    let config = Glicko2Config::new();
    before
        .iter()
        .enumerate()
        .map(|(me, mine)| {
            let games: Vec<(Glicko2Rating, Outcomes)> = before
                .iter()
                .enumerate()
                .filter(|(other, _)| *other != me)
                .map(|(other, theirs)| {
                    let outcome = match placings[me].cmp(&placings[other]) {
                        std::cmp::Ordering::Less => Outcomes::WIN,
                        std::cmp::Ordering::Greater => Outcomes::LOSS,
                        std::cmp::Ordering::Equal => Outcomes::DRAW,
                    };
                    (Glicko2Rating::from(*theirs), outcome)
                })
                .collect();
            Rating::from(glicko2_rating_period(&(*mine).into(), &games, &config))
        })
        .collect()
}

/// Whether a placing beat at least one other seat (a shared first place on a tie is not a win).
pub fn is_win(placings: &[u8], seat: usize) -> bool {
    placings[seat] == 1 && placings.iter().any(|place| *place > 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Glickman, "Example of the Glicko-2 system" (2013), section "An example": a 1500/200
    /// player beats 1400/30, loses to 1550/100 and 1700/300 in one period and ends at
    /// r' = 1464.06, RD' = 151.52, sigma' = 0.05999.
    #[test]
    fn glickman_paper_worked_example() {
        let player = Rating {
            rating: 1500.0,
            deviation: 200.0,
            volatility: 0.06,
        };
        let opponent = |rating, deviation| Glicko2Rating {
            rating,
            deviation,
            volatility: 0.06,
        };
        let games = [
            (opponent(1400.0, 30.0), Outcomes::WIN),
            (opponent(1550.0, 100.0), Outcomes::LOSS),
            (opponent(1700.0, 300.0), Outcomes::LOSS),
        ];
        // tau = 0.5 as in the paper.
        let after = glicko2_rating_period(&player.into(), &games, &Glicko2Config::new());
        assert!((after.rating - 1464.06).abs() < 0.01, "{}", after.rating);
        assert!((after.deviation - 151.52).abs() < 0.01, "{}", after.deviation);
        assert!(
            (after.volatility - 0.05999).abs() < 0.00001,
            "{}",
            after.volatility
        );
    }

    #[test]
    fn a_two_seat_win_moves_the_ratings_apart_symmetrically() {
        let after = update(&[Rating::default(), Rating::default()], &[1, 2]);
        assert!(after[0].rating > 1500.0 && after[1].rating < 1500.0);
        assert!(((after[0].rating - 1500.0) + (after[1].rating - 1500.0)).abs() < 1e-9);
        assert!(after[0].deviation < 350.0);
    }

    #[test]
    fn a_draw_between_equals_keeps_the_rating() {
        let after = update(&[Rating::default(), Rating::default()], &[1, 1]);
        assert!((after[0].rating - 1500.0).abs() < 1e-9);
    }

    #[test]
    fn multi_seat_placings_are_pairwise_and_ordered() {
        let after = update(&[Rating::default(); 4], &[3, 1, 2, 4]);
        assert!(after[1].rating > after[2].rating);
        assert!(after[2].rating > 1500.0 && after[0].rating < 1500.0);
        assert!(after[0].rating > after[3].rating);
    }

    #[test]
    fn bot_and_repeated_players_are_unrated() {
        let human = |seat, id: &str| RatedSeat {
            seat,
            player_id: Some(id.into()),
            bot: false,
        };
        let bot = RatedSeat {
            seat: 1,
            player_id: None,
            bot: true,
        };
        assert!(is_rated(&[human(0, "a"), human(1, "b")], &[1, 2]));
        assert!(!is_rated(&[human(0, "a"), bot], &[1, 2]));
        assert!(!is_rated(&[human(0, "a"), human(1, "a")], &[1, 2]));
        assert!(!is_rated(&[human(0, "a"), human(1, "b")], &[1]));
    }

    #[test]
    fn a_tie_for_first_is_not_a_win() {
        assert!(!is_win(&[1, 1], 0));
        assert!(is_win(&[1, 2], 0));
        assert!(!is_win(&[1, 2], 1));
    }
}
