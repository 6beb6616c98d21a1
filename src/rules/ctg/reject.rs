//! Why a command was refused: one variant per reason, each with a sentence.

use super::field::FieldError;
use super::state::Phase;
use crate::rules::{Reject, RejectKind};
use serde::Serialize;

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error, Serialize)]
#[serde(tag = "reason", rename_all = "snake_case")]
pub enum CtgReject {
    #[error("the match is over")]
    MatchOver,
    #[error("it is not your turn: the game waits for {waiting_for:?}")]
    NotYourTurn { waiting_for: Phase },
    #[error("that command does not answer what is asked now ({asked:?})")]
    WrongCommand { asked: Phase },
    #[error("you have already made your sealed choice")]
    AlreadySealed,
    #[error("player {0} is not in the squad")]
    NoSuchPlayer(u8),
    #[error("only a Pace or a Spin specialist bowler may be dropped")]
    DropNotPaceOrSpin,
    #[error("the batting order must list each of the other 11 players exactly once")]
    BadBattingOrder,
    #[error("player {0} cannot bowl")]
    NotABowler(u8),
    #[error("player {0} was dropped from the eleven")]
    PlayerDropped(u8),
    #[error("player {0} bowled the last over and cannot bowl two in a row")]
    BowlerBowledLastOver(u8),
    #[error("player {0} has bowled the maximum overs for this format")]
    BowlerOverCap(u8),
    #[error("with player {0} bowling now, the innings could not be completed by the remaining bowlers")]
    WouldLeaveNoBowler(u8),
    #[error("player {0} has already batted or is batting")]
    BatterNotAvailable(u8),
    #[error("the two openers must be different players")]
    SameBatterTwice,
    #[error("illegal field: {0}")]
    IllegalField(FieldError),
    #[error("card {0} is not in the bowler's hand")]
    CardNotInHand(u8),
    #[error("zone {0} is not a shot zone (1-5)")]
    NoSuchZone(u8),
    #[error("that skill card is used up or its condition does not hold")]
    SkillUnavailable,
    #[error("no Power Play is available in this over")]
    PowerPlayUnavailable,
    #[error("that re-roll card is used up")]
    RerollUnavailable,
    #[error("adding 1 to the distance is only allowed against Pace after a strike by 3 or more")]
    AddOneUnavailable,
    #[error("that way of taking the wicket is not available on this ball")]
    MissOptionUnavailable,
}

impl Reject for CtgReject {
    fn kind(&self) -> RejectKind {
        match self {
            CtgReject::MatchOver => RejectKind::MatchOver,
            CtgReject::NotYourTurn { .. } => RejectKind::NotYourTurn,
            _ => RejectKind::IllegalMove,
        }
    }

    fn reason(&self) -> &'static str {
        match self {
            CtgReject::MatchOver => "match_over",
            CtgReject::NotYourTurn { .. } => "not_your_turn",
            CtgReject::WrongCommand { .. } => "wrong_command",
            CtgReject::AlreadySealed => "already_sealed",
            CtgReject::NoSuchPlayer(_) => "no_such_player",
            CtgReject::DropNotPaceOrSpin => "drop_not_pace_or_spin",
            CtgReject::BadBattingOrder => "bad_batting_order",
            CtgReject::NotABowler(_) => "not_a_bowler",
            CtgReject::PlayerDropped(_) => "player_dropped",
            CtgReject::BowlerBowledLastOver(_) => "bowler_bowled_last_over",
            CtgReject::BowlerOverCap(_) => "bowler_over_cap",
            CtgReject::WouldLeaveNoBowler(_) => "would_leave_no_bowler",
            CtgReject::BatterNotAvailable(_) => "batter_not_available",
            CtgReject::SameBatterTwice => "same_batter_twice",
            CtgReject::IllegalField(_) => "illegal_field",
            CtgReject::CardNotInHand(_) => "card_not_in_hand",
            CtgReject::NoSuchZone(_) => "no_such_zone",
            CtgReject::SkillUnavailable => "skill_unavailable",
            CtgReject::PowerPlayUnavailable => "power_play_unavailable",
            CtgReject::RerollUnavailable => "reroll_unavailable",
            CtgReject::AddOneUnavailable => "add_one_unavailable",
            CtgReject::MissOptionUnavailable => "miss_option_unavailable",
        }
    }
}
