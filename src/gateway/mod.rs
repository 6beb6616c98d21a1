//! One WebSocket connection to one match: decode, rate-limit, forward to the actor, fan the
//! actor's batches back out as this viewer may see them.
//!
//! The session is written against a plain `Stream` of [`Inbound`] frames and a `Sink` of
//! [`Outbound`] ones, not against axum's socket, so the protocol logic does not depend on
//! the web framework and can be driven by anything that moves text frames.

mod rate;

pub use rate::TokenBucket;

use crate::accounts::sessions::SessionWatch;
use crate::matches::{CommandError, MatchHandle, Subscription, ViewerBatch};
use crate::protocol::{ClientMessage, ErrorCode, ErrorMessage, Frame, ServerMessage, Snapshot};
use crate::rules::Viewer;
use futures_util::{Sink, SinkExt, Stream, StreamExt};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::broadcast::{
    self,
    error::{RecvError, TryRecvError},
};
use tokio::sync::watch;
use tokio::time::{self, Instant, MissedTickBehavior};

/// A frame from the client, independent of the WebSocket library.
#[derive(Debug, Clone, PartialEq)]
pub enum Inbound {
    Text(String),
    Binary,
    /// A Ping or Pong control frame: no content, but proof that the client is alive (the
    /// library answers Pings by itself).
    Control,
    /// A frame over the size limit: closed with 1009.
    TooBig,
    /// A text frame that is not UTF-8: closed with 1007.
    NotUtf8,
    /// The client closed, or the transport failed.
    Closed,
}

/// A frame to the client. Text is shared, not copied: the match actor serialised it once for
/// every socket of the same viewer.
#[derive(Debug, Clone, PartialEq)]
pub enum Outbound {
    Text(Frame),
    /// A liveness check the client's library answers with a Pong.
    Ping,
    Close {
        code: u16,
        reason: String,
    },
}

/// WebSocket close codes the server uses.
pub mod close {
    pub const NORMAL: u16 = 1000;
    pub const GOING_AWAY: u16 = 1001;
    pub const INVALID_DATA: u16 = 1007;
    pub const POLICY: u16 = 1008;
    pub const TOO_BIG: u16 = 1009;
    pub const TRY_AGAIN: u16 = 1013;
    /// The session of the token the socket was opened with ended (logout, logout
    /// everywhere, expiry): log in again for a new token. An application code, like HTTP 401.
    pub const SESSION_ENDED: u16 = 4401;
}

/// What ends a session from outside it: the server stopping, or the end of the login
/// session whose token opened the socket (spectators without a token have none).
pub struct Stops {
    shutdown: watch::Receiver<bool>,
    session: Option<SessionWatch>,
}

impl Stops {
    pub fn new(shutdown: watch::Receiver<bool>, session: Option<SessionWatch>) -> Self {
        Stops { shutdown, session }
    }

    /// Resolves with how to close when either comes. Cancel-safe (an arm of `select!`).
    async fn wait(&mut self) -> End {
        let Stops { shutdown, session } = self;
        let session_ended = async {
            match session {
                Some(session) => session.ended().await,
                None => std::future::pending().await,
            }
        };
        tokio::select! {
            _ = shutdown.changed() => End::Close(close::GOING_AWAY, "server shutting down"),
            _ = session_ended => {
                crate::telemetry::record_refusal("session_ended");
                End::Close(close::SESSION_ENDED, "session ended: log in again")
            }
        }
    }
}

/// Longest a routed ack waits for the events it acknowledges (they cross NATS separately).
const ROUTED_EVENTS_WAIT: Duration = Duration::from_secs(2);

/// Rejected messages in a row after which a flooding client is disconnected.
const FLOOD_LIMIT: u32 = 50;

/// Time limits of one socket (the `--ws-*` settings).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SocketLimits {
    /// How often the server pings.
    pub ping_interval: Duration,
    /// Silence (no frame at all, pongs included) after which the socket is closed.
    pub pong_deadline: Duration,
    /// Longest one write (a batch and its flush) may take; past it the client is too slow.
    pub write_timeout: Duration,
    /// Bytes the socket may hold unsent (applied by the transport, see `http::matches`).
    pub max_write_buffer: usize,
    /// How long input is read out after the server's Close, waiting for the client's.
    pub close_linger: Duration,
}

impl Default for SocketLimits {
    fn default() -> Self {
        SocketLimits::from(&crate::listener::ConnectionConfig::default())
    }
}

