//! `decide`, `start` and `apply`: the match's flow from round to over to buying.
//!
//! `decide` builds its events on a scratch copy of the state, folding each one as it is
//! pushed, so "what comes next" (the next over, the buying turn, a new round) is always
//! computed from the state those events lead to, exactly as a replay will see it.

use super::cards::{apply_powers, role_mods, roll_limit};
use super::commands::Command;
use super::data::{Ruleset, ruleset};
use super::errors::ChampionsReject;
use super::events::{Event, HiddenPile, PowerUse};
use super::faces::{Face, Role};
use super::resolve::{BattingSide, BowlingSide, resolve_over};
use super::scoring;
use super::state::{OverRecord, OverState, Phase, State, TurnState};
use crate::rules::{Dice, Outcome, Seat};

/// Events being built by one command, folded into a scratch state as they are pushed.
struct Builder {
    state: State,
    events: Vec<Event>,
}

impl Builder {
    fn new(state: &State) -> Self {
        Builder {
            state: state.clone(),
            events: Vec::new(),
        }
    }

    fn push(&mut self, event: Event) {
        apply(&mut self.state, &event);
        self.events.push(event);
    }
}

/// Setup and the first round. Seed: 003_a3e523365b63d62b.txt "Setup".
pub fn start(state: &State, dice: &mut Dice) -> Vec<Event> {
    let rules = ruleset();
    let mut b = Builder::new(state);
    let mut deck: Vec<String> = rules.xp_cards.iter().map(|c| c.id.clone()).collect();
    dice.shuffle(&mut deck);
    let pile = deck.split_off((rules.market_size as usize).min(deck.len()));
    b.push(Event::DeckShuffled {
        market: deck,
        draw_pile: HiddenPile {
            size: pile.len() as u32,
            order: Some(pile),
        },
    });
    start_round(&mut b, rules, 1, dice);
    b.events
}

pub fn decide(
    state: &State,
    seat: Seat,
    command: &Command,
    dice: &mut Dice,
) -> Result<Vec<Event>, ChampionsReject> {
    if state.phase == Phase::Finished {
        return Err(ChampionsReject::MatchOver);
    }
    if state.player(seat).is_none() {
        return Err(ChampionsReject::NoSuchSeat);
    }
    if !pending(state).contains(&seat) {
        return Err(ChampionsReject::NotYourTurn);
    }
    let rules = ruleset();
    let mut b = Builder::new(state);
    match (&state.phase, command) {
        (Phase::Over(over), Command::Roll { dice: which }) => roll(&mut b, rules, over, seat, which, dice)?,
        (Phase::Over(over), Command::Stop { powers }) => stop(&mut b, rules, over, seat, powers)?,
        (Phase::Over(_), Command::Buy { .. } | Command::Pass) => return Err(ChampionsReject::NotBuyingNow),
        (Phase::Buying { .. }, Command::Buy { card }) => buy(&mut b, rules, seat, card)?,
        (Phase::Buying { .. }, Command::Pass) => {
            b.push(Event::Passed { seat });
            next_buyer_or_round(&mut b, rules, seat, dice);
        }
        (Phase::Buying { .. }, Command::Roll { .. } | Command::Stop { .. }) => {
            return Err(ChampionsReject::NotRollingNow);
        }
        (Phase::Between | Phase::Finished, _) => return Err(ChampionsReject::NotYourTurn),
    }
    Ok(b.events)
}

