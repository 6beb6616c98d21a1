//! Bot policies: one function from an [`Ask`] (what the seat may see) to a command.
//!
//! `Ctg::bot_command` calls it with the view's ask, the simulator with the ask built from
//! the state; both are the same value, so there is one policy with two entry points.

use super::command::{Command, TossChoice};
use super::field::{Field, FieldRules};
use super::resolve::{self, Contact};
use super::types::{Attitude, DistanceChoice, MissOption, Role};
use super::view::{Ask, Situation};
use crate::rules::{BotPolicy, Dice};

fn first_bit(mask: u16) -> u8 {
    mask.trailing_zeros().min(15) as u8
}

fn random_bit(mask: u16, rng: &mut Dice) -> u8 {
    let n = mask.count_ones();
    if n == 0 {
        return 0;
    }
    let mut pick = rng.below(n);
    for p in 0..16u8 {
        if mask & (1 << p) != 0 {
            if pick == 0 {
                return p;
            }
            pick -= 1;
        }
    }
    0
}

fn in_order(order: &[u8; 11], available: u16) -> impl Iterator<Item = u8> + '_ {
    order
        .iter()
        .copied()
        .filter(move |&p| p < 16 && available & (1 << p) != 0)
}

fn next_in_order(order: &[u8; 11], available: u16) -> u8 {
    in_order(order, available)
        .next()
        .unwrap_or_else(|| first_bit(available))
}

/// A batting order: batters, then all-rounders, then bowlers, higher confidence first.
fn batting_order(roles: &[Role; 12], confidence: &[i8; 12], drop: u8) -> [u8; 11] {
    let mut players: Vec<u8> = (0..12u8).filter(|&p| p != drop).collect();
    let rank = |r: Role| match r {
        Role::Batter => 0,
        Role::AllRounder => 1,
        Role::Pace => 2,
        Role::Spin => 3,
    };
    players.sort_by_key(|&p| (rank(roles[usize::from(p)]), -confidence[usize::from(p)], p));
    let mut order = [0u8; 11];
    order.copy_from_slice(&players[..11]);
    order
}

/// The attitude a sensible batter takes: aggressive with confidence or when the chase
/// demands it.
pub(super) fn heuristic_attitude(sit: &Situation, confidence: i8) -> Attitude {
    let needed_rate = sit
        .target
        .map(|t| f32::from(t.saturating_sub(sit.runs)) * 6.0 / f32::from(sit.balls_left.max(1)))
        .unwrap_or(0.0);
    if needed_rate > 9.0 || (confidence >= 2 && sit.wickets < 7) || (sit.balls_left <= 12 && sit.wickets < 9)
    {
        Attitude::Aggressive
    } else {
        Attitude::Defensive
    }
}

/// The standard field: an infield ring plus the allowed outfield, legal by construction.
fn heuristic_field(rules: &FieldRules, current: Field) -> Field {
    if rules.check(current).is_ok() {
        return current;
    }
    let mut wanted = Field::EMPTY;
    if rules.slips_allowed {
        wanted = wanted.with(0, 1);
    }
    for zone in 1..=5u8 {
        wanted = wanted.with(zone, 1);
    }
    for zone in [3u8, 4, 2] {
        wanted = wanted.with(zone, 2);
    }
    wanted = wanted.with(2, rules.format.areas()).with(4, rules.format.areas());
    rules.repair(wanted)
}

fn random_field(rules: &FieldRules, rng: &mut Dice) -> Field {
    let mut field = Field::EMPTY;
    for _ in 0..40 {
        if field.count() >= 9 {
            break;
        }
        let zone = rng.below(6) as u8;
        let area = if zone == 0 {
            rng.roll(2)
        } else {
            rng.roll(rules.format.areas())
        };
        if rules.fits(field, zone, area) {
            field = field.with(zone, area);
        }
    }
    rules.repair(field)
}

