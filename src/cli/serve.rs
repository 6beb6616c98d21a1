//! `crease serve` (also what `crease` with no subcommand does).

use crate::app::Application;
use crate::config::ServeConfig;
use crate::matches::GameRegistry;

pub fn run(config: ServeConfig, games: GameRegistry) -> anyhow::Result<()> {
    crate::logging::init(config.log_json);
    let runtime = tokio::runtime::Runtime::new()?;
    runtime.block_on(async {
        let app = Application::build(&config, games).await?;
        app.run_until_stopped().await;
        Ok(())
    })
}
