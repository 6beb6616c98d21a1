//! Accounts over real HTTP, on SQLite and (with `TEST_DATABASE_URL`) Postgres: a guest
//! claims its player with a password, logs in from another device, and its sessions expire,
//! can be ended one at a time or everywhere; login attempts are rate-limited.

use crate::common;

use common::{Backend, TestApp, spawn_app_with, toy_games};
use crease::config::ServeConfig;
use serde_json::{Value, json};
use std::time::Duration;

const PASSWORD: &str = "correct horse battery";

async fn app_on(backend: Backend, configure: impl FnOnce(&mut ServeConfig)) -> Option<TestApp> {
    spawn_app_with(backend, toy_games(), configure).await
}

/// `(status, Retry-After, body)` of a request, with the headers a browser on another
/// device would send (`X-Forwarded-For` only matters behind a trusted proxy).
async fn send(
    app: &TestApp,
    method: reqwest::Method,
    path: &str,
    token: Option<&str>,
    body: Option<Value>,
    forwarded_for: Option<&str>,
) -> (u16, Option<u64>, Value) {
    let mut request = app.http.request(method, format!("{}{path}", app.base));
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    if let Some(body) = body {
        request = request.json(&body);
    }
    if let Some(address) = forwarded_for {
        request = request.header("x-forwarded-for", address);
    }
    let response = request.send().await.expect("request");
    let status = response.status().as_u16();
    let retry_after = response
        .headers()
        .get("retry-after")
        .and_then(|value| value.to_str().ok())
        .and_then(|value| value.parse().ok());
    (status, retry_after, response.json().await.unwrap_or(Value::Null))
}

async fn claim(app: &TestApp, token: &str, username: &str, password: &str) -> (u16, Value) {
    let body = json!({ "username": username, "password": password });
    app.post("/v1/account/claim", Some(token), body).await
}

async fn log_in(app: &TestApp, username: &str, password: &str) -> (u16, Value) {
    let body = json!({ "username": username, "password": password });
    app.post("/v1/sessions", None, body).await
}

fn token_of(session: &Value) -> String {
    session["token"].as_str().expect("a token").to_string()
}

/// Whether `token` still opens an account, and whose.
async fn account_of(app: &TestApp, token: &str) -> Option<String> {
    let (status, body) = app.get("/v1/account", Some(token)).await;
    match status {
        200 => Some(body["player_id"].as_str().expect("player id").to_string()),
        401 => {
            assert_eq!(body["error"]["code"], "unauthorized", "{body}");
            None
        }
        other => panic!("GET /v1/account answered {other}: {body}"),
    }
}

fn assert_error(status: u16, body: &Value, expected_status: u16, code: &str) {
    assert_eq!(status, expected_status, "{body}");
    assert_eq!(body["error"]["code"], code, "{body}");
    assert!(
        body["error"]["message"]
            .as_str()
            .is_some_and(|message| !message.is_empty()),
        "{body}"
    );
}

async fn claim_then_log_in_on_another_device(backend: Backend) {
    let Some(app) = app_on(backend, |_| {}).await else {
        return;
    };
    let guest = app.player("Ann Lee").await;
    let (status, before) = app.get("/v1/account", Some(&guest.token)).await;
    assert_eq!(status, 200, "{before}");
    assert_eq!(before["username"], Value::Null, "a guest has no login name");
    assert_eq!(
        before["session_expires_at"],
        Value::Null,
        "a guest's token does not expire"
    );

    let (status, claimed) = claim(&app, &guest.token, "Ann_Lee", PASSWORD).await;
    assert_eq!(status, 200, "{claimed}");
    assert_eq!(claimed["player_id"], guest.player_id.as_str());
    assert_eq!(claimed["name"], "Ann Lee", "the display name is kept");
    assert_eq!(claimed["username"], "ann_lee", "login names are stored lowercase");
    assert!(claimed["claimed_at"].is_string(), "{claimed}");
    assert!(
        claimed["session_expires_at"].is_string(),
        "once claimed, the guest token expires like any session: {claimed}"
    );

    // Another device knows only the name (in any case) and the password.
    let (status, session) = log_in(&app, "ANN_LEE", PASSWORD).await;
    assert_eq!(status, 201, "{session}");
    assert_eq!(session["player_id"], guest.player_id.as_str());
    assert_eq!(session["username"], "ann_lee");
    let elsewhere = token_of(&session);
    assert_ne!(elsewhere, guest.token, "each device gets its own token");
    assert_eq!(
        account_of(&app, &elsewhere).await.as_deref(),
        Some(guest.player_id.as_str())
    );
    assert_eq!(
        account_of(&app, &guest.token).await.as_deref(),
        Some(guest.player_id.as_str())
    );
    // The new token plays like the guest's: it can open a match as that player.
    let (status, created) = app
        .post("/v1/matches", Some(&elsewhere), json!({ "game": "toy" }))
        .await;
    assert_eq!(status, 201, "{created}");
    assert_eq!(created["seats"][0]["player_id"], guest.player_id.as_str());
    app.stop().await;
}

