//! Where log lines go and what they may contain.
//!
//! Logs go to stderr (stdout belongs to the subcommands' own output, such as `simulate
//! --json`), with ANSI colours only when stderr is a terminal, so files and log collectors
//! get plain text.
//!
//! A log line must never carry a sealed value of a live match (a bowl card, a shot, the
//! seed) whatever `RUST_LOG` asks for: operators raise the level to `trace` when debugging,
//! and a log file is not a place the other seat should be able to read its opponent's card
//! from. The server itself logs only ids, seats, codes and reasons. The one dependency that
//! logs payloads is tungstenite, whose `trace` level prints every WebSocket message it
//! reads or writes (commands included), so its targets are capped at `debug` by a filter
//! that `RUST_LOG` cannot lift.

use std::io::IsTerminal;
use tracing::Subscriber;
use tracing_subscriber::filter::{LevelFilter, Targets};
use tracing_subscriber::fmt::MakeWriter;
use tracing_subscriber::prelude::*;
use tracing_subscriber::{EnvFilter, Registry};

/// Targets whose `trace` events print WebSocket payloads.
const PAYLOAD_LOGGING_TARGETS: [&str; 2] = ["tungstenite", "tokio_tungstenite"];

/// How the log is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LogFormat {
    /// One JSON object per line instead of text.
    pub json: bool,
    /// ANSI colours in text lines.
    pub ansi: bool,
}

impl LogFormat {
    /// Text or JSON on stderr, coloured only on a terminal (and never under `NO_COLOR`).
    pub fn for_stderr(json: bool) -> Self {
        LogFormat {
            json,
            ansi: !json && std::io::stderr().is_terminal() && std::env::var_os("NO_COLOR").is_none(),
        }
    }
}

/// The filter `RUST_LOG` asks for (default `info`); an unreadable one falls back to `info`.
pub fn env_filter() -> EnvFilter {
    EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info"))
}

/// The server's subscriber: `filter`, then the payload cap, then the formatter on `writer`.
/// Tests build it with their own writer to check what would be logged.
pub fn subscriber<W>(filter: EnvFilter, format: LogFormat, writer: W) -> impl Subscriber + Send + Sync
where
    W: for<'w> MakeWriter<'w> + Send + Sync + 'static,
{
    let no_payloads = PAYLOAD_LOGGING_TARGETS.iter().fold(
        Targets::new().with_default(LevelFilter::TRACE),
        |targets, target| targets.with_target(*target, LevelFilter::DEBUG),
    );
    let lines = tracing_subscriber::fmt::layer()
        .with_writer(writer)
        .with_ansi(format.ansi);
    let lines = if format.json {
        lines.json().boxed()
    } else {
        lines.boxed()
    };
    Registry::default().with(filter).with(no_payloads).with(lines)
}

/// Installs the server's subscriber on stderr (and bridges the `log` crate, which
/// tungstenite and sqlx log through). A second call keeps the first subscriber.
pub fn init(json: bool) {
    let subscriber = subscriber(env_filter(), LogFormat::for_stderr(json), std::io::stderr);
    let _ = tracing_subscriber::util::SubscriberInitExt::try_init(subscriber);
}
