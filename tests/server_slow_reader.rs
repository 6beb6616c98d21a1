//! A client that never reads while its match is busy is closed within the write timeout,
//! and the connected-sockets gauge drops back. Alone in its binary: the gauge counts every
//! socket of the process, so no other test may open sockets meanwhile.

mod common;

use common::toy::Toy;
use common::{Backend, TestApp, TestDb, toy_games};
use crease::config::ServeConfig;
use serde_json::json;
use std::time::{Duration, Instant};
use tokio::net::TcpSocket;

async fn connected_sockets(app: &TestApp) -> f64 {
    let (status, _) = app.get("/healthz", None).await;
    assert_eq!(status, 200);
    common::metric(&app.http, &app.base, "crease_connected_sockets", &[]).await
}

#[tokio::test]
async fn a_spectator_that_never_reads_a_busy_match_is_closed_within_the_write_timeout() {
    let write_timeout = Duration::from_millis(500);
    let linger = Duration::from_millis(200);
    let db = TestDb::create(Backend::Sqlite).await.expect("SQLite");
    let mut config = ServeConfig::for_database(db.url());
    config.connections.ws_write_timeout = write_timeout;
    config.connections.ws_close_linger = linger;
    // Small kernel buffers on both ends, so the frames back up into the server quickly.
    config.connections.tcp_send_buffer = Some(4096);
    let app = TestApp::launch(db, config, toy_games()).await;
    assert_eq!(connected_sockets(&app).await, 0.0);

    let (info, home, away) = app.live_match("toy", json!({ "rounds": 200 })).await;
    let id = info.match_id.clone();

    // The spectator: a tiny receive window, a handshake, then it never reads again.
    let socket = TcpSocket::new_v4().expect("socket");
    socket.set_recv_buffer_size(4096).expect("SO_RCVBUF");
    let stream = socket.connect(app.app().address()).await.expect("connect");
    let url = format!("ws://{}/v1/matches/{id}/ws", app.app().address());
    let (spectator, _) = tokio_tungstenite::client_async(url, stream)
        .await
        .expect("handshake");

    // The players play all 200 rounds as fast as the server acks: thousands of frames for
    // the spectator, far more than its buffers hold.
    let mut home_client = app.connect(&id, Some(&home.token), None).await;
    let mut away_client = app.connect(&id, Some(&away.token), None).await;
    let (home_result, away_result) = tokio::join!(
        home_client.play_to_end::<Toy>(1),
        away_client.play_to_end::<Toy>(2)
    );
    assert_eq!(home_result, away_result);
    drop((home_client, away_client));
    let played = Instant::now();

    // Every session ends: the players' with the match, the stalled spectator's when its
    // write times out (its 1013 Close is attempted, but it reads nothing).
    let bound = write_timeout + linger + Duration::from_secs(2);
    loop {
        let open = connected_sockets(&app).await;
        if open == 0.0 {
            break;
        }
        assert!(
            played.elapsed() < bound,
            "{open} sockets still open {:?} after the match",
            played.elapsed()
        );
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    eprintln!(
        "the stalled spectator was closed {:?} after the match ended",
        played.elapsed()
    );
    drop(spectator);
    app.stop().await;
}
