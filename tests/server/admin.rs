//! Moderation over real HTTP and sockets, on SQLite and (with `TEST_DATABASE_URL`) Postgres:
//! the admin token, bans (sockets, matches, logins), unbans, renames under case-insensitive
//! unique names, ending a live match as abandoned, the player search, the audit log, and
//! `crease admin` against a running server.

use crate::common;

use common::{Backend, TestApp, spawn_app_with, toy_games};
use crease::cli::admin::{Action, send};
use crease::moderation::AdminToken;
use serde_json::{Value, json};
use std::time::Duration;

const ADMIN: &str = "0123456789abcdef-admin";
const PASSWORD: &str = "correct horse battery";

/// The app with one admin token, labelled `ops`.
async fn app_on(backend: Backend) -> Option<TestApp> {
    spawn_app_with(backend, toy_games(), |config| {
        config.admin.admin_tokens = vec![AdminToken::parse(&format!("ops={ADMIN}")).expect("a token")];
    })
    .await
}

async fn admin_get(app: &TestApp, path: &str) -> (u16, Value) {
    app.get(path, Some(ADMIN)).await
}

async fn admin_post(app: &TestApp, path: &str, body: Value) -> (u16, Value) {
    app.post(path, Some(ADMIN), body).await
}

fn assert_error(status: u16, body: &Value, expected_status: u16, code: &str) {
    assert_eq!(status, expected_status, "{body}");
    assert_eq!(body["error"]["code"], code, "{body}");
}

/// The audit log, newest first.
async fn audit(app: &TestApp) -> Vec<Value> {
    let (status, body) = admin_get(app, "/v1/admin/audit").await;
    assert_eq!(status, 200, "{body}");
    body["entries"].as_array().expect("entries").clone()
}

/// The close code a socket ends with within `limit`, skipping what it is sent before.
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

#[tokio::test]
async fn without_an_admin_token_the_admin_api_is_disabled() {
    let app = spawn_app_with(Backend::Sqlite, toy_games(), |_| {})
        .await
        .expect("sqlite");
    let player = app.player("eve").await;
    for token in [None, Some(player.token.as_str()), Some(ADMIN)] {
        let (status, body) = app.get("/v1/admin/players", token).await;
        assert_error(status, &body, 403, "admin_disabled");
        let message = body["error"]["message"].as_str().expect("a message");
        assert!(
            message.contains("--admin-token"),
            "says how to enable it: {message}"
        );
        let path = format!("/v1/admin/players/{}/ban", player.player_id);
        let (status, body) = app.post(&path, token, json!({ "reason": "spam" })).await;
        assert_error(status, &body, 403, "admin_disabled");
    }
    let (status, body) = app.get("/v1/account", Some(&player.token)).await;
    assert_eq!(status, 200, "nothing was banned: {body}");
    app.stop().await;
}

#[tokio::test]
async fn a_wrong_or_missing_admin_token_is_401_before_anything_else() {
    let app = app_on(Backend::Sqlite).await.expect("sqlite");
    let player = app.player("mallory").await;
    for token in [None, Some(player.token.as_str()), Some("0123456789abcdef-admiN")] {
        let (status, body) = app.get("/v1/admin/audit", token).await;
        assert_error(status, &body, 401, "unauthorized");
        // Checked before the malformed id and the missing body.
        let (status, body) = app
            .post("/v1/admin/players/not-an-id/ban", token, json!({}))
            .await;
        assert_error(status, &body, 401, "unauthorized");
    }
    let (status, body) = admin_post(&app, "/v1/admin/players/not-an-id/ban", json!({})).await;
    assert_error(status, &body, 400, "bad_request");
    assert!(audit(&app).await.is_empty(), "refusals are not actions");
    app.stop().await;
}

