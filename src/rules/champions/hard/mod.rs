//! The `hard` Champions bot: every dice decision solved exactly, from its seat's view only.
//!
//! A turn of dice is a small Markov decision problem ([`turn`]): the bot solves it backwards
//! for the over as it stands (its own cards, the rolls it has left, the batsman's dice when
//! it bowls) and keeps the dice the solution keeps. What stopping is worth is counted in
//! points, the unit of the score ([`table`]): the batsman's runs and Xp, the championship
//! cards the over can win, and, because the bowler replies to dice it sees, the bowler's best
//! reply: its turn solved as `hard` bowls it, with its cards and the championships open, for
//! each distinct runs and Defence a finish brings ([`reply`]). Wickets cost their point plus
//! what they do to the batsman's later overs (from the table `crease solve champions` solved
//! offline), and the last one costs the match.
//!
//! Cards are bought by value: each card's solved worth per over in the roles it works in,
//! times the overs left to use it, against the points its Xp would be worth unspent.

pub mod reply;
pub mod table;
pub mod turn;

use super::bots::player_of;
use super::cards::role_mods;
use super::commands::Command;
use super::data::{Hook, ruleset};
use super::events::PowerUse;
use super::faces::{Face, Role};
use super::resolve::{BattingSide, RoleMods};
use super::state::PlayerState;
use super::view::{Ask, PowerOption, View};
use crate::rules::{Seat, Viewer};
use reply::{ObservedReply, ReplyHabits, SolvedReply};
use table::{
    BattingCards, Model, NoBowler, Open, Reply, Stakes, batting_stop, best_set_dice, solve_batting,
    solve_bowling,
};

/// How a batsman prices the bowler's reply to the dice it stops on.
#[derive(Clone, Copy, Debug)]
pub enum ReplyReading<'h> {
    /// The bowler's turn solved as `hard` bowls it, with the bowler's cards and the
    /// championships still open: what `hard` plays ([`HARD`]), and what a reader of its
    /// code would compute.
    Solved,
    /// The offline table corrected by what the bowler's replies were seen to cost (the
    /// arena's `adaptive`, which reads no code).
    Observed(&'h ReplyHabits),
}

/// How `hard` prices the reply. It was the offline table (a bowler with no cards, chasing
/// no championship) until the arena's white-box reader, solving the reply exactly, won
/// 50.1-51.7 % of 2,000-match series against it: docs/performance.md.
pub const HARD: ReplyReading<'static> = ReplyReading::Solved;

pub fn bot_command(view: &View) -> Option<Command> {
    command_reading(view, HARD)
}

/// `hard`'s command, its batting priced by `reading`; everything else as `hard` plays.
pub fn command_reading(view: &View, reading: ReplyReading<'_>) -> Option<Command> {
    let Viewer::Seat(seat) = view.viewer else {
        return None;
    };
    Some(match view.ask.as_ref()? {
        Ask::Dice { first_roll: true, .. } => Command::Roll { dice: Vec::new() },
        Ask::Dice {
            role: Role::Batting,
            rolls_left,
            faces,
            powers,
            ..
        } => {
            let setup = BattingSetup::of(view, powers)?;
            setup.command(*rolls_left, faces, &mut setup.reply(reading))
        }
        Ask::Dice {
            role: Role::Bowling,
            rolls_left,
            faces,
            powers,
            ..
        } => bowling(view, seat, *rolls_left, faces, powers),
        Ask::Buy { affordable, xp } => buy(view, affordable, *xp),
    })
}

/// The model `hard` plays by: the ruleset and the committed table.
pub fn model() -> Model<'static> {
    let table = table::table();
    Model {
        rules: ruleset(),
        xp_points: table.xp_points,
        elimination_points: table.elimination_points,
        responses: &table.responses,
    }
}

/// The stakes of the over in the view, for its batsman.
pub fn stakes(view: &View, batsman: Seat) -> Stakes {
    let rules = ruleset();
    let lost = view.players.get(batsman.index()).map_or(0, |p| p.wickets_lost);
    let mut open = Open::none();
    for (i, championship) in view.championships.iter().enumerate() {
        if championship.holders.is_empty() && i < 64 {
            open.cards |= 1 << i;
        }
    }
    Stakes {
        wickets_left: rules.elimination_wickets.saturating_sub(lost).max(1),
        overs_after: rules.rounds.saturating_sub(view.round),
        open,
    }
}

fn set_faces(powers: &[PowerOption]) -> (Vec<Face>, Vec<&str>) {
    powers
        .iter()
        .filter_map(|p| match p.hook {
            Hook::SetDie { face } => Some((face, p.card.as_str())),
            _ => None,
        })
        .unzip()
}

fn set_die_uses(cards: &[&str], uses: &[Option<u8>]) -> Vec<PowerUse> {
    cards
        .iter()
        .zip(uses)
        .filter_map(|(card, die)| {
            die.map(|die| PowerUse::SetDie {
                card: card.to_string(),
                die,
            })
        })
        .collect()
}

