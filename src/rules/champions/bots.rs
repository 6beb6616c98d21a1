//! Bots that choose from a [`View`] only, so the same code serves server-side bots and
//! remote `crease bot` clients.
//!
//! The heuristic keeps dice that already score or protect (1s, Xp, a couple of Defences,
//! partial sets big enough to complete), re-rolls the rest, and uses each die-changing power
//! where it raises the over's value most. As bowler it sees the batsman's final dice and
//! values wickets, then saves up to the runs on show, then Xp. It buys the dearest card it
//! can afford, except in the last round, where unspent Xp is worth more as points.

use super::cards::role_mods;
use super::commands::Command;
use super::data::{Hook, ruleset};
use super::events::PowerUse;
use super::faces::{Face, Role, count};
use super::resolve::{BattingSide, BowlingSide, OverResult, RoleMods, resolve_over};
use super::state::PlayerState;
use super::view::{Ask, PowerOption, View};
use crate::rules::{BotPolicy, Dice, Seat, Viewer};

pub fn bot_command(view: &View, policy: BotPolicy, rng: &mut Dice) -> Option<Command> {
    let Viewer::Seat(seat) = view.viewer else {
        return None;
    };
    let ask = view.ask.as_ref()?;
    Some(match policy {
        BotPolicy::Random => random_command(ask, rng),
        BotPolicy::Heuristic => heuristic_command(view, seat, ask),
    })
}

fn random_command(ask: &Ask, rng: &mut Dice) -> Command {
    match ask {
        Ask::Dice { first_roll: true, .. } => Command::Roll { dice: Vec::new() },
        Ask::Dice {
            rolls_left,
            faces,
            powers,
            ..
        } => {
            if *rolls_left > 0 && rng.chance(1, 2) {
                let dice: Vec<u8> = (0..faces.len() as u8).filter(|_| rng.chance(1, 2)).collect();
                if !dice.is_empty() {
                    return Command::Roll { dice };
                }
            }
            let powers = powers
                .iter()
                .filter_map(|p| match p.hook {
                    Hook::SetDie { .. } if rng.chance(1, 2) && !faces.is_empty() => Some(PowerUse::SetDie {
                        card: p.card.clone(),
                        die: rng.below(faces.len() as u32) as u8,
                    }),
                    Hook::BuyDefence { .. } => {
                        let times = rng.below(p.max_times.unwrap_or(0) + 1);
                        (times > 0).then(|| PowerUse::BuyDefence {
                            card: p.card.clone(),
                            times,
                        })
                    }
                    _ => None,
                })
                .collect();
            Command::Stop { powers }
        }
        Ask::Buy { affordable, .. } => {
            let pick = rng.below(affordable.len() as u32 + 1) as usize;
            match affordable.get(pick) {
                Some(card) => Command::Buy { card: card.clone() },
                None => Command::Pass {},
            }
        }
    }
}

/// The seat's own state rebuilt from the public view, for evaluating dice with its cards.
pub(super) fn player_of(view: &View, seat: Seat) -> Option<PlayerState> {
    let p = view.players.get(seat.index())?;
    Some(PlayerState {
        xp: p.xp,
        runs: p.runs,
        wickets_lost: p.wickets_lost,
        wickets_taken: p.wickets_taken,
        cards: p.cards.iter().map(|c| c.id.clone()).collect(),
        eliminated: p.eliminated,
    })
}

fn heuristic_command(view: &View, seat: Seat, ask: &Ask) -> Command {
    match ask {
        Ask::Dice { first_roll: true, .. } => Command::Roll { dice: Vec::new() },
        Ask::Dice {
            role,
            rolls_left,
            faces,
            powers,
            ..
        } => {
            if *rolls_left > 0 {
                let dice = match role {
                    Role::Batting => batting_rerolls(view, seat, faces),
                    Role::Bowling => bowling_rerolls(view, faces),
                };
                if !dice.is_empty() {
                    return Command::Roll { dice };
                }
            }
            Command::Stop {
                powers: choose_powers(view, seat, *role, faces, powers),
            }
        }
        Ask::Buy { affordable, .. } => {
            if view.round >= view.rules.rounds {
                return Command::Pass {};
            }
            let best = view
                .market
                .iter()
                .filter(|c| affordable.contains(&c.id))
                .max_by_key(|c| c.cost);
            match best {
                Some(card) => Command::Buy {
                    card: card.id.clone(),
                },
                None => Command::Pass {},
            }
        }
    }
}

