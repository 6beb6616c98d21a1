//! Abuse limits on the routes that create things: players, matches and matchmaking tickets.
//!
//! Creating is the only cheap way to make the server spend storage, actors and bot CPU, so
//! it is what a script would hammer. Three limits, each answered before any work is done:
//!
//! * per client IP address, a token bucket across all three routes, so one machine cannot
//!   mint guest accounts or matches without bound. The address is the TCP peer's, or, when
//!   the peer is a trusted proxy (`--trusted-proxy`, e.g. the load balancer in front of a
//!   cluster), the nearest untrusted address its `X-Forwarded-For` names;
//! * per player (after authentication), a token bucket on matches and tickets, so one token
//!   spread over many addresses is limited too;
//! * a cap on the matches a player holds a seat in that are not over yet (plus its waiting
//!   tickets), so nobody can park thousands of open matches and live actors.
//!
//! Logins (`POST /v1/sessions`) have buckets of their own, per address and per login name:
//! each attempt costs an argon2 hash, and a password guesser is exactly what a tight limit
//! per name stops, from however many addresses it comes. That limit must not lock the
//! name's owner out, though (one wrong guess every few seconds would): a *known device*, one
//! that logged in to that name successfully before on this node (by the `device` id of its
//! login body, or by its address), is not charged to the name's bucket, only to its
//! address's. A guesser cannot become known without the password.
//!
//! The buckets are `governor`'s GCRA limiters keyed by address and by player id: a refusal
//! says exactly when the next request will pass, which becomes `Retry-After`.

use super::AppState;
use crate::accounts::Player;
use crate::error::ApiError;
use crate::input::Username;
use crate::record::{MatchId, PlayerId};
use crate::store::Store;
use axum::extract::{ConnectInfo, FromRequestParts};
use axum::http::request::Parts;
use governor::clock::{Clock, DefaultClock};
use governor::{DefaultKeyedRateLimiter, Quota};
use sha2::{Digest, Sha256};
use std::collections::{HashMap, VecDeque};
use std::hash::Hash;
use std::net::{IpAddr, SocketAddr};
use std::num::NonZeroU32;
use std::sync::Mutex;
use std::time::Duration;

/// Devices remembered per login name (the most recent ones).
const KNOWN_DEVICES_PER_NAME: usize = 8;

/// Keys kept before stale ones are purged: bounds the limiters' memory under a spray of
/// addresses, while a steady population of clients never triggers a purge.
const PURGE_ABOVE_KEYS: usize = 50_000;

/// `crease serve` settings for the abuse limits.
#[derive(Debug, Clone, PartialEq, Eq, clap::Args)]
pub struct AbuseConfig {
    /// Players, matches and tickets one IP address may create per minute (sustained).
    #[arg(long, env = "CREASE_RATE_LIMIT_IP_PER_MINUTE", default_value_t = 60)]
    pub rate_limit_ip_per_minute: u32,

    /// Creations one IP address may make at once before the per-minute rate applies.
    #[arg(long, env = "CREASE_RATE_LIMIT_IP_BURST", default_value_t = 30)]
    pub rate_limit_ip_burst: u32,

    /// Matches and tickets one player may create per minute (sustained).
    #[arg(long, env = "CREASE_RATE_LIMIT_PLAYER_PER_MINUTE", default_value_t = 20)]
    pub rate_limit_player_per_minute: u32,

    /// Matches and tickets one player may create at once before the per-minute rate applies.
    #[arg(long, env = "CREASE_RATE_LIMIT_PLAYER_BURST", default_value_t = 10)]
    pub rate_limit_player_burst: u32,

    /// Unfinished matches (open or live) plus waiting tickets one player may hold at once.
    #[arg(long, env = "CREASE_MAX_OPEN_MATCHES_PER_PLAYER", default_value_t = 10)]
    pub max_open_matches_per_player: u32,

    /// Login attempts (right or wrong) one IP address, and separately one login name, may
    /// make per minute (sustained).
    #[arg(long, env = "CREASE_LOGIN_ATTEMPTS_PER_MINUTE", default_value_t = 10)]
    pub login_attempts_per_minute: u32,

    /// Login attempts one address or login name may make at once before the per-minute
    /// rate applies.
    #[arg(long, env = "CREASE_LOGIN_BURST", default_value_t = 5)]
    pub login_burst: u32,

    /// Spectator sockets one IP address may open per minute (sustained); `0` off.
    #[arg(long, env = "CREASE_SPECTATOR_CONNECTS_PER_MINUTE", default_value_t = 60)]
    pub spectator_connects_per_minute: u32,

