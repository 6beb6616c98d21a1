-- Competitions: leagues and knockouts, PostgreSQL flavour (migrations/sqlite/0011 holds the
-- same tables; columns, keys and meaning are identical).

-- One league (round robin, single or double) or knockout of one game with fixed options.
CREATE TABLE competition (
    competition_id  TEXT PRIMARY KEY,           -- uuid
    name            TEXT NOT NULL,
    game            TEXT NOT NULL,
    options         JSONB NOT NULL,             -- the game's options, as for a match
    format          TEXT NOT NULL CHECK (format IN ('league', 'knockout')),
    double_round    BOOLEAN NOT NULL,           -- leagues: everyone meets twice, home and away
    round_hours     INTEGER,                    -- each round's deadline after it opens (none: no clock)
    status          TEXT NOT NULL CHECK (status IN ('open', 'running', 'finished')),
    created_by      TEXT NOT NULL REFERENCES player (player_id),
    created_at      TIMESTAMPTZ NOT NULL,
    started_at      TIMESTAMPTZ,
    finished_at     TIMESTAMPTZ
);
CREATE INDEX competition_status ON competition (status, created_at);

-- Who takes part, in entry order: a player, or a server bot (player_id NULL, bot_level set).
-- `seed` is the knockout seed (1 = best rated) or the league's entry order, set at the start.
CREATE TABLE competition_entry (
    competition_id  TEXT NOT NULL REFERENCES competition (competition_id),
    entry           INTEGER NOT NULL,           -- 0, 1, 2 ... in the order they entered
    player_id       TEXT REFERENCES player (player_id),
    bot_level       TEXT CHECK (bot_level IN ('easy', 'normal', 'hard')),
    seed            INTEGER,
    rating          DOUBLE PRECISION,           -- the rating the seeding used
    PRIMARY KEY (competition_id, entry),
    UNIQUE (competition_id, player_id),
    CHECK ((player_id IS NULL) = (bot_level IS NOT NULL))
);
CREATE INDEX competition_entry_player ON competition_entry (player_id);

-- One fixture: two entries (NULL while a knockout's earlier round decides them; `away` NULL
-- with status 'bye' for a bye), the match it was played as, and its result in the terms
-- the table needs: the outcome and each side's runs and the legal balls counted for the net
-- run rate (a side bowled out counts its full quota; a walkover has no runs, so it counts
-- in the points and not in the rate).
CREATE TABLE competition_fixture (
    competition_id  TEXT NOT NULL REFERENCES competition (competition_id),
    fixture         INTEGER NOT NULL,
    round           INTEGER NOT NULL,           -- 1-based
    slot            INTEGER NOT NULL,           -- its place in the round (the bracket's order)
    home_entry      INTEGER,
    away_entry      INTEGER,
    home_ready      BOOLEAN NOT NULL DEFAULT false,
    away_ready      BOOLEAN NOT NULL DEFAULT false,
    match_id        TEXT REFERENCES "match" (match_id),
    status          TEXT NOT NULL CHECK (status IN ('waiting', 'starting', 'live', 'finished', 'bye')),
    -- a walkover: that side was ready by the round's deadline and the other was not
    outcome         TEXT CHECK (outcome IN ('home', 'away', 'tie', 'no_result', 'home_walkover', 'away_walkover')),
    winner_entry    INTEGER,
    home_runs       INTEGER,
    home_balls      INTEGER,
    away_runs       INTEGER,
    away_balls      INTEGER,
    summary         TEXT,
    PRIMARY KEY (competition_id, fixture)
);
CREATE INDEX competition_fixture_match ON competition_fixture (match_id);

-- A league's table as operators read it: one row per entry with the cricket columns. The
-- API's table orders by the documented tie-breaks (points, wins, net run rate, head to
-- head, fewer played, entry order); this view gives the figures they are computed from.
CREATE VIEW competition_standings AS
WITH sides AS (
    SELECT competition_id, home_entry AS entry, outcome,
           CASE WHEN outcome IN ('home', 'home_walkover') THEN 'won'
                WHEN outcome IN ('away', 'away_walkover') THEN 'lost' ELSE outcome END AS result,
           home_runs AS runs_for, home_balls AS balls_faced,
           away_runs AS runs_against, away_balls AS balls_bowled
      FROM competition_fixture WHERE status = 'finished' AND away_entry IS NOT NULL
    UNION ALL
    SELECT competition_id, away_entry, outcome,
           CASE WHEN outcome IN ('away', 'away_walkover') THEN 'won'
                WHEN outcome IN ('home', 'home_walkover') THEN 'lost' ELSE outcome END,
           away_runs, away_balls, home_runs, home_balls
      FROM competition_fixture WHERE status = 'finished' AND away_entry IS NOT NULL
)
SELECT e.competition_id, e.entry, e.player_id, COALESCE(p.name, 'Bot ' || (e.entry + 1)) AS name,
       count(s.result) AS played,
       count(*) FILTER (WHERE s.result = 'won') AS won,
       count(*) FILTER (WHERE s.result = 'lost') AS lost,
       count(*) FILTER (WHERE s.result = 'tie') AS tied,
       count(*) FILTER (WHERE s.result = 'no_result') AS no_result,
       COALESCE(sum(CASE s.result WHEN 'won' THEN 2 WHEN 'tie' THEN 1 WHEN 'no_result' THEN 1 ELSE 0 END), 0) AS points,
       COALESCE(sum(s.runs_for) FILTER (WHERE s.result <> 'no_result'), 0) AS runs_for,
       COALESCE(sum(s.balls_faced) FILTER (WHERE s.result <> 'no_result'), 0) AS balls_faced,
       COALESCE(sum(s.runs_against) FILTER (WHERE s.result <> 'no_result'), 0) AS runs_against,
       COALESCE(sum(s.balls_bowled) FILTER (WHERE s.result <> 'no_result'), 0) AS balls_bowled,
       round((COALESCE(6.0 * sum(s.runs_for) FILTER (WHERE s.result <> 'no_result')
                       / NULLIF(sum(s.balls_faced) FILTER (WHERE s.result <> 'no_result'), 0), 0)
            - COALESCE(6.0 * sum(s.runs_against) FILTER (WHERE s.result <> 'no_result')
                       / NULLIF(sum(s.balls_bowled) FILTER (WHERE s.result <> 'no_result'), 0), 0))::numeric, 3)
           AS net_run_rate
  FROM competition_entry e
  LEFT JOIN player p ON p.player_id = e.player_id
  LEFT JOIN sides s ON s.competition_id = e.competition_id AND s.entry = e.entry
 GROUP BY e.competition_id, e.entry, e.player_id, p.name;