fn batting_rerolls(view: &View, seat: Seat, faces: &[Face]) -> Vec<u8> {
    let mods = player_of(view, seat)
        .map(|p| role_mods(ruleset(), &p, Role::Batting))
        .unwrap_or_default();
    let wickets_lost = view
        .players
        .get(seat.index())
        .map(|p| p.wickets_lost)
        .unwrap_or(0);
    let defence_wanted = if wickets_lost + 3 >= view.rules.elimination_wickets {
        3
    } else {
        2
    };
    let keep_face = |face: Face| -> bool {
        let n = count(faces, face);
        match face {
            Face::Xp => true,
            Face::Defence => false,
            _ => match view.rules.run_sets.iter().find(|s| s.face == face) {
                Some(set) => {
                    let size = mods
                        .set_sizes
                        .iter()
                        .filter(|(f, _)| *f == face)
                        .map(|(_, s)| *s)
                        .min()
                        .unwrap_or(set.size);
                    size <= 1 || n + 1 >= size
                }
                None => false,
            },
        }
    };
    let mut defences_kept = 0;
    let mut rerolls = Vec::new();
    for (i, face) in faces.iter().enumerate() {
        let keep = if *face == Face::Defence {
            defences_kept += 1;
            defences_kept <= defence_wanted
        } else {
            keep_face(*face)
        };
        if !keep {
            rerolls.push(i as u8);
        }
    }
    rerolls
}

fn batsman_final(view: &View) -> Option<(Vec<Face>, Seat, u32)> {
    let over = view.over.as_ref()?;
    Some((
        over.batting.faces.clone(),
        over.batsman,
        over.batting.bought_defence,
    ))
}

fn bowling_rerolls(view: &View, faces: &[Face]) -> Vec<u8> {
    let Some((bat_faces, batsman, _)) = batsman_final(view) else {
        return Vec::new();
    };
    let gross = {
        let bat_mods = player_of(view, batsman)
            .map(|p| role_mods(ruleset(), &p, Role::Batting))
            .unwrap_or_default();
        let result = evaluate(&bat_faces, &bat_mods, 0, None);
        result.dice_runs
    };
    let mut saves_kept = 0;
    let mut rerolls = Vec::new();
    for (i, face) in faces.iter().enumerate() {
        let keep = match face {
            Face::Wicket | Face::Xp => true,
            Face::Save => {
                saves_kept += 1;
                saves_kept <= gross
            }
            _ => false,
        };
        if !keep {
            rerolls.push(i as u8);
        }
    }
    rerolls
}

fn evaluate(
    bat_faces: &[Face],
    bat_mods: &RoleMods,
    bought: u32,
    bowl: Option<(&[Face], &RoleMods)>,
) -> OverResult {
    let bat = BattingSide {
        faces: bat_faces,
        mods: bat_mods,
        bought_defence: bought,
        wickets_left: u32::MAX,
    };
    let bowl = bowl.map(|(faces, mods)| BowlingSide { faces, mods });
    resolve_over(ruleset(), &bat, bowl.as_ref())
}

/// How much an over is worth to the side choosing: runs and Xp for the batsman (and some
/// defence, since the bowler has not rolled yet); wickets, saves and Xp for the bowler.
fn over_value(role: Role, faces: &[Face], view: &View, seat: Seat, bought: u32) -> f64 {
    let me = player_of(view, seat).unwrap_or_default();
    match role {
        Role::Batting => {
            let mods = role_mods(ruleset(), &me, Role::Batting);
            let r = evaluate(faces, &mods, bought, None);
            let defence = count(faces, Face::Defence) + mods.extra_defence + bought;
            f64::from(r.runs) + 0.4 * f64::from(r.batsman_xp) + 0.8 * f64::from(defence.min(3))
        }
        Role::Bowling => {
            let Some((bat_faces, batsman, bat_bought)) = batsman_final(view) else {
                return 0.0;
            };
            let bat_player = player_of(view, batsman).unwrap_or_default();
            let bat_mods = role_mods(ruleset(), &bat_player, Role::Batting);
            let mods = role_mods(ruleset(), &me, Role::Bowling);
            let r = evaluate(&bat_faces, &bat_mods, bat_bought, Some((faces, &mods)));
            f64::from(r.wickets) * 1.2 - 0.5 * f64::from(r.runs) + 0.4 * f64::from(r.bowler_xp)
        }
    }
}

fn choose_powers(
    view: &View,
    seat: Seat,
    role: Role,
    faces: &[Face],
    powers: &[PowerOption],
) -> Vec<PowerUse> {
    let mut current = faces.to_vec();
    let mut uses = Vec::new();
    for power in powers {
        if let Hook::SetDie { face } = power.hook {
            let base = over_value(role, &current, view, seat, 0);
            let best = (0..current.len())
                .map(|i| {
                    let mut trial = current.clone();
                    trial[i] = face;
                    (i, over_value(role, &trial, view, seat, 0))
                })
                .max_by(|a, b| a.1.total_cmp(&b.1));
            if let Some((die, value)) = best
                && value > base
            {
                current[die] = face;
                uses.push(PowerUse::SetDie {
                    card: power.card.clone(),
                    die: die as u8,
                });
            }
        }
    }
    for power in powers {
        if let Hook::BuyDefence { .. } = power.hook {
            let lost = view
                .players
                .get(seat.index())
                .map(|p| p.wickets_lost)
                .unwrap_or(0);
            let defence = count(&current, Face::Defence);
            let wanted: u32 = if lost + 4 >= view.rules.elimination_wickets {
                3
            } else {
                1
            };
            let times = wanted.saturating_sub(defence).min(power.max_times.unwrap_or(0));
            if times > 0 {
                uses.push(PowerUse::BuyDefence {
                    card: power.card.clone(),
                    times,
                });
            }
        }
    }
    uses
}
