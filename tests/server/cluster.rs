//! Cluster drills: `crease serve` processes as nodes of one cluster on a fresh PostgreSQL
//! database and the local NATS server, played over real WebSockets by remote seats.
//!
//! * cross-node play: every seat talks to a node that does not run its match;
//! * kill -9 of the node that runs every match: the others take them over, the seats resume,
//!   no acked command is lost;
//! * SIGSTOP of the owner past its lease: another node takes over; once the old owner wakes,
//!   it stops the match (its writes are refused) and its sockets move;
//! * SIGTERM: the node drains, its matches move at once (long before the lease TTL).
//!
//! And, without processes, the fence itself: a write under an old epoch never commits, and
//! a takeover waits for a write that holds the current epoch.
//!
//! They need `TEST_DATABASE_URL` and `TEST_NATS_URL` (`.ci/run` sets both); without them they
//! are skipped, except under `CI=true`, where that fails.

use crate::common;
use crate::drills;

use common::{Backend, TestDb, metric};
use crease::matches::GameRegistry;
use crease::protocol::delta::without_nulls;
use crease::protocol::{AdjournmentState, ServerMessage};
use crease::record::{AdjournmentAction, EntryKind, NewEntry};
use crease::store::{Fence, NodeRecord, Store, StoreError};
use drills::{Drill, RemoteSeat, SeatRecord, ServerProcess, get, post, register};
use serde_json::{Value, json};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Short leases, so a failover happens within a few seconds of a kill.
pub(crate) const TTL_MS: u64 = 2000;

pub(crate) fn nats_url() -> Option<String> {
    match std::env::var("TEST_NATS_URL") {
        Ok(url) => Some(url),
        Err(_) if std::env::var("CI").as_deref() == Ok("true") => {
            panic!("CI=true but TEST_NATS_URL is unset: the cluster tests must run")
        }
        Err(_) => {
            eprintln!("skipping: set TEST_NATS_URL=nats://127.0.0.1:4222 to run the cluster tests");
            None
        }
    }
}

/// One test's cluster: its database, its NATS subject prefix, and how to start nodes.
pub(crate) struct TestCluster {
    pub(crate) db: TestDb,
    pub(crate) nats: String,
    pub(crate) name: String,
    pub(crate) binary: PathBuf,
    pub(crate) http: reqwest::Client,
}

impl TestCluster {
    pub(crate) async fn new() -> Option<TestCluster> {
        let nats = nats_url()?;
        let db = TestDb::create(Backend::Postgres).await?;
        Some(TestCluster {
            db,
            nats,
            // Tests run at once on one NATS server: each gets its own subjects.
            name: format!("t{}", &uuid::Uuid::new_v4().simple().to_string()[..12]),
            binary: drills::server_binary(),
            http: reqwest::Client::new(),
        })
    }

    pub(crate) async fn node(&self, name: &str, ttl_ms: u64) -> ServerProcess {
        self.node_via(name, ttl_ms, self.db.url(), &self.nats, &[]).await
    }

    /// A node that reaches PostgreSQL at `database_url` and NATS at `nats_url` (the same
    /// servers as the others', through a fault proxy, say), with more `crease serve` flags;
    /// the route timeout is 3 s unless `flags` set it.
    pub(crate) async fn node_via(
        &self,
        name: &str,
        ttl_ms: u64,
        database_url: &str,
        nats_url: &str,
        flags: &[&str],
    ) -> ServerProcess {
        let mut all: Vec<String> = [
            "--nats-url",
            nats_url,
            "--cluster-name",
            &self.name,
            "--node-name",
            name,
            "--lease-ttl-ms",
            &ttl_ms.to_string(),
            "--rate-limits",
            "off",
        ]
        .iter()
        .map(|flag| flag.to_string())
        .collect();
        if !flags.contains(&"--route-timeout-ms") {
            all.extend(["--route-timeout-ms".to_string(), "3000".to_string()]);
        }
        all.extend(flags.iter().map(|flag| flag.to_string()));
        let node = ServerProcess::start_with(&self.binary, database_url, &all).await;
        assert!(node.node.is_some(), "a cluster node logs its node id");
        node
    }

    pub(crate) async fn store(&self) -> Store {
        Store::connect(self.db.url())
            .await
            .expect("connect to the test database")
    }

    /// A CTG T10 match created by `token` through `base` (against the bot, or open for a
    /// second player): its id.
    async fn create_t10(&self, base: &str, token: &str, against_the_bot: bool) -> String {
        let mut body = json!({ "game": "ctg", "options": { "format": "t10" } });
        if against_the_bot {
            body["opponent"] = json!("bot");
        }
        let (status, info) = post(&self.http, &format!("{base}/v1/matches"), token, body).await;
        assert_eq!(status, 201, "{info}");
        info["match_id"].as_str().expect("match_id").to_string()
    }

    /// Creates the matches through `base`; returns `(match_id, seat tokens)` for each.
    pub(crate) async fn create_matches(
        &self,
        base: &str,
        matches: &[(&str, Value, usize)],
    ) -> Vec<(String, Vec<String>)> {
        let mut created = Vec::new();
        for (index, (game, options, remote)) in matches.iter().enumerate() {
            let (_, creator) = register(&self.http, base, &format!("{game}-{index}-a")).await;
            let mut body = json!({ "game": game, "options": options });
            if *remote == 1 {
                body["opponent"] = json!("bot");
            }
            let (status, info) = post(&self.http, &format!("{base}/v1/matches"), &creator, body).await;
            assert_eq!(status, 201, "{info}");
            let match_id = info["match_id"].as_str().expect("match_id").to_string();
            let mut tokens = vec![creator];
            if *remote == 2 {
                let (_, joiner) = register(&self.http, base, &format!("{game}-{index}-b")).await;
                let url = format!("{base}/v1/matches/{match_id}/join");
                let (status, joined) = post(&self.http, &url, &joiner, json!({})).await;
                assert_eq!(status, 200, "{joined}");
                tokens.push(joiner);
            }
            created.push((match_id, tokens));
        }
        created
    }
}