/// Expected Advantage of a zone against a uniformly chosen card.
fn zone_value(zones: &[u8; 8], cards: u8, zone: u8, confidence: i8, specialist: bool) -> i32 {
    (0..usize::from(cards))
        .map(|i| i32::from(resolve::advantage(confidence, zone, zones[i], specialist)))
        .sum()
}

/// Chooses a command for `ask`.
pub fn choose(ask: &Ask, sit: &Situation, policy: BotPolicy, rng: &mut Dice) -> Command {
    match policy {
        BotPolicy::Random => random(ask, rng),
        BotPolicy::Heuristic => heuristic(ask, sit, rng),
    }
}

fn coin(rng: &mut Dice) -> bool {
    rng.below(2) == 1
}

fn attitude_coin(rng: &mut Dice) -> Attitude {
    if coin(rng) {
        Attitude::Aggressive
    } else {
        Attitude::Defensive
    }
}

fn random(ask: &Ask, rng: &mut Dice) -> Command {
    match *ask {
        Ask::SelectSquad {
            roles,
            confidence,
            droppable,
        } => {
            let drop = random_bit(droppable, rng);
            let mut order = batting_order(&roles, &confidence, drop);
            rng.shuffle(&mut order);
            Command::SelectSquad {
                drop,
                batting_order: order,
            }
        }
        Ask::Toss => Command::Toss {
            choice: if coin(rng) {
                TossChoice::Bat
            } else {
                TossChoice::Bowl
            },
        },
        Ask::ChooseBowler { legal, .. } => Command::ChooseBowler {
            bowler: random_bit(legal, rng),
        },
        Ask::Openers { available, .. } => {
            let striker = random_bit(available, rng);
            let non_striker = random_bit(available & !(1 << striker), rng);
            Command::Openers {
                striker,
                non_striker,
                striker_attitude: attitude_coin(rng),
                non_striker_attitude: attitude_coin(rng),
            }
        }
        Ask::NextBatter { available, .. } => Command::NextBatter {
            batter: random_bit(available, rng),
            attitude: attitude_coin(rng),
        },
        Ask::PowerPlay { .. } => Command::PowerPlay { call: coin(rng) },
        Ask::SetField { rules, current, .. } => {
            let keep = rules.check(current).is_ok() && rng.below(8) != 0;
            Command::SetField {
                field: if keep { current } else { random_field(&rules, rng) },
            }
        }
        Ask::Bowl { cards, .. } => Command::Bowl {
            card: rng.below(u32::from(cards.max(1))) as u8,
        },
        Ask::Shot { .. } => Command::Shot {
            zone: rng.roll(5),
            attitude: attitude_coin(rng),
        },
        Ask::Skills { add_one, roll_d8, .. } => Command::Skills {
            add_one: add_one && coin(rng),
            roll_d8: roll_d8 && coin(rng),
        },
        Ask::QuickSingle => Command::QuickSingle { take: coin(rng) },
        Ask::RerollToHit { .. } | Ask::RerollBounce { .. } => Command::Reroll {
            reroll: rng.below(4) == 0,
        },
        Ask::Miss { options, .. } => {
            let legal: Vec<MissOption> = MissOption::ALL
                .into_iter()
                .filter(|o| options & o.bit() != 0)
                .collect();
            let option = legal.get(rng.below(legal.len().max(1) as u32) as usize).copied();
            Command::Miss {
                option: option.unwrap_or(MissOption::Bowled),
            }
        }
        Ask::Distance { add_one, reroll, .. } => {
            let mut choices = vec![DistanceChoice::Accept];
            if add_one {
                choices.push(DistanceChoice::AddOne);
            }
            if reroll {
                choices.push(DistanceChoice::Reroll);
            }
            Command::Distance {
                choice: choices[rng.below(choices.len() as u32) as usize],
            }
        }
        Ask::Run { .. } => Command::Run { attempt: coin(rng) },
        Ask::Review { .. } => Command::Review { review: coin(rng) },
    }
}