common::sqlite_and_postgres!(claim_then_log_in_on_another_device);

async fn wrong_passwords_and_unknown_names_are_refused_alike(backend: Backend) {
    let Some(app) = app_on(backend, |_| {}).await else {
        return;
    };
    let guest = app.player("bob").await;
    let (status, body) = claim(&app, &guest.token, "bob", PASSWORD).await;
    assert_eq!(status, 200, "{body}");

    let (status, wrong) = log_in(&app, "bob", "correct horse battery!").await;
    assert_error(status, &wrong, 401, "invalid_credentials");
    let (status, unknown) = log_in(&app, "nobody", PASSWORD).await;
    assert_error(status, &unknown, 401, "invalid_credentials");
    assert_eq!(wrong, unknown, "the answer must not tell which names exist");
    let (status, too_short) = log_in(&app, "bob", "short").await;
    assert_error(status, &too_short, 401, "invalid_credentials");
    app.stop().await;
}

common::sqlite_and_postgres!(wrong_passwords_and_unknown_names_are_refused_alike);

#[tokio::test]
async fn bad_claims_get_clear_errors() {
    let app = app_on(Backend::Sqlite, |_| {}).await.expect("sqlite");
    let (first, second) = (app.player("first").await, app.player("second").await);

    let (status, body) = claim(&app, &first.token, "ab", PASSWORD).await;
    assert_error(status, &body, 400, "bad_request");
    assert!(
        body["error"]["message"]
            .as_str()
            .is_some_and(|m| m.contains("username must be 3 to 32")),
        "{body}"
    );
    let (status, body) = claim(&app, &first.token, "first", "short").await;
    assert_error(status, &body, 400, "bad_request");
    let message = body["error"]["message"].as_str().unwrap_or_default();
    assert!(
        message.contains("password must be at least 8") && !message.contains("short"),
        "never echoed: {body}"
    );
    let (status, body) = app
        .post(
            "/v1/account/claim",
            Some(&first.token),
            json!({ "username": "first" }),
        )
        .await;
    assert_error(status, &body, 400, "bad_request");
    let (status, body) = claim(&app, "not-a-token", "first", PASSWORD).await;
    assert_error(status, &body, 401, "unauthorized");

    let (status, body) = claim(&app, &first.token, "first", PASSWORD).await;
    assert_eq!(status, 200, "{body}");
    let (status, body) = claim(&app, &first.token, "first-again", PASSWORD).await;
    assert_error(status, &body, 409, "already_claimed");
    let (status, body) = claim(&app, &second.token, "FIRST", PASSWORD).await;
    assert_error(status, &body, 409, "username_taken");
    // The refused claim left the second player a guest, free to pick another name.
    let (status, body) = claim(&app, &second.token, "second", PASSWORD).await;
    assert_eq!(status, 200, "{body}");
    app.stop().await;
}

async fn sessions_of_claimed_accounts_expire(backend: Backend) {
    let Some(app) = app_on(backend, |config| {
        config.accounts.session_ttl = Duration::from_secs(1);
    })
    .await
    else {
        return;
    };
    let (claimed, guest) = (app.player("claimed").await, app.player("guest").await);
    let (status, body) = claim(&app, &claimed.token, "claimed", PASSWORD).await;
    assert_eq!(status, 200, "{body}");
    let (status, session) = log_in(&app, "claimed", PASSWORD).await;
    assert_eq!(status, 201, "{session}");
    let login = token_of(&session);
    assert!(account_of(&app, &login).await.is_some(), "fresh");

    tokio::time::sleep(Duration::from_millis(1300)).await;
    assert_eq!(account_of(&app, &login).await, None, "the login session expired");
    assert_eq!(
        account_of(&app, &claimed.token).await,
        None,
        "so did the claimed guest token"
    );
    assert_eq!(
        account_of(&app, &guest.token).await.as_deref(),
        Some(guest.player_id.as_str()),
        "an unclaimed guest's token is its only key and does not expire"
    );
    // The password still works: a new session, valid again.
    let (status, again) = log_in(&app, "claimed", PASSWORD).await;
    assert_eq!(status, 201, "{again}");
    assert!(account_of(&app, &token_of(&again)).await.is_some());
    app.stop().await;
}

