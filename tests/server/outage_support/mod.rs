//! Test support for database outages: a PRIVATE PostgreSQL cluster that a test may stop and
//! start (the machine's shared server, used by other tests at the same time, is never
//! touched), a SQLite write lock held from outside the server, and an app built with short
//! database bounds.
#![allow(dead_code)]

use crate::common::{TestApp, TestDb};
use crease::config::ServeConfig;
use crease::matches::GameRegistry;
use crease::store::DbSettings;
use sqlx::Connection;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

/// Every command the helper runs must finish within this.
const COMMAND_BOUND: Duration = Duration::from_secs(60);

/// Short bounds so a test sees each outage answer quickly.
pub fn short_bounds() -> DbSettings {
    DbSettings {
        db_timeout_ms: 1_000,
        db_transaction_timeout_ms: 1_000,
        readyz_timeout_ms: 400,
        db_retry_initial_ms: 100,
        db_retry_max_ms: 500,
    }
}

/// The app on port 0 against `url` (a database the test owns), with `settings`. `db` is what
/// keeps the database alive for the test (a temp dir for SQLite, the cluster guard elsewhere).
pub async fn spawn_with(db: TestDb, url: &str, settings: DbSettings, games: GameRegistry) -> TestApp {
    let mut config = ServeConfig::for_database(url);
    config.db = settings;
    TestApp::launch(db, config, games).await
}

/// A SQLite database's write lock, taken from outside the server (`BEGIN EXCLUSIVE` on a
/// connection of our own): every write of the server waits on it; reads still work (WAL).
pub struct SqliteLock {
    connection: sqlx::SqliteConnection,
}

impl SqliteLock {
    pub async fn take(url: &str) -> SqliteLock {
        let mut connection = sqlx::SqliteConnection::connect(url).await.expect("connect");
        sqlx::raw_sql("BEGIN EXCLUSIVE")
            .execute(&mut connection)
            .await
            .expect("take the write lock");
        SqliteLock { connection }
    }

    pub async fn release(mut self) {
        sqlx::raw_sql("COMMIT")
            .execute(&mut self.connection)
            .await
            .expect("release the write lock");
    }
}