/// A ban closes the player's socket (4401), forfeits its live match, refuses its token and
/// its password; the unban gives both back.
async fn a_ban_ends_sockets_matches_and_logins_until_unbanned(backend: Backend) {
    let Some(app) = app_on(backend).await else {
        return;
    };
    let (info, home, away) = app.live_match("toy", json!({ "rounds": 50 })).await;
    let match_id = info.match_id.clone();
    let (status, body) = app
        .post(
            "/v1/account/claim",
            Some(&home.token),
            json!({ "username": "homer", "password": PASSWORD }),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let mut socket = app.connect(&match_id, Some(&home.token), None).await;
    let mut opponent = app.connect(&match_id, Some(&away.token), None).await;
    socket.recv().await;
    opponent.recv().await;

    let path = format!("/v1/admin/players/{}/ban", home.player_id);
    let (status, banned) = admin_post(&app, &path, json!({ "reason": "  abusive chat " })).await;
    assert_eq!(status, 200, "{banned}");
    assert_eq!(banned["player"]["ban_reason"], "abusive chat");
    assert!(banned["player"]["banned_at"].is_string(), "{banned}");
    assert_eq!(banned["sessions_closed"], 1, "{banned}");
    assert_eq!(banned["matches_left"], json!([match_id]));

    assert_eq!(
        closed_within(&mut socket, Duration::from_secs(2)).await,
        Some(Some(4401)),
        "the banned player's socket closes with 4401"
    );
    let (status, ended) = app.get(&format!("/v1/matches/{match_id}"), None).await;
    assert_eq!(status, 200, "{ended}");
    assert_eq!(ended["status"], "finished", "{ended}");
    assert_eq!(
        ended["result"]["placings"],
        json!([2, 1]),
        "home forfeited: {ended}"
    );
    let (_, log) = app.get(&format!("/v1/matches/{match_id}/log"), None).await;
    let last = log["entries"]
        .as_array()
        .and_then(|entries| entries.last())
        .cloned();
    let last = last.expect("a log");
    assert_eq!(last["kind"], "forfeit", "{last}");
    assert_eq!(last["payload"]["seat"], 0, "{last}");
    assert_eq!(last["payload"]["reason"], "banned by an operator", "{last}");
    assert_eq!(
        closed_within(&mut opponent, Duration::from_secs(5)).await,
        Some(Some(1000)),
        "the opponent's socket ends with the match"
    );

    let (status, body) = app.get("/v1/account", Some(&home.token)).await;
    assert_error(status, &body, 401, "unauthorized");
    // Every node's session recheck, the backstop for a lost announcement, drops it too.
    let hash = crease::fairness::token_hash(&home.token);
    let existing = app
        .app()
        .store()
        .existing_sessions(std::slice::from_ref(&hash))
        .await;
    assert!(existing.expect("the recheck's query").is_empty());
    let create = json!({ "game": "toy", "opponent": "bot" });
    let (status, body) = app.post("/v1/matches", Some(&home.token), create.clone()).await;
    assert_error(status, &body, 401, "unauthorized");
    let (status, _) = app
        .get(&format!("/v1/matches/{match_id}/ws"), Some(&home.token))
        .await;
    assert_eq!(status, 401, "no new socket either");
    let login = json!({ "username": "homer", "password": PASSWORD });
    let (status, body) = app.post("/v1/sessions", None, login.clone()).await;
    assert_error(status, &body, 403, "banned");
    let wrong = json!({ "username": "homer", "password": "not the password" });
    let (status, body) = app.post("/v1/sessions", None, wrong).await;
    assert_error(status, &body, 401, "invalid_credentials");
    let (status, body) = app.get("/v1/account", Some(&away.token)).await;
    assert_eq!(status, 200, "the opponent is untouched: {body}");

    let path = format!("/v1/admin/players/{}/unban", home.player_id);
    let (status, unbanned) = admin_post(&app, &path, json!({})).await;
    assert_eq!(status, 200, "{unbanned}");
    assert!(unbanned["banned_at"].is_null(), "{unbanned}");
    let (status, body) = app.post("/v1/sessions", None, login).await;
    assert_eq!(status, 201, "logging in works again: {body}");
    let (status, body) = app.get("/v1/account", Some(&home.token)).await;
    assert_eq!(status, 200, "the old token opens the account again: {body}");
    let (status, body) = app.post("/v1/matches", Some(&home.token), create).await;
    assert_eq!(status, 201, "{body}");

    let entries = audit(&app).await;
    let actions: Vec<&str> = entries.iter().filter_map(|e| e["action"].as_str()).collect();
    assert_eq!(actions, ["unban", "ban"], "newest first");
    for entry in &entries {
        assert_eq!(entry["actor"], "ops", "{entry}");
        assert_eq!(entry["target"], home.player_id, "{entry}");
    }
    assert_eq!(entries[1]["details"]["reason"], "abusive chat");
    app.stop().await;
}

common::sqlite_and_postgres!(a_ban_ends_sockets_matches_and_logins_until_unbanned);

/// Display names are unique case-insensitively: a guest's colliding name gets a suffix, a
/// rename to a taken name is refused, and a rename shows in the profile.
async fn names_are_unique_whatever_their_case(backend: Backend) {
    let Some(app) = app_on(backend).await else {
        return;
    };
    let started = chrono::Utc::now();
    let ana = app.player("Ana").await;
    assert_eq!(ana.name, "Ana");
    assert_eq!(app.player("ana").await.name, "ana #2");
    assert_eq!(app.player("ANA").await.name, "ANA #3");
    let bob = app.player("Bob").await;
    let (status, body) = app
        .post(
            "/v1/account/claim",
            Some(&bob.token),
            json!({ "username": "bob", "password": PASSWORD }),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(
        app.player("BOB").await.name,
        "BOB #2",
        "a claimed name is held too"
    );
    assert_eq!(
        app.player("Anabel").await.name,
        "Anabel",
        "a name that starts another is free"
    );
    let long = "x".repeat(40);
    let mut given = std::collections::BTreeSet::new();
    for _ in 0..12 {
        let name = app.player(&long).await.name;
        assert!(name.chars().count() <= 40, "{name}");
        given.insert(name);
    }
    assert_eq!(given.len(), 12, "twelve players, twelve names: {given:?}");
    assert!(given.contains(&format!("{} #12", "x".repeat(36))), "{given:?}");

    let rename = format!("/v1/admin/players/{}/rename", bob.player_id);
    let (status, body) = admin_post(&app, &rename, json!({ "name": "aNa" })).await;
    assert_error(status, &body, 409, "name_taken");
    let (status, body) = admin_post(&app, &rename, json!({ "name": "Ana #2" })).await;
    assert_error(status, &body, 409, "name_taken");
    let (status, body) = admin_post(&app, &rename, json!({ "name": "  Robert  " })).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["name"], "Robert");
    assert_eq!(body["username"], "bob");
    let (status, profile) = app.get(&format!("/v1/players/{}", bob.player_id), None).await;
    assert_eq!(status, 200, "{profile}");
    assert_eq!(profile["name"], "Robert", "the profile shows the new name");
    let (status, account) = app.get("/v1/account", Some(&bob.token)).await;
    assert_eq!(status, 200, "{account}");
    assert_eq!(account["name"], "Robert");
    let (status, body) = admin_post(&app, &rename, json!({ "name": "ROBERT" })).await;
    assert_eq!(
        status, 200,
        "a player may change the case of its own name: {body}"
    );
    assert_eq!(app.player("Bob").await.name, "Bob", "the old name is free again");

    let unknown = format!("/v1/admin/players/{}/rename", uuid::Uuid::new_v4());
    let (status, body) = admin_post(&app, &unknown, json!({ "name": "Nobody" })).await;
    assert_error(status, &body, 404, "not_found");
    let (status, body) = admin_post(&app, &rename, json!({ "name": "   " })).await;
    assert_error(status, &body, 400, "bad_request");

    let entries = audit(&app).await;
    assert_eq!(entries.len(), 2, "two renames happened: {entries:?}");
    let newest = &entries[0];
    assert_eq!(newest["action"], "rename");
    assert_eq!(newest["actor"], "ops");
    assert_eq!(newest["target"], bob.player_id);
    assert_eq!(newest["details"], json!({ "from": "Robert", "to": "ROBERT" }));
    let at: chrono::DateTime<chrono::Utc> = serde_json::from_value(newest["at"].clone()).expect("a time");
    assert!(at >= started && at <= chrono::Utc::now(), "{at}");
    assert_eq!(entries[1]["details"], json!({ "from": "Bob", "to": "Robert" }));
    app.stop().await;
}

common::sqlite_and_postgres!(names_are_unique_whatever_their_case);

/// An operator ends a live match: the log's last entry says so, nobody wins, no rating
/// moves, and the log still verifies (over HTTP and as `crease verify` reads it).
async fn ending_a_match_abandons_it_unrated_and_verifiable(backend: Backend) {
    let Some(app) = app_on(backend).await else {
        return;
    };
    let (info, home, away) = app.live_match("toy", json!({ "rounds": 50 })).await;
    let match_id = info.match_id.clone();
    let mut socket = app.connect(&match_id, Some(&home.token), None).await;
    let mut other = app.connect(&match_id, Some(&away.token), None).await;
    socket.recv().await;
    other.recv().await;
    // Some play first, so the log that must still verify holds commands and their rolls.
    common::Client::play_toy_rounds(&mut socket, &mut other, 2, 1).await;

    let path = format!("/v1/admin/matches/{match_id}/end");
    let (status, ended) = admin_post(&app, &path, json!({ "reason": "stuck client" })).await;
    assert_eq!(status, 200, "{ended}");
    assert_eq!(ended["status"], "finished", "{ended}");
    assert_eq!(ended["result"]["placings"], json!([1, 1]), "{ended}");
    assert!(ended["seed"].is_string(), "the seed is revealed: {ended}");
    assert_eq!(
        closed_within(&mut socket, Duration::from_secs(5)).await,
        Some(Some(1000)),
        "the players' sockets end with the match"
    );

    let (_, log) = app.get(&format!("/v1/matches/{match_id}/log"), None).await;
    let last = log["entries"]
        .as_array()
        .and_then(|entries| entries.last())
        .cloned();
    let last = last.expect("a log");
    assert_eq!(last["kind"], "abandon", "{last}");
    assert_eq!(last["payload"], json!({ "reason": "stuck client", "by": "ops" }));
    let (status, verified) = app.get(&format!("/v1/matches/{match_id}/verify"), None).await;
    assert_eq!(status, 200, "{verified}");
    assert_eq!(verified["status"], "ok", "{verified}");
    assert_eq!(verified["commands"], 4, "{verified}");
    let report = crease::cli::verify::verify(app.db.url(), &common::match_id(&match_id), &app.games)
        .await
        .expect("crease verify reads the database");
    assert!(
        matches!(report, crease::fairness::VerifyReport::Ok { .. }),
        "{report:?}"
    );
    for player in [&home, &away] {
        let (status, profile) = app.get(&format!("/v1/players/{}", player.player_id), None).await;
        assert_eq!(status, 200, "{profile}");
        assert_eq!(profile["ratings"], json!([]), "no rating moved: {profile}");
    }

    let (status, body) = admin_post(&app, &path, json!({ "reason": "again" })).await;
    assert_error(status, &body, 409, "match_not_live");
    let unknown = format!("/v1/admin/matches/{}/end", uuid::Uuid::new_v4());
    let (status, body) = admin_post(&app, &unknown, json!({ "reason": "x" })).await;
    assert_error(status, &body, 404, "not_found");

    // The same match played to a forfeit instead is rated: the abandonment is what is not.
    let (rated, _, away_player) = app.live_match("toy", json!({ "rounds": 50 })).await;
    let leave = format!("/v1/matches/{}/leave", rated.match_id);
    let (status, body) = app.post(&leave, Some(&away_player.token), json!({})).await;
    assert_eq!(status, 200, "{body}");
    let (_, profile) = app
        .get(&format!("/v1/players/{}", away_player.player_id), None)
        .await;
    assert_eq!(profile["ratings"].as_array().map(Vec::len), Some(1), "{profile}");

    let entries = audit(&app).await;
    assert_eq!(entries.len(), 1, "the refusals were not recorded: {entries:?}");
    assert_eq!(entries[0]["action"], "end_match");
    assert_eq!(entries[0]["target"], match_id);
    assert_eq!(entries[0]["actor"], "ops");
    assert_eq!(entries[0]["details"]["reason"], "stuck client");
    app.stop().await;
}

common::sqlite_and_postgres!(ending_a_match_abandons_it_unrated_and_verifiable);

/// The search finds names case-insensitively, by name, page by page; the audit log pages
/// newest first.
async fn players_are_searched_by_name_and_paged(backend: Backend) {
    let Some(app) = app_on(backend).await else {
        return;
    };
    for name in ["Zed", "zedd", "Other", "mid_zed"] {
        app.player(name).await;
    }
    let (status, page) = admin_get(&app, "/v1/admin/players?name=ZED&limit=2").await;
    assert_eq!(status, 200, "{page}");
    let names: Vec<&str> = page["players"]
        .as_array()
        .expect("players")
        .iter()
        .filter_map(|player| player["name"].as_str())
        .collect();
    assert_eq!(names, ["mid_zed", "Zed"]);
    let cursor = page["next_cursor"].as_str().expect("a next page");
    let (status, next) = admin_get(
        &app,
        &format!("/v1/admin/players?name=zed&limit=2&cursor={cursor}"),
    )
    .await;
    assert_eq!(status, 200, "{next}");
    assert_eq!(next["players"][0]["name"], "zedd");
    assert!(next["next_cursor"].is_null(), "{next}");
    let (_, wild) = admin_get(&app, "/v1/admin/players?name=%25").await;
    assert_eq!(wild["players"], json!([]), "% is a character, not a wildcard");
    let (_, all) = admin_get(&app, "/v1/admin/players").await;
    assert_eq!(all["players"].as_array().map(Vec::len), Some(4));
    let (status, body) = admin_get(&app, "/v1/admin/players?limit=0").await;
    assert_error(status, &body, 400, "bad_request");

    let zed = all["players"]
        .as_array()
        .and_then(|players| players.iter().find(|player| player["name"] == "Zed"))
        .and_then(|player| player["player_id"].as_str())
        .expect("Zed")
        .to_string();
    for round in 0..3 {
        let path = format!("/v1/admin/players/{zed}/ban");
        let (status, body) = admin_post(&app, &path, json!({ "reason": format!("round {round}") })).await;
        assert_eq!(status, 200, "{body}");
    }
    let (_, first) = admin_get(&app, "/v1/admin/audit?limit=2").await;
    assert_eq!(first["entries"][0]["details"]["reason"], "round 2");
    assert_eq!(first["entries"][1]["details"]["reason"], "round 1");
    let cursor = first["next_cursor"].as_str().expect("older entries");
    let (_, older) = admin_get(&app, &format!("/v1/admin/audit?limit=2&cursor={cursor}")).await;
    assert_eq!(older["entries"][0]["details"]["reason"], "round 0");
    assert!(older["next_cursor"].is_null(), "{older}");
    app.stop().await;
}

common::sqlite_and_postgres!(players_are_searched_by_name_and_paged);

/// `crease admin` drives the same API: its answers are the server's, its refusals errors.
#[tokio::test]
async fn the_admin_command_calls_the_running_server() {
    let app = app_on(Backend::Sqlite).await.expect("sqlite");
    let player = app.player("Quinn").await;
    let setting = format!("ops={ADMIN}");
    let found = send(
        &app.base,
        &setting,
        Action::Players {
            name: Some("quinn".into()),
            limit: 10,
            cursor: None,
        },
    )
    .await
    .expect("players");
    assert_eq!(found["players"][0]["player_id"], player.player_id);
    let renamed = send(
        &app.base,
        ADMIN,
        Action::Rename {
            player_id: player.player_id.clone(),
            name: "Quincy".into(),
        },
    )
    .await
    .expect("rename");
    assert_eq!(renamed["name"], "Quincy");
    let refused = send(
        &app.base,
        "wrong-token-0123456789",
        Action::Unban {
            player_id: player.player_id.clone(),
        },
    )
    .await
    .expect_err("a wrong token");
    assert!(refused.to_string().contains("unauthorized"), "{refused}");
    let malformed = send(
        &app.base,
        ADMIN,
        Action::EndMatch {
            match_id: "not-an-id".into(),
            reason: "x".into(),
        },
    )
    .await
    .expect_err("a malformed id");
    assert!(malformed.to_string().contains("UUID"), "{malformed}");
    let log = send(
        &app.base,
        ADMIN,
        Action::Audit {
            limit: 5,
            cursor: None,
        },
    )
    .await
    .expect("audit");
    assert_eq!(log["entries"][0]["action"], "rename");
    app.stop().await;
}

/// Runs the migrations before moderation's (0001 to 0008) on `db`, then writes what an older
/// server would have: two players whose names differ only in case, and a logged match.
async fn an_older_database(db: &common::TestDb, backend: Backend) {
    let dir = tempfile::tempdir().expect("temp dir");
    let source = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("migrations")
        .join(backend.name());
    for entry in std::fs::read_dir(source).expect("migrations") {
        let path = entry.expect("an entry").path();
        let name = path
            .file_name()
            .and_then(|name| name.to_str())
            .unwrap_or_default()
            .to_string();
        if name.as_str() < "0009" {
            std::fs::copy(&path, dir.path().join(&name)).expect("copy a migration");
        }
    }
    let migrator = sqlx::migrate::Migrator::new(dir.path())
        .await
        .expect("the old migrations");
    let rows = [
        format!(
            "INSERT INTO player (player_id, name, token_hash, created_at) VALUES \
             ('{OLD_ANA}', 'Ana', 'hash-a', '2024-01-01T00:00:00Z'), \
             ('{OLD_ANA_TOO}', 'ana', 'hash-b', '2024-01-02T00:00:00Z')"
        ),
        format!(
            "INSERT INTO \"match\" (match_id, game, options, status, seat_count, turn_clock_ms, \
             disconnect_grace_ms, seed_commitment, seed, created_at) VALUES \
             ('{OLD_MATCH}', 'toy', '{{}}', 'cancelled', 2, 1000, 1000, 'c', 's', '2024-01-01T00:00:00Z')"
        ),
        format!(
            "INSERT INTO match_event (match_id, seq, at, kind, payload) VALUES \
             ('{OLD_MATCH}', 1, '2024-01-01T00:00:01Z', 'event', '{{\"n\": 1}}'), \
             ('{OLD_MATCH}', 2, '2024-01-01T00:00:02Z', 'forfeit', '{{\"seat\": 0, \"reason\": \"left\"}}')"
        ),
    ];
    match backend {
        Backend::Sqlite => {
            let options = std::str::FromStr::from_str(db.url())
                .map(|options: sqlx::sqlite::SqliteConnectOptions| options.create_if_missing(true));
            let pool = sqlx::SqlitePool::connect_with(options.expect("a SQLite URL"))
                .await
                .expect("connect");
            migrator.run(&pool).await.expect("migrate to 0008");
            for sql in &rows {
                sqlx::raw_sql(sqlx::AssertSqlSafe(sql.clone()))
                    .execute(&pool)
                    .await
                    .expect("an old row");
            }
            pool.close().await;
        }
        Backend::Postgres => {
            let pool = sqlx::PgPool::connect(db.url()).await.expect("connect");
            migrator.run(&pool).await.expect("migrate to 0008");
            for sql in &rows {
                sqlx::raw_sql(sqlx::AssertSqlSafe(sql.clone()))
                    .execute(&pool)
                    .await
                    .expect("an old row");
            }
            pool.close().await;
        }
    }
}

const OLD_ANA: &str = "00000000-0000-4000-8000-00000000000a";
const OLD_ANA_TOO: &str = "00000000-0000-4000-8000-00000000000b";
const OLD_MATCH: &str = "00000000-0000-4000-8000-0000000000aa";

/// Moderation's migration on a database that has data: the log keeps every entry and stays
/// append-only (on SQLite its table is rebuilt to accept `abandon`), the views still read
/// it, and the oldest holder of each name keeps it while a later duplicate may be renamed.
async fn the_moderation_migration_keeps_logs_and_the_first_holder_of_a_name(backend: Backend) {
    let Some(db) = common::TestDb::create(backend).await else {
        return;
    };
    an_older_database(&db, backend).await;
    let mut config = crease::config::ServeConfig::for_database(db.url());
    config.admin.admin_tokens = vec![AdminToken::parse(ADMIN).expect("a token")];
    let app = TestApp::launch(db, config, toy_games()).await;
    let store = app.app().store();

    let log = store.log(&common::match_id(OLD_MATCH)).await.expect("the log");
    let kinds: Vec<(i64, String)> = log
        .iter()
        .map(|entry| (entry.seq, format!("{:?}", entry.kind)))
        .collect();
    assert_eq!(kinds, [(1, "Event".to_string()), (2, "Forfeit".to_string())]);
    assert_eq!(log[0].payload, json!({ "n": 1 }));
    let update = format!("UPDATE match_event SET seq = 9 WHERE match_id = '{OLD_MATCH}'");
    assert!(
        store.execute_unchecked(&update).await.is_err(),
        "still append-only"
    );
    let delete = format!("DELETE FROM match_event WHERE match_id = '{OLD_MATCH}'");
    assert!(
        store.execute_unchecked(&delete).await.is_err(),
        "still append-only"
    );
    let insert = |seq: i64, kind: &str| {
        format!(
            "INSERT INTO match_event (match_id, seq, at, kind, payload) VALUES \
             ('{OLD_MATCH}', {seq}, '2024-01-01T00:00:03Z', '{kind}', '{{}}')"
        )
    };
    assert!(store.execute_unchecked(&insert(3, "abandon")).await.is_ok());
    assert!(
        store.execute_unchecked(&insert(4, "bogus")).await.is_err(),
        "the kinds are still checked"
    );
    for view in [
        "match_summary",
        "ctg_ball_by_ball",
        "wicketz_ball_by_ball",
        "ctg_player_career",
    ] {
        let read = store
            .execute_unchecked(&format!("SELECT count(*) FROM {view}"))
            .await;
        assert!(read.is_ok(), "{view}: {read:?}");
    }

    assert_eq!(
        app.player("ANA").await.name,
        "ANA #2",
        "the oldest Ana holds the name"
    );
    let rename = |id: &str| format!("/v1/admin/players/{id}/rename");
    let (status, body) = admin_post(&app, &rename(OLD_ANA_TOO), json!({ "name": "Ana" })).await;
    assert_error(status, &body, 409, "name_taken");
    let (status, body) = admin_post(&app, &rename(OLD_ANA_TOO), json!({ "name": "Anabel" })).await;
    assert_eq!(status, 200, "the later duplicate is renamed: {body}");
    app.stop().await;
}

common::sqlite_and_postgres!(the_moderation_migration_keeps_logs_and_the_first_holder_of_a_name);

/// A crash between an `abandon` entry and the match's result: the restarted server replays
/// the log, finishes the match from the entry, and rates nothing.
async fn an_abandonment_logged_before_a_crash_finishes_unrated_on_restart(backend: Backend) {
    let Some(mut app) = app_on(backend).await else {
        return;
    };
    let (info, home, _) = app.live_match("toy", json!({ "rounds": 50 })).await;
    let match_id = common::match_id(&info.match_id);
    app.app.take().expect("running").shutdown().await;
    // What the actor writes when it abandons, minus the result (as if the node died there).
    let store = crease::store::Store::connect(app.db.url())
        .await
        .expect("the store");
    let next = store.log(&match_id).await.expect("the log").len() as i64 + 1;
    let payload = serde_json::value::to_raw_value(&crease::record::AbandonRecord {
        reason: "stuck".into(),
        by: "ops".into(),
    })
    .expect("json");
    let entry = crease::record::NewEntry {
        seq: next,
        kind: crease::record::EntryKind::Abandon,
        payload,
    };
    store
        .append(&match_id, &[entry], None, chrono::Utc::now(), None)
        .await
        .expect("append");
    store.close().await;

    app.restart().await;
    let path = format!("/v1/matches/{}", info.match_id);
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    let finished = loop {
        let (status, body) = app.get(&path, None).await;
        assert_eq!(status, 200, "{body}");
        if body["status"] == "finished" {
            break body;
        }
        assert!(tokio::time::Instant::now() < deadline, "still {body}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    assert_eq!(finished["result"]["placings"], json!([1, 1]), "{finished}");
    let (_, profile) = app.get(&format!("/v1/players/{}", home.player_id), None).await;
    assert_eq!(profile["ratings"], json!([]), "no rating moved: {profile}");
    let (_, verified) = app.get(&format!("{path}/verify"), None).await;
    assert_eq!(verified["status"], "ok", "{verified}");
    app.stop().await;
}

common::sqlite_and_postgres!(an_abandonment_logged_before_a_crash_finishes_unrated_on_restart);
