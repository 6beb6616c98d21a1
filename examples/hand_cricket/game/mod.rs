//! Hand Cricket, the playground game: each ball both players show one to six fingers at
//! once. Different numbers: the batter scores the batter's number. The same number: out.
//! After the toss one side bats until its wickets or overs are gone, then the other chases.
//!
//! Pure rules, as every game's are: no tokio, no clock. The fingers are a sealed choice: a
//! player's number is hidden from everyone else until both have shown (the `shown` event is
//! redacted), which is what the server's sealing is for.

mod extras;

use crease::rules::{BotPolicy, Dice, Emitter, Game, Outcome, Reject, RejectKind, Seat, SetupError, Viewer};
use serde::{Deserialize, Serialize};

pub struct HandCricket;

/// Fingers a hand can show.
const FINGERS: std::ops::RangeInclusive<u8> = 1..=6;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct Options {
    /// Overs of six balls per innings, 1 to 10.
    pub overs: u8,
    /// Wickets per innings, 1 to 5.
    pub wickets: u8,
}

impl Default for Options {
    fn default() -> Self {
        Options { overs: 2, wickets: 2 }
    }
}

/// One side's innings.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Score {
    pub runs: u32,
    pub wickets: u8,
    pub balls: u16,
}

#[derive(Clone, Debug)]
pub struct State {
    options: Options,
    /// Who bats first, once the toss is done.
    first: Option<Seat>,
    /// 0 or 1 while playing; 2 when the match is over.
    innings: u8,
    scores: [Score; 2],
    /// Sealed: what each seat has shown for this ball.
    shown: [Option<u8>; 2],
    last_ball: Option<Ball>,
}

impl State {
    fn batting(&self) -> Option<Seat> {
        let first = self.first?;
        match self.innings {
            0 => Some(first),
            1 => Some(Seat(1 - first.0)),
            _ => None,
        }
    }

