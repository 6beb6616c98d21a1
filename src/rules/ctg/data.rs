//! The ruleset data: every [ASSUMED] value of the spec, parsed and validated once.
//!
//! The JSON lives in `data/ctg/` and is embedded with `include_str!`, so changing a card is a
//! data edit and the binary still carries exactly one ruleset. Parsing is lazy and cached in
//! a `OnceLock`: the value never changes after it is built, so this is not mutable state.

use super::field::Field;
use super::types::{Attitude, BowlType, BowledChanceReading, Effect, Role};
use serde::{Deserialize, Serialize};
use std::sync::OnceLock;

pub(crate) const RULESET_JSON: &str = include_str!("../../../data/ctg/ruleset.json");
pub(crate) const SQUADS_JSON: &str = include_str!("../../../data/ctg/squads.json");

/// One bowling card: its name and the zones of the shots it is vulnerable to (bit z = zone z).
#[derive(Clone, Debug, PartialEq)]
pub struct BowlCard {
    pub name: String,
    pub zones: u8,
}

/// One over-deck card.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OverCard {
    pub express: u8,
    pub effect: Effect,
}

/// One face of a bounce die: extra areas travelled and whether the ball is in the air.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct BounceFace {
    pub areas: u8,
    /// Red: in the air, catchable.
    pub red: bool,
}

/// A die the bowler rolls for a chance of a wicket: out on `min` or more.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Chance {
    pub sides: u8,
    pub min: u8,
}

#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PitchCard {
    pub name: String,
    /// The bowling type that rolls a D8 on the first delivery of each over.
    pub d8_first_ball_for: Option<BowlType>,
}

/// [ASSUMED] split of the skill cards.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Skills {
    pub reroll_to_hit_per_innings: u8,
    pub reroll_distance_per_innings: u8,
    pub reroll_bounce_per_innings: u8,
    pub add_one_advantage_per_over: u8,
    pub roll_d8_per_over: u8,
}

/// Who may bowl, and with which deck.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Bowling {
    None,
    Pace,
    Spin,
    Medium,
}

impl Bowling {
    pub fn bowl_type(self) -> Option<BowlType> {
        match self {
            Bowling::None => None,
            Bowling::Pace => Some(BowlType::Pace),
            Bowling::Spin => Some(BowlType::Spin),
            Bowling::Medium => Some(BowlType::Medium),
        }
    }
}

/// A player card. Seed: 000_c44664d019aef0c0.txt (name, number, role, batting confidence).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PlayerCard {
    pub name: String,
    pub number: u8,
    pub role: Role,
    pub bowling: Bowling,
    pub confidence: i8,
    #[serde(default)]
    pub captain: bool,
}

/// A squad of 12 player cards.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Squad {
    pub name: String,
    pub players: Vec<PlayerCard>,
}

/// Squad size before the drop. Seed: 001_10260e69616bd853.txt "a team of 12 players".
pub const SQUAD_SIZE: usize = 12;

impl Squad {
    /// A squad is valid with 12 cards, 2 Pace and 2 Spin specialist bowlers (so dropping
    /// either leaves 1+2 or 2+1), confidences in -1..3, at most one captain, and bowlers
    /// who can bowl. `field` names the place in the options for the error.
    pub fn validate(&self, field: &str) -> Result<(), String> {
        if self.players.len() != SQUAD_SIZE {
            return Err(format!(
                "{field}.players: a squad has {SQUAD_SIZE} players, not {}",
                self.players.len()
            ));
        }
        let count = |role| self.players.iter().filter(|p| p.role == role).count();
        if count(Role::Pace) != 2 || count(Role::Spin) != 2 {
            return Err(format!(
                "{field}.players: a squad needs exactly 2 pace and 2 spin bowlers"
            ));
        }
        if self.players.iter().filter(|p| p.captain).count() > 1 {
            return Err(format!("{field}.players: at most one captain"));
        }
        for (i, p) in self.players.iter().enumerate() {
            if !(-1..=3).contains(&p.confidence) {
                return Err(format!("{field}.players[{i}].confidence: must be within -1..3"));
            }
            let ok = match p.role {
                Role::Batter => true,
                Role::AllRounder => p.bowling != Bowling::None,
                Role::Pace => p.bowling == Bowling::Pace,
                Role::Spin => p.bowling == Bowling::Spin,
            };
            if !ok {
                return Err(format!(
                    "{field}.players[{i}].bowling: does not fit the role {:?}",
                    p.role
                ));
            }
        }
        // Eleven players after the drop: at least 3 bowlers plus the all-rounders must be
        // able to bowl 20 overs at 3 each without two in a row.
        let bowlers = self.players.iter().filter(|p| p.bowling != Bowling::None).count() - 1;
        if bowlers < 7 {
            return Err(format!(
                "{field}.players: at least 4 all-rounders who bowl are needed"
            ));
        }
        Ok(())
    }
}

