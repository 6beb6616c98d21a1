//! `crease load` against a real server: the report's numbers come from matches actually played
//! to the end, in one process and split over worker processes.

use crate::common;

use clap::Parser;
use common::{Backend, spawn_app_on};
use crease::cli::load::{self, LoadReport, Pace};
use crease::cli::{Cli, Command};
use crease::matches::GameRegistry;

fn args(server: &str, matches: u32) -> load::Args {
    let cli =
        Cli::try_parse_from(["crease", "load", "--server", server, "--pace", "max"]).expect("load parses");
    let Some(Command::Load(mut args)) = cli.command else {
        panic!("not a load command");
    };
    args.matches = matches;
    args
}

/// Every match is played to its result, every ack is counted once, and the latency figures
/// are ordered as percentiles must be.
fn assert_played(report: &LoadReport, matches: u32) {
    assert_eq!(report.matches_started, u64::from(matches), "{report:?}");
    assert_eq!(report.matches_completed, u64::from(matches), "{report:?}");
    assert_eq!(report.errors, 0, "{report:?}");
    // A T10 match takes well over a hundred decisions between the two seats.
    assert!(report.acks >= 100 * u64::from(matches), "{report:?}");
    assert!(report.acks_per_second > 0.0, "{report:?}");
    let latency = report.latency;
    assert!(latency.p50_ms > 0.0, "{report:?}");
    assert!(
        latency.p50_ms <= latency.p90_ms && latency.p90_ms <= latency.p99_ms,
        "{report:?}"
    );
    assert!(latency.p99_ms <= latency.max_ms, "{report:?}");
}

#[tokio::test]
async fn max_pace_plays_every_match_to_the_end_and_counts_its_acks() {
    let app = spawn_app_on(Backend::Sqlite, GameRegistry::standard())
        .await
        .expect("sqlite");
    let (report, histogram) = load::load(&args(&app.base, 3)).await.expect("load runs");
    assert_played(&report, 3);
    assert_eq!(histogram.len(), report.acks, "one latency sample per ack");
    // The server agrees: three finished matches, with every acked command in their logs.
    let (_, history) = app.get("/v1/matches?status=finished", None).await;
    let finished = history["matches"].as_array().map_or(0, Vec::len);
    assert_eq!(finished, 3, "{history}");
    app.stop().await;
}

#[tokio::test]
async fn workers_split_the_matches_and_their_reports_are_merged() {
    let app = spawn_app_on(Backend::Sqlite, GameRegistry::standard())
        .await
        .expect("sqlite");
    // tokio's Command: the server runs on this test's runtime and must keep serving meanwhile.
    let output = tokio::process::Command::new(env!("CARGO_BIN_EXE_crease"))
        .args(["load", "--server", &app.base, "--pace", "max", "--matches", "3"])
        .args(["--workers", "2", "--json"])
        .output()
        .await
        .expect("crease load runs");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let raw: serde_json::Value = serde_json::from_slice(&output.stdout).expect("one JSON report");
    for key in ["acks_per_second", "p50_ms", "p99_ms", "errors"] {
        assert!(raw[key].is_number(), "{key} is a top-level number in {raw}");
    }
    let report: LoadReport = serde_json::from_value(raw).expect("a load report");
    assert_eq!(report.workers, 2);
    assert_eq!(report.pace, "max");
    assert_played(&report, 3);
    app.stop().await;
}

#[tokio::test]
async fn an_unreachable_server_is_reported_as_errors_not_a_hang() {
    // Nothing listens on port 9 (discard) here; every match fails during setup.
    let mut args = args("http://127.0.0.1:9", 2);
    args.duration = Some(30);
    let started = std::time::Instant::now();
    let (report, _) = load::load(&args).await.expect("the run itself completes");
    assert_eq!(report.errors, 2, "{report:?}");
    assert_eq!(report.matches_started, 0);
    assert_eq!(report.acks, 0);
    assert!(
        started.elapsed() < std::time::Duration::from_secs(20),
        "setup failures must end the run"
    );
    assert!(matches!(args.pace, Pace::Max));
}