common::sqlite_and_postgres!(sessions_of_claimed_accounts_expire);

async fn log_out_here_and_everywhere(backend: Backend) {
    let Some(app) = app_on(backend, |_| {}).await else {
        return;
    };
    let player = app.player("carol").await;
    let (status, body) = claim(&app, &player.token, "carol", PASSWORD).await;
    assert_eq!(status, 200, "{body}");
    let (_, phone) = log_in(&app, "carol", PASSWORD).await;
    let (_, laptop) = log_in(&app, "carol", PASSWORD).await;
    let (phone, laptop) = (token_of(&phone), token_of(&laptop));

    // Logging out ends this session only.
    let (status, ended) = app.delete("/v1/sessions/current", Some(&phone)).await;
    assert_eq!(status, 200, "{ended}");
    assert_eq!(ended["ended"], 1);
    assert_eq!(account_of(&app, &phone).await, None, "revoked");
    assert!(
        account_of(&app, &laptop).await.is_some(),
        "the other device stays in"
    );
    let (status, body) = app.delete("/v1/sessions/current", Some(&phone)).await;
    assert_error(status, &body, 401, "unauthorized");

    // Everywhere: the laptop and the first device's guest token, this request's included.
    let (status, ended) = app.delete("/v1/sessions", Some(&laptop)).await;
    assert_eq!(status, 200, "{ended}");
    assert_eq!(ended["ended"], 2);
    assert_eq!(account_of(&app, &laptop).await, None);
    assert_eq!(account_of(&app, &player.token).await, None);
    let (status, back) = log_in(&app, "carol", PASSWORD).await;
    assert_eq!(status, 201, "the password still lets the owner back in: {back}");
    app.stop().await;
}

common::sqlite_and_postgres!(log_out_here_and_everywhere);

#[tokio::test]
async fn a_guest_cannot_log_out_of_its_only_key() {
    let app = app_on(Backend::Sqlite, |_| {}).await.expect("sqlite");
    let guest = app.player("dave").await;
    for path in ["/v1/sessions/current", "/v1/sessions"] {
        let (status, body) = app.delete(path, Some(&guest.token)).await;
        assert_error(status, &body, 409, "not_claimed");
    }
    assert!(
        account_of(&app, &guest.token).await.is_some(),
        "the token still works"
    );
    app.stop().await;
}

/// An app with tight login limits (a burst of 3 attempts, then one a minute) and `username`
/// claimed. Requests come from 127.0.0.1, made a trusted proxy so that `X-Forwarded-For` can
/// play clients on other addresses.
async fn app_with_tight_login_limits(username: &str) -> TestApp {
    let app = app_on(Backend::Sqlite, |config| {
        config.abuse.login_burst = 3;
        config.abuse.login_attempts_per_minute = 1;
        config.abuse.trusted_proxies = vec!["127.0.0.0/8".parse().expect("net")];
    })
    .await
    .expect("sqlite");
    let player = app.player(username).await;
    let (status, body) = claim(&app, &player.token, username, PASSWORD).await;
    assert_eq!(status, 200, "{body}");
    app
}

/// A login attempt as a client at `address` sends it, with the device id it may keep.
async fn attempt_login(
    app: &TestApp,
    username: &str,
    password: &str,
    address: &str,
    device: Option<&str>,
) -> (u16, Option<u64>, Value) {
    let mut body = json!({ "username": username, "password": password });
    if let Some(device) = device {
        body["device"] = json!(device);
    }
    send(
        app,
        reqwest::Method::POST,
        "/v1/sessions",
        None,
        Some(body),
        Some(address),
    )
    .await
}

