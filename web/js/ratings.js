// Leaderboards per game and format (#/leaderboards/<game>/<format>) and a player's profile
// (#/players/<id>): ratings, career figures and recent matches, each linking to its replay.

import { h, mount, fill, proper } from './dom.js';
import { api } from './api.js';
import { GAMES, firstGame } from './catalog.js';
import { nameOfSeat, resultLine } from './words.js';
import { t, num, lang } from './i18n.js';
import { errorText } from './errors.js';
import { adjournedBadge } from './adjourn.js';
import { profileCompetitions } from './competitions.js';

/** The rating pools a game's leaderboard offers (the catalogue's); any other can be typed in. */
const poolsOf = (game) => (GAMES[game] && GAMES[game].pools) || [];

const gameName = (game) => (GAMES[game] && GAMES[game].name) || game;

function rating(value) {
  return typeof value === 'number' ? String(Math.round(value)) : '-';
}

export function showLeaderboard(root, { game = 'ctg', format = '' } = {}) {
  if (!GAMES[game]) game = firstGame();
  let disposed = false;
  // The formats are the game's rating pools from the catalogue: a list, nothing to type.
  const pools = poolsOf(game).length ? poolsOf(game) : [format || ''];
  const formatInput = h('select', {
    id: 'board-format', 'data-testid': 'board-format',
    onchange: () => go(game, formatInput.value),
  }, pools.map((value) => h('option', { value, selected: value === format }, formatLabel(game, value))));
  const table = h('div', { class: 'table-scroll', 'data-testid': 'leaderboard' });
  const more = h('div');
  const heading = h('h1', {}, fill(t('common.board.title'), { game: proper(gameName(game)) }));

  const go = (nextGame, nextFormat) => {
    location.hash = `#/leaderboards/${nextGame}${nextFormat ? `/${encodeURIComponent(nextFormat)}` : ''}`;
  };

  async function load(cursor, rows = []) {
    try {
      const board = await api.leaderboard(game, format || undefined, cursor);
      if (disposed) return;
      const all = [...rows, ...board.entries];
      mount(heading, fill(t('common.board.titleFormat', { format: formatLabel(game, board.format) }), { game: proper(gameName(game)) }));
      if (!format) {
        if (![...formatInput.options].some((o) => o.value === board.format)) formatInput.append(h('option', { value: board.format }, formatLabel(game, board.format)));
        formatInput.value = board.format;
      }
      draw(all);
      mount(more, board.next_cursor
        ? h('button', { 'data-testid': 'board-more', onclick: () => load(board.next_cursor, all) }, t('common.board.more'))
        : null);
    } catch (err) {
      mount(table, h('p', { class: 'error', role: 'alert' }, errorText(err)));
    }
  }

  function draw(entries) {
    if (entries.length === 0) {
      mount(table, h('p', { class: 'muted', 'data-testid': 'board-empty' }, t('common.board.empty')));
      return;
    }
    mount(table, h('table', { class: 'board-table' },
      h('thead', {}, h('tr', {}, ['#', t('common.board.col.player'), t('common.board.col.rating'), '±', t('common.board.col.matches'), t('common.board.col.wins')].map((text) => h('th', { scope: 'col' }, text)))),
      h('tbody', {}, entries.map((entry) => h('tr', { 'data-player-id': entry.player_id },
        h('td', {}, entry.rank),
        h('th', { scope: 'row', 'data-no-i18n': '' }, h('a', { href: `#/players/${entry.player_id}` }, entry.name)),
        h('td', { class: 'num' }, rating(entry.rating)),
        h('td', { class: 'num muted' }, rating(entry.deviation)),
        h('td', { class: 'num' }, entry.matches),
        h('td', { class: 'num' }, entry.wins)))),
    ));
  }

  mount(root, h('div', { class: 'screen' }, h('section', { class: 'card' },
    heading,
    h('div', { class: 'tabs', role: 'tablist', 'aria-label': t('common.board.game') }, Object.keys(GAMES).map((id) =>
      h('a', {
        role: 'tab', href: `#/leaderboards/${id}`, class: ['tab', id === game && 'active'],
        'aria-selected': String(id === game), 'data-testid': `board-game-${id}`, 'data-no-i18n': '',
      }, GAMES[id].name))),
    h('form', {
      class: 'inline-form',
      onsubmit: (event) => {
        event.preventDefault();
        go(game, formatInput.value.trim());
      },
    },
    h('label', { for: 'board-format' }, t('common.board.format')),
    formatInput,
    h('button', { type: 'submit', 'data-testid': 'board-show' }, t('common.board.show'))),
    table,
    more,
  )));
  load();
  return { dispose() { disposed = true; } };
}