    /// Spectator sockets one address may open at once before the per-minute rate applies.
    #[arg(long, env = "CREASE_SPECTATOR_CONNECT_BURST", default_value_t = 20)]
    pub spectator_connect_burst: u32,

    /// Spectator sockets this node accepts per second from every address together; `0` off.
    #[arg(long, env = "CREASE_SPECTATOR_CONNECTS_PER_SECOND", default_value_t = 50)]
    pub spectator_connects_per_second: u32,

    /// Spectator sockets open at once on one match, on this node; `0` off.
    #[arg(long, env = "CREASE_MAX_SPECTATORS_PER_MATCH", default_value_t = 500)]
    pub max_spectators_per_match: u32,

    /// Spectator sockets one address may hold open at once, on this node; `0` off.
    #[arg(long, env = "CREASE_MAX_SPECTATORS_PER_ADDRESS", default_value_t = 20)]
    pub max_spectators_per_address: u32,

    /// `off` disables every limit above (for load tests from one address); `on`, `off`,
    /// `true`, `false`, `yes` and `no` are all understood.
    #[arg(long, env = "CREASE_RATE_LIMITS", default_value = "on", value_name = "on|off",
          hide_possible_values = true, action = clap::ArgAction::Set,
          value_parser = clap::builder::BoolishValueParser::new())]
    pub rate_limits: bool,

    /// Proxies (addresses or CIDR blocks, comma-separated) whose `X-Forwarded-For` is
    /// believed: behind a load balancer every request comes from its address, so the
    /// per-address limit must key on the client it names. Nobody else can set the header.
    #[arg(long = "trusted-proxy", env = "CREASE_TRUSTED_PROXIES", value_delimiter = ',')]
    pub trusted_proxies: Vec<ipnet::IpNet>,
}

impl Default for AbuseConfig {
    fn default() -> Self {
        AbuseConfig {
            rate_limit_ip_per_minute: 60,
            rate_limit_ip_burst: 30,
            rate_limit_player_per_minute: 20,
            rate_limit_player_burst: 10,
            max_open_matches_per_player: 10,
            login_attempts_per_minute: 10,
            login_burst: 5,
            spectator_connects_per_minute: 60,
            spectator_connect_burst: 20,
            spectator_connects_per_second: 50,
            max_spectators_per_match: 500,
            max_spectators_per_address: 20,
            rate_limits: true,
            trusted_proxies: Vec::new(),
        }
    }
}

impl AbuseConfig {
    /// Every limit off: what load tests and benchmarks from one address need.
    pub fn off() -> Self {
        AbuseConfig {
            rate_limits: false,
            ..AbuseConfig::default()
        }
    }
}

/// The limiters themselves, shared by every request.
pub struct AbuseLimits {
    per_ip: Option<Bucket<IpAddr>>,
    trusted_proxies: Vec<ipnet::IpNet>,
    per_player: Option<Bucket<PlayerId>>,
    max_open_matches: Option<u32>,
    logins_per_ip: Option<Bucket<IpAddr>>,
    logins_per_username: Option<Bucket<String>>,
    known_devices: KnownDevices,
    spectators: Spectators,
}

/// What identifies a logging-in device: its `device` id, if it sent one, and its address.
#[derive(Debug, Clone, Copy)]
pub struct Device<'a> {
    pub id: Option<&'a str>,
    pub address: Option<IpAddr>,
}

/// The devices that logged in to each name, as digests (a device id is a secret of sorts).
#[derive(Default)]
struct KnownDevices {
    by_name: Mutex<HashMap<String, VecDeque<[u8; 32]>>>,
}

impl KnownDevices {
    fn digests(device: Device<'_>) -> impl Iterator<Item = [u8; 32]> {
        let id = device.id.map(|id| Sha256::digest(format!("device:{id}")).into());
        let address = device
            .address
            .map(|address| Sha256::digest(format!("address:{address}")).into());
        id.into_iter().chain(address)
    }

    fn knows(&self, username: &str, device: Device<'_>) -> bool {
        let Ok(by_name) = self.by_name.lock() else {
            return false;
        };
        let Some(known) = by_name.get(username) else {
            return false;
        };
        Self::digests(device).any(|digest| known.contains(&digest))
    }

