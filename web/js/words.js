// Words shared by every screen: plurals (Intl.PluralRules, so "1 run", "2 runs") and the
// names of seats ("Ann", "the bot", "you"), never "seat 0", in the language on screen.

import { t, lang, has } from './i18n.js';

/**
 * "1 run", "0 runs", "2 wickets": `plural` defaults to the word with an "s". English words in,
 * English out (kept for the game modules); a sentence in the catalogue uses a plural message.
 */
export function count(n, one, plural = `${one}s`) {
  const value = Number(n) || 0;
  const rules = typeof Intl !== 'undefined' && Intl.PluralRules ? new Intl.PluralRules('en') : null;
  const form = rules ? rules.select(value) : value === 1 ? 'one' : 'other';
  return `${value} ${form === 'one' ? one : plural}`;
}

/**
 * A seat's name from a match's seats (`GET /v1/matches/{id}`: [{seat, player_id, name, bot}]):
 * the player's name, "the bot", or "player N" (counting from 1) when nothing is known.
 * `me` is this browser's seat, named "you". In the language on screen ("você", "o bot").
 */
export function nameOfSeat(seats, seat, { me = null, capital = false } = {}) {
  const list = Array.isArray(seats) ? seats : seats && typeof seats === 'object' ? Object.values(seats) : [];
  const entry = list.find((x) => x && Number(x.seat) === Number(seat)) || list[seat];
  let name;
  if (me !== null && me !== undefined && Number(seat) === Number(me)) name = t('common.seat.you');
  else if (entry && typeof entry === 'string') name = entry;
  else if (entry && entry.bot) name = botCount(list) > 1 ? t('common.seat.botN', { n: Number(seat) + 1 }) : t('common.seat.bot');
  else if (entry && (entry.name || entry.player_name)) name = entry.name || entry.player_name;
  else name = t('common.seat.player', { n: Number(seat) + 1 });
  return capital ? capitalise(name) : name;
}

function botCount(list) {
  return list.filter((x) => x && x.bot).length;
}

/** "you" (any capital) in the language on screen, or in English. */
export function isYou(name) {
  const text = String(name || '').toLowerCase();
  return text === 'you' || text === t('common.seat.you').toLowerCase();
}

/** The first letter in capitals ("O bot venceu"), for a name that starts a sentence. */
export function capitalise(text) {
  const s = String(text ?? '');
  return s.charAt(0).toLocaleUpperCase(lang()) + s.slice(1);
}

/**
 * One sentence about a seat, from the catalogue: `key.you` when the seat is this browser's
 * ("you roll" / "você rola"), else `key.other` with the name ("Ann rolls" / "Ann rola").
 * Portuguese conjugates differently, so each language has the two whole sentences.
 */
export function aboutSeat(key, name, params = {}) {
  const you = isYou(name) && has(`${key}.you`);
  return capitalise(t(you ? `${key}.you` : `${key}.other`, { name, ...params }));
}

/**
 * "you roll" but "Ann rolls": the verb agrees with a seat's name (English only; kept for the
 * game modules: a sentence to translate uses `aboutSeat` and one message per sentence).
 */
export function does(name, verb, base) {
  return `${name} ${isYou(name) ? base : verb}`;
}

/** Replaces the engines' "Seat 1 won" / "seat 0" with names. */
export function namedSeats(text, name) {
  return String(text || '').replace(/\b([Ss])eat (\d+)/g, (whole, s, n) => {
    const named = name(Number(n));
    if (!named) return whole;
    return s === 'S' ? capitalise(named) : named;
  });
}

/** Forfeit reasons the server writes (src/matches), by their English text. */
const FORFEIT_REASONS = {
  'left the match': 'left',
  disconnected: 'disconnected',
  'timeout without a legal default move': 'timeout',
  'the bot found no legal move': 'botStuck',
  'banned by an operator': 'banned',
  'every player left': 'everyoneLeft',
};

/**
 * A match's result in the player's language, from the Outcome the server keeps
 * (`{placings, summary}`, src/rules/mod.rs): who won, a tie, a forfeit or no result. The
 * engines' English summary is read only for what the placings cannot say (the margin, the
 * forfeit's reason, the points); a summary this page cannot read falls back to the placings,
 * and a result with no placings to the server's text with the seats named.
 * `name(seat)` names a seat ("Harbour Gulls (you)", "Ann", "the bot").
 */
export function resultLine(outcome, name) {
  if (!outcome) return t('common.result.over');
  if (typeof outcome === 'string') return capitalise(namedSeats(outcome, name));
  const summary = String(outcome.summary || '');
  const placings = Array.isArray(outcome.placings) ? outcome.placings.map(Number) : null;
  let m = summary.match(/^Seat (\d+) forfeited(?: \((.*)\))?$/);
  if (m) {
    const reason = FORFEIT_REASONS[m[2]];
    return capitalise(reason
      ? t('common.result.forfeitBecause', { name: name(Number(m[1])), reason: t(`common.result.reasons.${reason}`) })
      : t('common.result.forfeit', { name: name(Number(m[1])) }));
  }
  if (/^No result: abandoned/.test(summary)) {
    return /by an operator/.test(summary) ? t('common.result.abandonedByOperator') : t('common.result.abandoned');
  }
  m = summary.match(/^(?:Tie on|Match tied at) (\d+) runs?/);
  if (m) return t('common.result.tieOnRuns', { count: Number(m[1]) });
  m = summary.match(/^Seat (\d+) won by (an innings and )?(\d+) (wickets?|runs?)(?: \((\d+) to (\d+)\))?$/);
  if (m) {
    const n = Number(m[3]);
    const margin = m[4].startsWith('wicket')
      ? t('common.result.margin.wickets', { count: n })
      : m[2] ? t('common.result.margin.inningsAndRuns', { count: n }) : t('common.result.margin.runs', { count: n });
    const winner = name(Number(m[1]));
    return capitalise(m[5] !== undefined
      ? t('common.result.wonByTotals', { name: winner, margin, winnerRuns: Number(m[5]), loserRuns: Number(m[6]) })
      : t('common.result.wonBy', { name: winner, margin }));
  }
  const winners = placings ? placings.map((p, seat) => (p === 1 ? seat : null)).filter((x) => x !== null) : [];
  m = summary.match(/(?:wins|share the win) with (\d+) points?$/);
  if (m && winners.length) {
    const names = listOf(winners.map(name));
    return capitalise(winners.length > 1
      ? t('common.result.shareWinPoints', { names, count: Number(m[1]) })
      : t('common.result.winsPoints', { name: names, count: Number(m[1]) }));
  }
  if (placings && placings.length) {
    if (winners.length === placings.length) return t('common.result.tie');
    if (winners.length === 1) return capitalise(t('common.result.won', { name: name(winners[0]) }));
    if (winners.length > 1) return capitalise(t('common.result.shareWin', { names: listOf(winners.map(name)) }));
  }
  return summary ? capitalise(namedSeats(summary, name)) : t('common.result.over');
}

function listOf(names) {
  return typeof Intl !== 'undefined' && Intl.ListFormat ? new Intl.ListFormat(lang(), { type: 'conjunction' }).format(names) : names.join(', ');
}
