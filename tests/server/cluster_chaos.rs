//! Issue 25's seeded fault run: three nodes, each behind fault proxies of its own to
//! PostgreSQL and to NATS, play matches of all three games (one of them paired by
//! matchmaking) with players and watchers spread over the nodes, while a nemesis applies one
//! fault at a time from a schedule drawn from a seed: `kill -9` and restart, SIGSTOP past the
//! lease TTL, SIGTERM (drain) and restart, PostgreSQL blackholed, NATS blackholed or reset,
//! both blackholed, 200 ms of PostgreSQL latency. Then every link heals and the checker
//! holds what every client was told against the durable log:
//!
//! * every acked command is in the log once, on the decision it was made for, and every
//!   command refused with anything but `in_doubt` is absent ([`answer_violations`]);
//! * every socket (seats in protocol 1, seats and spectators in protocol 2, spectators in
//!   protocol 1, resumed or not) got every event after its snapshot once, in order, and a
//!   resumed one got a snapshot at its resume point ([`stream_violations`]);
//! * every match's log replays from its seed ([`GameKind::verify`](crease::matches::GameKind));
//! * every match still live plays on once the faults are healed.
//!
//! It also prints, per fault, how long the matches the faulted node owned took to ack a
//! command again (first and last of them), the figures docs/performance.md quotes.
//!
//! `CREASE_CHAOS_SEED` (default 25) picks the schedule and `CREASE_CHAOS_SECS` (default 75)
//! how long faults are applied; a failure message names the seed, so any run can be repeated.

use crate::cluster::{TTL_MS, TestCluster, lease, until};
use crate::cluster_faults::{
    Answer, OnRefusal, Player, Transcript, answer_violations, counts, create, follower, join_all,
    join_followers, kind, node_id, read_log, stream_violations, told_to_resume,
};
use crate::common::faults::{Fault, FaultProxy};
use crate::common::match_id;
use crate::drills::{ServerProcess, post, register};
use crease::fairness::VerifyReport;
use crease::matches::GameKind;
use crease::rules::{Dice, Seed};
use crease::store::Store;
use serde_json::{Value, json};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};
use tokio::sync::watch;

/// One node and the links the nemesis can cut.
struct ChaosNode {
    name: String,
    pg: FaultProxy,
    pg_url: String,
    nats: FaultProxy,
    nats_url: String,
    process: Option<ServerProcess>,
    base: String,
    id: String,
}

impl ChaosNode {
    async fn start(cluster: &TestCluster, name: &str) -> ChaosNode {
        let (pg, pg_url) = FaultProxy::in_front_of(cluster.db.url()).await;
        let (nats, nats_url) = FaultProxy::in_front_of(&cluster.nats).await;
        let mut node = ChaosNode {
            name: name.to_string(),
            pg,
            pg_url,
            nats,
            nats_url,
            process: None,
            base: String::new(),
            id: String::new(),
        };
        node.restart(cluster).await;
        node
    }

    /// Starts the node's process again (a new node id, a new port), behind the same proxies.
    async fn restart(&mut self, cluster: &TestCluster) {
        let process = cluster
            .node_via(&self.name, TTL_MS, &self.pg_url, &self.nats_url, &[])
            .await;
        self.base = process.base.clone();
        self.id = node_id(&process);
        self.process = Some(process);
    }

    fn heal(&self) {
        self.pg.set(Fault::Pass);
        self.nats.set(Fault::Pass);
    }
}

/// The faults the nemesis draws from, one at a time.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Nemesis {
    Kill,
    Pause,
    Drain,
    PgBlackhole,
    NatsBlackhole,
    NatsReset,
    Partition,
    PgDelay,
}

const NEMESES: [Nemesis; 8] = [
    Nemesis::Kill,
    Nemesis::Pause,
    Nemesis::Drain,
    Nemesis::PgBlackhole,
    Nemesis::NatsBlackhole,
    Nemesis::NatsReset,
    Nemesis::Partition,
    Nemesis::PgDelay,
];

/// What one fault did to the matches its node owned when it began.
struct Step {
    nemesis: Nemesis,
    node: String,
    /// The owned matches (by index), and from the fault's start to each one's next ack
    /// (`None`: none within 60 s).
    resumed: Vec<(usize, Option<Duration>)>,
}

fn env_number(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|value| value.parse().ok())
        .unwrap_or(default)
}

