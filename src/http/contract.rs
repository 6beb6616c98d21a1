//! The constraints and answers the server enforces on every route of a kind, stated once in
//! the OpenAPI document rather than repeated on each `#[utoipa::path]`: an `{id}` is a UUID
//! (malformed is a 400, unknown a 404), an authenticated route answers 401 (checked before
//! anything else, see [`super::Caller`]), `game` is one of the registered games, `status`
//! one of the match statuses, a page's `limit` 1 to 200, and the bodies' strings hold no
//! control character and have the lengths `input` checks. Schemathesis (`tests/contract/`)
//! holds the document to what the server really does.

use crate::input::{InputLimits, Password, PlayerName, Reason, Username};
use crate::matches::GameRegistry;
use crate::record::MatchStatus;
use serde_json::{Map, Value, json};

/// Text `input::printable` accepts: no control character (C0, DEL or C1).
const PRINTABLE: &str = "^[^\\x00-\\x1f\\x7f-\\x9f]*$";

/// A display name `input::PlayerName` accepts, stated as a subset a regex can say: scripts
/// whose every code point is assigned and none a format character (the server refuses
/// unassigned, private-use and format characters, which a pattern cannot name by category),
/// with no space at either end (the server trims them).
const NAME: &str = "^[\\x21-\\x7e\\u00a1-\\u00ac\\u00ae-\\u0377\\u0400-\\u052f\\u4e00-\\u9fa5]([\\x20-\\x7e\\u00a1-\\u00ac\\u00ae-\\u0377\\u0400-\\u052f\\u4e00-\\u9fa5]*[\\x21-\\x7e\\u00a1-\\u00ac\\u00ae-\\u0377\\u0400-\\u052f\\u4e00-\\u9fa5])?$";

/// A reason `input::Reason` accepts: printable text with at least one character that is not
/// whitespace (the server trims it).
const REASON: &str = "^[^\\x00-\\x1f\\x7f-\\x9f]*[^\\s\\x00-\\x1f\\x7f-\\x9f][^\\x00-\\x1f\\x7f-\\x9f]*$";

/// Adds the shared constraints and error answers to `document` (its paths and components).
pub fn tighten(document: &mut Value) {
    let games: Vec<Value> = GameRegistry::standard()
        .ids()
        .into_iter()
        .map(Value::from)
        .collect();
    if let Some(paths) = document.get_mut("paths").and_then(Value::as_object_mut) {
        for (path, item) in paths.iter_mut() {
            let Some(item) = item.as_object_mut() else {
                continue;
            };
            for operation in item.values_mut().filter_map(Value::as_object_mut) {
                tighten_operation(path, operation, &games);
            }
        }
    }
    if let Some(schemas) = document.pointer_mut("/components/schemas") {
        tighten_bodies(schemas, &games);
    }
}

fn tighten_operation(path: &str, operation: &mut Map<String, Value>, games: &[Value]) {
    let mut answers = Vec::new();
    for parameter in operation
        .get_mut("parameters")
        .and_then(Value::as_array_mut)
        .into_iter()
        .flatten()
    {
        let name = parameter["name"].as_str().unwrap_or_default().to_string();
        let place = parameter["in"].as_str().unwrap_or_default().to_string();
        let schema = match (place.as_str(), name.as_str()) {
            ("path", "id") => {
                answers.push((400, "`bad_request`: the id is not a UUID"));
                answers.push((404, "`not_found`: no such id"));
                json!({"type": "string", "format": "uuid"})
            }
            ("path", "game") => {
                answers.push((400, "`unknown_game`: not a registered game"));
                json!({"type": "string", "enum": games})
            }
            ("query", "status") if path.starts_with("/v1/competitions") => {
                json!({"type": "string", "enum": ["open", "running", "finished"]})
            }
            ("path", "fixture") => {
                answers.push((400, "`bad_request`: not a fixture number"));
                answers.push((404, "`not_found`: no such fixture"));
                json!({"type": "integer", "minimum": 1, "maximum": i32::MAX})
            }
            ("query", "status") => {
                let statuses = [
                    MatchStatus::Open,
                    MatchStatus::Live,
                    MatchStatus::Finished,
                    MatchStatus::Cancelled,
                ];
                json!({"type": "string", "enum": statuses})
            }
            ("query", "limit") => json!({"type": "integer", "minimum": 1, "maximum": 200}),
            ("query", "cursor") => json!({"type": "string", "pattern": "^[0-9]{1,18}$"}),
            ("query", "token") => {
                answers.push((401, "`unauthorized`: the token is not a valid one"));
                json!({"type": "string", "pattern": PRINTABLE})
            }
            (_, _) if parameter["schema"]["type"] == "string" => {
                json!({"type": "string", "pattern": PRINTABLE})
            }
            (_, _) => continue,
        };
        parameter["schema"] = schema;
    }
    if operation.contains_key("security") {
        answers.push((401, "`unauthorized`: no valid bearer token"));
    }
    if let Some(body) = operation.get_mut("requestBody") {
        body["required"] = Value::Bool(true);
        answers.push((400, "`bad_request`: the body is not the JSON described"));
    }
    let responses = operation.entry("responses").or_insert_with(|| json!({}));
    for (status, description) in answers {
        responses
            .as_object_mut()
            .expect("responses is an object")
            .entry(status.to_string())
            .or_insert_with(|| {
                json!({"description": description, "content": {"application/json": {"schema": {"$ref": "#/components/schemas/ErrorBody"}}}})
            });
    }
}

