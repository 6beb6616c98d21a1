//! The stroke x delivery outcome table: what each stroke does to each delivery over the whole
//! dispenser, split into what the field cannot change and what each occupied zone changes.
//!
//! A card row points at one code (one zone for a ring window, one letter for a boundary), so
//! a ball's expected runs and its chance of a wicket against any field are the empty-field
//! figures corrected zone by zone: a fielder in a zone saves the runs of the cards that go
//! there, turns CATCH cards into chances and "Run out if occupied" into wickets; a deep
//! fielder on a letter saves its fours. [`solve`] reads every card with [`read_card`] against
//! probe fields to find those corrections, so the table is the rules' own reading, and the
//! `hard` bot ([`super::hard`]) prices any stroke against any field with a few additions.
//!
//! The committed table is `data/wicketz/outcomes.json`, written by `crease solve wicketz`;
//! `tests::the_committed_table_is_what_the_solver_computes` keeps it from going stale.

use super::cards::{Card, Code};
use super::data::{Ruleset, deck, ruleset};
use super::field::{Field, LETTERS, Position, RINGS};
use super::indicator::{ALL_DELIVERIES, Delivery};
use super::reading::{Reading, read_card};
use super::strokes::{CARD_ROWS, Stroke};
use serde::{Deserialize, Serialize};
use std::sync::LazyLock;

pub const OUTCOMES_JSON: &str = include_str!("../../../data/wicketz/outcomes.json");

/// The command that rebuilds the committed table.
pub const REBUILD: &str = "crease solve wicketz";

/// Every delivery a stroke is played to (a wide is scored without one).
pub fn played_deliveries() -> impl Iterator<Item = Delivery> {
    ALL_DELIVERIES.into_iter().filter(|d| *d != Delivery::Wide)
}

/// What one zone changes for one stroke and delivery when a player stands in it, in cards
/// of the deck (columns: zone, cards, runs_saved, catches, run_outs).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ZoneOutcomes(
    pub Position,
    /// Cards whose code sends the ball to this zone.
    pub u32,
    /// Runs those cards score in an empty zone and do not with a player in it.
    pub u32,
    /// CATCH cards that become a catch chance.
    pub u32,
    /// "Run out if occupied" cards that become a run out.
    pub u32,
);