/// Two players each file a CTG T10 ticket, on two different nodes: the match they are paired
/// into, and their tokens in seat order (the match's players list says who sits where).
async fn matchmade(cluster: &TestCluster, nodes: &[ChaosNode]) -> (String, Vec<String>) {
    let http = &cluster.http;
    let tag = &uuid::Uuid::new_v4().simple().to_string()[..8];
    let mut tickets = Vec::new();
    for (index, node) in nodes.iter().take(2).enumerate() {
        let (player, token) = register(http, &node.base, &format!("mm-{tag}-{index}")).await;
        let body = json!({ "game": "ctg", "options": { "format": "t10" } });
        let (status, ticket) = post(
            http,
            &format!("{}/v1/matchmaking/tickets", node.base),
            &token,
            body,
        )
        .await;
        assert!(status == 201 || status == 200, "{status} {ticket}");
        let ticket_id = ticket["ticket_id"].as_str().expect("a ticket id").to_string();
        tickets.push((node.base.clone(), player, token, ticket_id));
    }
    let mut paired = Vec::new();
    for (base, player, token, ticket_id) in &tickets {
        let url = format!("{base}/v1/matchmaking/tickets/{ticket_id}");
        let started = Instant::now();
        let match_id = loop {
            let body: Value = http
                .get(&url)
                .bearer_auth(token)
                .send()
                .await
                .expect("GET the ticket")
                .json()
                .await
                .expect("the ticket's JSON");
            if body["status"] == "matched" {
                break body["match_id"].as_str().expect("a match id").to_string();
            }
            assert!(started.elapsed() < Duration::from_secs(30), "not paired: {body}");
            tokio::time::sleep(Duration::from_millis(100)).await;
        };
        paired.push((match_id, player.clone(), token.clone()));
    }
    assert_eq!(paired[0].0, paired[1].0, "the two tickets were paired together");
    let id = paired[0].0.clone();
    let (_, info) = crate::drills::get(http, &format!("{}/v1/matches/{id}", nodes[0].base)).await;
    let seats: Vec<String> = info["seats"]
        .as_array()
        .expect("the match's seats")
        .iter()
        .map(|player| player["player_id"].as_str().unwrap_or_default().to_string())
        .collect();
    let tokens = seats
        .iter()
        .map(|seat| {
            paired
                .iter()
                .find(|(_, player, _)| player == seat)
                .map(|(_, _, token)| token.clone())
                .unwrap_or_else(|| panic!("seat {seat} is one of the paired players: {info}"))
        })
        .collect();
    (id, tokens)
}

