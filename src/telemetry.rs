//! Operational metrics, served as Prometheus text at `GET /metrics`.
//!
//! The `metrics` facade is global, so the Prometheus recorder is installed once per process
//! (several test apps in one process share it); code records through the names below, and
//! recording before [`install`] is a no-op. Histograms get explicit buckets so Prometheus can
//! aggregate them across scrapes and servers (summaries could not be).

use metrics_exporter_prometheus::{Matcher, PrometheusBuilder, PrometheusHandle};
use std::sync::{LazyLock, OnceLock};
use std::time::Duration;

/// Gauge: match actors running.
pub const LIVE_MATCHES: &str = "crease_live_matches";
/// Gauge: open WebSocket sessions (players and spectators).
pub const CONNECTED_SOCKETS: &str = "crease_connected_sockets";
/// Counter with labels `game`, `type` (the command's tag) and `result` (`ok` or an error code).
pub const COMMANDS: &str = "crease_commands_total";
/// Histogram: from the actor taking a command to its answer (engine + durable write).
pub const COMMAND_SECONDS: &str = "crease_command_duration_seconds";
/// Histogram: one database transaction of the journal (a group of appends).
pub const DB_WRITE_SECONDS: &str = "crease_db_write_duration_seconds";
/// Histogram: appends per committed transaction (how much group commit saves).
pub const DB_GROUP_APPENDS: &str = "crease_db_group_appends";
/// Histogram: messages waiting in an actor's mailbox when it takes the next one.
pub const MAILBOX_DEPTH: &str = "crease_actor_mailbox_depth";
/// Gauge: appends waiting for the journal writer.
pub const JOURNAL_QUEUE: &str = "crease_journal_queue_depth";

/// Counter with labels `game` and `source` (`recent`, `log` or `spectator_now`): histories a
/// resume or a live `/log` read, from the actor's bounded recent past or by folding the
/// durable log's events; `spectator_now` counts spectator resumes from before the recent past,
/// answered with the current snapshot instead.
pub const HISTORY_READS: &str = "crease_history_reads_total";
/// Counter with label `game`: whole logs re-run through the engine (`fairness::replay`):
/// recovery, take-over, verification and finished matches' views, never a live match's read.
pub const LOG_REPLAYS: &str = "crease_log_replays_total";

/// Counter: journal writes refused because another node had taken the match over (cluster).
pub const FENCED_WRITES: &str = "crease_cluster_fenced_writes_total";
/// Counter: matches this node claimed (failover, drain hand-off) or was placed (cluster).
pub const CLAIMS: &str = "crease_cluster_claims_total";
/// Histogram with label `kind`: one request routed over NATS to a match's owner and its answer.
pub const ROUTED_SECONDS: &str = "crease_cluster_routed_request_duration_seconds";
/// Counter with label `reason`: routed feeds whose sockets were made to resume because a
/// batch may have been lost (`gap`: a batch did not follow on; `link`: this node's NATS link
/// came back; `owner`: the owner's relay fell behind its actor or its own link came back).
pub const ROUTED_RESUMES: &str = "crease_cluster_routed_feed_resumes_total";

/// Counter with label `reason`: work refused to protect the server (`password_busy`: the
/// password pool's queue was full; `spectator_rate`, `spectators_full`: a spectator socket
/// over its limits; `creations_per_address`, `creations_per_player`, `logins_per_address`,
/// `logins_per_name`: a request over that rate limit, answered 429), and sockets ended
/// because their session ended (`session_ended`).
pub const REFUSALS: &str = "crease_refusals_total";

/// Counter with labels `route` (the route's template, `/v1/matches/{id}`; `unmatched` for a
/// path no route has), `method` and `status`: HTTP requests answered.
pub const HTTP_REQUESTS: &str = "crease_http_requests_total";
/// Histogram with label `route`: from a request's arrival to its response head.
pub const HTTP_SECONDS: &str = "crease_http_request_duration_seconds";
/// Gauge: matchmaking tickets still waiting after the latest pass.
pub const MATCHMAKING_WAITING: &str = "crease_matchmaking_waiting_tickets";
/// Histogram: how long a ticket waited before a pass paired it (with players or a bot).
pub const MATCHMAKING_WAIT_SECONDS: &str = "crease_matchmaking_wait_seconds";
/// Gauge: competitions by status (`open`, `running`, `finished`), as of the latest tick.
pub const COMPETITIONS: &str = "crease_competitions";
/// Counter: competitions created, by format (`league`, `knockout`).
pub const COMPETITIONS_CREATED: &str = "crease_competitions_created_total";
/// Counter: competition fixtures whose result was recorded, by format.
pub const COMPETITION_FIXTURES: &str = "crease_competition_fixtures_finished_total";
/// Counter: adjournment steps written, by action (`offered`, `agreed`, `resumed`, ...).
pub const ADJOURNMENTS: &str = "crease_adjournments_total";

