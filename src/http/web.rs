//! The browser client, embedded in the binary and served at `/`.
//!
//! The client in `web/` is plain HTML, CSS and ES modules with no build step, so the files
//! are served as they are. `rust-embed` compiles every file of `web/` into the binary (in
//! debug builds too, `debug-embed`), so `cargo run --release` is all a newcomer needs: no
//! working directory or asset path to configure, and a new file (a fourth game's module) is
//! served without touching this code. `web/README.md` documents the client and is the one
//! file not served.

use crate::matches::GameRegistry;
use axum::{
    Router,
    extract::{Path, State},
    http::{HeaderValue, header},
    response::{IntoResponse, Response},
    routing::get,
};

/// Every file of `web/` but its README, by path relative to it.
#[derive(rust_embed::Embed)]
#[folder = "web/"]
#[exclude = "*.md"]
struct Assets;

/// Serves the client: `/` is `index.html`, every other file by its path. Only files in the
/// table are served, so nothing outside `web/` can be reached by a crafted path.
pub fn router(games: std::sync::Arc<GameRegistry>) -> Router {
    Router::new()
        .route("/js/games/{file}", get(game_module))
        .with_state(games)
        .route("/", get(index))
        .route("/{*path}", get(asset).fallback(other_method))
}

/// The catch-all route matches every path, so without this a POST to a mistyped API path
/// would be a 405 rather than the 404 it is.
async fn other_method(Path(path): Path<String>) -> crate::error::ApiError {
    if Assets::get(&path).is_some() {
        crate::error::ApiError::MethodNotAllowed
    } else {
        crate::error::ApiError::NotFound("route")
    }
}

/// `<id>.js` of a game that ships its module in its own folder
/// (`GameExtras::CLIENT_MODULE`) is that module; every other file (the client's own game
/// modules and their helpers) is the embedded asset of that name.
async fn game_module(
    State(games): State<std::sync::Arc<GameRegistry>>,
    Path(file): Path<String>,
) -> Response {
    let shipped = file
        .strip_suffix(".js")
        .and_then(|id| games.get(id))
        .and_then(|game| game.client_module());
    match shipped {
        Some(source) => respond("js/games/module.js", source.as_bytes().to_vec().into()),
        None => serve(&format!("js/games/{file}")),
    }
}

async fn index() -> Response {
    serve("index.html")
}

async fn asset(Path(path): Path<String>) -> Response {
    serve(&path)
}

fn serve(path: &str) -> Response {
    match Assets::get(path) {
        Some(asset) => respond(path, asset.data),
        // The client's catch-all route also sees mistyped API paths and everything else
        // unknown: answer in the API's error shape, so no client ever parses a text 404.
        None => crate::error::ApiError::NotFound("route").into_response(),
    }
}

/// A file of the client with its headers (the content type from `path`'s extension).
fn respond(path: &str, data: std::borrow::Cow<'static, [u8]>) -> Response {
    (
        [
            (header::CONTENT_TYPE, HeaderValue::from_static(content_type(path))),
            // No build step means no hashed file names: ask browsers to revalidate so a new
            // server version is picked up on the next load.
            (header::CACHE_CONTROL, HeaderValue::from_static("no-cache")),
            (
                header::X_CONTENT_TYPE_OPTIONS,
                HeaderValue::from_static("nosniff"),
            ),
        ],
        data,
    )
        .into_response()
}

/// The content type by extension; browsers refuse ES modules served with the wrong type.
fn content_type(path: &str) -> &'static str {
    match path.rsplit_once('.').map(|(_, ext)| ext) {
        Some("html") => "text/html; charset=utf-8",
        Some("css") => "text/css; charset=utf-8",
        Some("js" | "mjs") => "text/javascript; charset=utf-8",
        Some("svg") => "image/svg+xml",
        Some("json") => "application/json",
        Some("png") => "image/png",
        Some("ico") => "image/x-icon",
        _ => "application/octet-stream",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::body::Body;
    use axum::http::{Request, StatusCode};
    use tower::ServiceExt;

    fn files_on_disk(dir: &std::path::Path, base: &std::path::Path, out: &mut Vec<String>) {
        for entry in std::fs::read_dir(dir).expect("web/ is readable") {
            let path = entry.expect("directory entry").path();
            if path.is_dir() {
                files_on_disk(&path, base, out);
            } else if path.extension().is_some_and(|ext| ext == "md") {
                continue;
            } else {
                let relative = path.strip_prefix(base).expect("below web/");
                out.push(relative.to_string_lossy().replace('\\', "/"));
            }
        }
    }

    #[test]
    fn every_file_in_web_is_embedded_and_nothing_else() {
        let base = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("web");
        let mut on_disk = Vec::new();
        files_on_disk(&base, &base, &mut on_disk);
        on_disk.sort();
        let mut embedded: Vec<String> = Assets::iter().map(|path| path.to_string()).collect();
        embedded.sort();
        assert_eq!(
            embedded, on_disk,
            "web/ (but its README) is what the binary serves"
        );
    }

    #[test]
    fn every_embedded_file_has_a_known_content_type() {
        for path in Assets::iter() {
            assert_ne!(content_type(&path), "application/octet-stream", "{path}");
        }
    }

    async fn get(path: &str) -> (StatusCode, Option<String>, Vec<u8>) {
        let response = router(std::sync::Arc::new(GameRegistry::standard()))
            .oneshot(Request::builder().uri(path).body(Body::empty()).expect("request"))
            .await
            .expect("infallible");
        let status = response.status();
        let kind = response
            .headers()
            .get(header::CONTENT_TYPE)
            .map(|value| value.to_str().expect("ascii").to_string());
        let body = axum::body::to_bytes(response.into_body(), 1 << 20)
            .await
            .expect("body");
        (status, kind, body.to_vec())
    }

    #[tokio::test]
    async fn root_serves_the_index_page_as_html() {
        let (status, kind, body) = get("/").await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(kind.as_deref(), Some("text/html; charset=utf-8"));
        assert!(
            String::from_utf8(body)
                .expect("utf-8")
                .contains("<script type=\"module\"")
        );
    }

    #[tokio::test]
    async fn modules_are_served_as_javascript() {
        let (status, kind, body) = get("/js/app.js").await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(kind.as_deref(), Some("text/javascript; charset=utf-8"));
        assert!(!body.is_empty());
        let (_, kind, _) = get("/style.css").await;
        assert_eq!(kind.as_deref(), Some("text/css; charset=utf-8"));
    }

    #[tokio::test]
    async fn unknown_api_paths_get_the_api_error_shape() {
        let (status, kind, body) = get("/v1/no-such-route").await;
        assert_eq!(status, StatusCode::NOT_FOUND);
        assert_eq!(kind.as_deref(), Some("application/json"));
        let body: serde_json::Value = serde_json::from_slice(&body).expect("json");
        assert_eq!(body["error"]["code"], "not_found");
    }

    #[tokio::test]
    async fn unknown_and_escaping_paths_are_not_found() {
        assert_eq!(get("/nope.js").await.0, StatusCode::NOT_FOUND);
        assert_eq!(get("/../Cargo.toml").await.0, StatusCode::NOT_FOUND);
        assert_eq!(get("/js/../../Cargo.toml").await.0, StatusCode::NOT_FOUND);
    }
}