fn heuristic(ask: &Ask, sit: &Situation, rng: &mut Dice) -> Command {
    match *ask {
        Ask::SelectSquad {
            roles,
            confidence,
            droppable,
        } => {
            // Keep two pace bowlers (slips), drop the weaker spinner.
            let drop = (0..12u8)
                .filter(|&p| droppable & (1 << p) != 0 && roles[usize::from(p)] == Role::Spin)
                .min_by_key(|&p| confidence[usize::from(p)])
                .unwrap_or_else(|| first_bit(droppable));
            Command::SelectSquad {
                drop,
                batting_order: batting_order(&roles, &confidence, drop),
            }
        }
        Ask::Toss => Command::Toss {
            choice: TossChoice::Bowl,
        },
        Ask::ChooseBowler {
            legal,
            types,
            overs_bowled,
        } => {
            let bowler = (0..12u8)
                .filter(|&p| legal & (1 << p) != 0)
                .min_by_key(|&p| {
                    let kind = match types[usize::from(p)] {
                        Some(super::types::BowlType::Pace) => 0,
                        Some(super::types::BowlType::Spin) => 1,
                        _ => 2,
                    };
                    (overs_bowled[usize::from(p)], kind, p)
                })
                .unwrap_or_else(|| first_bit(legal));
            Command::ChooseBowler { bowler }
        }
        Ask::Openers { available, order } => {
            let mut batters = in_order(&order, available);
            let striker = batters.next().unwrap_or_else(|| first_bit(available));
            let non_striker = batters
                .next()
                .unwrap_or_else(|| first_bit(available & !(1 << striker)));
            Command::Openers {
                striker,
                non_striker,
                striker_attitude: Attitude::Defensive,
                non_striker_attitude: Attitude::Defensive,
            }
        }
        Ask::NextBatter { available, order } => Command::NextBatter {
            batter: next_in_order(&order, available),
            attitude: Attitude::Defensive,
        },
        Ask::PowerPlay { .. } => Command::PowerPlay { call: true },
        Ask::SetField { rules, current, .. } => Command::SetField {
            field: heuristic_field(&rules, current),
        },
        Ask::Bowl { cards, .. } => Command::Bowl {
            card: rng.below(u32::from(cards.max(1))) as u8,
        },
        Ask::Shot {
            cards,
            zones,
            confidence,
            specialist,
            field,
            ..
        } => {
            let best = (1..=5u8)
                .map(|z| {
                    let value = zone_value(&zones, cards, z, confidence, specialist) * 4
                        - field.in_zone(z) as i32 * i32::from(cards);
                    (value, z)
                })
                .max()
                .map(|(_, z)| z)
                .unwrap_or(3);
            // Stay a little unpredictable: one ball in four goes to a random zone.
            let zone = if rng.below(4) == 0 { rng.roll(5) } else { best };
            Command::Shot {
                zone,
                attitude: heuristic_attitude(sit, confidence),
            }
        }
        Ask::Skills { add_one, roll_d8, .. } => Command::Skills { add_one, roll_d8 },
        Ask::QuickSingle => Command::QuickSingle { take: true },
        Ask::RerollToHit {
            bowl,
            bowl_sides,
            bat,
            advantage,
            bowled_chance_margin,
            ..
        } => {
            let reroll = match resolve::contact(bowl, bowl_sides, bat, advantage) {
                Contact::Miss(m) => m >= bowled_chance_margin,
                _ => false,
            };
            Command::Reroll { reroll }
        }
        Ask::Miss {
            options,
            slips,
            bowled_sides,
            bowled_min,
            ..
        } => {
            let chance = |o: MissOption| -> f32 {
                match o {
                    MissOption::Bowled => {
                        f32::from(bowled_sides.saturating_add(1).saturating_sub(bowled_min))
                            / f32::from(bowled_sides.max(1))
                    }
                    MissOption::Slips => 1.0 - (5.0f32 / 6.0).powi(i32::from(slips)),
                    MissOption::Howzat => 2.0 / 6.0,
                }
            };
            let option = MissOption::ALL
                .into_iter()
                .filter(|o| options & o.bit() != 0)
                .max_by(|a, b| chance(*a).total_cmp(&chance(*b)))
                .unwrap_or(MissOption::Bowled);
            Command::Miss { option }
        }
        Ask::Distance {
            distance,
            add_one,
            reroll,
            max,
            zone,
            field,
        } => {
            let area = resolve::area_of(distance);
            let choice =
                if add_one && (distance + 1 == max || !field.has(zone, resolve::area_of(distance + 1))) {
                    DistanceChoice::AddOne
                } else if reroll && field.has(zone, area) && distance <= 2 {
                    DistanceChoice::Reroll
                } else {
                    DistanceChoice::Accept
                };
            Command::Distance { choice }
        }
        Ask::RerollBounce {
            red,
            distance,
            zone,
            field,
            ..
        } => Command::Reroll {
            reroll: red && field.has(zone, resolve::area_of(distance)),
        },
        Ask::Run {
            run_out_min, attempt, ..
        } => {
            let chasing_hard = sit
                .target
                .is_some_and(|t| t.saturating_sub(sit.runs) * 6 > sit.balls_left.max(1) * 10);
            let risk_ok = run_out_min == 6 && sit.wickets < 8 && attempt <= 3;
            Command::Run {
                attempt: risk_ok || (chasing_hard && run_out_min >= 5),
            }
        }
        Ask::Review { .. } => Command::Review { review: true },
    }
}

