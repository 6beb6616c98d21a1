//! Connection hygiene over real sockets: pings and the pong deadline, the request-head
//! timeout (slowloris and idle keep-alive), the connection cap, and the close codes 1007,
//! 1008 (clean: no reset) and 1009.

use crate::common;

use common::{Backend, TestApp, TestDb, toy_games};
use crease::config::ServeConfig;
use crease::protocol::CreateMatch;
use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::{self, Message};

/// The app on SQLite with some connection settings changed. Its HTTP client opens a fresh
/// connection per request, so no pooled connection holds a slot.
async fn spawn_with(configure: impl FnOnce(&mut ServeConfig)) -> TestApp {
    let db = TestDb::create(Backend::Sqlite).await.expect("SQLite");
    let mut config = ServeConfig::for_database(db.url());
    configure(&mut config);
    let mut app = TestApp::launch(db, config, toy_games()).await;
    app.http = reqwest::Client::builder()
        .pool_max_idle_per_host(0)
        .build()
        .expect("HTTP client");
    app
}

/// A live toy match made in-process (no HTTP connection involved); returns its id.
async fn live_match_in_process(app: &TestApp) -> String {
    let lobby = app.app().lobby();
    let accounts = app.app().accounts();
    let (home, _) = accounts
        .create_player(crease::input::PlayerName::parse("home").expect("name"))
        .await
        .expect("player");
    let (away, _) = accounts
        .create_player(crease::input::PlayerName::parse("away").expect("name"))
        .await
        .expect("player");
    let body: CreateMatch = serde_json::from_value(json!({ "game": "toy" })).expect("body");
    let info = lobby.create_match(&home, body).await.expect("match");
    lobby
        .join(&away, &common::match_id(&info.match_id))
        .await
        .expect("join");
    info.match_id
}

fn ws_url(app: &TestApp, match_id: &str) -> String {
    format!("{}/v1/matches/{match_id}/ws", app.base.replacen("http", "ws", 1))
}

/// Upgrades a plain TCP connection by hand, so the test controls every byte after it.
async fn raw_upgrade(app: &TestApp, match_id: &str) -> TcpStream {
    let mut stream = TcpStream::connect(app.app().address()).await.expect("connect");
    let request = format!(
        "GET /v1/matches/{match_id}/ws HTTP/1.1\r\nHost: localhost\r\nUpgrade: websocket\r\n\
         Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\
         Sec-WebSocket-Version: 13\r\n\r\n"
    );
    stream.write_all(request.as_bytes()).await.expect("handshake");
    // Byte by byte up to the blank line, so no frame byte is consumed with the head.
    let mut head = Vec::new();
    while !head.ends_with(b"\r\n\r\n") {
        head.push(stream.read_u8().await.expect("101 head"));
    }
    let head = String::from_utf8_lossy(&head);
    assert!(head.starts_with("HTTP/1.1 101"), "{head}");
    stream
}

/// One server frame (unmasked): `(opcode, payload)`, or `None` at EOF.
async fn read_frame(stream: &mut TcpStream) -> Option<(u8, Vec<u8>)> {
    let first = stream.read_u8().await.ok()?;
    let length = match stream.read_u8().await.ok()? & 0x7f {
        126 => u64::from(stream.read_u16().await.ok()?),
        127 => stream.read_u64().await.ok()?,
        short => u64::from(short),
    };
    let mut payload = vec![0; length as usize];
    stream.read_exact(&mut payload).await.ok()?;
    Some((first & 0x0f, payload))
}

const PING: u8 = 0x9;
const CLOSE: u8 = 0x8;

fn close_code(payload: &[u8]) -> u16 {
    u16::from_be_bytes([payload[0], payload[1]])
}

/// Reads until the server closes: EOF, or an error (a reset), which this returns.
async fn read_to_end(stream: &mut TcpStream) -> Result<Vec<u8>, std::io::Error> {
    let mut received = Vec::new();
    stream.read_to_end(&mut received).await.map(|_| received)
}

