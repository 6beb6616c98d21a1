//! A fourth game through every part of the product, added from its own folder.
//!
//! Hand Cricket (`examples/hand_cricket/`) is not in the crate: its folder holds its rules,
//! extras, browser module and operator views, and its `main.rs` is one registry line. This
//! test registers it the same way and plays it through the lobby, the socket, the log,
//! verify, the scorecard, the ratings, the operator view, the players' careers, `simulate`
//! and the browser module's route, on SQLite and PostgreSQL. The last test checks that nothing outside the
//! folder names the game, so "its own folder and one registry line" stays true.
//! The browser client plays it in `tests/e2e/fourth-game.test.mjs`.

#[path = "../../examples/hand_cricket/game/mod.rs"]
mod game;

use crate::common::{self, Backend, TestDb};
use crease::cli::simulate::registered;
use crease::matches::GameRegistry;
use crease::rules::{BotLevel, Game};
use game::HandCricket;
use serde_json::{Value, json};
use std::path::Path;

fn games() -> GameRegistry {
    GameRegistry::standard().register::<HandCricket>()
}

/// `(balls, runs, wickets)` of the operator view `hand_cricket_balls` for one match.
async fn view_totals(db: &TestDb, backend: Backend, match_id: &str) -> (i64, i64, i64) {
    const SQL: &str = "SELECT count(*), CAST(coalesce(sum(runs), 0) AS BIGINT), \
         CAST(coalesce(sum(out), 0) AS BIGINT) FROM hand_cricket_balls WHERE match_id = $1";
    match backend {
        Backend::Sqlite => {
            let pool = sqlx::SqlitePool::connect(db.url()).await.expect("sqlite");
            sqlx::query_as(SQL)
                .bind(match_id)
                .fetch_one(&pool)
                .await
                .expect("the view")
        }
        Backend::Postgres => {
            let pool = sqlx::PgPool::connect(db.url()).await.expect("postgres");
            sqlx::query_as(SQL)
                .bind(match_id)
                .fetch_one(&pool)
                .await
                .expect("the view")
        }
    }
}

async fn played_through_every_extra(backend: Backend) {
    let Some(app) = common::spawn_app_on(backend, games()).await else {
        return;
    };

    // The catalogue lists it from its extras; its module is served beside the client's own.
    let (status, catalog) = app.get("/v1/games", None).await;
    assert_eq!(status, 200, "{catalog}");
    let listed = catalog["games"]
        .as_array()
        .and_then(|games| games.iter().find(|game| game["id"] == "hand_cricket"))
        .cloned()
        .expect("hand cricket is listed");
    assert_eq!(listed["name"], "Hand Cricket");
    assert_eq!(listed["bot_levels"], json!(["easy", "normal"]));
    assert_eq!(listed["rating_pools"], json!(["2ov_2w"]));
    assert_eq!(listed["default_options"], json!({ "overs": 2, "wickets": 2 }));
    let module = app
        .http
        .get(format!(
            "{}{}",
            app.base,
            listed["client_module"].as_str().expect("a url")
        ))
        .send()
        .await
        .expect("the module");
    assert_eq!(module.status(), 200);
    assert!(
        module.headers()["content-type"]
            .to_str()
            .is_ok_and(|kind| kind.starts_with("text/javascript"))
    );
    let source = module.text().await.expect("text");
    assert!(source.contains("export default"), "an ES module: {source}");
    // The client's own game modules are still served from the same folder.
    let (status, _) = app.get("/js/games/ctg.js", None).await;
    assert_ne!(status, 404);

    // Lobby and socket: two humans play it to the end with the game's own random bot.
    let options = json!({ "overs": 1, "wickets": 2 });
    let (info, home, away) = app.live_match("hand_cricket", options).await;
    let id = info.match_id.clone();
    let mut first = app.connect(&id, Some(&home.token), Some(0)).await;
    let mut second = app.connect(&id, Some(&away.token), Some(0)).await;
    let (first_result, second_result) = tokio::join!(
        first.play_to_end::<HandCricket>(1),
        second.play_to_end::<HandCricket>(2)
    );
    assert_eq!(first_result, second_result);

    // The sealed choice: a seat never received the other's fingers before the reveal.
    for (client, me) in [(&first, 0), (&second, 1)] {
        for (_, event) in client.events() {
            if event["type"] == "shown" && event["seat"] != me {
                assert_eq!(
                    event.get("fingers").cloned().unwrap_or(Value::Null),
                    Value::Null,
                    "{event}"
                );
            }
        }
    }

    // The log, verify and the scorecard.
    let (_, log) = app.get(&format!("/v1/matches/{id}/log"), None).await;
    let balls = log["entries"]
        .as_array()
        .expect("entries")
        .iter()
        .filter(|entry| entry["payload"]["type"] == "bowled")
        .count();
    assert!(balls > 0, "{log}");
    let (_, verify) = app.get(&format!("/v1/matches/{id}/verify"), None).await;
    assert_eq!(verify["status"], "ok", "{verify}");
    let (_, scorecard) = app.get(&format!("/v1/matches/{id}/scorecard"), None).await;
    let innings = scorecard["card"]["innings"]
        .as_array()
        .expect("a cricket scorecard");
    assert_eq!(innings.len(), 2, "{scorecard}");
    let view_scores = &scorecard["view"]["scores"];
    let mut card_balls = 0;
    let mut card_runs = 0;
    let mut card_wickets = 0;
    for card in innings {
        let seat = card["batting_seat"].as_u64().expect("seat") as usize;
        assert_eq!(card["total"], view_scores[seat]["runs"], "{scorecard}");
        assert_eq!(card["wickets"], view_scores[seat]["wickets"], "{scorecard}");
        card_balls += card["legal_balls"].as_i64().expect("balls");
        card_runs += card["total"].as_i64().expect("runs");
        card_wickets += card["wickets"].as_i64().expect("wickets");
    }
    assert_eq!(card_balls as usize, balls);

    // Its operator view, created at start from its folder, agrees with the scorecard.
    assert_eq!(
        view_totals(&app.db, backend, &id).await,
        (card_balls, card_runs, card_wickets)
    );

    // Ratings: a match between two humans is rated in the game's own pool.
    let (status, board) = app.get("/v1/leaderboards/hand_cricket?format=1ov_2w", None).await;
    assert_eq!(status, 200, "{board}");
    let rated: Vec<&Value> = board["entries"].as_array().expect("entries").iter().collect();
    assert_eq!(rated.len(), 2, "{board}");
    let (_, profile) = app.get(&format!("/v1/players/{}", home.player_id), None).await;
    assert_eq!(profile["ratings"][0]["format"], "1ov_2w", "{profile}");

    // Careers: each profile reads the game's own career view, and the two players' figures
    // add up to the match's scorecard (one side's runs are the other's runs conceded).
    let mut careers = Vec::new();
    for player in [&home, &away] {
        let (status, profile) = app.get(&format!("/v1/players/{}", player.player_id), None).await;
        assert_eq!(status, 200, "{profile}");
        let career = profile["careers"]
            .as_array()
            .and_then(|careers| careers.iter().find(|career| career["game"] == "hand_cricket"))
            .cloned()
            .unwrap_or_else(|| panic!("a hand cricket career: {profile}"));
        assert_eq!(career["matches"], 1, "{career}");
        assert_eq!(career["wins"], Value::Null, "a figure the view lacks: {career}");
        careers.push(career);
    }
    let total = |field: &str| -> i64 {
        careers
            .iter()
            .map(|career| {
                career[field]
                    .as_i64()
                    .unwrap_or_else(|| panic!("{field}: {career}"))
            })
            .sum()
    };
    assert_eq!(total("runs"), card_runs);
    assert_eq!(total("runs_conceded"), card_runs);
    assert_eq!(total("wickets"), card_wickets);
    assert_eq!(total("dismissals"), card_wickets);
    assert_eq!(total("balls_faced"), card_balls);
    assert_eq!(total("balls_bowled"), card_balls);
    app.stop().await;
}

