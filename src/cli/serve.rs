//! `crease serve` (also what `crease` with no subcommand does).

use crate::app::Application;
use crate::config::ServeConfig;
use crate::matches::GameRegistry;

pub fn run(config: ServeConfig) -> anyhow::Result<()> {
    init_tracing(config.log_json);
    let runtime = tokio::runtime::Runtime::new()?;
    runtime.block_on(async {
        let app = Application::build(&config, GameRegistry::standard()).await?;
        app.run_until_stopped().await;
        Ok(())
    })
}

/// `RUST_LOG` picks the level (default `info`); `--log-json` one JSON object per line.
pub fn init_tracing(json: bool) {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    let builder = tracing_subscriber::fmt().with_env_filter(filter);
    let _ = if json {
        builder.json().try_init()
    } else {
        builder.try_init()
    };
}
