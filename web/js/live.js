// Live matches to spectate (#/live, or #/live/<game> for one game): every match the server
// runs now, grouped by game, with the players' names, the format and how long it has been
// going. Each entry is a link to #/watch/<id> (the spectator view), so the page works with
// the keyboard alone (Tab, Enter) and any entry can be shared. The list refreshes itself.

import { h, mount } from './dom.js';
import { api, asList } from './api.js';
import { GAMES, MODULES } from './catalog.js';

/** How often the list is read again while the page is visible. */
export const LIVE_REFRESH_MS = 4000;

/** "T10", "2 overs a side, two innings", "3 players": the format a match is played in,
 * as the game's module words it (empty for a game whose module does not). */
export function formatOf(game, options = {}, modules = MODULES) {
  const module = modules[game];
  return module && module.describeOptions ? module.describeOptions(options || {}) : '';
}

/** "Ann v the bot": a match's seats by name, a bot seat as "bot", an empty seat as "open". */
export function playersOf(match) {
  return asList(match.seats || [])
    .map((seat) => (seat.bot ? 'bot' : seat.name || (seat.player_id ? 'player' : 'open seat')))
    .join(' v ');
}

/** "just started", "4 min", "1 h 12 min": how long a match has been live. */
export function runningFor(startedAt, now = Date.now()) {
  const started = Date.parse(startedAt);
  if (Number.isNaN(started)) return '';
  const minutes = Math.max(0, Math.floor((now - started) / 60000));
  if (minutes < 1) return 'just started';
  if (minutes < 60) return `${minutes} min`;
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

export function showLive(root, { game = null } = {}) {
  const only = game && GAMES[game] ? game : null;
  let disposed = false;
  let timer = null;
  let lastShown = null;

  const heading = h('h1', {}, only ? `Live: ${GAMES[only].name}` : 'Live matches');
  const filters = h('nav', { class: 'tabs', 'aria-label': 'Games' },
    [[null, 'All games'], ...Object.entries(GAMES).map(([id, info]) => [id, info.name])].map(([id, text]) =>
      h('a', {
        class: ['button', 'tab', id === only && 'active'],
        href: id ? `#/live/${id}` : '#/live',
        'aria-current': id === only ? 'page' : undefined,
        'data-testid': `live-filter-${id || 'all'}`,
      }, text)),
  );
  const list = h('div', { class: 'live-list', 'data-testid': 'live-list', 'aria-busy': 'true' });
  const updated = h('p', { class: 'muted small', 'data-testid': 'live-updated' });
  const error = h('p', { class: 'error', role: 'alert', 'data-testid': 'live-error' });

  mount(root, h('div', { class: 'screen live' },
    h('section', { class: 'card' },
      heading,
      h('p', { class: 'muted' }, 'Open a match to watch it ball by ball. Spectators see what both sides see, never a hidden card. This list refreshes by itself.'),
      filters,
      error,
      list,
      updated,
    ),
  ));

  async function refresh() {
    clearTimeout(timer);
    // A hidden tab does not poll the server; it reads again as soon as it is shown.
    if (!document.hidden) {
      try {
        const matches = asList(await api.listMatches('live'));
        if (disposed) return;
        error.textContent = '';
        draw(matches.filter((m) => !only || m.game === only));
        updated.textContent = `Updated ${new Date().toLocaleTimeString()}`;
      } catch (err) {
        if (disposed) return;
        // Keep the last list on screen: a failed refresh is usually brief.
        error.textContent = `Could not refresh the list: ${err.message}`;
      }
      list.setAttribute('aria-busy', 'false');
    }
    if (!disposed) timer = setTimeout(refresh, LIVE_REFRESH_MS);
  }

  function draw(matches) {
    // Redraw only when the list changed, so a refresh neither moves the keyboard focus nor
    // makes a screen reader announce the same list again.
    const shown = JSON.stringify(matches.map((m) => [m.match_id, playersOf(m), Math.floor(Date.parse(m.started_at) / 60000)]));
    if (shown === lastShown) return;
    lastShown = shown;
    const focused = document.activeElement && document.activeElement.closest && document.activeElement.closest('[data-match-id]');
    const focusedId = focused && list.contains(focused) ? focused.dataset.matchId : null;

    const games = only ? [only] : Object.keys(GAMES);
    const known = new Set(Object.keys(GAMES));
    const others = only ? [] : [...new Set(matches.map((m) => m.game).filter((id) => !known.has(id)))];
    if (matches.length === 0) {
      mount(list, h('p', { class: 'muted', 'data-testid': 'live-empty' },
        only ? `No ${GAMES[only].name} match is being played right now.` : 'No match is being played right now.',
        ' ', h('a', { href: '#/' }, 'Start one'), '.'));
      return;
    }
    mount(list, [...games, ...others].map((id) => {
      const ofGame = matches.filter((m) => m.game === id);
      if (ofGame.length === 0 && !only) return null;
      const name = (GAMES[id] && GAMES[id].name) || id;
      return h('section', { class: 'live-game', 'data-testid': `live-game-${id}` },
        h('h2', {}, name, ' ', h('span', { class: 'muted' }, `(${ofGame.length})`)),
        h('ul', { class: 'live-matches' }, ofGame.map(entry)),
      );
    }));
    if (focusedId) {
      const again = list.querySelector(`[data-match-id="${CSS.escape(focusedId)}"]`);
      if (again) again.focus();
    }
  }

  function entry(m) {
    const players = playersOf(m) || 'players joining';
    const format = formatOf(m.game, m.options);
    const running = runningFor(m.started_at);
    return h('li', {},
      h('a', {
        class: 'live-match',
        href: `#/watch/${m.match_id}`,
        'data-match-id': m.match_id,
        'data-testid': 'live-match',
        'aria-label': `Watch ${players}, ${format}${running ? `, ${running}` : ''}`,
      },
        h('strong', { class: 'players' }, players),
        h('span', { class: 'muted' }, [format, running].filter(Boolean).join(' · ')),
        h('span', { class: 'watch' }, 'Watch →'),
      ),
    );
  }

  const onVisible = () => { if (!document.hidden) refresh(); };
  document.addEventListener('visibilitychange', onVisible);
  refresh();
  return {
    dispose() {
      disposed = true;
      clearTimeout(timer);
      document.removeEventListener('visibilitychange', onVisible);
    },
  };
}
