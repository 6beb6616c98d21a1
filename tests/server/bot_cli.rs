//! `crease bot` as a library: remote bots play CTG through the public API only, against a
//! server bot and against each other through matchmaking. Also the CLI's parsing.

use crate::common;

use clap::Parser;
use common::{Backend, spawn_app_on};
use crease::cli::bot::BotClient;
use crease::cli::{Cli, Command};
use crease::matches::GameRegistry;
use crease::rules::BotPolicy;
use serde_json::json;

#[tokio::test]
async fn a_remote_bot_plays_a_t10_match_against_a_server_bot() {
    let app = spawn_app_on(Backend::Sqlite, GameRegistry::standard())
        .await
        .expect("sqlite");
    let games = GameRegistry::standard();
    let ctg = games.get("ctg").expect("ctg is a standard game");
    let client = BotClient::register(&app.base, "remote").await.expect("register");
    let match_id = client
        .create_vs_bot("ctg", Some(json!({ "format": "t10" })))
        .await
        .expect("create");
    let report = client
        .play(&match_id, ctg, BotPolicy::Heuristic)
        .await
        .expect("play");
    assert_eq!(report.match_id, match_id.as_str());
    assert!(report.events > 50, "{report:?}");
    let (_, info) = app.get(&format!("/v1/matches/{match_id}"), None).await;
    assert_eq!(info["status"], "finished");
    assert_eq!(report.result, info["result"]);
    app.stop().await;
}

#[tokio::test]
async fn two_remote_bots_meet_through_matchmaking_and_finish_the_same_match() {
    let app = spawn_app_on(Backend::Sqlite, GameRegistry::standard())
        .await
        .expect("sqlite");
    let games = GameRegistry::standard();
    let ctg = games.get("ctg").expect("ctg");
    let (a, b) = (
        BotClient::register(&app.base, "a").await.expect("register"),
        BotClient::register(&app.base, "b").await.expect("register"),
    );
    let options = Some(json!({ "format": "t10" }));
    let (first, second) = tokio::join!(a.matchmake("ctg", options.clone()), b.matchmake("ctg", options));
    let (first, second) = (first.expect("paired"), second.expect("paired"));
    assert_eq!(first, second);
    let (ra, rb) = tokio::join!(
        a.play(&first, ctg.clone(), BotPolicy::Random),
        b.play(&second, ctg, BotPolicy::Heuristic)
    );
    assert_eq!(ra.expect("a finished").result, rb.expect("b finished").result);
    app.stop().await;
}

#[test]
fn no_subcommand_serves_with_defaults_and_flags_override_them() {
    let cli = Cli::try_parse_from(["crease"]).expect("parse");
    assert!(cli.command.is_none());
    assert_eq!(cli.serve.bind.to_string(), "127.0.0.1:8080");
    assert_eq!(
        (cli.serve.turn_clock_secs, cli.serve.disconnect_grace_secs),
        (60, 300)
    );
    let cli = Cli::try_parse_from([
        "crease",
        "--bind",
        "0.0.0.0:9000",
        "--log-json",
        "--turn-clock-secs",
        "30",
    ])
    .expect("parse");
    assert_eq!(cli.serve.bind.to_string(), "0.0.0.0:9000");
    assert!(cli.serve.log_json);
    assert_eq!(cli.serve.turn_clock_secs, 30);
    let cli = Cli::try_parse_from([
        "crease",
        "bot",
        "--game",
        "ctg",
        "--format",
        "t10",
        "--vs-bot",
        "--matches",
        "3",
    ])
    .expect("parse");
    let Some(Command::Bot(args)) = cli.command else {
        panic!("the bot subcommand");
    };
    assert!(args.vs_bot);
    assert_eq!((args.matches, args.format.as_deref()), (3, Some("t10")));
    let cli = Cli::try_parse_from(["crease", "verify", "some-id", "--database-url", "sqlite://x.db"])
        .expect("parse");
    assert!(matches!(cli.command, Some(Command::Verify(args)) if args.match_id == "some-id"));
}

