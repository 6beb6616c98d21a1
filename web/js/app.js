// Entry point: a hash router over the screens.
//   #/                           lobby (or name entry when this browser has no account)
//   #/match/<id>                 play a match in your seat
//   #/live                       live matches to spectate, by game (#/live/<game>: one game)
//   #/watch/<id>                 spectate a live match (public view only)
//   #/replay/<id>/<ball>         step through a finished match ball by ball
//   #/leaderboards/<game>/<fmt>  the rating ladder of one game and format
//   #/players/<id>               a player's ratings, career and recent matches
//   #/login                      log in to an account claimed on another device
//   #/account                    claim this guest with a password; log out (everywhere)
//   #/mock/<game>                the game screen fed with mock views (design work, no server needed)

import { mount, h } from './dom.js';
import { savedPlayer } from './api.js';
import { renderWho } from './ui.js';
import { showNameEntry, showLobby } from './lobby.js';
import { showMatch } from './game.js';
import { showLogin, showAccount } from './account.js';
import { showLeaderboard, showProfile } from './ratings.js';
import { showReplay } from './replay.js';
import { showLive } from './live.js';
import { loadCatalog } from './catalog.js';

const app = () => document.getElementById('app');
let current = null;

/** Screens anyone may open, with or without an account. */
const PUBLIC = {
  mock: (root, id) => showMatch(root, { matchId: `mock-${id || 'ctg'}`, mock: id || 'ctg' }),
  live: (root, game) => showLive(root, { game: game || null }),
  watch: (root, id) => id && showMatch(root, { matchId: id, spectate: true }),
  replay: (root, id, ball) => id && showReplay(root, { matchId: id, ball: ball === undefined ? undefined : Number.parseInt(ball, 10) }),
  leaderboards: (root, game, format) => showLeaderboard(root, { game, format: format ? decodeURIComponent(format) : '' }),
  players: (root, id) => id && showProfile(root, id),
  login: (root) => showLogin(root, () => { location.hash = '#/'; }),
};

/** Marks the header link of the section on screen, for the eye and for screen readers. */
function markNavigation(screen) {
  const section = { live: 'live', watch: 'live', leaderboards: 'leaderboards' }[screen] || (screen ? null : 'lobby');
  for (const link of document.querySelectorAll('.nav a[data-testid^="nav-"]')) {
    if (link.dataset.testid === `nav-${section}`) link.setAttribute('aria-current', 'page');
    else link.removeAttribute('aria-current');
  }
}

function route() {
  if (current && typeof current.dispose === 'function') current.dispose();
  current = null;
  renderWho();
  const hash = location.hash.replace(/^#\/?/, '');
  const [screen, ...rest] = hash.split('/');
  const root = app();
  document.body.dataset.screen = screen || 'lobby';
  markNavigation(screen);
  const open = PUBLIC[screen] && PUBLIC[screen](root, ...rest);
  if (open) {
    current = open;
    return;
  }
  if (!savedPlayer()) {
    current = showNameEntry(root, () => route());
    return;
  }
  const [id] = rest;
  if (screen === 'match' && id) {
    current = showMatch(root, { matchId: id, spectate: false });
    return;
  }
  if (screen === 'account') {
    current = showAccount(root);
    return;
  }
  current = showLobby(root);
}

/** Every screen needs the catalogue of games: read it once, then route. */
async function start() {
  try {
    await loadCatalog();
  } catch (err) {
    console.error('the game catalogue did not load', err);
  }
  window.addEventListener('hashchange', route);
  route();
}

if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
else start();

// Exposed for the end-to-end tests and for debugging in the console.
window.crease = { route, get screen() { return current; }, h, mount };
