//! One turn of dice as a finite Markov decision problem, solved exactly.
//!
//! The order of the dice does not matter to any rule, only how many show each face, so a
//! turn's state is a multiset of faces (462 of them for six dice of six faces). A re-roll
//! keeps a sub-multiset and draws the rest; the chance of each result is multinomial. With
//! every transition listed once per die, the whole turn is solved backwards in a few tens
//! of thousands of additions, cheap enough to redo for every decision with the seat's own
//! cards and the over as it stands.

use super::super::faces::Face;

/// The most distinct faces one die carries (a die has six sides).
pub const MAX_KINDS: usize = 6;

/// How many dice show each of a die's distinct faces.
pub type Counts = [u8; MAX_KINDS];

/// The states, keeps and transitions of one kind of die rolled `dice` at a time.
pub struct TurnSpace {
    /// The die's distinct faces; `Counts[i]` counts `faces[i]`.
    pub faces: Vec<Face>,
    pub dice: usize,
    /// Every multiset of `dice` dice.
    pub states: Vec<Counts>,
    /// Every multiset of fewer than `dice` dice: what a re-roll may keep.
    keeps: Vec<Counts>,
    /// For each keep, the states a re-roll of the other dice leads to, with their chances.
    transitions: Vec<Vec<(u32, f64)>>,
    /// For each state, the keeps it can re-roll to (its proper sub-multisets).
    sub_keeps: Vec<Vec<u32>>,
}

fn total(counts: &Counts) -> usize {
    counts.iter().map(|c| usize::from(*c)).sum()
}

/// Every multiset of `size` dice over `kinds` faces.
fn multisets(kinds: usize, size: usize) -> Vec<Counts> {
    let mut out = Vec::new();
    let mut current = [0u8; MAX_KINDS];
    fn fill(kind: usize, kinds: usize, left: usize, current: &mut Counts, out: &mut Vec<Counts>) {
        if kind + 1 == kinds {
            current[kind] = left as u8;
            out.push(*current);
            current[kind] = 0;
            return;
        }
        for n in 0..=left {
            current[kind] = n as u8;
            fill(kind + 1, kinds, left - n, current, out);
        }
        current[kind] = 0;
    }
    if kinds > 0 {
        fill(0, kinds, size, &mut current, &mut out);
    }
    out
}

fn factorial(n: usize) -> f64 {
    (1..=n).map(|i| i as f64).product()
}

/// The chance that rolling `total(counts)` dice gives exactly `counts`.
fn multinomial(counts: &Counts, probs: &[f64]) -> f64 {
    let mut p = factorial(total(counts));
    for (count, prob) in counts.iter().zip(probs) {
        p *= prob.powi(i32::from(*count)) / factorial(usize::from(*count));
    }
    p
}

impl TurnSpace {
    /// The space of a die with these printed faces (a face printed twice is twice as likely).
    pub fn new(die: &[Face], dice: usize) -> Self {
        let mut faces: Vec<Face> = Vec::new();
        for face in die {
            if !faces.contains(face) {
                faces.push(*face);
            }
        }
        faces.truncate(MAX_KINDS);
        let probs: Vec<f64> = faces
            .iter()
            .map(|f| die.iter().filter(|d| *d == f).count() as f64 / die.len() as f64)
            .collect();
        let kinds = faces.len();
        let states = multisets(kinds, dice);
        let index = |counts: &Counts| states.iter().position(|s| s == counts);
        let keeps: Vec<Counts> = (0..dice).flat_map(|size| multisets(kinds, size)).collect();
        let transitions = keeps
            .iter()
            .map(|keep| {
                multisets(kinds, dice - total(keep))
                    .iter()
                    .filter_map(|rolled| {
                        let mut next = *keep;
                        for (n, r) in next.iter_mut().zip(rolled) {
                            *n += r;
                        }
                        index(&next).map(|s| (s as u32, multinomial(rolled, &probs)))
                    })
                    .collect()
            })
            .collect();
        let sub_keeps = states
            .iter()
            .map(|state| {
                keeps
                    .iter()
                    .enumerate()
                    .filter(|(_, keep)| keep.iter().zip(state).all(|(k, s)| k <= s))
                    .map(|(i, _)| i as u32)
                    .collect()
            })
            .collect();
        TurnSpace {
            faces,
            dice,
            states,
            keeps,
            transitions,
            sub_keeps,
        }
    }

