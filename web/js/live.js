// Live matches to spectate (#/live, or #/live/<game> for one game): every match the server
// runs now, grouped by game, with the players' names, the format and how long it has been
// going. Each entry is a link to #/watch/<id> (the spectator view), so the page works with
// the keyboard alone (Tab, Enter) and any entry can be shared. The list refreshes itself.

import { h, mount, fill, proper } from './dom.js';
import { api, asList } from './api.js';
import { GAMES, MODULES } from './catalog.js';
import { t, lang } from './i18n.js';
import { errorText } from './errors.js';
import { adjournedBadge } from './adjourn.js';

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
    .map((seat) => (seat.bot ? t('common.lobby.seatBot') : seat.name || (seat.player_id ? t('common.lobby.seatPlayer') : t('common.lobby.seatOpen'))))
    .join(t('common.versusSep'));
}

/** "just started", "4 min", "1 h 12 min": how long a match has been live. */
export function runningFor(startedAt, now = Date.now()) {
  const started = Date.parse(startedAt);
  if (Number.isNaN(started)) return '';
  const minutes = Math.max(0, Math.floor((now - started) / 60000));
  if (minutes < 1) return t('common.live.justStarted');
  if (minutes < 60) return t('common.live.minutes', { m: minutes });
  return t('common.live.hoursMinutes', { h: Math.floor(minutes / 60), m: minutes % 60 });
}

export function showLive(root, { game = null } = {}) {
  const only = game && GAMES[game] ? game : null;
  let disposed = false;
  let timer = null;
  let lastShown = null;

  const heading = h('h1', {}, only ? fill(t('common.live.titleGame'), { game: proper(GAMES[only].name) }) : t('common.live.title'));
  const filters = h('nav', { class: 'tabs', 'aria-label': t('common.live.games') },
    [[null, t('common.live.allGames')], ...Object.entries(GAMES).map(([id, info]) => [id, info.name])].map(([id, text]) =>
      h('a', {
        class: ['button', 'tab', id === only && 'active'],
        href: id ? `#/live/${id}` : '#/live',
        'aria-current': id === only ? 'page' : undefined,
        'data-testid': `live-filter-${id || 'all'}`,
        'data-no-i18n': id ? '' : undefined,
      }, text)),
  );
  const list = h('div', { class: 'live-list', 'data-testid': 'live-list', 'aria-busy': 'true' });
  const updated = h('p', { class: 'muted small', 'data-testid': 'live-updated' });
  const error = h('p', { class: 'error', role: 'alert', 'data-testid': 'live-error' });

  mount(root, h('div', { class: 'screen live' },
    h('section', { class: 'card' },
      heading,
      h('p', { class: 'muted' }, t('common.live.lead')),
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
        updated.textContent = t('common.live.updated', { time: new Date().toLocaleTimeString(lang()) });
      } catch (err) {
        if (disposed) return;
        // Keep the last list on screen: a failed refresh is usually brief.
        error.textContent = t('common.live.refreshFailed', { reason: errorText(err) });
      }
      list.setAttribute('aria-busy', 'false');
    }
    if (!disposed) timer = setTimeout(refresh, LIVE_REFRESH_MS);
  }

  function draw(matches) {
    // Redraw only when the list changed, so a refresh neither moves the keyboard focus nor
    // makes a screen reader announce the same list again.
    const shown = JSON.stringify(matches.map((m) => [m.match_id, playersOf(m), Math.floor(Date.parse(m.started_at) / 60000), m.adjourned_at || null, m.resume_at || null]));
    if (shown === lastShown) return;
    lastShown = shown;
    const focused = document.activeElement && document.activeElement.closest && document.activeElement.closest('[data-match-id]');
    const focusedId = focused && list.contains(focused) ? focused.dataset.matchId : null;

    const games = only ? [only] : Object.keys(GAMES);
    const known = new Set(Object.keys(GAMES));
    const others = only ? [] : [...new Set(matches.map((m) => m.game).filter((id) => !known.has(id)))];
    if (matches.length === 0) {
      mount(list, h('p', { class: 'muted', 'data-testid': 'live-empty' },
        only ? fill(t('common.live.noneOfGame'), { game: proper(GAMES[only].name) }) : t('common.live.none'),
        ' ', h('a', { href: '#/' }, t('common.live.startOne'))));
      return;
    }
    mount(list, [...games, ...others].map((id) => {
      const ofGame = matches.filter((m) => m.game === id);
      if (ofGame.length === 0 && !only) return null;
      const name = (GAMES[id] && GAMES[id].name) || id;
      return h('section', { class: 'live-game', 'data-testid': `live-game-${id}` },
        h('h2', {}, h('span', { 'data-no-i18n': '' }, name), ' ', h('span', { class: 'muted' }, `(${ofGame.length})`)),
        h('ul', { class: 'live-matches' }, ofGame.map(entry)),
      );
    }));
    if (focusedId) {
      const again = list.querySelector(`[data-match-id="${CSS.escape(focusedId)}"]`);
      if (again) again.focus();
    }
  }

  function entry(m) {
    const players = playersOf(m) || t('common.live.joining');
    const format = formatOf(m.game, m.options);
    const running = runningFor(m.started_at);
    return h('li', {},
      h('a', {
        class: 'live-match',
        href: `#/watch/${m.match_id}`,
        'data-match-id': m.match_id,
        'data-testid': 'live-match',
        'aria-label': t('common.live.watchLabel', { match: [players, format, running].filter(Boolean).join(', ') }),
      },
        h('strong', { class: 'players', 'data-no-i18n': '' }, players),
        h('span', { class: 'muted' }, [format, running].filter(Boolean).join(' · ')),
        adjournedBadge(m),
        h('span', { class: 'watch' }, t('common.live.watchArrow')),
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
