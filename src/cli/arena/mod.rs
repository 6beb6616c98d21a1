//! `crease arena <game>`: two policies against each other over many matches.
//!
//! Matches come in pairs on the same deal (the same match seed) with the seats swapped, so
//! neither policy profits from a seat or a lucky seed; every match is seeded from `--seed`,
//! so a run repeats exactly. The result is policy A's score (a win 1, a tie 1/2) with a
//! 95 % Wilson score interval, the interval that stays honest near 0 % and 100 % where the
//! normal approximation does not.

use crate::rules::{BotLevel, BotPolicy, Dice, Game, MatchCore, Outcome, Seat, Seed};
use clap::Subcommand;
use indicatif::{ProgressBar, ProgressStyle};
use serde::Serialize;
use std::io::IsTerminal;
use std::time::Instant;

pub mod champions;
pub mod ctg;
pub mod wicketz;

#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(subcommand)]
    pub game: GameArgs,
}

#[derive(Debug, Subcommand)]
pub enum GameArgs {
    /// Cricket: The Game.
    Ctg(ctg::Args),
    /// Wicketz.
    Wicketz(wicketz::Args),
    /// Cricket Champions, two players.
    Champions(champions::Args),
}

/// What every game's arena takes.
#[derive(Debug, clap::Args)]
pub struct Common {
    /// Policy A (see `--list`).
    #[arg(long, default_value = "heuristic")]
    pub a: String,
    /// Policy B (see `--list`).
    #[arg(long, default_value = "heuristic")]
    pub b: String,
    /// Number of matches, half with A in seat 0 and half with A in seat 1.
    #[arg(long, default_value_t = 2000)]
    pub matches: u64,
    /// Arena seed: the same seed and policies give the same result.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Print one JSON object instead of text (and no progress bar).
    #[arg(long)]
    pub json: bool,
    /// List this game's policies and exit.
    #[arg(long)]
    pub list: bool,
}

/// Why an arena could not run or a match could not be played.
#[derive(Debug, thiserror::Error)]
pub enum ArenaError {
    #[error("unknown policy `{name}` for {game}; known: {known}")]
    UnknownPolicy {
        game: &'static str,
        name: String,
        known: String,
    },
    #[error("the match options are invalid: {0}")]
    Setup(String),
    #[error("policy `{policy}` was refused a command: {detail}")]
    Refused { policy: String, detail: String },
    #[error("policy `{policy}` had no command when the game waited for it")]
    NoCommand { policy: String },
    #[error("a match did not finish within {0} commands")]
    Unfinished(u32),
    #[error("policy `{policy}` is not available for {game}: {why}")]
    NotForGame {
        policy: &'static str,
        game: &'static str,
        why: &'static str,
    },
}

/// A set of fixed exploit strategies of one game, selectable by name.
pub trait ExploitSet: Copy + 'static {
    /// The policies of issue 30 ([`Policy::HardSafe`], [`Policy::BestResponse`],
    /// [`Policy::Adaptive`]) this game's arena does not have, by name, each with why.
    const NOT_OFFERED: &'static [(&'static str, &'static str)] = &[];
    fn all() -> &'static [Self];
    fn name(self) -> &'static str;
    fn about(self) -> &'static str;
}

/// Implements [`ExploitSet`] for a game's `Exploit` enum from its own `ALL`, `name` and
/// `about`, which every game's exploits module provides.
macro_rules! exploit_set {
    ($exploit:ty) => {
        $crate::cli::arena::exploit_set!($exploit, &[]);
    };
    ($exploit:ty, $not_offered:expr) => {
        impl $crate::cli::arena::ExploitSet for $exploit {
            const NOT_OFFERED: &'static [(&'static str, &'static str)] = $not_offered;
            fn all() -> &'static [Self] {
                &<$exploit>::ALL
            }
            fn name(self) -> &'static str {
                <$exploit>::name(self)
            }
            fn about(self) -> &'static str {
                <$exploit>::about(self)
            }
        }
    };
}
pub(crate) use exploit_set;

/// A policy in the arena: one of the game's bots, or one of its fixed exploits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Policy<E> {
    Bot(BotPolicy),
    /// A level a player picks (`easy`, `normal`, `hard`), played as the server plays it:
    /// every game the arena plays has all three.
    Level(BotLevel),
    /// `hard` leaning on habits up to a bound (`--hard-bound`), to measure the trade.
    HardSafe,
    /// White-box: reads the other policy's own plan for the state (CTG: its distribution
    /// over a sealed choice, a function of public state; Wicketz: its field, and the cards
    /// to come) and plays the best reply to it; the other policy's choices elsewhere.
    BestResponse,
    /// Black-box: plays the best reply to the other side's observed frequencies over the
    /// whole series of matches (CTG: sealed choices; Wicketz: strokes, with the cards
    /// counted); `hard`'s choices elsewhere.
    Adaptive,
    Exploit(E),
}

