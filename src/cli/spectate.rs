//! The spectator storm of `crease load --spectators-per-second`: spectator sockets opened at a
//! steady rate on the run's live matches, each resuming from `--spectator-resume-from`, read
//! to the end of its resume and closed, while the players' latency is measured as usual.
//!
//! With `--spectator-period S` the storm runs S seconds on, S seconds off, quiet first, and the
//! players' latency is also kept apart by which of the two it was measured in: the storm and
//! its baseline then sample the same stretch of time on the same server (a shared machine's
//! own hiccups fall on both alike), which is what a comparison needs.
//!
//! With `--spectator-addresses N` the sockets come from N loopback source addresses
//! (127.0.1.1, 127.0.1.2, ...: every 127/8 address is this machine's on Linux), so a
//! benchmark can play many watchers rather than one address that the per-address limit
//! stops at once.

use anyhow::Context;
use futures_util::StreamExt;
use hdrhistogram::Histogram;
use serde::{Deserialize, Serialize};
use std::net::{Ipv4Addr, SocketAddr};
use std::sync::Arc;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::time::{Duration, Instant};
use tokio_tungstenite::tungstenite::{self, Message};

/// What the storm asks for.
#[derive(Debug, Clone)]
pub struct Storm {
    pub server: String,
    pub per_second: u32,
    pub resume_from: i64,
    pub addresses: u32,
    /// Seconds on, then as many off (quiet first); `0`: on the whole time.
    pub period: u64,
}

/// What the storm saw, in the load report.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct StormReport {
    pub per_second: u32,
    pub addresses: u32,
    pub attempted: u64,
    /// Upgraded and served their resume (snapshot, backlog, the update or step to now).
    pub served: u64,
    /// Answered 429 `rate_limited` or 503 `spectators_full` before the upgrade.
    pub refused: u64,
    pub failed: u64,
    /// From the connect to the end of the resume, of the sockets served.
    pub served_p50_ms: f64,
    pub served_p99_ms: f64,
    /// With `--spectator-period`: the players' acks and latency in the quiet stretches and in
    /// the storm's, of the same window.
    #[serde(default)]
    pub period: u64,
    #[serde(default)]
    pub quiet_acks: u64,
    #[serde(default)]
    pub quiet_p50_ms: f64,
    #[serde(default)]
    pub quiet_p99_ms: f64,
    #[serde(default)]
    pub storm_acks: u64,
    #[serde(default)]
    pub storm_p50_ms: f64,
    #[serde(default)]
    pub storm_p99_ms: f64,
}

#[derive(Default)]
struct Counts {
    attempted: AtomicU64,
    served: AtomicU64,
    refused: AtomicU64,
    failed: AtomicU64,
}

/// Runs the storm until `until`, keeping `storming` true while it is on; returns what it saw
/// (the players' split latency is the caller's to fill in).
pub async fn run(storm: Storm, until: Instant, storming: Arc<AtomicBool>) -> anyhow::Result<StormReport> {
    let began = Instant::now();
    let http = reqwest::Client::new();
    let matches = live_matches(&http, &storm.server).await?;
    anyhow::ensure!(!matches.is_empty(), "no live match to watch on {}", storm.server);
    let address = server_address(&storm.server).await?;
    let counts = Arc::new(Counts::default());
    let latency = Arc::new(Mutex::new(Histogram::<u64>::new_with_bounds(1, 600_000_000, 3)?));
    let base = storm.server.replacen("http", "ws", 1);
    let mut ticks = tokio::time::interval(Duration::from_secs_f64(1.0 / f64::from(storm.per_second.max(1))));
    let mut sockets = tokio::task::JoinSet::new();
    let mut index: u64 = 0;
    while Instant::now() < until {
        ticks.tick().await;
        let on = storm.period == 0 || (began.elapsed().as_secs() / storm.period) % 2 == 1;
        storming.store(on, Relaxed);
        if !on {
            continue;
        }
        let match_id = &matches[(index % matches.len() as u64) as usize];
        let url = match storm.resume_from {
            from if from >= 0 => format!("{base}/v1/matches/{match_id}/ws?resume_from={from}"),
            _ => format!("{base}/v1/matches/{match_id}/ws"),
        };
        let source = source_address(index, storm.addresses);
        let (counts, latency) = (counts.clone(), latency.clone());
        index += 1;
        counts.attempted.fetch_add(1, Relaxed);
        sockets.spawn(async move {
            let started = Instant::now();
            match watch_once(&url, address, source).await {
                Ok(Watched::Served) => {
                    counts.served.fetch_add(1, Relaxed);
                    let micros = (started.elapsed().as_micros() as u64).max(1);
                    if let Ok(mut histogram) = latency.lock() {
                        let _ = histogram.record(micros.min(600_000_000));
                    }
                }
                Ok(Watched::Refused) => drop(counts.refused.fetch_add(1, Relaxed)),
                Err(error) => {
                    tracing::debug!(%error, "a spectator socket failed");
                    counts.failed.fetch_add(1, Relaxed);
                }
            }
        });
        while sockets.try_join_next().is_some() {}
    }
    storming.store(false, Relaxed);
    // The sockets still resuming get a moment to finish; the rest count as failed.
    let _ = tokio::time::timeout(Duration::from_secs(5), async {
        while sockets.join_next().await.is_some() {}
    })
    .await;
    let histogram = latency
        .lock()
        .map(|histogram| histogram.clone())
        .map_err(|_| anyhow::anyhow!("poisoned"))?;
    let ms = |quantile: f64| histogram.value_at_quantile(quantile) as f64 / 1000.0;
    Ok(StormReport {
        per_second: storm.per_second,
        addresses: storm.addresses,
        attempted: counts.attempted.load(Relaxed),
        served: counts.served.load(Relaxed),
        refused: counts.refused.load(Relaxed),
        failed: counts.failed.load(Relaxed),
        served_p50_ms: ms(0.5),
        served_p99_ms: ms(0.99),
        period: storm.period,
        quiet_acks: 0,
        quiet_p50_ms: 0.0,
        quiet_p99_ms: 0.0,
        storm_acks: 0,
        storm_p50_ms: 0.0,
        storm_p99_ms: 0.0,
    })
}

