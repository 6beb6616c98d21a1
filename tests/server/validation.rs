//! Input validation at the edge and the error shape, on SQLite and PostgreSQL: control
//! characters, malformed ids, names, option and clock ranges, unknown and oversized commands,
//! the `Bearer` scheme, and `{"error": {"code", "message"}}` for every refusal the framework
//! itself produces (path, query and JSON rejections, 413, 404, 405).

use crate::common;

use common::{Backend, TestApp, spawn_app_on, spawn_app_with};
use crease::matches::GameRegistry;
use crease::protocol::{ErrorCode, ServerMessage};
use serde_json::{Value, json};

const BACKENDS: [Backend; 2] = [Backend::Sqlite, Backend::Postgres];

/// The real games plus the test toy (cheap to play over a socket).
fn games() -> GameRegistry {
    GameRegistry::standard().register::<common::toy::Toy>()
}

/// A response read whatever its content type: status, content type, body as JSON (or null).
struct Answer {
    status: u16,
    content_type: String,
    body: Value,
    text: String,
}

async fn send(request: reqwest::RequestBuilder) -> Answer {
    let response = request.send().await.expect("request");
    let status = response.status().as_u16();
    let content_type = response
        .headers()
        .get(reqwest::header::CONTENT_TYPE)
        .and_then(|value| value.to_str().ok())
        .unwrap_or_default()
        .to_string();
    let text = response.text().await.expect("body");
    let body = serde_json::from_str(&text).unwrap_or(Value::Null);
    Answer {
        status,
        content_type,
        body,
        text,
    }
}

/// Asserts the documented error shape: the status, JSON, exactly `code` and a message.
#[track_caller]
fn assert_shape(answer: &Answer, status: u16, code: &str, context: &str) {
    assert_eq!(answer.status, status, "{context}: {}", answer.text);
    assert!(
        answer.content_type.starts_with("application/json"),
        "{context}: content type {:?}, body {}",
        answer.content_type,
        answer.text
    );
    assert_eq!(answer.body["error"]["code"], code, "{context}: {}", answer.text);
    let message = answer.body["error"]["message"].as_str().unwrap_or_default();
    assert!(!message.is_empty(), "{context}: no message in {}", answer.text);
    assert_eq!(
        answer.body.as_object().map(|o| o.len()),
        Some(1),
        "{context}: only `error` at the top: {}",
        answer.text
    );
}

fn url(app: &TestApp, path: &str) -> String {
    format!("{}{path}", app.base)
}

async fn get(app: &TestApp, path: &str) -> Answer {
    send(app.http.get(url(app, path))).await
}

async fn post(app: &TestApp, path: &str, token: Option<&str>, body: Value) -> Answer {
    let mut request = app.http.post(url(app, path)).json(&body);
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    send(request).await
}