/// Seed: 003_a3e523365b63d62b.txt "Each player has a total of 3 rolls per turn. During each
/// roll, they can choose any subset of the 6 dice to re-roll".
fn roll(
    b: &mut Builder,
    rules: &Ruleset,
    over: &OverState,
    seat: Seat,
    which: &[u8],
    dice: &mut Dice,
) -> Result<(), ChampionsReject> {
    let role = over.active_role();
    let turn = over.turn(role);
    let count = rules.dice_per_roll as u8;
    let chosen: Vec<u8> = if turn.rolls_used == 0 {
        if !which.is_empty() {
            return Err(ChampionsReject::FirstRollRollsAll);
        }
        (0..count).collect()
    } else {
        if turn.rolls_used >= turn.roll_limit {
            return Err(ChampionsReject::NoRollsLeft {
                limit: turn.roll_limit,
            });
        }
        if which.is_empty() {
            return Err(ChampionsReject::NothingToReroll);
        }
        for (i, die) in which.iter().enumerate() {
            if *die >= count {
                return Err(ChampionsReject::DieOutOfRange {
                    die: *die,
                    last: count - 1,
                });
            }
            if which[..i].contains(die) {
                return Err(ChampionsReject::DieListedTwice { die: *die });
            }
        }
        which.to_vec()
    };
    let die_faces = rules.die(role);
    let faces = chosen
        .iter()
        .map(|_| die_faces[dice.below(die_faces.len() as u32) as usize])
        .collect();
    b.push(Event::DiceRolled {
        seat,
        role,
        roll: turn.rolls_used + 1,
        dice: chosen,
        faces,
    });
    Ok(())
}

fn stop(
    b: &mut Builder,
    rules: &Ruleset,
    over: &OverState,
    seat: Seat,
    powers: &[PowerUse],
) -> Result<(), ChampionsReject> {
    let role = over.active_role();
    let turn = over.turn(role);
    if turn.rolls_used == 0 {
        return Err(ChampionsReject::NotRolledYet);
    }
    let player = &b.state.players[seat.index()];
    let applied = apply_powers(rules, player, role, &turn.faces, powers)?;
    b.push(Event::TurnEnded {
        seat,
        role,
        powers: powers.to_vec(),
        faces: applied.faces,
        xp_spent: applied.xp_spent,
        bought_defence: applied.bought_defence,
    });
    if role == Role::Batting && over.bowler.is_some() {
        return Ok(());
    }
    finish_over(b, rules);
    Ok(())
}

/// Resolves the over just finished, awards cards, eliminates, and moves on.
fn finish_over(b: &mut Builder, rules: &Ruleset) {
    let Some(over) = b.state.over().cloned() else {
        return;
    };
    let batsman = &b.state.players[over.batsman.index()];
    let bat_mods = role_mods(rules, batsman, Role::Batting);
    let bat = BattingSide {
        faces: &over.batting.faces,
        mods: &bat_mods,
        bought_defence: over.batting.bought_defence,
        wickets_left: rules.elimination_wickets.saturating_sub(batsman.wickets_lost),
    };
    let bowl_mods = over
        .bowler
        .map(|s| role_mods(rules, &b.state.players[s.index()], Role::Bowling));
    let bowl = bowl_mods.as_ref().map(|mods| BowlingSide {
        faces: &over.bowling.faces,
        mods,
    });
    let result = resolve_over(rules, &bat, bowl.as_ref());
    let eliminated = batsman.wickets_lost + result.wickets >= rules.elimination_wickets;
    let firsts = scoring::firsts_won(rules, &b.state, over.batsman, over.bowler, &result, eliminated);
    b.push(Event::OverResolved {
        batsman: over.batsman,
        bowler: over.bowler,
        result,
    });
    for (seat, card) in firsts {
        b.push(Event::ChampionshipWon { seat, card });
    }
    if eliminated {
        b.push(Event::PlayerEliminated {
            seat: over.batsman,
            by: over.bowler,
        });
    }
    if b.state.active_seats().len() < rules.min_active_players as usize {
        end_match(b, rules);
        return;
    }
    next_over_or_buying(b, rules, over.index + 1);
}

