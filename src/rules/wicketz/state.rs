//! The match state and how events fold into it. `apply` never fails and never draws dice:
//! every chance outcome arrives inside an event.

use super::data::ruleset;
use super::events::{Ball, Event, HowOut};
use super::field::Field;
use super::indicator::{Delivery, Style};
use super::options::{FieldingRestriction, Options};
use super::strokes::{Line, Stroke};
use crate::rules::{Outcome, Seat};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, VecDeque};

pub const BALLS_PER_OVER: u8 = 6;
pub const BATTERS: u8 = 11;
pub const ALL_OUT: u8 = 10;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// Before `start`: nothing shuffled, no toss.
    NotStarted,
    /// The toss winner chooses to bat or bowl.
    AwaitToss,
    /// The bowling side picks pace/spin (and line) and may move fielders.
    AwaitOverSetup,
    /// The batting side has seen the delivery and nominates a stroke.
    AwaitStroke,
    Finished,
}

#[derive(Clone, Debug, PartialEq, Eq, Default, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Batter {
    pub runs: u32,
    pub balls: u32,
    pub out: Option<HowOut>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Innings {
    /// 1-based, in match order.
    pub number: u8,
    pub batting: Seat,
    pub runs: u32,
    pub wickets: u8,
    pub legal_balls: u32,
    pub extras: u32,
    /// Batting-order indices (0 = batter no. 1) of the two batters in.
    pub striker: u8,
    pub non_striker: u8,
    pub next_batter: u8,
    pub batters: Vec<Batter>,
    pub merit: Option<String>,
    pub closed: bool,
}

impl Innings {
    pub fn new(number: u8, batting: Seat) -> Innings {
        Innings {
            number,
            batting,
            runs: 0,
            wickets: 0,
            legal_balls: 0,
            extras: 0,
            striker: 0,
            non_striker: 1,
            next_batter: 2,
            batters: vec![Batter::default(); usize::from(BATTERS)],
            merit: None,
            closed: false,
        }
    }

    pub fn overs_completed(&self) -> u32 {
        self.legal_balls / u32::from(BALLS_PER_OVER)
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Over {
    /// 0-based over of the innings.
    pub number: u16,
    pub style: Style,
    pub line: Line,
    /// The pre-spin of an off/leg line: `Some(true)` red (good), `Some(false)` black (strays).
    pub line_good: Option<bool>,
    pub legal_balls: u8,
    /// Everything added to the score in this over, extras included (for the wild card).
    pub runs: u32,
    pub wild_card: Option<u16>,
    pub wild_card_used: bool,
}

impl Over {
    /// The line that restricts attacking strokes, when it was declared and spun good.
    pub fn restricting_line(&self) -> Option<Line> {
        (self.line_good == Some(true)).then_some(self.line)
    }

    pub fn wild_card_available(&self) -> Option<u16> {
        self.wild_card.filter(|_| !self.wild_card_used)
    }
}

/// The strokes the side batting now has played in this innings, by whether the delivery
/// commanded respect. Public (both sides saw every stroke); a bowler reads the batter's habits
/// from it. Maps with only the strokes played, so a protocol 2 patch per ball is one count.
#[derive(Clone, Debug, PartialEq, Eq, Default, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Habits {
    /// Strokes to good lengths, yorkers, bouncers and googlies.
    pub respect: BTreeMap<Stroke, u16>,
    /// Strokes to half volleys, full tosses, long hops and no-balls.
    pub loose: BTreeMap<Stroke, u16>,
}

impl Habits {
    /// The counts for deliveries like `delivery`.
    pub fn for_delivery(&self, delivery: Delivery) -> &BTreeMap<Stroke, u16> {
        if delivery.commands_respect() {
            &self.respect
        } else {
            &self.loose
        }
    }

