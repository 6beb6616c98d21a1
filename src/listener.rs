//! The accept loop in front of the router: a cap on open connections, a deadline for each
//! request head, and the peer address for handlers.
//!
//! `axum::serve` has no header-read timeout, no idle limit and no connection cap, so one
//! client that opens sockets and trickles bytes (slowloris) could hold memory and file
//! descriptors forever. This loop serves each connection with hyper directly, as axum's
//! `serve-with-hyper` example does, with those limits set.

use axum::Router;
use axum::extract::ConnectInfo;
use hyper::body::Incoming;
use hyper_util::rt::{TokioExecutor, TokioIo, TokioTimer};
use hyper_util::server::conn::auto;
use hyper_util::server::graceful::GracefulShutdown;
use std::io;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, ReadBuf};
use tokio::net::{TcpListener, TcpSocket, TcpStream};
use tokio::sync::{OwnedSemaphorePermit, Semaphore, watch};
use tower::ServiceExt;

/// Connection limits of `crease serve`: the HTTP listener's and each WebSocket's.
#[derive(Debug, Clone, PartialEq, Eq, clap::Args)]
pub struct ConnectionConfig {
    /// Open TCP connections (HTTP and WebSocket) at most; past it a new connection gets an
    /// immediate 503 `overloaded` and is closed.
    #[arg(long, env = "CREASE_MAX_CONNECTIONS", default_value_t = 10_000,
          value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    pub max_connections: u32,

    /// Time a connection has to send a complete request head, counted from when the server
    /// starts waiting for it: this also closes keep-alive connections idle for that long.
    #[arg(long, env = "CREASE_HTTP_HEADER_TIMEOUT", default_value = "10s", value_parser = duration)]
    pub http_header_timeout: Duration,

    /// Time a request's body may take to arrive once its head is in: a client that
    /// trickles a body (slow POST) is answered 400 and its connection freed.
    #[arg(long, env = "CREASE_HTTP_BODY_TIMEOUT", default_value = "10s", value_parser = duration)]
    pub http_body_timeout: Duration,

    /// Kernel send buffer of each connection in bytes (SO_SNDBUF; Linux doubles it). Unset,
    /// the kernel sizes it (up to `net.ipv4.tcp_wmem`'s maximum, 4 MiB by default).
    #[arg(long, env = "CREASE_TCP_SEND_BUFFER")]
    pub tcp_send_buffer: Option<u32>,

    /// How often the server pings each WebSocket.
    #[arg(long, env = "CREASE_WS_PING_INTERVAL", default_value = "30s", value_parser = duration)]
    pub ws_ping_interval: Duration,

    /// A WebSocket from which nothing (not even a pong) arrived for this long is closed.
    #[arg(long, env = "CREASE_WS_PONG_DEADLINE", default_value = "60s", value_parser = duration)]
    pub ws_pong_deadline: Duration,

    /// Longest a write to a WebSocket may take before the socket is closed (1013).
    #[arg(long, env = "CREASE_WS_WRITE_TIMEOUT", default_value = "10s", value_parser = duration)]
    pub ws_write_timeout: Duration,

    /// Bytes a WebSocket may hold unsent in user space before it is closed as too slow. A
    /// frame larger than this could never be sent, hence the 256 KiB floor.
    #[arg(long, env = "CREASE_WS_MAX_WRITE_BUFFER", default_value_t = 1024 * 1024,
          value_parser = clap::value_parser!(u32).range(256 * 1024..=1 << 30))]
    pub ws_max_write_buffer: u32,

    /// After the server sends a Close, how long it reads out (and drops) the client's input
    /// while waiting for its Close, so the connection ends without a TCP reset.
    #[arg(long, env = "CREASE_WS_CLOSE_LINGER", default_value = "2s", value_parser = duration)]
    pub ws_close_linger: Duration,
}

/// The longest any of these durations may be: longer is a typo, and far-future deadlines
/// would overflow the clock.
const LONGEST: Duration = Duration::from_secs(24 * 60 * 60);

/// A duration with a unit (`500ms`, `30s`, `2m`), between 1 ms and 24 h.
fn duration(text: &str) -> Result<Duration, String> {
    let duration = humantime::parse_duration(text).map_err(|error| error.to_string())?;
    if duration < Duration::from_millis(1) || duration > LONGEST {
        return Err("must be between 1ms and 24h".into());
    }
    Ok(duration)
}

impl Default for ConnectionConfig {
    fn default() -> Self {
        ConnectionConfig {
            max_connections: 10_000,
            http_header_timeout: Duration::from_secs(10),
            http_body_timeout: Duration::from_secs(10),
            tcp_send_buffer: None,
            ws_ping_interval: Duration::from_secs(30),
            ws_pong_deadline: Duration::from_secs(60),
            ws_write_timeout: Duration::from_secs(10),
            ws_max_write_buffer: 1024 * 1024,
            ws_close_linger: Duration::from_secs(2),
        }
    }
}