/// The levels a player picks, by name, with what each plays.
const LEVELS: [(&str, BotLevel, &str); 3] = [
    (
        "easy",
        BotLevel::Easy,
        "the easy bot the server plays (a blend of hard and chance: data/<game>/bot_levels.json)",
    ),
    (
        "normal",
        BotLevel::Normal,
        "the normal bot the server plays, its default (a blend nearer hard: the same file)",
    ),
    (
        "hard",
        BotLevel::Hard,
        "the game's strongest bot, solved from the ruleset (docs/rules/<game>.md)",
    ),
];

/// The names and descriptions of the policies of issue 30, in [`Policy`]'s order.
const RESPONDERS: [(&str, &str); 3] = [
    (
        "hard-safe",
        "hard leaning toward habits up to --hard-bound runs a ball (by default hard's own bound)",
    ),
    (
        "best-response",
        "reads the other bot's own plan each choice and plays the best reply (white-box)",
    ),
    (
        "adaptive",
        "plays the best reply to the other side's frequencies observed over the series",
    ),
];

/// The bot policies every game has, by their arena names.
const BOT_POLICIES: [(&str, BotPolicy, &str); 2] = [
    (
        "random",
        BotPolicy::Random,
        "uniformly random among legal commands",
    ),
    (
        "heuristic",
        BotPolicy::Heuristic,
        "the heuristic policy (normal before issue 30)",
    ),
];

impl<E: ExploitSet> Policy<E> {
    pub fn parse(game: &'static str, name: &str) -> Result<Self, ArenaError> {
        if let Some((_, policy, _)) = BOT_POLICIES.iter().find(|(known, _, _)| *known == name) {
            return Ok(Policy::Bot(*policy));
        }
        if let Some((_, level, _)) = LEVELS.iter().find(|(known, _, _)| *known == name) {
            return Ok(Policy::Level(*level));
        }
        if let Some(index) = RESPONDERS.iter().position(|(known, _)| *known == name) {
            if let Some((policy, why)) = E::NOT_OFFERED.iter().find(|(policy, _)| *policy == name) {
                return Err(ArenaError::NotForGame { policy, game, why });
            }
            return Ok([Policy::HardSafe, Policy::BestResponse, Policy::Adaptive][index]);
        }
        E::all()
            .iter()
            .find(|exploit| exploit.name() == name)
            .map(|exploit| Policy::Exploit(*exploit))
            .ok_or_else(|| ArenaError::UnknownPolicy {
                game,
                name: name.to_string(),
                known: Self::names().join(", "),
            })
    }

    pub fn names() -> Vec<&'static str> {
        BOT_POLICIES
            .iter()
            .map(|(name, _, _)| *name)
            .chain(LEVELS.iter().map(|(name, _, _)| *name))
            .chain(Self::responders().map(|(name, _)| name))
            .chain(E::all().iter().map(|e| e.name()))
            .collect()
    }

    pub fn name(self) -> &'static str {
        match self {
            Policy::Bot(policy) => BOT_POLICIES
                .iter()
                .find(|(_, known, _)| *known == policy)
                .map_or("?", |(name, _, _)| *name),
            Policy::Level(level) => LEVELS
                .iter()
                .find(|(_, known, _)| *known == level)
                .map_or("?", |(name, _, _)| *name),
            Policy::HardSafe => RESPONDERS[0].0,
            Policy::BestResponse => RESPONDERS[1].0,
            Policy::Adaptive => RESPONDERS[2].0,
            Policy::Exploit(exploit) => exploit.name(),
        }
    }

    /// One line per policy: name and what it does.
    pub fn listing() -> String {
        BOT_POLICIES
            .iter()
            .map(|(name, _, about)| (*name, *about))
            .chain(LEVELS.iter().map(|(name, _, about)| (*name, *about)))
            .chain(Self::responders())
            .chain(E::all().iter().map(|e| (e.name(), e.about())))
            .map(|(name, about)| format!("  {name:<22} {about}\n"))
            .collect()
    }

    /// The responders, where this game's arena has them.
    fn responders() -> impl Iterator<Item = (&'static str, &'static str)> {
        RESPONDERS
            .into_iter()
            .filter(|(name, _)| E::NOT_OFFERED.iter().all(|(refused, _)| refused != name))
    }
}