    fn count(&mut self, stroke: Stroke, delivery: Delivery) {
        let counts = if delivery.commands_respect() {
            &mut self.respect
        } else {
            &mut self.loose
        };
        *counts.entry(stroke).or_default() += 1;
    }
}

#[derive(Clone, Debug)]
pub struct State {
    pub options: Options,
    pub phase: Phase,
    pub toss_winner: Option<Seat>,
    pub batting_first: Option<Seat>,
    pub innings: Vec<Innings>,
    /// Card ids, front = next dealt. Never leaves the server.
    pub dispenser: VecDeque<u16>,
    /// Cards at the front not dealt since the last shuffle.
    pub fresh: usize,
    /// Cards out of the box this over; they go to the rear when it ends.
    pub out_this_over: Vec<u16>,
    /// The bowling side's field.
    pub field: Field,
    pub over: Option<Over>,
    /// The bowling side's style in its latest over (kept between overs for the timeout default).
    pub last_style: Option<Style>,
    pub delivery: Option<Delivery>,
    pub last_ball: Option<Ball>,
    /// The last over added few enough runs for the batter to draw a wild card.
    pub wild_card_due: bool,
    /// The batting side's strokes in the current innings.
    pub habits: Habits,
    pub outcome: Option<Outcome>,
}

impl State {
    pub fn new(options: Options) -> State {
        State {
            options,
            phase: Phase::NotStarted,
            toss_winner: None,
            batting_first: None,
            innings: Vec::new(),
            dispenser: VecDeque::new(),
            fresh: 0,
            out_this_over: Vec::new(),
            field: ruleset().default_field(Style::Pace),
            over: None,
            last_style: None,
            delivery: None,
            last_ball: None,
            wild_card_due: false,
            habits: Habits::default(),
            outcome: None,
        }
    }

    pub fn current(&self) -> Option<&Innings> {
        self.innings.last().filter(|i| !i.closed)
    }

    fn current_mut(&mut self) -> Option<&mut Innings> {
        self.innings.last_mut().filter(|i| !i.closed)
    }

    pub fn batting_seat(&self) -> Option<Seat> {
        self.current().map(|i| i.batting)
    }

    pub fn bowling_seat(&self) -> Option<Seat> {
        self.batting_seat().map(other)
    }

    pub fn total_innings(&self) -> usize {
        2 * usize::from(self.options.innings_per_side)
    }

    /// Match runs of a seat over all its innings.
    pub fn total_of(&self, seat: Seat) -> u32 {
        self.innings
            .iter()
            .filter(|i| i.batting == seat)
            .map(|i| i.runs)
            .sum()
    }

    /// In the last innings, the runs the batting side needs in it to win: the opponent's
    /// match total plus one, less what this side made in its earlier innings.
    /// Spec `../shared/rules/wicketz.md` (corrections): in two-innings matches the side batting
    /// last chases the aggregate, "target = opponent's two innings + 1 - its own first innings".
    /// 0 when that side already leads.
    pub fn target(&self) -> Option<u32> {
        let innings = self.current()?;
        if self.innings.len() != self.total_innings() {
            return None;
        }
        Some(self.aggregate_target(innings.batting))
    }

    /// The runs `chaser` needs in its last innings to pass the other side's match total,
    /// given the innings already closed (0 if it leads already).
    pub fn aggregate_target(&self, chaser: Seat) -> u32 {
        let earlier: u32 = self
            .innings
            .iter()
            .filter(|i| i.batting == chaser && i.closed)
            .map(|i| i.runs)
            .sum();
        (self.total_of(other(chaser)) + 1).saturating_sub(earlier)
    }

    /// Restricted field in over `number` (0-based): the allowed count outside rings 0-1.
    pub fn restriction_for(&self, number: u16) -> Option<u8> {
        let (overs, max) = match self.options.fielding_restriction {
            FieldingRestriction::Off => return None,
            FieldingRestriction::Scaled => {
                let data = ruleset();
                (
                    data.scaled_restriction_overs(self.options.overs),
                    data.fielding_restriction.max_outside_inner,
                )
            }
            FieldingRestriction::Agreed {
                overs,
                max_outside_inner,
            } => (overs, max_outside_inner),
        };
        (number < overs).then_some(max)
    }

    /// The over the bowling side is about to set (0-based).
    pub fn next_over_number(&self) -> u16 {
        self.current().map_or(0, |i| i.overs_completed() as u16)
    }

    /// The cards the next deal comes from, in no order: the cards not dealt since the last
    /// shuffle, or, once all have been dealt, the whole dispenser (the next deal reshuffles
    /// it, or under [`Reshuffle::SeedOnly`](super::options::Reshuffle) recycles it). Every
    /// dealt card is face up, so this is public; the order is not.
    pub fn cards_to_come(&self) -> Vec<u16> {
        let from = if self.fresh > 0 {
            self.fresh
        } else {
            self.dispenser.len()
        };
        self.dispenser.iter().take(from).copied().collect()
    }

    fn take_card(&mut self, card: u16) {
        if self.dispenser.front() == Some(&card) {
            self.dispenser.pop_front();
        } else {
            self.dispenser.retain(|c| *c != card);
        }
        self.fresh = self.fresh.saturating_sub(1).min(self.dispenser.len());
        self.out_this_over.push(card);
    }

    fn return_cards_to_rear(&mut self) {
        let cards = std::mem::take(&mut self.out_this_over);
        self.dispenser.extend(cards);
    }

