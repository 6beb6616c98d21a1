//! Which waiting tickets become which matches: a pure function of the tickets and the clock.

use super::config::MatchmakingConfig;
use crate::store::WaitingTicket;
use chrono::{DateTime, Utc};

/// A match to create: tickets by index into the waiting list, in seat order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Plan {
    /// Every seat a ticket's player.
    Players(Vec<usize>),
    /// The ticket's player in seat 0, bots in the other seats.
    Bot(usize),
}

/// Plans matches, oldest ticket first. The oldest unserved ticket anchors a match and takes
/// the earliest-arrived tickets with equal game and options, a different player, and a rating
/// within the *anchor's* window (the anchor has waited longest, so its window is the widest
/// of the group and the group is decided by it). A ticket left unpaired that opted into a bot
/// and has waited past `bot_after_secs` gets a bot match.
pub fn plan(waiting: &[WaitingTicket], now: DateTime<Utc>, config: &MatchmakingConfig) -> Vec<Plan> {
    let mut order: Vec<usize> = (0..waiting.len()).collect();
    order.sort_by(|a, b| {
        (waiting[*a].created_at, &waiting[*a].ticket_id)
            .cmp(&(waiting[*b].created_at, &waiting[*b].ticket_id))
    });
    let waited = |ticket: &WaitingTicket| (now - ticket.created_at).to_std().unwrap_or_default();
    let mut taken = vec![false; waiting.len()];
    let mut plans = Vec::new();
    for (position, &anchor) in order.iter().enumerate() {
        if taken[anchor] {
            continue;
        }
        let first = &waiting[anchor];
        let window = config.window(waited(first));
        let mut group = vec![anchor];
        for &candidate in &order[position + 1..] {
            if group.len() == usize::from(first.seat_count) {
                break;
            }
            let other = &waiting[candidate];
            let fits = !taken[candidate]
                && other.game == first.game
                && other.options_key == first.options_key
                && (other.rating - first.rating).abs() <= window
                && group
                    .iter()
                    .all(|member| waiting[*member].player_id != other.player_id);
            if fits {
                group.push(candidate);
            }
        }
        if group.len() == usize::from(first.seat_count) {
            for member in &group {
                taken[*member] = true;
            }
            plans.push(Plan::Players(group));
        }
    }
    for &index in &order {
        let ticket = &waiting[index];
        if !taken[index] && ticket.bot_fallback && waited(ticket).as_secs() >= config.bot_after_secs {
            taken[index] = true;
            plans.push(Plan::Bot(index));
        }
    }
    plans
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::{PlayerId, TicketId};
    use chrono::TimeDelta;
    use serde_json::Value;

    fn at(seconds: i64) -> DateTime<Utc> {
        DateTime::<Utc>::UNIX_EPOCH + TimeDelta::seconds(seconds)
    }

    /// The UUID spelled by a short name's bytes (zero-padded): distinct names give distinct
    /// ids, in the names' order.
    fn named(name: &str) -> uuid::Uuid {
        let mut bytes = [0; 16];
        bytes[..name.len()].copy_from_slice(name.as_bytes());
        uuid::Uuid::from_bytes(bytes)
    }

    fn ticket(id: &str, player: &str, rating: f64, created: i64) -> WaitingTicket {
        WaitingTicket {
            ticket_id: TicketId::from_uuid(named(id)),
            player_id: PlayerId::from_uuid(named(player)),
            game: "ctg".into(),
            options: Value::Null,
            options_key: "{}".into(),
            seat_count: 2,
            rating,
            bot_fallback: false,
            created_at: at(created),
        }
    }

    fn config() -> MatchmakingConfig {
        MatchmakingConfig {
            base_window: 100.0,
            widen_per_sec: 10.0,
            max_window: 500.0,
            bot_after_secs: 30,
            tick_ms: 1000,
        }
    }

    #[test]
    fn the_window_widens_with_waiting_and_stops_at_the_maximum() {
        let config = config();
        assert_eq!(config.window(std::time::Duration::ZERO), 100.0);
        assert_eq!(config.window(std::time::Duration::from_secs(20)), 300.0);
        assert_eq!(config.window(std::time::Duration::from_secs(3600)), 500.0);
    }

    #[test]
    fn far_apart_ratings_wait_until_the_window_covers_them() {
        let waiting = [ticket("a", "pa", 1500.0, 0), ticket("b", "pb", 1750.0, 0)];
        assert!(
            plan(&waiting, at(10), &config()).is_empty(),
            "250 apart, window 200"
        );
        assert_eq!(plan(&waiting, at(15), &config()), vec![Plan::Players(vec![0, 1])]);
    }

    #[test]
    fn the_oldest_ticket_is_served_first() {
        // c is closest to a in rating, but b arrived earlier and is within a's window.
        let waiting = [
            ticket("c", "pc", 1500.0, 3),
            ticket("a", "pa", 1500.0, 1),
            ticket("b", "pb", 1560.0, 2),
        ];
        assert_eq!(plan(&waiting, at(4), &config()), vec![Plan::Players(vec![1, 2])]);
    }

    #[test]
    fn a_player_never_meets_itself_and_options_must_match() {
        let mut other_options = ticket("c", "pc", 1500.0, 2);
        other_options.options_key = "{\"format\":\"t20\"}".into();
        let waiting = [
            ticket("a", "pa", 1500.0, 0),
            ticket("a2", "pa", 1500.0, 1),
            other_options,
        ];
        assert!(plan(&waiting, at(5), &config()).is_empty());
    }

    #[test]
    fn groups_fill_every_seat_of_a_bigger_table() {
        let mut waiting: Vec<WaitingTicket> = (0..4)
            .map(|index| ticket(&format!("t{index}"), &format!("p{index}"), 1500.0, index))
            .collect();
        for ticket in &mut waiting {
            ticket.seat_count = 3;
        }
        assert_eq!(
            plan(&waiting, at(5), &config()),
            vec![Plan::Players(vec![0, 1, 2])]
        );
    }

    #[test]
    fn a_bot_comes_only_to_opted_in_tickets_after_the_wait() {
        let mut lonely = ticket("a", "pa", 1500.0, 0);
        lonely.bot_fallback = true;
        let patient = ticket("b", "pb", 2500.0, 0);
        let waiting = [lonely, patient];
        assert!(plan(&waiting, at(29), &config()).is_empty());
        assert_eq!(plan(&waiting, at(30), &config()), vec![Plan::Bot(0)]);
    }
}
