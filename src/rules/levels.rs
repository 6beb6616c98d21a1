//! Levels played as blends of a game's bots, one decision at a time (issue 30).
//!
//! A weaker level must not be a pure policy that one fixed answer farms: the heuristic
//! `normal` lost nine Wicketz matches in ten to a batter who always plays the straight
//! drive, and the random `easy` nearly every Champions match to a player who never buys.
//! Where a game's `hard` bot is that much stronger, its `easy` and `normal` take each
//! decision from `hard` with one probability, from the heuristic with another, and at random
//! otherwise: weaker by what they hand to the weaker voices, but with no habit a fixed
//! policy can count on. The probabilities are tuned data (`data/<game>/bot_levels.json`,
//! measured in docs/performance.md). CTG plays its sealed ball its own way (`ctg::levels`).

use super::{BotLevel, BotPolicy, Dice};
use serde::Deserialize;

/// Where one level's decisions come from: `hard` and `heuristic` are probabilities, the
/// rest is uniformly random among legal commands.
#[derive(Clone, Copy, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Blend {
    pub hard: f64,
    pub heuristic: f64,
}

/// The voice that answers one decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Voice {
    Hard,
    Policy(BotPolicy),
}

impl Blend {
    /// Draws the voice of the next decision.
    pub fn voice(&self, rng: &mut Dice) -> Voice {
        const SCALE: u32 = 1 << 20;
        let draw = f64::from(rng.below(SCALE)) / f64::from(SCALE);
        if draw < self.hard {
            Voice::Hard
        } else if draw < self.hard + self.heuristic {
            Voice::Policy(BotPolicy::Heuristic)
        } else {
            Voice::Policy(BotPolicy::Random)
        }
    }
}

/// A game's `easy` and `normal` blends.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LevelBlends {
    /// Why the numbers are what they are; not read.
    #[serde(rename = "_doc")]
    pub doc: String,
    pub easy: Blend,
    pub normal: Blend,
}

/// A `bot_levels.json` that does not describe two blends.
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum LevelsError {
    #[error("not the blends of easy and normal: {0}")]
    Shape(String),
    #[error("{level}: each probability is 0 to 1 and the two sum to at most 1, not {blend:?}")]
    Probabilities { level: &'static str, blend: Blend },
}

impl LevelBlends {
    pub fn parse(json: &str) -> Result<LevelBlends, LevelsError> {
        let blends: LevelBlends =
            serde_json::from_str(json).map_err(|e| LevelsError::Shape(e.to_string()))?;
        for (level, blend) in [("easy", blends.easy), ("normal", blends.normal)] {
            let unit = |p: f64| (0.0..=1.0).contains(&p);
            if !(unit(blend.hard) && unit(blend.heuristic) && blend.hard + blend.heuristic <= 1.0 + 1e-9) {
                return Err(LevelsError::Probabilities { level, blend });
            }
        }
        Ok(blends)
    }

    /// The blend of `level`; `None` for `hard`, which is `hard` alone.
    pub fn of(&self, level: BotLevel) -> Option<Blend> {
        match level {
            BotLevel::Easy => Some(self.easy),
            BotLevel::Normal => Some(self.normal),
            BotLevel::Hard => None,
        }
    }

    /// The voice of `level`'s next decision.
    pub fn voice(&self, level: BotLevel, rng: &mut Dice) -> Voice {
        self.of(level).map_or(Voice::Hard, |blend| blend.voice(rng))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Seed;

    #[test]
    fn a_blend_draws_each_voice_at_its_rate() {
        let blend = Blend {
            hard: 0.5,
            heuristic: 0.3,
        };
        let mut rng = Dice::new(&Seed::from_u64(1));
        let mut counts = [0u32; 3];
        for _ in 0..20_000 {
            counts[match blend.voice(&mut rng) {
                Voice::Hard => 0,
                Voice::Policy(BotPolicy::Heuristic) => 1,
                Voice::Policy(BotPolicy::Random) => 2,
            }] += 1;
        }
        for (count, rate) in counts.iter().zip([0.5, 0.3, 0.2]) {
            let seen = f64::from(*count) / 20_000.0;
            assert!((seen - rate).abs() < 0.015, "{counts:?}");
        }
    }

    #[test]
    fn bad_blends_are_refused_with_the_level_named() {
        let json = |easy: &str| {
            format!(r#"{{"_doc": "", "easy": {easy}, "normal": {{"hard": 0.5, "heuristic": 0.5}}}}"#)
        };
        assert!(LevelBlends::parse(&json(r#"{"hard": 0.2, "heuristic": 0.3}"#)).is_ok());
        let error = LevelBlends::parse(&json(r#"{"hard": 0.8, "heuristic": 0.3}"#)).unwrap_err();
        assert!(error.to_string().starts_with("easy: "), "{error}");
        assert!(matches!(
            LevelBlends::parse(&json(r#"{"hard": -0.1, "heuristic": 0.3}"#)),
            Err(LevelsError::Probabilities { level: "easy", .. })
        ));
        assert!(matches!(
            LevelBlends::parse(&json(r#"{"hard": 0.1}"#)),
            Err(LevelsError::Shape(_))
        ));
    }

    #[test]
    fn hard_is_hard_alone() {
        let blends = LevelBlends::parse(
            r#"{"_doc": "", "easy": {"hard": 0, "heuristic": 0}, "normal": {"hard": 0, "heuristic": 1}}"#,
        )
        .expect("blends");
        let mut rng = Dice::new(&Seed::from_u64(2));
        assert!((0..100).all(|_| blends.voice(BotLevel::Hard, &mut rng) == Voice::Hard));
        assert!((0..100).all(|_| blends.voice(BotLevel::Easy, &mut rng) == Voice::Policy(BotPolicy::Random)));
        assert!(
            (0..100).all(|_| blends.voice(BotLevel::Normal, &mut rng) == Voice::Policy(BotPolicy::Heuristic))
        );
    }
}
