-- Accounts, PostgreSQL flavour (migrations/sqlite/0007_accounts.sql holds the same tables with
-- native types; columns, keys and meaning are identical).
--
-- A guest claims its player with a login name and a password, then logs in on other
-- devices. From this migration on every bearer token is a row of `player_session`, and that
-- table alone authenticates: `player.token_hash` keeps the hash of the token issued when the
-- player was created, which is also that player's first session.

-- A claimed player. `password_hash` is an argon2id PHC string (its salt and cost parameters
-- inside it), never the password. A player without a row here is a guest.
CREATE TABLE player_login (
    player_id      TEXT PRIMARY KEY REFERENCES player (player_id),
    username       TEXT NOT NULL UNIQUE,   -- lowercase: logins are case-insensitive
    password_hash  TEXT NOT NULL,
    claimed_at     TIMESTAMPTZ NOT NULL
);

-- Every token that opens a player, as hex sha256 (like player.token_hash). The guest token
-- of an unclaimed player has no expiry: it is that account's only key. A login session, and
-- the guest token once its account is claimed, expire at `expires_at`. Logging out deletes
-- the row.
CREATE TABLE player_session (
    token_hash   TEXT PRIMARY KEY,
    player_id    TEXT NOT NULL REFERENCES player (player_id),
    created_at   TIMESTAMPTZ NOT NULL,
    expires_at   TIMESTAMPTZ               -- NULL: valid until revoked
);
CREATE INDEX player_session_player ON player_session (player_id);

-- The tokens issued before sessions existed keep working: each is its guest's session.
INSERT INTO player_session (token_hash, player_id, created_at, expires_at)
SELECT token_hash, player_id, created_at, NULL FROM player;
