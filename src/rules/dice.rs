//! The match's only source of chance.
//!
//! Every die, shuffle and spinner of every game draws from one ChaCha20 stream per match,
//! seeded with 32 bytes from the OS when the match is created. The server publishes
//! `sha256(seed)` when the match starts and the seed itself when it ends, so anyone can
//! replay the stream and check every roll in the log.
//!
//! The mapping from stream words to die faces is ours, not `rand`'s, on purpose: a third
//! party re-deriving rolls must not depend on the internals of a particular `rand` release.
//! It is specified byte by byte in `proto/fairness.md` (with test vectors in
//! `proto/fairness-vectors.json`, checked by `tests/rules/fairness_vectors.rs`) and is part of the
//! protocol:
//!
//! * `below(n)`: take the next `u32` word `x` of the stream; reject it while
//!   `x >= 2^32 - (2^32 mod n)`; return `x mod n`.
//! * `roll(sides)` is `below(sides) + 1`.
//! * `shuffle` is Fisher-Yates from the last index down, swapping `i` with `below(i + 1)`.

use rand_chacha::ChaCha20Rng;
use rand_chacha::rand_core::{Rng, SeedableRng};
use sha2::{Digest, Sha256};

/// A match seed: 32 bytes, hex-encoded on the wire and in the database.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Seed(pub [u8; 32]);

impl Seed {
    /// A seed derived from a number, for simulations and tests that must repeat.
    pub fn from_u64(n: u64) -> Self {
        let mut bytes = [0u8; 32];
        bytes[..8].copy_from_slice(&n.to_le_bytes());
        Seed(Sha256::digest(bytes).into())
    }

    pub fn to_hex(&self) -> String {
        hex::encode(self.0)
    }

    pub fn from_hex(text: &str) -> Option<Self> {
        let bytes = hex::decode(text).ok()?;
        Some(Seed(bytes.try_into().ok()?))
    }

    /// The commitment published when a match starts: hex of `sha256(seed)`.
    pub fn commitment(&self) -> String {
        hex::encode(Sha256::digest(self.0))
    }
}

impl std::fmt::Debug for Seed {
    // Never print a live seed by accident (logs, panics): it would let a reader predict dice.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Seed(sha256={})", &self.commitment()[..12])
    }
}

/// The seeded dice of one match. Cloning it forks the stream, which the runner uses to
/// discard the draws of a rejected command.
#[derive(Clone, Debug)]
pub struct Dice {
    stream: ChaCha20Rng,
}

impl Dice {
    pub fn new(seed: &Seed) -> Self {
        Dice {
            stream: ChaCha20Rng::from_seed(seed.0),
        }
    }

    /// How many 32-bit words have been drawn; lets a log record where each command began.
    pub fn position(&self) -> u128 {
        self.stream.get_word_pos()
    }

    /// The next raw word of the stream: what every other draw is made of. Public so the
    /// published test vectors can show the words themselves.
    pub fn word(&mut self) -> u32 {
        self.stream.next_u32()
    }

    /// A uniform number in `0..n`. `n` must be at least 1.
    pub fn below(&mut self, n: u32) -> u32 {
        debug_assert!(n > 0, "below(0) has no outcome");
        let n = n.max(1);
        // Reject the top partial block so every outcome is equally likely.
        let zone = u32::MAX - (u32::MAX - n + 1) % n;
        loop {
            let x = self.word();
            if x <= zone {
                return x % n;
            }
        }
    }

    /// A die with `sides` faces numbered from 1.
    pub fn roll(&mut self, sides: u8) -> u8 {
        Roller::roll(self, sides)
    }

    /// True with probability `numerator / denominator`.
    pub fn chance(&mut self, numerator: u32, denominator: u32) -> bool {
        Roller::chance(self, numerator, denominator)
    }

    /// Fisher-Yates, last index first.
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        fisher_yates(self, items);
    }

    /// Index into a table of integer weights (e.g. a spinner with segments out of 20).
    pub fn weighted(&mut self, weights: &[u32]) -> usize {
        Roller::weighted(self, weights)
    }
}

/// Where the rules' chance comes from: the match's [`Dice`] in play, exact faces in a rule
/// test (`tests/ctg_harness`). Every draw is made of `below`, so a roller answering `below`
/// as the dice do gets the same faces, spins and shuffles.
pub trait Roller {
    /// A uniform number in `0..n`.
    fn below(&mut self, n: u32) -> u32;

    /// A die with `sides` faces numbered from 1.
    fn roll(&mut self, sides: u8) -> u8 {
        self.below(u32::from(sides)) as u8 + 1
    }

    /// True with probability `numerator / denominator`.
    fn chance(&mut self, numerator: u32, denominator: u32) -> bool {
        self.below(denominator) < numerator
    }

    /// Index into a table of integer weights (e.g. a spinner with segments out of 20).
    fn weighted(&mut self, weights: &[u32]) -> usize {
        let total: u32 = weights.iter().sum();
        let mut pick = self.below(total.max(1));
        for (index, weight) in weights.iter().enumerate() {
            if pick < *weight {
                return index;
            }
            pick -= weight;
        }
        weights.len().saturating_sub(1)
    }
}

impl Roller for Dice {
    fn below(&mut self, n: u32) -> u32 {
        Dice::below(self, n)
    }
}

// A generic method would make `Roller` unusable as `dyn Roller`, which is how the rules hold it.
impl dyn Roller + '_ {
    /// Fisher-Yates, last index first: the same draws as [`Dice::shuffle`].
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        fisher_yates(self, items);
    }
}

fn fisher_yates<T>(roller: &mut (impl Roller + ?Sized), items: &mut [T]) {
    for i in (1..items.len()).rev() {
        let j = roller.below(i as u32 + 1) as usize;
        items.swap(i, j);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_rolls_and_different_seed_differs() {
        let roll_many = |seed| {
            let mut dice = Dice::new(&Seed::from_u64(seed));
            (0..64).map(|_| dice.roll(6)).collect::<Vec<_>>()
        };
        assert_eq!(roll_many(7), roll_many(7));
        assert_ne!(roll_many(7), roll_many(8));
    }

    #[test]
    fn rolls_cover_every_face_and_nothing_else() {
        let mut dice = Dice::new(&Seed::from_u64(1));
        let mut seen = [0u32; 9];
        for _ in 0..8000 {
            seen[dice.roll(8) as usize] += 1;
        }
        assert_eq!(seen[0], 0);
        for count in &seen[1..] {
            assert!((800..1200).contains(count), "face count {count} is far from 1000");
        }
    }

    #[test]
    fn commitment_is_sha256_of_the_seed_and_hex_round_trips() {
        let seed = Seed([0u8; 32]);
        assert_eq!(
            seed.commitment(),
            "66687aadf862bd776c8fc18b8e9f8e20089714856ee233b3902a591d0d5f2925"
        );
        assert_eq!(Seed::from_hex(&seed.to_hex()), Some(seed));
        assert_eq!(Seed::from_hex("zz"), None);
    }

    #[test]
    fn a_cloned_stream_repeats_the_original() {
        let mut dice = Dice::new(&Seed::from_u64(3));
        dice.roll(6);
        let mut fork = dice.clone();
        assert_eq!(dice.below(1000), fork.below(1000));
        assert_eq!(dice.position(), fork.position());
    }

    #[test]
    fn weighted_respects_zero_weights() {
        let mut dice = Dice::new(&Seed::from_u64(4));
        for _ in 0..500 {
            assert_ne!(dice.weighted(&[3, 0, 5]), 1);
        }
    }
}