/// What a deep fielder (ring 2 or 3) on one letter changes (columns: letter, cards, runs_saved).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BoundaryOutcomes(pub String, pub u32, pub u32);

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StrokeOutcomes {
    pub stroke: Stroke,
    pub delivery: Delivery,
    /// Cards that dismiss the batter whatever the field (bowled, L.B.W.).
    pub out: u32,
    /// Runs off the bat and byes, summed over the deck, with nobody where the ball goes.
    pub runs: u32,
    pub zones: Vec<ZoneOutcomes>,
    pub boundaries: Vec<BoundaryOutcomes>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OutcomeTable {
    pub generated_by: String,
    /// Cards in the deck: every count is out of this many.
    pub cards: u32,
    /// One entry per stroke (card row order) and delivery (indicator order, no wide).
    pub entries: Vec<StrokeOutcomes>,
}

/// A field with all eleven players in one zone: `read_card` only asks whether the card's
/// own zone is occupied and whether its letter is guarded, so this probes exactly one.
fn probe(at: Position) -> Field {
    Field {
        keeper: at,
        bowler: at,
        fielders: Vec::new(),
    }
}

/// Where to stand so that a card with this code reads as against an empty field: another
/// letter, ring 0 (which guards no boundary).
fn away_from(code: Code) -> Position {
    let letter = match code {
        Code::Letter(letter) => (letter + 1) % LETTERS,
        Code::Star => 0,
    };
    Position { letter, ring: 0 }
}

fn all_positions() -> impl Iterator<Item = Position> {
    (0..LETTERS).flat_map(|letter| (0..RINGS).map(move |ring| Position { letter, ring }))
}

/// One stroke against one delivery over `cards`.
fn solve_entry<'a>(
    cards: impl IntoIterator<Item = &'a Card>,
    stroke: Stroke,
    delivery: Delivery,
    rules: &Ruleset,
) -> StrokeOutcomes {
    let zone_count = usize::from(LETTERS) * usize::from(RINGS);
    let mut zones = vec![[0u32; 4]; zone_count];
    let mut boundaries = vec![[0u32; 2]; usize::from(LETTERS)];
    let (mut out, mut runs) = (0, 0);
    for card in cards {
        let code = card.row(stroke).code;
        let empty = read_card(card, stroke, delivery, &probe(away_from(code)), rules);
        let empty_runs = u32::from(empty.bat_runs() + empty.byes());
        runs += empty_runs;
        if matches!(empty, Reading::Bowled | Reading::Lbw) {
            out += 1;
            continue;
        }
        let Code::Letter(letter) = code else {
            continue;
        };
        if let Some(zone) = card.zone(code) {
            let occupied = read_card(card, stroke, delivery, &probe(zone), rules);
            let entry = &mut zones[usize::from(zone.letter) * usize::from(RINGS) + usize::from(zone.ring)];
            entry[0] += 1;
            entry[1] += empty_runs.saturating_sub(u32::from(occupied.bat_runs() + occupied.byes()));
            entry[2] += u32::from(matches!(occupied, Reading::CatchChance { .. }));
            entry[3] += u32::from(matches!(occupied, Reading::RunOut { .. }));
        } else if let Reading::Four { .. } = empty {
            let guarded = read_card(
                card,
                stroke,
                delivery,
                &probe(Position { letter, ring: 2 }),
                rules,
            );
            let entry = &mut boundaries[usize::from(letter)];
            entry[0] += 1;
            entry[1] += empty_runs.saturating_sub(u32::from(guarded.bat_runs()));
        }
    }
    StrokeOutcomes {
        stroke,
        delivery,
        out,
        runs,
        zones: all_positions()
            .zip(&zones)
            .filter(|(_, counts)| counts[0] > 0)
            .map(|(zone, c)| ZoneOutcomes(zone, c[0], c[1], c[2], c[3]))
            .collect(),
        boundaries: (0..LETTERS)
            .zip(&boundaries)
            .filter(|(_, counts)| counts[0] > 0)
            .map(|(letter, c)| BoundaryOutcomes(char::from(b'A' + letter).to_string(), c[0], c[1]))
            .collect(),
    }
}

/// The table of `cards` read by `rules`: what `crease solve wicketz` writes.
pub fn solve(cards: &[Card], rules: &Ruleset) -> OutcomeTable {
    OutcomeTable {
        generated_by: format!(
            "{REBUILD} (src/rules/wicketz/outcomes.rs) from data/wicketz/cards.json and ruleset.json; \
             zones: [zone, cards, runs_saved, catches, run_outs], boundaries: [letter, cards, runs_saved]"
        ),
        cards: cards.len() as u32,
        entries: CARD_ROWS
            .into_iter()
            .flat_map(|stroke| played_deliveries().map(move |delivery| (stroke, delivery)))
            .map(|(stroke, delivery)| solve_entry(cards, stroke, delivery, rules))
            .collect(),
    }
}

/// The committed file's text: one entry per line, so a changed card diffs entry by entry.
pub fn render(table: &OutcomeTable) -> String {
    let mut out = format!(
        "{{\n  \"generated_by\": {},\n  \"cards\": {},\n  \"entries\": [\n",
        serde_json::to_string(&table.generated_by).unwrap_or_default(),
        table.cards
    );
    for (index, entry) in table.entries.iter().enumerate() {
        out.push_str("    ");
        out.push_str(&serde_json::to_string(entry).unwrap_or_default());
        out.push_str(if index + 1 < table.entries.len() {
            ",\n"
        } else {
            "\n"
        });
    }
    out.push_str("  ]\n}\n");
    out
}

/// What the embedded deck and ruleset give now.
pub fn solve_embedded() -> OutcomeTable {
    solve(deck(), ruleset())
}

/// The table as the bot uses it: dense arrays, indexed by stroke row, delivery and zone.
#[derive(Clone, Debug)]
pub struct Outcomes {
    entries: Vec<Entry>,
}

#[derive(Clone, Debug)]
struct Entry {
    /// The cards this entry's counts are over: the whole deck, or, in a table
    /// [`Outcomes::counted`] for the cards still to come, those cards.
    cards: f64,
    out: f64,
    runs: f64,
    /// Per zone (letter * RINGS + ring): runs saved, catch chances, run outs (in cards).
    zones: Vec<[f64; 3]>,
    /// Per letter: fours saved by a deep fielder, in runs.
    boundary_runs: Vec<f64>,
}