#[tokio::test]
async fn a_client_that_never_answers_pings_is_closed_by_the_deadline_and_one_that_answers_stays() {
    let deadline = Duration::from_millis(600);
    let app = spawn_with(|config| {
        config.connections.ws_ping_interval = Duration::from_millis(100);
        config.connections.ws_pong_deadline = deadline;
        config.connections.ws_close_linger = Duration::from_millis(200);
    })
    .await;
    let match_id = live_match_in_process(&app).await;

    // Silent: reads what the server sends, never writes a byte (so never a Pong).
    let mut silent = raw_upgrade(&app, &match_id).await;
    let start = Instant::now();
    let mut pings = 0;
    let code = tokio::time::timeout(deadline * 4, async {
        loop {
            match read_frame(&mut silent).await.expect("a Close before EOF") {
                (PING, _) => pings += 1,
                (CLOSE, payload) => return close_code(&payload),
                _ => {}
            }
        }
    })
    .await
    .expect("closed within the deadline");
    let elapsed = start.elapsed();
    assert_eq!(code, 1001);
    assert!(pings >= 3, "{pings} pings");
    assert!(
        elapsed >= deadline && elapsed < deadline + Duration::from_millis(400),
        "closed after {elapsed:?}"
    );
    // The server gives the client the linger to answer, then closes TCP.
    let rest = tokio::time::timeout(Duration::from_secs(2), read_to_end(&mut silent))
        .await
        .expect("EOF after the linger");
    assert!(rest.is_ok(), "{rest:?}");

    // Answering: tungstenite replies to each Ping while the client reads.
    let (mut answering, _) = tokio_tungstenite::connect_async(ws_url(&app, &match_id))
        .await
        .expect("connect");
    let stay = tokio::time::Instant::now() + deadline * 3;
    let mut pings = 0;
    while let Ok(frame) = tokio::time::timeout_at(stay, answering.next()).await {
        match frame.expect("open").expect("no error") {
            Message::Ping(_) => pings += 1,
            Message::Close(close) => panic!("an answering client was closed: {close:?}"),
            _ => {}
        }
    }
    assert!(pings >= 10, "{pings} pings in 1.8 s");
    app.stop().await;
}

#[tokio::test]
async fn a_stalled_request_head_and_an_idle_keep_alive_connection_are_closed_while_requests_and_sockets_work()
{
    let timeout = Duration::from_millis(400);
    let app = spawn_with(|config| config.connections.http_header_timeout = timeout).await;
    let address = app.app().address();
    let bound = timeout + Duration::from_secs(1);

    // Slowloris: half a request head, then nothing.
    let mut slow = TcpStream::connect(address).await.expect("connect");
    let start = Instant::now();
    slow.write_all(b"GET /healthz HTTP/1.1\r\nHost: loc")
        .await
        .expect("write");
    let _ = tokio::time::timeout(bound, read_to_end(&mut slow))
        .await
        .expect("a stalled head is disconnected");
    assert!(start.elapsed() >= timeout, "closed after {:?}", start.elapsed());

    // Keep-alive: one request answered, then idle until the server hangs up.
    let mut idle = TcpStream::connect(address).await.expect("connect");
    idle.write_all(b"GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n")
        .await
        .expect("write");
    let start = Instant::now();
    let answer = tokio::time::timeout(bound, read_to_end(&mut idle))
        .await
        .expect("an idle connection is closed")
        .expect("closed with a FIN");
    let answer = String::from_utf8_lossy(&answer);
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    assert!(start.elapsed() >= timeout, "closed after {:?}", start.elapsed());

    // A normal request works, and a WebSocket outlives the header timeout.
    let (status, _) = app.get("/healthz", None).await;
    assert_eq!(status, 200);
    let match_id = live_match_in_process(&app).await;
    let (mut socket, _) = tokio_tungstenite::connect_async(ws_url(&app, &match_id))
        .await
        .expect("connect");
    assert!(matches!(socket.next().await, Some(Ok(Message::Text(_)))));
    let quiet = tokio::time::timeout(timeout * 3, socket.next()).await;
    assert!(quiet.is_err(), "the socket ended: {quiet:?}");
    assert_answers_ping(&mut socket).await;
    app.stop().await;
}

