-- Moderation, SQLite flavour (migrations/postgres/0009_moderation.sql holds the same tables
-- with native types; columns, keys and meaning are identical).

-- A banned player: its tokens open nothing and it cannot log in until an operator unbans it
-- (`POST /v1/admin/players/{id}/unban` clears both columns). Its sessions are kept, so an
-- unbanned guest's token works again.
ALTER TABLE player ADD COLUMN banned_at TEXT;
ALTER TABLE player ADD COLUMN ban_reason TEXT;

-- The display name, lowercased (Unicode, by the server), for case-insensitive uniqueness:
-- two players never hold the same key. A new guest whose chosen name is taken gets a suffix
-- (`Ana` -> `Ana #2`); a rename to a taken name is refused. Names given before this
-- migration keep NULL keys except the oldest player of each name, so old duplicates stay
-- until an operator renames them.
ALTER TABLE player ADD COLUMN name_key TEXT;
UPDATE player SET name_key = lower(name)
 WHERE NOT EXISTS (
    SELECT 1 FROM player older
     WHERE lower(older.name) = lower(player.name)
       AND (older.created_at < player.created_at
            OR (older.created_at = player.created_at AND older.player_id < player.player_id)));
CREATE UNIQUE INDEX player_name_key ON player (name_key);

-- Every admin action, newest last: who (the admin token's label), what (action, target,
-- details as JSON) and when. Written in the same transaction as the change it records
-- where there is one, and never updated or deleted by the server.
CREATE TABLE admin_audit (
    audit_id  INTEGER PRIMARY KEY AUTOINCREMENT,
    at        TEXT NOT NULL,
    actor     TEXT NOT NULL,            -- the admin token's label ("admin" unless named)
    action    TEXT NOT NULL CHECK (action IN ('ban', 'unban', 'rename', 'end_match')),
    target    TEXT NOT NULL,            -- a player id or a match id
    details   TEXT NOT NULL             -- JSON object
);
CREATE INDEX admin_audit_target ON admin_audit (target);

-- A match's log gains a fourth kind of entry: 'abandon' ({reason, by}), written by the
-- match's actor when an operator ends a live match: nobody wins, nothing is rated. SQLite
-- cannot change a CHECK in place, so the table is rebuilt with the same rows. The legacy
-- rename leaves the views that read `match_event` naming it, as they must.
PRAGMA legacy_alter_table = ON;
CREATE TABLE match_event_rebuilt (
    match_id    TEXT NOT NULL REFERENCES "match" (match_id),
    seq         INTEGER NOT NULL,
    at          TEXT NOT NULL,
    kind        TEXT NOT NULL CHECK (kind IN ('command', 'event', 'forfeit', 'abandon')),
    payload     TEXT NOT NULL,            -- JSON
    PRIMARY KEY (match_id, seq)
);
INSERT INTO match_event_rebuilt (match_id, seq, at, kind, payload)
SELECT match_id, seq, at, kind, payload FROM match_event;
DROP TABLE match_event;
ALTER TABLE match_event_rebuilt RENAME TO match_event;
PRAGMA legacy_alter_table = OFF;
CREATE TRIGGER match_event_append_only_update BEFORE UPDATE ON match_event
BEGIN SELECT RAISE(ABORT, 'match_event is append-only'); END;
CREATE TRIGGER match_event_append_only_delete BEFORE DELETE ON match_event
BEGIN SELECT RAISE(ABORT, 'match_event is append-only'); END;
