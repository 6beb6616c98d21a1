-- Operator views of players' careers, over finished matches. Same columns as the PostgreSQL
-- flavour. Seats count as a player's side: in CTG and Wicketz a player bats when their seat
-- bats and bowls otherwise.

-- One row per delivery of every Wicketz match (`ball_completed` events), with its innings
-- and batting seat found from the `innings_opened` event before it.
CREATE VIEW wicketz_ball_by_ball AS
WITH balls AS (
    SELECT e.match_id,
           e.seq,
           e.payload,
           (SELECT max(i.seq) FROM match_event i
             WHERE i.match_id = e.match_id AND i.seq < e.seq
               AND json_extract(i.payload, '$.type') = 'innings_opened') AS innings_seq
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
       json_extract(b.payload, '$.ball.dismissal.how.kind') AS wicket
  FROM balls b;

-- CTG careers: batting (runs, balls, fours, sixes, strike rate) and bowling (wickets
-- excluding run outs, runs conceded, balls, economy per six-ball over).
CREATE VIEW ctg_player_career AS
SELECT t.*,
       round(100.0 * t.runs / NULLIF(t.balls_faced, 0), 2) AS strike_rate,
       round(6.0 * t.runs_conceded / NULLIF(t.balls_bowled, 0), 2) AS economy
  FROM (
    SELECT p.player_id,
           p.name,
           count(DISTINCT s.match_id) AS matches,
           COALESCE(sum(CASE WHEN b.batting_seat = s.seat THEN b.runs END), 0) AS runs,
           COALESCE(sum(CASE WHEN b.batting_seat = s.seat AND b.legal THEN 1 END), 0) AS balls_faced,
           COALESCE(sum(CASE WHEN b.batting_seat = s.seat AND b.boundary = 4 THEN 1 END), 0) AS fours,
           COALESCE(sum(CASE WHEN b.batting_seat = s.seat AND b.boundary = 6 THEN 1 END), 0) AS sixes,
           COALESCE(sum(CASE WHEN b.batting_seat = s.seat AND b.wicket IS NOT NULL THEN 1 END), 0) AS dismissals,
           COALESCE(sum(CASE WHEN b.batting_seat <> s.seat AND b.wicket IS NOT NULL
                              AND b.wicket <> 'run_out' THEN 1 END), 0) AS wickets,
           COALESCE(sum(CASE WHEN b.batting_seat <> s.seat THEN b.runs + b.extras END), 0) AS runs_conceded,
           COALESCE(sum(CASE WHEN b.batting_seat <> s.seat AND b.legal THEN 1 END), 0) AS balls_bowled
      FROM player p
      JOIN match_seat s ON s.player_id = p.player_id
      JOIN "match" m ON m.match_id = s.match_id AND m.game = 'ctg' AND m.status = 'finished'
      LEFT JOIN ctg_ball_by_ball b ON b.match_id = s.match_id
     GROUP BY p.player_id, p.name
  ) t;

-- Wicketz careers: the same columns; byes are not charged to the bowling side.
CREATE VIEW wicketz_player_career AS
SELECT t.*,
       round(100.0 * t.runs / NULLIF(t.balls_faced, 0), 2) AS strike_rate,
       round(6.0 * t.runs_conceded / NULLIF(t.balls_bowled, 0), 2) AS economy
  FROM (
    SELECT p.player_id,
           p.name,
           count(DISTINCT s.match_id) AS matches,
           COALESCE(sum(CASE WHEN b.batting_seat = s.seat THEN b.runs END), 0) AS runs,
           COALESCE(sum(CASE WHEN b.batting_seat = s.seat AND b.legal THEN 1 END), 0) AS balls_faced,
           COALESCE(sum(CASE WHEN b.batting_seat = s.seat AND b.runs = 4 THEN 1 END), 0) AS fours,
           COALESCE(sum(CASE WHEN b.batting_seat = s.seat AND b.runs = 6 THEN 1 END), 0) AS sixes,
           COALESCE(sum(CASE WHEN b.batting_seat = s.seat AND b.wicket IS NOT NULL THEN 1 END), 0) AS dismissals,
           COALESCE(sum(CASE WHEN b.batting_seat <> s.seat AND b.wicket IS NOT NULL
                              AND b.wicket <> 'run_out' THEN 1 END), 0) AS wickets,
           COALESCE(sum(CASE WHEN b.batting_seat <> s.seat THEN b.runs + b.extras END), 0) AS runs_conceded,
           COALESCE(sum(CASE WHEN b.batting_seat <> s.seat AND b.legal THEN 1 END), 0) AS balls_bowled
      FROM player p
      JOIN match_seat s ON s.player_id = p.player_id
      JOIN "match" m ON m.match_id = s.match_id AND m.game = 'wicketz' AND m.status = 'finished'
      LEFT JOIN wicketz_ball_by_ball b ON b.match_id = s.match_id
     GROUP BY p.player_id, p.name
  ) t;

-- Champions careers: matches, wins (first place), and championship points from each
-- match's final `match_ended` event.
CREATE VIEW champions_player_career AS
SELECT p.player_id,
       p.name,
       count(*) AS matches,
       COALESCE(sum(CASE WHEN json_extract(m.result, '$.placings[' || s.seat || ']') = 1 THEN 1 END), 0) AS wins,
       COALESCE(sum(json_extract(e.payload, '$.points[' || s.seat || '].runs')), 0) AS runs,
       COALESCE(sum(json_extract(e.payload, '$.points[' || s.seat || '].wickets')), 0) AS wickets,
       COALESCE(sum(json_extract(e.payload, '$.points[' || s.seat || '].total')), 0) AS points,
       round(avg(json_extract(e.payload, '$.points[' || s.seat || '].total')), 2) AS average_points
  FROM player p
  JOIN match_seat s ON s.player_id = p.player_id
  JOIN "match" m ON m.match_id = s.match_id AND m.game = 'champions' AND m.status = 'finished'
  LEFT JOIN match_event e ON e.match_id = s.match_id AND e.kind = 'event'
                         AND json_extract(e.payload, '$.type') = 'match_ended'
 GROUP BY p.player_id, p.name;