impl ConnectionConfig {
    /// Settings that are each valid but make no sense together.
    pub fn validate(&self) -> Result<(), String> {
        if self.ws_pong_deadline <= self.ws_ping_interval {
            return Err(format!(
                "--ws-pong-deadline ({:?}) must be longer than --ws-ping-interval ({:?}), \
                 or every quiet client would be closed before it could answer a ping",
                self.ws_pong_deadline, self.ws_ping_interval
            ));
        }
        Ok(())
    }
}

/// The answer to a connection over the cap. Written by hand: the connection is refused
/// before hyper (or any buffer of ours) is spent on it.
const OVERLOADED: &[u8] = b"HTTP/1.1 503 Service Unavailable\r\n\
content-type: application/json\r\n\
connection: close\r\n\
retry-after: 1\r\n\
content-length: 88\r\n\
\r\n\
{\"error\":{\"code\":\"overloaded\",\"message\":\"the server is at its connection limit; retry\"}}";

/// How long a refused connection may take to receive its 503, and then to be read out.
const REFUSAL_TIME: Duration = Duration::from_secs(1);

/// Binds the listening socket. Accepted connections inherit its send buffer size.
pub fn bind(address: SocketAddr, config: &ConnectionConfig) -> io::Result<TcpListener> {
    let socket = match address {
        SocketAddr::V4(_) => TcpSocket::new_v4()?,
        SocketAddr::V6(_) => TcpSocket::new_v6()?,
    };
    // As `TcpListener::bind` does: a restart may reuse the port at once.
    socket.set_reuseaddr(true)?;
    if let Some(bytes) = config.tcp_send_buffer {
        socket.set_send_buffer_size(bytes)?;
    }
    socket.bind(address)?;
    socket.listen(1024)
}

/// Accepts connections until `stop` turns true, then lets open requests finish (upgraded
/// WebSockets are closed by their own sessions, which watch the same signal).
pub async fn serve(
    listener: TcpListener,
    app: Router,
    config: ConnectionConfig,
    mut stop: watch::Receiver<bool>,
) -> io::Result<()> {
    let slots = Arc::new(Semaphore::new(config.max_connections as usize));
    // The header timer ends once the head is in; a body trickled byte by byte (slow POST)
    // would otherwise hold its connection and handler for ever.
    let app = app.layer(tower_http::timeout::RequestBodyTimeoutLayer::new(
        config.http_body_timeout,
    ));
    let mut http = auto::Builder::new(TokioExecutor::new());
    // HTTP/1.1 only: the header timer below bounds every HTTP/1 connection, while an
    // HTTP/2 connection with no stream open would have no such limit.
    http = http.http1_only();
    http.http1()
        .timer(TokioTimer::new())
        .header_read_timeout(config.http_header_timeout);
    let http = Arc::new(http);
    let graceful = GracefulShutdown::new();
    let stopped = async move {
        let _ = stop.wait_for(|stop| *stop).await;
    };
    tokio::pin!(stopped);
    loop {
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(error) => {
                    // Out of file descriptors and the like: wait a little instead of spinning.
                    tracing::warn!(%error, "accept failed");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            _ = &mut stopped => break,
        };
        // Small frames (an event, an update, an ack) must not wait for Nagle's algorithm.
        if let Err(error) = stream.set_nodelay(true) {
            tracing::warn!(%error, "could not set TCP_NODELAY");
        }
        let Ok(slot) = slots.clone().try_acquire_owned() else {
            tokio::spawn(refuse(stream));
            continue;
        };
        let app = app.clone();
        let service = hyper::service::service_fn(move |mut request: axum::http::Request<Incoming>| {
            request.extensions_mut().insert(ConnectInfo(peer));
            app.clone().oneshot(request)
        });
        let http = http.clone();
        let graceful = graceful.watcher();
        let header_timeout = config.http_header_timeout;
        tokio::spawn(async move {
            if !first_byte_within(&stream, header_timeout).await {
                tracing::debug!(%peer, "connection closed: nothing sent within the header timeout");
                return; // dropping the stream (and its slot) closes it
            }
            // The slot travels with the socket, so an upgraded WebSocket keeps holding it.
            let io = TokioIo::new(Counted::new(stream, slot));
            let connection = http.serve_connection_with_upgrades(io, service).into_owned();
            if let Err(error) = graceful.watch(connection).await {
                tracing::debug!(%peer, error = %error, "connection ended with an error");
            }
        });
    }
    drop(listener);
    graceful.shutdown().await;
    Ok(())
}

