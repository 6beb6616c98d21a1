//! `crease health`: asks a running server whether it is ready, and exits 0 only if it is.
//!
//! For container health checks: the slim runtime image has no tool that speaks HTTP, and
//! Compose's `CMD-SHELL` runs dash there, which has no `/dev/tcp` (a check written with it
//! always failed). The server's own binary is always in the image.

use anyhow::{Context, bail};
use std::time::Duration;

#[derive(Debug, Clone, clap::Args)]
pub struct Args {
    /// The URL to ask; a 200 answer is healthy (`/readyz` also checks the database).
    #[arg(long, default_value = "http://127.0.0.1:8080/readyz")]
    pub url: String,
    /// How long to wait for the whole answer.
    #[arg(long, default_value = "3s", value_parser = humantime::parse_duration)]
    pub timeout: Duration,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    runtime.block_on(check(&args.url, args.timeout))?;
    println!("ready: {}", args.url);
    Ok(())
}

/// `Ok` if `url` answers 200 within `timeout`; the error says what it answered instead.
pub async fn check(url: &str, timeout: Duration) -> anyhow::Result<()> {
    let client = reqwest::Client::builder().timeout(timeout).build()?;
    let response = client
        .get(url)
        .send()
        .await
        .with_context(|| format!("no answer from {url}"))?;
    let status = response.status();
    if status.as_u16() != 200 {
        let body = response.text().await.unwrap_or_default();
        bail!("{url} answered {status}: {}", body.trim());
    }
    Ok(())
}