/// The `--ws-*` settings sit with the listener's connection settings (one group of flags);
/// the socket reads them here, so the listener never names the gateway.
impl From<&crate::listener::ConnectionConfig> for SocketLimits {
    fn from(config: &crate::listener::ConnectionConfig) -> Self {
        SocketLimits {
            ping_interval: config.ws_ping_interval,
            pong_deadline: config.ws_pong_deadline,
            write_timeout: config.ws_write_timeout,
            max_write_buffer: config.ws_max_write_buffer as usize,
            close_linger: config.ws_close_linger,
        }
    }
}

/// The reading side of a session, the same whether its match is live or not started yet:
/// transport failures end it, every frame proves the client alive, and text frames pass the
/// per-socket rate limit (too many refusals in a row end the session).
struct Intake {
    liveness: Liveness,
    bucket: TokenBucket,
    refused_in_a_row: u32,
}

/// What one inbound frame asks of the session.
enum Read {
    /// A text frame within the rate: the session handles it.
    Text(String),
    /// Nothing to answer (a Ping or Pong).
    Nothing,
    /// Answer with this error (a binary frame, or a frame over the rate).
    Refuse(ErrorCode, &'static str),
    End(End),
}

impl Intake {
    fn new(limits: &SocketLimits) -> Self {
        Intake {
            liveness: Liveness::new(limits),
            bucket: TokenBucket::per_socket(),
            refused_in_a_row: 0,
        }
    }

    fn read(&mut self, frame: Option<Inbound>) -> Read {
        let frame = match frame {
            None | Some(Inbound::Closed) => return Read::End(End::Gone),
            Some(Inbound::TooBig) => return Read::End(End::Close(close::TOO_BIG, "message over 64 KiB")),
            Some(Inbound::NotUtf8) => {
                return Read::End(End::Close(close::INVALID_DATA, "text frames must be UTF-8"));
            }
            Some(frame) => frame,
        };
        self.liveness.heard();
        let text = match frame {
            Inbound::Text(text) => text,
            Inbound::Binary => return Read::Refuse(ErrorCode::BadMessage, "send JSON text frames"),
            _ => return Read::Nothing,
        };
        if !self.bucket.take() {
            self.refused_in_a_row += 1;
            if self.refused_in_a_row > FLOOD_LIMIT {
                return Read::End(End::Close(close::POLICY, "too many messages"));
            }
            return Read::Refuse(ErrorCode::RateLimited, "slow down");
        }
        self.refused_in_a_row = 0;
        Read::Text(text)
    }
}

/// A socket's liveness: the server pings every `ping_interval`, and a client silent (no frame
/// at all, pongs included) for `pong_deadline` is closed. The silence timer is moved only when
/// it fires (to the deadline of the latest frame), not on every frame, which would touch the
/// timer wheel once per message.
struct Liveness {
    pings: time::Interval,
    silence: std::pin::Pin<Box<time::Sleep>>,
    heard_at: Instant,
    deadline: Duration,
}

/// What the liveness timers ask for.
enum Due {
    Ping,
    Silent,
}

impl Liveness {
    fn new(limits: &SocketLimits) -> Self {
        let mut pings = time::interval_at(Instant::now() + limits.ping_interval, limits.ping_interval);
        pings.set_missed_tick_behavior(MissedTickBehavior::Delay);
        Liveness {
            pings,
            silence: Box::pin(time::sleep(limits.pong_deadline)),
            heard_at: Instant::now(),
            deadline: limits.pong_deadline,
        }
    }

    /// The client sent something: it is alive.
    fn heard(&mut self) {
        self.heard_at = Instant::now();
    }

