//! `crease bot`: plays matches against a running server exactly as a remote player would
//! (HTTP lobby, then the WebSocket), choosing moves with the game's own `bot_command` from
//! the views it receives. Prints one JSON line per finished match.

use crate::matches::{GameKind, GameRegistry};
use crate::protocol::{ClientMessage, CreateMatch, CreatePlayer, CreateTicket, MatchInfo, Opponent};
use crate::protocol::{PlayerCreated, ServerMessage, Ticket};
use crate::record::{MatchId, TicketStatus};
use crate::rules::{BotPolicy, Dice, Seat};
use anyhow::{Context, bail};
use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use std::sync::Arc;
use std::time::Duration;
use tokio_tungstenite::tungstenite::Message;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Base URL of the server, e.g. http://127.0.0.1:8080
    #[arg(long, default_value = "http://127.0.0.1:8080")]
    pub server: String,
    /// `ctg`, `wicketz` or `champions`.
    #[arg(long, default_value = "ctg")]
    pub game: String,
    /// Shortcut for `--options '{"format": ...}'`.
    #[arg(long)]
    pub format: Option<String>,
    /// Shortcut for `--options '{"players": N}'` (Cricket Champions: 2 to 5 seats).
    #[arg(long)]
    pub players: Option<u8>,
    /// The game's options as JSON (merged under `--format` and `--players`).
    #[arg(long)]
    pub options: Option<String>,
    /// Play against a server-side bot instead of waiting in matchmaking.
    #[arg(long)]
    pub vs_bot: bool,
    #[arg(long, default_value_t = 1)]
    pub matches: u32,
    #[arg(long, default_value = "heuristic")]
    pub policy: String,
}

/// What `crease bot` prints per match.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct MatchReport {
    pub match_id: String,
    pub result: Value,
    pub events: u64,
}

pub fn run(args: Args, games: &GameRegistry) -> anyhow::Result<()> {
    crate::logging::init(false);
    let runtime = tokio::runtime::Runtime::new()?;
    runtime.block_on(async {
        let game = games
            .get(&args.game)
            .with_context(|| format!("unknown game {}", args.game))?;
        let options = options_of(&args)?;
        let policy = match args.policy.as_str() {
            "random" => BotPolicy::Random,
            "heuristic" => BotPolicy::Heuristic,
            other => bail!("unknown policy {other} (random or heuristic)"),
        };
        let client = BotClient::register(&args.server, "crease-bot").await?;
        for _ in 0..args.matches {
            let match_id = if args.vs_bot {
                client.create_vs_bot(game.id(), options.clone()).await?
            } else {
                client.matchmake(game.id(), options.clone()).await?
            };
            let report = client.play(&match_id, game.clone(), policy).await?;
            println!("{}", serde_json::to_string(&report)?);
        }
        Ok(())
    })
}

fn options_of(args: &Args) -> anyhow::Result<Option<Value>> {
    let mut options = match &args.options {
        Some(text) => serde_json::from_str::<Value>(text).context("--options is not JSON")?,
        None => json!({}),
    };
    if let Some(format) = &args.format {
        options["format"] = Value::String(format.clone());
    }
    if let Some(players) = args.players {
        options["players"] = Value::from(players);
    }
    Ok((options != json!({})).then_some(options))
}

/// A remote player: its token and the server's address.
pub struct BotClient {
    http: reqwest::Client,
    base: String,
    token: String,
}

impl BotClient {
    pub async fn register(server: &str, name: &str) -> anyhow::Result<BotClient> {
        BotClient::register_with(reqwest::Client::new(), server, name).await
    }

    /// Registers a player on a shared HTTP client (`crease load` runs thousands of players
    /// over one connection pool).
    pub async fn register_with(http: reqwest::Client, server: &str, name: &str) -> anyhow::Result<BotClient> {
        let base = server.trim_end_matches('/').to_string();
        let created: PlayerCreated = http
            .post(format!("{base}/v1/players"))
            .json(&CreatePlayer { name: name.into() })
            .send()
            .await?
            .error_for_status()?
            .json()
            .await?;
        Ok(BotClient {
            http,
            base,
            token: created.token,
        })
    }

    pub async fn create_vs_bot(&self, game: &str, options: Option<Value>) -> anyhow::Result<MatchId> {
        self.create(game, options, Some(Opponent::Bot)).await
    }

    /// Opens a lobby match against another player (who then calls [`BotClient::join`]).
    pub async fn create_open(&self, game: &str, options: Option<Value>) -> anyhow::Result<MatchId> {
        self.create(game, options, None).await
    }

    async fn create(
        &self,
        game: &str,
        options: Option<Value>,
        opponent: Option<Opponent>,
    ) -> anyhow::Result<MatchId> {
        let request = CreateMatch {
            game: game.into(),
            options,
            opponent,
            bots: None,
            bot_level: None,
            turn_clock_secs: None,
            disconnect_grace_secs: None,
        };
        let info: MatchInfo = self
            .http
            .post(format!("{}/v1/matches", self.base))
            .bearer_auth(&self.token)
            .json(&request)
            .send()
            .await?
            .error_for_status()?
            .json()
            .await?;
        // The server's reply is this client's edge: its id is parsed once, here.
        Ok(MatchId::parse(&info.match_id)?)
    }