/// Everything [ASSUMED], validated.
#[derive(Clone, Debug, PartialEq)]
pub struct Ruleset {
    pub bowl_cards: [Vec<BowlCard>; 3],
    pub express_seven: [[u8; 8]; 3],
    pub over_decks: [Vec<OverCard>; 3],
    /// Indexed by [`Attitude::index`]: red die for Aggressive, green for Defensive.
    pub bounce: [[BounceFace; 6]; 2],
    pub catch_values: [u8; 4],
    pub red_outlines: Field,
    pub pitch_cards: Vec<PitchCard>,
    pub skills: Skills,
    /// Indexed by [`BowledChanceReading::index`], then [`Attitude::index`]; see
    /// [`Ruleset::bowled_chance`].
    pub bowled_chance: [[Chance; 2]; 2],
    /// Indexed by [`Attitude::index`].
    pub patience: [i8; 2],
    pub express_run_out_min: u8,
    pub drs_overturn_min: u8,
    /// D6 target of each slip's catch roll after a miss against Pace. [ASSUMED] 6 (spec
    /// section 5 and its corrections; the seed prints no value).
    pub slip_catch_min: u8,
    pub squads: [Squad; 2],
}

impl Ruleset {
    pub fn bowl_card(&self, bowl_type: BowlType, card: u8) -> Option<&BowlCard> {
        self.bowl_cards[bowl_type.index()].get(usize::from(card))
    }

    /// The bowler's die after a miss by the bowled-chance margin, on the match's reading.
    pub fn bowled_chance(&self, reading: BowledChanceReading, attitude: Attitude) -> Chance {
        self.bowled_chance[reading.index()][attitude.index()]
    }

    pub fn bounce_face(&self, attitude: Attitude, face: u8) -> BounceFace {
        self.bounce[attitude.index()][usize::from(face.clamp(1, 6) - 1)]
    }
}

/// The ruleset built into the binary. Fails with a message naming the bad field.
pub fn ruleset() -> Result<&'static Ruleset, String> {
    static RULESET: OnceLock<Result<Ruleset, String>> = OnceLock::new();
    RULESET
        .get_or_init(|| parse(RULESET_JSON, SQUADS_JSON))
        .as_ref()
        .map_err(Clone::clone)
}

#[derive(Deserialize)]
struct RawCard {
    name: String,
    shots: Vec<String>,
}

#[derive(Deserialize)]
struct ByType<T> {
    pace: T,
    spin: T,
    medium: T,
}

#[derive(Deserialize)]
struct RawOverDeck {
    express_values: Vec<u8>,
    effects: Vec<Effect>,
}

#[derive(Deserialize)]
struct RawBounce {
    red: Vec<String>,
    green: Vec<String>,
}

#[derive(Deserialize)]
struct RawSpot {
    zone: u8,
    area: u8,
}