/// Whether the peer sends its first byte within `timeout` (it stays unread, for hyper).
///
/// hyper's header timer starts only once hyper reads a request head, but hyper-util's
/// connection builder first waits, with no deadline, for enough bytes to tell HTTP/1 from
/// HTTP/2: a peer that connects and never speaks would hold its connection slot for ever,
/// and enough of them would lock every player out. So the same deadline covers that wait.
async fn first_byte_within(stream: &TcpStream, timeout: Duration) -> bool {
    let mut first = [0u8; 1];
    matches!(
        tokio::time::timeout(timeout, stream.peek(&mut first)).await,
        Ok(Ok(1..))
    )
}

/// Answers a connection over the cap with 503 `overloaded` and closes it. The request (if
/// the client sent it already) is read out first, so the close is a FIN and not a reset
/// that could destroy the answer before the client reads it.
async fn refuse(mut stream: TcpStream) {
    tracing::warn!("connection refused: at the connection limit");
    let answer = async {
        stream.write_all(OVERLOADED).await?;
        stream.shutdown().await?;
        let mut sink = [0u8; 4096];
        while stream.read(&mut sink).await? > 0 {}
        Ok::<_, io::Error>(())
    };
    let _ = tokio::time::timeout(REFUSAL_TIME, answer).await;
}

/// A socket holding one of the connection slots until it is dropped, which also gives
/// hyper's own refusals the API's error body.
///
/// hyper answers a request it cannot parse (over 100 headers, a head over its buffer, a
/// malformed or negative `Content-Length`, a bad header line) itself, before any handler
/// runs, with a status and an empty body, and offers no hook to change that. Every error of
/// this API is documented as `{"error":{"code","message"}}`, so such an answer is rewritten
/// on its way out: a 4xx/5xx head with `content-length: 0` is only ever hyper's (every
/// handler's error carries a JSON body), and it is the last thing written on its connection.
/// Writes are not vectored, so hyper hands each response head over in one buffer.
struct Counted {
    stream: TcpStream,
    _slot: OwnedSemaphorePermit,
    /// A rewritten answer not yet fully written (drained before any other write or flush).
    pending: Vec<u8>,
}

impl Counted {
    fn new(stream: TcpStream, slot: OwnedSemaphorePermit) -> Self {
        Counted {
            stream,
            _slot: slot,
            pending: Vec::new(),
        }
    }

    fn drain_pending(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        while !self.pending.is_empty() {
            let written = std::task::ready!(Pin::new(&mut self.stream).poll_write(cx, &self.pending))?;
            if written == 0 {
                return Poll::Ready(Err(io::ErrorKind::WriteZero.into()));
            }
            self.pending.drain(..written);
        }
        Poll::Ready(Ok(()))
    }
}

/// hyper's body-less refusal in `head`, rewritten with the API's error body; `None` for
/// anything else (every answer of the app's own).
fn with_error_body(head: &[u8]) -> Option<Vec<u8>> {
    let text = std::str::from_utf8(head).ok()?;
    let (head, rest) = text.split_once("\r\n\r\n")?;
    let status: u16 = head.strip_prefix("HTTP/1.1 ")?.get(..3)?.parse().ok()?;
    let mut lines = head.split("\r\n");
    let status_line = lines.next()?;
    let headers: Vec<&str> = lines.collect();
    let empty = headers
        .iter()
        .any(|line| line.eq_ignore_ascii_case("content-length: 0"));
    if status < 400 || !empty || !rest.is_empty() {
        return None;
    }
    let (code, message) = match status {
        431 => (
            "headers_too_large",
            "the request head is over the limit (100 headers, about 400 KiB in all)",
        ),
        414 => ("uri_too_long", "the request's URI is too long"),
        505 => ("bad_request", "only HTTP/1.1 (and 1.0) is served"),
        _ => (
            "bad_request",
            "the request is not valid HTTP/1.1 (its request line, a header or its Content-Length)",
        ),
    };
    let body = serde_json::json!({ "error": { "code": code, "message": message } }).to_string();
    let mut answer = format!("{status_line}\r\ncontent-type: application/json\r\n");
    for line in headers
        .iter()
        .filter(|line| !line.eq_ignore_ascii_case("content-length: 0"))
    {
        answer.push_str(line);
        answer.push_str("\r\n");
    }
    answer.push_str(&format!("content-length: {}\r\n\r\n{body}", body.len()));
    Some(answer.into_bytes())
}

impl AsyncRead for Counted {
    fn poll_read(self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().stream).poll_read(cx, buf)
    }
}