/// A batting turn as the view shows it to its batsman: the stakes, the batsman's cards and
/// choice powers, and the bowler to come (`None` in an eliminated bowler's last over).
struct BattingSetup<'v> {
    stakes: Stakes,
    mods: RoleMods,
    set: Vec<Face>,
    set_cards: Vec<&'v str>,
    /// Long Game: its card, Xp per Defence, and the most Defence affordable.
    buy_defence: Option<(&'v str, u32, u32)>,
    bowler: Option<PlayerState>,
}

impl<'v> BattingSetup<'v> {
    fn of(view: &View, powers: &'v [PowerOption]) -> Option<Self> {
        let over = view.over.as_ref()?;
        let me = player_of(view, over.batsman).unwrap_or_default();
        let (set, set_cards) = set_faces(powers);
        Some(BattingSetup {
            stakes: stakes(view, over.batsman),
            mods: role_mods(ruleset(), &me, Role::Batting),
            set,
            set_cards,
            buy_defence: powers.iter().find_map(|p| match p.hook {
                Hook::BuyDefence { xp_per_defence } => {
                    Some((p.card.as_str(), xp_per_defence, p.max_times.unwrap_or(0)))
                }
                _ => None,
            }),
            bowler: over
                .bowler
                .map(|bowler| player_of(view, bowler).unwrap_or_default()),
        })
    }

    /// The reply as `reading` prices it; none in an eliminated bowler's last over.
    fn reply<'h>(&self, reading: ReplyReading<'h>) -> Box<dyn Reply + 'h> {
        match (&self.bowler, reading) {
            (None, _) => Box::new(NoBowler),
            (Some(bowler), ReplyReading::Solved) => Box::new(SolvedReply::of_bowler(
                ruleset(),
                &table::spaces().bowling,
                bowler,
            )),
            (Some(_), ReplyReading::Observed(habits)) => Box::new(ObservedReply(habits)),
        }
    }

    fn cards(&self) -> BattingCards<'_> {
        BattingCards {
            mods: &self.mods,
            set_faces: &self.set,
            buy_defence: self.buy_defence.map(|(_, price, times)| (price, times)),
        }
    }

    /// The best re-roll, or the best stop, with the bowler's reply priced by `reply`.
    fn command(&self, rolls_left: u32, faces: &[Face], reply: &mut impl Reply) -> Command {
        let model = model();
        let cards = self.cards();
        let space = &table::spaces().batting;
        if rolls_left > 0
            && let Some(state) = space.state_of(faces)
        {
            let (_, plan) = solve_batting(&model, space, &self.stakes, &cards, reply, rolls_left as usize);
            if let Some(keep) = space.best_keep(&plan, state, rolls_left as usize) {
                return Command::Roll {
                    dice: space.dice_to_reroll(faces, &keep),
                };
            }
        }
        let (_, uses, bought) = batting_stop(&model, &self.stakes, &cards, reply, faces);
        let mut powers = set_die_uses(&self.set_cards, &uses);
        if let Some((card, _, _)) = self.buy_defence
            && bought > 0
        {
            powers.push(PowerUse::BuyDefence {
                card: card.to_string(),
                times: bought,
            });
        }
        Command::Stop { powers }
    }
}

fn bowling(view: &View, seat: Seat, rolls_left: u32, faces: &[Face], powers: &[PowerOption]) -> Command {
    let model = model();
    let Some(over) = view.over.as_ref() else {
        return Command::Stop { powers: Vec::new() };
    };
    let stakes = stakes(view, over.batsman);
    let batsman = player_of(view, over.batsman).unwrap_or_default();
    let bat_mods = role_mods(model.rules, &batsman, Role::Batting);
    let bat = BattingSide {
        faces: &over.batting.faces,
        mods: &bat_mods,
        bought_defence: over.batting.bought_defence,
        wickets_left: stakes.wickets_left,
    };
    let me = player_of(view, seat).unwrap_or_default();
    let mods = role_mods(model.rules, &me, Role::Bowling);
    let (set, set_cards) = set_faces(powers);
    let space = &table::spaces().bowling;
    if rolls_left > 0
        && let Some(state) = space.state_of(faces)
    {
        let (_, plan) = solve_bowling(&model, space, &stakes, &bat, &mods, &set, rolls_left as usize);
        if let Some(keep) = space.best_keep(&plan, state, rolls_left as usize) {
            return Command::Roll {
                dice: space.dice_to_reroll(faces, &keep),
            };
        }
    }
    let (_, uses) = best_set_dice(faces, &set, &mut |dice| {
        let bowl = super::resolve::BowlingSide {
            faces: dice,
            mods: &mods,
        };
        model.bowler_gain(
            &stakes,
            &super::resolve::resolve_over(model.rules, &bat, Some(&bowl)),
        )
    });
    Command::Stop {
        powers: set_die_uses(&set_cards, &uses),
    }
}

