// Leaderboards per game and format (#/leaderboards/<game>/<format>) and a player's profile
// (#/players/<id>): ratings, career figures and recent matches, each linking to its replay.

import { h, mount, label } from './dom.js';
import { api } from './api.js';
import { GAMES, firstGame } from './catalog.js';
import { nameOfSeat, namedSeats } from './words.js';

/** The rating pools a game's leaderboard offers (the catalogue's); any other can be typed in. */
const poolsOf = (game) => (GAMES[game] && GAMES[game].pools) || [];

const gameName = (game) => (GAMES[game] && GAMES[game].name) || game;

function rating(value) {
  return typeof value === 'number' ? Math.round(value).toString() : '-';
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
  const heading = h('h1', {}, `Leaderboard: ${gameName(game)}`);

  const go = (nextGame, nextFormat) => {
    location.hash = `#/leaderboards/${nextGame}${nextFormat ? `/${encodeURIComponent(nextFormat)}` : ''}`;
  };

  async function load(cursor, rows = []) {
    try {
      const board = await api.leaderboard(game, format || undefined, cursor);
      if (disposed) return;
      const all = [...rows, ...board.entries];
      heading.textContent = `Leaderboard: ${gameName(game)}, ${formatLabel(game, board.format)}`;
      if (!format) {
        if (![...formatInput.options].some((o) => o.value === board.format)) formatInput.append(h('option', { value: board.format }, formatLabel(game, board.format)));
        formatInput.value = board.format;
      }
      draw(all);
      mount(more, board.next_cursor
        ? h('button', { 'data-testid': 'board-more', onclick: () => load(board.next_cursor, all) }, 'More')
        : null);
    } catch (err) {
      mount(table, h('p', { class: 'error', role: 'alert' }, err.message));
    }
  }

  function draw(entries) {
    if (entries.length === 0) {
      mount(table, h('p', { class: 'muted', 'data-testid': 'board-empty' }, 'No rated matches in this format yet: a rated match is two or more people, no bot.'));
      return;
    }
    mount(table, h('table', { class: 'board-table' },
      h('thead', {}, h('tr', {}, ['#', 'Player', 'Rating', '±', 'Matches', 'Wins'].map((text) => h('th', { scope: 'col' }, text)))),
      h('tbody', {}, entries.map((entry) => h('tr', { 'data-player-id': entry.player_id },
        h('td', {}, entry.rank),
        h('th', { scope: 'row' }, h('a', { href: `#/players/${entry.player_id}` }, entry.name)),
        h('td', { class: 'num' }, rating(entry.rating)),
        h('td', { class: 'num muted' }, rating(entry.deviation)),
        h('td', { class: 'num' }, entry.matches),
        h('td', { class: 'num' }, entry.wins)))),
    ));
  }

  mount(root, h('div', { class: 'screen' }, h('section', { class: 'card' },
    heading,
    h('div', { class: 'tabs', role: 'tablist', 'aria-label': 'Game' }, Object.keys(GAMES).map((id) =>
      h('a', {
        role: 'tab', href: `#/leaderboards/${id}`, class: ['tab', id === game && 'active'],
        'aria-selected': String(id === game), 'data-testid': `board-game-${id}`,
      }, GAMES[id].name))),
    h('form', {
      class: 'inline-form',
      onsubmit: (event) => {
        event.preventDefault();
        go(game, formatInput.value.trim());
      },
    },
    h('label', { for: 'board-format' }, 'Format'),
    formatInput,
    h('button', { type: 'submit', 'data-testid': 'board-show' }, 'Show')),
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
  if (m) return `${m[1]} overs`;
  m = text.match(/^(\d+)p$/);
  if (m) return `${m[1]} players`;
  return text.toUpperCase();
}

/**
 * A result as its players read it: the engines write "Seat 1 won"; the match's seats give
 * the names ("Ann won"). Filled in when the match's seats arrive.
 */
function resultCell(match) {
  const cell = h('td', { 'data-testid': 'profile-result' }, match.result ? match.result.summary : '');
  if (match.result && /\b[Ss]eat \d/.test(match.result.summary || '')) {
    api.getMatch(match.match_id).then((info) => {
      const text = namedSeats(match.result.summary, (seat) => nameOfSeat(info.seats, seat, { capital: true }));
      cell.textContent = text.charAt(0).toUpperCase() + text.slice(1);
    }).catch(() => {});
  }
  return cell;
}

/** Career lines worth a column, per kind of game. */
const CRICKET_FIGURES = [
  ['matches', 'Matches'], ['runs', 'Runs'], ['balls_faced', 'Balls'], ['strike_rate', 'Strike rate'],
  ['fours', '4s'], ['sixes', '6s'], ['dismissals', 'Outs'], ['wickets', 'Wickets'],
  ['balls_bowled', 'Balls bowled'], ['runs_conceded', 'Conceded'], ['economy', 'Economy'],
];
const CHAMPIONS_FIGURES = [
  ['matches', 'Matches'], ['wins', 'Wins'], ['runs', 'Runs'], ['wickets', 'Wickets'], ['points', 'Points'], ['average_points', 'Average'],
];

export function showProfile(root, playerId) {
  let disposed = false;
  const box = h('section', { class: 'card', 'data-testid': 'profile' }, h('p', { class: 'muted' }, 'Loading…'));
  mount(root, h('div', { class: 'screen' }, box));

  function careerTable(career) {
    const figures = career.game === 'champions' ? CHAMPIONS_FIGURES : CRICKET_FIGURES;
    return h('div', { class: 'table-scroll' }, h('table', { class: 'card-table', 'data-testid': `career-${career.game}` },
      h('caption', {}, gameName(career.game)),
      h('thead', {}, h('tr', {}, figures.map(([, text]) => h('th', { scope: 'col' }, text)))),
      h('tbody', {}, h('tr', {}, figures.map(([key]) => h('td', { class: 'num', 'data-figure': key }, career[key] ?? '-'))))));
  }

  function matchLine(match) {
    const placing = match.placing ? `${ordinal(match.placing)}` : label(match.status);
    const change = typeof match.rating_before === 'number' && typeof match.rating_after === 'number'
      ? `${rating(match.rating_before)} → ${rating(match.rating_after)}` : 'unrated';
    const when = new Date(match.finished_at || match.created_at).toLocaleString();
    return h('tr', { 'data-match-id': match.match_id },
      h('td', {}, gameName(match.game)),
      h('td', {}, placing),
      resultCell(match),
      h('td', { class: 'num' }, change),
      h('td', {}, when),
      h('td', {}, match.status === 'finished'
        ? h('a', { class: 'button small', href: `#/replay/${match.match_id}`, 'data-testid': 'profile-replay' }, 'Replay')
        : match.status === 'live' ? h('a', { class: 'button small', href: `#/watch/${match.match_id}` }, 'Watch') : null));
  }

  api.profile(playerId).then((profile) => {
    if (disposed) return;
    mount(box,
      h('h1', { 'data-testid': 'profile-name' }, profile.name),
      h('p', { class: 'muted' }, `Playing since ${new Date(profile.created_at).toLocaleDateString()}`),
      h('h2', {}, 'Ratings'),
      profile.ratings.length === 0
        ? h('p', { class: 'muted' }, 'No rated matches yet.')
        : h('div', { class: 'table-scroll' }, h('table', { class: 'board-table', 'data-testid': 'profile-ratings' },
            h('thead', {}, h('tr', {}, ['Game', 'Format', 'Rating', '±', 'Matches', 'Wins'].map((text) => h('th', { scope: 'col' }, text)))),
            h('tbody', {}, profile.ratings.map((r) => h('tr', {},
              h('td', {}, gameName(r.game)),
              h('td', {}, h('a', { href: `#/leaderboards/${r.game}/${encodeURIComponent(r.format)}` }, r.format)),
              h('td', { class: 'num' }, rating(r.rating)), h('td', { class: 'num muted' }, rating(r.deviation)),
              h('td', { class: 'num' }, r.matches), h('td', { class: 'num' }, r.wins)))))),
      h('h2', {}, 'Career'),
      (profile.careers || []).length === 0
        ? h('p', { class: 'muted' }, 'No finished matches yet.')
        : profile.careers.map(careerTable),
      h('h2', {}, 'Recent matches'),
      profile.recent_matches.length === 0
        ? h('p', { class: 'muted' }, 'No matches yet.')
        : h('div', { class: 'table-scroll' }, h('table', { class: 'board-table', 'data-testid': 'profile-matches' },
            h('thead', {}, h('tr', {}, ['Game', 'Place', 'Result', 'Rating', 'When', ''].map((text) => h('th', { scope: 'col' }, text)))),
            h('tbody', {}, profile.recent_matches.map(matchLine)))),
    );
  }).catch((err) => {
    if (!disposed) mount(box, h('p', { class: 'error', role: 'alert' }, err.message));
  });
  return { dispose() { disposed = true; } };
}

function ordinal(n) {
  const suffix = n % 10 === 1 && n % 100 !== 11 ? 'st' : n % 10 === 2 && n % 100 !== 12 ? 'nd' : n % 10 === 3 && n % 100 !== 13 ? 'rd' : 'th';
  return `${n}${suffix}`;
}
