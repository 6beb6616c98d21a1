// Entry point: a hash router over three screens (name entry, lobby, match).
//   #/                 lobby (or name entry when this browser has no guest account)
//   #/match/<id>       play a match in your seat
//   #/watch/<id>       spectate a live match (public view only)
//   #/mock/<game>      the game screen fed with mock views (design work, no server needed)

import { mount, h } from './dom.js';
import { savedPlayer } from './api.js';
import { renderWho } from './ui.js';
import { showNameEntry, showLobby } from './lobby.js';
import { showMatch } from './game.js';

const app = () => document.getElementById('app');
let current = null;

function route() {
  if (current && typeof current.dispose === 'function') current.dispose();
  current = null;
  renderWho();
  const hash = location.hash.replace(/^#\/?/, '');
  const [screen, id] = hash.split('/');
  const root = app();
  if (screen === 'mock') {
    current = showMatch(root, { matchId: `mock-${id || 'ctg'}`, mock: id || 'ctg' });
    return;
  }
  if (screen === 'watch' && id) {
    current = showMatch(root, { matchId: id, spectate: true });
    return;
  }
  if (!savedPlayer()) {
    current = showNameEntry(root, () => route());
    return;
  }
  if (screen === 'match' && id) {
    current = showMatch(root, { matchId: id, spectate: false });
    return;
  }
  current = showLobby(root);
}

window.addEventListener('hashchange', route);
if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', route);
else route();

// Exposed for the end-to-end tests and for debugging in the console.
window.crease = { route, get screen() { return current; }, h, mount };
