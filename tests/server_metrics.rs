//! Performance plumbing seen from outside: every ack still means "on disk" now that the
//! journal group-commits many matches' appends, and `/metrics` exposes each metric the
//! operators' dashboards read.

mod common;

use common::{Backend, Client, TestApp, spawn_app_on, toy_games};
use crease::protocol::ServerMessage;
use crease::store::Store;
use serde_json::json;

/// Log rows of `match_id` with `seq <= last_seq`, read on the app's pool (not via the actor).
async fn durable_rows(store: &Store, match_id: &str, last_seq: i64) -> i64 {
    const SQL: &str = "SELECT count(*) FROM match_event WHERE match_id = $1 AND seq <= $2";
    match store {
        Store::Sqlite(pool) => {
            sqlx::query_scalar(SQL)
                .bind(match_id)
                .bind(last_seq)
                .fetch_one(pool)
                .await
        }
        Store::Postgres(pool) => {
            sqlx::query_scalar(SQL)
                .bind(match_id)
                .bind(last_seq)
                .fetch_one(pool)
                .await
        }
    }
    .expect("count the log")
}

/// Sends `pick` and returns the ack's `last_seq`, or the error code if refused.
async fn pick(client: &mut Client, value: u8) -> Result<i64, String> {
    let id = client.command(json!({ "type": "pick", "value": value })).await;
    loop {
        match client.recv().await {
            ServerMessage::Ack { id: got, last_seq } if got == id => return Ok(last_seq),
            ServerMessage::Error(error) if error.id.as_deref() == Some(id.as_str()) => {
                return Err(error.code.as_str().to_string());
            }
            _ => continue,
        }
    }
}

/// Plays a 3-round toy match in each of several concurrent matches (so their appends share
/// commits) and checks, at every ack, that all entries up to the acked seq are already in
/// the database. Seqs start at 1 and have no gaps, so the count must equal `last_seq`.
async fn acks_follow_commits(app: TestApp) {
    let mut games = Vec::new();
    for _ in 0..4 {
        let (info, home, away) = app.live_match("toy", json!({ "rounds": 3 })).await;
        let home = app.connect(&info.match_id, Some(&home.token), None).await;
        let away = app.connect(&info.match_id, Some(&away.token), None).await;
        games.push((info.match_id, home, away));
    }
    let store = app.app().store().clone();
    let plays = games.into_iter().map(|(match_id, mut home, mut away)| {
        let store = store.clone();
        async move {
            let mut acks = 0;
            for round in 0..3u8 {
                for client in [&mut home, &mut away] {
                    let last_seq = pick(client, 1 + round % 3).await.expect("a legal pick");
                    assert!(last_seq > 0);
                    let rows = durable_rows(&store, &match_id, last_seq).await;
                    assert_eq!(
                        rows, last_seq,
                        "acked seq {last_seq} of {match_id} was not durable"
                    );
                    acks += 1;
                }
            }
            acks
        }
    });
    let acks: Vec<usize> = futures_util::future::join_all(plays).await;
    assert_eq!(acks, vec![6; 4]);
    app.stop().await;
}

common::sqlite_and_postgres! {
    every_ack_is_durable_under_group_commit(backend) {
        let Some(app) = spawn_app_on(backend, toy_games()).await else {
            return;
        };
        acks_follow_commits(app).await;
    }
}

/// The value of the first sample line that starts with `prefix` (name plus labels).
fn sample(text: &str, prefix: &str) -> Option<f64> {
    text.lines()
        .filter(|line| !line.starts_with('#'))
        .find(|line| line.starts_with(prefix))
        .and_then(|line| line.rsplit(' ').next())
        .and_then(|value| value.parse().ok())
}