impl AsyncWrite for Counted {
    fn poll_write(self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &[u8]) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        std::task::ready!(this.drain_pending(cx))?;
        let error_head = buf.starts_with(b"HTTP/1.1 4") || buf.starts_with(b"HTTP/1.1 5");
        if error_head && let Some(answer) = with_error_body(buf) {
            this.pending = answer;
            // Taken whole: the rest goes out with the next write, flush or shutdown.
            if let Poll::Ready(Err(error)) = this.drain_pending(cx) {
                return Poll::Ready(Err(error));
            }
            return Poll::Ready(Ok(buf.len()));
        }
        Pin::new(&mut this.stream).poll_write(cx, buf)
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        std::task::ready!(this.drain_pending(cx))?;
        Pin::new(&mut this.stream).poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        std::task::ready!(this.drain_pending(cx))?;
        Pin::new(&mut this.stream).poll_shutdown(cx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct Flags {
        #[command(flatten)]
        connections: ConnectionConfig,
    }

    #[test]
    fn defaults_parse_and_absurd_values_are_refused() {
        let defaults = Flags::try_parse_from(["crease"]).expect("defaults").connections;
        // Every setting, the socket's `--ws-*` ones included: the flags' defaults are the
        // `Default` impl's.
        assert_eq!(defaults, ConnectionConfig::default());
        assert_eq!(
            defaults.max_connections,
            ConnectionConfig::default().max_connections
        );
        assert!(defaults.validate().is_ok());
        for flags in [
            &["crease", "--ws-ping-interval", "0s"][..],
            &["crease", "--ws-write-timeout", "100000000y"],
            &["crease", "--http-header-timeout", "10"],
            &["crease", "--max-connections", "0"],
            &["crease", "--max-connections", "18446744073709551615"],
            &["crease", "--ws-max-write-buffer", "10"],
        ] {
            assert!(Flags::try_parse_from(flags).is_err(), "{flags:?} was accepted");
        }
        let late = Flags::try_parse_from(["crease", "--ws-ping-interval", "90s"]).expect("parses");
        assert!(late.connections.validate().is_err());
    }

    /// The lead's per-IP limits read `ConnectInfo<SocketAddr>`: every request carries it.
    #[tokio::test]
    async fn handlers_can_extract_the_peer_address() {
        let config = ConnectionConfig::default();
        let listener = bind(SocketAddr::from(([127, 0, 0, 1], 0)), &config).expect("bind");
        let address = listener.local_addr().expect("address");
        // A fallback, not a route: tests/server/openapi.rs lists every `.route(` of the sources.
        let app = Router::new()
            .fallback(|ConnectInfo(peer): ConnectInfo<SocketAddr>| async move { peer.to_string() });
        let (stop, stopping) = watch::channel(false);
        let server = tokio::spawn(serve(listener, app, config, stopping));
        let mut stream = TcpStream::connect(address).await.expect("connect");
        stream
            .write_all(b"GET /peer HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
            .await
            .expect("write");
        let mut answer = String::new();
        stream.read_to_string(&mut answer).await.expect("read");
        let client = stream.local_addr().expect("client address").to_string();
        assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
        assert!(answer.ends_with(&client), "{answer} does not end with {client}");
        let _ = stop.send(true);
        server.await.expect("no panic").expect("served");
    }

    #[test]
    fn only_a_body_less_error_head_is_given_the_error_body() {
        let hyper_431 = b"HTTP/1.1 431 Request Header Fields Too Large\r\nconnection: close\r\ncontent-length: 0\r\ndate: Wed, 02 Dec 2026 06:14:44 GMT\r\n\r\n";
        let answer = String::from_utf8(with_error_body(hyper_431).expect("rewritten")).expect("text");
        let (head, body) = answer.split_once("\r\n\r\n").expect("head and body");
        assert!(head.starts_with("HTTP/1.1 431 "), "{head}");
        assert!(
            head.contains("connection: close") && head.contains("date: "),
            "{head}"
        );
        assert!(
            head.contains(&format!("content-length: {}", body.len())),
            "{head}"
        );
        let json: serde_json::Value = serde_json::from_str(body).expect("JSON body");
        assert_eq!(json["error"]["code"], "headers_too_large");
        // The app's own answers pass untouched: a body, a success, a head without a length.
        for untouched in [
            &b"HTTP/1.1 400 Bad Request\r\ncontent-length: 12\r\n\r\n{\"error\":{}}"[..],
            b"HTTP/1.1 204 No Content\r\ncontent-length: 0\r\n\r\n",
            b"HTTP/1.1 404 Not Found\r\ntransfer-encoding: chunked\r\n\r\n",
            b"HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\n",
        ] {
            assert_eq!(
                with_error_body(untouched),
                None,
                "{}",
                String::from_utf8_lossy(untouched)
            );
        }
    }

    #[test]
    fn the_refusal_states_its_body_length_exactly() {
        let text = std::str::from_utf8(OVERLOADED).expect("ascii");
        let (head, body) = text.split_once("\r\n\r\n").expect("head and body");
        assert!(
            head.contains(&format!("content-length: {}", body.len())),
            "{head}"
        );
        let json: serde_json::Value = serde_json::from_str(body).expect("JSON body");
        assert_eq!(json["error"]["code"], "overloaded");
    }
}
