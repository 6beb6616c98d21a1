//! Two-seat zero-sum matrix games: the sealed choices the bots play (a CTG bowl card against
//! a shot, a Wicketz field against a stroke).
//!
//! A bot that plays a sealed choice predictably is farmed by anyone who reads its code, so
//! the `hard` bots play the game's equilibrium, which no reply beats, and lean toward an
//! opponent's habits only as far as a best responder gains at most a fixed bound against the
//! leaning mix ([`ZeroSum::safe_response`]). Solved here by regret matching+ with alternating
//! updates and linear averaging until the exploitability gap is below a tolerance: the
//! matrices are small (at most a few dozen entries a side), so this takes a fraction of a
//! millisecond and needs no LP solver.

/// A zero-sum game from the row player's side: `at(r, c)` is what the row player gets when it
/// plays row `r` and the other plays column `c`; the column player gets the negation.
#[derive(Clone, Debug, PartialEq)]
pub struct ZeroSum {
    rows: usize,
    cols: usize,
    /// Row-major payoffs.
    payoff: Vec<f64>,
}

/// An equilibrium as solved, and how far from exact it is.
#[derive(Clone, Debug, PartialEq)]
pub struct Solution {
    /// The row player's mix.
    pub rows: Vec<f64>,
    /// The column player's mix.
    pub cols: Vec<f64>,
    /// The game's value to the row player (the middle of the two guarantees).
    pub value: f64,
    /// What a best responder to either mix gains, at most, over the value: the upper
    /// guarantee minus the lower one.
    pub gap: f64,
}

/// Largest number of regret-matching iterations; the gap is usually met far sooner.
const MAX_ITERATIONS: usize = 20_000;

/// How often the gap is measured while solving.
const CHECK_EVERY: usize = 25;

impl ZeroSum {
    /// A game of `rows` x `cols` with payoffs `payoff(r, c)` to the row player.
    pub fn new(rows: usize, cols: usize, payoff: impl Fn(usize, usize) -> f64) -> ZeroSum {
        let payoff = (0..rows)
            .flat_map(|r| (0..cols).map(move |c| (r, c)))
            .map(|(r, c)| payoff(r, c))
            .collect();
        ZeroSum { rows, cols, payoff }
    }

    pub fn rows(&self) -> usize {
        self.rows
    }

    pub fn cols(&self) -> usize {
        self.cols
    }

    pub fn at(&self, row: usize, col: usize) -> f64 {
        self.payoff[row * self.cols + col]
    }

    /// The same game from the column player's side.
    pub fn transposed(&self) -> ZeroSum {
        ZeroSum::new(self.cols, self.rows, |r, c| -self.at(c, r))
    }

    /// What each row earns against the column mix `cols`.
    pub fn row_values(&self, cols: &[f64]) -> Vec<f64> {
        (0..self.rows)
            .map(|r| {
                (0..self.cols)
                    .map(|c| self.at(r, c) * cols.get(c).copied().unwrap_or(0.0))
                    .sum()
            })
            .collect()
    }

    /// What the row player earns with the mix `rows` against each column.
    pub fn col_values(&self, rows: &[f64]) -> Vec<f64> {
        (0..self.cols)
            .map(|c| {
                (0..self.rows)
                    .map(|r| self.at(r, c) * rows.get(r).copied().unwrap_or(0.0))
                    .sum()
            })
            .collect()
    }

    /// The least the row mix `rows` earns, whatever the column player does.
    pub fn floor(&self, rows: &[f64]) -> f64 {
        self.col_values(rows).into_iter().fold(f64::INFINITY, f64::min)
    }

    /// The most the column mix `cols` concedes, whatever the row player does.
    pub fn ceiling(&self, cols: &[f64]) -> f64 {
        self.row_values(cols)
            .into_iter()
            .fold(f64::NEG_INFINITY, f64::max)
    }

    /// An equilibrium within `tolerance` (the gap), or the best found in
    /// [`MAX_ITERATIONS`]. Deterministic: the same game gives the same mixes.
    pub fn solve(&self, tolerance: f64) -> Solution {
        let (rows, cols) = (self.rows, self.cols);
        if rows == 0 || cols == 0 {
            return Solution {
                rows: vec![1.0; rows.min(1)],
                cols: vec![1.0; cols.min(1)],
                value: 0.0,
                gap: 0.0,
            };
        }
        let mut row_regret = vec![0.0; rows];
        let mut col_regret = vec![0.0; cols];
        let mut row_sum = vec![0.0; rows];
        let mut col_sum = vec![0.0; cols];
        let mut best: Option<Solution> = None;
        for iteration in 1..=MAX_ITERATIONS {
            let weight = iteration as f64;
            // The row player against the column player's current mix, then the column player
            // against the row player's new one: alternating updates converge far faster.
            let col_mix = normalised(&col_regret);
            let row_earn = self.row_values(&col_mix);
            let row_mix = normalised(&row_regret);
            let expected: f64 = row_mix.iter().zip(&row_earn).map(|(p, v)| p * v).sum();
            for r in 0..rows {
                row_regret[r] = (row_regret[r] + row_earn[r] - expected).max(0.0);
                row_sum[r] += weight * row_mix[r];
            }
            let row_mix = normalised(&row_regret);
            let col_earn = self.col_values(&row_mix);
            let expected: f64 = col_mix.iter().zip(&col_earn).map(|(p, v)| p * v).sum();
            for c in 0..cols {
                // The column player minimises the row player's earnings.
                col_regret[c] = (col_regret[c] + expected - col_earn[c]).max(0.0);
                col_sum[c] += weight * col_mix[c];
            }
            if iteration % CHECK_EVERY == 0 || iteration == MAX_ITERATIONS {
                let (row_avg, col_avg) = (normalised(&row_sum), normalised(&col_sum));
                let (low, high) = (self.floor(&row_avg), self.ceiling(&col_avg));
                let found = Solution {
                    rows: row_avg,
                    cols: col_avg,
                    value: (low + high) / 2.0,
                    gap: (high - low).max(0.0),
                };
                let done = found.gap <= tolerance;
                if best.as_ref().is_none_or(|kept| found.gap < kept.gap) {
                    best = Some(found);
                }
                if done {
                    break;
                }
            }
        }
        best.unwrap_or_else(|| Solution {
            rows: vec![1.0 / rows as f64; rows],
            cols: vec![1.0 / cols as f64; cols],
            value: 0.0,
            gap: f64::INFINITY,
        })
    }