/// A stroke's price against one field: expected runs, and the chance of a wicket.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Price {
    pub runs: f64,
    pub wicket: f64,
}

fn delivery_index(delivery: Delivery) -> usize {
    played_deliveries().position(|d| d == delivery).unwrap_or(0)
}

fn entry_index(stroke: Stroke, delivery: Delivery) -> usize {
    stroke.row() * played_deliveries().count() + delivery_index(delivery)
}

impl Entry {
    /// Indexes one entry of a table over `cards` cards.
    fn of(entry: &StrokeOutcomes, cards: f64) -> Result<Entry, String> {
        let mut zones = vec![[0.0; 3]; usize::from(LETTERS) * usize::from(RINGS)];
        for ZoneOutcomes(zone, _, runs_saved, catches, run_outs) in &entry.zones {
            zones[zone_index(*zone)] = [f64::from(*runs_saved), f64::from(*catches), f64::from(*run_outs)];
        }
        let mut boundary_runs = vec![0.0; usize::from(LETTERS)];
        for BoundaryOutcomes(letter, _, runs_saved) in &entry.boundaries {
            let index = match letter.as_bytes() {
                [byte] if (b'A'..b'A' + LETTERS).contains(byte) => usize::from(byte - b'A'),
                _ => return Err(format!("outcomes: boundary letter `{letter}` is not A-Q")),
            };
            boundary_runs[index] = f64::from(*runs_saved);
        }
        Ok(Entry {
            cards,
            out: f64::from(entry.out),
            runs: f64::from(entry.runs),
            zones,
            boundary_runs,
        })
    }

    /// This entry's counts without those of `part`, a subset of its cards.
    fn less(&self, part: &Entry) -> Entry {
        Entry {
            cards: self.cards - part.cards,
            out: self.out - part.out,
            runs: self.runs - part.runs,
            zones: self
                .zones
                .iter()
                .zip(&part.zones)
                .map(|(a, b)| [a[0] - b[0], a[1] - b[1], a[2] - b[2]])
                .collect(),
            boundary_runs: self
                .boundary_runs
                .iter()
                .zip(&part.boundary_runs)
                .map(|(a, b)| a - b)
                .collect(),
        }
    }
}

pub fn zone_index(zone: Position) -> usize {
    usize::from(zone.letter) * usize::from(RINGS) + usize::from(zone.ring)
}

impl Outcomes {
    /// Checks a parsed table's shape (every stroke and delivery in order) and indexes it.
    pub fn from_table(table: &OutcomeTable) -> Result<Outcomes, String> {
        let expected: Vec<(Stroke, Delivery)> = CARD_ROWS
            .into_iter()
            .flat_map(|stroke| played_deliveries().map(move |delivery| (stroke, delivery)))
            .collect();
        let found: Vec<(Stroke, Delivery)> = table.entries.iter().map(|e| (e.stroke, e.delivery)).collect();
        if found != expected {
            return Err(
                "outcomes: `entries` must hold every stroke and delivery, in card row and indicator order"
                    .into(),
            );
        }
        if table.cards == 0 {
            return Err("outcomes: `cards` must be positive".into());
        }
        let cards = f64::from(table.cards);
        let entries = table
            .entries
            .iter()
            .map(|entry| Entry::of(entry, cards))
            .collect::<Result<Vec<Entry>, String>>()?;
        Ok(Outcomes { entries })
    }

    pub fn parse(text: &str) -> Result<Outcomes, String> {
        let table: OutcomeTable = serde_json::from_str(text).map_err(|e| format!("outcomes: {e}"))?;
        Outcomes::from_table(&table)
    }

    fn entry(&self, stroke: Stroke, delivery: Delivery) -> &Entry {
        &self.entries[entry_index(stroke, delivery)]
    }

