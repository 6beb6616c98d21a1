//! The assembled server: store + lobby + recovered actors + HTTP, bound to a port.
//!
//! Tests build it on port 0 with their own database and game registry; `crease serve`
//! builds it from flags and runs it until SIGTERM or Ctrl-C.

use crate::config::ServeConfig;
use crate::http::{self, AppState};
use crate::matches::{GameRegistry, Lobby};
use crate::store::Store;
use std::net::SocketAddr;
use std::sync::Arc;
use tokio::sync::watch;
use tokio::task::JoinHandle;

pub struct Application {
    address: SocketAddr,
    lobby: Arc<Lobby>,
    shutdown: watch::Sender<bool>,
    server: JoinHandle<std::io::Result<()>>,
    matchmaking: JoinHandle<()>,
}

impl Application {
    /// Connects to the database (running migrations), resumes every live match from its log,
    /// and starts listening.
    pub async fn build(config: &ServeConfig, games: GameRegistry) -> anyhow::Result<Application> {
        crate::telemetry::install();
        config.validate().map_err(anyhow::Error::msg)?;
        let store = Store::connect_with(&config.database_url, &config.db).await?;
        let lobby = Arc::new(
            Lobby::new(store, games, config.clocks())
                .with_limits(config.limits)
                .with_matchmaking(config.matchmaking)
                .with_db_settings(config.db),
        );
        let resumed = lobby.recover().await?;
        let listener = crate::listener::bind(config.bind, &config.connections)?;
        let address = listener.local_addr()?;
        let (shutdown, stopping) = watch::channel(false);
        let state = AppState {
            lobby: lobby.clone(),
            limits: Arc::new(crate::http::limits::AbuseLimits::new(&config.abuse)),
            shutdown: stopping.clone(),
            sockets: config.connections.socket_limits(),
        };
        let matchmaking = crate::matchmaking::spawn_ticker(lobby.clone(), stopping.clone());
        let app = http::router(state);
        let server = tokio::spawn(crate::listener::serve(
            listener,
            app,
            config.connections.clone(),
            stopping,
        ));
        tracing::info!(%address, database = lobby.store.backend(), resumed, "crease is serving");
        Ok(Application {
            address,
            lobby,
            shutdown,
            server,
            matchmaking,
        })
    }

    pub fn address(&self) -> SocketAddr {
        self.address
    }

    pub fn lobby(&self) -> &Arc<Lobby> {
        &self.lobby
    }

    pub fn store(&self) -> &Store {
        &self.lobby.store
    }

    /// Stops accepting, closes sockets, lets every actor finish the write in hand, then
    /// closes the database.
    pub async fn shutdown(self) {
        let _ = self.shutdown.send(true);
        let _ = self.server.await;
        let _ = self.matchmaking.await;
        self.lobby.shutdown().await;
        self.lobby.store.close().await;
        tracing::info!("crease stopped");
    }

    /// Serves until SIGTERM or Ctrl-C, then shuts down gracefully.
    pub async fn run_until_stopped(self) {
        wait_for_signal().await;
        tracing::info!("stop signal received");
        self.shutdown().await;
    }
}

async fn wait_for_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        _ = ctrl_c => {}
        _ = terminate => {}
    }
}
