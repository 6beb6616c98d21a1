//! Ratings, leaderboards and player history through the HTTP API, on SQLite and (with
//! `TEST_DATABASE_URL`) Postgres. Matches are ended by a player leaving, which the server
//! records as a forfeit: it must count as that player's loss.

use crate::common;

use common::{Backend, TestApp, spawn_app_on, toy_games};
use serde_json::{Value, json};

async fn forfeit(app: &TestApp, match_id: &str, token: &str) {
    let (status, body) = app
        .post(&format!("/v1/matches/{match_id}/leave"), Some(token), json!({}))
        .await;
    assert_eq!(status, 200, "{body}");
    for _ in 0..100 {
        let (_, info) = app.get(&format!("/v1/matches/{match_id}"), None).await;
        if info["status"] == "finished" {
            return;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    panic!("the match did not finish after a forfeit");
}

fn rating_of(profile: &Value) -> f64 {
    profile["ratings"][0]["rating"].as_f64().expect("a rating")
}

async fn forfeit_is_a_rated_loss(backend: Backend) {
    let Some(app) = spawn_app_on(backend, toy_games()).await else {
        return;
    };
    let (info, home, away) = app.live_match("toy", json!({})).await;
    forfeit(&app, &info.match_id, &home.token).await;

    let (status, winner) = app.get(&format!("/v1/players/{}", away.player_id), None).await;
    assert_eq!(status, 200, "{winner}");
    let (_, loser) = app.get(&format!("/v1/players/{}", home.player_id), None).await;
    assert!(rating_of(&winner) > 1500.0, "{winner}");
    assert!(rating_of(&loser) < 1500.0, "{loser}");
    assert_eq!(winner["ratings"][0]["wins"], 1);
    assert_eq!(loser["ratings"][0]["wins"], 0);
    assert_eq!(loser["ratings"][0]["matches"], 1);
    let recent = &loser["recent_matches"][0];
    assert_eq!(recent["match_id"], info.match_id.as_str());
    assert_eq!(recent["placing"], 2);
    assert_eq!(recent["rating_before"], 1500.0);
    assert_eq!(recent["rating_after"].as_f64(), Some(rating_of(&loser)));

    let (status, board) = app.get("/v1/leaderboards/toy?limit=1", None).await;
    assert_eq!(status, 200, "{board}");
    assert_eq!(board["format"], "standard");
    assert_eq!(board["entries"][0]["rank"], 1);
    assert_eq!(board["entries"][0]["player_id"], away.player_id.as_str());
    let cursor = board["next_cursor"].as_str().expect("a second page");
    let (_, second) = app
        .get(&format!("/v1/leaderboards/toy?limit=1&cursor={cursor}"), None)
        .await;
    assert_eq!(second["entries"][0]["rank"], 2);
    assert_eq!(second["entries"][0]["player_id"], home.player_id.as_str());
    assert_eq!(second["next_cursor"], Value::Null);
    app.stop().await;
}

common::sqlite_and_postgres!(forfeit_is_a_rated_loss);

#[tokio::test]
async fn bot_matches_and_matches_cancelled_before_start_are_unrated() {
    let app = spawn_app_on(Backend::Sqlite, toy_games()).await.expect("sqlite");
    let solo = app.player("solo").await;
    let body = json!({ "game": "toy", "options": {}, "opponent": "bot" });
    let (status, bot_match) = app.post("/v1/matches", Some(&solo.token), body).await;
    assert_eq!(status, 201, "{bot_match}");
    let bot_match_id = bot_match["match_id"].as_str().expect("id").to_string();
    forfeit(&app, &bot_match_id, &solo.token).await;

    let (_, open) = app
        .post(
            "/v1/matches",
            Some(&solo.token),
            json!({ "game": "toy", "options": {} }),
        )
        .await;
    let open_id = open["match_id"].as_str().expect("id").to_string();
    let (status, left) = app
        .post(
            &format!("/v1/matches/{open_id}/leave"),
            Some(&solo.token),
            json!({}),
        )
        .await;
    assert_eq!(
        (status, left["status"].as_str()),
        (200, Some("cancelled")),
        "{left}"
    );

    let (_, profile) = app.get(&format!("/v1/players/{}", solo.player_id), None).await;
    assert_eq!(profile["ratings"], json!([]), "{profile}");
    // Leaving an open match gives the seat back, so only the bot match is in the history.
    let (_, history) = app
        .get(&format!("/v1/players/{}/matches?limit=5", solo.player_id), None)
        .await;
    assert_eq!(history["matches"].as_array().map(Vec::len), Some(1), "{history}");
    assert_eq!(history["matches"][0]["match_id"], bot_match_id.as_str());
    assert_eq!(history["matches"][0]["placing"], 2);
    assert_eq!(history["matches"][0]["rating_after"], Value::Null);
    assert_eq!(history["next_cursor"], Value::Null);
    let (_, board) = app.get("/v1/leaderboards/toy", None).await;
    assert_eq!(board["entries"], json!([]));
    app.stop().await;
}

#[tokio::test]
async fn unknown_players_games_and_bad_cursors_are_refused() {
    let app = spawn_app_on(Backend::Sqlite, toy_games()).await.expect("sqlite");
    // A well-formed id that names no one is unknown; a malformed one is a bad request.
    let nobody = "67e55044-10b1-426f-9247-bb680e5fe0c8";
    assert_eq!(app.get(&format!("/v1/players/{nobody}"), None).await.0, 404);
    assert_eq!(
        app.get(&format!("/v1/players/{nobody}/matches"), None).await.0,
        404
    );
    assert_eq!(app.get("/v1/players/nobody", None).await.0, 400);
    assert_eq!(app.get("/v1/leaderboards/chess", None).await.0, 400);
    assert_eq!(app.get("/v1/leaderboards/toy?cursor=abc", None).await.0, 400);
    assert_eq!(app.get("/v1/leaderboards/toy?limit=0", None).await.0, 400);
    app.stop().await;
}

/// A three-seat Champions match is rated pairwise from its placings: the forfeiting seat
/// lost to both others, who drew with each other and gain the same.
#[tokio::test]
async fn multi_seat_champions_results_are_rated_pairwise() {
    let games = crease::matches::GameRegistry::new().register::<crease::rules::champions::Champions>();
    let app = spawn_app_on(Backend::Sqlite, games).await.expect("sqlite");
    let players = [
        app.player("a").await,
        app.player("b").await,
        app.player("c").await,
    ];
    let body = json!({ "game": "champions", "options": { "players": 3 } });
    let (status, created) = app.post("/v1/matches", Some(&players[0].token), body).await;
    assert_eq!(status, 201, "{created}");
    let id = created["match_id"].as_str().expect("id").to_string();
    for player in &players[1..] {
        let (status, joined) = app
            .post(&format!("/v1/matches/{id}/join"), Some(&player.token), json!({}))
            .await;
        assert_eq!(status, 200, "{joined}");
    }
    forfeit(&app, &id, &players[1].token).await;
    let mut ratings = Vec::new();
    for player in &players {
        let (_, profile) = app.get(&format!("/v1/players/{}", player.player_id), None).await;
        assert_eq!(profile["ratings"][0]["format"], "3p", "{profile}");
        ratings.push(rating_of(&profile));
    }
    assert!(ratings[1] < 1500.0, "{ratings:?}");
    assert!(
        ratings[0] > 1500.0 && (ratings[0] - ratings[2]).abs() < 1e-9,
        "{ratings:?}"
    );
    let (_, board) = app.get("/v1/leaderboards/champions?format=3p", None).await;
    assert_eq!(board["entries"].as_array().map(Vec::len), Some(3));
    assert_eq!(board["entries"][2]["player_id"], players[1].player_id.as_str());
    app.stop().await;
}

/// The rating update shares the finishing transaction: when writing the rating history
/// fails, the result is not recorded either (the match stays live, nobody is rated).
#[tokio::test]
async fn a_failed_rating_write_leaves_the_match_unfinished() {
    let app = spawn_app_on(Backend::Sqlite, toy_games()).await.expect("sqlite");
    let (info, home, _) = app.live_match("toy", json!({})).await;
    app.app()
        .store()
        .execute_unchecked(
            "CREATE TRIGGER refuse_rating BEFORE INSERT ON match_rating \
             BEGIN SELECT RAISE(ABORT, 'refused for the test'); END",
        )
        .await
        .expect("trigger");
    let path = format!("/v1/matches/{}/leave", info.match_id);
    let (status, _) = app.post(&path, Some(&home.token), json!({})).await;
    assert_ne!(status, 200, "the forfeit could not be recorded");
    let (_, now) = app.get(&format!("/v1/matches/{}", info.match_id), None).await;
    assert_eq!(now["status"], "live", "{now}");
    assert_eq!(now["result"], Value::Null);
    let (_, profile) = app.get(&format!("/v1/players/{}", home.player_id), None).await;
    assert_eq!(profile["ratings"], json!([]), "{profile}");
    app.stop().await;
}
