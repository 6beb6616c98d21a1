//! What the server logs. Alone in its own test binary: a thread-local tracing subscriber
//! only sees callsites reliably when no other test registers them first.

mod common;

use common::{Captured, spawn_app, toy_games};
use serde_json::json;

#[tokio::test]
async fn tokens_never_appear_in_the_logs() {
    let captured = Captured::default();
    let writer = captured.clone();
    let subscriber = tracing_subscriber::fmt()
        .with_max_level(tracing::Level::TRACE)
        .with_writer(move || writer.clone())
        .finish();
    let _guard = tracing::subscriber::set_default(subscriber);
    let app = spawn_app(toy_games()).await;
    let (info, home, away) = app.live_match("toy", json!({})).await;
    let mut client = app.connect(&info.match_id, Some(&home.token), None).await;
    client.recv().await;
    let _ = app
        .get(
            &format!("/v1/matches/{}/log?token={}", info.match_id, away.token),
            None,
        )
        .await;
    drop(client);
    app.stop().await;
    let logs = captured.text();
    assert!(logs.contains("/v1/matches"), "the requests were logged at all");
    for token in [&home.token, &away.token] {
        assert!(!logs.contains(token.as_str()), "a token leaked into the logs");
    }
}
