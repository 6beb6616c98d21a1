-- Adjourning by agreement, PostgreSQL flavour (migrations/sqlite/0010_adjournments.sql holds
-- the same; columns and meaning are identical).

-- A match's log gains a fifth kind of entry: 'adjournment' ({action, seat?, resume_at?}),
-- an offer to adjourn, its answer, the adjournment agreed, the resumption.
ALTER TABLE match_event DROP CONSTRAINT match_event_kind_check;
ALTER TABLE match_event ADD CONSTRAINT match_event_kind_check
    CHECK (kind IN ('command', 'event', 'forfeit', 'abandon', 'adjournment'));

-- A match's adjournment entries, found without reading its other events.
CREATE INDEX match_event_adjournment ON match_event (match_id, seq) WHERE kind = 'adjournment';

-- The live matches that stand adjourned now: their last adjournment entry is the agreement
-- (a later one would be the resumption). `adjourned_at` is when it was agreed, `resume_at`
-- the time agreed to resume, if any. Lists and profiles read it; so may operators.
CREATE VIEW match_adjourned AS
SELECT e.match_id,
       e.at AS adjourned_at,
       (e.payload ->> 'resume_at')::timestamptz AS resume_at
  FROM "match" m
  JOIN match_event e ON e.match_id = m.match_id AND e.kind = 'adjournment'
 WHERE m.status = 'live'
   AND e.seq = (SELECT max(l.seq) FROM match_event l
                 WHERE l.match_id = m.match_id AND l.kind = 'adjournment')
   AND e.payload ->> 'action' = 'agreed';
