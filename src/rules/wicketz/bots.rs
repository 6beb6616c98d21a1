//! Bots choose from the seat's view only, so the same code drives server bots and remote
//! `crease bot` clients.
//!
//! The heuristic plays like a careful club player: it respects good deliveries (defends,
//! attacking only now and then, per the ruleset's `bot.attack_respect_percent`), attacks loose
//! ones and no-balls towards the emptiest part of the field, and uses a face-up wild card on
//! the ball where it scores safely.

use super::commands::Command;
use super::data::{Ruleset, ruleset};
use super::field::Field;
use super::indicator::{Delivery, Style};
use super::reading::{Reading, read_card};
use super::strokes::{Line, Stroke};
use super::view::{Ask, View};
use crate::rules::{BotPolicy, Dice};

pub fn bot_command(view: &View, policy: BotPolicy, rng: &mut Dice) -> Option<Command> {
    let ask = view.ask.as_ref()?;
    let rules = ruleset();
    Some(match (ask, policy) {
        (Ask::ChooseInnings, BotPolicy::Random) => Command::ChooseInnings {
            bat: rng.chance(1, 2),
        },
        (Ask::ChooseInnings, BotPolicy::Heuristic) => Command::ChooseInnings { bat: true },
        (
            Ask::SetOver {
                over,
                styles,
                lines,
                suggested_field,
                ..
            },
            policy,
        ) => {
            let (style, line) = match policy {
                BotPolicy::Random => (pick(styles, rng).unwrap_or(Style::Pace), pick(lines, rng)),
                BotPolicy::Heuristic => (heuristic_style(*over, view.options.overs), None),
            };
            Command::SetOver {
                style,
                field: Some(with_keeper_for(suggested_field, style, rules)),
                line: line.filter(|l| *l != Line::Wicket),
            }
        }
        (
            Ask::Play {
                delivery,
                legal_strokes,
                wild_card,
                ..
            },
            BotPolicy::Random,
        ) => {
            let stroke = pick(legal_strokes, rng).unwrap_or(Stroke::ForwardDefence);
            Command::Play {
                stroke,
                wild_card: wild_card.is_some() && rng.chance(1, 6) && *delivery != Delivery::Wide,
            }
        }
        (
            Ask::Play {
                delivery,
                legal_strokes,
                wild_card,
                ..
            },
            BotPolicy::Heuristic,
        ) => {
            if let Some(card) = wild_card
                && let Some(stroke) = best_safe_stroke(card, legal_strokes, *delivery, &view.field, rules)
            {
                return Some(Command::Play {
                    stroke,
                    wild_card: true,
                });
            }
            Command::Play {
                stroke: heuristic_stroke(*delivery, legal_strokes, &view.field, rules, rng),
                wild_card: false,
            }
        }
    })
}

fn pick<T: Copy>(items: &[T], rng: &mut Dice) -> Option<T> {
    (!items.is_empty()).then(|| items[rng.below(items.len() as u32) as usize])
}

/// Pace with the new ball and at the death, spin in the middle overs.
fn heuristic_style(over: u16, overs: u16) -> Style {
    if over < overs / 3 || over >= overs - overs / 4 {
        Style::Pace
    } else {
        Style::Spin
    }
}

/// The seed's single-player field puts the keeper at A1 for pace and A0 for spin.
pub(super) fn with_keeper_for(field: &Field, style: Style, rules: &Ruleset) -> Field {
    let keeper = rules.default_field(style).keeper;
    let mut moved = field.clone();
    if !field.fielders.contains(&keeper) {
        moved.keeper = keeper;
    }
    moved
}

/// The stroke whose wild-card reading scores at least two without any risk, if one exists.
fn best_safe_stroke(
    card: &super::cards::Card,
    legal: &[Stroke],
    delivery: Delivery,
    field: &Field,
    rules: &Ruleset,
) -> Option<Stroke> {
    legal
        .iter()
        .filter_map(|stroke| {
            let reading = read_card(card, *stroke, delivery, field, rules);
            let risky = matches!(
                reading,
                Reading::Bowled | Reading::Lbw | Reading::RunOut { .. } | Reading::CatchChance { .. }
            );
            let runs = reading.bat_runs() + reading.byes();
            (!risky && runs >= 2).then_some((runs, *stroke))
        })
        .max()
        .map(|(_, stroke)| stroke)
}

/// How crowded a stroke's usual directions are: fielders in rings 1-3 of its cue letters,
/// per cue letter (times 4, so strokes with wide and narrow cues compare in integers).
fn crowding(stroke: Stroke, field: &Field, rules: &Ruleset) -> usize {
    let cue = rules.stroke_info(stroke).cue.as_bytes();
    field
        .players()
        .filter(|p| p.ring >= 1 && cue.contains(&(b'A' + p.letter)))
        .count()
        * 4
        / cue.len().max(1)
}

fn heuristic_stroke(
    delivery: Delivery,
    legal: &[Stroke],
    field: &Field,
    rules: &Ruleset,
    rng: &mut Dice,
) -> Stroke {
    let attack = !delivery.commands_respect() || rng.chance(rules.bot.attack_respect_percent, 100);
    let pool: Vec<Stroke> = if attack {
        legal.iter().copied().filter(|s| s.is_attacking()).collect()
    } else if delivery == Delivery::Bouncer {
        legal
            .iter()
            .copied()
            .filter(|s| matches!(s, Stroke::AvoidingAction | Stroke::Leave | Stroke::BackDefence))
            .collect()
    } else {
        legal
            .iter()
            .copied()
            .filter(|s| matches!(s, Stroke::ForwardDefence | Stroke::BackDefence))
            .collect()
    };
    let open: Vec<Stroke> = if attack {
        let least = pool.iter().map(|s| crowding(*s, field, rules)).min().unwrap_or(0);
        pool.into_iter()
            .filter(|s| crowding(*s, field, rules) == least)
            .collect()
    } else {
        pool
    };
    pick(&open, rng)
        .or_else(|| pick(legal, rng))
        .unwrap_or(Stroke::ForwardDefence)
}