/// The affordable card whose solved worth over the overs left most exceeds what its Xp
/// would score unspent; pass when none does.
fn buy(view: &View, affordable: &[String], _xp: u32) -> Command {
    let model = model();
    let overs_left = f64::from(model.rules.rounds.saturating_sub(view.round));
    let best = affordable
        .iter()
        .filter_map(|id| {
            let worth = table::table().card_values.iter().find(|c| &c.id == id)?;
            let cost = model.rules.xp_card(id)?.cost;
            let net = (worth.batting + worth.bowling) * overs_left - model.xp_points * f64::from(cost);
            Some((id, net))
        })
        .filter(|(_, net)| *net > 0.0)
        .max_by(|a, b| a.1.total_cmp(&b.1));
    match best {
        Some((id, _)) => Command::Buy { card: id.clone() },
        None => Command::Pass {},
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::champions::{Champions, Options};
    use crate::rules::{Game, MatchCore, Seed};

    #[test]
    fn the_committed_table_is_what_the_solver_computes_now() {
        // If this fails after a ruleset edit: `cargo run --release -- solve champions`.
        assert_eq!(*table::table(), table::solve(ruleset()));
    }

    #[test]
    fn a_batsman_keeps_a_completed_set_of_sixes_and_rerolls_the_rest() {
        // Four Sixes are a set (6 runs, and First Six while it is open): re-rolling one to
        // chase Defence would throw them away. The lone Two scores nothing and goes back.
        let model = model();
        let stakes = Stakes {
            wickets_left: 10,
            overs_after: 4,
            open: Open::all(model.rules),
        };
        let mods = super::super::resolve::RoleMods::default();
        let cards = BattingCards {
            mods: &mods,
            set_faces: &[],
            buy_defence: None,
        };
        let space = &table::spaces().batting;
        let dice = [Face::Six, Face::Two, Face::Six, Face::Six, Face::One, Face::Six];
        let (_, plan) = solve_batting(&model, space, &stakes, &cards, &mut table::TableReply, 2);
        let state = space.state_of(&dice).expect("batting dice");
        let keep = space.best_keep(&plan, state, 2).expect("re-rolls the loose dice");
        let reroll = space.dice_to_reroll(&dice, &keep);
        assert!(reroll.contains(&1), "{reroll:?}");
        assert!([0, 2, 3, 5].iter().all(|six| !reroll.contains(six)), "{reroll:?}");
        // With no re-roll left it stops, and stopping is worth the set.
        assert_eq!(space.best_keep(&plan, state, 0), None);
    }

    #[test]
    fn a_bowler_facing_six_defence_does_not_keep_wickets() {
        // Six Defence cancel any six Wickets: a Wicket is worth nothing.
        let model = model();
        let stakes = Stakes {
            wickets_left: 10,
            overs_after: 4,
            open: Open::none(),
        };
        let mods = super::super::resolve::RoleMods::default();
        let bat_faces = [Face::Defence; 6];
        let bat = BattingSide {
            faces: &bat_faces,
            mods: &mods,
            bought_defence: 0,
            wickets_left: 10,
        };
        let space = &table::spaces().bowling;
        let (_, plan) = solve_bowling(&model, space, &stakes, &bat, &mods, &[], 2);
        let dice = [
            Face::Wicket,
            Face::Save,
            Face::Wicket,
            Face::Xp,
            Face::Dot,
            Face::Wide,
        ];
        let state = space.state_of(&dice).expect("bowling dice");
        let keep = space.best_keep(&plan, state, 2).expect("re-rolls");
        // The Wickets and the Wide go back; the Xp stays (a Save may stay, against Wides).
        let reroll = space.dice_to_reroll(&dice, &keep);
        assert!(
            [0, 2, 5].iter().all(|d| reroll.contains(d)) && !reroll.contains(&3),
            "{reroll:?}"
        );
    }

    #[test]
    fn the_hard_bot_is_always_legal() {
        for players in [2u8, 3, 5] {
            for n in 0..12u64 {
                let options = Options { players };
                let seed = Seed::from_u64(1000 + n);
                let mut core = MatchCore::<Champions>::new(&options, &seed).expect("options");
                let mut rng = crate::rules::Dice::new(&seed);
                core.start();
                let mut commands = 0;
                while Champions::outcome(&core.state).is_none() {
                    let seat = Champions::pending(&core.state)[0];
                    let view = Champions::view(&core.state, Viewer::Seat(seat));
                    // Seat 0 plays hard, the others the heuristic, so hard meets every case.
                    let command = if seat.0 == 0 || n % 2 == 0 {
                        bot_command(&view)
                    } else {
                        Champions::bot_command(&view, crate::rules::BotPolicy::Heuristic, &mut rng)
                    }
                    .expect("a command whenever asked");
                    if let Err(reject) = core.submit(seat, &command) {
                        panic!("players {players} seed {n}: {command:?} refused: {reject}");
                    }
                    commands += 1;
                    assert!(commands < 10_000, "the match ends");
                }
            }
        }
    }
}
