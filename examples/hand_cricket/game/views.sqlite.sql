-- Hand Cricket, one row per ball, for operators. Created at every start (idempotent), so it
-- lives with the game, not in a migration. Same columns as the PostgreSQL view.
CREATE VIEW IF NOT EXISTS hand_cricket_balls AS
SELECT e.match_id,
       e.seq,
       json_extract(e.payload, '$.ball.innings') AS innings,
       json_extract(e.payload, '$.ball.batting') AS batting_seat,
       json_extract(e.payload, '$.ball.batter_fingers') AS batter_fingers,
       json_extract(e.payload, '$.ball.bowler_fingers') AS bowler_fingers,
       json_extract(e.payload, '$.ball.runs') AS runs,
       CASE WHEN json_extract(e.payload, '$.ball.out') THEN 1 ELSE 0 END AS out
  FROM match_event e
  JOIN "match" m ON m.match_id = e.match_id AND m.game = 'hand_cricket'
 WHERE e.kind = 'event' AND json_extract(e.payload, '$.type') = 'bowled';