#[tokio::test]
async fn metrics_exposes_every_operational_metric() {
    let app = spawn_app_on(Backend::Sqlite, toy_games()).await.expect("sqlite");
    let (info, home, away) = app.live_match("toy", json!({ "rounds": 3 })).await;
    let mut home = app.connect(&info.match_id, Some(&home.token), None).await;
    let mut away = app.connect(&info.match_id, Some(&away.token), None).await;
    assert!(pick(&mut home, 2).await.is_ok());
    assert_eq!(pick(&mut away, 9).await, Err("illegal_move".to_string()));
    assert!(pick(&mut away, 3).await.is_ok());

    let response = app
        .http
        .get(format!("{}/metrics", app.base))
        .send()
        .await
        .expect("scrape");
    assert_eq!(response.status(), 200);
    let text = response.text().await.expect("body");
    // Other tests in this binary share the process-wide recorder, so counts are lower bounds.
    assert!(
        sample(&text, "crease_live_matches").is_some_and(|n| n >= 1.0),
        "{text}"
    );
    assert!(
        sample(&text, "crease_connected_sockets").is_some_and(|n| n >= 2.0),
        "{text}"
    );
    let ok = "crease_commands_total{game=\"toy\",type=\"pick\",result=\"ok\"}";
    assert!(sample(&text, ok).is_some_and(|n| n >= 2.0), "{text}");
    let illegal = "crease_commands_total{game=\"toy\",type=\"pick\",result=\"illegal_move\"}";
    assert!(sample(&text, illegal).is_some_and(|n| n >= 1.0), "{text}");
    for histogram in [
        "crease_command_duration_seconds",
        "crease_db_write_duration_seconds",
        "crease_db_group_appends",
        "crease_actor_mailbox_depth",
    ] {
        let count = sample(&text, &format!("{histogram}_count"));
        assert!(
            count.is_some_and(|n| n >= 1.0),
            "{histogram}_count missing:\n{text}"
        );
        assert!(
            text.contains(&format!("{histogram}_bucket{{le=")),
            "{histogram} has no buckets"
        );
    }
    assert!(sample(&text, "crease_journal_queue_depth").is_some(), "{text}");
    app.stop().await;
}

