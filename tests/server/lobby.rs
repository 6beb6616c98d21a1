//! The HTTP lobby: guest players, creating/joining/leaving matches, listings, matchmaking,
//! health, and the error shape of every refusal.

use crate::common;

use common::{spawn_app, toy_games};
use serde_json::{Value, json};

fn assert_error(response: &(u16, Value), status: u16, code: &str) {
    assert_eq!(response.0, status, "{}", response.1);
    assert_eq!(response.1["error"]["code"], code, "{}", response.1);
    assert!(
        response.1["error"]["message"]
            .as_str()
            .is_some_and(|m| !m.is_empty())
    );
}

#[tokio::test]
async fn lobby_routes_create_join_list_and_refuse_with_typed_errors() {
    let app = spawn_app(toy_games()).await;
    assert_eq!(app.get("/healthz", None).await.0, 200);
    let ready = app.get("/readyz", None).await;
    assert_eq!((ready.0, ready.1["database"].as_str()), (200, Some("sqlite")));

    assert_error(
        &app.post("/v1/players", None, json!({ "name": "" })).await,
        400,
        "bad_request",
    );
    assert_error(
        &app.post("/v1/players", None, json!({ "nom": "x" })).await,
        400,
        "bad_request",
    );
    let (home, away, third) = (
        app.player("home").await,
        app.player("away").await,
        app.player("third").await,
    );
    assert_ne!(home.token, away.token);

    let create = json!({ "game": "toy", "options": { "rounds": 2 } });
    assert_error(
        &app.post("/v1/matches", None, create.clone()).await,
        401,
        "unauthorized",
    );
    assert_error(
        &app.post("/v1/matches", Some("nope"), create.clone()).await,
        401,
        "unauthorized",
    );
    let unknown = json!({ "game": "chess" });
    assert_error(
        &app.post("/v1/matches", Some(&home.token), unknown).await,
        400,
        "unknown_game",
    );
    let typo = json!({ "game": "toy", "options": { "rouns": 2 } });
    assert_error(
        &app.post("/v1/matches", Some(&home.token), typo).await,
        400,
        "bad_options",
    );
    let invalid = json!({ "game": "toy", "options": { "rounds": 0 } });
    assert_error(
        &app.post("/v1/matches", Some(&home.token), invalid).await,
        400,
        "bad_options",
    );

    let (status, created) = app.post("/v1/matches", Some(&home.token), create).await;
    assert_eq!(status, 201);
    assert_eq!(created["status"], "open");
    let id = created["match_id"].as_str().unwrap_or_default().to_string();
    let open = app.get("/v1/matches?status=open", None).await.1;
    assert!(
        open["matches"]
            .as_array()
            .is_some_and(|list| list.iter().any(|m| m["match_id"] == id.as_str()))
    );
    let unknown_status = app.get("/v1/matches?status=later", None).await;
    assert_error(&unknown_status, 400, "bad_request");
    // The message comes from the status enum itself: it names the word and the statuses.
    let message = unknown_status.1["error"]["message"].as_str().unwrap_or_default();
    assert!(
        message.contains("later") && message.contains("live") && message.contains("finished"),
        "{message}"
    );
    assert_error(
        &app.get("/v1/matches/67e55044-10b1-426f-9247-bb680e5fe0c8", None)
            .await,
        404,
        "not_found",
    );
    assert_error(
        &app.get("/v1/matches/no-such-match", None).await,
        400,
        "bad_request",
    );
    let join = format!("/v1/matches/{id}/join");
    assert_error(
        &app.post(&join, Some(&home.token), json!({})).await,
        409,
        "already_seated",
    );
    let ws_early = app.get(&format!("/v1/matches/{id}/verify"), None).await;
    assert_eq!(ws_early.1["status"], "not_finished");

    let (status, joined) = app.post(&join, Some(&away.token), json!({})).await;
    assert_eq!(status, 200);
    assert_eq!(joined["status"], "live");
    assert_eq!(joined["seats"][1]["name"], "away");
    assert_error(
        &app.post(&join, Some(&third.token), json!({})).await,
        409,
        "match_not_open",
    );
    let live = app.get("/v1/matches?status=live", None).await.1;
    assert!(
        live["matches"]
            .as_array()
            .is_some_and(|list| list.iter().any(|m| m["match_id"] == id.as_str()))
    );

    // Leaving a live match forfeits it.
    let leave = format!("/v1/matches/{id}/leave");
    assert_error(
        &app.post(&leave, Some(&third.token), json!({})).await,
        409,
        "not_seated",
    );
    let (status, left) = app.post(&leave, Some(&away.token), json!({})).await;
    assert_eq!(status, 200, "{left}");
    assert_eq!(left["status"], "finished");
    assert_eq!(left["result"]["placings"], json!([1, 2]));
    assert_eq!(
        app.get(&format!("/v1/matches/{id}/verify"), None).await.1["status"],
        "ok"
    );
    app.stop().await;
}

