//! Bot levels: a match against server bots may ask for `easy`, `normal` or `hard` bots; the
//! level is stored with each bot seat and its actor plays at it. `hard` exists for
//! every built-in game (CTG, Wicketz and Cricket Champions); a game without one (the toy)
//! refuses it clearly, as every game refuses an unknown level or a level with no bot seat to
//! play it.

use crate::common;

use common::{Client, spawn_app};
use crease::matches::GameRegistry;
use crease::rules::Game;
use crease::rules::champions::Champions;
use crease::rules::ctg::Ctg;
use crease::rules::wicketz::Wicketz;
use serde_json::{Value, json};

/// A match against a `hard` bot of `game`: the level is stored with the bot's seat, and
/// the bot plays the whole match with legal moves (a refused server-bot move would end it
/// as a forfeit).
async fn a_hard_bot_plays_a_whole_match<G: Game>(game: &str, options: Value, seed: u64) {
    let app = spawn_app(GameRegistry::standard()).await;
    let player = app.player("home").await;
    let body = json!({ "game": game, "options": options, "opponent": "bot", "bot_level": "hard" });
    let (status, created) = app.post("/v1/matches", Some(&player.token), body).await;
    assert_eq!(status, 201, "{created}");
    let id = created["match_id"].as_str().expect("match id").to_string();
    let seats = app
        .app()
        .store()
        .seats(&common::match_id(&id))
        .await
        .expect("seats");
    let levels: Vec<(bool, Option<&str>)> = seats
        .iter()
        .map(|seat| (seat.bot, seat.bot_level.as_deref()))
        .collect();
    assert_eq!(levels, [(false, None), (true, Some("hard"))], "{game}");
    let mut client: Client = app.connect(&id, Some(&player.token), None).await;
    client.recv().await;
    let outcome = client.play_to_end::<G>(seed).await;
    assert_eq!(outcome.placings.len(), 2, "{game}: {outcome:?}");
    assert!(
        !outcome.summary.contains("forfeit"),
        "{game}: the hard bot played every move legally: {}",
        outcome.summary
    );
    app.stop().await;
}

#[tokio::test]
async fn a_hard_ctg_bot_is_stored_with_its_seat_and_plays_a_whole_match() {
    a_hard_bot_plays_a_whole_match::<Ctg>("ctg", json!({ "format": "t10" }), 5).await;
}

#[tokio::test]
async fn a_hard_wicketz_bot_is_accepted_and_plays_a_whole_match() {
    a_hard_bot_plays_a_whole_match::<Wicketz>("wicketz", json!({ "overs": 2 }), 7).await;
}

#[tokio::test]
async fn a_hard_champions_bot_is_accepted_and_plays_a_whole_match() {
    a_hard_bot_plays_a_whole_match::<Champions>("champions", json!({ "players": 2 }), 5).await;
}

#[tokio::test]
async fn levels_are_refused_clearly_where_they_cannot_be_played() {
    let app = spawn_app(GameRegistry::standard().register::<common::toy::Toy>()).await;
    let player = app.player("home").await;
    for (body, status, code, words) in [
        (
            json!({ "game": "toy", "opponent": "bot", "bot_level": "hard" }),
            400,
            "bad_options",
            "toy has no hard bot",
        ),
        (
            json!({ "game": "ctg", "opponent": "bot", "bot_level": "expert" }),
            400,
            "bad_request",
            "expert",
        ),
        (
            json!({ "game": "ctg", "bot_level": "easy" }),
            400,
            "bad_request",
            "bot seats",
        ),
    ] {
        let (got, answer) = app.post("/v1/matches", Some(&player.token), body.clone()).await;
        assert_eq!(
            (got, answer["error"]["code"].as_str()),
            (status, Some(code)),
            "{body} -> {answer}"
        );
        let message = answer["error"]["message"].as_str().unwrap_or_default();
        assert!(message.contains(words), "{body}: {message}");
    }
    for level in ["easy", "normal"] {
        let body = json!({ "game": "wicketz", "opponent": "bot", "bot_level": level });
        let (got, answer) = app.post("/v1/matches", Some(&player.token), body).await;
        assert_eq!(got, 201, "every game has an {level} bot: {answer}");
    }
    app.stop().await;
}
