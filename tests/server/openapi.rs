//! `/v1/openapi.json` documents every route: the API's routers register each handler with
//! its operation through utoipa-axum's `routes!`, so no route may be registered past it with
//! a plain `.route("...", get(..))` in `src/` (the browser client's files aside); every
//! documented operation must be served (not the router's fallback), and every `$ref` must
//! resolve.

use crate::common;

use common::{spawn_app, toy_games};
use serde_json::Value;
use std::collections::BTreeSet;
use std::path::Path;

const METHODS: [&str; 5] = ["get", "post", "put", "delete", "patch"];

/// `(path, method)` of every `.route(...)` call in the Rust sources under `dir`: a route
/// added to a router without the operation `routes!` registers with it.
fn registered_routes(dir: &Path, found: &mut BTreeSet<(String, String)>) {
    for entry in std::fs::read_dir(dir).expect("read src") {
        let path = entry.expect("entry").path();
        if path.is_dir() {
            registered_routes(&path, found);
        } else if path.ends_with("http/web.rs") {
            // The browser client's static files are not part of the JSON API.
            continue;
        } else if path.extension().is_some_and(|ext| ext == "rs") {
            let text = std::fs::read_to_string(&path).expect("read source");
            let mut rest = text.as_str();
            while let Some(start) = rest.find(".route(") {
                rest = &rest[start + ".route(".len()..];
                let mut depth = 1;
                let end = rest
                    .char_indices()
                    .find(|(_, c)| {
                        match c {
                            '(' => depth += 1,
                            ')' => depth -= 1,
                            _ => {}
                        }
                        depth == 0
                    })
                    .map_or(rest.len(), |(index, _)| index);
                let call = &rest[..end];
                let Some(route) = call.split('"').nth(1) else {
                    continue;
                };
                for method in METHODS {
                    let used = call.match_indices(&format!("{method}(")).any(|(index, _)| {
                        index == 0 || !call[..index].ends_with(|c: char| c.is_alphanumeric() || c == '_')
                    });
                    if used {
                        found.insert((route.to_string(), method.to_string()));
                    }
                }
            }
        }
    }
}

fn documented(document: &Value) -> BTreeSet<(String, String)> {
    let mut found = BTreeSet::new();
    for (path, item) in document["paths"].as_object().expect("paths") {
        for method in METHODS {
            if item.get(method).is_some() {
                found.insert((path.clone(), method.to_string()));
            }
        }
    }
    found
}

fn refs(value: &Value, out: &mut Vec<String>) {
    match value {
        Value::Object(map) => {
            for (key, inner) in map {
                match (key.as_str(), inner) {
                    ("$ref", Value::String(target)) => out.push(target.clone()),
                    _ => refs(inner, out),
                }
            }
        }
        Value::Array(items) => items.iter().for_each(|item| refs(item, out)),
        _ => {}
    }
}

#[tokio::test]
async fn every_registered_route_is_documented_and_served() {
    let app = spawn_app(toy_games()).await;
    let (status, document) = app.get("/v1/openapi.json", None).await;
    assert_eq!(status, 200);
    assert!(document["openapi"].as_str().is_some_and(|v| v.starts_with("3.")));

    let mut bypassing = BTreeSet::new();
    registered_routes(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src"), &mut bypassing);
    assert!(
        bypassing.is_empty(),
        "routes registered without their OpenAPI operation (use `routes!`): {bypassing:?}"
    );
    let documented = documented(&document);
    assert!(
        documented.len() > 20,
        "the document lists the operations: {documented:?}"
    );

    for (path, method) in &documented {
        let url = format!(
            "{}{}",
            app.base,
            path.replace("{id}", "nope").replace("{game}", "toy")
        );
        let request = match method.as_str() {
            "get" => app.http.get(&url),
            "post" => app.http.post(&url).json(&serde_json::json!({})),
            "delete" => app.http.delete(&url),
            other => panic!("no request for {other}"),
        };
        let response = request.send().await.expect("request");
        let status = response.status().as_u16();
        let body: Value = response.json().await.unwrap_or(Value::Null);
        assert_ne!(status, 405, "{method} {path} is not served");
        assert_ne!(
            body["error"]["message"], "route not found",
            "{method} {path} is not served"
        );
    }

    let schemas = document["components"]["schemas"].as_object().expect("schemas");
    let mut targets = Vec::new();
    refs(&document, &mut targets);
    assert!(!targets.is_empty());
    for target in targets {
        let name = target
            .strip_prefix("#/components/schemas/")
            .expect("a component ref");
        assert!(schemas.contains_key(name), "dangling $ref {target}");
    }
    app.stop().await;
}

/// Every operation of `document` as `(path, method, operation)`.
fn operations(document: &Value) -> Vec<(String, String, Value)> {
    let paths = document["paths"].as_object().expect("paths");
    let mut found = Vec::new();
    for (path, item) in paths {
        for method in METHODS {
            if let Some(operation) = item.get(method) {
                found.push((path.clone(), method.to_string(), operation.clone()));
            }
        }
    }
    found
}

/// The statuses an `{id}` route and an authenticated route can answer are documented, with
/// the API's error body, and an id is a UUID: schemathesis (`tests/contract/`) found each of
/// these missing once.
#[tokio::test]
async fn shared_answers_and_id_formats_are_documented() {
    let app = spawn_app(toy_games()).await;
    let (_, document) = app.get("/v1/openapi.json", None).await;
    let error_body = serde_json::json!("#/components/schemas/ErrorBody");
    let mut id_routes = 0;
    let mut authenticated = 0;
    for (path, method, operation) in operations(&document) {
        let responses = &operation["responses"];
        let documents =
            |status: &str| responses[status]["content"]["application/json"]["schema"]["$ref"] == error_body;
        if path.contains("{id}") {
            id_routes += 1;
            let id = operation["parameters"]
                .as_array()
                .and_then(|parameters| parameters.iter().find(|p| p["name"] == "id"))
                .expect("the id parameter");
            assert_eq!(id["schema"]["format"], "uuid", "{method} {path}");
            assert!(documents("400"), "{method} {path} documents no 400");
            assert!(documents("404"), "{method} {path} documents no 404");
        }
        if operation.get("security").is_some() {
            authenticated += 1;
            assert!(documents("401"), "{method} {path} documents no 401");
        }
    }
    assert!(id_routes >= 10, "{id_routes} routes with an id");
    assert!(authenticated >= 8, "{authenticated} authenticated routes");
    let status = document["paths"]["/v1/matches"]["get"]["parameters"][0]["schema"]["enum"].clone();
    assert_eq!(
        status,
        serde_json::json!(["open", "live", "finished", "cancelled"])
    );
    app.stop().await;
}

/// Authentication comes before the path, the body and the rate limits: without a token a
/// malformed id and a burst past the per-address limit are both 401, not 400 or 429.
#[tokio::test]
async fn authentication_is_checked_before_validation_and_rate_limits() {
    let app = spawn_app(toy_games()).await;
    let (status, body) = app.post("/v1/matches/0/join", None, serde_json::json!({})).await;
    assert_eq!(
        (status, body["error"]["code"].as_str()),
        (401, Some("unauthorized"))
    );
    // The default per-address burst is 30 creations.
    for attempt in 0..40 {
        let (status, _) = app
            .post(
                "/v1/matchmaking/tickets",
                None,
                serde_json::json!({"game": "toy"}),
            )
            .await;
        assert_eq!(status, 401, "ticket {attempt} without a token");
    }
    app.stop().await;
}