#[tokio::test]
async fn a_trickled_request_body_is_cut_off_at_the_body_timeout() {
    let timeout = Duration::from_millis(400);
    let app = spawn_with(|config| config.connections.http_body_timeout = timeout).await;
    // Slow POST: the whole head at once, then 10 of the 100 body bytes announced, then nothing.
    let mut slow = TcpStream::connect(app.app().address()).await.expect("connect");
    let start = Instant::now();
    slow.write_all(
        b"POST /v1/players HTTP/1.1\r\nHost: localhost\r\ncontent-type: application/json\r\n\
          content-length: 100\r\n\r\n{\"name\": \"",
    )
    .await
    .expect("write");
    let answer = tokio::time::timeout(timeout + Duration::from_secs(2), read_to_end(&mut slow))
        .await
        .expect("a trickled body is cut off")
        .unwrap_or_default();
    assert!(start.elapsed() >= timeout, "answered after {:?}", start.elapsed());
    let answer = String::from_utf8_lossy(&answer);
    assert!(answer.starts_with("HTTP/1.1 400"), "{answer}");
    assert!(answer.contains(r#""code":"bad_request""#), "{answer}");
    // Nothing was created, and the server still answers.
    let (status, _) = app.get("/healthz", None).await;
    assert_eq!(status, 200);
    app.stop().await;
}

/// `GET /healthz` on a fresh connection that asks to be closed after it: the raw answer.
async fn healthz_once(address: std::net::SocketAddr) -> String {
    let mut stream = TcpStream::connect(address).await.expect("connect");
    stream
        .write_all(b"GET /healthz HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
        .await
        .expect("write");
    String::from_utf8_lossy(&read_to_end(&mut stream).await.unwrap_or_default()).into_owned()
}

#[tokio::test]
async fn past_the_connection_cap_a_connection_gets_503_overloaded_and_a_freed_slot_is_reused() {
    let app = spawn_with(|config| config.connections.max_connections = 2).await;
    let address = app.app().address();
    let match_id = live_match_in_process(&app).await;

    // Two slots: an upgraded WebSocket (it keeps its slot) and an idle connection.
    let (mut socket, _) = tokio_tungstenite::connect_async(ws_url(&app, &match_id))
        .await
        .expect("connect");
    assert!(matches!(socket.next().await, Some(Ok(Message::Text(_)))));
    let idle = TcpStream::connect(address).await.expect("connect");

    let answer = tokio::time::timeout(Duration::from_secs(2), healthz_once(address))
        .await
        .expect("refused at once");
    let (head, body) = answer.split_once("\r\n\r\n").expect("a whole response");
    assert!(head.starts_with("HTTP/1.1 503"), "{head}");
    assert!(head.to_ascii_lowercase().contains("connection: close"), "{head}");
    let body: Value = serde_json::from_str(body).expect("JSON body");
    assert_eq!(body["error"]["code"], "overloaded");
    assert!(body["error"]["message"].as_str().is_some_and(|m| !m.is_empty()));

    // Closing the idle connection frees its slot; the server notices the EOF on its own
    // time, so this retries (bounded) until the slot is back.
    drop(idle);
    let give_up = Instant::now() + Duration::from_secs(5);
    loop {
        let answer = healthz_once(address).await;
        if answer.starts_with("HTTP/1.1 200") {
            break;
        }
        assert!(answer.starts_with("HTTP/1.1 503"), "{answer}");
        assert!(Instant::now() < give_up, "the slot was never freed");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    // The WebSocket still holds the other slot and still works.
    assert_answers_ping(&mut socket).await;
    app.stop().await;
}

/// Issue 23: a connection that never sends a byte used to be held for ever (hyper-util's
/// HTTP version sniffing has no deadline), so a few silent peers could hold the whole cap.
#[tokio::test]
async fn silent_connections_are_closed_at_the_header_timeout_and_cannot_hold_the_cap() {
    let timeout = Duration::from_millis(500);
    let app = spawn_with(|config| {
        config.connections.max_connections = 4;
        config.connections.http_header_timeout = timeout;
    })
    .await;
    let address = app.app().address();
    let start = Instant::now();
    let mut silent = Vec::new();
    for _ in 0..4 {
        silent.push(TcpStream::connect(address).await.expect("connect"));
    }
    // Every silent peer is hung up on (a FIN: the read sees the end) soon after the timeout.
    for stream in &mut silent {
        let ended = tokio::time::timeout(timeout + Duration::from_secs(2), read_to_end(stream))
            .await
            .expect("a silent connection is closed");
        assert!(
            ended.is_ok_and(|bytes| bytes.is_empty()),
            "closed without an answer"
        );
    }
    assert!(start.elapsed() >= timeout, "closed after {:?}", start.elapsed());
    // The cap is free again: a real request is served, not refused as overloaded.
    let answer = healthz_once(address).await;
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    // And peers that keep reconnecting silently never lock a real client out for longer
    // than the timeout: a client retrying meanwhile gets through.
    let mut more: Vec<TcpStream> = Vec::new();
    for _ in 0..4 {
        more.push(TcpStream::connect(address).await.expect("connect"));
    }
    let give_up = Instant::now() + timeout + Duration::from_secs(3);
    loop {
        let answer = healthz_once(address).await;
        if answer.starts_with("HTTP/1.1 200") {
            break;
        }
        assert!(answer.starts_with("HTTP/1.1 503"), "{answer}");
        assert!(Instant::now() < give_up, "silent peers held the cap");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    app.stop().await;
}

type WsClient = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<TcpStream>>;

/// The socket is still served: a protocol ping gets its pong.
async fn assert_answers_ping(socket: &mut WsClient) {
    socket
        .send(Message::Text(json!({ "type": "ping" }).to_string().into()))
        .await
        .expect("send");
    assert!(matches!(socket.next().await, Some(Ok(Message::Text(text))) if text.contains("pong")));
}

/// The next Close frame's code, skipping other messages.
async fn close_code_of(socket: &mut WsClient) -> Option<u16> {
    loop {
        let frame = tokio::time::timeout(Duration::from_secs(5), socket.next())
            .await
            .expect("the server answered");
        match frame {
            Some(Ok(Message::Close(frame))) => return frame.map(|frame| u16::from(frame.code)),
            Some(Ok(_)) => continue,
            other => panic!("the socket ended without a Close: {other:?}"),
        }
    }
}

#[tokio::test]
async fn a_frame_over_64_kib_is_closed_with_1009() {
    let app = common::spawn_app(toy_games()).await;
    let (info, home, _) = app.live_match("toy", json!({})).await;
    let url = format!("{}?token={}", ws_url(&app, &info.match_id), home.token);
    let (mut socket, _) = tokio_tungstenite::connect_async(url).await.expect("connect");
    let huge = json!({ "type": "ping", "id": "x".repeat(70 * 1024) });
    socket
        .send(Message::Text(huge.to_string().into()))
        .await
        .expect("send");
    assert_eq!(close_code_of(&mut socket).await, Some(1009));
    app.stop().await;
}

#[tokio::test]
async fn a_text_frame_that_is_not_utf8_is_closed_with_1007() {
    let app = common::spawn_app(toy_games()).await;
    let (info, _, _) = app.live_match("toy", json!({})).await;
    let mut stream = raw_upgrade(&app, &info.match_id).await;
    let (opcode, _) = read_frame(&mut stream).await.expect("the snapshot");
    assert_eq!(opcode, 0x1, "a text frame first");
    // FIN + text, masked, 4 bytes: 0xff 0xfe 0xfd 0xfc is not UTF-8.
    let mask = [0x37, 0xfa, 0x21, 0x3d];
    let payload: Vec<u8> = [0xffu8, 0xfe, 0xfd, 0xfc]
        .iter()
        .zip(mask.iter().cycle())
        .map(|(byte, mask)| byte ^ mask)
        .collect();
    let mut frame = vec![0x81, 0x80 | 4];
    frame.extend_from_slice(&mask);
    frame.extend_from_slice(&payload);
    stream.write_all(&frame).await.expect("write the frame");
    let code = tokio::time::timeout(Duration::from_secs(5), async {
        loop {
            match read_frame(&mut stream).await.expect("a Close before EOF") {
                (CLOSE, payload) => return close_code(&payload),
                _ => continue,
            }
        }
    })
    .await
    .expect("closed");
    assert_eq!(code, 1007);
    app.stop().await;
}

#[tokio::test]
async fn a_flood_is_closed_with_1008_cleanly_without_a_reset() {
    let app = common::spawn_app(toy_games()).await;
    let (info, home, _) = app.live_match("toy", json!({})).await;
    let url = format!("{}?token={}", ws_url(&app, &info.match_id), home.token);
    let (mut socket, _) = tokio_tungstenite::connect_async(url).await.expect("connect");
    // All at once, before reading anything: much of it is still unread when the server
    // decides to close.
    for _ in 0..400 {
        socket
            .feed(Message::Text(json!({ "type": "ping" }).to_string().into()))
            .await
            .expect("send");
    }
    socket.flush().await.expect("flush");
    assert_eq!(close_code_of(&mut socket).await, Some(1008));
    // tungstenite answers the Close; the server then ends TCP with a FIN, not a reset.
    let end = tokio::time::timeout(Duration::from_secs(5), async {
        loop {
            match socket.next().await {
                None => return Ok(()),
                Some(Ok(_)) => continue,
                Some(Err(error)) => return Err(error),
            }
        }
    })
    .await
    .expect("the server closed the connection");
    match end {
        Ok(()) | Err(tungstenite::Error::ConnectionClosed) => {}
        Err(error) => panic!("the close was not clean: {error:?}"),
    }
    app.stop().await;
}
