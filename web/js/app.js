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
//   #/play/<game>                the lobby with a game chosen (the tutorial's "play a real match")
//   #/rules/<game>/<section>     a game's rules reference (js/learn.js)
//   #/learn, #/learn/<game>      the games to learn, a game's tutorial start
//   #/learn/<game>/<id>          the tutorial match: the match screen with the coach
//   #/competitions               leagues and knockouts: the list and the create form
//   #/competitions/<id>          one competition: entries, table or bracket, fixtures (js/competitions.js)

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
import { showRules, showLearn } from './learn.js';
import { showCompetitions, showCompetition, partOfCompetition } from './competitions.js';
import { t, lang, setLang, onLangChange, LANGUAGES } from './i18n.js';

const app = () => document.getElementById('app');
let current = null;

/** Screens anyone may open, with or without an account. */
const PUBLIC = {
  mock: (root, id) => showMatch(root, { matchId: `mock-${id || 'ctg'}`, mock: id || 'ctg' }),
  live: (root, game) => showLive(root, { game: game || null }),
  watch: (root, id) => id && withPartOf(root, id, showMatch(root, { matchId: id, spectate: true })),
  replay: (root, id, ball) => id && showReplay(root, { matchId: id, ball: ball === undefined ? undefined : Number.parseInt(ball, 10) }),
  leaderboards: (root, game, format) => showLeaderboard(root, { game, format: format ? decodeURIComponent(format) : '' }),
  players: (root, id) => id && showProfile(root, id),
  login: (root) => showLogin(root, () => { location.hash = '#/'; }),
  rules: (root, game, section) => showRules(root, { game, section }),
  competitions: (root, id) => (id ? showCompetition(root, decodeURIComponent(id)) : showCompetitions(root)),
  learn: (root, game, id) => (id ? null : showLearn(root, { game, askName: (done) => showNameEntry(root, done) })),
};

/** A match screen, with "Part of <competition>" above it when the match is a fixture. */
function withPartOf(root, matchId, screen) {
  partOfCompetition(root, matchId);
  return screen;
}

/** The header's words and the language switch, in the language on screen. */
function drawChrome() {
  document.documentElement.lang = lang();
  document.title = t('common.title');
  const words = { 'nav-lobby': 'common.nav.play', 'nav-live': 'common.nav.live', 'nav-learn': 'common.nav.learn', 'nav-leaderboards': 'common.nav.leaderboards', 'nav-competitions': 'competitions.nav' };
  for (const [testid, key] of Object.entries(words)) {
    const link = document.querySelector(`[data-testid="${testid}"]`);
    if (link) link.textContent = t(key);
  }
  const nav = document.querySelector('.nav');
  if (nav) nav.setAttribute('aria-label', t('common.nav.main'));
  const brand = document.querySelector('.brand');
  if (brand) brand.title = t('common.nav.home');
  const picker = document.getElementById('lang');
  if (picker) {
    picker.setAttribute('aria-label', t('common.language'));
    mount(picker, LANGUAGES.map((l) => h('option', { value: l.code, selected: l.code === lang() }, l.name)));
  }
}

/** Marks the header link of the section on screen, for the eye and for screen readers. */
function markNavigation(screen) {
  const section = { live: 'live', watch: 'live', leaderboards: 'leaderboards', learn: 'learn', rules: 'learn', play: 'lobby', competitions: 'competitions' }[screen] || (screen ? null : 'lobby');
  for (const link of document.querySelectorAll('.nav a[data-testid^="nav-"]')) {
    if (link.dataset.testid === `nav-${section}`) link.setAttribute('aria-current', 'page');
    else link.removeAttribute('aria-current');
  }
}

function route() {
  if (current && typeof current.dispose === 'function') current.dispose();
  current = null;
  drawChrome();
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
  if (screen === 'learn' && rest[1]) {
    current = showMatch(root, { matchId: rest[1], spectate: false, tutorial: true });
    return;
  }
  if (screen === 'play') {
    current = showLobby(root, { game: id });
    return;
  }
  if (screen === 'match' && id) {
    current = withPartOf(root, id, showMatch(root, { matchId: id, spectate: false }));
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
  const picker = document.getElementById('lang');
  if (picker) picker.addEventListener('change', () => setLang(picker.value));
  // A new language redraws the screen on show, from its address: nothing is kept in the DOM.
  onLangChange(() => route());
  route();
}

if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
else start();

// Exposed for the end-to-end tests and for debugging in the console.
window.crease = { route, get screen() { return current; }, h, mount };