#[tokio::test]
async fn the_last_player_leaving_an_open_match_cancels_it() {
    let app = spawn_app(toy_games()).await;
    let home = app.player("home").await;
    let (_, created) = app
        .post("/v1/matches", Some(&home.token), json!({ "game": "toy" }))
        .await;
    let id = created["match_id"].as_str().unwrap_or_default().to_string();
    let (status, left) = app
        .post(&format!("/v1/matches/{id}/leave"), Some(&home.token), json!({}))
        .await;
    assert_eq!(status, 200);
    assert_eq!(left["status"], "cancelled");
    assert!(left["seats"].as_array().is_some_and(Vec::is_empty));
    app.stop().await;
}

#[tokio::test]
async fn matchmaking_pairs_equal_options_in_arrival_order() {
    let app = spawn_app(toy_games()).await;
    let players = [
        app.player("a").await,
        app.player("b").await,
        app.player("c").await,
        app.player("d").await,
    ];
    let ticket = |index: usize, rounds: u8| {
        let token = players[index].token.clone();
        let app = &app;
        async move {
            let body = json!({ "game": "toy", "options": { "rounds": rounds } });
            app.post("/v1/matchmaking/tickets", Some(&token), body).await
        }
    };
    let (status, first) = ticket(0, 3).await;
    assert_eq!((status, first["status"].as_str()), (201, Some("waiting")));
    // Different options do not pair; the same player does not pair with itself.
    let (_, other_options) = ticket(1, 5).await;
    assert_eq!(other_options["status"], "waiting");
    let (_, same_player) = ticket(0, 3).await;
    assert_eq!(same_player["status"], "waiting");
    // Equal options: paired with the earliest waiting ticket.
    let (_, paired) = ticket(2, 3).await;
    assert_eq!(paired["status"], "matched");
    let match_id = paired["match_id"].as_str().unwrap_or_default().to_string();
    let first_id = first["ticket_id"].as_str().unwrap_or_default();
    let (_, first_now) = app
        .get(
            &format!("/v1/matchmaking/tickets/{first_id}"),
            Some(&players[0].token),
        )
        .await;
    assert_eq!(first_now["match_id"], match_id.as_str());
    let (_, info) = app.get(&format!("/v1/matches/{match_id}"), None).await;
    assert_eq!(info["status"], "live");
    assert_eq!(info["seats"][0]["name"], "a");
    assert_eq!(info["seats"][1]["name"], "c");

    // Someone else's ticket is not visible; the owner can cancel a waiting one.
    let other_id = other_options["ticket_id"].as_str().unwrap_or_default();
    let path = format!("/v1/matchmaking/tickets/{other_id}");
    assert_error(&app.get(&path, Some(&players[3].token)).await, 403, "forbidden");
    let (status, cancelled) = app.delete(&path, Some(&players[1].token)).await;
    assert_eq!((status, cancelled["status"].as_str()), (200, Some("cancelled")));
    let (_, after) = ticket(3, 5).await;
    assert_eq!(after["status"], "waiting", "a cancelled ticket is never paired");
    app.stop().await;
}