enum Watched {
    Served,
    Refused,
}

/// The ids of the server's live matches (up to the hundred the list holds).
async fn live_matches(http: &reqwest::Client, server: &str) -> anyhow::Result<Vec<String>> {
    let list: serde_json::Value = http
        .get(format!("{server}/v1/matches?status=live"))
        .send()
        .await?
        .json()
        .await?;
    Ok(list["matches"]
        .as_array()
        .map(|matches| {
            matches
                .iter()
                .filter_map(|info| info["match_id"].as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default())
}

async fn server_address(server: &str) -> anyhow::Result<SocketAddr> {
    let url = reqwest::Url::parse(server)?;
    let host = url.host_str().context("a host in --server")?;
    let port = url.port_or_known_default().context("a port in --server")?;
    tokio::net::lookup_host((host, port))
        .await?
        .next()
        .context("the server's address")
}

/// The source address of the `index`-th socket: one of `addresses` loopback addresses from
/// 127.0.1.1 on, or the default (127.0.0.1) for one.
fn source_address(index: u64, addresses: u32) -> Option<Ipv4Addr> {
    (addresses > 1).then(|| {
        let slot = (index % u64::from(addresses)) as u32 + 1;
        Ipv4Addr::new(127, 0, 1 + (slot >> 8) as u8, slot as u8)
    })
}

/// Opens one spectator socket from `source`, reads its opening to the end (a resume's closing
/// `update` or `step`, or a plain snapshot), and closes it.
async fn watch_once(url: &str, server: SocketAddr, source: Option<Ipv4Addr>) -> anyhow::Result<Watched> {
    let socket = match (source, server) {
        (Some(ip), SocketAddr::V4(_)) => {
            let socket = tokio::net::TcpSocket::new_v4()?;
            socket.bind(SocketAddr::from((ip, 0)))?;
            socket
        }
        _ => match server {
            SocketAddr::V4(_) => tokio::net::TcpSocket::new_v4()?,
            SocketAddr::V6(_) => tokio::net::TcpSocket::new_v6()?,
        },
    };
    let stream = socket.connect(server).await?;
    let mut socket = match tokio_tungstenite::client_async(url, stream).await {
        Ok((socket, _)) => socket,
        Err(tungstenite::Error::Http(response)) if matches!(response.status().as_u16(), 429 | 503) => {
            return Ok(Watched::Refused);
        }
        Err(error) => return Err(error.into()),
    };
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let frame = tokio::time::timeout_at(deadline.into(), socket.next())
            .await
            .context("the resume did not end within 10 s")?;
        match frame {
            Some(Ok(Message::Text(text))) => {
                let message: serde_json::Value = serde_json::from_str(&text)?;
                let plain_snapshot = message["type"] == "snapshot" && !url.contains("resume_from");
                if plain_snapshot || matches!(message["type"].as_str(), Some("update" | "step" | "finished"))
                {
                    break;
                }
            }
            Some(Ok(_)) => continue,
            Some(Err(error)) => return Err(error.into()),
            None => anyhow::bail!("closed before its resume ended"),
        }
    }
    let _ = socket.close(None).await;
    Ok(Watched::Served)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sources_spread_over_loopback_addresses_and_one_means_the_default() {
        assert_eq!(source_address(7, 1), None);
        assert_eq!(source_address(0, 300), Some(Ipv4Addr::new(127, 0, 1, 1)));
        assert_eq!(source_address(254, 300), Some(Ipv4Addr::new(127, 0, 1, 255)));
        assert_eq!(source_address(255, 300), Some(Ipv4Addr::new(127, 0, 2, 0)));
        assert_eq!(
            source_address(300, 300),
            Some(Ipv4Addr::new(127, 0, 1, 1)),
            "wraps around"
        );
    }
}