/// Stadium pairing [ASSUMED `stadium_bowler_offset` = 1]: in player order, player i bats
/// against player i+offset (wrapping; an offset that would pair a player with themselves
/// falls back to 1). An eliminated batsman's over is skipped; an eliminated bowler's over is the
/// special last over. Seed: 003_a3e523365b63d62b.txt "Player Elimination".
fn next_over_or_buying(b: &mut Builder, rules: &Ruleset, from: u32) {
    let order = b.state.order.clone();
    let n = order.len() as u32;
    let offset = match rules.stadium_bowler_offset % n.max(1) {
        0 => 1,
        offset => offset,
    };
    for index in from..n {
        let batsman = order[index as usize];
        if b.state.players[batsman.index()].eliminated {
            continue;
        }
        let bowler_seat = order[((index + offset) % n) as usize];
        let bowler = (!b.state.players[bowler_seat.index()].eliminated).then_some(bowler_seat);
        let batting_rolls = roll_limit(
            rules,
            &b.state.players[batsman.index()],
            Role::Batting,
            bowler.is_none(),
        );
        let bowling_rolls = bowler
            .map(|s| roll_limit(rules, &b.state.players[s.index()], Role::Bowling, false))
            .unwrap_or(0);
        b.push(Event::OverStarted {
            index,
            batsman,
            bowler,
            batting_rolls,
            bowling_rolls,
        });
        return;
    }
    match first_active_after(&b.state, None) {
        Some(seat) => b.push(Event::BuyTurn { seat }),
        None => end_match(b, rules),
    }
}

/// The next active player in this round's order after `after` (or the first one).
fn first_active_after(state: &State, after: Option<Seat>) -> Option<Seat> {
    let start = match after {
        Some(seat) => state.order.iter().position(|s| *s == seat)? + 1,
        None => 0,
    };
    state.order[start..]
        .iter()
        .copied()
        .find(|s| !state.players[s.index()].eliminated)
}

/// Seed: 003_a3e523365b63d62b.txt "At the start of every round, take player order cards
/// equal to the number of players, shuffle and distribute."
fn start_round(b: &mut Builder, rules: &Ruleset, round: u32, dice: &mut Dice) {
    let mut order = b.state.active_seats();
    dice.shuffle(&mut order);
    b.push(Event::RoundStarted { round, order });
    next_over_or_buying(b, rules, 0);
}

fn next_buyer_or_round(b: &mut Builder, rules: &Ruleset, after: Seat, dice: &mut Dice) {
    if let Some(seat) = first_active_after(&b.state, Some(after)) {
        b.push(Event::BuyTurn { seat });
    } else if b.state.round >= rules.rounds {
        end_match(b, rules);
    } else {
        let next = b.state.round + 1;
        start_round(b, rules, next, dice);
    }
}

/// Seed: 003_a3e523365b63d62b.txt "A player can buy as many cards as they want and can
/// afford ... As soon as a card is bought, replace it with a new one from the draw pile."
fn buy(b: &mut Builder, rules: &Ruleset, seat: Seat, card: &str) -> Result<(), ChampionsReject> {
    if !b.state.market.iter().any(|c| c == card) {
        return Err(ChampionsReject::CardNotInMarket {
            card: card.to_string(),
        });
    }
    let def = rules
        .xp_card(card)
        .ok_or_else(|| ChampionsReject::CardNotInMarket {
            card: card.to_string(),
        })?;
    let have = b.state.players[seat.index()].xp;
    if def.cost > have {
        return Err(ChampionsReject::CannotAffordCard { cost: def.cost, have });
    }
    b.push(Event::CardBought {
        seat,
        card: card.to_string(),
        cost: def.cost,
        replacement: b.state.draw_pile.first().cloned(),
    });
    Ok(())
}

fn end_match(b: &mut Builder, rules: &Ruleset) {
    for (seat, card) in scoring::caps_won(rules, &b.state) {
        b.push(Event::ChampionshipWon { seat, card });
    }
    let points = scoring::points(rules, &b.state);
    let placings = scoring::placings(&b.state, &points);
    let summary = scoring::summary(&points, &placings);
    b.push(Event::MatchEnded {
        points,
        placings,
        summary,
    });
}

/// The seats awaited now: the roller during an over, the buyer while buying.
pub fn pending(state: &State) -> Vec<Seat> {
    match &state.phase {
        Phase::Over(over) => over.active_seat().into_iter().collect(),
        Phase::Buying { seat } => vec![*seat],
        Phase::Between | Phase::Finished => Vec::new(),
    }
}