#[tokio::test]
async fn control_characters_and_malformed_ids_are_400_bad_request_on_both_backends() {
    for backend in BACKENDS {
        let Some(app) = spawn_app_on(backend, games()).await else {
            continue;
        };
        let player = app.player("Ann").await;
        let ctx = |what: &str| format!("{backend:?}: {what}");

        // Bodies: a NUL (which PostgreSQL refuses in `text`) or any other control character,
        // in a value or a key, at any depth.
        for body in [
            json!({ "name": "Ann\u{0}Lee" }),
            json!({ "name": "Ann\u{1b}[31mLee" }),
            json!({ "name": "Ann\u{85}" }),
        ] {
            let answer = post(&app, "/v1/players", None, body.clone()).await;
            assert_shape(&answer, 400, "bad_request", &ctx(&body.to_string()));
            assert!(
                answer.body["error"]["message"]
                    .as_str()
                    .unwrap()
                    .contains("control character"),
                "{}",
                answer.text
            );
        }
        for body in [
            json!({ "game": "ctg\u{0}" }),
            json!({ "game": "champions", "options": { "players\u{0}": 2 } }),
        ] {
            let answer = post(&app, "/v1/matches", Some(&player.token), body.clone()).await;
            assert_shape(&answer, 400, "bad_request", &ctx(&body.to_string()));
        }
        let answer = post(
            &app,
            "/v1/matchmaking/tickets",
            Some(&player.token),
            json!({ "game": "wicketz\u{7}" }),
        )
        .await;
        assert_shape(&answer, 400, "bad_request", &ctx("ticket game"));

        // Path ids: a NUL, other garbage, a non-UUID: 400 before any lookup.
        let well_formed = "67e55044-10b1-426f-9247-bb680e5fe0c8";
        for path in [
            "/v1/matches/%00".to_string(),
            "/v1/matches/abc%00def".to_string(),
            "/v1/matches/no-such-match".to_string(),
            "/v1/matches/%FF%FE".to_string(),
            format!("/v1/matches/{}%00/log", &well_formed[..35]),
            "/v1/matches/%00/scorecard".to_string(),
            "/v1/matches/%00/verify".to_string(),
            "/v1/matches/%0A/ws".to_string(),
            "/v1/players/%00".to_string(),
            "/v1/players/nobody/matches".to_string(),
            "/v1/leaderboards/ctg%00".to_string(),
        ] {
            assert_shape(&get(&app, &path).await, 400, "bad_request", &ctx(&path));
        }
        for path in ["/v1/matches/%00/join", "/v1/matches/x/leave"] {
            let answer = post(&app, path, Some(&player.token), json!({})).await;
            assert_shape(&answer, 400, "bad_request", &ctx(path));
        }
        let ticket = send(
            app.http
                .get(url(&app, "/v1/matchmaking/tickets/%00"))
                .bearer_auth(&player.token),
        )
        .await;
        assert_shape(&ticket, 400, "bad_request", &ctx("ticket id"));
        let cancel = send(
            app.http
                .delete(url(&app, "/v1/matchmaking/tickets/nope"))
                .bearer_auth(&player.token),
        )
        .await;
        assert_shape(&cancel, 400, "bad_request", &ctx("ticket id on delete"));
        // A well-formed id that names nothing is still a 404.
        for path in [
            format!("/v1/matches/{well_formed}"),
            format!("/v1/players/{well_formed}"),
        ] {
            assert_shape(&get(&app, &path).await, 404, "not_found", &ctx(&path));
        }
        // Upper case is the same id.
        let (_, created) = app
            .post("/v1/matches", Some(&player.token), json!({ "game": "toy" }))
            .await;
        let id = created["match_id"].as_str().expect("match id").to_string();
        let (status, shown) = app.get(&format!("/v1/matches/{}", id.to_uppercase()), None).await;
        assert_eq!((status, shown["match_id"].as_str()), (200, Some(id.as_str())));

        // Query values, decoded: a NUL in any of them.
        for path in [
            "/v1/leaderboards/ctg?format=t10%00".to_string(),
            "/v1/leaderboards/ctg?cursor=%00".to_string(),
            "/v1/matches?status=open%00".to_string(),
            format!("/v1/matches/{id}/log?token=%00"),
            format!("/v1/players/{}/matches?x%00=1", player.player_id),
            format!("/v1/matches/{id}/ws?token=abc%01"),
        ] {
            assert_shape(&get(&app, &path).await, 400, "bad_request", &ctx(&path));
        }
        app.stop().await;
    }
}

