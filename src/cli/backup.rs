//! `crease backup <file>`: an online copy of the SQLite database, checked before it is called
//! done. The copy is one consistent snapshot taken while the server runs (the store's
//! [`backup_to`](crate::store::Store::backup_to)); then it is opened as a restored server
//! would open it and every finished match in it is verified from its seed, so a backup that
//! would not restore is found out now, not on the day it is needed. PostgreSQL is backed up
//! with its own tools (docs/operators.md, "Backups and restore").

use crate::fairness::VerifyReport;
use crate::matches::GameRegistry;
use crate::record::MatchStatus;
use crate::store::Store;
use anyhow::{Context, bail};
use serde::Serialize;
use std::path::{Path, PathBuf};
use std::time::Instant;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The file to write; it must not exist (a backup never overwrites anything).
    pub out: PathBuf,
    /// The database to copy: the server's own (`sqlite://...`).
    #[arg(long, env = "DATABASE_URL", default_value = "sqlite://crease.db")]
    pub database_url: String,
    /// Skip verifying the copy's finished matches (the copy is still opened and counted).
    #[arg(long)]
    pub no_verify: bool,
}

/// What a backup wrote and what the check of it found.
#[derive(Debug, Serialize, PartialEq)]
pub struct BackupSummary {
    pub out: String,
    pub bytes: u64,
    pub seconds: f64,
    /// Matches in the copy, by status as stored.
    pub finished: usize,
    pub live: usize,
    /// Finished matches re-derived from their seeds (all of them, unless `--no-verify`).
    pub verified: usize,
}

pub fn run(args: Args, games: &GameRegistry) -> anyhow::Result<()> {
    let runtime = tokio::runtime::Runtime::new()?;
    let summary = runtime.block_on(backup(&args.database_url, &args.out, !args.no_verify, games))?;
    println!("{}", serde_json::to_string(&summary)?);
    Ok(())
}

/// Copies the database at `database_url` to the new file `out`, then opens the copy and
/// (with `verify`) verifies each finished match in it. Progress goes to stderr.
pub async fn backup(
    database_url: &str,
    out: &Path,
    verify: bool,
    games: &GameRegistry,
) -> anyhow::Result<BackupSummary> {
    if out.exists() {
        bail!("{} exists: a backup never overwrites a file", out.display());
    }
    super::existing_database(database_url)?;
    let started = Instant::now();
    let store = Store::connect(database_url)
        .await
        .with_context(|| format!("open {}", crate::store::redacted_url(database_url)))?;
    eprintln!("copying {database_url} to {} ...", out.display());
    let copied = store.backup_to(out).await;
    store.close().await;
    copied.with_context(|| format!("copy the database to {}", out.display()))?;
    let bytes = std::fs::metadata(out)?.len();

    let copy_url = format!("sqlite://{}", out.display());
    let copy = Store::connect(&copy_url)
        .await
        .with_context(|| format!("open the copy {}", out.display()))?;
    let finished = copy.matches_with_status(MatchStatus::Finished, i64::MAX).await?;
    let live = copy.matches_with_status(MatchStatus::Live, i64::MAX).await?.len();
    let mut verified = 0;
    let mut failures = Vec::new();
    if verify {
        for (index, row) in finished.iter().enumerate() {
            let Some(game) = games.get(&row.game) else {
                failures.push(format!(
                    "{}: this build does not know the game {}",
                    row.match_id, row.game
                ));
                continue;
            };
            let log = copy.log(&row.match_id).await?;
            match game.verify(row, &log) {
                VerifyReport::Ok { .. } => verified += 1,
                other => failures.push(format!("{}: {other:?}", row.match_id)),
            }
            if (index + 1) % 100 == 0 || index + 1 == finished.len() {
                eprintln!("verified {} of {} finished matches", index + 1, finished.len());
            }
        }
    }
    copy.close().await;
    if !failures.is_empty() {
        bail!(
            "the copy at {} has {} finished matches that do not verify: {}",
            out.display(),
            failures.len(),
            failures.join("; ")
        );
    }
    Ok(BackupSummary {
        out: out.display().to_string(),
        bytes,
        seconds: started.elapsed().as_secs_f64(),
        finished: finished.len(),
        live,
        verified,
    })
}
