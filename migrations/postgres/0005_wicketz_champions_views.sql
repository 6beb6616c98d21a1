-- Operators' views for Wicketz and Cricket Champions, read straight from the event log.
-- Same columns as the SQLite views.
--
-- Numbered 0005 and written to replace: the `ratings` branch's 0004 defines a narrower
-- `wicketz_ball_by_ball` (its career views read it). This one keeps exactly those leading
-- columns (match_id .. wicket) and appends over_number, style, delivery, stroke and card,
-- so it works with or without 0004.

-- One row per delivery of every Wicketz match (`ball_completed` events, wides included),
-- with the innings and over found from the latest `innings_opened` / `over_started` before it.
-- Overs are numbered from 1 here (the events count them from 0); `striker` is the batting
-- order index (0 = batter no. 1); `runs` are off the bat.
CREATE OR REPLACE VIEW wicketz_ball_by_ball AS
WITH balls AS (
    SELECT e.match_id,
           e.seq,
           e.payload,
           (SELECT max(i.seq) FROM match_event i
             WHERE i.match_id = e.match_id AND i.seq < e.seq
               AND i.payload ->> 'type' = 'innings_opened') AS innings_seq,
           (SELECT max(o.seq) FROM match_event o
             WHERE o.match_id = e.match_id AND o.seq < e.seq
               AND o.payload ->> 'type' = 'over_started') AS over_seq
      FROM match_event e
      JOIN "match" m ON m.match_id = e.match_id AND m.game = 'wicketz'
     WHERE e.kind = 'event' AND e.payload ->> 'type' = 'ball_completed'
)
SELECT b.match_id,
       b.seq,
       (SELECT (i.payload ->> 'number')::bigint FROM match_event i
         WHERE i.match_id = b.match_id AND i.seq = b.innings_seq) AS innings,
       (SELECT (i.payload ->> 'batting')::bigint FROM match_event i
         WHERE i.match_id = b.match_id AND i.seq = b.innings_seq) AS batting_seat,
       (b.payload #>> '{ball,striker}')::bigint AS striker,
       (b.payload #>> '{ball,bat_runs}')::bigint AS runs,
       (b.payload #>> '{ball,byes}')::bigint AS byes,
       (b.payload #>> '{ball,extras}')::bigint AS extras,
       (b.payload #>> '{ball,legal}')::boolean AS legal,
       b.payload #>> '{ball,dismissal,how,kind}' AS wicket,
       1 + (SELECT (o.payload ->> 'number')::bigint FROM match_event o
             WHERE o.match_id = b.match_id AND o.seq = b.over_seq) AS over_number,
       (SELECT o.payload ->> 'style' FROM match_event o
         WHERE o.match_id = b.match_id AND o.seq = b.over_seq) AS style,
       b.payload #>> '{ball,delivery}' AS delivery,
       b.payload #>> '{ball,stroke}' AS stroke,
       (b.payload #>> '{ball,card}')::bigint AS card
  FROM balls b;

-- One row per over of every Cricket Champions match (`over_resolved` events), with its round.
CREATE OR REPLACE VIEW champions_over_by_over AS
SELECT e.match_id,
       e.seq,
       (SELECT (r.payload ->> 'round')::bigint FROM match_event r
         WHERE r.match_id = e.match_id AND r.seq < e.seq AND r.payload ->> 'type' = 'round_started'
         ORDER BY r.seq DESC LIMIT 1) AS round,
       (e.payload ->> 'batsman')::bigint AS batsman,
       (e.payload ->> 'bowler')::bigint AS bowler,
       (e.payload #>> '{result,runs}')::bigint AS runs,
       (e.payload #>> '{result,wickets}')::bigint AS wickets,
       (e.payload #>> '{result,wides}')::bigint AS wides,
       (e.payload #>> '{result,saved}')::bigint AS saved,
       (e.payload #>> '{result,sixes}')::bigint AS sixes,
       (e.payload #>> '{result,batsman_xp}')::bigint AS batsman_xp,
       (e.payload #>> '{result,bowler_xp}')::bigint AS bowler_xp
  FROM match_event e
  JOIN "match" m ON m.match_id = e.match_id AND m.game = 'champions'
 WHERE e.kind = 'event' AND e.payload ->> 'type' = 'over_resolved';