/// The move played when a seat's clock runs out: legal, deterministic and cautious.
pub fn default_command(ask: &Ask) -> Command {
    match *ask {
        Ask::SelectSquad {
            roles,
            confidence,
            droppable,
        } => {
            let drop = first_bit(droppable);
            Command::SelectSquad {
                drop,
                batting_order: batting_order(&roles, &confidence, drop),
            }
        }
        Ask::Toss => Command::Toss {
            choice: TossChoice::Bat,
        },
        Ask::ChooseBowler { legal, .. } => Command::ChooseBowler {
            bowler: first_bit(legal),
        },
        Ask::Openers { available, order } => {
            let striker = next_in_order(&order, available);
            let non_striker = next_in_order(&order, available & !(1 << striker));
            Command::Openers {
                striker,
                non_striker,
                striker_attitude: Attitude::Defensive,
                non_striker_attitude: Attitude::Defensive,
            }
        }
        Ask::NextBatter { available, order } => Command::NextBatter {
            batter: next_in_order(&order, available),
            attitude: Attitude::Defensive,
        },
        Ask::PowerPlay { .. } => Command::PowerPlay { call: false },
        Ask::SetField { rules, current, .. } => Command::SetField {
            field: heuristic_field(&rules, current),
        },
        Ask::Bowl { .. } => Command::Bowl { card: 0 },
        Ask::Shot { attitude, .. } => Command::Shot { zone: 3, attitude },
        Ask::Skills { .. } => Command::Skills {
            add_one: false,
            roll_d8: false,
        },
        Ask::QuickSingle => Command::QuickSingle { take: false },
        Ask::RerollToHit { .. } | Ask::RerollBounce { .. } => Command::Reroll { reroll: false },
        Ask::Miss { options, .. } => Command::Miss {
            option: MissOption::ALL
                .into_iter()
                .find(|o| options & o.bit() != 0)
                .unwrap_or(MissOption::Bowled),
        },
        Ask::Distance { .. } => Command::Distance {
            choice: DistanceChoice::Accept,
        },
        Ask::Run { .. } => Command::Run { attempt: false },
        Ask::Review { .. } => Command::Review { review: false },
    }
}