    fn remember(&self, username: &str, device: Device<'_>) {
        let Ok(mut by_name) = self.by_name.lock() else {
            return;
        };
        if by_name.len() > PURGE_ABOVE_KEYS && !by_name.contains_key(username) {
            // Only successful logins add names, so this is rare; forgetting costs a known
            // device one pass through the name's bucket, nothing more.
            by_name.clear();
        }
        let known = by_name.entry(username.to_string()).or_default();
        for digest in Self::digests(device) {
            known.retain(|old| *old != digest);
            known.push_back(digest);
        }
        while known.len() > KNOWN_DEVICES_PER_NAME {
            known.pop_front();
        }
    }
}

impl AbuseLimits {
    pub fn new(config: &AbuseConfig) -> Self {
        let on = config.rate_limits;
        AbuseLimits {
            trusted_proxies: config.trusted_proxies.clone(),
            per_ip: on
                .then(|| {
                    Bucket::new(
                        "creations_per_address",
                        config.rate_limit_ip_per_minute,
                        config.rate_limit_ip_burst,
                    )
                })
                .flatten(),
            per_player: on
                .then(|| {
                    Bucket::new(
                        "creations_per_player",
                        config.rate_limit_player_per_minute,
                        config.rate_limit_player_burst,
                    )
                })
                .flatten(),
            max_open_matches: (on && config.max_open_matches_per_player > 0)
                .then_some(config.max_open_matches_per_player),
            logins_per_ip: on
                .then(|| {
                    Bucket::new(
                        "logins_per_address",
                        config.login_attempts_per_minute,
                        config.login_burst,
                    )
                })
                .flatten(),
            logins_per_username: on
                .then(|| {
                    Bucket::new(
                        "logins_per_name",
                        config.login_attempts_per_minute,
                        config.login_burst,
                    )
                })
                .flatten(),
            known_devices: KnownDevices::default(),
            spectators: Spectators::new(config),
        }
    }

    /// Admits one spectator socket to `match_id` from `client`, or refuses it before the
    /// upgrade: `rate_limited` past the address's or the node's connect rate,
    /// `spectators_full` past the match's or the address's open sockets. The slot is held
    /// for as long as the socket is open.
    pub fn admit_spectator(
        &self,
        client: Option<IpAddr>,
        match_id: &MatchId,
    ) -> Result<SpectatorSlot, ApiError> {
        self.spectators.admit(client, match_id)
    }

    /// Charges one login attempt to the client's address and, unless the device is known
    /// to this name, to the login name tried, before the password is checked. Both are
    /// charged even when the first refuses, so a guesser spreading over addresses still
    /// drains the name's bucket.
    pub fn admit_login(&self, device: Device<'_>, username: &Username) -> Result<(), ApiError> {
        let by_address = match (&self.logins_per_ip, device.address) {
            (Some(bucket), Some(ip)) => bucket.take(&ip),
            _ => Ok(()),
        };
        let by_name = match &self.logins_per_username {
            Some(_) if self.known_devices.knows(username.as_str(), device) => Ok(()),
            Some(bucket) => bucket.take(&username.as_str().to_string()),
            None => Ok(()),
        };
        by_address.and(by_name)
    }

    /// A login to `username` succeeded from `device`: from now on it passes the name's limit.
    pub fn remember_login(&self, device: Device<'_>, username: &Username) {
        self.known_devices.remember(username.as_str(), device);
    }

    /// Charges one creation to `player` and checks its unfinished matches against the cap.
    pub async fn admit_creation(&self, store: &Store, player: &Player) -> Result<(), ApiError> {
        if let Some(bucket) = &self.per_player {
            bucket.take(&player.player_id)?;
        }
        self.check_open_matches(store, player).await
    }

    /// Refuses a player who already holds the maximum of unfinished matches and tickets.
    /// Checked before the seat is taken, so two racing requests may both pass: the per-player
    /// bucket bounds how far past the cap that can go.
    pub async fn check_open_matches(&self, store: &Store, player: &Player) -> Result<(), ApiError> {
        let Some(limit) = self.max_open_matches else {
            return Ok(());
        };
        let held = store.unfinished_commitments(&player.player_id).await?;
        if held >= i64::from(limit) {
            return Err(ApiError::TooManyMatches { limit });
        }
        Ok(())
    }
}

/// The spectator limits: connect rates (per address, per node) and open sockets (per
/// match, per address). Spectating needs no account, so these are what keep a storm of
/// spectator sockets from starving the players of the matches they watch.
struct Spectators {
    per_ip: Option<Bucket<IpAddr>>,
    node: Option<governor::DefaultDirectRateLimiter>,
    per_match: Option<u32>,
    per_address: Option<u32>,
    open: std::sync::Arc<Mutex<OpenSpectators>>,
}