/// One match from A's side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Result3 {
    Win,
    Tie,
    Loss,
}

impl Result3 {
    /// A's result from a game's outcome: the better placing wins, an equal one ties.
    pub fn of(outcome: &Outcome, a_seat: Seat, b_seat: Seat) -> Result3 {
        let place = |seat: Seat| outcome.placings.get(seat.index()).copied().unwrap_or(u8::MAX);
        match place(a_seat).cmp(&place(b_seat)) {
            std::cmp::Ordering::Less => Result3::Win,
            std::cmp::Ordering::Equal => Result3::Tie,
            std::cmp::Ordering::Greater => Result3::Loss,
        }
    }
}

/// The 95 % two-sided normal quantile.
pub const Z95: f64 = 1.959_963_984_540_054;

/// The Wilson score interval of a proportion `successes / trials` at quantile `z`.
/// `successes` may be fractional (ties count half). No trials: the whole of [0, 1].
pub fn wilson(successes: f64, trials: f64, z: f64) -> (f64, f64) {
    if trials <= 0.0 {
        return (0.0, 1.0);
    }
    let p = (successes / trials).clamp(0.0, 1.0);
    let z2 = z * z;
    let denominator = 1.0 + z2 / trials;
    let centre = (p + z2 / (2.0 * trials)) / denominator;
    let half = z * (p * (1.0 - p) / trials + z2 / (4.0 * trials * trials)).sqrt() / denominator;
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// The counts of an arena and what they mean.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Report {
    pub game: String,
    pub a: String,
    pub b: String,
    pub matches: u64,
    pub seed: u64,
    pub a_wins: u64,
    pub ties: u64,
    pub b_wins: u64,
    /// A's wins when A sat in seat 0 and in seat 1.
    pub a_wins_by_seat: [u64; 2],
    /// (A's wins + ties / 2) / matches.
    pub a_score: f64,
    pub wilson_low: f64,
    pub wilson_high: f64,
    /// The white-box best responder's mean gain per choice over the equilibrium value, in
    /// the game's units, when one of the policies is it. CTG: runs a ball, at each sealed
    /// choice. Wicketz: runs less priced wickets a ball, at each over the bot set against
    /// it (what the field's lean toward habits gives over the minimax field).
    pub responder_gain: Option<f64>,
    /// How many choices (CTG: sealed choices; Wicketz: overs; Champions: batting overs)
    /// that mean is over.
    pub responder_choices: u64,
    /// What the gain is counted per, when not per ball (Champions: points a batting over).
    #[serde(skip_serializing_if = "str::is_empty")]
    pub responder_unit: &'static str,
    /// How many of the other side's replies the adaptive responder counted (Champions).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub responder_observations: Option<u64>,
    pub seconds: f64,
}

impl Report {
    pub fn add(&mut self, result: Result3, a_seat: Seat) {
        self.matches += 1;
        match result {
            Result3::Win => {
                self.a_wins += 1;
                self.a_wins_by_seat[a_seat.index() & 1] += 1;
            }
            Result3::Tie => self.ties += 1,
            Result3::Loss => self.b_wins += 1,
        }
    }

    /// Fills in the score and its interval from the counts.
    pub fn finish(&mut self) {
        let trials = self.matches as f64;
        let successes = self.a_wins as f64 + self.ties as f64 / 2.0;
        self.a_score = if self.matches == 0 {
            0.0
        } else {
            successes / trials
        };
        (self.wilson_low, self.wilson_high) = wilson(successes, trials, Z95);
    }
}

/// The deal of match `index`: pairs of matches share it, with the seats swapped.
pub fn deal_seed(seed: u64, index: u64) -> Seed {
    Seed::from_u64(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15).wrapping_add(index / 2))
}

/// The seat A takes in match `index`.
pub fn a_seat(index: u64) -> Seat {
    Seat((index % 2) as u8)
}

