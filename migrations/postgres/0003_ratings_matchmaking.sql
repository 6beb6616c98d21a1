-- Glicko-2 ratings per player, game and format, the change each rated match made, and
-- matchmaking tickets shared by every server process. Same columns as the SQLite flavour.

CREATE TABLE rating (
    player_id   TEXT NOT NULL REFERENCES player (player_id),
    game        TEXT NOT NULL,
    format      TEXT NOT NULL,              -- e.g. ctg: t10 / t20; wicketz: 20ov; champions: 3p
    rating      DOUBLE PRECISION NOT NULL,
    deviation   DOUBLE PRECISION NOT NULL,
    volatility  DOUBLE PRECISION NOT NULL,
    matches     BIGINT NOT NULL,
    wins        BIGINT NOT NULL,
    updated_at  TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (player_id, game, format)
);
CREATE INDEX rating_board ON rating (game, format, rating DESC, player_id);

-- One row per rated seat of a finished match: written in the transaction that finishes it.
CREATE TABLE match_rating (
    match_id          TEXT NOT NULL REFERENCES "match" (match_id),
    seat              INTEGER NOT NULL,
    player_id         TEXT NOT NULL REFERENCES player (player_id),
    game              TEXT NOT NULL,
    format            TEXT NOT NULL,
    finish_place         INTEGER NOT NULL,
    rating_before     DOUBLE PRECISION NOT NULL,
    rating_after      DOUBLE PRECISION NOT NULL,
    deviation_after   DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (match_id, seat)
);
CREATE INDEX match_rating_player ON match_rating (player_id);

-- A player waiting for opponents. Every matchmaker locks the waiting rows it reads
-- (FOR UPDATE SKIP LOCKED), so two processes never seat one ticket twice.
CREATE TABLE matchmaking_ticket (
    ticket_id     TEXT PRIMARY KEY,
    player_id     TEXT NOT NULL REFERENCES player (player_id),
    game          TEXT NOT NULL,
    options       JSONB NOT NULL,
    options_key   TEXT NOT NULL,            -- canonical JSON of the options: equal options pair
    rating        DOUBLE PRECISION NOT NULL,
    seat_count    INTEGER NOT NULL,
    bot_fallback  BOOLEAN NOT NULL,
    status        TEXT NOT NULL CHECK (status IN ('waiting', 'matched', 'cancelled')),
    match_id      TEXT REFERENCES "match" (match_id),
    created_at    TIMESTAMPTZ NOT NULL
);
CREATE INDEX matchmaking_ticket_waiting ON matchmaking_ticket (status, created_at);
