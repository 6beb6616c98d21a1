//! Who plays whom: a league's rounds and a knockout's first round.
//!
//! Entrants are indices into the competition's list (`0..n`), so the schedule is a pure
//! function of the count and, for a knockout, of the ratings' order.

/// One fixture of a round: `home` takes seat 0 (and in CTG the first squad choice); a double
/// round robin plays each pairing once each way round.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fixture {
    pub home: usize,
    pub away: usize,
}

/// One round of a league: its fixtures, and the entrant who sits it out when the count is
/// odd.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Round {
    pub fixtures: Vec<Fixture>,
    pub bye: Option<usize>,
}

/// The rounds of a round robin among `entrants`, by the circle method: entrant 0 stays put
/// while the others turn, so every pair meets exactly once per cycle, and home and away
/// alternate for the fixed entrant. An odd count adds a phantom whose opponent has a bye.
/// `double`: a second cycle with every fixture's sides swapped.
pub fn round_robin(entrants: usize, double: bool) -> Vec<Round> {
    if entrants < 2 {
        return Vec::new();
    }
    let slots = entrants + entrants % 2;
    let phantom = (entrants % 2 == 1).then_some(slots - 1);
    let mut circle: Vec<usize> = (0..slots).collect();
    let mut rounds = Vec::with_capacity((slots - 1) * if double { 2 } else { 1 });
    for round in 0..slots - 1 {
        let mut fixtures = Vec::with_capacity(slots / 2);
        let mut bye = None;
        for i in 0..slots / 2 {
            let (a, b) = (circle[i], circle[slots - 1 - i]);
            if Some(a) == phantom {
                bye = Some(b);
                continue;
            }
            if Some(b) == phantom {
                bye = Some(a);
                continue;
            }
            // The fixed slot alternates home and away; the turning ones are at home on the
            // circle's first half, which the turn alternates for each of them, so every
            // entrant's home and away games differ by at most one (the Berger tables' rule).
            let swap = i == 0 && round % 2 == 1;
            fixtures.push(if swap {
                Fixture { home: b, away: a }
            } else {
                Fixture { home: a, away: b }
            });
        }
        rounds.push(Round { fixtures, bye });
        // Turn every slot but the first one place.
        let last = circle.pop().expect("two slots at least");
        circle.insert(1, last);
    }
    if double {
        let returns: Vec<Round> = rounds
            .iter()
            .map(|round| Round {
                fixtures: round
                    .fixtures
                    .iter()
                    .map(|f| Fixture {
                        home: f.away,
                        away: f.home,
                    })
                    .collect(),
                bye: round.bye,
            })
            .collect();
        rounds.extend(returns);
    }
    rounds
}

/// A knockout's first round: one slot per place in a bracket of the next power of two,
/// each pair of slots a tie, `None` a bye (its opponent goes through).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Bracket {
    /// Entrants (indices into the competition's list) in bracket order; pairs `2k, 2k + 1`
    /// meet in the first round.
    pub slots: Vec<Option<usize>>,
}

impl Bracket {
    /// The first round's ties: `(a, b)` plays, `(a, None)` is a bye for `a`.
    pub fn first_round(&self) -> Vec<(usize, Option<usize>)> {
        self.slots
            .chunks(2)
            .filter_map(|pair| match (pair[0], pair[1]) {
                (Some(a), b) => Some((a, b)),
                (None, Some(b)) => Some((b, None)),
                (None, None) => None,
            })
            .collect()
    }

    /// How many rounds the bracket has (a final is one).
    pub fn rounds(&self) -> u32 {
        self.slots.len().max(1).trailing_zeros()
    }
}

/// The bracket of a knockout seeded by rating: `ratings[i]` is entrant `i`'s, the best seed
/// the highest (ties by entry order). The bracket is the next power of two; the slots the
/// count does not fill are byes, and they fall to the top seeds, because the standard
/// seeding order (1 v 16, 8 v 9, ... in a bracket of 16) puts the missing lowest seeds
/// against them. Seeds 1 and 2 can only meet in the final.
pub fn seeded_bracket(ratings: &[f64]) -> Bracket {
    let n = ratings.len();
    if n == 0 {
        return Bracket { slots: Vec::new() };
    }
    let size = n.next_power_of_two().max(2);
    let mut by_seed: Vec<usize> = (0..n).collect();
    by_seed.sort_by(|a, b| ratings[*b].total_cmp(&ratings[*a]).then(a.cmp(b)));
    let slots = seeding_order(size)
        .into_iter()
        .map(|seed| by_seed.get(seed).copied())
        .collect();
    Bracket { slots }
}