#[tokio::test]
async fn login_attempts_are_limited_per_address_and_per_name() {
    let app = app_with_tight_login_limits("erin").await;
    let attempt = |password: &'static str, address: &'static str, username: &'static str| {
        attempt_login(&app, username, password, address, None)
    };

    // One name, tried from a new address each time: the name's bucket runs dry.
    for address in ["203.0.113.1", "203.0.113.2", "203.0.113.3"] {
        let (status, _, body) = attempt("wrong password", address, "erin").await;
        assert_error(status, &body, 401, "invalid_credentials");
    }
    let (status, retry_after, body) = attempt(PASSWORD, "203.0.113.4", "erin").await;
    assert_error(status, &body, 429, "rate_limited");
    assert!(
        retry_after.is_some_and(|secs| (1..=60).contains(&secs)),
        "even the right password waits: Retry-After {retry_after:?}"
    );

    // One address, trying a new name each time: the address's bucket runs dry.
    for username in ["frank", "grace", "heidi"] {
        let (status, _, body) = attempt(PASSWORD, "198.51.100.7", username).await;
        assert_error(status, &body, 401, "invalid_credentials");
    }
    let (status, retry_after, body) = attempt(PASSWORD, "198.51.100.7", "ivan").await;
    assert_error(status, &body, 429, "rate_limited");
    assert!(retry_after.is_some(), "a Retry-After header");
    app.stop().await;
}

/// Issue 23: one wrong guess every few seconds used to lock a name's owner out. A device
/// that logged in to the name before passes the name's limit (by its `device` id from any
/// address, or by its address); a stranger, even with the right password, still waits.
#[tokio::test]
async fn someone_elses_wrong_guesses_cannot_lock_the_owners_known_device_out() {
    let app = app_with_tight_login_limits("judy").await;
    let device = "judys-phone-5f0c2a9e41d7b3c8";
    let attempt = |password: &'static str, address: &'static str, device: Option<&'static str>| {
        attempt_login(&app, "judy", password, address, device)
    };
    // The owner logs in once from home: the device is known from now on.
    let (status, _, body) = attempt(PASSWORD, "198.51.100.20", Some(device)).await;
    assert_eq!(status, 201, "{body}");
    // A guesser drains the name's bucket (3, one spent by that login) from new addresses.
    for address in ["203.0.113.11", "203.0.113.12"] {
        let (status, _, body) = attempt("wrong password", address, None).await;
        assert_error(status, &body, 401, "invalid_credentials");
    }
    let (status, _, body) = attempt(PASSWORD, "203.0.113.14", None).await;
    assert_error(status, &body, 429, "rate_limited");
    let (status, _, body) = attempt(PASSWORD, "203.0.113.15", Some("a-device-never-seen-before")).await;
    assert_error(status, &body, 429, "rate_limited");
    // The owner's device gets in, from a new address too, and so does its known address.
    let (status, _, body) = attempt(PASSWORD, "192.0.2.33", Some(device)).await;
    assert_eq!(status, 201, "the known device was locked out: {body}");
    let (status, _, body) = attempt(PASSWORD, "198.51.100.20", None).await;
    assert_eq!(status, 201, "the known address was locked out: {body}");
    // A malformed device id is bad input, said so.
    let (status, _, body) = attempt(PASSWORD, "192.0.2.34", Some("short")).await;
    assert_error(status, &body, 400, "bad_request");
    app.stop().await;
}

/// Issue 23: password hashing used to run unbounded on the blocking pool (100 logins took
/// 1.9 GB). With one hashing thread and a queue of one, a burst gets its answers (401) or
/// 503 `overloaded` with `Retry-After`, never anything else, and the server recovers.
#[tokio::test]
async fn a_login_burst_past_the_password_pool_is_refused_as_overloaded() {
    let app = app_on(Backend::Sqlite, |config| {
        config.abuse = crease::http::limits::AbuseConfig::off();
        config.accounts.password_hash_threads = Some(1);
        config.accounts.password_hash_queue = 1;
    })
    .await
    .expect("sqlite");
    let player = app.player("kim").await;
    let (status, body) = claim(&app, &player.token, "kim", PASSWORD).await;
    assert_eq!(status, 200, "{body}");
    let burst = (0..16).map(|index| {
        let body = json!({ "username": format!("random{index}"), "password": "some guess or other" });
        send(
            &app,
            reqwest::Method::POST,
            "/v1/sessions",
            None,
            Some(body),
            None,
        )
    });
    let answers = futures_util::future::join_all(burst).await;
    let mut overloaded = 0;
    for (status, retry_after, body) in &answers {
        match status {
            401 => assert_eq!(body["error"]["code"], "invalid_credentials", "{body}"),
            503 => {
                assert_eq!(body["error"]["code"], "overloaded", "{body}");
                assert_eq!(*retry_after, Some(1), "{body}");
                overloaded += 1;
            }
            other => panic!("a login answered {other}: {body}"),
        }
    }
    assert!(
        overloaded >= 1,
        "16 logins at once fit a pool of one thread and a queue of one"
    );
    assert!(
        overloaded <= 14,
        "at least the running and the queued one were answered"
    );
    let (status, body) = log_in(&app, "kim", PASSWORD).await;
    assert_eq!(status, 201, "the pool serves again: {body}");
    app.stop().await;
}