const SECONDS_BUCKETS: &[f64] = &[
    0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5,
];
/// A matchmaking wait runs from a fraction of a second to minutes.
const WAIT_BUCKETS: &[f64] = &[
    0.1, 0.5, 1.0, 2.0, 5.0, 10.0, 20.0, 30.0, 60.0, 120.0, 300.0, 600.0,
];
const COUNT_BUCKETS: &[f64] = &[0.0, 1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0, 128.0, 256.0, 512.0];

static HANDLE: OnceLock<Option<PrometheusHandle>> = OnceLock::new();

/// Installs the process-wide recorder (once). `None` if another recorder was installed first.
pub fn install() -> Option<&'static PrometheusHandle> {
    install_for_node(None)
}

/// As [`install`], labelling every series with `node` (a cluster node's id), so the series
/// of several nodes stay apart when one Prometheus scrapes them all. The first call decides.
pub fn install_for_node(node: Option<&str>) -> Option<&'static PrometheusHandle> {
    HANDLE
        .get_or_init(|| {
            let mut builder = PrometheusBuilder::new();
            if let Some(node) = node {
                builder = builder.add_global_label("node", node);
            }
            let builder = builder
                .set_buckets_for_metric(Matcher::Suffix("_seconds".into()), SECONDS_BUCKETS)
                .and_then(|builder| {
                    builder.set_buckets_for_metric(Matcher::Full(DB_GROUP_APPENDS.into()), COUNT_BUCKETS)
                })
                .and_then(|builder| {
                    builder.set_buckets_for_metric(Matcher::Full(MAILBOX_DEPTH.into()), COUNT_BUCKETS)
                })
                // Full names are matched before suffixes, so this overrides `_seconds`.
                .and_then(|builder| {
                    builder
                        .set_buckets_for_metric(Matcher::Full(MATCHMAKING_WAIT_SECONDS.into()), WAIT_BUCKETS)
                });
            match builder.and_then(PrometheusBuilder::install_recorder) {
                Ok(handle) => {
                    describe();
                    Some(handle)
                }
                Err(error) => {
                    tracing::warn!(%error, "metrics recorder not installed; /metrics will be empty");
                    None
                }
            }
        })
        .as_ref()
}

fn describe() {
    metrics::describe_gauge!(LIVE_MATCHES, "Match actors running");
    metrics::describe_gauge!(CONNECTED_SOCKETS, "Open WebSocket sessions");
    metrics::describe_counter!(
        COMMANDS,
        "Commands handled by match actors, by game, type and result"
    );
    metrics::describe_histogram!(
        COMMAND_SECONDS,
        metrics::Unit::Seconds,
        "Actor time per command, engine plus durable write"
    );
    metrics::describe_histogram!(
        DB_WRITE_SECONDS,
        metrics::Unit::Seconds,
        "One journal transaction"
    );
    metrics::describe_histogram!(DB_GROUP_APPENDS, "Actor appends committed per transaction");
    metrics::describe_histogram!(MAILBOX_DEPTH, "Messages queued in an actor mailbox");
    metrics::describe_gauge!(JOURNAL_QUEUE, "Appends waiting for the journal writer");
    metrics::describe_counter!(
        FENCED_WRITES,
        "Journal writes refused: another node had taken the match over"
    );
    metrics::describe_counter!(CLAIMS, "Matches this node took over or was given");
    metrics::describe_counter!(
        HISTORY_READS,
        "Histories read for resumes and live logs, by source: recent (in memory), log (its events folded) or spectator_now (a spectator from before the recent past got the current snapshot)"
    );
    metrics::describe_counter!(
        LOG_REPLAYS,
        "Logs re-run through the engine from the seed: recovery, take-over, verification"
    );
    metrics::describe_histogram!(
        ROUTED_SECONDS,
        metrics::Unit::Seconds,
        "A request routed over NATS to a match's owner node, round trip"
    );
    metrics::describe_counter!(
        ROUTED_RESUMES,
        "Routed feeds whose sockets resumed from the log because a batch may have been lost, by reason: gap, link or owner"
    );
    metrics::describe_counter!(
        REFUSALS,
        "Work refused to protect the server, and sockets ended with their session, by reason"
    );
    metrics::describe_counter!(
        HTTP_REQUESTS,
        "HTTP requests answered, by route template, method and status"
    );
    metrics::describe_histogram!(
        HTTP_SECONDS,
        metrics::Unit::Seconds,
        "From a request's arrival to its response head, by route template"
    );
    metrics::describe_gauge!(
        MATCHMAKING_WAITING,
        "Matchmaking tickets waiting after the latest pass"
    );
    metrics::describe_histogram!(
        MATCHMAKING_WAIT_SECONDS,
        metrics::Unit::Seconds,
        "How long a ticket waited before it was paired"
    );
    metrics::describe_gauge!(COMPETITIONS, "Competitions by status, as of the latest tick");
    metrics::describe_counter!(COMPETITIONS_CREATED, "Competitions created, by format");
    metrics::describe_counter!(
        COMPETITION_FIXTURES,
        "Competition fixtures whose result was recorded, by format"
    );
    metrics::describe_counter!(ADJOURNMENTS, "Adjournment steps written to match logs, by action");
    // Gauges appear at zero before the first match or socket.
    metrics::gauge!(LIVE_MATCHES).set(0.0);
    metrics::gauge!(CONNECTED_SOCKETS).set(0.0);
    metrics::gauge!(JOURNAL_QUEUE).set(0.0);
    metrics::gauge!(MATCHMAKING_WAITING).set(0.0);
}

