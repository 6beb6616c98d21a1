//! Champions points table: eliminations as they happen, points and places from the end.

use crate::rules::champions::events::Event;
use crate::rules::scorecard::{GameScorecard, PointsRow};

/// The points table of a Champions match from its events.
pub fn points_table(events: &[Event]) -> GameScorecard {
    let mut table: Vec<PointsRow> = Vec::new();
    let mut eliminated: Vec<u8> = Vec::new();
    for event in events {
        match event {
            Event::PlayerEliminated { seat, .. } => eliminated.push(seat.0),
            Event::MatchEnded { points, placings, .. } => {
                table = points
                    .iter()
                    .enumerate()
                    .map(|(seat, points)| PointsRow {
                        seat: seat as u8,
                        runs: points.runs,
                        wickets: points.wickets,
                        championship: points.championship,
                        unused_xp: points.unused_xp,
                        total: points.total,
                        placing: placings.get(seat).copied(),
                        eliminated: false,
                    })
                    .collect();
            }
            _ => {}
        }
    }
    for row in &mut table {
        row.eliminated = eliminated.contains(&row.seat);
    }
    table.sort_by_key(|row| (row.placing, row.seat));
    GameScorecard::Points { table }
}