#[derive(Default)]
struct OpenSpectators {
    by_match: HashMap<MatchId, u32>,
    by_address: HashMap<IpAddr, u32>,
}

impl Spectators {
    fn new(config: &AbuseConfig) -> Self {
        let on = config.rate_limits;
        let cap = |limit: u32| (on && limit > 0).then_some(limit);
        Spectators {
            per_ip: on
                .then(|| {
                    Bucket::new(
                        "spectator_rate",
                        config.spectator_connects_per_minute,
                        config.spectator_connect_burst,
                    )
                })
                .flatten(),
            node: NonZeroU32::new(config.spectator_connects_per_second)
                .filter(|_| on)
                .map(|rate| governor::RateLimiter::direct(Quota::per_second(rate))),
            per_match: cap(config.max_spectators_per_match),
            per_address: cap(config.max_spectators_per_address),
            open: Default::default(),
        }
    }

    fn admit(&self, client: Option<IpAddr>, match_id: &MatchId) -> Result<SpectatorSlot, ApiError> {
        if let (Some(bucket), Some(ip)) = (&self.per_ip, client) {
            bucket.take(&ip)?;
        }
        if let Some(node) = &self.node
            && let Err(not_until) = node.check()
        {
            crate::telemetry::record_refusal("spectator_rate");
            let wait = not_until.wait_time_from(DefaultClock::default().now());
            return Err(ApiError::RateLimited {
                retry_after_secs: retry_after_secs(wait),
            });
        }
        let mut open = self.open.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        let watching = open.by_match.get(match_id).copied().unwrap_or(0);
        let from_address = client
            .and_then(|ip| open.by_address.get(&ip).copied())
            .unwrap_or(0);
        if self.per_match.is_some_and(|limit| watching >= limit)
            || self
                .per_address
                .is_some_and(|limit| client.is_some() && from_address >= limit)
        {
            crate::telemetry::record_refusal("spectators_full");
            return Err(ApiError::SpectatorsFull);
        }
        *open.by_match.entry(match_id.clone()).or_default() += 1;
        if let Some(ip) = client {
            *open.by_address.entry(ip).or_default() += 1;
        }
        Ok(SpectatorSlot {
            open: self.open.clone(),
            match_id: match_id.clone(),
            client,
        })
    }
}

/// One open spectator socket, counted against its match and its address until dropped.
pub struct SpectatorSlot {
    open: std::sync::Arc<Mutex<OpenSpectators>>,
    match_id: MatchId,
    client: Option<IpAddr>,
}

impl Drop for SpectatorSlot {
    fn drop(&mut self) {
        let mut open = self.open.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        fn release<K: Hash + Eq>(counts: &mut HashMap<K, u32>, key: &K) {
            if let Some(count) = counts.get_mut(key) {
                *count = count.saturating_sub(1);
                if *count == 0 {
                    counts.remove(key);
                }
            }
        }
        release(&mut open.by_match, &self.match_id);
        if let Some(ip) = self.client {
            release(&mut open.by_address, &ip);
        }
    }
}

/// A token bucket per key (GCRA); its refusals are counted under its `name`.
struct Bucket<K: Hash + Eq + Clone> {
    name: &'static str,
    limiter: DefaultKeyedRateLimiter<K>,
}

impl<K: Hash + Eq + Clone> Bucket<K> {
    /// `None` when the rate is 0 (that limit is off).
    fn new(name: &'static str, per_minute: u32, burst: u32) -> Option<Self> {
        let per_minute = NonZeroU32::new(per_minute)?;
        let burst = NonZeroU32::new(burst).unwrap_or(NonZeroU32::MIN);
        let quota = Quota::per_minute(per_minute).allow_burst(burst);
        Some(Bucket {
            name,
            limiter: DefaultKeyedRateLimiter::keyed(quota),
        })
    }

    fn take(&self, key: &K) -> Result<(), ApiError> {
        if self.limiter.len() > PURGE_ABOVE_KEYS {
            self.limiter.retain_recent();
        }
        self.limiter.check_key(key).map_err(|not_until| {
            crate::telemetry::record_refusal(self.name);
            let wait = not_until.wait_time_from(DefaultClock::default().now());
            ApiError::RateLimited {
                retry_after_secs: retry_after_secs(wait),
            }
        })
    }
}

/// `Retry-After` is whole seconds: round up, so a client that waits exactly that long passes.
fn retry_after_secs(wait: Duration) -> u64 {
    wait.as_secs() + u64::from(wait.subsec_nanos() > 0)
}

