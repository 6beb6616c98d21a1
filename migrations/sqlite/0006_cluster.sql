-- Cluster mode's tables (see migrations/postgres/0006_cluster.sql for their meaning). Cluster
-- mode needs PostgreSQL; SQLite keeps the same schema so both flavours stay identical.

CREATE TABLE cluster_node (
    node_id        TEXT PRIMARY KEY,
    name           TEXT NOT NULL,
    advertise_url  TEXT,
    started_at     TEXT NOT NULL,
    heartbeat_at   TEXT NOT NULL,
    lease_ttl_ms   INTEGER NOT NULL,
    draining       BOOLEAN NOT NULL DEFAULT 0,
    runs_matches   BOOLEAN NOT NULL DEFAULT 1
);

CREATE TABLE match_lease (
    match_id    TEXT PRIMARY KEY REFERENCES "match" (match_id),
    node_id     TEXT NOT NULL,
    epoch       INTEGER NOT NULL,
    taken_at    TEXT NOT NULL
);
CREATE INDEX match_lease_node ON match_lease (node_id);