    /// Resolves when a ping is due or the client has been silent past the deadline. Safe to
    /// drop unfinished (it is one arm of the session's `select!`): both timers keep their
    /// state in `self`.
    async fn due(&mut self) -> Due {
        loop {
            tokio::select! {
                _ = self.pings.tick() => return Due::Ping,
                _ = &mut self.silence => {
                    let due = self.heard_at + self.deadline;
                    if due <= Instant::now() {
                        return Due::Silent;
                    }
                    self.silence.as_mut().reset(due);
                }
            }
        }
    }
}

/// Why the session ends, decided in the loop and carried out after it.
enum End {
    /// The client left (or the transport failed): nothing more to send.
    Gone,
    /// Send this Close, then read out the client's input until it answers.
    Close(u16, &'static str),
}

/// Serves one connection until the client leaves, the match ends, or the server stops.
pub async fn run_session<I, O>(
    inbound: I,
    outbound: O,
    handle: MatchHandle,
    viewer: Viewer,
    subscription: Subscription,
    stops: Stops,
    limits: SocketLimits,
) where
    I: Stream<Item = Inbound> + Unpin,
    O: Sink<Outbound> + Unpin,
{
    let Subscription {
        snapshot,
        backlog,
        feed,
    } = subscription;
    let start = Opening {
        snapshot: Some(snapshot),
        backlog,
        feed,
    };
    serve(inbound, outbound, handle, viewer, start, stops, limits).await
}

/// A subscription as the session sends it: the snapshot is `None` when the client already has
/// one (a socket that waited for the start).
struct Opening {
    snapshot: Option<Snapshot>,
    backlog: Vec<Frame>,
    feed: broadcast::Receiver<Arc<ViewerBatch>>,
}

async fn serve<I, O>(
    mut inbound: I,
    mut outbound: O,
    handle: MatchHandle,
    viewer: Viewer,
    opening: Opening,
    mut stops: Stops,
    limits: SocketLimits,
) where
    I: Stream<Item = Inbound> + Unpin,
    O: Sink<Outbound> + Unpin,
{
    let _open_socket = crate::telemetry::GaugeGuard::new(crate::telemetry::CONNECTED_SOCKETS);
    let seat = match viewer {
        Viewer::Seat(seat) => Some(seat),
        Viewer::Spectator => None,
    };
    if let Some(seat) = seat {
        handle.connection(seat, true).await;
    }
    let Opening {
        snapshot,
        backlog,
        mut feed,
    } = opening;
    let mut session = Session::new(&mut outbound, viewer, limits);
    session.seen = snapshot
        .as_ref()
        .map(|snapshot| snapshot.last_seq)
        .into_iter()
        .chain(crate::protocol::covered_by(&backlog))
        .max()
        .unwrap_or(0);
    let first = snapshot.map(Snapshot::frame);
    let mut open = session.send_frames(first.into_iter().chain(backlog)).await;
    let mut intake = Intake::new(&limits);
    let end = loop {
        if !open {
            break End::Gone;
        }
        tokio::select! {
            frame = inbound.next() => {
                let text = match intake.read(frame) {
                    Read::Text(text) => text,
                    Read::Nothing => continue,
                    Read::Refuse(code, message) => {
                        open = session.error(None, code, message, None).await;
                        continue;
                    }
                    Read::End(end) => break end,
                };
                session.accepted = false;
                open = session.on_text(&text, &handle, &mut feed).await;
                if session.accepted {
                    intake.bucket.refund();
                }
            }
            batch = feed.recv() => {
                open = match batch {
                    Ok(batch) if batch.moved => break End::Close(close::GOING_AWAY, MOVED),
                    Ok(batch) => {
                        session.seen = session.seen.max(batch.last_seq);
                        session.send_frames(batch.frames.iter().cloned()).await
                    }
                    Err(RecvError::Lagged(_)) => break End::Close(close::TRY_AGAIN, BEHIND),
                    Err(RecvError::Closed) => break End::Close(close::NORMAL, "match over"),
                };
            }
            due = intake.liveness.due() => match due {
                Due::Ping => open = session.write(Outbound::Ping).await,
                Due::Silent => break End::Close(close::GOING_AWAY, "no answer to pings"),
            },
            end = stops.wait() => break end,
        }
    };
    let end = session
        .ending
        .take()
        .map_or(end, |(code, reason)| End::Close(code, reason));
    session.finish(end, &mut inbound).await;
    if let Some(seat) = seat {
        handle.connection(seat, false).await;
    }
}

/// How a socket opened before its match started stops waiting for the start.
pub enum Started {
    /// The match went live: its handle and a subscription taken with `resume_from` 0, whose
    /// backlog is the start's events.
    Live(MatchHandle, Box<Subscription>),
    /// No start will come to this socket (the match was cancelled, the player gave up the
    /// seat, or the match started and ended in between): close with this code and reason.
    Close(u16, &'static str),
}

/// A seat's socket opened while its match is `open`: the `open` snapshot, then, while the
/// seats fill, pongs to pings and `match_not_live` to commands; once `started` resolves, the
/// start's events and everything after, as on any socket (the subscription's snapshot is not
/// sent again: the client has one, and the backlog follows it).
#[allow(clippy::too_many_arguments)]
pub async fn run_before_start<I, O, F>(
    mut inbound: I,
    mut outbound: O,
    snapshot: Snapshot,
    viewer: Viewer,
    max_command_bytes: usize,
    started: F,
    mut stops: Stops,
    limits: SocketLimits,
) where
    I: Stream<Item = Inbound> + Unpin,
    O: Sink<Outbound> + Unpin,
    F: std::future::Future<Output = Started>,
{
    let mut session = Session::new(&mut outbound, viewer, limits);
    let mut open = session.send_frames([snapshot.frame()]).await;
    let mut intake = Intake::new(&limits);
    tokio::pin!(started);
    let end = loop {
        if !open {
            break End::Gone;
        }
        tokio::select! {
            live = &mut started => match live {
                Started::Live(handle, subscription) => {
                    let Subscription { backlog, feed, .. } = *subscription;
                    let rest = Opening { snapshot: None, backlog, feed };
                    return serve(inbound, outbound, handle, viewer, rest, stops, limits).await;
                }
                Started::Close(code, reason) => break End::Close(code, reason),
            },
            frame = inbound.next() => {
                let text = match intake.read(frame) {
                    Read::Text(text) => text,
                    Read::Nothing => continue,
                    Read::Refuse(code, message) => {
                        open = session.error(None, code, message, None).await;
                        continue;
                    }
                    Read::End(end) => break end,
                };
                open = match crate::input::client_message(&text, max_command_bytes) {
                    Err(error) => session.send(&ServerMessage::Error(error)).await,
                    Ok(ClientMessage::Ping { id }) => session.send(&ServerMessage::Pong { id }).await,
                    Ok(ClientMessage::Command { id, .. } | ClientMessage::Adjourn { id, .. }) => {
                        // The same precedence as a live match: a spectator is refused as such.
                        let (code, message) = match viewer {
                            Viewer::Spectator => (ErrorCode::NotSeated, "spectators cannot play"),
                            Viewer::Seat(_) => (ErrorCode::MatchNotLive, "the match has not started: wait for its events"),
                        };
                        session.error(Some(id), code, message, None).await
                    }
                };
            }
            due = intake.liveness.due() => match due {
                Due::Ping => open = session.write(Outbound::Ping).await,
                Due::Silent => break End::Close(close::GOING_AWAY, "no answer to pings"),
            },
            end = stops.wait() => break end,
        }
    };
    session.finish(end, &mut inbound).await;
}

const BEHIND: &str = "too far behind: reconnect with resume_from";
/// The match is now run by another node of the cluster (or this node is draining).
const MOVED: &str = "match moved: reconnect with resume_from";

/// A connection to a match that is already over: its final snapshot, then a clean close.
pub async fn send_final<I, O>(
    mut inbound: I,
    mut outbound: O,
    snapshot: Snapshot,
    seed: String,
    limits: SocketLimits,
) where
    I: Stream<Item = Inbound> + Unpin,
    O: Sink<Outbound> + Unpin,
{
    let result = snapshot.result.clone();
    let mut session = Session::new(&mut outbound, Viewer::Spectator, limits);
    let mut open = session.send_frames([snapshot.frame()]).await;
    if let Some(result) = result
        && open
    {
        open = session.send(&ServerMessage::Finished { result, seed }).await;
    }
    let end = if open {
        End::Close(close::NORMAL, "match over")
    } else {
        End::Gone
    };
    session.finish(end, &mut inbound).await;
}

struct Session<'a, O> {
    outbound: &'a mut O,
    viewer: Viewer,
    limits: SocketLimits,
    /// The last message was a command the match accepted.
    accepted: bool,
    /// A write failed or outlived the write timeout: the client is gone or reads too slowly.
    stalled: bool,
    /// A Close decided while handling a message.
    ending: Option<(u16, &'static str)>,
    /// The last seq this socket has sent the client (snapshot, backlog, batches, acks): what
    /// a command without `after` was decided on.
    seen: i64,
}

impl<'a, O: Sink<Outbound> + Unpin> Session<'a, O> {
    fn new(outbound: &'a mut O, viewer: Viewer, limits: SocketLimits) -> Self {
        Session {
            outbound,
            viewer,
            limits,
            accepted: false,
            stalled: false,
            ending: None,
            seen: 0,
        }
    }

