//! A toy game, defined only in the tests, that the server runs without knowing it: proof
//! that the server is generic over `Game`. Each round both seats pick 1-3 in secret (a
//! sealed simultaneous choice); when both have picked, the picks are revealed and a d6 is
//! rolled for the seat that picked lower. Highest total after `rounds` rounds wins.

use crease::rules::{
    BotPolicy, Dice, Emitter, Game, GameExtras, Listing, Outcome, Reject, RejectKind, Seat, SetupError,
    Viewer,
};
use serde::{Deserialize, Serialize};

pub struct Toy;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct ToyOptions {
    pub rounds: u8,
}

impl Default for ToyOptions {
    fn default() -> Self {
        ToyOptions { rounds: 3 }
    }
}

#[derive(Clone, Debug)]
pub struct ToyState {
    rounds: u8,
    round: u8,
    started: bool,
    picks: [Option<u8>; 2],
    totals: [u32; 2],
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum ToyCommand {
    Pick { value: u8 },
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ToyEvent {
    /// The start rolls a die so even the start draws from the seed.
    Started { toss: u8 },
    /// Sealed: only the picker sees `value` before the reveal.
    Picked { seat: Seat, value: Option<u8> },
    Revealed {
        picks: [u8; 2],
        roll: u8,
        totals: [u32; 2],
    },
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct ToyView {
    pub seat: Option<Seat>,
    pub round: u8,
    pub rounds: u8,
    pub totals: [u32; 2],
    pub my_pick: Option<u8>,
    pub picked: [bool; 2],
    pub pending: Vec<Seat>,
}

#[derive(Clone, Debug, PartialEq, Serialize, thiserror::Error)]
pub enum ToyReject {
    #[error("the pick must be 1, 2 or 3, not {0}")]
    OutOfRange(u8),
    #[error("you already picked this round")]
    AlreadyPicked,
    #[error("the match is over")]
    Over,
}

impl Reject for ToyReject {
    fn kind(&self) -> RejectKind {
        match self {
            ToyReject::OutOfRange(_) => RejectKind::IllegalMove,
            ToyReject::AlreadyPicked => RejectKind::NotYourTurn,
            ToyReject::Over => RejectKind::MatchOver,
        }
    }
    fn reason(&self) -> &'static str {
        match self {
            ToyReject::OutOfRange(_) => "pick_out_of_range",
            ToyReject::AlreadyPicked => "already_picked",
            ToyReject::Over => "match_over",
        }
    }
}

fn over(state: &ToyState) -> bool {
    state.round > state.rounds
}

impl Game for Toy {
    const ID: &'static str = "toy";
    /// Compact JSON: a pick is a few bytes.
    const MAX_COMMAND_BYTES: usize = 256;
    type Options = ToyOptions;
    type State = ToyState;
    type Command = ToyCommand;
    type Event = ToyEvent;
    type View = ToyView;
    type Reject = ToyReject;

    fn seat_count(_: &ToyOptions) -> Result<u8, SetupError> {
        Ok(2)
    }

    fn initial_state(options: &ToyOptions) -> Result<ToyState, SetupError> {
        if options.rounds == 0 {
            return Err(SetupError("rounds must be at least 1".into()));
        }
        Ok(ToyState {
            rounds: options.rounds,
            round: 1,
            started: false,
            picks: [None, None],
            totals: [0, 0],
        })
    }

    fn start(emitter: &mut Emitter<'_, Toy>) {
        let toss = emitter.dice().roll(6);
        emitter.emit(ToyEvent::Started { toss });
    }

    fn decide(emitter: &mut Emitter<'_, Toy>, seat: Seat, command: &ToyCommand) -> Result<(), ToyReject> {
        let state = emitter.state();
        if over(state) {
            return Err(ToyReject::Over);
        }
        let ToyCommand::Pick { value } = *command;
        if !(1..=3).contains(&value) {
            return Err(ToyReject::OutOfRange(value));
        }
        if state.picks[seat.index()].is_some() {
            return Err(ToyReject::AlreadyPicked);
        }
        let other = state.picks[1 - seat.index()];
        let before = state.totals;
        emitter.emit(ToyEvent::Picked {
            seat,
            value: Some(value),
        });
        if let Some(other) = other {
            let mut picks = [0u8; 2];
            picks[seat.index()] = value;
            picks[1 - seat.index()] = other;
            let roll = emitter.dice().roll(6);
            let mut totals = before;
            totals[0] += u32::from(picks[0]);
            totals[1] += u32::from(picks[1]);
            if picks[0] < picks[1] {
                totals[0] += u32::from(roll);
            } else if picks[1] < picks[0] {
                totals[1] += u32::from(roll);
            }
            emitter.emit(ToyEvent::Revealed { picks, roll, totals });
        }
        Ok(())
    }

    fn apply(state: &mut ToyState, event: &ToyEvent) {
        match event {
            ToyEvent::Started { .. } => state.started = true,
            ToyEvent::Picked { seat, value } => state.picks[seat.index()] = *value,
            ToyEvent::Revealed { totals, .. } => {
                state.totals = *totals;
                state.picks = [None, None];
                state.round += 1;
            }
        }
    }

    fn view(state: &ToyState, viewer: Viewer) -> ToyView {
        let seat = match viewer {
            Viewer::Seat(seat) => Some(seat),
            Viewer::Spectator => None,
        };
        ToyView {
            seat,
            round: state.round,
            rounds: state.rounds,
            totals: state.totals,
            my_pick: seat.and_then(|seat| state.picks[seat.index()]),
            picked: [state.picks[0].is_some(), state.picks[1].is_some()],
            pending: Self::pending(state),
        }
    }

    fn redact(_: &ToyState, event: &ToyEvent, viewer: Viewer) -> Option<ToyEvent> {
        match event {
            ToyEvent::Picked { seat, .. } if viewer != Viewer::Seat(*seat) => Some(ToyEvent::Picked {
                seat: *seat,
                value: None,
            }),
            other => Some(other.clone()),
        }
    }

    fn pending(state: &ToyState) -> Vec<Seat> {
        if over(state) || !state.started {
            return Vec::new();
        }
        (0..2u8)
            .filter(|seat| state.picks[usize::from(*seat)].is_none())
            .map(Seat)
            .collect()
    }

    fn default_command(state: &ToyState, seat: Seat) -> Option<ToyCommand> {
        Self::pending(state)
            .contains(&seat)
            .then_some(ToyCommand::Pick { value: 1 })
    }

    fn bot_command(view: &ToyView, _: BotPolicy, rng: &mut Dice) -> Option<ToyCommand> {
        let seat = view.seat?;
        view.pending
            .contains(&seat)
            .then(|| ToyCommand::Pick { value: rng.roll(3) })
    }

    fn outcome(state: &ToyState) -> Option<Outcome> {
        if !over(state) {
            return None;
        }
        let [a, b] = state.totals;
        let placings = match a.cmp(&b) {
            std::cmp::Ordering::Greater => vec![1, 2],
            std::cmp::Ordering::Less => vec![2, 1],
            std::cmp::Ordering::Equal => vec![1, 1],
        };
        Some(Outcome {
            placings,
            summary: format!("{a} to {b}"),
        })
    }
}

/// Only the listing: every other extra keeps its default (no scorecard, one rating pool),
/// which is what a game that has just its rules gets.
impl GameExtras for Toy {
    const LISTING: Listing = Listing {
        name: "Toy",
        players: "2 players",
        blurb: "Pick 1-3 in secret; the lower pick rolls a die.",
    };
}
