-- crease schema, SQLite flavour. migrations/postgres/ holds the same tables with native
-- types; the columns, keys and meaning are identical.

-- A guest account. Only sha256(token) is kept: a leaked database cannot be used to play.
CREATE TABLE player (
    player_id   TEXT PRIMARY KEY,           -- uuid
    name        TEXT NOT NULL,
    token_hash  TEXT NOT NULL UNIQUE,       -- hex sha256 of the bearer token
    created_at  TEXT NOT NULL
);

-- One match of any game. `seed` is stored from creation so a restart can resume the dice
-- stream, but the API reveals it only once status = 'finished'; until then only
-- `seed_commitment` = hex sha256(seed) is public.
CREATE TABLE "match" (
    match_id              TEXT PRIMARY KEY, -- uuid
    game                  TEXT NOT NULL,    -- Game::ID: ctg, wicketz, champions
    options               TEXT NOT NULL,    -- the game's options, JSON
    status                TEXT NOT NULL CHECK (status IN ('open', 'live', 'finished', 'cancelled')),
    seat_count            INTEGER NOT NULL,
    turn_clock_ms         INTEGER NOT NULL,
    disconnect_grace_ms   INTEGER NOT NULL,
    seed_commitment       TEXT NOT NULL,
    seed                  TEXT NOT NULL,
    created_at            TEXT NOT NULL,
    started_at            TEXT,
    finished_at           TEXT,
    result                TEXT              -- Outcome JSON once finished
);
CREATE INDEX match_status ON "match" (status, created_at);

-- Who sits where: a player, or a server-side bot (player_id NULL, bot = 1).
CREATE TABLE match_seat (
    match_id    TEXT NOT NULL REFERENCES "match" (match_id),
    seat        INTEGER NOT NULL,
    player_id   TEXT REFERENCES player (player_id),
    bot         INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (match_id, seat),
    CHECK ((player_id IS NULL) = (bot = 1))
);
CREATE INDEX match_seat_player ON match_seat (player_id);

-- The append-only log of a match. kind = 'command' rows record what a seat asked
-- ({seat, source: player|timeout|bot, command}); the 'event' rows after it are what the
-- engine decided from it (the first 'event' rows, before any command, come from the start).
-- 'forfeit' rows end a match without the engine ({seat, reason}). Replaying the commands
-- from the seed must give exactly the logged events: that is `crease verify`.
CREATE TABLE match_event (
    match_id    TEXT NOT NULL REFERENCES "match" (match_id),
    seq         INTEGER NOT NULL,
    at          TEXT NOT NULL,
    kind        TEXT NOT NULL CHECK (kind IN ('command', 'event', 'forfeit')),
    payload     TEXT NOT NULL,            -- JSON
    PRIMARY KEY (match_id, seq)
);

CREATE TRIGGER match_event_append_only_update BEFORE UPDATE ON match_event
BEGIN SELECT RAISE(ABORT, 'match_event is append-only'); END;
CREATE TRIGGER match_event_append_only_delete BEFORE DELETE ON match_event
BEGIN SELECT RAISE(ABORT, 'match_event is append-only'); END;

-- One line per match for operators: who played, how far it got, how it ended.
CREATE VIEW match_summary AS
SELECT m.match_id,
       m.game,
       m.status,
       m.created_at,
       m.started_at,
       m.finished_at,
       (SELECT group_concat(seat_name, ' v ')
          FROM (SELECT COALESCE(p.name, 'bot') AS seat_name
                  FROM match_seat s LEFT JOIN player p ON p.player_id = s.player_id
                 WHERE s.match_id = m.match_id ORDER BY s.seat)) AS players,
       (SELECT count(*) FROM match_event e WHERE e.match_id = m.match_id AND e.kind = 'event') AS events,
       (SELECT count(*) FROM match_event e WHERE e.match_id = m.match_id AND e.kind = 'command') AS commands,
       json_extract(m.result, '$.summary') AS result_summary
  FROM "match" m;