    /// Takes the free seat of an open match.
    pub async fn join(&self, match_id: &MatchId) -> anyhow::Result<()> {
        self.http
            .post(format!("{}/v1/matches/{match_id}/join", self.base))
            .bearer_auth(&self.token)
            .send()
            .await?
            .error_for_status()?;
        Ok(())
    }

    /// The match's WebSocket address for this player, resuming after `resume_from` if given.
    pub fn socket_url(&self, match_id: &MatchId, resume_from: Option<i64>) -> String {
        let ws_base = self.base.replacen("http", "ws", 1);
        let resume = resume_from.map_or(String::new(), |seq| format!("&resume_from={seq}"));
        format!("{ws_base}/v1/matches/{match_id}/ws?token={}{resume}", self.token)
    }

    /// Waits in matchmaking until paired.
    pub async fn matchmake(&self, game: &str, options: Option<Value>) -> anyhow::Result<MatchId> {
        let request = CreateTicket {
            game: game.into(),
            options,
            bot_fallback: false,
        };
        let mut ticket: Ticket = self
            .http
            .post(format!("{}/v1/matchmaking/tickets", self.base))
            .bearer_auth(&self.token)
            .json(&request)
            .send()
            .await?
            .error_for_status()?
            .json()
            .await?;
        loop {
            match (ticket.status, &ticket.match_id) {
                (TicketStatus::Matched, Some(match_id)) => return Ok(MatchId::parse(match_id)?),
                (TicketStatus::Cancelled, _) => bail!("ticket cancelled"),
                _ => tokio::time::sleep(Duration::from_millis(250)).await,
            }
            ticket = self
                .http
                .get(format!(
                    "{}/v1/matchmaking/tickets/{}",
                    self.base, ticket.ticket_id
                ))
                .bearer_auth(&self.token)
                .send()
                .await?
                .error_for_status()?
                .json()
                .await?;
        }
    }

    /// Plays one match to its end over the WebSocket.
    pub async fn play(
        &self,
        match_id: &MatchId,
        game: Arc<dyn GameKind>,
        policy: BotPolicy,
    ) -> anyhow::Result<MatchReport> {
        let url = self.socket_url(match_id, None);
        let (mut socket, _) = tokio_tungstenite::connect_async_with_config(url.as_str(), None, true).await?;
        let mut dice = Dice::new(&crate::fairness::new_seed());
        let mut seat: Option<Seat> = None;
        let mut events = 0u64;
        let mut awaiting_ack = false;
        let mut next_id = 0u64;
        // The last seq seen, sent with each command so a late one is never applied to a
        // later decision.
        let mut seen = 0i64;
        // The latest view; a seat is often asked again by the batch its own command produced,
        // which arrives before that command's ack, so the ack re-examines it.
        let mut latest: Option<(Value, Vec<Seat>)> = None;
        while let Some(frame) = socket.next().await {
            let text = match frame? {
                Message::Text(text) => text,
                Message::Close(_) => break,
                _ => continue,
            };
            let message: ServerMessage = serde_json::from_str(&text)?;
            let (view, pending) = match message {
                ServerMessage::Snapshot(snapshot) => {
                    seat = snapshot.seat;
                    seen = seen.max(snapshot.last_seq);
                    (snapshot.view, snapshot.pending)
                }
                ServerMessage::Update(update) => {
                    seen = seen.max(update.last_seq);
                    (update.view, update.pending)
                }
                // `crease bot` speaks protocol 1 (it never asks for 2): no step comes.
                ServerMessage::Step(_) => continue,
                // An offer to adjourn stands unanswered: this bot plays on (the offer can be
                // withdrawn), and while adjourned its commands are refused until resumed.
                ServerMessage::Adjournment(_) => continue,
                ServerMessage::Event { seq, .. } => {
                    events += 1;
                    seen = seen.max(seq);
                    continue;
                }
                ServerMessage::Ack { last_seq, .. } => {
                    awaiting_ack = false;
                    seen = seen.max(last_seq);
                    match latest.take() {
                        Some(last) => last,
                        None => continue,
                    }
                }
                ServerMessage::Error(error) => {
                    tracing::warn!(
                        code = error.code.as_str(),
                        message = error.message,
                        "command refused"
                    );
                    awaiting_ack = false;
                    match latest.take() {
                        Some(last) => last,
                        None => continue,
                    }
                }
                ServerMessage::Finished { result, .. } => {
                    return Ok(MatchReport {
                        match_id: match_id.to_string(),
                        result: serde_json::to_value(result)?,
                        events,
                    });
                }
                ServerMessage::Pong { .. } => continue,
            };
            latest = Some((view.clone(), pending.clone()));
            let my_turn = seat.is_some_and(|seat| pending.contains(&seat));
            if my_turn
                && !awaiting_ack
                && let Some(command) = game
                    .bot_command(&view.to_string(), policy, &mut dice)
                    .map_err(anyhow::Error::msg)?
            {
                next_id += 1;
                let message = ClientMessage::Command {
                    id: next_id.to_string(),
                    after: Some(seen),
                    command,
                };
                socket
                    .send(Message::Text(serde_json::to_string(&message)?.into()))
                    .await?;
                awaiting_ack = true;
            }
        }
        bail!("the server closed match {match_id} before it finished")
    }
}
