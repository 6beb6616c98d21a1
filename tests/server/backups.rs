//! Backups: `crease backup` copies the SQLite database while matches are being played, and
//! the copy restores: a server started on it verifies every match that was finished, and
//! plays the matches that were live on to their end from where the copy left them.

use crate::common;

use common::toy::Toy;
use common::{Backend, TestApp, TestDb, spawn_app, spawn_app_on, toy_games};
use crease::cli::backup::backup;
use crease::config::ServeConfig;
use crease::protocol::PlayerCreated;
use crease::record::EntryKind;
use serde_json::json;

/// Matches being played on `app` while a backup is taken: the seats of each, and the tasks
/// playing them to their end.
struct Playing {
    live: Vec<(String, PlayerCreated, PlayerCreated)>,
    tasks: Vec<tokio::task::JoinHandle<()>>,
}

/// Finishes three toy matches on `app`, then starts two long ones and returns once both have
/// moved on, so a backup taken now catches them in the middle.
async fn finish_three_and_start_two(app: &TestApp) -> Playing {
    for seed in 0..3 {
        let (info, home, away) = app.live_match("toy", json!({ "rounds": 3 })).await;
        let mut home = app.connect(&info.match_id, Some(&home.token), None).await;
        let mut away = app.connect(&info.match_id, Some(&away.token), None).await;
        tokio::join!(home.play_to_end::<Toy>(seed), away.play_to_end::<Toy>(seed + 10));
    }
    let mut playing = Playing {
        live: Vec::new(),
        tasks: Vec::new(),
    };
    for seed in 0..2 {
        let (info, home, away) = app.live_match("toy", json!({ "rounds": 60 })).await;
        let mut home_socket = app.connect(&info.match_id, Some(&home.token), None).await;
        let mut away_socket = app.connect(&info.match_id, Some(&away.token), None).await;
        playing.tasks.push(tokio::spawn(async move {
            tokio::join!(
                home_socket.play_to_end::<Toy>(100 + seed),
                away_socket.play_to_end::<Toy>(200 + seed)
            );
        }));
        playing.live.push((info.match_id, home, away));
    }
    let store = app.app().store();
    for (id, _, _) in &playing.live {
        let id = common::match_id(id);
        while store.log(&id).await.expect("log").len() < 10 {
            tokio::time::sleep(std::time::Duration::from_millis(5)).await;
        }
    }
    playing
}

/// Holds a server restored from a backup against the original: the live matches' logs in the
/// copy are prefixes of the original's and play on to their end with the same tokens, and
/// every finished match (the `finished` the backup held, and those two) verifies.
async fn check_restored(original: &TestApp, restored: &TestApp, playing: &Playing, finished: usize) {
    let (original, copy) = (original.app().store(), restored.app().store());
    for (id, home, away) in &playing.live {
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
        let mut home_socket = restored.connect(id, Some(&home.token), None).await;
        let mut away_socket = restored.connect(id, Some(&away.token), None).await;
        tokio::join!(
            home_socket.play_to_end::<Toy>(300),
            away_socket.play_to_end::<Toy>(400)
        );
        let played_on = copy.log(&match_id).await.expect("log");
        assert!(played_on.len() > copied.len());
        assert!(played_on.iter().any(|entry| entry.kind == EntryKind::Event));
    }
    let (_, list) = restored.get("/v1/matches?status=finished", None).await;
    let ids: Vec<String> = list["matches"]
        .as_array()
        .expect("a list")
        .iter()
        .map(|info| info["match_id"].as_str().unwrap_or_default().to_string())
        .collect();
    assert_eq!(ids.len(), finished + playing.live.len(), "{list}");
    for id in ids {
        let (_, verify) = restored.get(&format!("/v1/matches/{id}/verify"), None).await;
        assert_eq!(verify["status"], "ok", "{id}: {verify}");
    }
}

#[tokio::test]
async fn a_backup_taken_during_play_restores_and_every_finished_match_verifies() {
    let app = spawn_app(toy_games()).await;
    let mut playing = finish_three_and_start_two(&app).await;
    let folder = tempfile::tempdir().expect("a temporary folder");
    let out = folder.path().join("backup.db");
    let summary = backup(app.db.url(), &out, true, &toy_games())
        .await
        .expect("the backup");
    assert_eq!((summary.finished, summary.verified), (3, 3), "{summary:?}");
    assert_eq!(summary.live, 2, "{summary:?}");
    assert!(summary.bytes > 0);
    let again = backup(app.db.url(), &out, true, &toy_games()).await;
    assert!(
        again.is_err_and(|error| error.to_string().contains("never overwrites")),
        "a second backup to the same file is refused"
    );
    for task in playing.tasks.drain(..) {
        task.await
            .expect("the live matches finish on the original server");
    }

    let restored_folder = tempfile::tempdir().expect("a temporary folder");
    let restored_path = restored_folder.path().join("crease.db");
    std::fs::copy(&out, &restored_path).expect("restore the copy");
    let url = format!("sqlite://{}", restored_path.display());
    let db = TestDb::Sqlite {
        _dir: restored_folder,
        url: url.clone(),
    };
    let restored = TestApp::launch(db, ServeConfig::for_database(&url), toy_games()).await;
    check_restored(&app, &restored, &playing, summary.finished).await;
    restored.stop().await;
    app.stop().await;
}

/// The PostgreSQL route of docs/operators.md: `pg_dump -Fc` while matches are played, then
/// `pg_restore` into an empty database and a server started on it.
#[tokio::test]
async fn a_pg_dump_taken_during_play_restores_and_every_finished_match_verifies() {
    let Some(app) = spawn_app_on(Backend::Postgres, toy_games()).await else {
        return;
    };
    let mut playing = finish_three_and_start_two(&app).await;
    let folder = tempfile::tempdir().expect("a temporary folder");
    let dump = folder.path().join("crease.dump");
    let run = |program: &str, args: Vec<String>| {
        let program = program.to_string();
        async move {
            let output = tokio::process::Command::new(&program)
                .args(&args)
                .output()
                .await
                .unwrap_or_else(|error| panic!("run {program} (PostgreSQL's client tools): {error}"));
            assert!(
                output.status.success(),
                "{program} {args:?}: {}",
                String::from_utf8_lossy(&output.stderr)
            );
        }
    };
    let dump_path = dump.display().to_string();
    run(
        "pg_dump",
        vec!["-Fc".into(), app.db.url().into(), "-f".into(), dump_path.clone()],
    )
    .await;
    for task in playing.tasks.drain(..) {
        task.await
            .expect("the live matches finish on the original server");
    }
    let target = TestDb::create(Backend::Postgres)
        .await
        .expect("a second database");
    run(
        "pg_restore",
        vec!["--no-owner".into(), "-d".into(), target.url().into(), dump_path],
    )
    .await;
    let url = target.url().to_string();
    let restored = TestApp::launch(target, ServeConfig::for_database(&url), toy_games()).await;
    check_restored(&app, &restored, &playing, 3).await;
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
    let Some(db) = TestDb::create(Backend::Postgres).await else {
        return;
    };
    let error = backup(db.url(), &folder.path().join("pg.db"), true, &toy_games())
        .await
        .expect_err("PostgreSQL is backed up with its own tools");
    assert!(format!("{error:#}").contains("pg_dump"), "{error:#}");
}