    fn over(&self) -> bool {
        self.innings >= 2
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Command {
    Show { fingers: u8 },
}

/// A revealed ball.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Ball {
    /// 1 or 2.
    pub innings: u8,
    pub batting: Seat,
    pub batter_fingers: u8,
    pub bowler_fingers: u8,
    pub runs: u8,
    pub out: bool,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Event {
    /// The toss, a die roll: odd, seat 0 bats first.
    Tossed {
        bats_first: Seat,
    },
    /// A seat has shown its fingers; `fingers` only for that seat until the ball's reveal.
    Shown {
        seat: Seat,
        fingers: Option<u8>,
    },
    Bowled {
        ball: Ball,
    },
    /// An innings ended: wickets or overs ran out, or the chase passed the target.
    InningsClosed {
        innings: u8,
        score: Score,
    },
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct View {
    pub seat: Option<Seat>,
    pub options: Options,
    pub batting: Option<Seat>,
    /// 1 or 2 while playing; absent before the toss and after the match.
    pub innings: Option<u8>,
    /// By seat.
    pub scores: [Score; 2],
    /// Runs the chasing side needs to win, in the second innings.
    pub target: Option<u32>,
    /// What this seat has shown for this ball (hidden from everyone else).
    pub my_fingers: Option<u8>,
    /// Who has shown for this ball, by seat.
    pub shown: [bool; 2],
    pub last_ball: Option<Ball>,
    pub pending: Vec<Seat>,
}

#[derive(Clone, Debug, PartialEq, Serialize, thiserror::Error)]
pub enum HandReject {
    #[error("show one to six fingers, not {0}")]
    Fingers(u8),
    #[error("you have already shown for this ball")]
    AlreadyShown,
    #[error("the toss has not happened yet")]
    NotStarted,
    #[error("the match is over")]
    Over,
}

impl Reject for HandReject {
    fn kind(&self) -> RejectKind {
        match self {
            HandReject::Fingers(_) => RejectKind::IllegalMove,
            HandReject::AlreadyShown | HandReject::NotStarted => RejectKind::NotYourTurn,
            HandReject::Over => RejectKind::MatchOver,
        }
    }

    fn reason(&self) -> &'static str {
        match self {
            HandReject::Fingers(_) => "fingers_out_of_range",
            HandReject::AlreadyShown => "already_shown",
            HandReject::NotStarted => "not_started",
            HandReject::Over => "match_over",
        }
    }
}

impl Game for HandCricket {
    const ID: &'static str = "hand_cricket";
    const MAX_COMMAND_BYTES: usize = 128;
    type Options = Options;
    type State = State;
    type Command = Command;
    type Event = Event;
    type View = View;
    type Reject = HandReject;

    fn seat_count(_: &Options) -> Result<u8, SetupError> {
        Ok(2)
    }

    fn initial_state(options: &Options) -> Result<State, SetupError> {
        if !(1..=10).contains(&options.overs) {
            return Err(SetupError(format!(
                "overs must be 1 to 10, not {}",
                options.overs
            )));
        }
        if !(1..=5).contains(&options.wickets) {
            return Err(SetupError(format!(
                "wickets must be 1 to 5, not {}",
                options.wickets
            )));
        }
        Ok(State {
            options: options.clone(),
            first: None,
            innings: 0,
            scores: [Score::default(); 2],
            shown: [None, None],
            last_ball: None,
        })
    }

    fn start(emitter: &mut Emitter<'_, Self>) {
        let bats_first = Seat(u8::from(emitter.dice().roll(6).is_multiple_of(2)));
        emitter.emit(Event::Tossed { bats_first });
    }

    fn decide(emitter: &mut Emitter<'_, Self>, seat: Seat, command: &Command) -> Result<(), HandReject> {
        for event in ball_events(emitter.state(), seat, command)? {
            emitter.emit(event);
        }
        Ok(())
    }

    fn apply(state: &mut State, event: &Event) {
        match event {
            Event::Tossed { bats_first } => state.first = Some(*bats_first),
            Event::Shown { seat, fingers } => state.shown[seat.index()] = *fingers,
            Event::Bowled { ball } => {
                let score = &mut state.scores[ball.batting.index()];
                score.runs += u32::from(ball.runs);
                score.wickets += u8::from(ball.out);
                score.balls += 1;
                state.shown = [None, None];
                state.last_ball = Some(*ball);
            }
            Event::InningsClosed { .. } => state.innings += 1,
        }
    }

    fn view(state: &State, viewer: Viewer) -> View {
        let seat = match viewer {
            Viewer::Seat(seat) => Some(seat),
            Viewer::Spectator => None,
        };
        let target = (state.innings == 1)
            .then(|| state.first.map(|first| state.scores[first.index()].runs + 1))
            .flatten();
        View {
            seat,
            options: state.options.clone(),
            batting: state.batting(),
            innings: (state.first.is_some() && !state.over()).then_some(state.innings + 1),
            scores: state.scores,
            target,
            my_fingers: seat.and_then(|seat| state.shown[seat.index()]),
            shown: state.shown.map(|shown| shown.is_some()),
            last_ball: state.last_ball,
            pending: Self::pending(state),
        }
    }

    fn redact(_: &State, event: &Event, viewer: Viewer) -> Option<Event> {
        match event {
            Event::Shown { seat, .. } if viewer != Viewer::Seat(*seat) => Some(Event::Shown {
                seat: *seat,
                fingers: None,
            }),
            other => Some(other.clone()),
        }
    }

    fn pending(state: &State) -> Vec<Seat> {
        if state.over() || state.first.is_none() {
            return Vec::new();
        }
        [Seat(0), Seat(1)]
            .into_iter()
            .filter(|seat| state.shown[seat.index()].is_none())
            .collect()
    }

    fn default_command(state: &State, seat: Seat) -> Option<Command> {
        Self::pending(state)
            .contains(&seat)
            .then_some(Command::Show { fingers: 1 })
    }

    /// `random`: any number. `heuristic`: the batter leans to the big numbers (they score
    /// more), so the bowler leans to them too (that is where wickets are).
    fn bot_command(view: &View, policy: BotPolicy, rng: &mut Dice) -> Option<Command> {
        let seat = view.seat?;
        if !view.pending.contains(&seat) {
            return None;
        }
        let fingers = match policy {
            BotPolicy::Random => rng.roll(6),
            BotPolicy::Heuristic => 1 + rng.weighted(&[1, 1, 2, 3, 3, 4]) as u8,
        };
        Some(Command::Show { fingers })
    }

    fn outcome(state: &State) -> Option<Outcome> {
        if !state.over() {
            return None;
        }
        let first = state.first?;
        let second = Seat(1 - first.0);
        let (set, chase) = (state.scores[first.index()], state.scores[second.index()]);
        let (placings, summary) = match chase.runs.cmp(&set.runs) {
            std::cmp::Ordering::Greater => (
                place_first(second),
                format!(
                    "Seat {} won by {} wickets",
                    second.0,
                    state.options.wickets - chase.wickets
                ),
            ),
            std::cmp::Ordering::Less => (
                place_first(first),
                format!("Seat {} won by {} runs", first.0, set.runs - chase.runs),
            ),
            std::cmp::Ordering::Equal => (vec![1, 1], format!("Tie on {} runs", set.runs)),
        };
        Some(Outcome { placings, summary })
    }
}

/// The events of `seat` showing its fingers: the sealed show, and once both hands are out
/// the ball and, if it ends the innings, the close. Worked out from the state before any of
/// them, since the emitter folds each one as it goes.
fn ball_events(state: &State, seat: Seat, command: &Command) -> Result<Vec<Event>, HandReject> {
    let Command::Show { fingers } = *command;
    let batting = match (state.over(), state.batting()) {
        (true, _) => return Err(HandReject::Over),
        (false, None) => return Err(HandReject::NotStarted),
        (false, Some(batting)) => batting,
    };
    if !FINGERS.contains(&fingers) {
        return Err(HandReject::Fingers(fingers));
    }
    if state.shown[seat.index()].is_some() {
        return Err(HandReject::AlreadyShown);
    }
    let mut events = vec![Event::Shown {
        seat,
        fingers: Some(fingers),
    }];
    let Some(other) = state.shown[1 - seat.index()] else {
        return Ok(events);
    };
    let (batter_fingers, bowler_fingers) = if seat == batting {
        (fingers, other)
    } else {
        (other, fingers)
    };
    let out = batter_fingers == bowler_fingers;
    let ball = Ball {
        innings: state.innings + 1,
        batting,
        batter_fingers,
        bowler_fingers,
        runs: if out { 0 } else { batter_fingers },
        out,
    };
    events.push(Event::Bowled { ball });
    let mut score = state.scores[batting.index()];
    score.runs += u32::from(ball.runs);
    score.wickets += u8::from(out);
    score.balls += 1;
    let chased = state.innings == 1 && score.runs > state.scores[1 - batting.index()].runs;
    if score.wickets >= state.options.wickets || score.balls >= u16::from(state.options.overs) * 6 || chased {
        events.push(Event::InningsClosed {
            innings: state.innings + 1,
            score,
        });
    }
    Ok(events)
}

fn place_first(winner: Seat) -> Vec<u8> {
    let mut placings = vec![2, 2];
    placings[winner.index()] = 1;
    placings
}