/// Seeds (0-based) in bracket order for a bracket of `size` (a power of two): each round
/// doubles the list, pairing seed `s` with `2k - 1 - s`, so 1 v 4 and 2 v 3 in four.
fn seeding_order(size: usize) -> Vec<usize> {
    let mut order = vec![0];
    while order.len() < size {
        let next = order.len() * 2;
        order = order.iter().flat_map(|&seed| [seed, next - 1 - seed]).collect();
    }
    order
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn a_round_robin_pairs_everyone_once_per_cycle_with_one_bye_a_round_when_odd() {
        for entrants in 2..=9 {
            let rounds = round_robin(entrants, false);
            let slots = entrants + entrants % 2;
            assert_eq!(rounds.len(), slots - 1, "{entrants} entrants");
            let mut pairs = HashSet::new();
            let mut byes = Vec::new();
            for round in &rounds {
                let mut playing = HashSet::new();
                for f in &round.fixtures {
                    assert_ne!(f.home, f.away);
                    assert!(
                        playing.insert(f.home) && playing.insert(f.away),
                        "one fixture a round each"
                    );
                    assert!(
                        pairs.insert((f.home.min(f.away), f.home.max(f.away))),
                        "a pair meets once"
                    );
                }
                match round.bye {
                    Some(bye) => {
                        assert!(!playing.contains(&bye));
                        byes.push(bye);
                    }
                    None => assert_eq!(entrants % 2, 0),
                }
                assert_eq!(playing.len() + usize::from(round.bye.is_some()), entrants);
            }
            assert_eq!(pairs.len(), entrants * (entrants - 1) / 2, "every pair meets");
            if entrants % 2 == 1 {
                byes.sort_unstable();
                assert_eq!(byes, (0..entrants).collect::<Vec<_>>(), "each sits out once");
            }
            // Nobody is at home all the time (more than one round each way).
            for e in 0..entrants {
                let home = rounds
                    .iter()
                    .flat_map(|r| &r.fixtures)
                    .filter(|f| f.home == e)
                    .count();
                let away = rounds
                    .iter()
                    .flat_map(|r| &r.fixtures)
                    .filter(|f| f.away == e)
                    .count();
                assert!(
                    home.abs_diff(away) <= 1,
                    "{entrants}: entrant {e} home {home} away {away}"
                );
            }
        }
    }

    #[test]
    fn a_double_round_robin_plays_each_pairing_once_each_way() {
        let rounds = round_robin(4, true);
        assert_eq!(rounds.len(), 6);
        let mut ordered = HashSet::new();
        for f in rounds.iter().flat_map(|r| &r.fixtures) {
            assert!(ordered.insert((f.home, f.away)), "{f:?} twice");
        }
        assert_eq!(ordered.len(), 12);
        assert!(round_robin(1, true).is_empty());
    }

    #[test]
    fn a_knockout_gives_its_byes_to_the_top_seeds_and_keeps_one_and_two_apart() {
        // Six entrants, rated so that entrant 5 is seed 1, 0 seed 2, ... : a bracket of 8
        // with byes for seeds 1 and 2.
        let ratings = [1900.0, 1500.0, 1700.0, 1400.0, 1600.0, 2000.0];
        let bracket = seeded_bracket(&ratings);
        assert_eq!(bracket.slots.len(), 8);
        assert_eq!(bracket.rounds(), 3);
        let first = bracket.first_round();
        assert_eq!(first.len(), 4);
        let byes: Vec<usize> = first
            .iter()
            .filter(|(_, b)| b.is_none())
            .map(|(a, _)| *a)
            .collect();
        assert_eq!(byes, vec![5, 0], "seeds 1 and 2 have the byes");
        // Seed 3 (entrant 2) meets seed 6 (entrant 3); seed 4 (entrant 4) meets seed 5 (1).
        assert!(first.contains(&(4, Some(1))), "{first:?}");
        assert!(first.contains(&(2, Some(3))), "{first:?}");
        // Seeds 1 and 2 are in opposite halves.
        let half = |e: usize| bracket.slots.iter().position(|s| *s == Some(e)).expect("placed") / 4;
        assert_ne!(half(5), half(0));
        // Powers of two have no byes; two entrants are a final.
        assert!(
            seeded_bracket(&[1.0, 2.0, 3.0, 4.0])
                .first_round()
                .iter()
                .all(|(_, b)| b.is_some())
        );
        assert_eq!(seeded_bracket(&[1.0, 2.0]).rounds(), 1);
        assert_eq!(seeded_bracket(&[1.0, 2.0, 3.0]).first_round().len(), 2);
    }
}