/// The close code a socket ends with within `limit`, skipping whatever it is sent before;
/// `None` if it is still open then.
async fn closed_within(client: &mut common::Client, limit: Duration) -> Option<Option<u16>> {
    use common::Received;
    let deadline = tokio::time::Instant::now() + limit;
    client.timeout = None;
    loop {
        match tokio::time::timeout_at(deadline, client.next()).await {
            Err(_) => return None,
            Ok(Received::Closed(code)) => return Some(code),
            Ok(Received::Message(_)) => continue,
        }
    }
}

/// The socket still plays: a ping is answered (whatever else arrives first).
async fn still_open(client: &mut common::Client) {
    use common::Received;
    use crease::protocol::ServerMessage;
    client.timeout = Some(Duration::from_secs(10));
    client
        .send_text(json!({ "type": "ping", "id": "alive?" }).to_string())
        .await;
    loop {
        match client.next().await {
            Received::Message(message) if matches!(*message, ServerMessage::Pong { .. }) => return,
            Received::Message(_) => continue,
            Received::Closed(code) => panic!("the socket closed ({code:?}) although its session lives"),
        }
    }
}

/// A toy match against the bot, created with `token`.
async fn match_against_the_bot(app: &TestApp, token: &str) -> String {
    let body = json!({ "game": "toy", "options": { "rounds": 50 }, "opponent": "bot" });
    let (status, created) = app.post("/v1/matches", Some(token), body).await;
    assert_eq!(status, 201, "{created}");
    created["match_id"].as_str().expect("match id").to_string()
}

/// Issue 23: a logout used to leave the token's open sockets playing. Now logging out ends
/// that session's sockets within a second (close 4401), logging out everywhere ends all of
/// the player's, and sockets of other sessions (and spectators) play on.
async fn ending_a_session_closes_its_sockets(backend: Backend) {
    let Some(app) = app_on(backend, |_| {}).await else {
        return;
    };
    let player = app.player("lena").await;
    let (status, body) = claim(&app, &player.token, "lena", PASSWORD).await;
    assert_eq!(status, 200, "{body}");
    let (status, other_device) = log_in(&app, "lena", PASSWORD).await;
    assert_eq!(status, 201, "{other_device}");
    let other_device = token_of(&other_device);
    let match_id = match_against_the_bot(&app, &player.token).await;
    let mut here = app.connect(&match_id, Some(&player.token), None).await;
    let mut there = app.connect(&match_id, Some(&other_device), None).await;
    let mut watcher = app.connect(&match_id, None, None).await;
    for socket in [&mut here, &mut there, &mut watcher] {
        still_open(socket).await;
    }
    let (status, body) = app.delete("/v1/sessions/current", Some(&player.token)).await;
    assert_eq!(status, 200, "{body}");
    let code = closed_within(&mut here, Duration::from_secs(1)).await;
    assert_eq!(
        code,
        Some(Some(4401)),
        "the logged-out socket closes with 4401 within 1 s"
    );
    still_open(&mut there).await;
    still_open(&mut watcher).await;
    // A new socket with the ended token is refused outright.
    let (status, _) = app
        .get(&format!("/v1/matches/{match_id}/ws"), Some(&player.token))
        .await;
    assert_eq!(status, 401);

    let (status, body) = app.delete("/v1/sessions", Some(&other_device)).await;
    assert_eq!(status, 200, "{body}");
    let code = closed_within(&mut there, Duration::from_secs(1)).await;
    assert_eq!(code, Some(Some(4401)), "log out everywhere closes it within 1 s");
    still_open(&mut watcher).await;
    app.stop().await;
}

common::sqlite_and_postgres!(ending_a_session_closes_its_sockets);