/// What a host needs from `/metrics` beside the game's own series (issue 28): HTTP requests
/// by route template and status with their latency, refusals by the limit that refused, the
/// matchmaking queue and its waits, and the process itself (CPU, memory, open files). The
/// recorder is shared by every test of this binary, so counters are compared before/after.
#[tokio::test]
async fn metrics_count_requests_by_route_refusals_by_limit_the_queue_and_the_process() {
    use common::{metric, spawn_app_with};
    let app = spawn_app_with(Backend::Sqlite, toy_games(), |config| {
        config.abuse.rate_limit_ip_burst = 4;
        config.abuse.rate_limit_ip_per_minute = 1;
    })
    .await
    .expect("sqlite");
    let count =
        |name: &'static str, filters: &'static [&'static str]| metric(&app.http, &app.base, name, filters);

    let route = &["route=\"/v1/matches/{id}\"", "method=\"GET\"", "status=\"404\""][..];
    let before = count("crease_http_requests_total", route).await;
    let (status, _) = app
        .get(&format!("/v1/matches/{}", uuid::Uuid::new_v4()), None)
        .await;
    assert_eq!(status, 404);
    assert_eq!(
        count("crease_http_requests_total", route).await,
        before + 1.0,
        "one series per template"
    );
    assert!(
        count(
            "crease_http_request_duration_seconds_count",
            &["route=\"/v1/matches/{id}\""]
        )
        .await
            >= 1.0
    );

    // Two players and their tickets (four creations from this address): paired at once.
    let waits_before = count("crease_matchmaking_wait_seconds_count", &[]).await;
    for name in ["mm-home", "mm-away"] {
        let player = app.player(name).await;
        let (status, body) = app
            .post(
                "/v1/matchmaking/tickets",
                Some(&player.token),
                serde_json::json!({ "game": "toy" }),
            )
            .await;
        assert!(status == 201 || status == 200, "{status} {body}");
    }
    assert!(
        count("crease_matchmaking_wait_seconds_count", &[]).await >= waits_before + 2.0,
        "both paired tickets' waits are recorded"
    );
    assert!(count("crease_matchmaking_waiting_tickets", &[]).await >= 0.0);

    // The fifth creation is over the address's burst: refused, and counted as such.
    let refused = &["reason=\"creations_per_address\""][..];
    let before = count("crease_refusals_total", refused).await;
    let (status, _) = app
        .post("/v1/players", None, serde_json::json!({ "name": "one too many" }))
        .await;
    assert_eq!(status, 429);
    assert_eq!(count("crease_refusals_total", refused).await, before + 1.0);

    for series in [
        "process_resident_memory_bytes",
        "process_open_fds",
        "process_max_fds",
    ] {
        assert!(count(series, &[]).await > 0.0, "{series}");
    }
    // Whole seconds of CPU, so a young test process may show 0: present is what counts.
    let text = app
        .http
        .get(format!("{}/metrics", app.base))
        .send()
        .await
        .expect("GET");
    let text = text.text().await.expect("text");
    assert!(
        text.lines()
            .any(|line| line.starts_with("process_cpu_seconds_total ")),
        "no CPU series"
    );
    app.stop().await;
}

/// Issue 29's series: competitions created (by format) and held (by status), and the steps
/// of adjourning a match (by action).
#[tokio::test]
async fn metrics_count_competitions_and_adjournments() {
    use common::metric;
    let app = spawn_app_on(Backend::Sqlite, toy_games()).await.expect("sqlite");
    let created = |app: &TestApp| {
        let (http, base) = (app.http.clone(), app.base.clone());
        async move {
            metric(
                &http,
                &base,
                "crease_competitions_created_total",
                &["format=\"league\""],
            )
            .await
        }
    };
    let before = created(&app).await;
    let ana = app.player("ana").await;
    let body = json!({ "name": "Metrics league", "game": "toy", "format": "league" });
    let (status, made) = app.post("/v1/competitions", Some(&ana.token), body).await;
    assert_eq!(status, 201, "{made}");
    assert_eq!(created(&app).await, before + 1.0);
    // The gauge is set by the competitions' ticker (every 2 s).
    let mut open = 0.0;
    for _ in 0..50 {
        open = metric(&app.http, &app.base, "crease_competitions", &["status=\"open\""]).await;
        if open >= 1.0 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    assert!(open >= 1.0, "crease_competitions{{status=\"open\"}} = {open}");

    let steps = |action: &'static str| {
        let (http, base) = (app.http.clone(), app.base.clone());
        async move {
            metric(
                &http,
                &base,
                "crease_adjournments_total",
                &[&format!("action=\"{action}\"")],
            )
            .await
        }
    };
    let (offered, agreed) = (steps("offered").await, steps("agreed").await);
    let (info, home, away) = app.live_match("toy", json!({ "rounds": 3 })).await;
    let mut home = app.connect(&info.match_id, Some(&home.token), None).await;
    let mut away = app.connect(&info.match_id, Some(&away.token), None).await;
    home.recv().await;
    away.recv().await;
    let offer = home.adjourn("offer", None).await;
    assert!(matches!(home.answer(&offer).await, ServerMessage::Ack { .. }));
    let accept = away.adjourn("accept", None).await;
    assert!(matches!(away.answer(&accept).await, ServerMessage::Ack { .. }));
    assert_eq!(steps("offered").await, offered + 1.0);
    assert_eq!(steps("agreed").await, agreed + 1.0);
    app.stop().await;
}

/// Every metric name that deploy/prometheus/alerts.yml and deploy/grafana/crease-dashboard.json
/// use (`crease_*`, `process_*`) is a series this server exports, and every label a selector
/// there names is one the series carries: a renamed metric or label would otherwise leave an
/// alert silently never firing and a panel silently empty. The names come from a scrape of a
/// server after the traffic that makes each series appear; only the cluster's series, which
/// a single node never records, are taken from their constants in `crease::telemetry`.
#[tokio::test]
async fn deploy_files_name_only_exported_series() {
    use common::spawn_app_with;
    use std::collections::{BTreeMap, BTreeSet};

    let app = spawn_app_with(Backend::Sqlite, toy_games(), |config| {
        config.abuse.rate_limit_ip_burst = 10;
        config.abuse.rate_limit_ip_per_minute = 1;
    })
    .await
    .expect("sqlite");

    // A match played to its end: commands, journal writes, mailboxes, a live log read (a
    // history read) and a verification (a log replay).
    let (info, home, away) = app.live_match("toy", json!({ "rounds": 1 })).await;
    let path = format!("/v1/matches/{}", info.match_id);
    assert_eq!(app.get(&format!("{path}/log"), Some(&home.token)).await.0, 200);
    let mut home_socket = app.connect(&info.match_id, Some(&home.token), None).await;
    let mut away_socket = app.connect(&info.match_id, Some(&away.token), None).await;
    assert!(pick(&mut home_socket, 2).await.is_ok());
    assert!(pick(&mut away_socket, 3).await.is_ok());
    let (status, verified) = app.get(&format!("{path}/verify"), None).await;
    assert_eq!(status, 200, "{verified}");
    // Probes, as HAProxy and the compose health check send them.
    assert_eq!(app.get("/readyz", None).await.0, 200);
    // Two tickets paired at once: a matchmaking wait.
    for name in ["deploy-home", "deploy-away"] {
        let player = app.player(name).await;
        let (status, body) = app
            .post(
                "/v1/matchmaking/tickets",
                Some(&player.token),
                json!({ "game": "toy" }),
            )
            .await;
        assert!(status == 201 || status == 200, "{status} {body}");
    }
    // Creations from this address until its burst is spent: a refusal.
    let mut refused = false;
    for attempt in 0..20 {
        let (status, _) = app
            .post("/v1/players", None, json!({ "name": format!("burst {attempt}") }))
            .await;
        if status == 429 {
            refused = true;
            break;
        }
    }
    assert!(refused, "the address's burst was never spent");

    let text = app
        .http
        .get(format!("{}/metrics", app.base))
        .send()
        .await
        .expect("scrape")
        .text()
        .await
        .expect("metrics text");
    // Series name -> the label names its samples carry.
    let mut exported: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for line in text
        .lines()
        .filter(|line| !line.starts_with('#') && !line.is_empty())
    {
        let (name, rest) = line.split_at(line.find(['{', ' ']).unwrap_or(line.len()));
        let labels = exported.entry(name.to_string()).or_default();
        if let Some(inside) = rest.strip_prefix('{').and_then(|rest| rest.split_once('}')) {
            labels.extend(
                inside
                    .0
                    .split(',')
                    .filter_map(|pair| Some(pair.split_once('=')?.0.to_string())),
            );
        }
    }
    // Recorded only by cluster nodes (NATS and a takeover needed), so no scrape of a single
    // node has them: the server's own names stand in. Histograms export three series each.
    let cluster_only: BTreeSet<String> = [
        crease::telemetry::FENCED_WRITES,
        crease::telemetry::CLAIMS,
        crease::telemetry::ROUTED_RESUMES,
    ]
    .into_iter()
    .map(str::to_string)
    .chain(
        ["_bucket", "_sum", "_count"]
            .into_iter()
            .map(|suffix| format!("{}{suffix}", crease::telemetry::ROUTED_SECONDS)),
    )
    .collect();

    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut used = BTreeSet::new();
    let mut unknown = Vec::new();
    for file in [
        "deploy/prometheus/alerts.yml",
        "deploy/grafana/crease-dashboard.json",
    ] {
        let source = std::fs::read_to_string(root.join(file)).expect("a deploy file");
        // The JSON escapes the quotes of label values; unescaped, both files read alike.
        let source = source.replace("\\\"", "\"");
        let mut rest = source.as_str();
        while let Some(start) = rest.find(|c: char| c.is_ascii_alphabetic() || c == '_') {
            let token_len = rest[start..]
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .unwrap_or(rest.len() - start);
            let name = &rest[start..start + token_len];
            let after = &rest[start + token_len..];
            rest = after;
            if !(name.starts_with("crease_") || name.starts_with("process_")) {
                continue;
            }
            used.insert(name.to_string());
            // A histogram's family name (prose names `crease_db_write_duration_seconds`) is
            // exported as its `_bucket`, `_sum` and `_count` series.
            let family = format!("{name}_bucket");
            let Some(labels) = exported.get(name).or_else(|| exported.get(&family)) else {
                if !cluster_only.contains(name) && !cluster_only.contains(&family) {
                    unknown.push(format!("{file}: {name} is not exported"));
                }
                continue;
            };
            // The selector's label names (`{route="/readyz",status!="200"}`); Prometheus adds
            // `instance` and `job` at the scrape.
            let Some(selector) = after.strip_prefix('{').and_then(|after| after.split_once('}')) else {
                continue;
            };
            for matcher in selector.0.split(',') {
                let label = matcher.split(['=', '!']).next().unwrap_or_default().trim();
                if !label.is_empty() && !["instance", "job"].contains(&label) && !labels.contains(label) {
                    unknown.push(format!("{file}: {name} has no label {label}"));
                }
            }
        }
    }
    assert!(unknown.is_empty(), "{unknown:#?}\nexported: {exported:#?}");
    // The scan found the files' series (a broken scan would pass on nothing).
    for name in [
        "crease_http_requests_total",
        "crease_command_duration_seconds_bucket",
        "crease_journal_queue_depth",
        "crease_refusals_total",
        "crease_matchmaking_wait_seconds_bucket",
        "process_resident_memory_bytes",
        "process_open_fds",
        "crease_cluster_fenced_writes_total",
    ] {
        assert!(
            used.contains(name),
            "{name} not found in the deploy files: {used:?}"
        );
    }
    app.stop().await;
}
