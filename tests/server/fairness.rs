//! Verification: a finished match re-derives from its seed; a tampered log does not.

use crate::common;

use common::toy::Toy;
use common::{spawn_app, toy_games};
use serde_json::json;

#[tokio::test]
async fn verify_is_ok_for_an_honest_log_and_names_the_first_tampered_seq() {
    let app = spawn_app(toy_games()).await;
    let (info, home, away) = app.live_match("toy", json!({ "rounds": 3 })).await;
    let id = info.match_id.clone();
    let mut home_client = app.connect(&id, Some(&home.token), None).await;
    let mut away_client = app.connect(&id, Some(&away.token), None).await;
    tokio::join!(
        home_client.play_to_end::<Toy>(1),
        away_client.play_to_end::<Toy>(2)
    );

    let (_, verify) = app.get(&format!("/v1/matches/{id}/verify"), None).await;
    assert_eq!(verify["status"], "ok", "{verify}");
    let report = crease::cli::verify::verify(app.db.url(), &common::match_id(&id), &toy_games())
        .await
        .expect("verify");
    assert!(
        matches!(report, crease::fairness::VerifyReport::Ok { .. }),
        "{report:?}"
    );

    // Change the die of the second reveal. The log is append-only, so a tamperer has to
    // drop the guard first.
    let log = app.app().store().log(&common::match_id(&id)).await.expect("log");
    let reveal = log
        .iter()
        .filter(|entry| entry.payload["type"] == "revealed")
        .nth(1)
        .expect("a second reveal");
    let refused = app
        .app()
        .store()
        .execute_unchecked(&format!(
            "UPDATE match_event SET payload = '{{}}' WHERE match_id = '{id}'"
        ))
        .await;
    assert!(refused.is_err(), "match_event must refuse updates");
    let mut forged = reveal.payload.clone();
    let roll = forged["roll"].as_u64().unwrap_or(1);
    forged["roll"] = json!(roll % 6 + 1);
    let sql = format!(
        "DROP TRIGGER match_event_append_only_update; \
         UPDATE match_event SET payload = '{forged}' WHERE match_id = '{id}' AND seq = {};",
        reveal.seq
    );
    app.app().store().execute_unchecked(&sql).await.expect("tamper");

    let (_, verify) = app.get(&format!("/v1/matches/{id}/verify"), None).await;
    assert_eq!(verify["status"], "mismatch", "{verify}");
    assert_eq!(verify["seq"], reveal.seq);
    let report = crease::cli::verify::verify(app.db.url(), &common::match_id(&id), &toy_games())
        .await
        .expect("verify");
    assert_eq!(
        report,
        crease::fairness::VerifyReport::Mismatch {
            seq: reveal.seq,
            reason: verify["reason"].as_str().unwrap_or_default().to_string()
        }
    );
    app.stop().await;
}

#[tokio::test]
async fn the_seed_is_secret_while_live_and_verify_waits_for_the_end() {
    let app = spawn_app(toy_games()).await;
    let (info, _, _) = app.live_match("toy", json!({})).await;
    let (_, shown) = app.get(&format!("/v1/matches/{}", info.match_id), None).await;
    assert_eq!(shown["seed"], serde_json::Value::Null);
    assert_eq!(shown["seed_commitment"].as_str().map(str::len), Some(64));
    let (_, verify) = app
        .get(&format!("/v1/matches/{}/verify", info.match_id), None)
        .await;
    assert_eq!(verify["status"], "not_finished");
    app.stop().await;
}

/// The replay behind verify and recovery names the first entry that does not fit, for each
/// way a log can be wrong.
#[test]
fn replay_names_the_first_entry_that_does_not_fit() {
    use common::toy::{ToyCommand, ToyOptions};
    use crease::fairness::replay;
    use crease::record::{CommandRecord, CommandSource};
    use crease::record::{EntryKind, LogEntry};
    use crease::rules::{MatchCore, Seat, Seed};

    let seed = Seed::from_u64(42);
    let options = ToyOptions { rounds: 1 };
    // An honest log, built by running the game.
    let mut core = MatchCore::<Toy>::new(&options, &seed).expect("setup");
    let mut log = Vec::new();
    let mut push = |kind: EntryKind, payload: serde_json::Value| {
        let seq = log.len() as i64 + 1;
        log.push(LogEntry {
            seq,
            at: chrono::Utc::now(),
            kind,
            payload,
        });
    };
    for event in core.start() {
        push(EntryKind::Event, serde_json::to_value(event).expect("json"));
    }
    for (seat, value) in [(0u8, 2u8), (1, 3)] {
        let command = ToyCommand::Pick { value };
        let record = CommandRecord {
            seat: Seat(seat),
            source: CommandSource::Player,
            command: serde_json::to_value(&command).expect("json"),
        };
        push(EntryKind::Command, serde_json::to_value(record).expect("json"));
        for event in core.submit(Seat(seat), &command).expect("legal").events {
            push(EntryKind::Event, serde_json::to_value(event).expect("json"));
        }
    }
    let replayed = replay::<Toy>(&options, &seed, &log, |_, _, _| {}).expect("an honest log replays");
    assert_eq!((replayed.commands, replayed.events, replayed.last_seq), (2, 4, 6));

    let fails_at = |log: &[LogEntry]| {
        replay::<Toy>(&options, &seed, log, |_, _, _| {})
            .err()
            .map(|m| m.seq)
    };
    // A missing last event.
    assert_eq!(fails_at(&log[..5]), Some(6));
    // A gap in seq.
    let mut gap = log.clone();
    gap.remove(2);
    assert_eq!(fails_at(&gap), Some(4));
    // Another seed gives other dice: the start's toss differs at seq 1 (or the reveal's roll).
    let other = replay::<Toy>(&options, &Seed::from_u64(43), &log, |_, _, _| {})
        .err()
        .map(|m| m.seq);
    assert!(matches!(other, Some(1) | Some(6)), "{other:?}");
    // A command the engine refuses (seq 4 rewritten so seat 0 picks twice).
    let mut refused = log.clone();
    refused[3].payload["seat"] = serde_json::json!(0);
    assert_eq!(fails_at(&refused), Some(4));
    // An event changed in place (seat 1's sealed pick).
    let mut forged = log.clone();
    forged[4].payload["value"] = serde_json::json!(1);
    assert_eq!(fails_at(&forged), Some(5));
    // An extra event nobody produced.
    let mut extra = log.clone();
    extra.push(LogEntry {
        seq: 7,
        ..log[5].clone()
    });
    assert_eq!(fails_at(&extra), Some(7));
}