/// Plays `matches` matches with `play(deal, a_seat)` and tallies A's results.
pub fn run_matches(
    common: &Common,
    game: &str,
    a: &str,
    b: &str,
    mut play: impl FnMut(&Seed, Seat) -> Result<Result3, ArenaError>,
) -> Result<Report, ArenaError> {
    let bar = if common.json || !std::io::stderr().is_terminal() {
        ProgressBar::hidden()
    } else {
        let bar = ProgressBar::new(common.matches);
        bar.set_style(
            ProgressStyle::with_template("{bar:40} {pos}/{len} matches {per_sec} eta {eta}")
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
        bar
    };
    let mut report = Report {
        game: game.to_string(),
        a: a.to_string(),
        b: b.to_string(),
        seed: common.seed,
        ..Report::default()
    };
    let started = Instant::now();
    let step = (common.matches / 200).max(1);
    for index in 0..common.matches {
        let seat = a_seat(index);
        report.add(play(&deal_seed(common.seed, index), seat)?, seat);
        if index % step == 0 {
            bar.set_position(index);
        }
    }
    bar.finish_and_clear();
    report.seconds = started.elapsed().as_secs_f64();
    report.finish();
    Ok(report)
}

/// Plays one match through the game's views, the path server bots take: `choose(i, ..)` is
/// asked for policy i's command (A is 0). Each seat draws from its own dice. A refused
/// command is an error, never replaced: the arena must not hide a policy's bugs.
pub fn play_views<G: Game>(
    options: &G::Options,
    deal: &Seed,
    a_seat: Seat,
    names: [&str; 2],
    mut choose: impl FnMut(usize, &G::View, &mut Dice) -> Option<G::Command>,
) -> Result<Result3, ArenaError> {
    /// Far more commands than the longest match of any game takes.
    const MAX_COMMANDS: u32 = 1_000_000;
    let mut core = MatchCore::<G>::new(options, deal).map_err(|e| ArenaError::Setup(e.to_string()))?;
    let mut seat_dice = [0x5a_u8, 0xa5].map(|salt| {
        let mut seed = deal.0;
        seed[0] ^= salt;
        Dice::new(&Seed(seed))
    });
    let b_seat = Seat(1 - (a_seat.0 & 1));
    core.start();
    for _ in 0..MAX_COMMANDS {
        if let Some(outcome) = G::outcome(&core.state) {
            return Ok(Result3::of(&outcome, a_seat, b_seat));
        }
        let Some(seat) = G::pending(&core.state).first().copied() else {
            return Err(ArenaError::Unfinished(0));
        };
        let policy = usize::from(seat != a_seat);
        let view = G::view(&core.state, crate::rules::Viewer::Seat(seat));
        let command = choose(policy, &view, &mut seat_dice[policy]).ok_or_else(|| ArenaError::NoCommand {
            policy: names[policy].to_string(),
        })?;
        core.submit(seat, &command)
            .map_err(|reject| ArenaError::Refused {
                policy: names[policy].to_string(),
                detail: format!("{command:?}: {reject}"),
            })?;
    }
    Err(ArenaError::Unfinished(MAX_COMMANDS))
}

/// Prints a report as text or JSON.
pub fn print(report: &Report, json: bool) -> anyhow::Result<()> {
    if json {
        println!("{}", serde_json::to_string(report)?);
        return Ok(());
    }
    println!(
        "{}: {} (A) vs {} (B), {} matches (seats swapped on each deal), seed {}",
        report.game, report.a, report.b, report.matches, report.seed
    );
    println!(
        "  A wins {}  ties {}  B wins {}   (A's wins in seat 0 / 1: {} / {})",
        report.a_wins, report.ties, report.b_wins, report.a_wins_by_seat[0], report.a_wins_by_seat[1]
    );
    println!(
        "  A's score {:.1} % (a tie counts half), 95 % Wilson interval {:.1} - {:.1} %",
        100.0 * report.a_score,
        100.0 * report.wilson_low,
        100.0 * report.wilson_high
    );
    if let Some(gain) = report.responder_gain {
        println!(
            "  the best responder's gain over the equilibrium value: {gain:+.4} {}, over {} choices",
            if report.responder_unit.is_empty() {
                "a ball"
            } else {
                report.responder_unit
            },
            report.responder_choices
        );
    }
    if let Some(observations) = report.responder_observations {
        println!("  the adaptive responder counted {observations} of the other side's replies");
    }
    println!("  {:.1} s", report.seconds);
    Ok(())
}

pub fn run(args: Args) -> anyhow::Result<()> {
    match args.game {
        GameArgs::Ctg(args) => ctg::run(args),
        GameArgs::Wicketz(args) => wicketz::run(args),
        GameArgs::Champions(args) => champions::run(args),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deals_come_in_pairs_with_the_seats_swapped() {
        assert_eq!(deal_seed(7, 0), deal_seed(7, 1));
        assert_ne!(deal_seed(7, 1), deal_seed(7, 2));
        assert_eq!((a_seat(0), a_seat(1)), (Seat(0), Seat(1)));
    }
}
