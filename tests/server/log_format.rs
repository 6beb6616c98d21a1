//! The `crease serve` binary logs to stderr, in plain text when stderr is not a terminal (a
//! file, a pipe, a log collector): no ANSI colour codes to strip.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

/// Kills the server even when an assertion fails first.
struct Server(Child);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

#[test]
fn logs_on_a_pipe_have_no_ansi_colours() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut child = Command::new(env!("CARGO_BIN_EXE_crease"))
        .args(["serve", "--bind", "127.0.0.1:0"])
        .env(
            "DATABASE_URL",
            format!("sqlite://{}", dir.path().join("crease.db").display()),
        )
        .env("RUST_LOG", "info")
        .env_remove("NO_COLOR")
        .env_remove("CREASE_LOG_JSON")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start crease serve");
    let stderr = child.stderr.take().expect("stderr");
    let _server = Server(child);
    let (lines, received) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            if lines.send(line).is_err() {
                return;
            }
        }
    });
    let mut seen = Vec::new();
    while !seen
        .iter()
        .any(|line: &String| line.contains("crease is serving"))
    {
        let line = received
            .recv_timeout(Duration::from_secs(30))
            .unwrap_or_else(|_| panic!("no 'crease is serving' line on stderr within 30 s: {seen:?}"));
        seen.push(line);
    }
    for line in &seen {
        assert!(!line.contains('\u{1b}'), "an ANSI escape on a pipe: {line:?}");
    }
    assert!(seen.iter().any(|line| line.contains("INFO")), "{seen:?}");
}
