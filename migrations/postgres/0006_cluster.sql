-- Cluster mode: several crease processes on one PostgreSQL, with NATS between them
-- (docs/cluster.md). A single-node server never writes these tables.

-- Every node of the cluster, refreshed by its heartbeat. A node whose heartbeat is older
-- than the lease TTL is presumed dead; its leases expire on their own.
CREATE TABLE cluster_node (
    node_id        TEXT PRIMARY KEY,        -- name + random suffix: unique per process
    name           TEXT NOT NULL,           -- --node-name (the host, by default)
    advertise_url  TEXT,                    -- --advertise-url, for operators
    started_at     TIMESTAMPTZ NOT NULL,
    heartbeat_at   TIMESTAMPTZ NOT NULL,
    draining       BOOLEAN NOT NULL DEFAULT false
);

-- The owner of each live match. Only the owner's actor writes the match's log, and every
-- journal transaction checks `epoch` (locking the row FOR SHARE) before it inserts: a new
-- owner raises the epoch in the same statement that takes the lease, so an old owner that
-- was paused or cut off can never append after the handover. Times are the database's own
-- clock (now()), so the nodes' clocks do not matter.
CREATE TABLE match_lease (
    match_id    TEXT PRIMARY KEY REFERENCES "match" (match_id),
    node_id     TEXT NOT NULL,
    epoch       BIGINT NOT NULL,
    expires_at  TIMESTAMPTZ NOT NULL
);
CREATE INDEX match_lease_node ON match_lease (node_id);
CREATE INDEX match_lease_expiry ON match_lease (expires_at);
