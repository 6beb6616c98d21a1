//! The batter's choices.
//!
//! Seed: 002_5b76236006f2f885.txt "Of these twelve strokes, nine are attacking and three are
//! defensive" and "Avoiding Action can be declared as an alternative to a batting stroke but only
//! when a bouncer has been bowled." The stroke names are [ASSUMED]; display names and cue
//! directions are ruleset data.

use super::indicator::Delivery;
use serde::{Deserialize, Serialize};

#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, schemars::JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum Stroke {
    Cut,
    SquareCut,
    CoverDrive,
    OffDrive,
    StraightDrive,
    OnDrive,
    Pull,
    Hook,
    LegGlance,
    ForwardDefence,
    BackDefence,
    Leave,
    AvoidingAction,
}

/// The rows of a card, in printed order: twelve strokes, then Avoiding Action.
pub const CARD_ROWS: [Stroke; 13] = [
    Stroke::Cut,
    Stroke::SquareCut,
    Stroke::CoverDrive,
    Stroke::OffDrive,
    Stroke::StraightDrive,
    Stroke::OnDrive,
    Stroke::Pull,
    Stroke::Hook,
    Stroke::LegGlance,
    Stroke::ForwardDefence,
    Stroke::BackDefence,
    Stroke::Leave,
    Stroke::AvoidingAction,
];

/// The bowler's declared line for an over (advanced option "Bowling Variations").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Line {
    /// On the wicket with a split field: no stroke restriction.
    #[default]
    Wicket,
    OffSide,
    LegSide,
}

impl Stroke {
    /// The row index of this stroke on a card.
    pub fn row(self) -> usize {
        self as usize
    }

    /// Seed: the three defensive strokes are always allowed, whatever the line.
    pub fn is_defensive(self) -> bool {
        matches!(self, Stroke::ForwardDefence | Stroke::BackDefence | Stroke::Leave)
    }

    pub fn is_attacking(self) -> bool {
        !self.is_defensive() && self != Stroke::AvoidingAction
    }

    pub fn snake_name(self) -> &'static str {
        match self {
            Stroke::Cut => "cut",
            Stroke::SquareCut => "square_cut",
            Stroke::CoverDrive => "cover_drive",
            Stroke::OffDrive => "off_drive",
            Stroke::StraightDrive => "straight_drive",
            Stroke::OnDrive => "on_drive",
            Stroke::Pull => "pull",
            Stroke::Hook => "hook",
            Stroke::LegGlance => "leg_glance",
            Stroke::ForwardDefence => "forward_defence",
            Stroke::BackDefence => "back_defence",
            Stroke::Leave => "leave",
            Stroke::AvoidingAction => "avoiding_action",
        }
    }

    /// Seed: 002_5b76236006f2f885.txt "Providing the line is good then the only attacking strokes
    /// the batsmen can play are: Leg Side Deliveries: Leg Glance, Hook, Pull, On-Drive, Straight
    /// Drive; Off Side Deliveries: Cut, Square Cut, Cover Drive, Off Drive, Straight Drive".
    pub fn allowed_on_good_line(self, line: Line) -> bool {
        if !self.is_attacking() {
            return true;
        }
        match line {
            Line::Wicket => true,
            Line::LegSide => matches!(
                self,
                Stroke::LegGlance | Stroke::Hook | Stroke::Pull | Stroke::OnDrive | Stroke::StraightDrive
            ),
            Line::OffSide => matches!(
                self,
                Stroke::Cut
                    | Stroke::SquareCut
                    | Stroke::CoverDrive
                    | Stroke::OffDrive
                    | Stroke::StraightDrive
            ),
        }
    }
}

/// Why a stroke may not be played to this ball.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StrokeRefusal {
    AvoidingActionNeedsBouncer,
    OffTheGoodLine,
}

/// `restricted_line` is the declared line when it was spun good, `None` otherwise.
pub fn check_stroke(
    stroke: Stroke,
    delivery: Delivery,
    restricted_line: Option<Line>,
) -> Result<(), StrokeRefusal> {
    if stroke == Stroke::AvoidingAction && delivery != Delivery::Bouncer {
        return Err(StrokeRefusal::AvoidingActionNeedsBouncer);
    }
    match restricted_line {
        Some(line) if !stroke.allowed_on_good_line(line) => Err(StrokeRefusal::OffTheGoodLine),
        _ => Ok(()),
    }
}

pub fn legal_strokes(delivery: Delivery, restricted_line: Option<Line>) -> Vec<Stroke> {
    CARD_ROWS
        .into_iter()
        .filter(|s| check_stroke(*s, delivery, restricted_line).is_ok())
        .collect()
}
