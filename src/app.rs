//! The assembled server: store + accounts + lobby (with its placement) + matchmaker +
//! recovered actors + HTTP, bound to a port.
//!
//! Tests build it on port 0 with their own database and game registry; `crease serve`
//! builds it from flags and runs it until SIGTERM or Ctrl-C.

use crate::accounts::Accounts;
use crate::cluster::Cluster;
use crate::competitions::Competitions;
use crate::config::ServeConfig;
use crate::http::{self, AppState};
use crate::matches::{
    Actors, ClusterPlacement, GameRegistry, Lobby, LocalPlacement, Placement, SocketPlanner,
};
use crate::matchmaking::Matchmaker;
use crate::store::{GroupPolicy, Journal, Store};
use std::net::SocketAddr;
use std::sync::Arc;
use tokio::sync::watch;
use tokio::task::JoinHandle;

pub struct Application {
    address: SocketAddr,
    lobby: Arc<Lobby>,
    matchmaker: Arc<Matchmaker>,
    accounts: Arc<Accounts>,
    store: Store,
    shutdown: watch::Sender<bool>,
    server: JoinHandle<std::io::Result<()>>,
    matchmaking: JoinHandle<()>,
    /// Moves running competitions on (bot fixtures, results) without a reader.
    competition_ticker: JoinHandle<()>,
    /// A cluster node's membership loop (heartbeat, claims, start requests).
    membership: Option<JoinHandle<()>>,
    session_upkeep: Vec<JoinHandle<()>>,
}

impl Application {
    /// Connects to the database (running migrations), resumes every live match from its log,
    /// and starts listening.
    pub async fn build(config: &ServeConfig, games: GameRegistry) -> anyhow::Result<Application> {
        config.validate().map_err(anyhow::Error::msg)?;
        let cluster = match config.cluster.enabled() {
            true => Some(Arc::new(
                Cluster::connect(&config.cluster, &config.database_url).await?,
            )),
            false => None,
        };
        crate::telemetry::install_for_node(cluster.as_ref().map(|cluster| cluster.node_id()));
        let store = Store::connect_with(&config.database_url, &config.db).await?;
        store
            .install_operator_views(
                games
                    .ids()
                    .into_iter()
                    .filter_map(|id| games.get(id))
                    .map(|game| game.operator_views()),
            )
            .await?;
        if let Some(cluster) = &cluster {
            // Known to the others before it takes any match, so placement can count it.
            store.heartbeat(&cluster.node, false).await?;
        }
        let games = Arc::new(games);
        let journal = Journal::spawn_with(store.clone(), GroupPolicy::for_store(&store), config.db);
        let actors = Arc::new(
            Actors::new(store.clone(), journal, games.clone())
                .with_adjourn_limit(config.matches.adjourn_limit()),
        );
        let live = actors.live().clone();
        let (shutdown, stopping) = watch::channel(false);
        let (placement, membership): (Arc<dyn Placement>, _) = match &cluster {
            Some(cluster) => {
                let membership = Store::connect_membership(&config.database_url, &config.db).await?;
                let placement = Arc::new(ClusterPlacement::new(actors, cluster.clone(), membership));
                (placement.clone(), Some(placement))
            }
            None => (Arc::new(LocalPlacement::new(actors)), None),
        };
        let lobby = Arc::new(
            Lobby::with_placement(store.clone(), games, config.clocks(), placement)
                .with_limits(config.limits),
        );
        let resumed = lobby.recover().await?;
        let listener = crate::listener::bind(config.bind, &config.connections)?;
        let address = listener.local_addr()?;
        let accounts = Arc::new(Accounts::new(store.clone(), &config.accounts).with_cluster(cluster.clone()));
        let session_upkeep = accounts
            .spawn_upkeep(config.accounts.session_recheck, stopping.clone())
            .await;
        let matchmaker = Arc::new(Matchmaker::new(lobby.clone(), store.clone(), config.matchmaking));
        let competitions = Arc::new(Competitions::new(store.clone(), lobby.clone()));
        let state = AppState {
            accounts: accounts.clone(),
            lobby: lobby.clone(),
            matchmaker: matchmaker.clone(),
            competitions: competitions.clone(),
            socket_plans: Arc::new(SocketPlanner::new(lobby.clone(), store.clone())),
            store: store.clone(),
            db: config.db,
            live,
            cluster: cluster.clone(),
            limits: Arc::new(crate::http::limits::AbuseLimits::new(&config.abuse)),
            shutdown: stopping.clone(),
            sockets: crate::gateway::SocketLimits::from(&config.connections),
            moderation: Arc::new(crate::moderation::Moderation::new(
                store.clone(),
                accounts.clone(),
                lobby.clone(),
            )),
            admin: Arc::new(config.admin.clone()),
        };
        let matchmaking = matchmaker.clone().spawn_ticker(stopping.clone());
        let competition_ticker =
            competitions.spawn_ticker(crate::competitions::service::TICK, stopping.clone());
        let membership = membership.map(|placement| placement.spawn_membership(stopping.clone()));
        let app = http::router(state);
        let server = tokio::spawn(crate::listener::serve(
            listener,
            app,
            config.connections.clone(),
            stopping,
        ));
        let node = cluster.as_ref().map(|cluster| cluster.node_id().to_string());
        tracing::info!(%address, database = store.backend(), resumed, node, "crease is serving");
        Ok(Application {
            address,
            lobby,
            matchmaker,
            accounts,
            store,
            shutdown,
            server,
            matchmaking,
            competition_ticker,
            membership,
            session_upkeep,
        })
    }

    pub fn address(&self) -> SocketAddr {
        self.address
    }

    pub fn lobby(&self) -> &Arc<Lobby> {
        &self.lobby
    }

    pub fn matchmaker(&self) -> &Arc<Matchmaker> {
        &self.matchmaker
    }

    pub fn accounts(&self) -> &Arc<Accounts> {
        &self.accounts
    }

    pub fn store(&self) -> &Store {
        &self.store
    }

    /// Stops accepting, closes sockets, lets every actor finish the write in hand, then
    /// closes the database. A cluster node drains first: its matches move to other nodes
    /// at once and their sockets are told to resume there, before the listener closes.
    pub async fn shutdown(self) {
        self.lobby.drain().await;
        let _ = self.shutdown.send(true);
        let _ = self.server.await;
        let _ = self.matchmaking.await;
        let _ = self.competition_ticker.await;
        if let Some(membership) = self.membership {
            let _ = membership.await;
        }
        for task in self.session_upkeep {
            let _ = task.await;
        }
        self.lobby.shutdown().await;
        self.store.close().await;
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
