//! Matchmaking tickets and the pass that turns waiting tickets into matches.

use super::writes::MatchWrites;
use super::{MatchRow, SeatRow, Store, StoreResult};
use crate::record::{MatchId, PlayerId, TicketId, TicketStatus};
use chrono::{DateTime, Utc};
use serde_json::Value;
use sqlx::types::Json;

const WAITING_SQL: &str = "SELECT ticket_id, player_id, game, options, options_key, seat_count, rating, \
     bot_fallback, created_at FROM matchmaking_ticket WHERE status = 'waiting' \
     ORDER BY created_at, ticket_id LIMIT 1000";
/// Takes SQLite's single write lock up front: a pass that read first and wrote later could
/// find that an actor wrote in between and fail instead of waiting. A no-op on PostgreSQL.
const WRITE_LOCK_SQL: &str = "UPDATE matchmaking_ticket SET status = status WHERE 1 = 0";
const MATCHED_SQL: &str = "UPDATE matchmaking_ticket SET status = 'matched', match_id = $2 \
     WHERE ticket_id = $1 AND status = 'waiting'";

/// A waiting ticket as a matchmaking pass reads it.
#[derive(Clone, Debug, PartialEq)]
pub struct WaitingTicket {
    pub ticket_id: TicketId,
    pub player_id: PlayerId,
    pub game: String,
    pub options: Value,
    /// Canonical JSON of `options`: only equal options are paired.
    pub options_key: String,
    pub seat_count: u8,
    pub rating: f64,
    pub bot_fallback: bool,
    pub created_at: DateTime<Utc>,
}

/// A stored ticket as the store reads it back.
#[derive(Clone, Debug, sqlx::FromRow)]
pub struct TicketRow {
    pub ticket_id: TicketId,
    pub player_id: PlayerId,
    pub game: String,
    pub status: TicketStatus,
    pub match_id: Option<MatchId>,
}

/// A match a matchmaking pass creates: its rows, and the waiting tickets it seats (which
/// the pass marks matched to it).
#[derive(Clone, Debug)]
pub struct PairedMatch {
    pub row: MatchRow,
    pub seats: Vec<SeatRow>,
    pub ticket_ids: Vec<TicketId>,
}

type WaitingRow = (
    TicketId,
    PlayerId,
    String,
    Json<Value>,
    String,
    i32,
    f64,
    bool,
    DateTime<Utc>,
);

fn waiting_ticket(row: WaitingRow) -> WaitingTicket {
    let (
        ticket_id,
        player_id,
        game,
        Json(options),
        options_key,
        seat_count,
        rating,
        bot_fallback,
        created_at,
    ) = row;
    WaitingTicket {
        ticket_id,
        player_id,
        game,
        options,
        options_key,
        seat_count: seat_count.clamp(1, 255) as u8,
        rating,
        bot_fallback,
        created_at,
    }
}

impl Store {
    pub async fn insert_ticket(&self, ticket: &WaitingTicket) -> StoreResult<()> {
        const SQL: &str = "INSERT INTO matchmaking_ticket (ticket_id, player_id, game, options, options_key, \
             rating, seat_count, bot_fallback, status, match_id, created_at) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'waiting', NULL, $9)";
        with_pool!(self, pool => sqlx::query(SQL)
            .bind(&ticket.ticket_id).bind(&ticket.player_id).bind(&ticket.game)
            .bind(Json(&ticket.options)).bind(&ticket.options_key).bind(ticket.rating)
            .bind(i32::from(ticket.seat_count)).bind(ticket.bot_fallback).bind(ticket.created_at)
            .execute(pool).await.map(|_| ()))?;
        Ok(())
    }

    pub async fn ticket(&self, ticket_id: &TicketId) -> StoreResult<Option<TicketRow>> {
        const SQL: &str = "SELECT ticket_id, player_id, game, status, match_id FROM matchmaking_ticket WHERE ticket_id = $1";
        Ok(with_pool!(self, pool => sqlx::query_as::<_, TicketRow>(SQL)
            .bind(ticket_id).fetch_optional(pool).await)?)
    }

    pub async fn cancel_ticket(&self, ticket_id: &TicketId) -> StoreResult<()> {
        const SQL: &str =
            "UPDATE matchmaking_ticket SET status = 'cancelled' WHERE ticket_id = $1 AND status = 'waiting'";
        with_pool!(self, pool => sqlx::query(SQL).bind(ticket_id).execute(pool).await.map(|_| ()))?;
        Ok(())
    }

    /// A player's rating in one pool, if rated there.
    pub async fn rating(&self, player_id: &PlayerId, game: &str, format: &str) -> StoreResult<Option<f64>> {
        const SQL: &str = "SELECT rating FROM rating WHERE player_id = $1 AND game = $2 AND format = $3";
        Ok(with_pool!(self, pool => sqlx::query_scalar::<_, f64>(SQL)
            .bind(player_id).bind(game).bind(format).fetch_optional(pool).await)?)
    }

    /// Locks the waiting tickets no other pass holds, asks `planner` which matches they
    /// make, and writes those matches (status `open`, every seat taken) and the tickets'
    /// new state in one transaction. Returns the new matches' ids for the caller to start.
    pub async fn matchmaking_pass(
        &self,
        planner: impl FnOnce(&[WaitingTicket]) -> Vec<PairedMatch>,
    ) -> StoreResult<Vec<MatchId>> {
        let waiting_sql = format!("{WAITING_SQL}{}", self.dialect().skip_locked);
        let mut created = Vec::new();
        with_pool!(self, pool => {
            let mut tx = pool.begin().await?;
            sqlx::query(WRITE_LOCK_SQL).execute(&mut *tx).await?;
            let waiting: Vec<WaitingTicket> = sqlx::query_as::<_, WaitingRow>(sqlx::AssertSqlSafe(waiting_sql))
                .fetch_all(&mut *tx).await?
                .into_iter().map(waiting_ticket).collect();
            for paired in planner(&waiting) {
                (*tx).insert_match_rows(&paired.row, &paired.seats).await?;
                for ticket_id in &paired.ticket_ids {
                    sqlx::query(MATCHED_SQL).bind(ticket_id).bind(&paired.row.match_id)
                        .execute(&mut *tx).await?;
                }
                created.push(paired.row.match_id);
            }
            tx.commit().await?;
        });
        Ok(created)
    }
}
