-- Cluster mode: several crease processes on one PostgreSQL, with NATS between them
-- (docs/cluster.md). A single-node server never writes these tables.

-- Every node of the cluster. Its heartbeat is its lease on every match it owns: a node whose
-- heartbeat is older than its own lease TTL has lost them all, and the other nodes claim
-- them. One row per node is renewed, never one per match, so renewals cost the same however
-- many matches a node runs and never touch the rows the journal locks.
CREATE TABLE cluster_node (
    node_id        TEXT PRIMARY KEY,        -- name + random suffix: unique per process
    name           TEXT NOT NULL,           -- --node-name (the host, by default)
    advertise_url  TEXT,                    -- --advertise-url, for operators
    started_at     TIMESTAMPTZ NOT NULL,
    heartbeat_at   TIMESTAMPTZ NOT NULL,
    lease_ttl_ms   BIGINT NOT NULL,         -- --lease-ttl-ms of this node
    draining       BOOLEAN NOT NULL DEFAULT false,
    runs_matches   BOOLEAN NOT NULL DEFAULT true  -- false: a gateway node (--runs-matches false)
);

-- The owner of each live match. Only the owner's actor writes the match's log, and every
-- journal transaction checks `epoch` (locking this row FOR SHARE) before it inserts: a new
-- owner raises the epoch in the statement that takes the match over, so an old owner that
-- was paused or cut off can never append after the handover. The row changes only when the
-- owner does. Times are the database's own clock (now()), so the nodes' clocks do not matter.
CREATE TABLE match_lease (
    match_id    TEXT PRIMARY KEY REFERENCES "match" (match_id),
    node_id     TEXT NOT NULL,
    epoch       BIGINT NOT NULL,
    taken_at    TIMESTAMPTZ NOT NULL
);
CREATE INDEX match_lease_node ON match_lease (node_id);
