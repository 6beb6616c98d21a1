//! What a viewer sees: everything public (every component of this game is face up) plus
//! the question put to that seat with its legal options. The only hidden thing, the order
//! of the Xp draw pile, is never copied here: views show its size.

use super::cards::usable_cards;
use super::data::{ChampionshipDef, Hook, RunSet, XpCardDef, ruleset};
use super::faces::{Face, Role};
use super::flow::pending;
use super::scoring;
use super::state::{OverRecord, OverState, Phase, Points, State};
use crate::rules::{Outcome, Seat, Viewer};
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct PlayerView {
    pub seat: Seat,
    pub xp: u32,
    pub runs: u32,
    pub wickets_lost: u32,
    pub wickets_taken: u32,
    pub cards: Vec<XpCardDef>,
    pub eliminated: bool,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct ChampionshipView {
    pub card: ChampionshipDef,
    pub holders: Vec<Seat>,
}

/// A choice power the seat may use when it stops.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct PowerOption {
    pub card: String,
    pub hook: Hook,
    /// For `buy_defence`: the most times the seat can pay for now.
    pub max_times: Option<u32>,
}

/// What this seat is asked now.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case", tag = "ask")]
pub enum Ask {
    /// Roll (first roll: `Roll { dice: [] }`), re-roll any subset while `rolls_left > 0`, or
    /// stop (after the first roll) choosing among `powers`.
    Dice {
        role: Role,
        first_roll: bool,
        rolls_left: u32,
        faces: Vec<Face>,
        powers: Vec<PowerOption>,
    },
    /// Buy any of `affordable` (by id) or pass.
    Buy { xp: u32, affordable: Vec<String> },
}

/// Public rule numbers a client needs to evaluate dice.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct RulesView {
    pub batting_die: Vec<Face>,
    pub bowling_die: Vec<Face>,
    pub dice_per_roll: u32,
    pub run_sets: Vec<RunSet>,
    pub rounds: u32,
    pub elimination_wickets: u32,
    pub xp_per_point: u32,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct View {
    pub viewer: Viewer,
    pub round: u32,
    pub order: Vec<Seat>,
    pub players: Vec<PlayerView>,
    pub market: Vec<XpCardDef>,
    pub draw_pile_size: u32,
    pub championships: Vec<ChampionshipView>,
    pub over: Option<OverState>,
    pub buyer: Option<Seat>,
    pub last_over: Option<OverRecord>,
    pub waiting_for: Vec<Seat>,
    pub ask: Option<Ask>,
    /// Points as they stand (final once the match is over).
    pub points: Vec<Points>,
    pub rules: RulesView,
    pub outcome: Option<Outcome>,
}

fn card_defs(ids: &[String]) -> Vec<XpCardDef> {
    ids.iter()
        .filter_map(|id| ruleset().xp_card(id).cloned())
        .collect()
}

fn ask(state: &State, seat: Seat) -> Option<Ask> {
    if !pending(state).contains(&seat) {
        return None;
    }
    let player = state.player(seat)?;
    match &state.phase {
        Phase::Over(over) => {
            let role = over.active_role();
            let turn = over.turn(role);
            let powers = usable_cards(ruleset(), player, role)
                .into_iter()
                .filter(|c| c.hook.is_choice())
                .map(|c| PowerOption {
                    card: c.id.clone(),
                    hook: c.hook.clone(),
                    max_times: match c.hook {
                        Hook::BuyDefence { xp_per_defence } => Some(player.xp / xp_per_defence.max(1)),
                        _ => None,
                    },
                })
                .collect();
            Some(Ask::Dice {
                role,
                first_roll: turn.rolls_used == 0,
                rolls_left: turn.roll_limit.saturating_sub(turn.rolls_used),
                faces: turn.faces.clone(),
                powers,
            })
        }
        Phase::Buying { .. } => Some(Ask::Buy {
            xp: player.xp,
            affordable: state
                .market
                .iter()
                .filter(|id| ruleset().xp_card(id).is_some_and(|c| c.cost <= player.xp))
                .cloned()
                .collect(),
        }),
        Phase::Between | Phase::Finished => None,
    }
}

pub fn view(state: &State, viewer: Viewer) -> View {
    let rules = ruleset();
    View {
        viewer,
        round: state.round,
        order: state.order.clone(),
        players: state
            .players
            .iter()
            .enumerate()
            .map(|(i, p)| PlayerView {
                seat: Seat(i as u8),
                xp: p.xp,
                runs: p.runs,
                wickets_lost: p.wickets_lost,
                wickets_taken: p.wickets_taken,
                cards: card_defs(&p.cards),
                eliminated: p.eliminated,
            })
            .collect(),
        market: card_defs(&state.market),
        draw_pile_size: state.draw_pile.len() as u32,
        championships: rules
            .championship_cards
            .iter()
            .map(|c| ChampionshipView {
                card: c.clone(),
                holders: state.holders(&c.id).to_vec(),
            })
            .collect(),
        over: state.over().cloned(),
        buyer: match state.phase {
            Phase::Buying { seat } => Some(seat),
            _ => None,
        },
        last_over: state.last_over.clone(),
        waiting_for: pending(state),
        ask: match viewer {
            Viewer::Seat(seat) => ask(state, seat),
            Viewer::Spectator => None,
        },
        points: state
            .final_points
            .clone()
            .unwrap_or_else(|| scoring::points(rules, state)),
        rules: RulesView {
            batting_die: rules.batting_die.clone(),
            bowling_die: rules.bowling_die.clone(),
            dice_per_roll: rules.dice_per_roll,
            run_sets: rules.run_sets.clone(),
            rounds: rules.rounds,
            elimination_wickets: rules.elimination_wickets,
            xp_per_point: rules.xp_per_point,
        },
        outcome: state.outcome.clone(),
    }
}
