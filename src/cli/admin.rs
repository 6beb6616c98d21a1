//! `crease admin`: moderation from the command line, through a running server's admin API
//! (`/v1/admin/...`), so every action goes through the same checks and lands in the same
//! audit log as a request would. Prints the server's JSON answer; exits non-zero, with the
//! error's code and message, on any refusal.

use crate::input::{PlayerName, Reason};
use crate::record::{MatchId, PlayerId};
use anyhow::{Context, bail};
use serde_json::{Value, json};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Base URL of the server.
    #[arg(long, default_value = "http://127.0.0.1:8080")]
    pub url: String,
    /// One of the server's admin tokens (`LABEL=TOKEN` is accepted too, as the server's own
    /// setting is written, so the same `CREASE_ADMIN_TOKEN` serves both).
    #[arg(long, env = "CREASE_ADMIN_TOKEN", hide_env_values = true)]
    pub token: String,
    #[command(subcommand)]
    pub action: Action,
}

#[derive(Debug, clap::Subcommand)]
pub enum Action {
    /// Lists players whose display name contains TEXT (case-insensitively), by name.
    Players {
        /// Text the name contains; every player without it.
        #[arg(long)]
        name: Option<String>,
        #[arg(long, default_value_t = 50)]
        limit: u16,
        /// `next_cursor` of the previous page.
        #[arg(long)]
        cursor: Option<String>,
    },
    /// Bans a player: its sockets close, its matches end as forfeits, it cannot log in.
    Ban {
        player_id: String,
        #[arg(long)]
        reason: String,
    },
    /// Lifts a player's ban.
    Unban { player_id: String },
    /// Renames a player (refused if another player holds the name, in any case).
    Rename { player_id: String, name: String },
    /// Ends a live match as abandoned: nobody wins, nothing is rated, the log says so.
    EndMatch {
        match_id: String,
        #[arg(long)]
        reason: String,
    },
    /// Prints the audit log of admin actions, newest first.
    Audit {
        #[arg(long, default_value_t = 50)]
        limit: u16,
        #[arg(long)]
        cursor: Option<String>,
    },
}

/// A request to send: method, path and query under the base URL, and a body.
struct Call {
    post: bool,
    path: String,
    query: Vec<(&'static str, String)>,
    body: Option<Value>,
}

impl Call {
    fn get(path: String, query: Vec<(&'static str, String)>) -> Call {
        Call {
            post: false,
            path,
            query,
            body: None,
        }
    }

    fn post(path: String, body: Option<Value>) -> Call {
        Call {
            post: true,
            path,
            query: Vec::new(),
            body,
        }
    }
}

/// The request an action makes. Ids, names and reasons are checked here as the server
/// checks them, so a typo is refused before anything is sent.
fn call(action: Action) -> anyhow::Result<Call> {
    Ok(match action {
        Action::Players { name, limit, cursor } => {
            let mut query = vec![("limit", limit.to_string())];
            query.extend(name.map(|name| ("name", name)));
            query.extend(cursor.map(|cursor| ("cursor", cursor)));
            Call::get("/v1/admin/players".into(), query)
        }
        Action::Ban { player_id, reason } => {
            let id = PlayerId::parse(&player_id)?;
            let reason = Reason::parse(&reason)?;
            Call::post(
                format!("/v1/admin/players/{id}/ban"),
                Some(json!({ "reason": reason.as_str() })),
            )
        }
        Action::Unban { player_id } => {
            let id = PlayerId::parse(&player_id)?;
            Call::post(format!("/v1/admin/players/{id}/unban"), None)
        }
        Action::Rename { player_id, name } => {
            let id = PlayerId::parse(&player_id)?;
            let name = PlayerName::parse(&name)?;
            Call::post(
                format!("/v1/admin/players/{id}/rename"),
                Some(json!({ "name": name.as_str() })),
            )
        }
        Action::EndMatch { match_id, reason } => {
            let id = MatchId::parse(&match_id)?;
            let reason = Reason::parse(&reason)?;
            Call::post(
                format!("/v1/admin/matches/{id}/end"),
                Some(json!({ "reason": reason.as_str() })),
            )
        }
        Action::Audit { limit, cursor } => {
            let mut query = vec![("limit", limit.to_string())];
            query.extend(cursor.map(|cursor| ("cursor", cursor)));
            Call::get("/v1/admin/audit".into(), query)
        }
    })
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    let answer = runtime.block_on(send(&args.url, &args.token, args.action))?;
    println!("{}", serde_json::to_string_pretty(&answer)?);
    Ok(())
}

/// Sends `action` to the server at `url` with the admin `token`; the server's JSON answer,
/// or an error naming its status, code and message.
pub async fn send(url: &str, token: &str, action: Action) -> anyhow::Result<Value> {
    let call = call(action)?;
    let secret = crate::moderation::secret_of(token);
    let client = reqwest::Client::builder()
        .timeout(std::time::Duration::from_secs(30))
        .build()?;
    let mut address = format!("{}{}", url.trim_end_matches('/'), call.path);
    if !call.query.is_empty() {
        let mut query = form_urlencoded::Serializer::new(String::new());
        for (name, value) in &call.query {
            query.append_pair(name, value);
        }
        address = format!("{address}?{}", query.finish());
    }
    let mut request = if call.post {
        client.post(&address)
    } else {
        client.get(&address)
    };
    request = request.bearer_auth(secret);
    if let Some(body) = &call.body {
        request = request.json(body);
    }
    let response = request
        .send()
        .await
        .with_context(|| format!("no answer from {address}"))?;
    let status = response.status();
    let body: Value = response.json().await.unwrap_or(Value::Null);
    if !status.is_success() {
        let code = body["error"]["code"].as_str().unwrap_or("?");
        let message = body["error"]["message"].as_str().unwrap_or("");
        bail!("{address} answered {status}: {code}: {message}");
    }
    Ok(body)
}