    /// The counts of some dice, `None` if a face is not on this die or there are too many.
    pub fn counts_of(&self, dice: &[Face]) -> Option<Counts> {
        let mut counts = [0u8; MAX_KINDS];
        for face in dice {
            let kind = self.faces.iter().position(|f| f == face)?;
            counts[kind] += 1;
        }
        Some(counts)
    }

    pub fn state_of(&self, dice: &[Face]) -> Option<usize> {
        let counts = self.counts_of(dice)?;
        self.states.iter().position(|s| *s == counts)
    }

    /// The dice of a multiset, in face order.
    pub fn faces_of(&self, counts: &Counts) -> Vec<Face> {
        counts
            .iter()
            .zip(&self.faces)
            .flat_map(|(n, face)| std::iter::repeat_n(*face, usize::from(*n)))
            .collect()
    }

    /// The expected value of the first roll (all dice) when `plan` has `rerolls` re-rolls
    /// after it.
    pub fn first_roll_value(&self, plan: &Plan, rerolls: usize) -> f64 {
        let empty = self.keeps.iter().position(|k| total(k) == 0).unwrap_or(0);
        self.expected(empty, &plan.values[rerolls.min(plan.values.len() - 1)])
    }

    /// What following `plan`'s keeps is worth from the first roll when stopping on each state
    /// is really worth `terminal`: the plan's own values when it was solved with `terminal`,
    /// less when it was solved with other values (what a mistaken model costs).
    pub fn first_roll_value_following(&self, plan: &Plan, terminal: &[f64], rerolls: usize) -> f64 {
        let mut values = terminal.to_vec();
        for r in 1..=rerolls {
            values = (0..self.states.len())
                .map(|state| match self.best_keep_index(plan, state, r) {
                    Some(keep) => self.expected(keep, &values),
                    None => terminal[state],
                })
                .collect();
        }
        self.first_roll()
            .iter()
            .map(|(state, p)| p * values[*state as usize])
            .sum()
    }

    /// The chance of each state after the first roll.
    pub fn first_roll(&self) -> &[(u32, f64)] {
        let empty = self.keeps.iter().position(|k| total(k) == 0).unwrap_or(0);
        &self.transitions[empty]
    }

    fn expected(&self, keep: usize, values: &[f64]) -> f64 {
        self.transitions[keep]
            .iter()
            .map(|(state, p)| p * values[*state as usize])
            .sum()
    }

    /// Solves the turn backwards: `terminal[s]` is what stopping with state `s` is worth.
    pub fn solve(&self, terminal: &[f64], rerolls: usize) -> Plan {
        let mut values = vec![terminal.to_vec()];
        let mut keep_values = Vec::new();
        for r in 1..=rerolls {
            let below = &values[r - 1];
            let keep_value: Vec<f64> = (0..self.keeps.len()).map(|k| self.expected(k, below)).collect();
            let value = (0..self.states.len())
                .map(|s| {
                    self.sub_keeps[s]
                        .iter()
                        .map(|k| keep_value[*k as usize])
                        .fold(terminal[s], f64::max)
                })
                .collect();
            keep_values.push(keep_value);
            values.push(value);
        }
        Plan { values, keep_values }
    }

    /// The best move from `state` with `rerolls` re-rolls left: `None` to stop, or the
    /// multiset to keep while the other dice are re-rolled.
    pub fn best_keep(&self, plan: &Plan, state: usize, rerolls: usize) -> Option<Counts> {
        self.best_keep_index(plan, state, rerolls).map(|k| self.keeps[k])
    }

    fn best_keep_index(&self, plan: &Plan, state: usize, rerolls: usize) -> Option<usize> {
        if rerolls == 0 || rerolls > plan.keep_values.len() {
            return None;
        }
        let keep_value = &plan.keep_values[rerolls - 1];
        let stop = plan.values[0][state];
        let (best, value) = self.sub_keeps[state]
            .iter()
            .map(|k| (*k as usize, keep_value[*k as usize]))
            .fold(
                (usize::MAX, f64::NEG_INFINITY),
                |a, b| if b.1 > a.1 { b } else { a },
            );
        // Stopping wins ties: a re-roll that gains nothing only adds variance.
        (best != usize::MAX && value > stop + 1e-9).then_some(best)
    }

