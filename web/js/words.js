// Words shared by every screen: plurals (Intl.PluralRules, so "1 run", "2 runs") and the
// names of seats ("Ann", "the bot", "you"), never "seat 0".

const rules = typeof Intl !== 'undefined' && Intl.PluralRules ? new Intl.PluralRules('en') : null;

/** "1 run", "0 runs", "2 wickets": `plural` defaults to the word with an "s". */
export function count(n, one, plural = `${one}s`) {
  const value = Number(n) || 0;
  const form = rules ? rules.select(value) : value === 1 ? 'one' : 'other';
  return `${value} ${form === 'one' ? one : plural}`;
}

/**
 * A seat's name from a match's seats (`GET /v1/matches/{id}`: [{seat, player_id, name, bot}]):
 * the player's name, "the bot", or "player N" (counting from 1) when nothing is known.
 * `me` is this browser's seat, named "you".
 */
export function nameOfSeat(seats, seat, { me = null, capital = false } = {}) {
  const list = Array.isArray(seats) ? seats : seats && typeof seats === 'object' ? Object.values(seats) : [];
  const entry = list.find((x) => x && Number(x.seat) === Number(seat)) || list[seat];
  let name;
  if (me !== null && me !== undefined && Number(seat) === Number(me)) name = 'you';
  else if (entry && typeof entry === 'string') name = entry;
  else if (entry && entry.bot) name = botCount(list) > 1 ? `bot ${Number(seat) + 1}` : 'the bot';
  else if (entry && (entry.name || entry.player_name)) name = entry.name || entry.player_name;
  else name = `player ${Number(seat) + 1}`;
  return capital ? name.charAt(0).toUpperCase() + name.slice(1) : name;
}

function botCount(list) {
  return list.filter((x) => x && x.bot).length;
}

/** "you roll" but "Ann rolls": the verb agrees with a seat's name. */
export function does(name, verb, base) {
  return `${name} ${name === 'you' || name === 'You' ? base : verb}`;
}

/** Replaces the engines' "Seat 1 won" / "seat 0" with names. */
export function namedSeats(text, name) {
  return String(text || '').replace(/\b([Ss])eat (\d+)/g, (whole, s, n) => {
    const named = name(Number(n));
    if (!named) return whole;
    return s === 'S' ? named.charAt(0).toUpperCase() + named.slice(1) : named;
  });
}