    /// False once the client is gone.
    async fn send(&mut self, message: &ServerMessage) -> bool {
        self.send_frames([Frame::encode(message)]).await
    }

    /// Queues every frame and flushes once: one write for a whole batch, not one per frame.
    async fn send_frames(&mut self, frames: impl IntoIterator<Item = Frame>) -> bool {
        self.write_all(frames.into_iter().map(Outbound::Text)).await
    }

    /// Sends one frame (a ping, a Close).
    async fn write(&mut self, frame: Outbound) -> bool {
        self.write_all([frame]).await
    }

    /// Feeds `frames` and flushes once. A client that does not read makes the write wait: it
    /// gets `write_timeout`, no more, so a session never blocks forever on one socket.
    async fn write_all(&mut self, frames: impl IntoIterator<Item = Outbound>) -> bool {
        let outbound = &mut *self.outbound;
        let write = async move {
            for frame in frames {
                outbound.feed(frame).await?;
            }
            outbound.flush().await
        };
        let done = matches!(time::timeout(self.limits.write_timeout, write).await, Ok(Ok(())));
        self.stalled |= !done;
        done
    }

    /// Ends the session. A stalled socket gets a 1013 Close attempt (bounded: its buffers are
    /// likely full). Otherwise the Close is sent, and the client's input is read out and
    /// dropped until its own Close or EOF (at most `close_linger`), so the server closes TCP
    /// with nothing unread: unread input would make the kernel answer with a reset, which can
    /// destroy the Close frame before the client reads it.
    async fn finish<I: Stream<Item = Inbound> + Unpin>(&mut self, end: End, inbound: &mut I) {
        let (code, reason) = match end {
            _ if self.stalled => (close::TRY_AGAIN, "too slow reading: reconnect with resume_from"),
            End::Gone => return,
            End::Close(code, reason) => (code, reason),
        };
        let frame = Outbound::Close {
            code,
            reason: reason.to_string(),
        };
        if self.stalled {
            let _ = time::timeout(self.limits.close_linger, self.outbound.send(frame)).await;
            return;
        }
        if !self.write(frame).await {
            return;
        }
        let read_out = async {
            while let Some(frame) = inbound.next().await {
                if matches!(frame, Inbound::Closed | Inbound::TooBig | Inbound::NotUtf8) {
                    break;
                }
            }
        };
        let _ = time::timeout(self.limits.close_linger, read_out).await;
    }