#[tokio::test]
async fn names_are_normalised_and_refused_with_clear_messages_on_both_backends() {
    for backend in BACKENDS {
        let Some(app) = spawn_app_on(backend, games()).await else {
            continue;
        };
        // Stored and shown normalised: NFC, trimmed, inner whitespace runs collapsed.
        for (raw, stored) in [
            ("  Ann \u{3000}  Lee  ", "Ann Lee"),
            ("Rene\u{301}", "Ren\u{e9}"),
            // 40 characters after NFC, though 80 code points as sent.
            (&*"e\u{301}".repeat(40), &*"\u{e9}".repeat(40)),
        ] {
            let created = app.player(raw).await;
            assert_eq!(created.name, stored, "{backend:?}: {raw:?}");
            let (_, profile) = app.get(&format!("/v1/players/{}", created.player_id), None).await;
            assert_eq!(profile["name"], stored, "{backend:?}: stored as normalised");
        }
        for (raw, needle) in [
            ("", "must not be empty"),
            (" \u{a0}\u{3000} ", "must not be empty"),
            (
                &*"x".repeat(41),
                "at most 40 characters after normalisation, not 41",
            ),
            ("Ann\tLee", "U+0009"),
            ("Ann\u{200b}", "not printable"),
            ("gnp.exe\u{202e}", "not printable"),
        ] {
            let answer = post(&app, "/v1/players", None, json!({ "name": raw })).await;
            assert_shape(&answer, 400, "bad_request", &format!("{backend:?}: {raw:?}"));
            let message = answer.body["error"]["message"].as_str().unwrap();
            assert!(
                message.contains("name") && message.contains(needle),
                "{raw:?}: {message}"
            );
        }
        app.stop().await;
    }
}

#[tokio::test]
async fn every_game_option_and_clock_is_range_checked_with_bad_options() {
    for backend in BACKENDS {
        let Some(app) = spawn_app_with(backend, games(), |config| {
            // Dozens of refused creations from one player: the abuse limits would answer
            // 429 first (they are tested in server_abuse_limits.rs).
            config.abuse = crease::http::limits::AbuseConfig::off();
        })
        .await
        else {
            continue;
        };
        let player = app.player("Ann").await;
        // (game, options, what the message names)
        let cases = [
            ("ctg", json!([]), "`options` must be a JSON object"),
            ("ctg", json!("t20"), "`options` must be a JSON object"),
            (
                "ctg",
                json!({ "bowled_chance_margin": 9 }),
                "`bowled_chance_margin` must be 3 or 4, not 9",
            ),
            ("ctg", json!({ "format": "t99" }), "t99"),
            ("wicketz", json!([]), "`options` must be a JSON object"),
            (
                "wicketz",
                json!({ "overs": 0 }),
                "`overs` must be 1 to 100, not 0",
            ),
            (
                "wicketz",
                json!({ "overs": 65535 }),
                "`overs` must be 1 to 100, not 65535",
            ),
            ("wicketz", json!({ "overs": 65536 }), "overs"),
            (
                "wicketz",
                json!({ "innings_per_side": 3 }),
                "`innings_per_side` must be 1 or 2, not 3",
            ),
            (
                "wicketz",
                json!({ "overs": 20, "fielding_restriction": { "kind": "agreed", "overs": 21, "max_outside_inner": 2 } }),
                "`fielding_restriction.overs` must be 0 to 20 (the match's `overs`), not 21",
            ),
            (
                "wicketz",
                json!({ "fielding_restriction": { "kind": "agreed", "overs": 5, "max_outside_inner": 10 } }),
                "`fielding_restriction.max_outside_inner` must be 0 to 9, not 10",
            ),
            ("champions", json!([]), "`options` must be a JSON object"),
            (
                "champions",
                json!({ "players": 1 }),
                "`players` must be 2 to 5, not 1",
            ),
            (
                "champions",
                json!({ "players": 6 }),
                "`players` must be 2 to 5, not 6",
            ),
        ];
        for (game, options, needle) in &cases {
            let context = format!("{backend:?}: {game} {options}");
            for path in ["/v1/matches", "/v1/matchmaking/tickets"] {
                let body = json!({ "game": game, "options": options });
                let answer = post(&app, path, Some(&player.token), body).await;
                assert_shape(&answer, 400, "bad_options", &format!("{context} at {path}"));
                let message = answer.body["error"]["message"].as_str().unwrap();
                assert!(message.contains(needle), "{context}: {message}");
            }
        }
        // Clocks: no zero turn clock, and no overflow: u64::MAX seconds is refused, not
        // stored as a wrapped (or 1 ms) clock.
        for (field, value, needle) in [
            (
                "turn_clock_secs",
                json!(0),
                "`turn_clock_secs` must be 1 to 86400 seconds, not 0",
            ),
            (
                "turn_clock_secs",
                json!(86_401),
                "`turn_clock_secs` must be 1 to 86400 seconds",
            ),
            (
                "turn_clock_secs",
                json!(u64::MAX),
                "`turn_clock_secs` must be 1 to 86400 seconds",
            ),
            (
                "disconnect_grace_secs",
                json!(u64::MAX),
                "`disconnect_grace_secs` must be 0 to 86400 seconds",
            ),
        ] {
            let body = json!({ "game": "toy", field: value });
            let answer = post(&app, "/v1/matches", Some(&player.token), body).await;
            assert_shape(
                &answer,
                400,
                "bad_options",
                &format!("{backend:?}: {field}={value}"),
            );
            let message = answer.body["error"]["message"].as_str().unwrap();
            assert!(message.contains(needle), "{message}");
        }
        // The edges of the ranges are accepted and stored exactly.
        let body = json!({ "game": "toy", "turn_clock_secs": 86_400, "disconnect_grace_secs": 0 });
        let (status, created) = app.post("/v1/matches", Some(&player.token), body).await;
        assert_eq!(status, 201, "{created}");
        assert_eq!(created["turn_clock_ms"], 86_400_000);
        assert_eq!(created["disconnect_grace_ms"], 0);
        // `null` options are the defaults, as absent ones are.
        let body = json!({ "game": "champions", "options": null });
        assert_eq!(app.post("/v1/matches", Some(&player.token), body).await.0, 201);
        app.stop().await;
    }
}