/// The process's own series (`process_cpu_seconds_total`, `process_resident_memory_bytes`,
/// `process_open_fds`, ...), read from the OS at each scrape by `metrics-process`.
static PROCESS: LazyLock<metrics_process::Collector> = LazyLock::new(|| {
    let collector = metrics_process::Collector::default();
    collector.describe();
    collector
});

/// The metrics in the Prometheus text format (`GET /metrics`, served by `http::health`).
pub fn render() -> String {
    let Some(handle) = install() else {
        return String::new();
    };
    PROCESS.collect();
    handle.render()
}

pub(crate) fn record_db_write(elapsed: Duration, appends: usize, _rows: usize) {
    metrics::histogram!(DB_WRITE_SECONDS).record(elapsed.as_secs_f64());
    metrics::histogram!(DB_GROUP_APPENDS).record(appends as f64);
}

/// Counts a command the actor answered and how long it took.
pub(crate) fn record_command(game: &'static str, kind: String, result: &'static str, elapsed: Duration) {
    metrics::counter!(COMMANDS, "game" => game, "type" => kind, "result" => result).increment(1);
    metrics::histogram!(COMMAND_SECONDS).record(elapsed.as_secs_f64());
}

pub(crate) fn record_history_read(game: &'static str, source: &'static str) {
    metrics::counter!(HISTORY_READS, "game" => game, "source" => source).increment(1);
}

pub(crate) fn record_log_replay(game: &'static str) {
    metrics::counter!(LOG_REPLAYS, "game" => game).increment(1);
}

/// Counts one HTTP request and how long it took to answer.
pub(crate) fn record_http(route: String, method: &str, status: u16, elapsed: Duration) {
    metrics::counter!(HTTP_REQUESTS, "route" => route.clone(), "method" => method.to_string(), "status" => status.to_string())
        .increment(1);
    metrics::histogram!(HTTP_SECONDS, "route" => route).record(elapsed.as_secs_f64());
}

/// A matchmaking pass paired tickets that had waited `waits` and left `waiting` unpaired.
pub(crate) fn record_matchmaking_pass(waits: &[Duration], waiting: usize) {
    for wait in waits {
        metrics::histogram!(MATCHMAKING_WAIT_SECONDS).record(wait.as_secs_f64());
    }
    metrics::gauge!(MATCHMAKING_WAITING).set(waiting as f64);
}

/// Counts one refusal (see [`REFUSALS`] for the reasons).
pub(crate) fn record_refusal(reason: &'static str) {
    metrics::counter!(REFUSALS, "reason" => reason).increment(1);
}

pub(crate) fn record_competition_created(format: &'static str) {
    metrics::counter!(COMPETITIONS_CREATED, "format" => format).increment(1);
}

pub(crate) fn record_fixture_finished(format: &str) {
    metrics::counter!(COMPETITION_FIXTURES, "format" => format.to_string()).increment(1);
}

/// Sets the competitions gauge from `(status, count)` pairs; a status with none reads 0.
pub(crate) fn record_competitions(counts: &[(String, i64)]) {
    for status in ["open", "running", "finished"] {
        let count = counts
            .iter()
            .find(|(name, _)| name == status)
            .map_or(0, |(_, count)| *count);
        metrics::gauge!(COMPETITIONS, "status" => status).set(count as f64);
    }
}

pub(crate) fn record_adjournment(action: &'static str) {
    metrics::counter!(ADJOURNMENTS, "action" => action).increment(1);
}

pub(crate) fn record_fenced_write() {
    metrics::counter!(FENCED_WRITES).increment(1);
}

pub(crate) fn record_claims(count: usize) {
    metrics::counter!(CLAIMS).increment(count as u64);
}

pub(crate) fn record_routed(kind: &'static str, elapsed: Duration) {
    metrics::histogram!(ROUTED_SECONDS, "kind" => kind).record(elapsed.as_secs_f64());
}

pub(crate) fn record_routed_resume(reason: &'static str) {
    metrics::counter!(ROUTED_RESUMES, "reason" => reason).increment(1);
}

/// Holds a gauge up by one while alive (a running actor, an open socket).
pub(crate) struct GaugeGuard(&'static str);

impl GaugeGuard {
    pub(crate) fn new(name: &'static str) -> Self {
        metrics::gauge!(name).increment(1.0);
        GaugeGuard(name)
    }
}

impl Drop for GaugeGuard {
    fn drop(&mut self) {
        metrics::gauge!(self.0).decrement(1.0);
    }
}