/// Runs `command` to completion within [`COMMAND_BOUND`] (killed past it); its output on
/// failure.
fn run(command: &mut Command) -> Result<(), String> {
    let mut child = command
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .map_err(|error| format!("{command:?}: {error}"))?;
    let started = Instant::now();
    loop {
        match child.try_wait() {
            Ok(Some(_)) => break,
            Ok(None) if started.elapsed() > COMMAND_BOUND => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(format!("{command:?} took over {COMMAND_BOUND:?}"));
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(20)),
            Err(error) => return Err(format!("{command:?}: {error}")),
        }
    }
    let output = child.wait_with_output().map_err(|error| error.to_string())?;
    if output.status.success() {
        Ok(())
    } else {
        Err(format!(
            "{command:?} failed: {}{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        ))
    }
}

/// A PostgreSQL cluster of our own in a temp dir, on a free loopback port, run as the
/// `postgres` OS user. Dropping it stops it (`-m immediate`) even when the test panics.
pub struct PgCluster {
    bin: PathBuf,
    dir: tempfile::TempDir,
    pub port: u16,
}

impl PgCluster {
    /// Whether this test runs: `TEST_DATABASE_URL` set, or `CI=true` (where it must run and
    /// [`cannot_run`] fails it). `false` means skip, with the reason printed.
    pub fn wanted() -> bool {
        if std::env::var("TEST_DATABASE_URL").is_ok() || ci() {
            return true;
        }
        eprintln!("skipping: set TEST_DATABASE_URL=postgres://... to run the Postgres outage test");
        false
    }

    /// initdb + start. Err says why it cannot run here (no binaries, no `postgres` user).
    pub fn start() -> Result<PgCluster, String> {
        let bin = newest_bin()?;
        let dir = tempfile::tempdir().map_err(|error| error.to_string())?;
        // The postgres user must reach its data and socket dirs inside our temp dir.
        set_mode(dir.path(), 0o755)?;
        run(Command::new("chown").arg("postgres:postgres").arg(dir.path()))?;
        let port = free_port()?;
        let cluster = PgCluster { bin, dir, port };
        cluster.as_postgres("initdb", |command| {
            command.arg("-D").arg(cluster.data()).args([
                "-A",
                "trust",
                "-U",
                "postgres",
                "--no-sync",
                "-E",
                "UTF8",
            ])
        })?;
        cluster.pg_ctl_start()?;
        Ok(cluster)
    }

    fn data(&self) -> PathBuf {
        self.dir.path().join("data")
    }

    pub fn url(&self, database: &str) -> String {
        format!("postgres://postgres@127.0.0.1:{}/{database}", self.port)
    }

    fn as_postgres(&self, tool: &str, args: impl FnOnce(&mut Command) -> &mut Command) -> Result<(), String> {
        let mut command = Command::new("runuser");
        command.args(["-u", "postgres", "--"]).arg(self.bin.join(tool));
        args(&mut command);
        run(&mut command)
    }

    /// Starts (again) and waits until it accepts connections.
    pub fn pg_ctl_start(&self) -> Result<(), String> {
        let options = format!(
            "-p {} -k {} -c listen_addresses=127.0.0.1",
            self.port,
            self.dir.path().display()
        );
        let log = self.dir.path().join("server.log");
        self.as_postgres("pg_ctl", |command| {
            command
                .arg("-D")
                .arg(self.data())
                .arg("-o")
                .arg(options)
                .arg("-l")
                .arg(log)
                .args(["-w", "-t", "30", "start"])
        })
    }

    /// Kills the server as a crash would (`-m immediate`): no checkpoint, connections cut.
    pub fn stop_immediate(&self) -> Result<(), String> {
        self.as_postgres("pg_ctl", |command| {
            command
                .arg("-D")
                .arg(self.data())
                .args(["-m", "immediate", "-w", "-t", "30", "stop"])
        })
    }

    pub async fn create_database(&self, name: &str) {
        let mut admin = sqlx::PgConnection::connect(&self.url("postgres"))
            .await
            .expect("connect to the private cluster");
        sqlx::raw_sql(sqlx::AssertSqlSafe(format!("CREATE DATABASE {name}")))
            .execute(&mut admin)
            .await
            .expect("create database");
    }
}

impl Drop for PgCluster {
    fn drop(&mut self) {
        // Already stopped is fine; the temp dir goes with `self.dir`.
        let _ = self.stop_immediate();
    }
}

fn ci() -> bool {
    std::env::var("CI").as_deref() == Ok("true")
}

/// Fails the test under `CI=true`, where the outage test must run; skips it otherwise.
pub fn cannot_run(reason: &str) {
    assert!(!ci(), "CI=true but the Postgres outage test cannot run: {reason}");
    eprintln!("skipping the Postgres outage test: {reason}");
}

fn newest_bin() -> Result<PathBuf, String> {
    let mut versions: Vec<(u32, PathBuf)> = std::fs::read_dir("/usr/lib/postgresql")
        .map_err(|error| format!("no PostgreSQL binaries in /usr/lib/postgresql: {error}"))?
        .filter_map(Result::ok)
        .filter_map(|entry| {
            let version = entry.file_name().to_str()?.parse().ok()?;
            let bin = entry.path().join("bin");
            bin.join("pg_ctl").exists().then_some((version, bin))
        })
        .collect();
    versions.sort();
    versions
        .pop()
        .map(|(_, bin)| bin)
        .ok_or_else(|| "no pg_ctl under /usr/lib/postgresql/*/bin".to_string())
}

fn set_mode(path: &Path, mode: u32) -> Result<(), String> {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).map_err(|error| error.to_string())
}

fn free_port() -> Result<u16, String> {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").map_err(|error| error.to_string())?;
    listener
        .local_addr()
        .map(|address| address.port())
        .map_err(|error| error.to_string())
}