    /// This table with the entries of `deliveries` counted over the cards still to come
    /// (ids, as a view's `cards_to_come` lists them) instead of the whole deck: the next card
    /// is one of those, each as likely, so the counted prices are the true ones for the next
    /// ball. The other entries are left over the whole deck. Reads whichever side of the
    /// cycle is smaller, the cards to come or the cards dealt, so a decision costs at most
    /// half a deck's readings a stroke.
    pub fn counted(&self, to_come: &[u16], deliveries: &[Delivery], rules: &Ruleset) -> Outcomes {
        let deck = deck();
        let mut counted = self.clone();
        if to_come.is_empty() || to_come.len() >= deck.len() {
            return counted;
        }
        let coming: Vec<bool> = {
            let mut coming = vec![false; deck.len() + 1];
            for id in to_come {
                if let Some(slot) = coming.get_mut(usize::from(*id)) {
                    *slot = true;
                }
            }
            coming
        };
        let read_coming = to_come.len() * 2 <= deck.len();
        let read: Vec<&Card> = deck
            .iter()
            .filter(|card| coming.get(usize::from(card.id)).copied().unwrap_or(false) == read_coming)
            .collect();
        for delivery in deliveries.iter().filter(|d| **d != Delivery::Wide) {
            for stroke in CARD_ROWS {
                let index = entry_index(stroke, *delivery);
                let Ok(part) = Entry::of(
                    &solve_entry(read.iter().copied(), stroke, *delivery, rules),
                    read.len() as f64,
                ) else {
                    continue;
                };
                counted.entries[index] = if read_coming {
                    part
                } else {
                    self.entries[index].less(&part)
                };
            }
        }
        counted
    }

    /// `stroke` against `delivery` with nobody anywhere the ball goes.
    pub fn empty_price(&self, stroke: Stroke, delivery: Delivery) -> Price {
        let entry = self.entry(stroke, delivery);
        Price {
            runs: entry.runs / entry.cards,
            wicket: entry.out / entry.cards,
        }
    }

    /// `stroke` against `delivery` and `field`, for a batter whose catch chances are taken
    /// with probability `caught` (the catch rule over its lives).
    pub fn price(&self, stroke: Stroke, delivery: Delivery, field: &Field, caught: f64) -> Price {
        let entry = self.entry(stroke, delivery);
        let (mut runs, mut wicket) = (entry.runs, entry.out);
        let mut guarded = [false; LETTERS as usize];
        for player in field.players() {
            let [saved, catches, run_outs] = entry.zones[zone_index(player)];
            runs -= saved;
            wicket += run_outs + catches * caught;
            if player.ring >= 2 && !std::mem::replace(&mut guarded[usize::from(player.letter)], true) {
                runs -= entry.boundary_runs[usize::from(player.letter)];
            }
        }
        Price {
            runs: runs / entry.cards,
            wicket: wicket / entry.cards,
        }
    }

    /// What one more player in `zone` would change for `stroke`: (runs saved, wicket chance
    /// added), given which letters are already guarded deep.
    pub fn zone_effect(
        &self,
        stroke: Stroke,
        delivery: Delivery,
        zone: Position,
        guarded: &[bool; LETTERS as usize],
        caught: f64,
    ) -> Price {
        let entry = self.entry(stroke, delivery);
        let [saved, catches, run_outs] = entry.zones[zone_index(zone)];
        let deep = zone.ring >= 2 && !guarded[usize::from(zone.letter)];
        let boundary = if deep {
            entry.boundary_runs[usize::from(zone.letter)]
        } else {
            0.0
        };
        Price {
            runs: (saved + boundary) / entry.cards,
            wicket: (run_outs + catches * caught) / entry.cards,
        }
    }
}

static OUTCOMES: LazyLock<Outcomes> = LazyLock::new(|| {
    Outcomes::parse(OUTCOMES_JSON).unwrap_or_else(|e| panic!("data/wicketz/outcomes.json: {e}"))
});

