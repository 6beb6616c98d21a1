-- One row per delivery of every CTG match (`ball_ended` events), with its innings, over
-- and bowler found from the events before it. Same columns as the Postgres view.
CREATE VIEW ctg_ball_by_ball AS
WITH balls AS (
    SELECT e.match_id,
           e.seq,
           e.payload,
           (SELECT max(i.seq) FROM match_event i
             WHERE i.match_id = e.match_id AND i.seq < e.seq
               AND json_extract(i.payload, '$.type') = 'innings_started') AS innings_seq
      FROM match_event e
      JOIN "match" m ON m.match_id = e.match_id AND m.game = 'ctg'
     WHERE e.kind = 'event' AND json_extract(e.payload, '$.type') = 'ball_ended'
)
SELECT b.match_id,
       b.seq,
       (SELECT json_extract(i.payload, '$.innings') FROM match_event i
         WHERE i.match_id = b.match_id AND i.seq = b.innings_seq) AS innings,
       (SELECT json_extract(i.payload, '$.batting') FROM match_event i
         WHERE i.match_id = b.match_id AND i.seq = b.innings_seq) AS batting_seat,
       1 + (SELECT count(*) FROM match_event o
             WHERE o.match_id = b.match_id AND o.seq > b.innings_seq AND o.seq < b.seq
               AND json_extract(o.payload, '$.type') = 'over_ended') AS over_number,
       (SELECT json_extract(w.payload, '$.bowler') FROM match_event w
         WHERE w.match_id = b.match_id AND w.seq < b.seq
           AND json_extract(w.payload, '$.type') = 'bowler_chosen'
         ORDER BY w.seq DESC LIMIT 1) AS bowler,
       json_extract(b.payload, '$.ball.runs') AS runs,
       json_extract(b.payload, '$.ball.extras') AS extras,
       json_extract(b.payload, '$.ball.legal') AS legal,
       json_extract(b.payload, '$.ball.boundary') AS boundary,
       json_extract(b.payload, '$.ball.wicket') AS wicket,
       json_extract(b.payload, '$.ball.express') AS express
  FROM balls b;