/// Expiry ends a socket too: a login's socket at the session's end, and a guest's socket at
/// the expiry its token gets when the account is claimed under it.
#[tokio::test]
async fn an_expiring_session_closes_its_sockets_at_the_expiry() {
    let ttl = Duration::from_secs(2);
    let app = app_on(Backend::Sqlite, |config| config.accounts.session_ttl = ttl)
        .await
        .expect("sqlite");
    let guest = app.player("mia").await;
    let match_id = match_against_the_bot(&app, &guest.token).await;
    let mut guest_socket = app.connect(&match_id, Some(&guest.token), None).await;
    still_open(&mut guest_socket).await;
    let (status, body) = claim(&app, &guest.token, "mia", PASSWORD).await;
    assert_eq!(status, 200, "{body}");
    let (status, login) = log_in(&app, "mia", PASSWORD).await;
    assert_eq!(status, 201, "{login}");
    let mut login_socket = app.connect(&match_id, Some(&token_of(&login)), None).await;
    still_open(&mut login_socket).await;
    let started = std::time::Instant::now();
    assert_eq!(
        closed_within(&mut guest_socket, ttl + Duration::from_secs(1)).await,
        Some(Some(4401))
    );
    assert_eq!(
        closed_within(&mut login_socket, ttl + Duration::from_secs(1)).await,
        Some(Some(4401))
    );
    assert!(
        started.elapsed() >= ttl - Duration::from_millis(300),
        "closed after {:?}",
        started.elapsed()
    );
    app.stop().await;
}

/// The backstop: a session deleted behind the server's back (an operator's SQL, or a logout
/// on a node whose announcement was lost) closes its sockets at the next recheck.
#[tokio::test]
async fn a_session_deleted_in_sql_closes_its_sockets_at_the_recheck() {
    let app = app_on(Backend::Sqlite, |config| {
        config.accounts.session_recheck = Duration::from_millis(200);
    })
    .await
    .expect("sqlite");
    let player = app.player("noor").await;
    let match_id = match_against_the_bot(&app, &player.token).await;
    let mut socket = app.connect(&match_id, Some(&player.token), None).await;
    still_open(&mut socket).await;
    let crease::store::Store::Sqlite(pool) = app.app().store() else {
        panic!("a SQLite store");
    };
    sqlx::query("DELETE FROM player_session WHERE player_id = $1")
        .bind(&player.player_id)
        .execute(pool)
        .await
        .expect("delete the session");
    assert_eq!(
        closed_within(&mut socket, Duration::from_secs(1)).await,
        Some(Some(4401))
    );
    app.stop().await;
}

/// A database that was migrated before accounts existed: its players' tokens must keep
/// working after the upgrade, since each becomes that guest's session.
async fn tokens_issued_before_sessions_survive_the_upgrade(backend: Backend) {
    let Some(db) = common::TestDb::create(backend).await else {
        return;
    };
    let flavour = match backend {
        Backend::Sqlite => "sqlite",
        Backend::Postgres => "postgres",
    };
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("migrations")
        .join(flavour);
    let mut before_accounts = sqlx::migrate::Migrator::new(dir).await.expect("the migrations");
    before_accounts.migrations = before_accounts
        .migrations
        .iter()
        .filter(|migration| migration.version < 7)
        .cloned()
        .collect::<Vec<_>>()
        .into();
    let token = "an-old-guest-token";
    let insert = "INSERT INTO player (player_id, name, token_hash, created_at) \
         VALUES ('0b7c1d0e-4a4f-4d55-9a61-3c1f1b0b9a01', 'old timer', $1, $2)";
    let hash = crease::fairness::token_hash(token);
    match backend {
        Backend::Sqlite => {
            let options = db
                .url()
                .parse::<sqlx::sqlite::SqliteConnectOptions>()
                .expect("url");
            let pool = sqlx::SqlitePool::connect_with(options.create_if_missing(true))
                .await
                .expect("connect");
            before_accounts.run(&pool).await.expect("migrate to 0006");
            sqlx::query(insert)
                .bind(&hash)
                .bind(chrono::Utc::now())
                .execute(&pool)
                .await
                .expect("insert");
            pool.close().await;
        }
        Backend::Postgres => {
            let pool = sqlx::PgPool::connect(db.url()).await.expect("connect");
            before_accounts.run(&pool).await.expect("migrate to 0006");
            sqlx::query(insert)
                .bind(&hash)
                .bind(chrono::Utc::now())
                .execute(&pool)
                .await
                .expect("insert");
            pool.close().await;
        }
    }
    let config = ServeConfig::for_database(db.url());
    let app = TestApp::launch(db, config, toy_games()).await;
    assert_eq!(
        account_of(&app, token).await.as_deref(),
        Some("0b7c1d0e-4a4f-4d55-9a61-3c1f1b0b9a01"),
        "the old token opens its player after the upgrade"
    );
    let (status, body) = claim(&app, token, "old_timer", PASSWORD).await;
    assert_eq!(status, 200, "and the old guest can claim its account: {body}");
    app.stop().await;
}

common::sqlite_and_postgres!(tokens_issued_before_sessions_survive_the_upgrade);
