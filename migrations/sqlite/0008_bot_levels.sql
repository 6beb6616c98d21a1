-- How strongly each server-side bot seat plays (`easy`, `normal`, `hard`); NULL for a human
-- seat and for bot seats made before levels existed, which play `normal`.
ALTER TABLE match_seat ADD COLUMN bot_level TEXT CHECK (bot_level IN ('easy', 'normal', 'hard'));
