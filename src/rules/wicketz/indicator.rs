//! The bowling indicator and the pace/spin selector.
//!
//! Seed: 002_5b76236006f2f885.txt "The segment BOUNCER/GOOGLY shows that one of these apply
//! according to whether pace or spin is being bowled." The segment weights are [ASSUMED] and
//! live in `data/wicketz/ruleset.json`.

use serde::{Deserialize, Serialize};

/// Pace or spin, chosen by the bowling side for each over.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Style {
    Pace,
    Spin,
}

/// A segment of the spinner, before pace/spin turns BOUNCER/GOOGLY into one delivery.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Segment {
    GoodLength,
    Yorker,
    BouncerOrGoogly,
    HalfVolley,
    FullToss,
    LongHop,
    NoBall,
    Wide,
}

/// What the indicator produced for one ball.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Delivery {
    GoodLength,
    Yorker,
    Bouncer,
    Googly,
    HalfVolley,
    FullToss,
    LongHop,
    NoBall,
    Wide,
}

impl Segment {
    pub fn delivery(self, style: Style) -> Delivery {
        match (self, style) {
            (Segment::GoodLength, _) => Delivery::GoodLength,
            (Segment::Yorker, _) => Delivery::Yorker,
            (Segment::BouncerOrGoogly, Style::Pace) => Delivery::Bouncer,
            (Segment::BouncerOrGoogly, Style::Spin) => Delivery::Googly,
            (Segment::HalfVolley, _) => Delivery::HalfVolley,
            (Segment::FullToss, _) => Delivery::FullToss,
            (Segment::LongHop, _) => Delivery::LongHop,
            (Segment::NoBall, _) => Delivery::NoBall,
            (Segment::Wide, _) => Delivery::Wide,
        }
    }
}

impl Delivery {
    /// Seed: 002_5b76236006f2f885.txt "To command respect: Good Length, Yorker, Googly, Bouncer".
    pub fn commands_respect(self) -> bool {
        matches!(
            self,
            Delivery::GoodLength | Delivery::Yorker | Delivery::Bouncer | Delivery::Googly
        )
    }

    /// The phrase used on the cards ("Bowled if good length").
    pub fn card_phrase(self) -> &'static str {
        match self {
            Delivery::GoodLength => "good length",
            Delivery::Yorker => "yorker",
            Delivery::Bouncer => "bouncer",
            Delivery::Googly => "googly",
            Delivery::HalfVolley => "half volley",
            Delivery::FullToss => "full toss",
            Delivery::LongHop => "long hop",
            Delivery::NoBall => "no ball",
            Delivery::Wide => "wide",
        }
    }

    pub fn from_card_phrase(phrase: &str) -> Option<Delivery> {
        ALL_DELIVERIES.into_iter().find(|d| d.card_phrase() == phrase)
    }
}

pub const ALL_DELIVERIES: [Delivery; 9] = [
    Delivery::GoodLength,
    Delivery::Yorker,
    Delivery::Bouncer,
    Delivery::Googly,
    Delivery::HalfVolley,
    Delivery::FullToss,
    Delivery::LongHop,
    Delivery::NoBall,
    Delivery::Wide,
];

/// Which segment a spin landed on, given the index `Dice::weighted` drew over the ruleset's
/// weights. Kept apart from the draw so tests can name the exact segment.
pub fn spin(segments: &[Segment], index: usize, style: Style) -> Delivery {
    segments
        .get(index)
        .copied()
        .unwrap_or(Segment::GoodLength)
        .delivery(style)
}
