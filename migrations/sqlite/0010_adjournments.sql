-- Adjourning by agreement, SQLite flavour (migrations/postgres/0010_adjournments.sql holds
-- the same with native types).

-- A match's log gains a fifth kind of entry: 'adjournment' ({action, seat?, resume_at?}),
-- an offer to adjourn, its answer, the adjournment agreed, the resumption. SQLite cannot
-- change a CHECK in place, so the table is rebuilt with the same rows (as in 0009).
PRAGMA legacy_alter_table = ON;
CREATE TABLE match_event_rebuilt (
    match_id    TEXT NOT NULL REFERENCES "match" (match_id),
    seq         INTEGER NOT NULL,
    at          TEXT NOT NULL,
    kind        TEXT NOT NULL CHECK (kind IN ('command', 'event', 'forfeit', 'abandon', 'adjournment')),
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

-- A match's adjournment entries, found without reading its other events.
CREATE INDEX match_event_adjournment ON match_event (match_id, seq) WHERE kind = 'adjournment';

-- The live matches that stand adjourned now: their last adjournment entry is the agreement
-- (a later one would be the resumption). `adjourned_at` is when it was agreed, `resume_at`
-- the time agreed to resume, if any. Lists and profiles read it; so may operators.
CREATE VIEW match_adjourned AS
SELECT e.match_id,
       e.at AS adjourned_at,
       json_extract(e.payload, '$.resume_at') AS resume_at
  FROM "match" m
  JOIN match_event e ON e.match_id = m.match_id AND e.kind = 'adjournment'
 WHERE m.status = 'live'
   AND e.seq = (SELECT max(l.seq) FROM match_event l
                 WHERE l.match_id = m.match_id AND l.kind = 'adjournment')
   AND json_extract(e.payload, '$.action') = 'agreed';