fn tighten_bodies(schemas: &mut Value, games: &[Value]) {
    let printable = |min: usize, max: usize| json!({"type": "string", "minLength": min, "maxLength": max, "pattern": PRINTABLE});
    let mut set = |pointer: &str, schema: Value| {
        if let Some(slot) = schemas.pointer_mut(pointer) {
            *slot = schema;
        }
    };
    let name = json!({"type": "string", "minLength": 1, "maxLength": PlayerName::MAX_CHARS, "pattern": NAME});
    set("/CreatePlayer/properties/name", name.clone());
    set("/RenamePlayer/properties/name", name);
    set(
        "/AdminReason/properties/reason",
        json!({"type": "string", "minLength": 1, "maxLength": Reason::MAX_CHARS, "pattern": REASON}),
    );
    let username = json!({"type": "string", "minLength": Username::MIN_CHARS, "maxLength": Username::MAX_CHARS, "pattern": "^[A-Za-z0-9][A-Za-z0-9._-]*$"});
    set("/ClaimAccount/properties/username", username.clone());
    set("/LogIn/properties/username", username);
    set(
        "/ClaimAccount/properties/password",
        printable(Password::MIN_CHARS, Password::MAX_CHARS),
    );
    set(
        "/LogIn/properties/password",
        printable(Password::MIN_CHARS, Password::MAX_CHARS),
    );
    set(
        "/LogIn/properties/device",
        json!({"type": "string", "pattern": "^[\\x21-\\x7e]{16,128}$"}),
    );
    set(
        "/CreateMatch/properties/game",
        json!({"type": "string", "enum": games}),
    );
    // The clocks' ranges with the default `--max-turn-clock-secs` and
    // `--max-disconnect-grace-secs` (the document is one for every server; a server set to
    // other maxima says so in its `bad_options` message).
    let limits = InputLimits::default();
    set(
        "/CreateMatch/properties/turn_clock_secs",
        json!({"type": ["integer", "null"], "minimum": 1, "maximum": limits.max_turn_clock_secs}),
    );
    set(
        "/CreateMatch/properties/disconnect_grace_secs",
        json!({"type": ["integer", "null"], "minimum": 0, "maximum": limits.max_disconnect_grace_secs}),
    );
    set(
        "/CreateTicket/properties/game",
        json!({"type": "string", "enum": games}),
    );
    // The game's options are an object (its own schema is `proto/<game>/options.json`).
    set(
        "/CreateCompetition/properties/options",
        json!({"type": ["object", "null"]}),
    );
    set(
        "/CreateCompetition/properties/game",
        json!({"type": "string", "enum": games}),
    );
    set(
        "/CreateCompetition/properties/name",
        json!({"type": "string", "minLength": 1, "maxLength": crate::competitions::service::MAX_NAME_CHARS, "pattern": REASON}),
    );
    set(
        "/CreateCompetition/properties/round_hours",
        json!({"type": ["integer", "null"], "minimum": 1, "maximum": crate::competitions::service::MAX_ROUND_HOURS}),
    );
    set(
        "/AddBots/properties/count",
        json!({"type": "integer", "minimum": 1, "maximum": crate::competitions::service::MAX_BOTS_AT_ONCE}),
    );
}