    async fn error(
        &mut self,
        id: Option<String>,
        code: ErrorCode,
        message: &str,
        reason: Option<String>,
    ) -> bool {
        let error = ErrorMessage {
            id,
            code,
            message: message.to_string(),
            reason,
        };
        self.send(&ServerMessage::Error(error)).await
    }

    async fn on_text(
        &mut self,
        text: &str,
        handle: &MatchHandle,
        feed: &mut broadcast::Receiver<Arc<ViewerBatch>>,
    ) -> bool {
        let message = match crate::input::client_message(text, handle.max_command_bytes) {
            Ok(message) => message,
            Err(error) => return self.send(&ServerMessage::Error(error)).await,
        };
        let id = match &message {
            ClientMessage::Ping { id } => return self.send(&ServerMessage::Pong { id: id.clone() }).await,
            ClientMessage::Command { id, .. } | ClientMessage::Adjourn { id, .. } => id.clone(),
        };
        let Viewer::Seat(seat) = self.viewer else {
            return self
                .error(Some(id), ErrorCode::NotSeated, "spectators cannot play", None)
                .await;
        };
        let answer = match message {
            // A client that does not say what it had seen decided on what this socket sent it.
            ClientMessage::Command { after, command, .. } => {
                handle
                    .command(seat, Some(after.unwrap_or(self.seen)), command)
                    .await
            }
            ClientMessage::Adjourn {
                action, resume_at, ..
            } => handle.adjourn(seat, action, resume_at).await,
            ClientMessage::Ping { .. } => return true,
        };
        match answer {
            Ok(last_seq) => self.acked(id, last_seq, feed).await,
            Err(error) => self.refused(id, error).await,
        }
    }

