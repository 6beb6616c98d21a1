-- Operators' views for Wicketz and Cricket Champions, read straight from the event log.
-- Same columns as the Postgres views.
--
-- Numbered 0005 and written to replace: the `ratings` branch's 0004 defines a narrower
-- `wicketz_ball_by_ball` (its career views read it). This one keeps exactly those leading
-- columns (match_id .. wicket) and appends over_number, style, delivery, stroke and card,
-- so it works with or without 0004.

-- One row per delivery of every Wicketz match (`ball_completed` events, wides included),
-- with the innings and over found from the latest `innings_opened` / `over_started` before it.
-- Overs are numbered from 1 here (the events count them from 0); `striker` is the batting
-- order index (0 = batter no. 1); `runs` are off the bat.
DROP VIEW IF EXISTS wicketz_ball_by_ball;
CREATE VIEW wicketz_ball_by_ball AS
WITH balls AS (
    SELECT e.match_id,
           e.seq,
           e.payload,
           (SELECT max(i.seq) FROM match_event i
             WHERE i.match_id = e.match_id AND i.seq < e.seq
               AND json_extract(i.payload, '$.type') = 'innings_opened') AS innings_seq,
           (SELECT max(o.seq) FROM match_event o
             WHERE o.match_id = e.match_id AND o.seq < e.seq
               AND json_extract(o.payload, '$.type') = 'over_started') AS over_seq
      FROM match_event e
      JOIN "match" m ON m.match_id = e.match_id AND m.game = 'wicketz'
     WHERE e.kind = 'event' AND json_extract(e.payload, '$.type') = 'ball_completed'
)
SELECT b.match_id,
       b.seq,
       (SELECT json_extract(i.payload, '$.number') FROM match_event i
         WHERE i.match_id = b.match_id AND i.seq = b.innings_seq) AS innings,
       (SELECT json_extract(i.payload, '$.batting') FROM match_event i
         WHERE i.match_id = b.match_id AND i.seq = b.innings_seq) AS batting_seat,
       json_extract(b.payload, '$.ball.striker') AS striker,
       json_extract(b.payload, '$.ball.bat_runs') AS runs,
       json_extract(b.payload, '$.ball.byes') AS byes,
       json_extract(b.payload, '$.ball.extras') AS extras,
       json_extract(b.payload, '$.ball.legal') AS legal,
       json_extract(b.payload, '$.ball.dismissal.how.kind') AS wicket,
       1 + (SELECT json_extract(o.payload, '$.number') FROM match_event o
             WHERE o.match_id = b.match_id AND o.seq = b.over_seq) AS over_number,
       (SELECT json_extract(o.payload, '$.style') FROM match_event o
         WHERE o.match_id = b.match_id AND o.seq = b.over_seq) AS style,
       json_extract(b.payload, '$.ball.delivery') AS delivery,
       json_extract(b.payload, '$.ball.stroke') AS stroke,
       json_extract(b.payload, '$.ball.card') AS card
  FROM balls b;

-- One row per over of every Cricket Champions match (`over_resolved` events), with its round.
DROP VIEW IF EXISTS champions_over_by_over;
CREATE VIEW champions_over_by_over AS
SELECT e.match_id,
       e.seq,
       (SELECT json_extract(r.payload, '$.round') FROM match_event r
         WHERE r.match_id = e.match_id AND r.seq < e.seq
           AND json_extract(r.payload, '$.type') = 'round_started'
         ORDER BY r.seq DESC LIMIT 1) AS round,
       json_extract(e.payload, '$.batsman') AS batsman,
       json_extract(e.payload, '$.bowler') AS bowler,
       json_extract(e.payload, '$.result.runs') AS runs,
       json_extract(e.payload, '$.result.wickets') AS wickets,
       json_extract(e.payload, '$.result.wides') AS wides,
       json_extract(e.payload, '$.result.saved') AS saved,
       json_extract(e.payload, '$.result.sixes') AS sixes,
       json_extract(e.payload, '$.result.batsman_xp') AS batsman_xp,
       json_extract(e.payload, '$.result.bowler_xp') AS bowler_xp
  FROM match_event e
  JOIN "match" m ON m.match_id = e.match_id AND m.game = 'champions'
 WHERE e.kind = 'event' AND json_extract(e.payload, '$.type') = 'over_resolved';