/// Waits (at most 60 s from `started`) until each match of `owned` (its index, its acks and
/// their count at the fault's start) has acked more, and says when each did.
async fn next_acks(
    owned: Vec<(usize, Arc<AtomicUsize>, usize)>,
    started: Instant,
) -> Vec<(usize, Option<Duration>)> {
    let mut resumed: Vec<(usize, Option<Duration>)> =
        owned.iter().map(|(index, _, _)| (*index, None)).collect();
    while started.elapsed() < Duration::from_secs(60) && resumed.iter().any(|(_, at)| at.is_none()) {
        for ((_, count, at_start), (_, at)) in owned.iter().zip(&mut resumed) {
            if at.is_none() && count.load(Ordering::SeqCst) > *at_start {
                *at = Some(started.elapsed());
            }
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    resumed
}

async fn finished(store: &Store, id: &str) -> bool {
    store
        .get_match(&match_id(id))
        .await
        .expect("read the match")
        .is_some_and(|row| row.result.is_some())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_seeded_fault_run_tells_every_client_the_truth() {
    let Some(cluster) = TestCluster::new().await else {
        return;
    };
    let seed = env_number("CREASE_CHAOS_SEED", 25);
    let run_for = Duration::from_secs(env_number("CREASE_CHAOS_SECS", 75));
    let store = cluster.store().await;
    let mut nodes = Vec::new();
    for name in ["a", "b", "c"] {
        nodes.push(ChaosNode::start(&cluster, name).await);
    }

    // Matches of every game, created on every node in turn, and one paired by matchmaking.
    let mut matches: Vec<(String, Vec<String>, Arc<dyn GameKind>)> = Vec::new();
    for (index, (game, options, humans)) in [
        ("ctg", json!({ "format": "t20" }), 2),
        ("ctg", json!({ "format": "t20" }), 2),
        ("ctg", json!({ "format": "t20" }), 1),
        ("wicketz", json!({ "overs": 20, "innings_per_side": 2 }), 1),
        ("wicketz", json!({ "overs": 20, "innings_per_side": 2 }), 1),
        ("champions", json!({ "players": 3 }), 1),
        ("champions", json!({ "players": 3 }), 1),
    ]
    .into_iter()
    .enumerate()
    {
        let base = nodes[index % nodes.len()].base.clone();
        let (id, tokens) = create(&cluster, &base, game, options, humans, None).await;
        matches.push((id, tokens, kind(game)));
    }
    let (id, tokens) = matchmade(&cluster, &nodes).await;
    matches.push((id, tokens, kind("ctg")));

    // Each player and watcher reaches the cluster through a route: the node it prefers, or
    // the next one up while that one is down.
    let stop = watch::Sender::new(false);
    let mut routes: Vec<(usize, watch::Sender<String>)> = Vec::new();
    let mut route_to = |preferred: usize| {
        let route = watch::Sender::new(nodes[preferred].base.clone());
        let receiver = route.subscribe();
        routes.push((preferred, route));
        receiver
    };
    let mut players = Vec::new();
    let mut acks = Vec::new();
    let mut followers = Vec::new();
    for (index, (id, tokens, game)) in matches.iter().enumerate() {
        let counted = Arc::new(AtomicUsize::new(0));
        for (seat, token) in tokens.iter().enumerate() {
            let label = format!("match {index} ({id}) seat {seat}");
            let on_refusal = if (index + seat) % 2 == 0 {
                OnRefusal::Resume
            } else {
                OnRefusal::Stay
            };
            let mut player = Player::new(
                game,
                id,
                token,
                &label,
                seed * 100 + (index * 10 + seat) as u64,
                on_refusal,
            );
            player.acks = counted.clone();
            player.pace = Duration::from_millis(60);
            let route = route_to((index + seat) % 3);
            players.push(tokio::spawn(player.play(route, stop.subscribe())));
        }
        acks.push(counted);
        for (offset, (token, protocol, who)) in [
            (None, 1, "spectator"),
            (None, 2, "spectator"),
            (Some(tokens[0].clone()), 2, "seat 0"),
        ]
        .into_iter()
        .enumerate()
        {
            let label = format!("match {index} ({id}) {who} watching");
            let route = route_to((index + offset + 1) % 3);
            followers.push(tokio::spawn(follower(
                route,
                id.clone(),
                token,
                protocol,
                label,
                Duration::from_millis(250),
                stop.subscribe(),
            )));
        }
    }
    let reroute = |nodes: &[ChaosNode], routes: &[(usize, watch::Sender<String>)]| {
        for (preferred, route) in routes {
            let up = (0..nodes.len())
                .map(|offset| &nodes[(preferred + offset) % nodes.len()])
                .find(|node| node.process.is_some())
                .expect("a node is up");
            route.send_if_modified(|base| {
                let changed = *base != up.base;
                base.clone_from(&up.base);
                changed
            });
        }
    };
    let ready = vec![3; matches.len()];
    until(Duration::from_secs(60), "play before the faults", || async {
        acks.iter()
            .zip(&ready)
            .all(|(count, at_least)| count.load(Ordering::SeqCst) >= *at_least)
    })
    .await;

    let mut dice = Dice::new(&Seed::from_u64(seed));
    let mut steps: Vec<Step> = Vec::new();
    let run_started = Instant::now();
    let ttl = Duration::from_millis(TTL_MS);
    while run_started.elapsed() < run_for {
        let nemesis = NEMESES[dice.below(NEMESES.len() as u32) as usize];
        // The node that owns a match drawn at random (a fault on a node that owns nothing
        // tests little), or a node drawn at random if that match's owner is not up.
        let victim = &matches[dice.below(matches.len() as u32) as usize].0;
        let owner = lease(&store, victim).await.0;
        let drawn = dice.below(nodes.len() as u32) as usize;
        let target = nodes
            .iter()
            .position(|node| node.process.is_some() && node.id == owner)
            .unwrap_or(drawn);
        // What the faulted node owns now, and how far each of those matches has got.
        let mut owned = Vec::new();
        for (index, (id, _, _)) in matches.iter().enumerate() {
            if lease(&store, id).await.0 == nodes[target].id && !finished(&store, id).await {
                owned.push((index, acks[index].clone(), acks[index].load(Ordering::SeqCst)));
            }
        }
        let owned_count = owned.len();
        let started = Instant::now();
        let measuring = tokio::spawn(next_acks(owned, started));
        eprintln!(
            "[chaos seed {seed}] {:>5.1} s: {nemesis:?} on node {} ({owned_count} matches)",
            run_started.elapsed().as_secs_f64(),
            nodes[target].name
        );
        let node = &mut nodes[target];
        match nemesis {
            Nemesis::Kill | Nemesis::Drain => {
                let process = node.process.take().expect("every node is up between faults");
                if nemesis == Nemesis::Kill {
                    process.kill().await;
                } else {
                    process.signal("TERM");
                    assert!(
                        process.exited_within(Duration::from_secs(30)).await,
                        "a drained node exits cleanly"
                    );
                }
                reroute(&nodes, &routes);
                tokio::time::sleep(2 * ttl).await;
                nodes[target].restart(&cluster).await;
            }
            Nemesis::Pause => {
                let process = node.process.as_ref().expect("up");
                process.signal("STOP");
                tokio::time::sleep(2 * ttl + Duration::from_millis(500)).await;
                process.signal("CONT");
            }
            Nemesis::PgBlackhole => {
                node.pg.set(Fault::Blackhole);
                tokio::time::sleep(2 * ttl).await;
            }
            Nemesis::NatsBlackhole => {
                node.nats.set(Fault::Blackhole);
                tokio::time::sleep(Duration::from_secs(3)).await;
            }
            Nemesis::NatsReset => {
                node.nats.set(Fault::Reset);
                tokio::time::sleep(Duration::from_millis(1500)).await;
            }
            Nemesis::Partition => {
                node.pg.set(Fault::Blackhole);
                node.nats.set(Fault::Blackhole);
                tokio::time::sleep(2 * ttl).await;
            }
            Nemesis::PgDelay => {
                node.pg.set(Fault::Delay(Duration::from_millis(200)));
                tokio::time::sleep(Duration::from_secs(5)).await;
            }
        }
        nodes[target].heal();
        reroute(&nodes, &routes);
        let resumed = measuring.await.expect("the measuring task");
        steps.push(Step {
            nemesis,
            node: nodes[target].name.clone(),
            resumed,
        });
        tokio::time::sleep(Duration::from_secs(1)).await;
    }

    // Healed: every match still live plays on.
    let at_heal = counts(&acks);
    let mut live = Vec::new();
    for (index, (id, _, _)) in matches.iter().enumerate() {
        if !finished(&store, id).await {
            live.push(index);
        }
    }
    until(
        Duration::from_secs(60),
        "every live match plays on after the faults",
        || async {
            let mut all = true;
            for index in &live {
                all &= acks[*index].load(Ordering::SeqCst) >= at_heal[*index] + 3
                    || finished(&store, &matches[*index].0).await;
            }
            all
        },
    )
    .await;
    stop.send_replace(true);
    let players = join_all(players).await;
    let transcripts = join_followers(followers).await;

    let mut problems = Vec::new();
    let mut refusals = std::collections::BTreeMap::<String, usize>::new();
    for player in &players {
        let log = read_log(&store, &player.match_id).await;
        let seat = player.seat.expect("the player got a snapshot");
        problems.extend(answer_violations(&player.label, &log, seat, &player.sent));
        for send in &player.sent {
            if let Some(Answer::Error(code)) = &send.answer {
                *refusals.entry(code.clone()).or_default() += 1;
            }
        }
    }
    let sockets: Vec<&Transcript> = transcripts
        .iter()
        .chain(players.iter().flat_map(|player| &player.transcripts))
        .collect();
    problems.extend(stream_violations(&store, &sockets).await);
    for (id, _, game) in &matches {
        let row = store
            .get_match(&match_id(id))
            .await
            .expect("read the match")
            .expect("the match exists");
        let log = read_log(&store, id).await;
        match game.verify(&row, &log) {
            VerifyReport::Ok { .. } => {}
            other => problems.push(format!("match {id} does not verify: {other:?}")),
        }
    }

    let acked: usize = counts(&acks).iter().sum();
    eprintln!(
        "[chaos seed {seed}] {} faults in {:.0} s; {acked} acks, refusals {refusals:?}; {} sockets ({} told to resume)",
        steps.len(),
        run_started.elapsed().as_secs_f64(),
        sockets.len(),
        told_to_resume(&transcripts)
    );
    for step in &steps {
        let times: Vec<Duration> = step.resumed.iter().filter_map(|(_, at)| *at).collect();
        let seconds = |time: Option<&Duration>| {
            time.map_or("-".to_string(), |time| format!("{:.2}", time.as_secs_f64()))
        };
        eprintln!(
            "[chaos seed {seed}] {:?} on {}: {} owned matches, next ack after the fault's start: first {} s, last {} s",
            step.nemesis,
            step.node,
            step.resumed.len(),
            seconds(times.iter().min()),
            seconds(times.iter().max())
        );
        for (index, at) in &step.resumed {
            // A match that ended meanwhile has nothing left to ack.
            if at.is_none() && !finished(&store, &matches[*index].0).await {
                problems.push(format!(
                    "{:?} on node {}: match {index} acked nothing within 60 s of the fault",
                    step.nemesis, step.node
                ));
            }
        }
    }
    assert!(
        steps.len() >= 4,
        "a fault run applies several faults: {}",
        steps.len()
    );
    assert!(
        problems.is_empty(),
        "the fault run with CREASE_CHAOS_SEED={seed} found:\n{}",
        problems.join("\n")
    );
}
