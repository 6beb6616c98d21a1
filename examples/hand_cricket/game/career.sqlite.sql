-- Hand Cricket careers, one row per player with a finished match: the player profile reads
-- it (`GameExtras::CAREER`), with the columns of the other cricket games' career views.
-- Created after `hand_cricket_balls`, at every start (idempotent). Same columns as the
-- PostgreSQL view.
CREATE VIEW IF NOT EXISTS hand_cricket_player_career AS
SELECT t.*,
       round(100.0 * t.runs / NULLIF(t.balls_faced, 0), 2) AS strike_rate,
       round(6.0 * t.runs_conceded / NULLIF(t.balls_bowled, 0), 2) AS economy
  FROM (
    SELECT p.player_id,
           p.name,
           count(DISTINCT s.match_id) AS matches,
           COALESCE(sum(CASE WHEN b.batting_seat = s.seat THEN b.runs END), 0) AS runs,
           COALESCE(sum(CASE WHEN b.batting_seat = s.seat THEN 1 END), 0) AS balls_faced,
           COALESCE(sum(CASE WHEN b.batting_seat = s.seat AND b.runs = 4 THEN 1 END), 0) AS fours,
           COALESCE(sum(CASE WHEN b.batting_seat = s.seat AND b.runs = 6 THEN 1 END), 0) AS sixes,
           COALESCE(sum(CASE WHEN b.batting_seat = s.seat THEN b.out END), 0) AS dismissals,
           COALESCE(sum(CASE WHEN b.batting_seat <> s.seat THEN b.out END), 0) AS wickets,
           COALESCE(sum(CASE WHEN b.batting_seat <> s.seat THEN b.runs END), 0) AS runs_conceded,
           COALESCE(sum(CASE WHEN b.batting_seat <> s.seat THEN 1 END), 0) AS balls_bowled
      FROM player p
      JOIN match_seat s ON s.player_id = p.player_id
      JOIN "match" m ON m.match_id = s.match_id AND m.game = 'hand_cricket' AND m.status = 'finished'
      LEFT JOIN hand_cricket_balls b ON b.match_id = s.match_id
     GROUP BY p.player_id, p.name
  ) t;