#[tokio::test]
async fn repeated_server_urls_share_the_players_and_the_summary_counts_each_urls_sockets() {
    let app = spawn_app_on(Backend::Sqlite, GameRegistry::standard())
        .await
        .expect("sqlite");
    // Two single-node servers cannot share matches, so this is one server under two
    // spellings: the load tool sees two URLs and must place each match's seats on both.
    let by_name = app.base.replacen("127.0.0.1", "localhost", 1);
    assert_ne!(by_name, app.base, "the base URL names 127.0.0.1: {}", app.base);
    let output = tokio::process::Command::new(env!("CARGO_BIN_EXE_crease"))
        .args(["load", "--server", &app.base, "--url", &by_name])
        .args(["--pace", "max", "--matches", "3"])
        .output()
        .await
        .expect("crease load runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(stdout.contains("3 of 3 matches started, 3 completed"), "{stdout}");
    assert!(stdout.contains("errors 0  "), "{stdout}");
    let per_url = stdout
        .lines()
        .find_map(|line| line.strip_prefix("sockets per URL: "))
        .unwrap_or_else(|| panic!("no per-URL line in {stdout}"));
    let counts: Vec<(&str, u64)> = per_url
        .split("  ")
        .map(|entry| {
            let (url, count) = entry.rsplit_once(' ').expect("URL and count");
            (url, count.parse().expect("a count"))
        })
        .collect();
    let urls: Vec<&str> = counts.iter().map(|(url, _)| *url).collect();
    assert_eq!(urls, [app.base.as_str(), by_name.as_str()], "{stdout}");
    // Each match puts one seat on each URL: at least one socket per match on both (more if
    // a seat had to reconnect).
    assert!(counts.iter().all(|(_, sockets)| *sockets >= 3), "{stdout}");
    app.stop().await;
}

#[tokio::test]
async fn the_acks_file_has_one_line_per_ack_and_each_is_in_its_matchs_log() {
    let app = spawn_app_on(Backend::Sqlite, GameRegistry::standard())
        .await
        .expect("sqlite");
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("acks.jsonl");
    let mut args = args(&app.base, 2);
    args.acks_file = Some(path.clone());
    args.reconnect_for = Some(10);
    let (report, _) = load::load(&args).await.expect("load runs");
    assert_played(&report, 2);
    let text = std::fs::read_to_string(&path).expect("the acks file");
    let lines: Vec<load::AckLine> = text
        .lines()
        .map(|line| serde_json::from_str(line).expect("one ack per line"))
        .collect();
    // The file has every ack of the run; the report only those after setup.
    assert!(
        lines.len() as u64 >= report.acks,
        "{} < {}",
        lines.len(),
        report.acks
    );
    let matches: std::collections::BTreeSet<&str> = lines.iter().map(|line| line.match_id.as_str()).collect();
    assert_eq!(matches.len(), 2, "{matches:?}");
    for match_id in matches {
        let (status, log) = app.get(&format!("/v1/matches/{match_id}/log"), None).await;
        assert_eq!(status, 200, "{log}");
        let entries = log["entries"].as_array().expect("entries");
        for line in lines.iter().filter(|line| line.match_id == match_id) {
            assert!(line.sent_ms <= line.acked_ms, "{line:?}");
            assert_eq!(line.connection, 1, "no socket dropped: {line:?}");
            // The last command at or before the ack's seq is the one the seat sent.
            let command = entries
                .iter()
                .rev()
                .find(|entry| entry["kind"] == "command" && entry["seq"].as_i64() <= Some(line.last_seq))
                .unwrap_or_else(|| panic!("no command at or before {line:?}"));
            assert_eq!(command["payload"]["command"], line.command, "{line:?}");
            assert_eq!(
                command["payload"]["seat"].as_u64(),
                line.seat.map(u64::from),
                "{line:?}"
            );
            assert!(
                entries
                    .iter()
                    .any(|entry| entry["seq"].as_i64() == Some(line.last_seq)),
                "{line:?}"
            );
        }
    }
    app.stop().await;
}
