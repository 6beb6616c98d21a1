//! Why a command is refused: one variant per reason.

use super::field::FieldError;
use super::strokes::{Line, Stroke};
use crate::rules::{Reject, RejectKind, Seat};
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case", tag = "reason")]
pub enum WicketzReject {
    #[error("the match is over")]
    MatchOver,
    #[error("the match has not started")]
    NotStarted,
    #[error("the game is waiting for {awaited:?}, not this seat")]
    NotYourTurn { awaited: Vec<Seat> },
    #[error("the toss has already been decided")]
    NotTossTime,
    #[error("the bowling side sets the over only between overs")]
    NotBetweenOvers,
    #[error("a stroke is played only after a delivery has been bowled")]
    NoDeliveryToPlay,
    #[error("the field is not legal: {0}")]
    IllegalField(FieldError),
    #[error("a {line:?} line needs the bowling variations option")]
    BowlingVariationsOff { line: Line },
    #[error("Avoiding Action is allowed only against a bouncer")]
    AvoidingActionOnlyAgainstBouncer,
    #[error("{stroke:?} is not allowed while the {line:?} line is good")]
    StrokeOffTheLine { stroke: Stroke, line: Line },
    #[error("there is no wild card to use in this over")]
    NoWildCard,
    #[error("the wild card has already been used this over")]
    WildCardUsed,
}

impl Reject for WicketzReject {
    fn kind(&self) -> RejectKind {
        match self {
            WicketzReject::MatchOver => RejectKind::MatchOver,
            WicketzReject::NotYourTurn { .. } => RejectKind::NotYourTurn,
            _ => RejectKind::IllegalMove,
        }
    }

    fn reason(&self) -> &'static str {
        match self {
            WicketzReject::MatchOver => "match_over",
            WicketzReject::NotStarted => "not_started",
            WicketzReject::NotYourTurn { .. } => "not_your_turn",
            WicketzReject::NotTossTime => "not_toss_time",
            WicketzReject::NotBetweenOvers => "not_between_overs",
            WicketzReject::NoDeliveryToPlay => "no_delivery_to_play",
            WicketzReject::IllegalField(error) => match error {
                FieldError::KeeperMisplaced { .. } => "keeper_misplaced",
                FieldError::BowlerMisplaced { .. } => "bowler_misplaced",
                FieldError::WrongFielderCount { .. } => "wrong_fielder_count",
                FieldError::ZoneTakenTwice { .. } => "zone_taken_twice",
                FieldError::RestrictionBroken { .. } => "fielding_restriction_broken",
            },
            WicketzReject::BowlingVariationsOff { .. } => "bowling_variations_off",
            WicketzReject::AvoidingActionOnlyAgainstBouncer => "avoiding_action_only_against_bouncer",
            WicketzReject::StrokeOffTheLine { .. } => "stroke_off_the_line",
            WicketzReject::NoWildCard => "no_wild_card",
            WicketzReject::WildCardUsed => "wild_card_used",
        }
    }
}