/// `--rate-limits` says `on|off` in `--help`, as the docs write it, and takes either word.
#[test]
fn the_rate_limits_switch_reads_on_and_off() {
    use clap::CommandFactory;
    let mut command = Cli::command();
    let serve = command
        .find_subcommand_mut("serve")
        .expect("the serve subcommand");
    let help = serve.render_long_help().to_string();
    let mut lines = help.lines().skip_while(|line| !line.contains("--rate-limits"));
    let flag = lines.next().unwrap_or_default();
    let about: Vec<&str> = lines
        .take_while(|line| !line.trim_start().starts_with("--"))
        .collect();
    let about = about.join(" ");
    assert!(flag.contains("<on|off>"), "{flag}");
    assert!(
        about.contains("[default: on]") && !about.contains("possible values"),
        "{about}"
    );
    for (word, on) in [("off", false), ("on", true), ("false", false)] {
        let cli = Cli::try_parse_from(["crease", "serve", "--rate-limits", word]).expect("parses");
        let Some(Command::Serve(config)) = cli.command else {
            panic!("the serve subcommand");
        };
        assert_eq!(config.abuse.rate_limits, on, "--rate-limits {word}");
    }
    let cli = Cli::try_parse_from(["crease", "serve"]).expect("parses");
    let Some(Command::Serve(config)) = cli.command else {
        panic!("the serve subcommand");
    };
    assert!(config.abuse.rate_limits, "on by default");
}

/// `crease verify` run where there is no database (outside the server's folder) says which
/// file it looked for and creates none; in a database without the match, it names the
/// database it looked in.
#[tokio::test]
async fn verify_names_the_database_it_looked_in_and_never_creates_one() {
    let folder = tempfile::tempdir().expect("a temporary folder");
    let path = folder.path().join("crease.db");
    let url = format!("sqlite://{}", path.display());
    let id = common::match_id(&uuid::Uuid::new_v4().to_string());
    let games = GameRegistry::standard();
    let error = crease::cli::verify::verify(&url, &id, &games)
        .await
        .expect_err("no database there");
    assert!(error.to_string().contains(&path.display().to_string()), "{error}");
    assert!(!path.exists(), "verify created {}", path.display());

    let app = spawn_app_on(Backend::Sqlite, GameRegistry::standard())
        .await
        .expect("sqlite");
    let error = crease::cli::verify::verify(app.db.url(), &id, &games)
        .await
        .expect_err("no such match");
    let message = error.to_string();
    assert!(
        message.contains(&format!("no match {id}")) && message.contains(app.db.url()),
        "{message}"
    );
    app.stop().await;
}

/// `crease health` is the containers' health check (dash has no `/dev/tcp`, the image no
/// curl): `Ok` for a ready server, an error saying what answered (or that nothing did).
#[tokio::test]
async fn crease_health_is_ok_for_a_ready_server_and_says_why_otherwise() {
    use crease::cli::health::check;
    use std::time::Duration;
    let parsed = Cli::try_parse_from(["crease", "health"]).expect("parses");
    let Some(Command::Health(args)) = parsed.command else {
        panic!("the health subcommand");
    };
    assert_eq!(args.url, "http://127.0.0.1:8080/readyz");
    let app = spawn_app_on(Backend::Sqlite, GameRegistry::standard())
        .await
        .expect("sqlite");
    let ready = format!("{}/readyz", app.base);
    check(&ready, Duration::from_secs(3))
        .await
        .expect("a ready server is healthy");
    let missing = check(&format!("{}/v1/nope", app.base), Duration::from_secs(3))
        .await
        .expect_err("a 404 is not healthy")
        .to_string();
    assert!(missing.contains("404"), "{missing}");
    app.stop().await;
    let down = check(&ready, Duration::from_secs(3))
        .await
        .expect_err("a stopped server is not healthy")
        .to_string();
    assert!(down.contains("no answer"), "{down}");
}
