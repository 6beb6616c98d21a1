-- One row per delivery of every CTG match (`ball_ended` events), with its innings, over
-- and bowler found from the events before it. Same columns as the SQLite view.
CREATE VIEW ctg_ball_by_ball AS
WITH balls AS (
    SELECT e.match_id,
           e.seq,
           e.payload,
           (SELECT max(i.seq) FROM match_event i
             WHERE i.match_id = e.match_id AND i.seq < e.seq
               AND i.payload ->> 'type' = 'innings_started') AS innings_seq
      FROM match_event e
      JOIN "match" m ON m.match_id = e.match_id AND m.game = 'ctg'
     WHERE e.kind = 'event' AND e.payload ->> 'type' = 'ball_ended'
)
SELECT b.match_id,
       b.seq,
       (SELECT (i.payload ->> 'innings')::bigint FROM match_event i
         WHERE i.match_id = b.match_id AND i.seq = b.innings_seq) AS innings,
       (SELECT (i.payload ->> 'batting')::bigint FROM match_event i
         WHERE i.match_id = b.match_id AND i.seq = b.innings_seq) AS batting_seat,
       1 + (SELECT count(*) FROM match_event o
             WHERE o.match_id = b.match_id AND o.seq > b.innings_seq AND o.seq < b.seq
               AND o.payload ->> 'type' = 'over_ended') AS over_number,
       (SELECT (w.payload ->> 'bowler')::bigint FROM match_event w
         WHERE w.match_id = b.match_id AND w.seq < b.seq AND w.payload ->> 'type' = 'bowler_chosen'
         ORDER BY w.seq DESC LIMIT 1) AS bowler,
       (b.payload #>> '{ball,runs}')::bigint AS runs,
       (b.payload #>> '{ball,extras}')::bigint AS extras,
       (b.payload #>> '{ball,legal}')::boolean AS legal,
       (b.payload #>> '{ball,boundary}')::bigint AS boundary,
       b.payload #>> '{ball,wicket}' AS wicket,
       (b.payload #>> '{ball,express}')::boolean AS express
  FROM balls b;