common::sqlite_and_postgres!(played_through_every_extra);

/// `crease simulate hand_cricket` runs through the registry: results and the game's own
/// figures, repeatably from the seed; a level the game has no bot for is refused.
#[test]
fn simulate_runs_any_registered_game() {
    let registry = games();
    let game = registry.get("hand_cricket").expect("registered");
    let args = |words: &[&str]| {
        use clap::Parser;
        registered::Args::try_parse_from(["hand_cricket"].iter().chain(words)).expect("flags")
    };
    let report =
        registered::simulate(game.as_ref(), &args(&["--matches", "200", "--seed", "9"])).expect("a report");
    assert_eq!(report.matches, 200);
    let firsts: u32 = report.firsts_by_seat.iter().sum();
    assert_eq!(firsts, 200 + report.shared_firsts, "every match has a first");
    assert!(
        report.firsts_by_seat.iter().all(|firsts| *firsts > 40),
        "{report:?}"
    );
    let runs = report.figures["runs_per_innings"];
    // Six fingers against six: a wicket every six balls, 3.5 runs a scoring ball (the bots
    // skew both numbers a little).
    assert!((10.0..=60.0).contains(&runs), "{report:?}");
    assert!(
        (3.0..=12.0).contains(&report.figures["balls_per_wicket"]),
        "{report:?}"
    );
    let again =
        registered::simulate(game.as_ref(), &args(&["--matches", "200", "--seed", "9"])).expect("a report");
    assert_eq!(report, again);
    let hard = registered::simulate(game.as_ref(), &args(&["--level", "hard"]));
    assert!(hard.is_err_and(|error| error.to_string().contains("no hard bot")));
    assert!(!HandCricket::has_bot(BotLevel::Hard));
}

/// Adding the game took its folder and one registry line: nothing the crate serves, builds
/// or migrates names it. (Tests and docs may.)
#[test]
fn nothing_outside_its_folder_names_the_game() {
    fn scan(dir: &Path, found: &mut Vec<String>) {
        for entry in std::fs::read_dir(dir).expect("read dir").flatten() {
            let path = entry.path();
            if path.is_dir() {
                scan(&path, found);
            } else if let Ok(text) = std::fs::read_to_string(&path)
                && text.contains(HandCricket::ID)
            {
                found.push(path.display().to_string());
            }
        }
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut found = Vec::new();
    for dir in ["src", "web", "migrations", "data", "benches", "proto"] {
        scan(&root.join(dir), &mut found);
    }
    assert_eq!(
        found,
        Vec::<String>::new(),
        "files outside examples/hand_cricket name the game"
    );
    let main = std::fs::read_to_string(root.join("examples/hand_cricket/main.rs")).expect("main.rs");
    assert_eq!(main.matches("register::<").count(), 1, "the one registry line");
}
