//! One WebSocket connection to one match: decode, rate-limit, forward to the actor, fan the
//! actor's batches back out as this viewer may see them.
//!
//! The session is written against a plain `Stream` of [`Inbound`] frames and a `Sink` of
//! [`Outbound`] ones, not against axum's socket, so the protocol logic does not depend on
//! the web framework and can be driven by anything that moves text frames.

mod rate;

pub use rate::TokenBucket;

use crate::matches::{CommandError, MatchHandle, Subscription, ViewerBatch};
use crate::protocol::{
    ClientMessage, ErrorCode, ErrorMessage, Frame, MAX_FRAME_BYTES, ServerMessage, Snapshot,
};
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
}

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
        crate::listener::ConnectionConfig::default().socket_limits()
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
#[allow(clippy::too_many_arguments)]
pub async fn run_session<I, O>(
    mut inbound: I,
    mut outbound: O,
    handle: MatchHandle,
    viewer: Viewer,
    subscription: Subscription,
    mut shutdown: watch::Receiver<bool>,
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
    let Subscription {
        snapshot,
        backlog,
        mut feed,
    } = subscription;
    let mut session = Session::new(&mut outbound, viewer, limits);
    let first = std::iter::once(Frame::encode(&ServerMessage::Snapshot(snapshot)));
    let mut open = session.send_frames(first.chain(backlog)).await;
    let mut bucket = TokenBucket::per_socket();
    let mut refused_in_a_row = 0u32;
    let mut pings = time::interval_at(Instant::now() + limits.ping_interval, limits.ping_interval);
    pings.set_missed_tick_behavior(MissedTickBehavior::Delay);
    // Any frame from the client pushes this back; when it fires, the client is gone.
    let silence = time::sleep(limits.pong_deadline);
    tokio::pin!(silence);
    let end = loop {
        if !open {
            break End::Gone;
        }
        tokio::select! {
            frame = inbound.next() => {
                let text = match frame {
                    None | Some(Inbound::Closed) => break End::Gone,
                    Some(Inbound::TooBig) => break End::Close(close::TOO_BIG, "message over 64 KiB"),
                    Some(Inbound::NotUtf8) => break End::Close(close::INVALID_DATA, "text frames must be UTF-8"),
                    Some(frame) => {
                        silence.as_mut().reset(Instant::now() + limits.pong_deadline);
                        match frame {
                            Inbound::Text(text) => text,
                            Inbound::Binary => {
                                open = session.error(None, ErrorCode::BadMessage, "send JSON text frames", None).await;
                                continue;
                            }
                            _ => continue,
                        }
                    }
                };
                if !bucket.take() {
                    refused_in_a_row += 1;
                    if refused_in_a_row > FLOOD_LIMIT {
                        break End::Close(close::POLICY, "too many messages");
                    }
                    open = session.error(None, ErrorCode::RateLimited, "slow down", None).await;
                    continue;
                }
                refused_in_a_row = 0;
                session.accepted = false;
                open = session.on_text(&text, &handle, &mut feed).await;
                if session.accepted {
                    bucket.refund();
                }
            }
            batch = feed.recv() => {
                open = match batch {
                    Ok(batch) => session.send_frames(batch.frames.iter().cloned()).await,
                    Err(RecvError::Lagged(_)) => break End::Close(close::TRY_AGAIN, BEHIND),
                    Err(RecvError::Closed) => break End::Close(close::NORMAL, "match over"),
                };
            }
            _ = pings.tick() => {
                open = session.write(Outbound::Ping).await;
            }
            _ = &mut silence => break End::Close(close::GOING_AWAY, "no answer to pings"),
            _ = shutdown.changed() => break End::Close(close::GOING_AWAY, "server shutting down"),
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

const BEHIND: &str = "too far behind: reconnect with resume_from";

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
    let mut open = session.send(&ServerMessage::Snapshot(snapshot)).await;
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
        }
    }

    /// False once the client is gone.
    async fn send(&mut self, message: &ServerMessage) -> bool {
        self.send_frames([Frame::encode(message)]).await
    }

    /// Queues every frame and flushes once: one write for a whole batch, not one per frame.
    /// A client that does not read makes the write wait: it gets `write_timeout`, no more,
    /// so a session never blocks forever on one socket.
    async fn send_frames(&mut self, frames: impl IntoIterator<Item = Frame>) -> bool {
        let outbound = &mut *self.outbound;
        let write = async move {
            for frame in frames {
                outbound.feed(Outbound::Text(frame)).await?;
            }
            outbound.flush().await
        };
        let done = matches!(time::timeout(self.limits.write_timeout, write).await, Ok(Ok(())));
        self.stalled |= !done;
        done
    }

    /// Sends one frame (a ping) under the write timeout.
    async fn write(&mut self, frame: Outbound) -> bool {
        let done = matches!(
            time::timeout(self.limits.write_timeout, self.outbound.send(frame)).await,
            Ok(Ok(()))
        );
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
        if text.len() > MAX_FRAME_BYTES {
            return self
                .error(None, ErrorCode::BadMessage, "message over 64 KiB", None)
                .await;
        }
        let message: ClientMessage = match serde_json::from_str(text) {
            Ok(message) => message,
            Err(error) => {
                let message = format!("not a client message: {error}");
                return self.error(None, ErrorCode::BadMessage, &message, None).await;
            }
        };
        let (id, command) = match message {
            ClientMessage::Ping { id } => return self.send(&ServerMessage::Pong { id }).await,
            ClientMessage::Command { id, command } => (id, command),
        };
        let Viewer::Seat(seat) = self.viewer else {
            return self
                .error(Some(id), ErrorCode::NotSeated, "spectators cannot play", None)
                .await;
        };
        match handle.command(seat, command).await {
            Ok(last_seq) => {
                // The actor broadcast the events before acking: deliver them first, so the
                // ack always follows the events it acknowledges (all in one write).
                let mut frames = Vec::new();
                loop {
                    match feed.try_recv() {
                        Ok(batch) => {
                            frames.extend(batch.frames.iter().cloned());
                            if batch.last_seq >= last_seq {
                                break;
                            }
                        }
                        Err(TryRecvError::Empty) | Err(TryRecvError::Closed) => break,
                        Err(TryRecvError::Lagged(_)) => {
                            self.ending = Some((close::TRY_AGAIN, BEHIND));
                            return false;
                        }
                    }
                }
                self.accepted = true;
                frames.push(Frame::encode(&ServerMessage::Ack { id, last_seq }));
                self.send_frames(frames).await
            }
            Err(error) => self.refused(id, error).await,
        }
    }

    async fn refused(&mut self, id: String, error: CommandError) -> bool {
        let message = error.to_string();
        self.error(Some(id), error.code(), &message, error.reason()).await
    }
}
