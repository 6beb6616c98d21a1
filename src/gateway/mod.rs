//! One WebSocket connection to one match: decode, rate-limit, forward to the actor, fan the
//! actor's batches back out as this viewer may see them.
//!
//! The session is written against a plain `Stream` of [`Inbound`] frames and a `Sink` of
//! [`Outbound`] ones, not against axum's socket, so the protocol logic does not depend on
//! the web framework and can be driven by anything that moves text frames.

mod rate;

pub use rate::TokenBucket;

use crate::matches::{CommandError, MatchHandle, Subscription, ViewerBatch};
use crate::protocol::{ClientMessage, ErrorCode, ErrorMessage, Frame, ServerMessage, Snapshot};
use crate::rules::Viewer;
use futures_util::{Sink, SinkExt, Stream, StreamExt};
use std::sync::Arc;
use tokio::sync::broadcast::{
    self,
    error::{RecvError, TryRecvError},
};
use tokio::sync::watch;

/// A frame from the client, independent of the WebSocket library.
#[derive(Debug, Clone, PartialEq)]
pub enum Inbound {
    Text(String),
    Binary,
    /// The client closed, or the transport failed (including frames over the size limit).
    Closed,
}

/// A frame to the client. Text is shared, not copied: the match actor serialised it once for
/// every socket of the same viewer.
#[derive(Debug, Clone, PartialEq)]
pub enum Outbound {
    Text(Frame),
    Close { code: u16, reason: String },
}

/// WebSocket close codes the server uses.
pub mod close {
    pub const NORMAL: u16 = 1000;
    pub const GOING_AWAY: u16 = 1001;
    pub const POLICY: u16 = 1008;
    pub const TRY_AGAIN: u16 = 1013;
}

/// Rejected messages in a row after which a flooding client is disconnected.
const FLOOD_LIMIT: u32 = 50;

/// Serves one connection until the client leaves, the match ends, or the server stops.
pub async fn run_session<I, O>(
    mut inbound: I,
    mut outbound: O,
    handle: MatchHandle,
    viewer: Viewer,
    subscription: Subscription,
    mut shutdown: watch::Receiver<bool>,
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
    let mut session = Session {
        outbound: &mut outbound,
        viewer,
        accepted: false,
    };
    let first = std::iter::once(Frame::encode(&ServerMessage::Snapshot(snapshot)));
    let mut open = session.send_frames(first.chain(backlog)).await;
    let mut bucket = TokenBucket::per_socket();
    let mut refused_in_a_row = 0u32;
    while open {
        tokio::select! {
            frame = inbound.next() => {
                let Some(Inbound::Text(text)) = frame else {
                    if frame == Some(Inbound::Binary) {
                        open = session.error(None, ErrorCode::BadMessage, "send JSON text frames", None).await;
                        continue;
                    }
                    break;
                };
                if !bucket.take() {
                    refused_in_a_row += 1;
                    if refused_in_a_row > FLOOD_LIMIT {
                        session.close(close::POLICY, "too many messages").await;
                        break;
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
                    Err(RecvError::Lagged(_)) => {
                        session.close(close::TRY_AGAIN, "too far behind: reconnect with resume_from").await;
                        false
                    }
                    Err(RecvError::Closed) => {
                        session.close(close::NORMAL, "match over").await;
                        false
                    }
                };
            }
            _ = shutdown.changed() => {
                session.close(close::GOING_AWAY, "server shutting down").await;
                break;
            }
        }
    }
    if let Some(seat) = seat {
        handle.connection(seat, false).await;
    }
}

/// A connection to a match that is already over: its final snapshot, then a clean close.
pub async fn send_final<O: Sink<Outbound> + Unpin>(mut outbound: O, snapshot: Snapshot, seed: String) {
    let result = snapshot.result.clone();
    let mut session = Session {
        outbound: &mut outbound,
        viewer: Viewer::Spectator,
        accepted: false,
    };
    session.send(&ServerMessage::Snapshot(snapshot)).await;
    if let Some(result) = result {
        session.send(&ServerMessage::Finished { result, seed }).await;
    }
    session.close(close::NORMAL, "match over").await;
}

struct Session<'a, O> {
    outbound: &'a mut O,
    viewer: Viewer,
    /// The last message was a command the match accepted.
    accepted: bool,
}

impl<O: Sink<Outbound> + Unpin> Session<'_, O> {
    /// False once the client is gone.
    async fn send(&mut self, message: &ServerMessage) -> bool {
        self.send_frames([Frame::encode(message)]).await
    }

    /// Queues every frame and flushes once: one write for a whole batch, not one per frame.
    async fn send_frames(&mut self, frames: impl IntoIterator<Item = Frame>) -> bool {
        for frame in frames {
            if self.outbound.feed(Outbound::Text(frame)).await.is_err() {
                return false;
            }
        }
        self.outbound.flush().await.is_ok()
    }

    async fn close(&mut self, code: u16, reason: &str) {
        let _ = self
            .outbound
            .send(Outbound::Close {
                code,
                reason: reason.to_string(),
            })
            .await;
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
                            self.close(close::TRY_AGAIN, "too far behind: reconnect with resume_from")
                                .await;
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