/// The per-IP bucket as an extractor: a creating handler takes it right after its caller
/// (`Caller`, so a request without a valid token is a 401, never a 429), and so the charge
/// happens before the body is read. A request without a
/// known peer (a router driven in-process) is not limited by address.
pub struct IpAdmitted;

impl FromRequestParts<AppState> for IpAdmitted {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        if let Some(bucket) = &state.limits.per_ip
            && let Some(ip) = client_address(parts, &state.limits)
        {
            bucket.take(&ip)?;
        }
        Ok(IpAdmitted)
    }
}

/// The client's address as the limits see it (see [`client_ip`]); `None` without a known
/// peer (a router driven in-process).
pub struct ClientAddress(pub Option<IpAddr>);

impl FromRequestParts<AppState> for ClientAddress {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        Ok(ClientAddress(client_address(parts, &state.limits)))
    }
}

fn client_address(parts: &Parts, limits: &AbuseLimits) -> Option<IpAddr> {
    let ConnectInfo(peer) = parts.extensions.get::<ConnectInfo<SocketAddr>>()?;
    let forwarded = parts.headers.get_all("x-forwarded-for");
    let forwarded = forwarded.iter().filter_map(|value| value.to_str().ok());
    Some(client_ip(peer.ip(), forwarded, &limits.trusted_proxies))
}