/// Folds one event. Never fails: an event that does not fit is ignored.
pub fn apply(state: &mut State, event: &Event) {
    match event {
        Event::DeckShuffled { market, draw_pile } => {
            let start_xp = ruleset().start_xp;
            for player in &mut state.players {
                player.xp = start_xp;
            }
            state.market = market.clone();
            state.draw_pile = draw_pile.order.clone().unwrap_or_default();
        }
        Event::RoundStarted { round, order } => {
            state.round = *round;
            state.order = order.clone();
            state.phase = Phase::Between;
        }
        Event::OverStarted {
            index,
            batsman,
            bowler,
            batting_rolls,
            bowling_rolls,
        } => {
            state.phase = Phase::Over(OverState {
                index: *index,
                batsman: *batsman,
                bowler: *bowler,
                batting: TurnState {
                    roll_limit: *batting_rolls,
                    ..TurnState::default()
                },
                bowling: TurnState {
                    roll_limit: *bowling_rolls,
                    ..TurnState::default()
                },
            });
        }
        Event::DiceRolled {
            role,
            roll,
            dice,
            faces,
            ..
        } => {
            if let Phase::Over(over) = &mut state.phase {
                let turn = over.turn_mut(*role);
                // The first roll creates the dice; the placeholder is overwritten just below.
                let needed = dice.iter().map(|d| usize::from(*d) + 1).max().unwrap_or(0);
                if turn.faces.len() < needed {
                    turn.faces.resize(needed, Face::Dot);
                }
                for (die, face) in dice.iter().zip(faces) {
                    turn.faces[usize::from(*die)] = *face;
                }
                turn.rolls_used = *roll;
            }
        }
        Event::TurnEnded {
            seat,
            role,
            faces,
            xp_spent,
            bought_defence,
            ..
        } => {
            if let Some(player) = state.players.get_mut(seat.index()) {
                player.xp = player.xp.saturating_sub(*xp_spent);
            }
            if let Phase::Over(over) = &mut state.phase {
                let turn = over.turn_mut(*role);
                turn.faces = faces.clone();
                turn.finished = true;
                turn.bought_defence = *bought_defence;
            }
        }
        Event::OverResolved {
            batsman,
            bowler,
            result,
        } => {
            if let Some(p) = state.players.get_mut(batsman.index()) {
                p.runs += result.runs;
                p.wickets_lost += result.wickets;
                p.xp += result.batsman_xp;
            }
            if let Some(p) = bowler.and_then(|s| state.players.get_mut(s.index())) {
                p.wickets_taken += result.wickets;
                p.xp += result.bowler_xp;
            }
            let (batting_faces, bowling_faces) = match &state.phase {
                Phase::Over(over) => (over.batting.faces.clone(), over.bowling.faces.clone()),
                _ => (Vec::new(), Vec::new()),
            };
            state.last_over = Some(OverRecord {
                round: state.round,
                batsman: *batsman,
                bowler: *bowler,
                batting_faces,
                bowling_faces,
                result: result.clone(),
            });
            state.phase = Phase::Between;
        }
        Event::ChampionshipWon { seat, card } => {
            match state.championships.iter_mut().find(|(id, _)| id == card) {
                Some((_, holders)) => holders.push(*seat),
                None => state.championships.push((card.clone(), vec![*seat])),
            }
        }
        Event::PlayerEliminated { seat, .. } => {
            if let Some(p) = state.players.get_mut(seat.index()) {
                p.eliminated = true;
            }
        }
        Event::BuyTurn { seat } => state.phase = Phase::Buying { seat: *seat },
        Event::CardBought {
            seat,
            card,
            cost,
            replacement,
        } => {
            if let Some(p) = state.players.get_mut(seat.index()) {
                p.xp = p.xp.saturating_sub(*cost);
                p.cards.push(card.clone());
            }
            if let Some(slot) = state.market.iter().position(|c| c == card) {
                match replacement {
                    Some(next) => state.market[slot] = next.clone(),
                    None => {
                        state.market.remove(slot);
                    }
                }
            }
            if replacement.is_some() && !state.draw_pile.is_empty() {
                state.draw_pile.remove(0);
            }
        }
        Event::Passed { .. } => {}
        Event::MatchEnded {
            points,
            placings,
            summary,
        } => {
            state.final_points = Some(points.clone());
            state.outcome = Some(Outcome {
                placings: placings.clone(),
                summary: summary.clone(),
            });
            state.phase = Phase::Finished;
        }
    }
}
