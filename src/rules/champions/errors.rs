//! Why a command was refused, one variant per reason.

use crate::rules::{Reject, RejectKind};
use serde::Serialize;

#[derive(Clone, Debug, PartialEq, Eq, Serialize, thiserror::Error)]
#[serde(rename_all = "snake_case", tag = "reason")]
pub enum ChampionsReject {
    #[error("the match is over")]
    MatchOver,
    #[error("the game is not waiting for this seat now")]
    NotYourTurn,
    #[error("no such seat at this table")]
    NoSuchSeat,
    #[error("dice are not being rolled now: it is the buying phase")]
    NotRollingNow,
    #[error("cards can only be bought in the buying phase")]
    NotBuyingNow,
    #[error("the first roll of a turn rolls all dice: send an empty list")]
    FirstRollRollsAll,
    #[error("no rolls left this turn ({limit} used): stop instead")]
    NoRollsLeft { limit: u32 },
    #[error("roll the dice before stopping")]
    NotRolledYet,
    #[error("name at least one die to re-roll, or stop")]
    NothingToReroll,
    #[error("there is no die {die} (dice are numbered 0 to {last})")]
    DieOutOfRange { die: u8, last: u8 },
    #[error("die {die} is listed twice")]
    DieListedTwice { die: u8 },
    #[error("you do not own the Xp card {card}")]
    CardNotOwned { card: String },
    #[error("the {colour} card {card} cannot be used while {role}")]
    ColourNotUsableNow {
        card: String,
        colour: String,
        role: String,
    },
    #[error("the card {card} works by itself: it needs no choice")]
    PowerNeedsNoChoice { card: String },
    #[error("the card {card} is not used that way")]
    PowerKindMismatch { card: String },
    #[error("the card {card} can be used once per over")]
    PowerUsedTwice { card: String },
    #[error("that power costs {needed} Xp and you have {have}")]
    CannotAffordPower { needed: u32, have: u32 },
    #[error("the card {card} is not in the market")]
    CardNotInMarket { card: String },
    #[error("the card costs {cost} Xp and you have {have}")]
    CannotAffordCard { cost: u32, have: u32 },
}

impl Reject for ChampionsReject {
    fn kind(&self) -> RejectKind {
        match self {
            ChampionsReject::MatchOver => RejectKind::MatchOver,
            ChampionsReject::NotYourTurn | ChampionsReject::NoSuchSeat => RejectKind::NotYourTurn,
            _ => RejectKind::IllegalMove,
        }
    }

    fn reason(&self) -> &'static str {
        match self {
            ChampionsReject::MatchOver => "match_over",
            ChampionsReject::NotYourTurn => "not_your_turn",
            ChampionsReject::NoSuchSeat => "no_such_seat",
            ChampionsReject::NotRollingNow => "not_rolling_now",
            ChampionsReject::NotBuyingNow => "not_buying_now",
            ChampionsReject::FirstRollRollsAll => "first_roll_rolls_all",
            ChampionsReject::NoRollsLeft { .. } => "no_rolls_left",
            ChampionsReject::NotRolledYet => "not_rolled_yet",
            ChampionsReject::NothingToReroll => "nothing_to_reroll",
            ChampionsReject::DieOutOfRange { .. } => "die_out_of_range",
            ChampionsReject::DieListedTwice { .. } => "die_listed_twice",
            ChampionsReject::CardNotOwned { .. } => "card_not_owned",
            ChampionsReject::ColourNotUsableNow { .. } => "colour_not_usable_now",
            ChampionsReject::PowerNeedsNoChoice { .. } => "power_needs_no_choice",
            ChampionsReject::PowerKindMismatch { .. } => "power_kind_mismatch",
            ChampionsReject::PowerUsedTwice { .. } => "power_used_twice",
            ChampionsReject::CannotAffordPower { .. } => "cannot_afford_power",
            ChampionsReject::CardNotInMarket { .. } => "card_not_in_market",
            ChampionsReject::CannotAffordCard { .. } => "cannot_afford_card",
        }
    }
}