    /// The row player's most exploiting mix against `model` (what the column player is
    /// believed to play) among those that still guarantee `value - bound` against every
    /// column: a best responder to it gains at most `bound` over the value (plus the
    /// solve's `tolerance`). This is a restricted Nash response (Johanson, Zinkevich and
    /// Bowling, 2007): the equilibrium of the game where the column player must play `model`
    /// with probability `p` and is free otherwise, with the largest `p` whose solution keeps
    /// the guarantee, found by bisection. Those solutions are the best trade-offs between
    /// what a mix wins from the model and what it gives away to a best responder.
    pub fn safe_response(
        &self,
        equilibrium: &[f64],
        value: f64,
        model: &[f64],
        bound: f64,
        tolerance: f64,
    ) -> Vec<f64> {
        let against_model = self.row_values(model);
        let floor = value - bound.max(0.0);
        let base: f64 = equilibrium.iter().zip(&against_model).map(|(p, v)| p * v).sum();
        if against_model.iter().all(|v| *v <= base + 1e-9) {
            return equilibrium.to_vec();
        }
        let restricted = |p: f64| {
            let game = ZeroSum::new(self.rows, self.cols, |r, c| {
                p * against_model[r] + (1.0 - p) * self.at(r, c)
            });
            game.solve(tolerance).rows
        };
        let mut best = equilibrium.to_vec();
        let (mut low, mut high) = (0.0, 1.0);
        for _ in 0..BISECTIONS {
            let p = (low + high) / 2.0;
            let mix = restricted(p);
            if self.floor(&mix) >= floor {
                best = mix;
                low = p;
            } else {
                high = p;
            }
        }
        best
    }
}

/// Bisection steps of [`ZeroSum::safe_response`]: the model's weight to 1/128.
const BISECTIONS: usize = 7;

/// Non-negative weights as probabilities; uniform when they are all zero.
pub fn normalised(weights: &[f64]) -> Vec<f64> {
    let total: f64 = weights.iter().sum();
    if total > 0.0 {
        weights.iter().map(|w| w / total).collect()
    } else {
        vec![1.0 / weights.len().max(1) as f64; weights.len()]
    }
}

/// The index the best `score` has (the first on ties).
pub fn best_index(values: &[f64]) -> usize {
    let mut best = 0;
    for (index, value) in values.iter().enumerate() {
        if *value > values[best] {
            best = index;
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rock_paper_scissors() -> ZeroSum {
        let table = [[0.0, -1.0, 1.0], [1.0, 0.0, -1.0], [-1.0, 1.0, 0.0]];
        ZeroSum::new(3, 3, |r, c| table[r][c])
    }

    #[test]
    fn rock_paper_scissors_is_solved_to_thirds() {
        let solved = rock_paper_scissors().solve(1e-4);
        assert!(solved.gap <= 1e-4, "{solved:?}");
        for p in solved.rows.iter().chain(&solved.cols) {
            assert!((p - 1.0 / 3.0).abs() < 0.01, "{solved:?}");
        }
        assert!(solved.value.abs() < 1e-3);
    }

    #[test]
    fn a_dominated_row_gets_no_weight_and_the_value_is_right() {
        // Row 1 is dominated; the rest is matching pennies shifted by 2: value 2.
        let table = [[3.0, 1.0], [0.0, 0.5], [1.0, 3.0]];
        let game = ZeroSum::new(3, 2, |r, c| table[r][c]);
        let solved = game.solve(1e-4);
        assert!(solved.rows[1] < 1e-3, "{solved:?}");
        assert!((solved.value - 2.0).abs() < 1e-3, "{solved:?}");
        let other_side = game.transposed().solve(1e-4);
        assert!((other_side.value + 2.0).abs() < 1e-3, "{other_side:?}");
    }

    #[test]
    fn a_tilt_keeps_its_floor_and_answers_the_habit() {
        let game = rock_paper_scissors();
        let solved = game.solve(1e-6);
        // The column player always plays rock (column 0): paper (row 1) answers it.
        let model = [1.0, 0.0, 0.0];
        for bound in [0.0, 0.05, 0.2, 2.0] {
            let mix = game.safe_response(&solved.rows, solved.value, &model, bound, 1e-6);
            assert!((mix.iter().sum::<f64>() - 1.0).abs() < 1e-9);
            assert!(
                game.floor(&mix) >= solved.value - bound - 1e-9,
                "{bound}: {mix:?}"
            );
            if bound > 0.0 {
                assert!(mix[1] > solved.rows[1], "{bound}: leans toward paper {mix:?}");
            }
        }
        // An unbounded lean is (almost: the bisection stops at 127/128) the pure best reply.
        let mix = game.safe_response(&solved.rows, solved.value, &model, 10.0, 1e-6);
        assert!(mix[1] > 0.99, "{mix:?}");
        // No habit to answer: the equilibrium stays as it is.
        let even = game.safe_response(&solved.rows, solved.value, &solved.cols, 0.5, 1e-6);
        assert_eq!(even, solved.rows);
    }
}