/// The embedded table. `tests::the_committed_table_is_what_the_solver_computes` checks it.
pub fn outcomes() -> &'static Outcomes {
    &OUTCOMES
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Dice;

    #[test]
    fn the_committed_table_is_what_the_solver_computes() {
        assert!(
            render(&solve_embedded()) == OUTCOMES_JSON,
            "data/wicketz/outcomes.json is stale; rebuild it with `{REBUILD}`"
        );
        Outcomes::parse(OUTCOMES_JSON).unwrap();
    }

    /// A random legal field: keeper, bowler and nine fielders in distinct zones.
    fn random_field(rng: &mut Dice) -> Field {
        let keeper = Position {
            letter: 0,
            ring: rng.below(2) as u8,
        };
        let bowler = Position {
            letter: 8 + rng.below(2) as u8,
            ring: 0,
        };
        let mut fielders = Vec::new();
        while fielders.len() < 9 {
            let at = Position {
                letter: rng.below(u32::from(LETTERS)) as u8,
                ring: rng.below(u32::from(RINGS)) as u8,
            };
            if at != keeper && at != bowler && !fielders.contains(&at) {
                fielders.push(at);
            }
        }
        Field {
            keeper,
            bowler,
            fielders,
        }
    }

    /// The price of `stroke` against `delivery` read card by card over `cards`.
    fn read_price<'a>(
        cards: impl ExactSizeIterator<Item = &'a Card>,
        stroke: Stroke,
        delivery: Delivery,
        field: &Field,
        caught: f64,
    ) -> Price {
        let n = cards.len() as f64;
        let (mut runs, mut wicket) = (0.0, 0.0);
        for card in cards {
            let reading = read_card(card, stroke, delivery, field, ruleset());
            runs += f64::from(reading.bat_runs() + reading.byes());
            wicket += match reading {
                Reading::Bowled | Reading::Lbw | Reading::RunOut { .. } => 1.0,
                Reading::CatchChance { .. } => caught,
                _ => 0.0,
            };
        }
        Price {
            runs: runs / n,
            wicket: wicket / n,
        }
    }

    fn assert_same(price: Price, read: Price, what: &str) {
        assert!((price.runs - read.runs).abs() < 1e-9, "{what} runs");
        assert!((price.wicket - read.wicket).abs() < 1e-9, "{what} wicket");
    }

    /// The table's zone-by-zone corrections give exactly what reading every card against a
    /// whole field gives: the decomposition the table rests on holds.
    #[test]
    fn prices_equal_reading_every_card_against_the_field() {
        let table = outcomes();
        let mut rng = Dice::new(&crate::rules::Seed::from_u64(3));
        for _ in 0..20 {
            let field = random_field(&mut rng);
            for stroke in CARD_ROWS {
                for delivery in played_deliveries() {
                    let price = table.price(stroke, delivery, &field, 0.5);
                    let read = read_price(deck().iter(), stroke, delivery, &field, 0.5);
                    assert_same(price, read, &format!("{stroke:?} {delivery:?}"));
                }
            }
        }
    }

    /// A table counted over the cards to come prices the counted deliveries exactly as
    /// reading those cards does, both when it reads the cards to come (few left) and when it
    /// takes the dealt cards off the deck (many left), and leaves the other deliveries alone.
    #[test]
    fn a_counted_table_prices_over_the_cards_to_come() {
        let rules = ruleset();
        let mut rng = Dice::new(&crate::rules::Seed::from_u64(4));
        let delivery = Delivery::GoodLength;
        for left in [17, 200] {
            let mut to_come: Vec<u16> = deck().iter().map(|card| card.id).collect();
            while to_come.len() > left {
                to_come.swap_remove(rng.below(to_come.len() as u32) as usize);
            }
            let counted = outcomes().counted(&to_come, &[delivery], rules);
            let coming: Vec<&Card> = deck().iter().filter(|card| to_come.contains(&card.id)).collect();
            for _ in 0..5 {
                let field = random_field(&mut rng);
                for stroke in CARD_ROWS {
                    let read = read_price(coming.iter().copied(), stroke, delivery, &field, 0.3);
                    let what = format!("{left} left, {stroke:?}");
                    assert_same(counted.price(stroke, delivery, &field, 0.3), read, &what);
                    for other in played_deliveries().filter(|d| *d != delivery) {
                        let whole = outcomes().price(stroke, other, &field, 0.3);
                        assert_same(counted.price(stroke, other, &field, 0.3), whole, &what);
                    }
                }
            }
        }
    }

    #[test]
    fn a_table_missing_an_entry_is_refused() {
        let mut table = solve_embedded();
        table.entries.pop();
        assert!(Outcomes::from_table(&table).unwrap_err().contains("entries"));
    }
}