/// The node holding a match's lease, and the lease's epoch.
pub(crate) async fn lease(store: &Store, match_id: &str) -> (String, i64) {
    let sql = format!("SELECT node_id, epoch FROM match_lease WHERE match_id = '{match_id}'");
    let rows = sqlx_rows(store, &sql).await;
    let row = rows
        .first()
        .unwrap_or_else(|| panic!("match {match_id} has no lease"));
    (row.0.clone(), row.1)
}

/// Waits (at most `limit`) until `ready` holds, checking every 20 ms; panics with `what`.
pub(crate) async fn until<F: std::future::Future<Output = bool>>(
    limit: Duration,
    what: &str,
    mut ready: impl FnMut() -> F,
) {
    let started = Instant::now();
    while !ready().await {
        assert!(started.elapsed() < limit, "{what}: not within {limit:?}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

pub(crate) async fn sqlx_rows(store: &Store, sql: &str) -> Vec<(String, i64)> {
    let Store::Postgres(pool) = store else {
        panic!("cluster tests run on PostgreSQL")
    };
    sqlx::query_as::<_, (String, i64)>(sqlx::AssertSqlSafe(sql.to_string()))
        .fetch_all(pool)
        .await
        .expect("query the test database")
}

/// Starts one remote seat per token; each plays through `drill`'s current server.
fn play(
    games: &GameRegistry,
    matches: &[(&str, Value, usize)],
    created: &[(String, Vec<String>)],
    drill_of: impl Fn(usize, usize) -> Arc<Drill>,
) -> Vec<tokio::task::JoinHandle<SeatRecord>> {
    let mut seats = Vec::new();
    for (index, ((game, _, _), (match_id, tokens))) in matches.iter().zip(created).enumerate() {
        let kind = games.get(game).expect("a standard game");
        for (seat, token) in tokens.iter().enumerate() {
            let drill = drill_of(index, seat);
            let slot = if drill.acks.len() > index { index } else { 0 };
            let remote = RemoteSeat::new(
                kind.clone(),
                match_id,
                token,
                (drill, slot),
                (index * 10 + seat) as u64,
            );
            seats.push(tokio::spawn(remote.play()));
        }
    }
    seats
}

async fn finish(seats: Vec<tokio::task::JoinHandle<SeatRecord>>) -> Vec<SeatRecord> {
    let mut records = Vec::new();
    for seat in seats {
        records.push(seat.await.expect("a seat played to the end"));
    }
    records
}

/// Checks every seat (acks in the log, events in order, the log verifies) through `base`;
/// returns the acks proved.
async fn check_all(
    http: &reqwest::Client,
    base: &str,
    records: &[SeatRecord],
    connections: Option<usize>,
) -> usize {
    let mut checked = 0;
    for record in records {
        checked += drills::check_seat(http, base, record, connections).await;
        drills::check_unacked(http, base, record).await;
    }
    checked
}

/// For each seat that reconnected after `since`, the time from `since` to its first ack on a
/// connection opened after it (acks on the old socket, answered before the node stopped, do
/// not count): when play resumed on the match's new node.
fn resumed_after(records: &[SeatRecord], since: Instant) -> Vec<Duration> {
    records
        .iter()
        .filter_map(|record| {
            let before = record.connected_at.iter().filter(|at| **at <= since).count();
            record
                .acked
                .iter()
                .filter(|acked| acked.connection > before)
                .map(|acked| acked.at - since)
                .min()
        })
        .collect()
}

/// The first and the last seat's resumption after `since` (see [`resumed_after`]).
fn resumption(records: &[SeatRecord], since: Instant) -> (Duration, Duration) {
    let resumed = resumed_after(records, since);
    let first = resumed
        .iter()
        .min()
        .copied()
        .expect("some seat resumed on a new connection");
    let last = resumed.iter().max().copied().unwrap_or(first);
    (first, last)
}

fn mixed_matches() -> Vec<(&'static str, Value, usize)> {
    vec![
        ("ctg", json!({ "format": "t10" }), 2),
        ("wicketz", json!({ "overs": 12 }), 1),
        ("champions", json!({ "players": 3 }), 1),
        ("ctg", json!({ "format": "t10" }), 1),
    ]
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn any_node_serves_any_match_over_routed_sockets() {
    let Some(cluster) = TestCluster::new().await else {
        return;
    };
    let nodes = [
        cluster.node("a", TTL_MS).await,
        cluster.node("b", TTL_MS).await,
        cluster.node("c", TTL_MS).await,
    ];
    let matches = mixed_matches();
    // Created through one node; placed on the least-loaded ones.
    let created = cluster.create_matches(&nodes[0].base, &matches).await;
    let store = cluster.store().await;
    let mut owners = Vec::new();
    for (match_id, _) in &created {
        owners.push(lease(&store, match_id).await.0);
    }
    let distinct: std::collections::HashSet<&String> = owners.iter().collect();
    assert!(
        distinct.len() >= 2,
        "new matches are spread over the nodes: {owners:?}"
    );

    // Every seat plays through a node that does not run its match.
    let games = GameRegistry::standard();
    let seats = play(&games, &matches, &created, |index, seat| {
        let others: Vec<&ServerProcess> = nodes
            .iter()
            .filter(|node| node.node.as_ref() != Some(&owners[index]))
            .collect();
        Drill::new(&others[seat % others.len()].base, 1)
    });
    let records = finish(seats).await;
    // One socket each: nothing needed a reconnect.
    let acks = check_all(&cluster.http, &nodes[1].base, &records, Some(1)).await;
    let mut routed = 0.0;
    for node in &nodes {
        routed += metric(
            &cluster.http,
            &node.base,
            "crease_cluster_routed_request_duration_seconds_count",
            &["kind=\"command\""],
        )
        .await;
    }
    assert!(
        routed >= acks as f64,
        "every acked command was routed: {routed} < {acks}"
    );

    let (status, info) = get(&cluster.http, &format!("{}/v1/cluster", nodes[2].base)).await;
    assert_eq!(status, 200, "{info}");
    assert_eq!(info["mode"], "cluster");
    let listed = info["nodes"].as_array().expect("nodes");
    assert_eq!(listed.len(), 3, "{info}");
    assert!(listed.iter().all(|node| node["alive"] == true), "{info}");
    eprintln!(
        "cross-node play: {} seats, {acks} acked commands, all routed",
        records.len()
    );
}

/// A seat's sockets opened while its match is open, one on each node: whichever node then
/// runs the match, both get the start's events (from seq 1) and the first update, in
/// protocol 1 and, on its own feed, in protocol 2 as one step to the same view.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sockets_opened_before_the_start_get_it_on_either_node() {
    use futures_util::StreamExt;
    use tokio_tungstenite::tungstenite::Message;
    let Some(cluster) = TestCluster::new().await else {
        return;
    };
    let nodes = [cluster.node("a", TTL_MS).await, cluster.node("b", TTL_MS).await];
    let (_, home) = register(&cluster.http, &nodes[0].base, "early-home").await;
    let (_, away) = register(&cluster.http, &nodes[0].base, "early-away").await;
    let match_id = cluster.create_t10(&nodes[0].base, &home, false).await;
    // On each node, a protocol 1 and a protocol 2 socket of the home seat.
    let mut sockets = Vec::new();
    for node in &nodes {
        for protocol in [1, 2] {
            let url = format!(
                "{}/v1/matches/{match_id}/ws?token={home}&protocol={protocol}",
                node.base.replacen("http", "ws", 1)
            );
            let (socket, _) = tokio_tungstenite::connect_async(url.as_str())
                .await
                .expect("a seat may connect before the start");
            sockets.push(socket);
        }
    }
    async fn next_json<S>(socket: &mut tokio_tungstenite::WebSocketStream<S>) -> Value
    where
        S: tokio::io::AsyncRead + tokio::io::AsyncWrite + Unpin,
    {
        loop {
            let frame = tokio::time::timeout(Duration::from_secs(20), socket.next())
                .await
                .expect("the server went quiet");
            match frame {
                Some(Ok(Message::Text(text))) => return serde_json::from_str(&text).expect("JSON"),
                Some(Ok(_)) => continue,
                other => panic!("the socket ended: {other:?}"),
            }
        }
    }
    let mut snapshots = Vec::new();
    for socket in &mut sockets {
        let snapshot = next_json(socket).await;
        assert_eq!(
            (snapshot["type"].as_str(), snapshot["status"].as_str()),
            (Some("snapshot"), Some("open"))
        );
        snapshots.push(snapshot);
    }
    let url = format!("{}/v1/matches/{match_id}/join", nodes[1].base);
    let (status, joined) = post(&cluster.http, &url, &away, json!({})).await;
    assert_eq!(status, 200, "{joined}");
    let owner = lease(&cluster.store().await, &match_id).await.0;
    let mut sockets = sockets.into_iter();
    let mut snapshots = snapshots.into_iter();
    for node in &nodes {
        let (mut full, mut steps) = (sockets.next().expect("v1"), sockets.next().expect("v2"));
        let first = next_json(&mut full).await;
        assert_eq!(
            (first["type"].as_str(), first["seq"].as_i64()),
            (Some("event"), Some(1)),
            "{first}"
        );
        let update = loop {
            let frame = next_json(&mut full).await;
            if frame["type"] == "update" {
                break frame;
            }
            assert_eq!(frame["type"], "event", "{frame}");
        };
        assert_eq!(update["pending"], json!([0, 1]), "both seats choose their squads");
        // Protocol 2 crosses the cluster on its own feed: one step, the same start.
        let _ = snapshots.next();
        let mut view = snapshots.next().expect("v2 snapshot")["view"].clone();
        let step = next_json(&mut steps).await;
        assert_eq!(step["type"], "step", "{step}");
        assert_eq!(step["events"][0][0], 1, "{step}");
        assert_eq!(
            (&step["last_seq"], &step["pending"]),
            (&update["last_seq"], &update["pending"])
        );
        json_patch::merge(&mut view, &step["view"]);
        assert_eq!(
            view,
            without_nulls(update["view"].clone()),
            "protocol 2's view on node {:?}",
            node.node
        );
        eprintln!(
            "sockets on node {:?} (owner {owner}): start events up to {}",
            node.node, update["last_seq"]
        );
    }
}

/// Issue 23: a logout on one node closes the token's sockets on every node within a second
/// (over NATS), whichever node they are on and whichever runs the match.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_logout_on_one_node_closes_the_sessions_sockets_on_every_node() {
    use futures_util::{SinkExt, StreamExt};
    use tokio_tungstenite::tungstenite::Message;
    let Some(cluster) = TestCluster::new().await else {
        return;
    };
    let nodes = [cluster.node("a", TTL_MS).await, cluster.node("b", TTL_MS).await];
    let (_, guest) = register(&cluster.http, &nodes[0].base, "logout-owner").await;
    let claim = json!({ "username": "logout-owner", "password": "correct horse battery" });
    let url = format!("{}/v1/account/claim", nodes[0].base);
    let (status, body) = post(&cluster.http, &url, &guest, claim).await;
    assert_eq!(status, 200, "{body}");
    let match_id = cluster.create_t10(&nodes[0].base, &guest, true).await;
    let mut sockets = Vec::new();
    for node in &nodes {
        let url = format!(
            "{}/v1/matches/{match_id}/ws?token={guest}",
            node.base.replacen("http", "ws", 1)
        );
        let (socket, _) = tokio_tungstenite::connect_async(url.as_str())
            .await
            .expect("connect");
        sockets.push(socket);
    }
    // Both sockets play: each answers a ping.
    for socket in &mut sockets {
        let ping = json!({ "type": "ping", "id": "alive?" }).to_string();
        socket.send(Message::Text(ping.into())).await.expect("send");
        loop {
            let frame = tokio::time::timeout(Duration::from_secs(20), socket.next())
                .await
                .expect("the server went quiet");
            match frame {
                Some(Ok(Message::Text(text))) if text.contains("\"pong\"") => break,
                Some(Ok(_)) => continue,
                other => panic!("the socket ended: {other:?}"),
            }
        }
    }
    let response = cluster
        .http
        .delete(format!("{}/v1/sessions/current", nodes[0].base))
        .bearer_auth(&guest)
        .send()
        .await
        .expect("DELETE");
    assert_eq!(response.status().as_u16(), 200);
    let logged_out = Instant::now();
    for (index, socket) in sockets.iter_mut().enumerate() {
        let code = loop {
            let frame = tokio::time::timeout(Duration::from_secs(5), socket.next())
                .await
                .unwrap_or_else(|_| panic!("the socket on node {index} stayed open"));
            match frame {
                Some(Ok(Message::Close(frame))) => break frame.map(|frame| u16::from(frame.code)),
                Some(Ok(_)) => continue,
                other => panic!("the socket on node {index} ended without a close: {other:?}"),
            }
        };
        assert_eq!(code, Some(4401), "node {index}");
        assert!(
            logged_out.elapsed() < Duration::from_secs(1),
            "node {index} closed after {:?}",
            logged_out.elapsed()
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kill_9_of_the_owner_moves_its_matches_and_loses_no_acked_command() {
    let Some(cluster) = TestCluster::new().await else {
        return;
    };
    // Alone at first, so every match is placed on it.
    let doomed = cluster.node("doomed", TTL_MS).await;
    let matches = mixed_matches();
    let created = cluster.create_matches(&doomed.base, &matches).await;
    let survivors = [cluster.node("b", TTL_MS).await, cluster.node("c", TTL_MS).await];
    let drill = Drill::retrying(&survivors[0].base, matches.len(), Duration::from_millis(200));
    let games = GameRegistry::standard();
    let seats = play(&games, &matches, &created, |_, _| drill.clone());

    let (acks, in_flight) = drill
        .until_every_slot_acked(&vec![0; matches.len()], 3, Duration::from_secs(120))
        .await;
    let killed_at = Instant::now();
    doomed.kill().await;
    eprintln!("kill -9 with {in_flight} commands in flight; acks per match {acks:?}");

    let records = finish(seats).await;
    let (resumed, last) = resumption(&records, killed_at);
    let acked = check_all(&cluster.http, &survivors[1].base, &records, None).await;
    let store = cluster.store().await;
    let survivor_ids: Vec<&String> = survivors.iter().filter_map(|node| node.node.as_ref()).collect();
    for (match_id, _) in &created {
        let (owner, epoch) = lease(&store, match_id).await;
        assert!(survivor_ids.contains(&&owner), "{match_id} ended on {owner}");
        assert!(epoch >= 2, "{match_id}: taken over, so a new epoch ({epoch})");
    }
    eprintln!(
        "failover: {acked} acked commands all in their logs; from kill -9 to the first resumed ack \
         {:.2} s, to the last seat's {:.2} s (lease TTL {:.1} s)",
        resumed.as_secs_f64(),
        last.as_secs_f64(),
        TTL_MS as f64 / 1000.0
    );
    assert!(
        resumed < Duration::from_millis(TTL_MS) + Duration::from_secs(10),
        "play resumed {resumed:?} after the kill"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_paused_owner_is_fenced_and_its_sockets_move() {
    let Some(cluster) = TestCluster::new().await else {
        return;
    };
    let paused = cluster.node("paused", TTL_MS).await;
    let matches = vec![("ctg", json!({ "format": "t10" }), 1)];
    let created = cluster.create_matches(&paused.base, &matches).await;
    let taker = cluster.node("taker", TTL_MS).await;
    let match_id = created[0].0.clone();
    let store = cluster.store().await;
    let (owner, epoch) = lease(&store, &match_id).await;
    assert_eq!(Some(&owner), paused.node.as_ref());
    assert_eq!(epoch, 1);

    // The seat plays on the owner itself.
    let drill = Drill::retrying(&paused.base, 1, Duration::from_millis(200));
    let games = GameRegistry::standard();
    let seats = play(&games, &matches, &created, |_, _| drill.clone());
    drill
        .until_every_slot_acked(&[0], 3, Duration::from_secs(60))
        .await;

    paused.signal("STOP");
    let stopped_at = Instant::now();
    let claimed = loop {
        let (owner, epoch) = lease(&store, &match_id).await;
        if Some(&owner) == taker.node.as_ref() {
            break epoch;
        }
        assert!(
            stopped_at.elapsed() < Duration::from_secs(30),
            "nobody took the match over"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    assert_eq!(claimed, 2, "the takeover raised the epoch");
    let log_at_claim = sqlx_rows(
        &store,
        &format!("SELECT 'n', count(*) FROM match_event WHERE match_id = '{match_id}'"),
    )
    .await[0]
        .1;
    eprintln!(
        "taken over {:.2} s after SIGSTOP, at log length {log_at_claim}",
        stopped_at.elapsed().as_secs_f64()
    );
    // Long enough for the frozen node's turn clock and lease timer to be overdue on waking.
    tokio::time::sleep(Duration::from_secs(3)).await;
    paused.signal("CONT");
    let woke_at = Instant::now();

    // The seat's socket on the old owner is closed (1001 or `match_moved`), and it resumes,
    // still through the old owner, which now routes to the new one.
    let records = finish(seats).await;
    let record = &records[0];
    assert!(
        record.connections >= 2,
        "the socket moved: {} connections",
        record.connections
    );
    let (resumed, _) = resumption(&records, woke_at);
    check_all(&cluster.http, &taker.base, &records, None).await;
    // The old owner runs nothing now, and what it tried after waking was refused.
    let live = metric(&cluster.http, &paused.base, "crease_live_matches", &[]).await;
    assert_eq!(live, 0.0, "the paused node stopped the match it lost");
    let fenced = metric(
        &cluster.http,
        &paused.base,
        "crease_cluster_fenced_writes_total",
        &[],
    )
    .await;
    let (owner, _) = lease(&store, &match_id).await;
    assert_eq!(
        Some(&owner),
        taker.node.as_ref(),
        "the lease stayed with the new owner"
    );
    eprintln!(
        "after SIGCONT: first ack {:.2} s later; writes refused by the fence on the old owner: {}",
        resumed.as_secs_f64(),
        fenced
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigterm_drains_a_node_at_once() {
    let Some(cluster) = TestCluster::new().await else {
        return;
    };
    // A long lease: the hand-off must not wait for it.
    let ttl_ms = 20_000;
    let leaving = cluster.node("leaving", ttl_ms).await;
    let matches = mixed_matches();
    let created = cluster.create_matches(&leaving.base, &matches).await;
    let staying = cluster.node("staying", ttl_ms).await;
    let drill = Drill::retrying(&leaving.base, matches.len(), Duration::from_millis(100));
    let games = GameRegistry::standard();
    let seats = play(&games, &matches, &created, |_, _| drill.clone());
    drill
        .until_every_slot_acked(&vec![0; matches.len()], 3, Duration::from_secs(120))
        .await;

    drill.server.send_replace(staying.base.clone());
    let term_at = Instant::now();
    leaving.signal("TERM");
    let records = finish(seats).await;
    let (first, handed_off) = resumption(&records, term_at);
    assert!(
        leaving.exited_within(Duration::from_secs(30)).await,
        "a drained node exits cleanly"
    );
    check_all(&cluster.http, &staying.base, &records, None).await;
    let store = cluster.store().await;
    for (match_id, _) in &created {
        assert_eq!(Some(&lease(&store, match_id).await.0), staying.node.as_ref());
    }
    eprintln!(
        "drain: from SIGTERM to the first resumed ack {:.2} s, to the last seat's {:.2} s (lease TTL {} s)",
        first.as_secs_f64(),
        handed_off.as_secs_f64(),
        ttl_ms / 1000
    );
    assert!(
        handed_off < Duration::from_millis(ttl_ms / 2),
        "the matches moved at once, not at the lease's expiry: {handed_off:?}"
    );
}

/// A match adjourned on one node moves with that node's drain and stays adjourned on the
/// next (its actor rebuilt there from the log), which resumes it once both players are back.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_adjourned_match_moves_with_a_drain_and_resumes_on_the_new_node() {
    let Some(cluster) = TestCluster::new().await else {
        return;
    };
    let ttl_ms = 20_000;
    let leaving = cluster.node("leaving", ttl_ms).await;
    let (_, home) = register(&cluster.http, &leaving.base, "adjourn-home").await;
    let (_, away) = register(&cluster.http, &leaving.base, "adjourn-away").await;
    let match_id = cluster.create_t10(&leaving.base, &home, false).await;
    let join = format!("{}/v1/matches/{match_id}/join", leaving.base);
    let (status, joined) = post(&cluster.http, &join, &away, json!({})).await;
    assert_eq!(status, 200, "{joined}");
    let mut home_socket = common::connect_at(&leaving.base, &match_id, Some(&home), None, None).await;
    let mut away_socket = common::connect_at(&leaving.base, &match_id, Some(&away), None, None).await;
    home_socket.recv().await;
    away_socket.recv().await;
    let offer = home_socket.adjourn("offer", None).await;
    assert!(matches!(
        home_socket.answer(&offer).await,
        ServerMessage::Ack { .. }
    ));
    let accept = away_socket.adjourn("accept", None).await;
    assert!(matches!(
        away_socket.answer(&accept).await,
        ServerMessage::Ack { .. }
    ));
    drop(home_socket);
    drop(away_socket);

    let staying = cluster.node("staying", ttl_ms).await;
    let term_at = Instant::now();
    leaving.signal("TERM");
    assert!(
        leaving.exited_within(Duration::from_secs(30)).await,
        "a drained node exits"
    );
    // The leaving node gives its leases up and announces the orphans; the staying node
    // claims them when the announcement reaches it, which may be just after the exit. It
    // must be long before the lease's TTL would have freed the match.
    let store = cluster.store().await;
    let claimed_within = Duration::from_millis(ttl_ms / 2).saturating_sub(term_at.elapsed());
    until(
        claimed_within,
        "the staying node claims the adjourned match",
        || async { Some(&lease(&store, &match_id).await.0) == staying.node.as_ref() },
    )
    .await;
    let (_, shown) = get(&cluster.http, &format!("{}/v1/matches/{match_id}", staying.base)).await;
    assert!(
        shown["adjourned_at"].is_string(),
        "still adjourned on the new node: {shown}"
    );

    let mut home_socket = common::connect_at(&staying.base, &match_id, Some(&home), None, None).await;
    let ServerMessage::Snapshot(snapshot) = home_socket.recv().await else {
        panic!("a snapshot first");
    };
    let standing = snapshot
        .adjournment
        .expect("adjourned in the new node's snapshot");
    assert_eq!(standing.state, AdjournmentState::Adjourned);
    let mut away_socket = common::connect_at(&staying.base, &match_id, Some(&away), None, None).await;
    away_socket.recv().await;
    assert_eq!(away_socket.adjournment().await.action, AdjournmentAction::Resumed);
    let update = loop {
        if let ServerMessage::Update(update) = home_socket.recv().await {
            break update;
        }
    };
    assert!(!update.pending.is_empty(), "play goes on: {update:?}");
    let (_, log) = get(
        &cluster.http,
        &format!("{}/v1/matches/{match_id}/log", staying.base),
    )
    .await;
    let steps: Vec<&Value> = log["entries"]
        .as_array()
        .expect("entries")
        .iter()
        .filter(|entry| entry["kind"] == "adjournment")
        .map(|entry| &entry["payload"]["action"])
        .collect();
    assert_eq!(steps, [&json!("offered"), &json!("agreed"), &json!("resumed")]);
}

fn node_record(node_id: &str, lease_ttl_ms: i64) -> NodeRecord {
    NodeRecord {
        node_id: node_id.to_string(),
        name: node_id.to_string(),
        advertise_url: None,
        started_at: chrono::Utc::now(),
        lease_ttl_ms,
        runs_matches: true,
    }
}

fn entry(seq: i64) -> NewEntry {
    NewEntry {
        seq,
        kind: EntryKind::Event,
        payload: serde_json::value::to_raw_value(&json!({ "n": seq })).expect("json"),
    }
}

/// The fence without processes: a write under a superseded epoch never commits, a takeover
/// waits for a transaction that checked the current epoch, and the loser learns it lost.
#[tokio::test]
async fn writes_under_an_old_epoch_are_refused_and_a_takeover_waits_for_a_write_in_progress() {
    let Some(db) = TestDb::create(Backend::Postgres).await else {
        return;
    };
    let store = Store::connect(db.url()).await.expect("connect");
    let m = common::match_id("00000000-0000-0000-0000-00000000006d");
    store
        .execute_unchecked(
            "INSERT INTO \"match\" (match_id, game, options, status, seat_count, turn_clock_ms, \
             disconnect_grace_ms, seed_commitment, seed, created_at) \
             VALUES ('00000000-0000-0000-0000-00000000006d', 'ctg', '{}', 'live', 2, 1000, 1000, 'c', 's', now())",
        )
        .await
        .expect("a live match");
    // Node a's heartbeat holds its leases for 300 ms; b's and c's for a minute.
    for (node, ttl) in [("a", 300), ("b", 60_000), ("c", 60_000)] {
        store
            .heartbeat(&node_record(node, ttl), false)
            .await
            .expect("heartbeat");
    }
    let first = store.place_match(&m, "a").await.expect("place").expect("a lease");
    assert_eq!(first.epoch, 1);
    assert!(
        store.place_match(&m, "b").await.expect("place").is_none(),
        "placed once"
    );
    assert!(
        store.claim_orphans("b", 10).await.expect("claim").is_empty(),
        "a's heartbeat is fresh: nothing to claim"
    );
    let now = chrono::Utc::now();
    store
        .append(&m, &[entry(1)], None, now, Some(Fence(1)))
        .await
        .expect("the owner writes");
    // a's heartbeat is not renewed: after its TTL another node claims it, raising the epoch.
    tokio::time::sleep(Duration::from_millis(400)).await;
    let claimed = store.claim_orphans("b", 10).await.expect("claim");
    assert_eq!(claimed.len(), 1);
    assert_eq!(claimed[0].epoch, 2);
    let stale = store.append(&m, &[entry(2)], None, now, Some(Fence(1))).await;
    assert!(matches!(stale, Err(StoreError::Fenced(_))), "{stale:?}");
    assert!(
        store.held_leases("a").await.expect("held").is_empty(),
        "a lost it"
    );
    assert_eq!(store.held_leases("b").await.expect("held"), claimed);
    store
        .append(&m, &[entry(2)], None, now, Some(Fence(2)))
        .await
        .expect("the new owner writes");
    assert_eq!(store.log(&m).await.expect("log").len(), 2);

    // A write holding epoch 2 (its transaction has checked the fence and not committed yet)
    // makes a takeover wait; the takeover then sees the write, and the writer's next write is
    // refused.
    let Store::Postgres(pool) = &store else {
        unreachable!()
    };
    let mut writing = pool.begin().await.expect("begin");
    sqlx::query("SELECT 1 FROM match_lease WHERE match_id = '00000000-0000-0000-0000-00000000006d' AND epoch = 2 FOR SHARE")
        .fetch_one(&mut *writing)
        .await
        .expect("the fence check");
    sqlx::query(
        "INSERT INTO match_event (match_id, seq, at, kind, payload) VALUES ('00000000-0000-0000-0000-00000000006d', 3, now(), 'event', '{}')",
    )
    .execute(&mut *writing)
    .await
    .expect("the write");
    let taking = {
        let store = store.clone();
        tokio::spawn(async move { store.take_over(&claimed[0], "b", "c").await })
    };
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert!(
        !taking.is_finished(),
        "the takeover waits for the write in progress"
    );
    writing.commit().await.expect("commit");
    let taken = taking.await.expect("task").expect("take over").expect("taken");
    assert_eq!(taken.epoch, 3);
    assert_eq!(
        store.log(&m).await.expect("log").len(),
        3,
        "the write before the takeover stands"
    );
    let late = store.append(&m, &[entry(4)], None, now, Some(Fence(2))).await;
    assert!(matches!(late, Err(StoreError::Fenced(_))), "{late:?}");
}

/// The actor's side of the fence, deterministically (one in-process node whose lease another
/// node "takes" behind its back, with renewals far apart): the next write is refused, nothing
/// reaches the log, the player hears `match_moved`, and every socket of the match is closed
/// with 1001 so its client resumes where the match now runs.
#[tokio::test]
async fn an_actor_whose_lease_was_taken_writes_nothing_and_moves_its_sockets() {
    use crease::protocol::{ErrorCode, ServerMessage};
    use crease::rules::{BotPolicy, Dice, Game, Seed, ctg::Ctg};
    let Some(nats) = nats_url() else {
        return;
    };
    let cluster_name = format!("t{}", &uuid::Uuid::new_v4().simple().to_string()[..12]);
    let Some(app) = common::spawn_app_with(Backend::Postgres, GameRegistry::standard(), |config| {
        config.cluster.nats_url = Some(nats);
        config.cluster.cluster_name = cluster_name;
        // Renewals 200 s apart: only the fence can notice the takeover during this test.
        config.cluster.lease_ttl_ms = 600_000;
    })
    .await
    else {
        return;
    };
    let (info, home, away) = app.live_match("ctg", json!({ "format": "t10" })).await;
    let id = info.match_id.clone();
    let mut clients = [
        app.connect(&id, Some(&home.token), None).await,
        app.connect(&id, Some(&away.token), None).await,
    ];
    let mut snapshots = Vec::new();
    for client in &mut clients {
        match client.recv().await {
            ServerMessage::Snapshot(snapshot) => snapshots.push(snapshot),
            other => panic!("expected a snapshot, got {other:?}"),
        }
    }
    let logged = app
        .app()
        .store()
        .log(&common::match_id(&id))
        .await
        .expect("log")
        .len();

    app.app()
        .store()
        .execute_unchecked(&format!(
            "UPDATE match_lease SET node_id = 'elsewhere', epoch = epoch + 1 WHERE match_id = '{id}'"
        ))
        .await
        .expect("another node takes the match");

    // The seat the game waits for plays a legal move: the write is refused by the fence.
    let turn = snapshots
        .iter()
        .position(|snapshot| snapshot.seat.is_some_and(|seat| snapshot.pending.contains(&seat)))
        .expect("the game waits for a seat");
    let view: <Ctg as Game>::View = serde_json::from_value(snapshots[turn].view.clone()).expect("a CTG view");
    let command = Ctg::bot_command(&view, BotPolicy::Heuristic, &mut Dice::new(&Seed::from_u64(1)))
        .expect("a legal move");
    let command_id = clients[turn]
        .command(serde_json::to_value(command).expect("json"))
        .await;
    match clients[turn].recv().await {
        ServerMessage::Error(error) => {
            assert_eq!(error.code, ErrorCode::MatchMoved, "{error:?}");
            assert_eq!(error.id.as_deref(), Some(command_id.as_str()));
        }
        other => panic!("expected match_moved, got {other:?}"),
    }
    for client in &mut clients {
        loop {
            match client.next().await {
                common::Received::Closed(code) => {
                    assert_eq!(code, Some(1001), "closed so the client resumes elsewhere");
                    break;
                }
                common::Received::Message(message) => {
                    assert!(
                        !matches!(*message, ServerMessage::Event { .. } | ServerMessage::Ack { .. }),
                        "nothing was played: {message:?}"
                    );
                }
            }
        }
    }
    assert_eq!(
        app.app()
            .store()
            .log(&common::match_id(&id))
            .await
            .expect("log")
            .len(),
        logged,
        "the log is untouched"
    );
    let fenced = metric(&app.http, &app.base, "crease_cluster_fenced_writes_total", &[]).await;
    assert!(fenced >= 1.0, "the refused write is counted: {fenced}");
}

/// Group commit keeps the fence per append: in one group, the append whose epoch is stale
/// fails alone and the others commit.
#[tokio::test]
async fn a_fenced_append_fails_alone_in_its_group() {
    use crease::store::{GroupPolicy, Journal};
    let Some(db) = TestDb::create(Backend::Postgres).await else {
        return;
    };
    let store = Store::connect(db.url()).await.expect("connect");
    let (held, lost) = (
        common::match_id("00000000-0000-0000-0000-0000000000a1"),
        common::match_id("00000000-0000-0000-0000-0000000000a2"),
    );
    for id in [&held, &lost] {
        store
            .execute_unchecked(&format!(
                "INSERT INTO \"match\" (match_id, game, options, status, seat_count, turn_clock_ms, \
                 disconnect_grace_ms, seed_commitment, seed, created_at) \
                 VALUES ('{id}', 'ctg', '{{}}', 'live', 2, 1000, 1000, 'c', 's', now())"
            ))
            .await
            .expect("a live match");
        store.place_match(id, "a").await.expect("place").expect("lease");
    }
    store
        .execute_unchecked("UPDATE match_lease SET epoch = 2, node_id = 'b' WHERE match_id = '00000000-0000-0000-0000-0000000000a2'")
        .await
        .expect("taken over");
    let policy = GroupPolicy {
        window: Duration::from_millis(50),
        max_appends: 16,
        writers: 1,
    };
    let journal = Journal::spawn(store.clone(), policy);
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    let now = chrono::Utc::now();
    let held_append = journal
        .enqueue_by(deadline, &held, vec![entry(1)], None, now, Some(Fence(1)))
        .await
        .expect("queued");
    let lost_append = journal
        .enqueue_by(deadline, &lost, vec![entry(1)], None, now, Some(Fence(1)))
        .await
        .expect("queued");
    let (held_answer, lost_answer) = tokio::join!(held_append, lost_append);
    held_answer
        .expect("answered")
        .expect("the held lease's append commits");
    let refused = lost_answer
        .expect("answered")
        .expect_err("the stale epoch is refused");
    assert!(refused.error.is_fenced(), "{:?}", refused.error);
    assert_eq!(store.log(&held).await.expect("log").len(), 1);
    assert!(store.log(&lost).await.expect("log").is_empty());
}

/// One matchmaking queue for the whole cluster: two players queue on two different nodes and
/// are paired into one match (placed on some node), a third queues with bot fallback and gets
/// a bot match; every match is played through yet another node, and the finished human match
/// is rated.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn matchmaking_pairs_tickets_across_nodes_and_rates_the_result() {
    let Some(cluster) = TestCluster::new().await else {
        return;
    };
    let flags = |name: &str| -> Vec<String> {
        [
            "--nats-url",
            &cluster.nats,
            "--cluster-name",
            &cluster.name,
            "--node-name",
            name,
            "--rate-limits",
            "off",
            "--matchmaking-bot-after-secs",
            "1",
        ]
        .iter()
        .map(|flag| flag.to_string())
        .collect()
    };
    let mut nodes = Vec::new();
    for name in ["a", "b", "c"] {
        nodes.push(ServerProcess::start_with(&cluster.binary, cluster.db.url(), &flags(name)).await);
    }
    let http = &cluster.http;
    let ticket = |base: &str, token: &str, bot: bool| {
        let (base, token) = (base.to_string(), token.to_string());
        async move {
            let body = json!({ "game": "ctg", "options": { "format": "t10" }, "bot_fallback": bot });
            let (status, ticket) = post(http, &format!("{base}/v1/matchmaking/tickets"), &token, body).await;
            assert!(status == 201 || status == 200, "{status} {ticket}");
            ticket["ticket_id"].as_str().expect("ticket id").to_string()
        }
    };
    let (first_id, first) = register(http, &nodes[0].base, "first").await;
    let (_, second) = register(http, &nodes[1].base, "second").await;
    let (_, alone) = register(http, &nodes[2].base, "alone").await;
    let tickets = [
        (0, first.clone(), ticket(&nodes[0].base, &first, false).await),
        (1, second.clone(), ticket(&nodes[1].base, &second, false).await),
        (2, alone.clone(), ticket(&nodes[2].base, &alone, true).await),
    ];
    let mut matched = Vec::new();
    for (node, token, ticket_id) in &tickets {
        let url = format!("{}/v1/matchmaking/tickets/{ticket_id}", nodes[*node].base);
        let started = Instant::now();
        let match_id = loop {
            let response = http
                .get(&url)
                .bearer_auth(token)
                .send()
                .await
                .expect("GET ticket");
            let body: Value = response.json().await.expect("ticket JSON");
            if body["status"] == "matched" {
                break body["match_id"].as_str().expect("match id").to_string();
            }
            assert!(started.elapsed() < Duration::from_secs(30), "not matched: {body}");
            tokio::time::sleep(Duration::from_millis(100)).await;
        };
        matched.push((match_id, token.clone()));
    }
    assert_eq!(
        matched[0].0, matched[1].0,
        "the two queued players meet, across nodes"
    );
    assert_ne!(matched[2].0, matched[0].0, "the third got a bot match");
    let (status, bot_match) = get(http, &format!("{}/v1/matches/{}", nodes[0].base, matched[2].0)).await;
    assert_eq!(status, 200);
    assert!(
        bot_match["seats"]
            .as_array()
            .expect("seats")
            .iter()
            .any(|seat| seat["bot"] == true),
        "{bot_match}"
    );
    let store = cluster.store().await;
    let games = GameRegistry::standard();
    let kind = games.get("ctg").expect("ctg");
    let mut seats = Vec::new();
    for (index, (match_id, token)) in matched.iter().enumerate() {
        // Through a node other than the one running the match.
        let (owner, _) = lease(&store, match_id).await;
        let via = nodes
            .iter()
            .find(|node| node.node.as_ref() != Some(&owner))
            .expect("another node");
        let drill = Drill::new(&via.base, 1);
        let seat = RemoteSeat::new(kind.clone(), match_id, token, (drill, 0), index as u64);
        seats.push(tokio::spawn(seat.play()));
    }
    let records = finish(seats).await;
    check_all(http, &nodes[2].base, &records, Some(1)).await;
    let (status, profile) = get(http, &format!("{}/v1/players/{first_id}", nodes[2].base)).await;
    assert_eq!(status, 200, "{profile}");
    let ratings = profile["ratings"].as_array().expect("ratings");
    assert!(
        ratings
            .iter()
            .any(|rating| rating["game"] == "ctg" && rating["matches"] == 1),
        "the cross-node match was rated: {profile}"
    );
}
