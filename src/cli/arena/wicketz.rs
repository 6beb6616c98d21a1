//! `crease arena wicketz`: through the seat's views, as server bots play.
//!
//! Wicketz has no sealed simultaneous choice: the field is on the table before every stroke
//! and the batter sees the delivery. So a white-box reader gains nothing by predicting a
//! choice; what it can read is what a strong player reads: the cards still to come in the
//! dispenser (every dealt card is face up) and how the bot sets its field. `best-response`
//! prices every stroke over the cards to come and plays the best one against the field it
//! sees, and sets its own fields against that best reply (the minimax field); its gain is
//! what the bot's fields give such a batter over the minimax field, which is what the bot's
//! lean toward habits costs it. `adaptive` reads no code: it counts the cards too, and sets
//! each field against the strokes the other side played over the whole series. `hard-safe`
//! is `hard` with its lean bounded by `--hard-bound` instead of its own bound.

use super::{ArenaError, Common, Policy, Result3};
use crate::rules::wicketz::exploits::Exploit;
use crate::rules::wicketz::hard::{self, Reads};
use crate::rules::wicketz::state::Habits;
use crate::rules::wicketz::view::Ask;
use crate::rules::wicketz::{Options, Wicketz};
use crate::rules::{BotLevel, Game, Seat, Seed};
use std::collections::BTreeMap;

super::exploit_set!(Exploit);

pub type WicketzPolicy = Policy<Exploit>;

/// What `best-response` reads: the cards to come, and the batter's best reply alone (no
/// habits) when it sets a field, so its field leans nowhere.
const BEST_RESPONSE: Reads = Reads {
    dispenser: true,
    lean: 0.0,
};

/// What `adaptive` reads: the cards to come, and the habits it observed over the series,
/// with no bound on how far its field follows them.
const ADAPTIVE: Reads = Reads {
    dispenser: true,
    lean: f64::INFINITY,
};

#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    pub common: Common,
    #[command(flatten)]
    pub rules: crate::cli::simulate::wicketz::RuleArgs,
    /// The most, in runs less priced wickets a ball, that `hard-safe`'s fields may give a
    /// batter who plays the best reply, over the minimax field, when they lean toward the
    /// batter's habits (0 never leans).
    #[arg(long, default_value_t = hard::EXPLOIT_BOUND)]
    pub hard_bound: f64,
}

/// What the responders carry from ball to ball and from match to match.
#[derive(Clone, Debug, Default)]
pub struct Memory {
    /// What the bot's fields gave the best responder over the minimax field, in runs less
    /// priced wickets a ball, summed over the overs it set against it, and those overs.
    pub gain: f64,
    pub choices: u64,
    /// The other side's strokes over the series' finished innings (the adaptive responder's
    /// evidence).
    habits: Habits,
}

/// `a` and `b`'s counts added up.
fn merged(a: &Habits, b: &Habits) -> Habits {
    let add = |x: &BTreeMap<_, u16>, y: &BTreeMap<_, u16>| {
        let mut sum = x.clone();
        for (stroke, count) in y {
            *sum.entry(*stroke).or_default() += count;
        }
        sum
    };
    Habits {
        respect: add(&a.respect, &b.respect),
        loose: add(&a.loose, &b.loose),
    }
}

/// Plays one Wicketz match on `deal` with A in `a_seat`.
pub fn play(
    options: &Options,
    deal: &Seed,
    a_seat: Seat,
    policies: [WicketzPolicy; 2],
    hard_bound: f64,
    memory: &mut Memory,
) -> Result<Result3, ArenaError> {
    let safe = Reads {
        dispenser: true,
        lean: hard_bound,
    };
    let names = policies.map(|p| p.name());
    // The other side's habits as the adaptive responder last saw them, per innings.
    let mut seen: BTreeMap<u8, Habits> = BTreeMap::new();
    let result = super::play_views::<Wicketz>(options, deal, a_seat, names, |index, view, rng| {
        // The lean of `hard`'s (or `hard-safe`'s) field against the best responder.
        let bot_reads = match policies[index] {
            Policy::Level(BotLevel::Hard) => Some(hard::HARD),
            Policy::HardSafe => Some(safe),
            _ => None,
        };
        if let Some(reads) = bot_reads.filter(|_| policies[1 - index] == Policy::BestResponse)
            && let Some(excess) = hard::lean_excess(view, reads)
        {
            memory.gain += excess;
            memory.choices += 1;
        }
        match policies[index] {
            Policy::Bot(policy) => Wicketz::bot_command(view, policy, rng),
            Policy::Exploit(exploit) => exploit.command(view, rng),
            Policy::Level(level) => Wicketz::bot_command_at(view, level, rng),
            Policy::HardSafe => hard::choose_reading(view, safe, rng),
            Policy::BestResponse => hard::choose_reading(view, BEST_RESPONSE, rng),
            Policy::Adaptive => {
                let bowling = matches!(view.ask, Some(Ask::SetOver { .. }));
                let Some(innings) = view.innings.last().filter(|_| bowling) else {
                    return hard::choose_reading(view, ADAPTIVE, rng);
                };
                seen.insert(innings.number, view.habits.clone());
                let mut read = view.clone();
                read.habits = merged(&memory.habits, &view.habits);
                hard::choose_reading(&read, ADAPTIVE, rng)
            }
        }
    });
    for habits in seen.values() {
        memory.habits = merged(&memory.habits, habits);
    }
    result
}

pub fn run(args: Args) -> anyhow::Result<()> {
    if args.common.list {
        print!("{}", WicketzPolicy::listing());
        return Ok(());
    }
    if !(0.0..=100.0).contains(&args.hard_bound) {
        anyhow::bail!("--hard-bound must be between 0 and 100 runs a ball");
    }
    let options = args.rules.options();
    let policies = [
        WicketzPolicy::parse("wicketz", &args.common.a)?,
        WicketzPolicy::parse("wicketz", &args.common.b)?,
    ];
    let mut memory = Memory::default();
    let mut report = super::run_matches(
        &args.common,
        &format!("Wicketz {} overs x{}", args.rules.overs, args.rules.innings),
        policies[0].name(),
        policies[1].name(),
        |deal, a_seat| play(&options, deal, a_seat, policies, args.hard_bound, &mut memory),
    )?;
    if policies.contains(&Policy::BestResponse) {
        report.responder_choices = memory.choices;
        report.responder_gain = Some(memory.gain / memory.choices.max(1) as f64);
    }
    super::print(&report, args.common.json)
}