    pub fn apply(&mut self, event: &Event) {
        match event {
            Event::DispenserShuffled { order } => {
                self.out_this_over.retain(|c| !order.contains(c));
                self.dispenser = order.iter().copied().collect();
                self.fresh = self.dispenser.len();
            }
            Event::TossWon { seat } => {
                self.toss_winner = Some(*seat);
                self.phase = Phase::AwaitToss;
            }
            Event::InningsChosen { batting_first } => self.batting_first = Some(*batting_first),
            Event::InningsOpened { number, batting } => {
                self.innings.push(Innings::new(*number, *batting));
                self.field = ruleset().default_field(Style::Pace);
                self.over = None;
                self.last_style = None;
                self.delivery = None;
                self.wild_card_due = false;
                self.habits = Habits::default();
                self.phase = Phase::AwaitOverSetup;
            }
            Event::OverStarted {
                number,
                style,
                line,
                field,
            } => {
                self.field = field.clone();
                self.last_style = Some(*style);
                self.over = Some(Over {
                    number: *number,
                    style: *style,
                    line: *line,
                    line_good: None,
                    legal_balls: 0,
                    runs: 0,
                    wild_card: None,
                    wild_card_used: false,
                });
            }
            Event::LineSpun { good } => {
                if let Some(over) = &mut self.over {
                    over.line_good = Some(*good);
                }
            }
            Event::WildCardDrawn { card } => {
                self.take_card(*card);
                if let Some(over) = &mut self.over {
                    over.wild_card = Some(*card);
                }
            }
            Event::Delivered { delivery } => {
                self.delivery = Some(*delivery);
                self.phase = Phase::AwaitStroke;
            }
            Event::CardDealt { card } => self.take_card(*card),
            Event::BallCompleted { ball } => self.apply_ball(ball),
            Event::OverCompleted { runs, .. } => {
                self.return_cards_to_rear();
                // Seed: "Following an over in which only two runs or less have been added".
                self.wild_card_due = *runs <= ruleset().wild_card_max_over_runs;
                self.over = None;
                if let Some(innings) = self.current_mut() {
                    std::mem::swap(&mut innings.striker, &mut innings.non_striker);
                }
                self.phase = Phase::AwaitOverSetup;
            }
            Event::InningsClosed { merit, .. } => {
                self.return_cards_to_rear();
                if let Some(innings) = self.current_mut() {
                    innings.merit = Some(merit.clone());
                    innings.closed = true;
                }
                self.over = None;
                self.delivery = None;
            }
            Event::MatchFinished { outcome } => {
                self.outcome = Some(outcome.clone());
                self.phase = Phase::Finished;
            }
        }
    }

    fn apply_ball(&mut self, ball: &Ball) {
        self.delivery = None;
        self.last_ball = Some(ball.clone());
        if let Some(stroke) = ball.stroke {
            self.habits.count(stroke, ball.delivery);
        }
        let added = u32::from(ball.bat_runs) + u32::from(ball.byes) + u32::from(ball.extras);
        if let Some(over) = &mut self.over {
            over.runs += added;
            over.legal_balls += u8::from(ball.legal);
            over.wild_card_used |= ball.wild_card;
        }
        let Some(innings) = self.current_mut() else {
            return;
        };
        innings.runs += added;
        innings.extras += u32::from(ball.byes) + u32::from(ball.extras);
        innings.legal_balls += u32::from(ball.legal);
        if let Some(batter) = innings.batters.get_mut(usize::from(ball.striker)) {
            batter.runs += u32::from(ball.bat_runs);
            batter.balls += u32::from(ball.stroke.is_some());
        }
        if let Some(dismissal) = &ball.dismissal {
            innings.wickets += 1;
            if let Some(batter) = innings.batters.get_mut(usize::from(dismissal.batter)) {
                batter.out = Some(dismissal.how);
            }
            if innings.wickets < ALL_OUT {
                let incoming = innings.next_batter;
                innings.next_batter += 1;
                if innings.striker == dismissal.batter {
                    innings.striker = incoming;
                } else {
                    innings.non_striker = incoming;
                }
            }
        }
        // Seed: "When an odd number of runs is scored (including byes and leg-byes, but not
        // wides and no-balls) ... the batsmen will change ends."
        if (ball.bat_runs + ball.byes) % 2 == 1 {
            std::mem::swap(&mut innings.striker, &mut innings.non_striker);
        }
    }
}

pub fn other(seat: Seat) -> Seat {
    Seat(1 - seat.0.min(1))
}
