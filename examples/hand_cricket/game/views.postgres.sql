-- Hand Cricket, one row per ball, for operators. Created at every start (idempotent), so it
-- lives with the game, not in a migration. Same columns as the SQLite view.
CREATE OR REPLACE VIEW hand_cricket_balls AS
SELECT e.match_id,
       e.seq,
       (e.payload -> 'ball' ->> 'innings')::bigint AS innings,
       (e.payload -> 'ball' ->> 'batting')::bigint AS batting_seat,
       (e.payload -> 'ball' ->> 'batter_fingers')::bigint AS batter_fingers,
       (e.payload -> 'ball' ->> 'bowler_fingers')::bigint AS bowler_fingers,
       (e.payload -> 'ball' ->> 'runs')::bigint AS runs,
       CASE WHEN (e.payload -> 'ball' ->> 'out')::boolean THEN 1 ELSE 0 END AS out
  FROM match_event e
  JOIN "match" m ON m.match_id = e.match_id AND m.game = 'hand_cricket'
 WHERE e.kind = 'event' AND e.payload ->> 'type' = 'bowled';
