//! Backups: `crease backup` copies the SQLite database while matches are being played, and
//! the copy restores: a server started on it verifies every match that was finished, and
//! plays the matches that were live on to their end from where the copy left them.

use crate::common;

use common::toy::Toy;
use common::{TestApp, TestDb, spawn_app, toy_games};
use crease::cli::backup::backup;
use crease::config::ServeConfig;
use crease::record::EntryKind;
use serde_json::json;

#[tokio::test]
async fn a_backup_taken_during_play_restores_and_every_finished_match_verifies() {
    let app = spawn_app(toy_games()).await;
    // Three finished matches.
    for seed in 0..3 {
        let (info, home, away) = app.live_match("toy", json!({ "rounds": 3 })).await;
        let mut home = app.connect(&info.match_id, Some(&home.token), None).await;
        let mut away = app.connect(&info.match_id, Some(&away.token), None).await;
        tokio::join!(home.play_to_end::<Toy>(seed), away.play_to_end::<Toy>(seed + 10));
    }
    // Two long matches played while the backup runs.
    let mut playing = Vec::new();
    let mut live = Vec::new();
    for seed in 0..2 {
        let (info, home, away) = app.live_match("toy", json!({ "rounds": 60 })).await;
        let mut home_socket = app.connect(&info.match_id, Some(&home.token), None).await;
        let mut away_socket = app.connect(&info.match_id, Some(&away.token), None).await;
        playing.push(tokio::spawn(async move {
            tokio::join!(
                home_socket.play_to_end::<Toy>(100 + seed),
                away_socket.play_to_end::<Toy>(200 + seed)
            );
        }));
        live.push((info.match_id, home, away));
    }
    // Wait until both have moved on, so the copy catches them in the middle.
    let store = app.app().store();
    for (id, _, _) in &live {
        let id = common::match_id(id);
        while store.log(&id).await.expect("log").len() < 10 {
            tokio::time::sleep(std::time::Duration::from_millis(5)).await;
        }
    }
    let folder = tempfile::tempdir().expect("a temporary folder");
    let out = folder.path().join("backup.db");
    let summary = backup(app.db.url(), &out, true, &toy_games())
        .await
        .expect("the backup");
    assert_eq!(summary.verified, summary.finished);
    assert!(summary.finished >= 3, "{summary:?}");
    assert!(summary.bytes > 0);
    let again = backup(app.db.url(), &out, true, &toy_games()).await;
    assert!(
        again.is_err_and(|error| error.to_string().contains("never overwrites")),
        "a second backup to the same file is refused"
    );
    for task in playing {
        task.await
            .expect("the live matches finish on the original server");
    }

    // Restored: a server on the copy.
    let restored_folder = tempfile::tempdir().expect("a temporary folder");
    let restored_path = restored_folder.path().join("crease.db");
    std::fs::copy(&out, &restored_path).expect("restore the copy");
    let url = format!("sqlite://{}", restored_path.display());
    let restored = TestApp::launch(
        TestDb::Sqlite {
            _dir: restored_folder,
            url: url.clone(),
        },
        ServeConfig::for_database(&url),
        toy_games(),
    )
    .await;
    let original = app.app().store();
    let copy = restored.app().store();
    let mut went_on = 0;
    for (id, home, away) in &live {
        let match_id = common::match_id(id);
        let (copied, whole) = (
            copy.log(&match_id).await.expect("the copy's log"),
            original.log(&match_id).await.expect("the original log"),
        );
        assert!(
            !copied.is_empty() && copied.len() < whole.len(),
            "the copy caught {id} in the middle: {} of {} entries",
            copied.len(),
            whole.len()
        );
        assert_eq!(
            copied[..],
            whole[..copied.len()],
            "the copy of {id}'s log is a prefix of the original"
        );
        // The copy knows the players' tokens: they carry on where the copy left the match.
        let mut home_socket = restored.connect(id, Some(&home.token), None).await;
        let mut away_socket = restored.connect(id, Some(&away.token), None).await;
        tokio::join!(
            home_socket.play_to_end::<Toy>(300),
            away_socket.play_to_end::<Toy>(400)
        );
        let finished = copy.log(&match_id).await.expect("log");
        assert!(finished.len() > copied.len());
        assert!(finished.iter().any(|entry| entry.kind == EntryKind::Event));
        went_on += 1;
    }
    assert_eq!(went_on, 2);
    let (_, list) = restored.get("/v1/matches?status=finished", None).await;
    let finished: Vec<String> = list["matches"]
        .as_array()
        .expect("a list")
        .iter()
        .map(|info| info["match_id"].as_str().unwrap_or_default().to_string())
        .collect();
    assert_eq!(finished.len(), summary.finished + live.len(), "{list}");
    for id in finished {
        let (_, verify) = restored.get(&format!("/v1/matches/{id}/verify"), None).await;
        assert_eq!(verify["status"], "ok", "{id}: {verify}");
    }
    restored.stop().await;
    app.stop().await;
}

/// `crease backup` is for SQLite: on PostgreSQL it says which tools to use instead, and it
/// refuses a database that is not there rather than create one.
#[tokio::test]
async fn a_backup_names_what_it_cannot_do() {
    let folder = tempfile::tempdir().expect("a temporary folder");
    let missing = folder.path().join("nothing.db");
    let error = backup(
        &format!("sqlite://{}", missing.display()),
        &folder.path().join("out.db"),
        true,
        &toy_games(),
    )
    .await
    .expect_err("no database there");
    assert!(error.to_string().contains("no SQLite database"), "{error}");
    assert!(!missing.exists());
    let Some(db) = TestDb::create(common::Backend::Postgres).await else {
        return;
    };
    let error = backup(db.url(), &folder.path().join("pg.db"), true, &toy_games())
        .await
        .expect_err("PostgreSQL is backed up with its own tools");
    assert!(format!("{error:#}").contains("pg_dump"), "{error:#}");
}
