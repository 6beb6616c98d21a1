//! `crease verify <match-id>`: the same check as `GET /v1/matches/{id}/verify`, straight
//! from the database, printing the report as JSON. Exits non-zero unless it is `ok`.

use crate::fairness::VerifyReport;
use crate::matches::GameRegistry;
use crate::record::{MatchId, MatchStatus};
use crate::store::Store;

#[derive(Debug, clap::Args)]
pub struct Args {
    pub match_id: String,
    #[arg(long, env = "DATABASE_URL", default_value = "sqlite://crease.db")]
    pub database_url: String,
}

pub fn run(args: Args, games: &GameRegistry) -> anyhow::Result<()> {
    // Parsed as the HTTP path's id is: a malformed id is refused before any database work.
    let match_id = MatchId::parse(&args.match_id)?;
    let runtime = tokio::runtime::Runtime::new()?;
    let report = runtime.block_on(verify(&args.database_url, &match_id, games))?;
    println!("{}", serde_json::to_string(&report)?);
    match report {
        VerifyReport::Ok { .. } => Ok(()),
        VerifyReport::NotFinished => anyhow::bail!("match {} is not finished", args.match_id),
        VerifyReport::Mismatch { seq, reason } => anyhow::bail!("mismatch at seq {seq}: {reason}"),
    }
}

/// Verifies one match of a database.
pub async fn verify(
    database_url: &str,
    match_id: &MatchId,
    games: &GameRegistry,
) -> anyhow::Result<VerifyReport> {
    // Run outside the server's folder, the default `sqlite://crease.db` names a file that is
    // not there: say so, rather than create an empty database and find no match in it.
    super::existing_database(database_url)?;
    let store = Store::connect(database_url).await?;
    let row = store.get_match(match_id).await?.ok_or_else(|| {
        anyhow::anyhow!(
            "no match {match_id} in the database at {}",
            crate::store::redacted_url(database_url)
        )
    })?;
    if row.status() != MatchStatus::Finished {
        return Ok(VerifyReport::NotFinished);
    }
    let game = games
        .get(&row.game)
        .ok_or_else(|| anyhow::anyhow!("this build does not know the game {}", row.game))?;
    let log = store.log(match_id).await?;
    store.close().await;
    Ok(game.verify(&row, &log))
}
