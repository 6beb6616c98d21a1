//! No sealed value of a match reaches the log at any level, `trace` included, through the
//! server's own subscriber ([`crease::logging::subscriber`]) with the `log` crate bridged as
//! in production. Alone in its binary: it installs the process-wide subscriber.

mod common;

use common::{Captured, spawn_app};
use crease::logging::{LogFormat, subscriber};
use crease::matches::GameRegistry;
use crease::rules::ctg::Ctg;
use serde_json::{Value, json};

/// The commands CTG keeps sealed until their reveal.
const SEALED: [&str; 4] = ["select_squad", "bowl", "shot", "run"];

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_whole_match_at_trace_level_logs_no_sealed_choice_and_no_seed() {
    let captured = Captured::default();
    let writer = captured.clone();
    // `tungstenite=trace` asks explicitly for the payload-printing target: it must stay capped.
    let filter = tracing_subscriber::EnvFilter::new("trace,tungstenite=trace,tokio_tungstenite=trace");
    let format = LogFormat {
        json: false,
        ansi: false,
    };
    tracing_subscriber::util::SubscriberInitExt::try_init(subscriber(filter, format, move || writer.clone()))
        .expect("the only subscriber of this test binary");

    let app = spawn_app(GameRegistry::standard()).await;
    let (info, home, away) = app.live_match("ctg", json!({ "format": "t10" })).await;
    let id = info.match_id.clone();
    let mut home_client = app.connect(&id, Some(&home.token), None).await;
    let mut away_client = app.connect(&id, Some(&away.token), None).await;
    let (home_result, away_result) = tokio::join!(
        home_client.play_to_end::<Ctg>(21),
        away_client.play_to_end::<Ctg>(22)
    );
    assert_eq!(home_result, away_result);
    let (_, finished) = app.get(&format!("/v1/matches/{id}"), None).await;
    let seed = finished["seed"]
        .as_str()
        .expect("the seed, once finished")
        .to_string();
    let (_, log) = app.get(&format!("/v1/matches/{id}/log"), None).await;
    app.stop().await;

    let sealed: Vec<String> = log["entries"]
        .as_array()
        .expect("log entries")
        .iter()
        .filter(|entry| entry["kind"] == "command")
        .map(|entry| &entry["payload"]["command"])
        .filter(|command| SEALED.iter().any(|kind| command["type"] == *kind))
        .map(|command: &Value| serde_json::to_string(command).expect("encode"))
        .collect();
    assert!(
        sealed.len() > 50,
        "a T10 match seals many choices: {}",
        sealed.len()
    );

    let logs = captured.text();
    assert!(logs.contains(" TRACE "), "the trace level was really on");
    assert!(logs.contains(&id), "the match was logged at all");
    for command in &sealed {
        assert!(
            !logs.contains(command.as_str()),
            "a sealed command was logged: {command}"
        );
    }
    assert!(!logs.contains(&seed), "the seed was logged");
    for token in [&home.token, &away.token] {
        assert!(!logs.contains(token.as_str()), "a token was logged");
    }
    for line in logs.lines() {
        assert!(
            !(line.contains(" TRACE tungstenite") || line.contains(" TRACE tokio_tungstenite")),
            "a payload-printing line got through: {line}"
        );
    }
}
