//! The README's API tour, run as written against a live server, and its route table held
//! against the OpenAPI document: a renamed field, a changed route or a tour step that stopped
//! working fails here rather than in a reader's terminal.

use crate::drills::{ServerProcess, get, server_binary};
use serde_json::Value;

fn readme() -> String {
    std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).expect("read README.md")
}

/// The first ```sh block after the "## API tour" heading.
fn tour(readme: &str) -> String {
    let section = readme
        .split_once("## API tour")
        .expect("README.md has an API tour")
        .1;
    let block = section.split_once("```sh\n").expect("the tour has a sh block").1;
    block
        .split_once("```")
        .expect("the block is closed")
        .0
        .to_string()
}

/// Every `METHOD /path` of the README's route table (the first table after the tour). A
/// cell may write a method alone before the next path (`GET`/`DELETE .../x`), and a path as
/// `.../x` after the row's first full path: `x` follows that path, or replaces its last
/// segment when it starts with it (`/v1/matchmaking/tickets`, `.../tickets/{id}`).
fn table_routes(readme: &str) -> Vec<(String, String)> {
    let section = readme.split_once("## API tour").expect("the tour").1;
    let table = section
        .lines()
        .skip_while(|line| !line.starts_with("| route |"))
        .skip(2)
        .take_while(|line| line.starts_with('|'));
    let mut routes = Vec::new();
    for row in table {
        let first_cell = row.split('|').nth(1).unwrap_or_default();
        let mut base = String::new();
        let mut methods: Vec<String> = Vec::new();
        for quoted in first_cell.split('`').skip(1).step_by(2) {
            let Some((method, path)) = quoted.split_once(' ') else {
                methods.push(quoted.to_lowercase());
                continue;
            };
            methods.push(method.to_lowercase());
            let path = path.split('?').next().unwrap_or_default();
            let path = match path.strip_prefix(".../") {
                Some(rest) => {
                    let (parent, last) = base.rsplit_once('/').unwrap_or((base.as_str(), ""));
                    let first = rest.split('/').next().unwrap_or_default();
                    if first == last {
                        format!("{parent}/{rest}")
                    } else {
                        format!("{base}/{rest}")
                    }
                }
                None => {
                    base = path.to_string();
                    path.to_string()
                }
            };
            for method in methods.drain(..) {
                routes.push((method, path.clone()));
            }
        }
    }
    routes
}

/// The tour's commands, run with bash against a server on its own SQLite file: every `curl
/// -sf` must succeed, and the match it creates against the bot is live.
#[tokio::test]
async fn the_readme_api_tour_runs_as_written() {
    let folder = tempfile::tempdir().expect("a temporary folder");
    let database = format!("sqlite://{}?mode=rwc", folder.path().join("tour.db").display());
    let server = ServerProcess::start(&server_binary(), &database).await;
    let address = server.base.trim_start_matches("http://").to_string();
    let script = tour(&readme())
        .replace("localhost:8080", &address)
        .replace("127.0.0.1:8080", &address);
    assert!(script.contains("jq"), "the tour reads tokens with jq");
    let output = tokio::process::Command::new("bash")
        .args(["-euo", "pipefail", "-c", &script])
        .output()
        .await
        .expect("run bash (and the tour needs curl and jq: .ci/run installs jq)");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success(),
        "the README's tour failed ({}):\n{stdout}\n{stderr}\nscript:\n{script}",
        output.status
    );
    let lines: Vec<&str> = stdout.lines().collect();
    assert!(
        lines.contains(&"live"),
        "the match against the bot is live:\n{stdout}"
    );
    for game in ["ctg", "wicketz", "champions"] {
        assert!(lines.contains(&game), "GET /v1/games lists {game}:\n{stdout}");
    }
}

/// Each route the README's table names is one the server documents, with that method (the
/// probes and `/metrics` are not in the OpenAPI document; they answer 200).
#[tokio::test]
async fn every_route_in_the_readme_table_is_served() {
    let readme = readme();
    let routes = table_routes(&readme);
    assert!(routes.len() >= 20, "the table was read: {routes:?}");
    let folder = tempfile::tempdir().expect("a temporary folder");
    let database = format!("sqlite://{}?mode=rwc", folder.path().join("routes.db").display());
    let server = ServerProcess::start(&server_binary(), &database).await;
    let http = reqwest::Client::new();
    let (status, document) = get(&http, &format!("{}/v1/openapi.json", server.base)).await;
    assert_eq!(status, 200);
    let mut missing = Vec::new();
    for (method, path) in &routes {
        if ["/healthz", "/readyz", "/metrics"].contains(&path.as_str()) {
            let (status, _) = get(&http, &format!("{}{path}", server.base)).await;
            if status != 200 {
                missing.push(format!("{method} {path}: {status}"));
            }
            continue;
        }
        let documented = document["paths"][path.as_str()][method.as_str()] != Value::Null;
        if !documented {
            missing.push(format!("{method} {path}"));
        }
    }
    assert!(
        missing.is_empty(),
        "README.md names routes the server does not document: {missing:?}"
    );
}
