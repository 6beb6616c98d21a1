-- crease schema, PostgreSQL flavour. migrations/sqlite/ holds the same tables; the
-- columns, keys and meaning are identical, only the types are native here.

-- A guest account. Only sha256(token) is kept: a leaked database cannot be used to play.
CREATE TABLE player (
    player_id   TEXT PRIMARY KEY,           -- uuid
    name        TEXT NOT NULL,
    token_hash  TEXT NOT NULL UNIQUE,       -- hex sha256 of the bearer token
    created_at  TIMESTAMPTZ NOT NULL
);

-- One match of any game. `seed` is stored from creation so a restart can resume the dice
-- stream, but the API reveals it only once status = 'finished'; until then only
-- `seed_commitment` = hex sha256(seed) is public.
CREATE TABLE "match" (
    match_id              TEXT PRIMARY KEY, -- uuid
    game                  TEXT NOT NULL,    -- Game::ID: ctg, wicketz, champions
    options               JSONB NOT NULL,   -- the game's options
    status                TEXT NOT NULL CHECK (status IN ('open', 'live', 'finished', 'cancelled')),
    seat_count            INTEGER NOT NULL,
    turn_clock_ms         BIGINT NOT NULL,
    disconnect_grace_ms   BIGINT NOT NULL,
    seed_commitment       TEXT NOT NULL,
    seed                  TEXT NOT NULL,
    created_at            TIMESTAMPTZ NOT NULL,
    started_at            TIMESTAMPTZ,
    finished_at           TIMESTAMPTZ,
    result                JSONB             -- Outcome once finished
);
CREATE INDEX match_status ON "match" (status, created_at);

-- Who sits where: a player, or a server-side bot (player_id NULL, bot = true).
CREATE TABLE match_seat (
    match_id    TEXT NOT NULL REFERENCES "match" (match_id),
    seat        INTEGER NOT NULL,
    player_id   TEXT REFERENCES player (player_id),
    bot         BOOLEAN NOT NULL DEFAULT false,
    PRIMARY KEY (match_id, seat),
    CHECK ((player_id IS NULL) = bot)
);
CREATE INDEX match_seat_player ON match_seat (player_id);

-- The append-only log of a match. kind = 'command' rows record what a seat asked
-- ({seat, source: player|timeout|bot, command}); the 'event' rows after it are what the
-- engine decided from it (the first 'event' rows, before any command, come from the start).
-- 'forfeit' rows end a match without the engine ({seat, reason}). Replaying the commands
-- from the seed must give exactly the logged events: that is `crease verify`.
CREATE TABLE match_event (
    match_id    TEXT NOT NULL REFERENCES "match" (match_id),
    seq         BIGINT NOT NULL,
    at          TIMESTAMPTZ NOT NULL,
    kind        TEXT NOT NULL CHECK (kind IN ('command', 'event', 'forfeit')),
    payload     JSONB NOT NULL,
    PRIMARY KEY (match_id, seq)
);

CREATE FUNCTION match_event_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'match_event is append-only';
END;
$$;
CREATE TRIGGER match_event_append_only BEFORE UPDATE OR DELETE ON match_event
    FOR EACH ROW EXECUTE FUNCTION match_event_refuse_change();

-- One line per match for operators: who played, how far it got, how it ended.
CREATE VIEW match_summary AS
SELECT m.match_id,
       m.game,
       m.status,
       m.created_at,
       m.started_at,
       m.finished_at,
       (SELECT string_agg(COALESCE(p.name, 'bot'), ' v ' ORDER BY s.seat)
          FROM match_seat s LEFT JOIN player p ON p.player_id = s.player_id
         WHERE s.match_id = m.match_id) AS players,
       (SELECT count(*) FROM match_event e WHERE e.match_id = m.match_id AND e.kind = 'event') AS events,
       (SELECT count(*) FROM match_event e WHERE e.match_id = m.match_id AND e.kind = 'command') AS commands,
       m.result ->> 'summary' AS result_summary
  FROM "match" m;