    /// Where a turn played by `plan` ends: the chance of stopping on each state.
    pub fn stop_distribution(&self, plan: &Plan, rerolls: usize) -> Vec<f64> {
        let mut now = vec![0.0; self.states.len()];
        for (state, p) in self.first_roll() {
            now[*state as usize] += p;
        }
        let mut stopped = vec![0.0; self.states.len()];
        for r in (0..=rerolls).rev() {
            let mut next = vec![0.0; self.states.len()];
            for (state, p) in now.iter().enumerate() {
                if *p == 0.0 {
                    continue;
                }
                match self.best_keep_index(plan, state, r) {
                    Some(k) => {
                        for (to, q) in &self.transitions[k] {
                            next[*to as usize] += p * q;
                        }
                    }
                    None => stopped[state] += p,
                }
            }
            now = next;
        }
        stopped
    }

    /// The dice (0-based) to re-roll so that exactly `keep` stays.
    pub fn dice_to_reroll(&self, dice: &[Face], keep: &Counts) -> Vec<u8> {
        let mut left = *keep;
        let mut reroll = Vec::new();
        for (i, face) in dice.iter().enumerate() {
            match self.faces.iter().position(|f| f == face) {
                Some(kind) if left[kind] > 0 => left[kind] -= 1,
                _ => reroll.push(i as u8),
            }
        }
        reroll
    }
}

/// A solved turn: `values[r][s]` is state `s` with `r` re-rolls left played optimally.
pub struct Plan {
    pub values: Vec<Vec<f64>>,
    keep_values: Vec<Vec<f64>>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn six_dice_of_six_faces_have_462_states_and_every_reroll_sums_to_one() {
        let die = [
            Face::One,
            Face::Two,
            Face::Four,
            Face::Six,
            Face::Xp,
            Face::Defence,
        ];
        let space = TurnSpace::new(&die, 6);
        assert_eq!(space.states.len(), 462);
        for transitions in &space.transitions {
            let sum: f64 = transitions.iter().map(|(_, p)| p).sum();
            assert!((sum - 1.0).abs() < 1e-9, "{sum}");
        }
    }

    #[test]
    fn a_doubled_face_is_one_kind_twice_as_likely() {
        let die = [
            Face::Wicket,
            Face::Xp,
            Face::Wide,
            Face::Dot,
            Face::Save,
            Face::Dot,
        ];
        let space = TurnSpace::new(&die, 1);
        assert_eq!(space.faces.len(), 5);
        let dot = space.state_of(&[Face::Dot]).expect("dot") as u32;
        let p = space
            .first_roll()
            .iter()
            .find(|(s, _)| *s == dot)
            .map(|(_, p)| *p);
        assert_eq!(p, Some(2.0 / 6.0));
    }

    #[test]
    fn chasing_one_face_matches_the_closed_form() {
        // Value 1 per Six, re-rolling everything else twice: each die ends a Six with chance
        // 1 - (5/6)^3, so six dice average 6 * (1 - (5/6)^3).
        let die = [
            Face::One,
            Face::Two,
            Face::Four,
            Face::Six,
            Face::Xp,
            Face::Defence,
        ];
        let space = TurnSpace::new(&die, 6);
        let terminal: Vec<f64> = space
            .states
            .iter()
            .map(|s| f64::from(s[space.faces.iter().position(|f| *f == Face::Six).unwrap_or(0)]))
            .collect();
        let plan = space.solve(&terminal, 2);
        let expected = 6.0 * (1.0 - (5.0f64 / 6.0).powi(3));
        assert!((space.first_roll_value(&plan, 2) - expected).abs() < 1e-9);
        // Followed with the values it was solved for, a plan is worth its own value.
        assert!((space.first_roll_value_following(&plan, &terminal, 2) - expected).abs() < 1e-9);
        // A plan that chases Sixes is worth less when Ones are what pays: it throws them back.
        let ones = space.faces.iter().position(|f| *f == Face::One).unwrap_or(0);
        let paid_for_ones: Vec<f64> = space.states.iter().map(|s| f64::from(s[ones])).collect();
        let chasing_ones = space.solve(&paid_for_ones, 2);
        let wrong = space.first_roll_value_following(&plan, &paid_for_ones, 2);
        let right = space.first_roll_value(&chasing_ones, 2);
        assert!((right - expected).abs() < 1e-9, "the die is symmetric: {right}");
        // Chasing Sixes keeps only Sixes: a die ends on a One only when it failed to be a Six
        // three times and its last face, one of the five others, is a One.
        let ones_kept_by_chance = 6.0 * (5.0f64 / 6.0).powi(3) / 5.0;
        assert!((wrong - ones_kept_by_chance).abs() < 1e-9, "{wrong}");
    }
}