/// The address a request is charged to. A trusted proxy appends the address it received the
/// request from to `X-Forwarded-For`, so reading from the right, the first address that is
/// not itself a trusted proxy is the client (anything further left the client could have
/// written). An untrusted peer's header is ignored, or anyone could pick their own bucket.
fn client_ip<'a>(
    peer: IpAddr,
    forwarded: impl DoubleEndedIterator<Item = &'a str>,
    trusted: &[ipnet::IpNet],
) -> IpAddr {
    let is_trusted = |ip: &IpAddr| trusted.iter().any(|net| net.contains(ip));
    if !is_trusted(&peer) {
        return peer;
    }
    let hops: Vec<&str> = forwarded.flat_map(|value| value.split(',')).collect();
    for hop in hops.into_iter().rev() {
        match hop.trim().parse::<IpAddr>() {
            Ok(ip) if is_trusted(&ip) => continue,
            Ok(ip) => return ip,
            // A hop that is not an address: what lies left of it cannot be trusted.
            Err(_) => return peer,
        }
    }
    peer
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bucket_passes_its_burst_then_refuses_with_a_wait() {
        let bucket = Bucket::<u8>::new("test", 60, 3).expect("a rate");
        assert!((0..3).all(|_| bucket.take(&1).is_ok()));
        match bucket.take(&1) {
            Err(ApiError::RateLimited { retry_after_secs }) => assert_eq!(retry_after_secs, 1),
            other => panic!("expected rate_limited, got {other:?}"),
        }
        assert!(bucket.take(&2).is_ok(), "keys have separate buckets");
    }

    #[test]
    fn the_client_address_comes_from_a_trusted_proxys_header_only() {
        let trusted: Vec<ipnet::IpNet> = vec!["10.0.0.0/8".parse().expect("net")];
        let ip = |text: &str| text.parse::<IpAddr>().expect("ip");
        let proxy = ip("10.1.2.3");
        // Behind the proxy: the rightmost untrusted hop, whatever the client wrote before it.
        let spoofed = ["6.6.6.6, 203.0.113.9", "10.9.9.9"];
        assert_eq!(client_ip(proxy, spoofed.into_iter(), &trusted), ip("203.0.113.9"));
        // No header, or only trusted hops: the proxy itself.
        assert_eq!(client_ip(proxy, std::iter::empty(), &trusted), proxy);
        assert_eq!(client_ip(proxy, ["10.0.0.1"].into_iter(), &trusted), proxy);
        // A malformed hop ends the trust.
        assert_eq!(
            client_ip(proxy, ["203.0.113.9, junk"].into_iter(), &trusted),
            proxy
        );
        // A client talking directly cannot choose its bucket with the header.
        let direct = ip("198.51.100.7");
        assert_eq!(client_ip(direct, ["203.0.113.9"].into_iter(), &trusted), direct);
        assert_eq!(client_ip(proxy, ["203.0.113.9"].into_iter(), &[]), proxy);
    }

    #[test]
    fn a_known_device_passes_a_drained_name_and_strangers_do_not() {
        let config = AbuseConfig {
            login_burst: 2,
            login_attempts_per_minute: 1,
            ..AbuseConfig::default()
        };
        let limits = AbuseLimits::new(&config);
        let name = Username::parse("erin").expect("name");
        let ip = |text: &str| Some(text.parse::<IpAddr>().expect("ip"));
        let owner = Device {
            id: Some("a-device-id-of-the-owner-0001"),
            address: ip("198.51.100.1"),
        };
        limits.remember_login(owner, &name);
        // A guesser drains the name from two addresses...
        for address in ["203.0.113.1", "203.0.113.2"] {
            let guesser = Device {
                id: None,
                address: ip(address),
            };
            assert!(limits.admit_login(guesser, &name).is_ok());
        }
        let stranger = Device {
            id: Some("a-device-id-never-seen-here"),
            address: ip("203.0.113.3"),
        };
        assert!(matches!(
            limits.admit_login(stranger, &name),
            Err(ApiError::RateLimited { .. })
        ));
        // ...but the owner's device passes, by its id from a new address and by its address.
        let travelling = Device {
            id: owner.id,
            address: ip("192.0.2.77"),
        };
        assert!(limits.admit_login(travelling, &name).is_ok());
        let same_address = Device {
            id: None,
            address: owner.address,
        };
        assert!(limits.admit_login(same_address, &name).is_ok());
        // Known to one name is not known to another.
        let other = Username::parse("frank").expect("name");
        for _ in 0..2 {
            assert!(
                limits
                    .admit_login(
                        Device {
                            id: None,
                            address: ip("203.0.113.9")
                        },
                        &other
                    )
                    .is_ok()
            );
        }
        assert!(limits.admit_login(travelling, &other).is_err());
    }

    #[test]
    fn spectators_are_held_to_their_rates_and_caps_and_a_closed_socket_frees_its_place() {
        let config = AbuseConfig {
            spectator_connect_burst: 3,
            spectator_connects_per_minute: 1,
            spectator_connects_per_second: 1000,
            max_spectators_per_match: 4,
            max_spectators_per_address: 2,
            ..AbuseConfig::default()
        };
        let limits = AbuseLimits::new(&config);
        let ip = |last: u8| Some(IpAddr::from([203, 0, 113, last]));
        let (m, another_match) = (
            MatchId::from_uuid(uuid::Uuid::from_u128(1)),
            MatchId::from_uuid(uuid::Uuid::from_u128(2)),
        );
        // Two open sockets from one address, then that address is full...
        let first = limits.admit_spectator(ip(1), &m).expect("first");
        let _second = limits.admit_spectator(ip(1), &m).expect("second");
        assert!(matches!(
            limits.admit_spectator(ip(1), &m),
            Err(ApiError::SpectatorsFull)
        ));
        // ...and out of connects too once its burst of three is spent.
        drop(first);
        assert!(matches!(
            limits.admit_spectator(ip(1), &m),
            Err(ApiError::RateLimited { .. })
        ));
        // The match holds four at most, from any addresses.
        let _others: Vec<_> = (2..5)
            .map(|last| limits.admit_spectator(ip(last), &m).expect("room"))
            .collect();
        assert!(matches!(
            limits.admit_spectator(ip(9), &m),
            Err(ApiError::SpectatorsFull)
        ));
        assert!(limits.admit_spectator(ip(9), &another_match).is_ok());
        // The node's own rate holds whatever the addresses.
        let node = AbuseLimits::new(&AbuseConfig {
            spectator_connects_per_second: 2,
            ..AbuseConfig::default()
        });
        let admitted = (0..10)
            .filter(|last| node.admit_spectator(ip(*last), &m).is_ok())
            .count();
        assert_eq!(admitted, 2, "two a second from ten addresses");
        // `--rate-limits off` turns every spectator limit off.
        let off = AbuseLimits::new(&AbuseConfig::off());
        let slots: Vec<_> = (0..100)
            .map(|_| off.admit_spectator(ip(1), &m).expect("no limit"))
            .collect();
        assert_eq!(slots.len(), 100);
    }

    #[test]
    fn a_zero_rate_turns_the_limit_off() {
        assert!(Bucket::<u8>::new("test", 0, 5).is_none());
    }

    #[test]
    fn retry_after_rounds_up() {
        assert_eq!(retry_after_secs(Duration::from_millis(1)), 1);
        assert_eq!(retry_after_secs(Duration::from_secs(2)), 2);
        assert_eq!(retry_after_secs(Duration::from_millis(2001)), 3);
    }
}
