//! The JSON Schemas of the wire, as `(path under proto/, pretty JSON)` pairs. The committed
//! `proto/` directory is exactly this list; `tests/rules/proto_schema.rs` keeps it so.
//!
//! The games' own schemas come in as plain data ([`GameSchemas`] by game id): the registry
//! that knows the games sits above the protocol, so the protocol never names it.

use super::*;
use schemars::{JsonSchema, schema_for};

/// JSON Schemas of one game's payloads, for `proto/<game>/`.
pub struct GameSchemas {
    pub options: schemars::Schema,
    pub command: schemars::Schema,
    pub event: schemars::Schema,
    pub view: schemars::Schema,
}

fn pretty<T: JsonSchema>() -> String {
    let schema = schema_for!(T);
    let mut text = serde_json::to_string_pretty(&schema).unwrap_or_default();
    text.push('\n');
    text
}

fn render(schema: &schemars::Schema) -> String {
    let mut text = serde_json::to_string_pretty(schema).unwrap_or_default();
    text.push('\n');
    text
}

/// Every schema file of `proto/`, for the envelopes and for each game of `games` (its id and
/// schemas, in the order the files are listed).
pub fn files(games: impl IntoIterator<Item = (&'static str, GameSchemas)>) -> Vec<(String, String)> {
    let mut files = vec![
        ("ws/client_message.json".to_string(), pretty::<ClientMessage>()),
        ("ws/server_message.json".to_string(), pretty::<ServerMessage>()),
        ("http/error.json".to_string(), pretty::<ErrorBody>()),
        ("http/create_player.json".to_string(), pretty::<CreatePlayer>()),
        ("http/player_created.json".to_string(), pretty::<PlayerCreated>()),
        ("http/claim_account.json".to_string(), pretty::<ClaimAccount>()),
        ("http/account.json".to_string(), pretty::<Account>()),
        ("http/log_in.json".to_string(), pretty::<LogIn>()),
        (
            "http/session_created.json".to_string(),
            pretty::<SessionCreated>(),
        ),
        ("http/sessions_ended.json".to_string(), pretty::<SessionsEnded>()),
        ("http/create_match.json".to_string(), pretty::<CreateMatch>()),
        ("http/match_info.json".to_string(), pretty::<MatchInfo>()),
        ("http/match_list.json".to_string(), pretty::<MatchList>()),
        ("http/create_ticket.json".to_string(), pretty::<CreateTicket>()),
        ("http/ticket.json".to_string(), pretty::<Ticket>()),
        (
            "http/create_competition.json".to_string(),
            pretty::<super::CreateCompetition>(),
        ),
        (
            "http/competition.json".to_string(),
            pretty::<super::Competition>(),
        ),
        ("http/match_log.json".to_string(), pretty::<MatchLog>()),
        ("http/scorecard.json".to_string(), pretty::<Scorecard>()),
        ("http/verify.json".to_string(), pretty::<VerifyBody>()),
        (
            "log/command_entry.json".to_string(),
            pretty::<crate::record::CommandRecord>(),
        ),
        (
            "log/forfeit_entry.json".to_string(),
            pretty::<crate::record::ForfeitRecord>(),
        ),
        (
            "log/abandon_entry.json".to_string(),
            pretty::<crate::record::AbandonRecord>(),
        ),
        (
            "log/adjournment_entry.json".to_string(),
            pretty::<crate::record::AdjournmentRecord>(),
        ),
    ];
    for (id, schemas) in games {
        files.push((format!("{id}/options.json"), render(&schemas.options)));
        files.push((format!("{id}/command.json"), render(&schemas.command)));
        files.push((format!("{id}/event.json"), render(&schemas.event)));
        files.push((format!("{id}/view.json"), render(&schemas.view)));
    }
    files
}

/// The generated sections of `proto/README.md`, by marker name: each sits between
/// `<!-- generated:NAME -->` and `<!-- end:NAME -->` (`tests/rules/proto_schema.rs` keeps them in
/// step with the code).
pub fn readme_sections() -> Vec<(&'static str, String)> {
    vec![("error-codes", error_code_table())]
}

/// Every WebSocket error code with its meaning (the enum's doc comments, via its schema), then
/// the precedence of the checks.
fn error_code_table() -> String {
    use super::ws::PRECEDENCE;
    let schema = serde_json::to_value(schemars::schema_for!(super::ErrorCode)).unwrap_or_default();
    let mut out = String::from("| Code | Meaning |\n| --- | --- |\n");
    for variant in schema["oneOf"].as_array().into_iter().flatten() {
        let code = variant["const"]
            .as_str()
            .or_else(|| variant["enum"][0].as_str())
            .unwrap_or_default();
        let meaning = variant["description"]
            .as_str()
            .unwrap_or_default()
            .replace('\n', " ");
        out.push_str(&format!("| `{code}` | {meaning} |\n"));
    }
    out.push_str("\nWhen several apply, the first failing check answers, in this order:\n\n");
    for (rank, (code, check)) in PRECEDENCE.iter().enumerate() {
        out.push_str(&format!("{}. `{}`: {check}\n", rank + 1, code.as_str()));
    }
    out
}