/** "t10" -> "T10", "20ov" -> "20 overs", "3p" -> "3 players": the pools as people say them. */
function formatLabel(game, pool) {
  const text = String(pool || '');
  let m = text.match(/^(\d+)ov$/);
  if (m) return t('common.board.overs', { count: Number(m[1]) });
  m = text.match(/^(\d+)p$/);
  if (m) return t('common.board.players', { count: Number(m[1]) });
  return text.toUpperCase();
}

/**
 * A result as its players read it, in their language (words.js resultLine): the Outcome's
 * placings name the winner; the match's seats give the names ("Ann won"), filled in when
 * they arrive.
 */
function resultCell(match) {
  const cell = h('td', { 'data-testid': 'profile-result' }, match.result ? resultLine(match.result, (seat) => t('common.seat.player', { n: seat + 1 })) : '');
  if (match.result) {
    api.getMatch(match.match_id).then((info) => {
      cell.textContent = resultLine(match.result, (seat) => nameOfSeat(info.seats, seat, { capital: true }));
    }).catch(() => {});
  }
  return cell;
}

/** Career lines worth a column, per kind of game. */
const CRICKET_FIGURES = ['matches', 'runs', 'balls_faced', 'strike_rate', 'fours', 'sixes', 'dismissals', 'wickets', 'balls_bowled', 'runs_conceded', 'economy'];
const CHAMPIONS_FIGURES = ['matches', 'wins', 'runs', 'wickets', 'points', 'average_points'];