#[derive(Deserialize)]
struct ByAttitude<T> {
    aggressive: T,
    defensive: T,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawBowledChance {
    bowled_paragraph: ByAttitude<Chance>,
    missed_strike: ByAttitude<Chance>,
}

#[derive(Deserialize)]
struct RawRuleset {
    bowling_decks: ByType<Vec<RawCard>>,
    express_seven_tables: ByType<Vec<u8>>,
    over_decks: ByType<RawOverDeck>,
    bounce_dice: RawBounce,
    catch_values: Vec<u8>,
    red_outlines: Vec<RawSpot>,
    pitch_cards: Vec<PitchCard>,
    skills: Skills,
    bowled_chance: RawBowledChance,
    patience_confidence: ByAttitude<i8>,
    express_run_out_min: u8,
    drs_overturn_min: u8,
    slip_catch_min: u8,
}

#[derive(Deserialize)]
struct RawSquads {
    squads: Vec<Squad>,
}

/// The zone of a shot name. Seed: 000_c44664d019aef0c0.txt stroke circle, two shots a zone.
pub fn shot_zone(shot: &str) -> Option<u8> {
    Some(match shot {
        "leg_glance" | "hook" => 1,
        "pull" | "big_shot" => 2,
        "on_drive" | "straight_drive" => 3,
        "off_drive" | "cover_drive" => 4,
        "square_cut" | "late_cut" => 5,
        _ => return None,
    })
}

fn strip_docs(text: &str) -> Result<serde_json::Value, String> {
    fn strip(value: &mut serde_json::Value) {
        if let serde_json::Value::Object(map) = value {
            map.remove("_doc");
            map.values_mut().for_each(strip);
        } else if let serde_json::Value::Array(items) = value {
            items.iter_mut().for_each(strip);
        }
    }
    let mut value: serde_json::Value = serde_json::from_str(text).map_err(|e| e.to_string())?;
    strip(&mut value);
    Ok(value)
}

fn chance(name: &str, c: Chance) -> Result<Chance, String> {
    if !(2..=20).contains(&c.sides) || c.min == 0 || c.min > c.sides {
        return Err(format!("{name}: min must be within 1..sides"));
    }
    Ok(c)
}

/// Parses and validates a ruleset. Public so tests can prove a bad field is named.
pub fn parse(ruleset_json: &str, squads_json: &str) -> Result<Ruleset, String> {
    let raw: RawRuleset =
        serde_json::from_value(strip_docs(ruleset_json).map_err(|e| format!("ruleset: {e}"))?)
            .map_err(|e| format!("ruleset: {e}"))?;
    let squads: RawSquads =
        serde_json::from_value(strip_docs(squads_json).map_err(|e| format!("squads: {e}"))?)
            .map_err(|e| format!("squads: {e}"))?;

    let deck = |name: &str, cards: Vec<RawCard>| -> Result<Vec<BowlCard>, String> {
        if cards.is_empty() || cards.len() > 8 {
            return Err(format!("bowling_decks.{name}: a deck has 1 to 8 cards"));
        }
        cards
            .into_iter()
            .map(|card| {
                let mut zones = 0u8;
                for shot in &card.shots {
                    let zone = shot_zone(shot).ok_or_else(|| {
                        format!("bowling_decks.{name}.{}: unknown shot {shot:?}", card.name)
                    })?;
                    zones |= 1 << zone;
                }
                if zones == 0 {
                    return Err(format!(
                        "bowling_decks.{name}.{}: a card needs at least one shot",
                        card.name
                    ));
                }
                Ok(BowlCard {
                    name: card.name,
                    zones,
                })
            })
            .collect()
    };
    let table = |name: &str, values: Vec<u8>| -> Result<[u8; 8], String> {
        values
            .try_into()
            .map_err(|_| format!("express_seven_tables.{name}: needs 8 values (D8 faces)"))
    };
    let over_deck = |name: &str, raw: RawOverDeck| -> Result<Vec<OverCard>, String> {
        if raw.express_values.len() != raw.effects.len() || raw.effects.len() < 6 {
            return Err(format!(
                "over_decks.{name}: express_values and effects need the same length, at least 6"
            ));
        }
        if raw.express_values.iter().any(|v| !(1..=9).contains(v)) {
            return Err(format!("over_decks.{name}.express_values: each is within 1..9"));
        }
        Ok(raw
            .express_values
            .into_iter()
            .zip(raw.effects)
            .map(|(express, effect)| OverCard { express, effect })
            .collect())
    };
    let bounce = |name: &str, faces: Vec<String>| -> Result<[BounceFace; 6], String> {
        let faces: Vec<BounceFace> = faces
            .iter()
            .map(|face| {
                let (areas, colour) = face.split_at(face.len().saturating_sub(1));
                let areas: u8 = areas
                    .parse()
                    .map_err(|_| format!("bounce_dice.{name}: bad face {face:?}"))?;
                let red = match colour {
                    "R" => true,
                    "G" => false,
                    _ => return Err(format!("bounce_dice.{name}: face {face:?} must end in R or G")),
                };
                if areas > 4 {
                    return Err(format!(
                        "bounce_dice.{name}: face {face:?} travels more than 4 areas"
                    ));
                }
                Ok(BounceFace { areas, red })
            })
            .collect::<Result<_, _>>()?;
        faces
            .try_into()
            .map_err(|_| format!("bounce_dice.{name}: a die has 6 faces"))
    };

    let catch_values: [u8; 4] = raw
        .catch_values
        .try_into()
        .map_err(|_| "catch_values: needs 4 values (areas 1-4)".to_string())?;
    if catch_values.iter().any(|v| !(1..=7).contains(v)) {
        return Err("catch_values: each is a D6 target within 1..7".into());
    }
    let mut red_outlines = Field::EMPTY;
    for spot in &raw.red_outlines {
        if !(1..=5).contains(&spot.zone) || !(1..=4).contains(&spot.area) {
            return Err("red_outlines: zone must be 1..5 and area 1..4".into());
        }
        red_outlines = red_outlines.with(spot.zone, spot.area);
    }
    if raw.pitch_cards.is_empty() {
        return Err("pitch_cards: at least one card".into());
    }
    for (i, squad) in squads.squads.iter().enumerate() {
        squad.validate(&format!("squads[{i}]"))?;
    }
    let squads: [Squad; 2] = squads
        .squads
        .try_into()
        .map_err(|_| "squads: exactly two default squads".to_string())?;
    if !(1..=6).contains(&raw.express_run_out_min) || !(1..=6).contains(&raw.drs_overturn_min) {
        return Err("express_run_out_min / drs_overturn_min: D6 targets within 1..6".into());
    }
    if !(1..=6).contains(&raw.slip_catch_min) {
        return Err("slip_catch_min: a D6 target within 1..6".into());
    }
    if raw.patience_confidence.aggressive.abs() > 4 || raw.patience_confidence.defensive.abs() > 4 {
        return Err("patience_confidence: changes within -4..4".into());
    }
    Ok(Ruleset {
        bowl_cards: [
            deck("pace", raw.bowling_decks.pace)?,
            deck("spin", raw.bowling_decks.spin)?,
            deck("medium", raw.bowling_decks.medium)?,
        ],
        express_seven: [
            table("pace", raw.express_seven_tables.pace)?,
            table("spin", raw.express_seven_tables.spin)?,
            table("medium", raw.express_seven_tables.medium)?,
        ],
        over_decks: [
            over_deck("pace", raw.over_decks.pace)?,
            over_deck("spin", raw.over_decks.spin)?,
            over_deck("medium", raw.over_decks.medium)?,
        ],
        bounce: [
            bounce("red", raw.bounce_dice.red)?,
            bounce("green", raw.bounce_dice.green)?,
        ],
        catch_values,
        red_outlines,
        pitch_cards: raw.pitch_cards,
        skills: raw.skills,
        bowled_chance: [
            [
                chance(
                    "bowled_chance.bowled_paragraph.aggressive",
                    raw.bowled_chance.bowled_paragraph.aggressive,
                )?,
                chance(
                    "bowled_chance.bowled_paragraph.defensive",
                    raw.bowled_chance.bowled_paragraph.defensive,
                )?,
            ],
            [
                chance(
                    "bowled_chance.missed_strike.aggressive",
                    raw.bowled_chance.missed_strike.aggressive,
                )?,
                chance(
                    "bowled_chance.missed_strike.defensive",
                    raw.bowled_chance.missed_strike.defensive,
                )?,
            ],
        ],
        patience: [
            raw.patience_confidence.aggressive,
            raw.patience_confidence.defensive,
        ],
        express_run_out_min: raw.express_run_out_min,
        drs_overturn_min: raw.drs_overturn_min,
        slip_catch_min: raw.slip_catch_min,
        squads,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_built_in_ruleset_is_valid() {
        let rules = ruleset().expect("built-in ruleset");
        assert_eq!(rules.over_decks[0].len(), 15);
        assert_eq!(rules.squads[0].players.len(), 12);
    }

    #[test]
    fn a_bad_field_is_named() {
        let bad = RULESET_JSON.replace("\"catch_values\": [6, 6, 5, 5]", "\"catch_values\": [6, 6, 5]");
        let error = parse(&bad, SQUADS_JSON).unwrap_err();
        assert!(error.contains("catch_values"), "{error}");
        let bad = RULESET_JSON.replace(
            "\"square_cut\", \"cover_drive\"",
            "\"square_cat\", \"cover_drive\"",
        );
        let error = parse(&bad, SQUADS_JSON).unwrap_err();
        assert!(error.contains("bowling_decks.pace.Out Swing"), "{error}");
        let bad = RULESET_JSON.replace("\"slip_catch_min\": 6", "\"slip_catch_min\": 7");
        assert_ne!(bad, RULESET_JSON);
        let error = parse(&bad, SQUADS_JSON).unwrap_err();
        assert!(error.contains("slip_catch_min"), "{error}");
    }
}
