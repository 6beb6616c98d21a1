//! The cluster's settings (`crease serve` flags and their environment variables).

use std::time::Duration;

/// Cluster mode is on when `--nats-url` is set; every other setting has a default.
#[derive(Debug, Clone, clap::Args)]
pub struct ClusterConfig {
    /// NATS server URL (e.g. nats://127.0.0.1:4222). Setting it runs this process as one node
    /// of a cluster; DATABASE_URL must then be postgres://, shared by every node.
    #[arg(long, env = "CREASE_NATS_URL")]
    pub nats_url: Option<String>,

    /// This node's name in `GET /v1/cluster` (default: the host name). A random suffix
    /// keeps every process's node id unique.
    #[arg(long, env = "CREASE_NODE_NAME")]
    pub node_name: Option<String>,

    /// Milliseconds a node's lease on its matches lasts without renewal: after a crash,
    /// the other nodes take its matches over within about this long.
    #[arg(long, env = "CREASE_LEASE_TTL_MS", default_value_t = 5000)]
    pub lease_ttl_ms: u64,

    /// Prefix of every NATS subject, so several clusters can share one NATS server.
    #[arg(long, env = "CREASE_CLUSTER_NAME", default_value = "crease")]
    pub cluster_name: String,

    /// The URL operators reach this node at, shown in `GET /v1/cluster`.
    #[arg(long, env = "CREASE_ADVERTISE_URL")]
    pub advertise_url: Option<String>,

    /// `false` makes a gateway node: it serves the lobby and sockets (routed to the nodes
    /// that own their matches) but is never given a match to run.
    #[arg(long, env = "CREASE_RUNS_MATCHES", default_value_t = true, action = clap::ArgAction::Set,
          value_parser = clap::builder::BoolishValueParser::new())]
    pub runs_matches: bool,

    /// Milliseconds a request routed to a match's owner waits for its answer.
    #[arg(long, env = "CREASE_ROUTE_TIMEOUT_MS", default_value_t = 5000)]
    pub route_timeout_ms: u64,
}

impl Default for ClusterConfig {
    fn default() -> Self {
        ClusterConfig {
            nats_url: None,
            node_name: None,
            lease_ttl_ms: 5000,
            cluster_name: "crease".into(),
            advertise_url: None,
            runs_matches: true,
            route_timeout_ms: 5000,
        }
    }
}

/// Characters allowed in one NATS subject token (names end up in subjects).
fn is_token_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '-' || c == '_'
}

impl ClusterConfig {
    pub fn enabled(&self) -> bool {
        self.nats_url.is_some()
    }

    pub fn validate(&self) -> Result<(), String> {
        if !(300..=600_000).contains(&self.lease_ttl_ms) {
            return Err("--lease-ttl-ms must be between 300 and 600000".into());
        }
        if !(1..=600_000).contains(&self.route_timeout_ms) {
            return Err("--route-timeout-ms must be between 1 and 600000".into());
        }
        if self.cluster_name.is_empty() || !self.cluster_name.chars().all(is_token_char) {
            return Err("--cluster-name must be letters, digits, '-' or '_'".into());
        }
        Ok(())
    }

    pub fn lease_ttl(&self) -> Duration {
        Duration::from_millis(self.lease_ttl_ms)
    }

    pub fn route_timeout(&self) -> Duration {
        Duration::from_millis(self.route_timeout_ms)
    }

    /// The configured name, else the host name, else "node".
    pub fn node_name(&self) -> String {
        self.node_name
            .clone()
            .or_else(|| std::env::var("HOSTNAME").ok())
            .or_else(|| {
                std::fs::read_to_string("/etc/hostname")
                    .ok()
                    .map(|name| name.trim().to_string())
            })
            .filter(|name| !name.is_empty())
            .unwrap_or_else(|| "node".into())
    }

    /// The name made safe for a NATS subject, plus 8 random hex digits.
    pub fn node_id(&self) -> String {
        let name: String = self
            .node_name()
            .chars()
            .map(|c| if is_token_char(c) { c } else { '-' })
            .take(48)
            .collect();
        let suffix = &uuid::Uuid::new_v4().simple().to_string()[..8];
        format!("{name}-{suffix}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn node_ids_are_subject_safe_and_unique_per_process() {
        let config = ClusterConfig {
            node_name: Some("web 1.example.com".into()),
            ..ClusterConfig::default()
        };
        let (first, second) = (config.node_id(), config.node_id());
        assert!(first.starts_with("web-1-example-com-"), "{first}");
        assert!(first.chars().all(is_token_char), "{first}");
        assert_ne!(first, second);
    }

    #[test]
    fn settings_out_of_range_are_refused() {
        let valid = ClusterConfig::default();
        assert!(valid.validate().is_ok());
        for bad in [
            ClusterConfig {
                lease_ttl_ms: 10,
                ..valid.clone()
            },
            ClusterConfig {
                route_timeout_ms: 0,
                ..valid.clone()
            },
            ClusterConfig {
                cluster_name: "a.b".into(),
                ..valid.clone()
            },
        ] {
            assert!(bad.validate().is_err(), "{bad:?}");
        }
    }
}