export function showProfile(root, playerId) {
  let disposed = false;
  const box = h('section', { class: 'card', 'data-testid': 'profile' }, h('p', { class: 'muted' }, t('common.loading')));
  mount(root, h('div', { class: 'screen' }, box));

  function careerTable(career) {
    const figures = career.game === 'champions' ? CHAMPIONS_FIGURES : CRICKET_FIGURES;
    return h('div', { class: 'table-scroll' }, h('table', { class: 'card-table', 'data-testid': `career-${career.game}` },
      h('caption', { 'data-no-i18n': '' }, gameName(career.game)),
      h('thead', {}, h('tr', {}, figures.map((key) => h('th', { scope: 'col' }, t(`common.profile.figure.${key}`))))),
      h('tbody', {}, h('tr', {}, figures.map((key) => h('td', { class: 'num', 'data-figure': key }, typeof career[key] === 'number' ? num(career[key], { maximumFractionDigits: 2 }) : career[key] ?? '-'))))));
  }

  function matchLine(match) {
    const placing = match.placing ? ordinal(match.placing) : t(`common.status.${match.status}`);
    const change = typeof match.rating_before === 'number' && typeof match.rating_after === 'number'
      ? `${rating(match.rating_before)} → ${rating(match.rating_after)}` : t('common.profile.unrated');
    const when = ago(match.finished_at || match.created_at);
    return h('tr', { 'data-match-id': match.match_id },
      h('td', { 'data-no-i18n': '' }, gameName(match.game)),
      h('td', {}, placing, match.adjourned_at && match.status !== 'finished' ? [' ', adjournedBadge(match)] : null),
      resultCell(match),
      h('td', { class: 'num' }, change),
      h('td', {}, when),
      h('td', {}, match.status === 'finished'
        ? h('a', { class: 'button small', href: `#/replay/${match.match_id}`, 'data-testid': 'profile-replay' }, t('common.lobby.replay'))
        : match.status === 'live' ? h('a', { class: 'button small', href: `#/watch/${match.match_id}` }, t('common.live.watch')) : null));
  }

  api.profile(playerId).then((profile) => {
    if (disposed) return;
    mount(box,
      h('h1', { 'data-testid': 'profile-name', 'data-no-i18n': '' }, profile.name),
      h('p', { class: 'muted' }, t('common.profile.since', { date: new Date(profile.created_at).toLocaleDateString(lang()) })),
      h('h2', {}, t('common.profile.ratings')),
      profile.ratings.length === 0
        ? h('p', { class: 'muted' }, t('common.profile.noRatings'))
        : h('div', { class: 'table-scroll' }, h('table', { class: 'board-table', 'data-testid': 'profile-ratings' },
            h('thead', {}, h('tr', {}, [t('common.lobby.col.game'), t('common.board.format'), t('common.board.col.rating'), '±', t('common.board.col.matches'), t('common.board.col.wins')].map((text) => h('th', { scope: 'col' }, text)))),
            h('tbody', {}, profile.ratings.map((r) => h('tr', {},
              h('td', { 'data-no-i18n': '' }, gameName(r.game)),
              h('td', {}, h('a', { href: `#/leaderboards/${r.game}/${encodeURIComponent(r.format)}` }, r.format)),
              h('td', { class: 'num' }, rating(r.rating)), h('td', { class: 'num muted' }, rating(r.deviation)),
              h('td', { class: 'num' }, r.matches), h('td', { class: 'num' }, r.wins)))))),
      h('h2', {}, t('common.profile.career')),
      (profile.careers || []).length === 0
        ? h('p', { class: 'muted' }, t('common.profile.noCareer'))
        : profile.careers.map(careerTable),
      h('h2', {}, t('common.profile.recent')),
      profile.recent_matches.length === 0
        ? h('p', { class: 'muted' }, t('common.profile.noMatches'))
        : h('div', { class: 'table-scroll' }, h('table', { class: 'board-table', 'data-testid': 'profile-matches' },
            h('thead', {}, h('tr', {}, [t('common.lobby.col.game'), t('common.profile.place'), t('common.profile.result'), t('common.board.col.rating'), t('common.profile.when'), ''].map((text) => h('th', { scope: 'col' }, text)))),
            h('tbody', {}, profile.recent_matches.map(matchLine)))),
      h('h2', {}, t('competitions.profile.title')),
      profileCompetitions(playerId),
    );
  }).catch((err) => {
    if (!disposed) mount(box, h('p', { class: 'error', role: 'alert' }, errorText(err)));
  });
  return { dispose() { disposed = true; } };
}

/** "1st", "2nd" / "1º", "2º": a place as the language writes it (Intl.PluralRules' ordinals). */
function ordinal(n) {
  const form = new Intl.PluralRules(lang(), { type: 'ordinal' }).select(n);
  return t(`common.ordinal.${{ one: 'st', two: 'nd', few: 'rd' }[form] || 'th'}`, { n });
}

/** "3 min ago", "yesterday": how long ago, in the language on screen (Intl.RelativeTimeFormat). */
export function ago(when, now = Date.now()) {
  const at = Date.parse(when);
  if (Number.isNaN(at)) return '';
  const seconds = Math.round((at - now) / 1000);
  const format = new Intl.RelativeTimeFormat(lang(), { numeric: 'auto' });
  const steps = [['second', 60], ['minute', 60], ['hour', 24], ['day', 7], ['week', 4.35], ['month', 12], ['year', Infinity]];
  let value = seconds;
  for (const [unit, size] of steps) {
    if (Math.abs(value) < size) return format.format(Math.round(value), unit);
    value /= size;
  }
  return new Date(at).toLocaleString(lang());
}
