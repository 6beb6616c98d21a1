//! `crease arena champions`: two players, through the seat's views, as server bots play.
//!
//! Champions has no sealed choice: the bowler sees the batsman's final dice before it rolls.
//! What a reader of `hard`'s code can answer is its bowling: when it bats, it prices each
//! stop by solving `hard`'s bowling turn against that finish, with the bowler's real cards
//! and the championships open (`best-response`; `hard` now bats by the same prices, so the
//! reader's tallied gain over `hard`'s own batting is what a regression would give back).
//! `adaptive` reads no code: it corrects the offline table by what the bowler's replies were
//! seen to cost over the series. Both bowl and buy as `hard` does.

use super::{ArenaError, Common, Policy, Result3};
use crate::rules::champions::exploits::Exploit;
use crate::rules::champions::hard::reply::{self, AwaitedReply, ReplyHabits};
use crate::rules::champions::hard::{self, ReplyReading};
use crate::rules::champions::{Champions, Options};
use crate::rules::{BotLevel, Game, Seat, Seed, Viewer};

super::exploit_set!(
    Exploit,
    &[(
        "hard-safe",
        "not offered for Champions: its hard leans toward no habit of the other side, so there is no lean to bound"
    )]
);

pub type ChampionsPolicy = Policy<Exploit>;

#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    pub common: Common,
}

/// What the responders carry from over to over and from match to match.
#[derive(Clone, Debug, Default)]
pub struct Memory {
    /// The best responder's summed gain over `hard`'s own batting, in points, and its overs.
    pub gain: f64,
    pub choices: u64,
    /// What the other side's replies cost the adaptive batsman beyond the table's price.
    pub habits: ReplyHabits,
    /// The adaptive batsman's last stop, until its reply is on the record.
    awaited: Option<AwaitedReply>,
}

/// Plays one two-player Champions match on `deal` with A in `a_seat`.
pub fn play(
    deal: &Seed,
    a_seat: Seat,
    policies: [ChampionsPolicy; 2],
    memory: &mut Memory,
) -> Result<Result3, ArenaError> {
    let options = Options { players: 2 };
    let names = policies.map(|p| p.name());
    // A stop in a match's last over is never answered on a view the batsman sees again.
    memory.awaited = None;
    super::play_views::<Champions>(&options, deal, a_seat, names, |index, view, rng| {
        match policies[index] {
            Policy::Bot(policy) => Champions::bot_command(view, policy, rng),
            Policy::Exploit(exploit) => exploit.command(view, rng),
            Policy::Level(level) => Champions::bot_command_at(view, level, rng),
            Policy::BestResponse => {
                if policies[1 - index] == Policy::Level(BotLevel::Hard)
                    && let Some(gain) = reply::reader_gain(view)
                {
                    memory.gain += gain;
                    memory.choices += 1;
                }
                hard::command_reading(view, ReplyReading::Solved)
            }
            Policy::Adaptive => adaptive(view, memory),
            Policy::HardSafe => None,
        }
    })
}

/// The adaptive batsman: learns each reply once it is on the record, and prices its stops
/// with the table corrected by every reply seen in the series.
fn adaptive(
    view: &crate::rules::champions::view::View,
    memory: &mut Memory,
) -> Option<crate::rules::champions::Command> {
    let model = hard::model();
    if let Some(awaited) = &memory.awaited
        && memory.habits.learn(&model, awaited, view)
    {
        memory.awaited = None;
    }
    let command = hard::command_reading(view, ReplyReading::Observed(&memory.habits))?;
    if let Viewer::Seat(seat) = view.viewer
        && let Some(awaited) = reply::awaited_reply(&model, view, hard::stakes(view, seat), &command)
    {
        memory.awaited = Some(awaited);
    }
    Some(command)
}

pub fn run(args: Args) -> anyhow::Result<()> {
    if args.common.list {
        print!("{}", ChampionsPolicy::listing());
        return Ok(());
    }
    let policies = [
        ChampionsPolicy::parse("champions", &args.common.a)?,
        ChampionsPolicy::parse("champions", &args.common.b)?,
    ];
    let mut memory = Memory::default();
    let mut report = super::run_matches(
        &args.common,
        "Champions 2 players",
        policies[0].name(),
        policies[1].name(),
        |deal, a_seat| play(deal, a_seat, policies, &mut memory),
    )?;
    if policies.contains(&Policy::BestResponse) && policies.contains(&Policy::Level(BotLevel::Hard)) {
        report.responder_choices = memory.choices;
        report.responder_gain = Some(memory.gain / memory.choices.max(1) as f64);
        report.responder_unit = "point a batting over";
    }
    if policies.contains(&Policy::Adaptive) {
        report.responder_observations = Some(u64::from(memory.habits.observations()));
    }
    super::print(&report, args.common.json)
}