    /// An accepted command (or adjournment step): its frames, then the ack.
    async fn acked(
        &mut self,
        id: String,
        last_seq: i64,
        feed: &mut broadcast::Receiver<Arc<ViewerBatch>>,
    ) -> bool {
        {
            {
                // Deliver the acknowledged events first, so the ack always follows them (all
                // in one write). A local actor broadcast them before acking; a routed ack (the
                // match runs on another node) may overtake its events, so wait for them, briefly.
                let mut frames = Vec::new();
                let wait_until = Instant::now() + ROUTED_EVENTS_WAIT;
                loop {
                    let batch = match feed.try_recv() {
                        Err(TryRecvError::Empty) => match time::timeout_at(wait_until, feed.recv()).await {
                            Ok(Ok(batch)) => batch,
                            Ok(Err(RecvError::Lagged(_))) => {
                                self.ending = Some((close::TRY_AGAIN, BEHIND));
                                return false;
                            }
                            Ok(Err(RecvError::Closed)) | Err(_) => break,
                        },
                        Ok(batch) => batch,
                        Err(TryRecvError::Closed) => break,
                        Err(TryRecvError::Lagged(_)) => {
                            self.ending = Some((close::TRY_AGAIN, BEHIND));
                            return false;
                        }
                    };
                    if batch.moved {
                        self.ending = Some((close::GOING_AWAY, MOVED));
                        break;
                    }
                    frames.extend(batch.frames.iter().cloned());
                    self.seen = self.seen.max(batch.last_seq);
                    if batch.last_seq >= last_seq {
                        break;
                    }
                }
                self.accepted = true;
                self.seen = self.seen.max(last_seq);
                // The ack answers the command, so it comes before the `finished` that a
                // match-ending command's batch carries last: `finished` is the socket's last
                // word before the close.
                let ack = Frame::encode(&ServerMessage::Ack { id, last_seq });
                let at = frames.iter().position(Frame::is_finished).unwrap_or(frames.len());
                frames.insert(at, ack);
                self.send_frames(frames).await && self.ending.is_none()
            }
        }
    }