#[tokio::test]
async fn the_bearer_scheme_is_case_insensitive() {
    let Some(app) = spawn_app_on(Backend::Sqlite, games()).await else {
        return;
    };
    let player = app.player("Ann").await;
    for scheme in ["Bearer", "bearer", "BEARER", "bEaReR"] {
        let answer = send(
            app.http
                .post(url(&app, "/v1/matches"))
                .header("authorization", format!("{scheme} {}", player.token))
                .json(&json!({ "game": "toy" })),
        )
        .await;
        assert_eq!(answer.status, 201, "{scheme}: {}", answer.text);
    }
    for header in [
        format!("Basic {}", player.token),
        "Bearer ".to_string(),
        player.token.clone(),
    ] {
        let answer = send(
            app.http
                .post(url(&app, "/v1/matches"))
                .header("authorization", header.clone())
                .json(&json!({ "game": "toy" })),
        )
        .await;
        assert_shape(&answer, 401, "unauthorized", &header);
    }
    app.stop().await;
}

#[tokio::test]
async fn framework_refusals_have_the_documented_error_shape() {
    let Some(app) = spawn_app_on(Backend::Sqlite, games()).await else {
        return;
    };
    let player = app.player("Ann").await;
    let (_, created) = app
        .post("/v1/matches", Some(&player.token), json!({ "game": "toy" }))
        .await;
    let id = created["match_id"].as_str().expect("match id").to_string();

    // Query rejections: a value of the wrong type.
    for path in [
        "/v1/leaderboards/ctg?limit=many".to_string(),
        format!("/v1/players/{}/matches?limit=-", player.player_id),
        format!("/v1/matches/{id}/ws?resume_from=soon"),
    ] {
        assert_shape(&get(&app, &path).await, 400, "bad_request", &path);
    }
    // JSON rejections: not JSON, the wrong content type, the wrong shape, unknown fields.
    let not_json = send(
        app.http
            .post(url(&app, "/v1/players"))
            .header("content-type", "application/json")
            .body("{nope"),
    )
    .await;
    assert_shape(&not_json, 400, "bad_request", "not JSON");
    let no_type = send(app.http.post(url(&app, "/v1/players")).body(r#"{"name":"x"}"#)).await;
    assert_shape(&no_type, 400, "bad_request", "no content type");
    for body in [
        json!({ "name": 7 }),
        json!([]),
        json!({ "name": "x", "admin": true }),
    ] {
        let answer = post(&app, "/v1/players", None, body.clone()).await;
        assert_shape(&answer, 400, "bad_request", &body.to_string());
    }
    // Over the body limit: 413 in the shape (tower-http's layer answered plain text).
    let big = json!({ "name": "x".repeat(70 * 1024) });
    let answer = post(&app, "/v1/players", None, big.clone()).await;
    assert_shape(&answer, 413, "payload_too_large", "70 KiB body");
    let answer = post(&app, "/v1/matches", Some(&player.token), big).await;
    assert_shape(&answer, 413, "payload_too_large", "70 KiB match body");
    // Unknown routes, API or not, whatever the method.
    for (method, path) in [
        (reqwest::Method::GET, "/nope"),
        (reqwest::Method::GET, "/v1/nope"),
        (reqwest::Method::POST, "/v1/nope"),
        (reqwest::Method::GET, "/js/nope.js"),
    ] {
        let answer = send(app.http.request(method.clone(), url(&app, path))).await;
        assert_shape(&answer, 404, "not_found", &format!("{method} {path}"));
    }
    // Known routes, wrong method.
    for (method, path) in [
        (reqwest::Method::DELETE, "/v1/players".to_string()),
        (reqwest::Method::PUT, "/v1/matches".to_string()),
        (reqwest::Method::DELETE, format!("/v1/matches/{id}")),
    ] {
        let answer = send(app.http.request(method.clone(), url(&app, &path))).await;
        assert_shape(&answer, 405, "method_not_allowed", &format!("{method} {path}"));
    }
    app.stop().await;
}

/// The raw answer to `request` sent as is on a fresh connection: head and body.
async fn raw_exchange(app: &TestApp, request: &[u8]) -> (String, String) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut stream = tokio::net::TcpStream::connect(app.app().address())
        .await
        .expect("connect");
    // A refusing server may close before it has read everything: the answer is what counts.
    let _ = stream.write_all(request).await;
    let mut answer = Vec::new();
    let _ = tokio::time::timeout(std::time::Duration::from_secs(5), stream.read_to_end(&mut answer)).await;
    let answer = String::from_utf8_lossy(&answer).into_owned();
    let (head, body) = answer.split_once("\r\n\r\n").unwrap_or((&answer, ""));
    (head.to_string(), body.to_string())
}

/// Issue 23: requests hyper itself refuses before any handler (too many headers, a head
/// over its buffer, a malformed Content-Length) were answered with an empty body; every
/// refusal is documented as `{"error":{...}}`.
#[tokio::test]
async fn requests_refused_by_the_http_parser_get_the_documented_error_body() {
    let app = spawn_app_with(Backend::Sqlite, games(), |_| {})
        .await
        .expect("sqlite");
    let many_headers: String = (0..120)
        .map(|index| format!("x-filler-{index}: {index}\r\n"))
        .collect();
    let huge_header = format!("x-huge: {}\r\n", "a".repeat(600 * 1024));
    let cases = [
        (
            format!("GET /healthz HTTP/1.1\r\nhost: x\r\n{many_headers}\r\n"),
            431,
            "headers_too_large",
        ),
        (format!("GET /healthz HTTP/1.1\r\nhost: x\r\n{huge_header}\r\n"), 431, "headers_too_large"),
        (
            "POST /v1/players HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: -5\r\n\r\n{}".to_string(),
            400,
            "bad_request",
        ),
        (
            "POST /v1/players HTTP/1.1\r\nhost: x\r\ncontent-length: 2\r\ncontent-length: 3\r\n\r\n{}".to_string(),
            400,
            "bad_request",
        ),
        ("GET /healthz HTTP/1.1\r\nbad header line\r\n\r\n".to_string(), 400, "bad_request"),
    ];
    for (request, status, code) in cases {
        let label: String = request.chars().take(60).collect();
        let (head, body) = raw_exchange(&app, request.as_bytes()).await;
        assert!(
            head.starts_with(&format!("HTTP/1.1 {status}")),
            "{label:?}: {head}"
        );
        assert!(
            head.to_ascii_lowercase()
                .contains("content-type: application/json"),
            "{label:?}: {head}"
        );
        let body: Value =
            serde_json::from_str(&body).unwrap_or_else(|_| panic!("{label:?}: a JSON body, got {body:?}"));
        assert_eq!(body["error"]["code"], code, "{label:?}: {body}");
        assert!(
            body["error"]["message"]
                .as_str()
                .is_some_and(|message| !message.is_empty()),
            "{body}"
        );
    }
    // The server still serves, and its own answers are untouched.
    let (head, body) = raw_exchange(
        &app,
        b"GET /healthz HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n",
    )
    .await;
    assert!(head.starts_with("HTTP/1.1 200"), "{head}: {body}");
    app.stop().await;
}

/// Issue 23: `{"name":"a","name":"b"}` was read as `b`; a repeated key is ambiguous (another
/// parser reads `a`), so it is refused, in bodies (`bad_request`) and frames (`bad_message`).
#[tokio::test]
async fn a_repeated_json_key_is_refused_in_bodies_and_frames() {
    let app = spawn_app_with(Backend::Sqlite, games(), |_| {})
        .await
        .expect("sqlite");
    let answer = send(
        app.http
            .post(url(&app, "/v1/players"))
            .header("content-type", "application/json")
            .body(r#"{"name":"a","name":"b"}"#),
    )
    .await;
    assert_shape(&answer, 400, "bad_request", "a repeated key");
    assert!(answer.text.contains("twice"), "{}", answer.text);
    let (info, home, _away) = app.live_match("toy", json!({})).await;
    let mut client = app.connect(&info.match_id, Some(&home.token), None).await;
    let _ = client.recv().await;
    client
        .send_text(
            r#"{"type":"command","id":"dup","command":{"type":"pick","value":1,"value":2}}"#.to_string(),
        )
        .await;
    let error = loop {
        if let ServerMessage::Error(error) = client.recv().await {
            break error;
        }
    };
    assert_eq!(
        (error.code, error.id.as_deref()),
        (ErrorCode::BadMessage, Some("dup")),
        "{error:?}"
    );
    assert!(error.message.contains("twice"), "{error:?}");
    app.stop().await;
}

fn error_of(message: ServerMessage) -> crease::protocol::ErrorMessage {
    match message {
        ServerMessage::Error(error) => error,
        other => panic!("expected an error, got {other:?}"),
    }
}

#[tokio::test]
async fn websocket_frames_with_control_characters_unknown_fields_or_oversize_commands_are_bad_message() {
    for backend in BACKENDS {
        let Some(app) = spawn_app_on(backend, games()).await else {
            continue;
        };
        let (info, home, _away) = app.live_match("toy", json!({ "rounds": 2 })).await;
        let id = info.match_id;
        let mut client = app.connect(&id, Some(&home.token), None).await;
        assert!(matches!(client.recv().await, ServerMessage::Snapshot(_)));
        let rows_at_start = app
            .app()
            .store()
            .log(&common::match_id(&id))
            .await
            .expect("log")
            .len();

        let pick = json!({ "type": "pick", "value": 2 });
        let frames = [
            // A NUL in the client's id: refused, and the id echoed as sent (JSON-escaped).
            (
                json!({ "type": "command", "id": "a\u{0}b", "command": pick }),
                Some("a\u{0}b"),
                "control character",
            ),
            // A control character deep in the command.
            (
                json!({ "type": "command", "id": "k1", "command": { "type": "pick", "value": 2, "note": "\u{1b}" } }),
                Some("k1"),
                "message.command.note contains the control character U+001B",
            ),
            // Unknown envelope fields: refused, and the id echoed.
            (
                json!({ "type": "command", "id": "k2", "command": pick, "priority": 1 }),
                Some("k2"),
                "unknown field",
            ),
            (
                json!({ "type": "ping", "id": "k3", "extra": true }),
                Some("k3"),
                "unknown field",
            ),
            // Over the toy's 256-byte command limit, before the game reads it.
            (
                json!({ "type": "command", "id": "k4", "command": { "type": "pick", "value": 2, "pad": "x".repeat(300) } }),
                Some("k4"),
                "over this game's limit of 256",
            ),
        ];
        for (frame, echoed, needle) in frames {
            client.send_text(frame.to_string()).await;
            let error = error_of(client.recv().await);
            assert_eq!(error.code, ErrorCode::BadMessage, "{backend:?}: {frame}");
            assert_eq!(error.id.as_deref(), echoed, "{frame}");
            assert!(error.message.contains(needle), "{frame}: {}", error.message);
        }
        // Nothing of it reached the log, and the socket still plays.
        assert_eq!(
            app.app()
                .store()
                .log(&common::match_id(&id))
                .await
                .expect("log")
                .len(),
            rows_at_start
        );
        let cid = client.command(pick).await;
        assert!(matches!(client.answer(&cid).await, ServerMessage::Ack { .. }));
        app.stop().await;
    }
}

/// The real games refuse unknown command fields and commands over their size limit.
#[tokio::test]
async fn real_games_refuse_unknown_command_fields_and_oversize_commands() {
    let Some(app) = spawn_app_on(Backend::Sqlite, games()).await else {
        return;
    };
    let player = app.player("Ann").await;
    let body = json!({ "game": "champions", "opponent": "bot" });
    let (status, created) = app.post("/v1/matches", Some(&player.token), body).await;
    assert_eq!(status, 201, "{created}");
    let id = created["match_id"].as_str().expect("match id").to_string();
    let mut client = app.connect(&id, Some(&player.token), None).await;
    assert!(matches!(client.recv().await, ServerMessage::Snapshot(_)));
    for command in [
        json!({ "type": "pass", "junk": 1 }),
        json!({ "type": "roll", "dice": [], "junk": 1 }),
        json!({ "type": "stop", "powers": [{ "kind": "set_die", "card": "x", "die": 0, "junk": 1 }] }),
    ] {
        let cid = client.command(command.clone()).await;
        let error = error_of(client.answer(&cid).await);
        assert_eq!(error.code, ErrorCode::BadMessage, "{command}: {}", error.message);
        assert!(
            error.message.contains("unknown field"),
            "{command}: {}",
            error.message
        );
    }
    let cid = client
        .command(json!({ "type": "buy", "card": "x".repeat(3000) }))
        .await;
    let error = error_of(client.answer(&cid).await);
    assert_eq!(error.code, ErrorCode::BadMessage);
    assert!(
        error.message.contains("over this game's limit of 2048"),
        "{}",
        error.message
    );

    // CTG and Wicketz, through the same serde types the server reads commands with.
    use crease::rules::{ctg, wicketz};
    for command in [
        json!({ "type": "toss", "choice": "bat", "junk": 1 }),
        json!({ "type": "power_play", "call": true, "junk": 1 }),
    ] {
        let error = serde_json::from_value::<ctg::Command>(command.clone()).unwrap_err();
        assert!(error.to_string().contains("unknown field"), "{command}: {error}");
    }
    let error =
        serde_json::from_value::<wicketz::Command>(json!({ "type": "choose_innings", "bat": true, "x": 1 }))
            .unwrap_err();
    assert!(error.to_string().contains("unknown field"), "{error}");
    use crease::rules::Game;
    assert_eq!(
        (ctg::Ctg::MAX_COMMAND_BYTES, wicketz::Wicketz::MAX_COMMAND_BYTES),
        (512, 1024)
    );
    app.stop().await;
}