    async fn refused(&mut self, id: String, error: CommandError) -> bool {
        let message = error.to_string();
        let sent = self.error(Some(id), error.code(), &message, error.reason()).await;
        if error == CommandError::Moved {
            // Nothing more can happen on this socket: the client resumes on the match's node.
            self.ending = Some((close::GOING_AWAY, MOVED));
            return false;
        }
        sent
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::PROTOCOL_VERSION;
    use crate::record::MatchStatus;
    use tokio::sync::mpsc;

    const LIMITS: SocketLimits = SocketLimits {
        ping_interval: Duration::from_secs(1),
        pong_deadline: Duration::from_millis(3500),
        write_timeout: Duration::from_secs(2),
        max_write_buffer: 1 << 20,
        close_linger: Duration::from_secs(1),
    };

    /// A spectator's session on a match with no actor behind it (a spectator never asks it
    /// anything), fed by channels: the test plays the client.
    struct Harness {
        to_server: mpsc::UnboundedSender<Inbound>,
        from_server: mpsc::UnboundedReceiver<Outbound>,
        stop: watch::Sender<bool>,
        session: tokio::task::JoinHandle<()>,
        /// The match's mailbox, kept open and never read.
        _mailbox: Box<dyn std::any::Any + Send>,
        _feed: broadcast::Sender<Arc<ViewerBatch>>,
    }

    fn spectator_session<O>(outbound: O) -> Harness
    where
        O: Sink<Outbound> + Unpin + Send + 'static,
    {
        let (sender, mailbox) = crate::protocol::MatchMailbox::channel();
        let handle = MatchHandle::new(sender, "toy", 256);
        let (feed_sender, feed) = broadcast::channel(8);
        let snapshot = Snapshot {
            protocol: PROTOCOL_VERSION,
            match_id: "m".into(),
            game: "toy".into(),
            status: MatchStatus::Live,
            seat: None,
            view: serde_json::Value::Null,
            pending: Vec::new(),
            last_seq: 0,
            deadline_ms: None,
            seed_commitment: String::new(),
            result: None,
            adjournment: None,
        };
        let subscription = Subscription {
            snapshot,
            backlog: Vec::new(),
            feed,
        };
        let (to_server, inbound) = mpsc::unbounded_channel();
        let inbound = Box::pin(futures_util::stream::unfold(inbound, |mut inbound| async move {
            inbound.recv().await.map(|frame| (frame, inbound))
        }));
        let (stop, shutdown) = watch::channel(false);
        let session = tokio::spawn(run_session(
            inbound,
            outbound,
            handle,
            Viewer::Spectator,
            subscription,
            Stops::new(shutdown, None),
            LIMITS,
        ));
        let (_, from_server) = mpsc::unbounded_channel();
        Harness {
            to_server,
            from_server,
            stop,
            session,
            _mailbox: Box::new(mailbox),
            _feed: feed_sender,
        }
    }

    /// A session whose client receives everything through a channel.
    fn recorded_session() -> Harness {
        let (sent, from_server) = mpsc::unbounded_channel();
        let outbound = Box::pin(futures_util::sink::unfold(
            sent,
            |sent, frame: Outbound| async move { sent.send(frame).map(|()| sent) },
        ));
        Harness {
            from_server,
            ..spectator_session(outbound)
        }
    }

    #[tokio::test(start_paused = true)]
    async fn a_client_that_never_answers_is_pinged_then_closed_at_the_pong_deadline() {
        let start = Instant::now();
        let mut client = recorded_session();
        let mut pings = 0;
        let close = loop {
            match client.from_server.recv().await.expect("the session writes") {
                Outbound::Ping => pings += 1,
                Outbound::Text(_) => {}
                Outbound::Close { code, .. } => break code,
            }
        };
        assert_eq!(close, close::GOING_AWAY);
        assert_eq!(
            start.elapsed(),
            LIMITS.pong_deadline,
            "closed exactly at the deadline"
        );
        assert_eq!(pings, 3, "pinged every second before the 3.5 s deadline");
        // It waits for the client's Close (at most the linger), then ends.
        time::timeout(LIMITS.close_linger + Duration::from_millis(1), client.session)
            .await
            .expect("the session ends after the linger")
            .expect("no panic");
    }

    #[tokio::test(start_paused = true)]
    async fn a_client_that_answers_pings_stays_connected_past_the_deadline() {
        let start = Instant::now();
        let mut client = recorded_session();
        let stay = start + 4 * LIMITS.pong_deadline;
        let mut pongs = 0;
        while let Ok(frame) = time::timeout_at(stay, client.from_server.recv()).await {
            match frame.expect("the session is running") {
                Outbound::Ping => {
                    pongs += 1;
                    client.to_server.send(Inbound::Control).expect("session reads");
                }
                Outbound::Text(_) => {}
                Outbound::Close { code, reason } => panic!("closed ({code} {reason}) while answering"),
            }
        }
        assert!(pongs >= 13, "{pongs} pings in 14 s");
        let _ = client.stop.send(true);
        let closed = time::timeout(Duration::from_millis(100), async {
            loop {
                match client.from_server.recv().await {
                    Some(Outbound::Ping) => continue,
                    other => return other,
                }
            }
        });
        assert!(matches!(
            closed.await,
            Ok(Some(Outbound::Close { code: close::GOING_AWAY, reason })) if reason.contains("shutting down")
        ));
    }

    #[tokio::test(start_paused = true)]
    async fn a_write_the_client_never_takes_ends_the_session_after_the_write_timeout() {
        let start = Instant::now();
        // A transport whose writes never complete: a client that stopped reading.
        let stuck = Box::pin(futures_util::sink::unfold((), |(), _: Outbound| {
            std::future::pending::<Result<(), std::convert::Infallible>>()
        }));
        let client = spectator_session(stuck);
        let bound = LIMITS.write_timeout + LIMITS.close_linger;
        time::timeout(bound + Duration::from_millis(1), client.session)
            .await
            .expect("the session gave up on the stuck write")
            .expect("no panic");
        assert!(start.elapsed() >= LIMITS.write_timeout);
    }

    #[tokio::test(start_paused = true)]
    async fn a_close_reads_out_the_clients_input_until_its_close() {
        let mut client = recorded_session();
        let _ = client.stop.send(true);
        while !matches!(client.from_server.recv().await, Some(Outbound::Close { .. })) {}
        // Input still in flight after the server's Close is read and dropped...
        for _ in 0..100 {
            client
                .to_server
                .send(Inbound::Text("{}".into()))
                .expect("still reading");
        }
        tokio::task::yield_now().await;
        assert!(!client.session.is_finished());
        // ...and the client's Close ends the session at once, not after the linger.
        let start = Instant::now();
        client.to_server.send(Inbound::Closed).expect("still reading");
        client.session.await.expect("no panic");
        assert_eq!(start.elapsed(), Duration::ZERO);
    }
}
