// Name entry and the lobby: create a match (vs a person or the server bot), matchmaking,
// and the lists of open, live and finished matches (join, resume, spectate).

import { h, mount, label, pick } from './dom.js';
import { api, asList, savePlayer, savedPlayer } from './api.js';
import { toast, renderWho } from './ui.js';
import { GAMES, MODULES, firstGame } from './catalog.js';
import { count } from './words.js';

/** Opened from an invite link (#/match/<id>): the name step leads back to that match. */
const invited = () => /^#\/match\/[^/]+/.test(location.hash);

export function showNameEntry(root, done) {
  const input = h('input', {
    id: 'name',
    name: 'name',
    required: true,
    maxlength: 40,
    autocomplete: 'nickname',
    placeholder: 'e.g. Ellyse',
    'data-testid': 'name-input',
  });
  const error = h('p', { class: 'error', role: 'alert' });
  const form = h(
    'form',
    {
      class: 'card narrow',
      onsubmit: async (event) => {
        event.preventDefault();
        const name = input.value.trim();
        if (!name) return;
        error.textContent = '';
        try {
          const player = await api.createPlayer(name);
          savePlayer({ ...player, name: player.name || name });
          renderWho();
          done();
        } catch (err) {
          error.textContent = err.message;
        }
      },
    },
    h('h1', {}, invited() ? 'Pick a name to join the match' : 'Pick a name to play'),
    invited() ? h('p', { 'data-testid': 'invited' }, 'A friend invited you to a match: pick a name, then join it.') : null,
    h('p', { class: 'muted' }, 'A guest account is created for this browser; its key stays in this browser only.'),
    h('label', { for: 'name' }, 'Your name'),
    input,
    h('button', { type: 'submit', class: 'primary', 'data-testid': 'name-submit' }, 'Enter the pavilion'),
    error,
    h('p', { class: 'muted' }, 'Claimed your account on another device? ', h('a', { href: '#/login', 'data-testid': 'to-login' }, 'Log in'), '.'),
  );
  mount(root, h('div', { class: 'screen center' }, form));
  input.focus();
  return {};
}

/** The options form per game. Returns {node, read()} where read() gives the options JSON. */
function optionsForm(game) {
  const fields = [];
  const field = (name, control, hint) => {
    fields.push({ name, control });
    return h('label', { class: 'opt' }, h('span', {}, label(name)), control, hint && h('small', { class: 'muted' }, hint));
  };
  const select = (name, values, chosen) =>
    h('select', { name, 'data-testid': `opt-${name}` }, values.map(([v, text]) => h('option', { value: v, selected: v === chosen }, text)));
  const number = (name, value, min, max) =>
    h('input', { type: 'number', name, value, min, max, 'data-testid': `opt-${name}` });
  const module = MODULES[game];
  const rows = module && module.optionFields ? module.optionFields({ field, select, number }) : [];
  // The server's bounds (src/input/limits.rs): a turn clock of 1 s to 86 400 s (a day), a
  // disconnect grace of 0 to 86 400 s; its defaults are 60 s and 300 s.
  const clock = h('input', { type: 'number', min: 1, max: 86400, value: 60, required: true, 'data-testid': 'opt-clock' });
  const grace = h('input', { type: 'number', min: 0, max: 86400, value: 300, required: true, 'data-testid': 'opt-grace' });
  const raw = h('textarea', { rows: 3, 'data-testid': 'opt-raw', placeholder: '{} (optional: extra options as JSON, merged over the fields above)' });
  const node = h('div', { class: 'options' }, rows,
    h('label', { class: 'opt' }, h('span', {}, 'Turn clock'), clock, h('small', { class: 'muted' }, 'seconds per decision (1 to 86 400); then the server plays a default move')),
    h('label', { class: 'opt' }, h('span', {}, 'Disconnect grace'), grace, h('small', { class: 'muted' }, 'seconds a player who dropped keeps the seat (0 to 86 400) before forfeiting')),
    h('details', {}, h('summary', {}, 'More options (JSON)'), raw));
  function read() {
    const options = {};
    for (const { name, control } of fields) {
      const value = control.value;
      if (value === 'true' || value === 'false') options[name] = value === 'true';
      else options[name] = control.type === 'number' || /^\d+$/.test(value) ? Number(value) : value;
    }
    if (raw.value.trim()) Object.assign(options, JSON.parse(raw.value));
    return options;
  }
  /** Every number field within its range, or the browser's message for the first that is not. */
  function check() {
    for (const input of node.querySelectorAll('input[type=number]')) {
      if (!input.checkValidity()) {
        input.reportValidity();
        const name = input.closest('label')?.querySelector('span')?.textContent || input.name;
        return `${name}: ${input.validationMessage}`;
      }
    }
    return null;
  }
  const secs = (input) => (input.value === '' ? undefined : Number(input.value));
  return { node, read, check, clock: () => secs(clock), grace: () => secs(grace) };
}

/** The lobby; `game` picks a game first (`#/play/<game>`, the tutorial's "play a real match"). */
export function showLobby(root, { game: preset } = {}) {
  let game = preset && GAMES[preset] ? preset : firstGame();
  let tab = 'open';
  let ticket = null;
  let disposed = false;
  let refreshTimer = null;
  let ticketTimer = null;
  const me = savedPlayer();

  const gamePicker = h('div', { class: 'game-picker', role: 'radiogroup' });
  const optionsBox = h('div');
  let form = optionsForm(game);
  const status = h('p', { class: 'error', role: 'alert', 'data-testid': 'lobby-error' });
  const ticketBox = h('div', { class: 'ticket', 'data-testid': 'ticket' });
  const list = h('div', { class: 'match-list', 'data-testid': 'match-list' });
  const tabs = h('div', { class: 'tabs', role: 'tablist' });

  function drawPicker() {
    mount(
      gamePicker,
      Object.entries(GAMES).map(([id, info]) =>
        h(
          'button',
          {
            type: 'button',
            role: 'radio',
            'aria-checked': String(id === game),
            class: ['game-choice', id === game && 'chosen'],
            'data-testid': `game-${id}`,
            onclick: () => {
              game = id;
              form = optionsForm(game);
              drawPicker();
            },
          },
          h('strong', {}, info.name),
          h('small', {}, info.seats),
          h('span', { class: 'muted' }, info.blurb),
        ),
      ),
    );
    mount(optionsBox, form.node);
    offerLevels();
  }

  // How strongly the bot plays; `hard` only where the game has a hard bot.
  const botLevel = h('select', { id: 'bot-level', 'data-testid': 'bot-level', 'aria-label': 'Bot level' },
    h('option', { value: 'easy' }, 'Easy bot'),
    h('option', { value: 'normal', selected: true }, 'Normal bot'),
    h('option', { value: 'hard' }, 'Hard bot'));
  function offerLevels() {
    const hard = botLevel.querySelector('option[value="hard"]');
    hard.disabled = !GAMES[game].hardBot;
    if (hard.disabled && botLevel.value === 'hard') botLevel.value = 'normal';
  }

  async function create(opponent) {
    status.textContent = '';
    let options;
    const invalid = form.check();
    if (invalid) {
      status.textContent = invalid;
      return;
    }
    try {
      options = form.read();
    } catch (err) {
      status.textContent = `The extra options are not valid JSON: ${err.message}`;
      return;
    }
    try {
      const level = opponent === 'bot' ? botLevel.value : undefined;
      const match = await api.createMatch(game, options, opponent, form.clock(), level, form.grace());
      const id = matchId(match);
      location.hash = `#/match/${id}`;
    } catch (err) {
      status.textContent = err.message;
    }
  }

  async function findOpponent() {
    status.textContent = '';
    try {
      const options = form.read();
      ticket = await api.createTicket(game, options);
      pollTicket();
    } catch (err) {
      status.textContent = err.message;
    }
  }

  async function pollTicket() {
    if (!ticket || disposed) return;
    const id = pick(ticket, 'ticket_id', 'id');
    try {
      const state = await api.getTicket(id);
      const found = pick(state, 'match_id') || (state.match && matchId(state.match));
      if (found) {
        ticket = null;
        location.hash = `#/match/${found}`;
        return;
      }
      mount(
        ticketBox,
        h('span', { class: 'spinner' }),
        ` Waiting for an opponent (${GAMES[game].name})… `,
        h('button', {
          class: 'link',
          onclick: async () => {
            try {
              await api.cancelTicket(id);
            } catch (err) {
              toast(err.message, 'error');
            }
            ticket = null;
            mount(ticketBox);
          },
        }, 'cancel'),
      );
      ticketTimer = setTimeout(pollTicket, 1000);
    } catch (err) {
      status.textContent = err.message;
      ticket = null;
      mount(ticketBox);
    }
  }

  function drawTabs() {
    mount(
      tabs,
      ['open', 'live', 'finished'].map((name) =>
        h('button', {
          role: 'tab',
          'aria-selected': String(tab === name),
          class: ['tab', tab === name && 'active'],
          'data-testid': `tab-${name}`,
          onclick: () => {
            tab = name;
            drawTabs();
            refresh();
          },
        }, label(name)),
      ),
    );
  }

  async function refresh() {
    clearTimeout(refreshTimer);
    try {
      const matches = asList(await api.listMatches(tab));
      drawList(matches);
    } catch (err) {
      mount(list, h('p', { class: 'error' }, err.message));
    }
    if (!disposed) refreshTimer = setTimeout(refresh, 4000);
  }

  function drawList(matches) {
    if (matches.length === 0) {
      mount(list, h('p', { class: 'muted' }, `No ${tab} matches.`));
      return;
    }
    mount(
      list,
      h('table', { class: 'matches' },
        h('thead', {}, h('tr', {}, h('th', {}, 'Game'), h('th', {}, 'Players'), h('th', {}, 'Status'), h('th', {}, ''))),
        h('tbody', {}, matches.map((m) => matchRow(m))),
      ),
    );
  }

  function matchRow(m) {
    const id = matchId(m);
    const seats = asList(pick(m, 'seats', 'players') || []);
    const mine = seats.some((s) => s && (s.player_id === me.player_id || s === me.player_id));
    const names = seats.map((s) => (typeof s === 'string' ? s : pick(s, 'name', 'player_name') || (s && s.bot ? 'bot' : s && s.player_id ? 'player' : 'open seat')));
    const gameId = pick(m, 'game') || '?';
    const actions = [];
    if (tab === 'open') {
      actions.push(mine
        ? h('a', { class: 'button', href: `#/match/${id}`, 'data-testid': 'resume' }, 'Open')
        : h('button', {
            'data-testid': 'join',
            onclick: async () => {
              try {
                await api.joinMatch(id);
                location.hash = `#/match/${id}`;
              } catch (err) {
                status.textContent = err.message;
              }
            },
          }, 'Join'));
    } else if (tab === 'live') {
      if (mine) actions.push(h('a', { class: 'button primary', href: `#/match/${id}`, 'data-testid': 'resume' }, 'Resume'));
      actions.push(h('a', { class: 'button', href: `#/watch/${id}`, 'data-testid': 'spectate' }, 'Spectate'));
    } else {
      actions.push(h('a', { class: 'button', href: `#/watch/${id}`, 'data-testid': 'view-finished' }, 'Scorecard'));
      actions.push(h('a', { class: 'button', href: `#/replay/${id}`, 'data-testid': 'replay' }, 'Replay'));
    }
    const result = pick(m, 'result', 'summary');
    return h('tr', { 'data-match-id': id },
      h('td', {}, (GAMES[gameId] && GAMES[gameId].name) || gameId, h('br'), h('small', { class: 'muted mono' }, String(id).slice(0, 8))),
      h('td', {}, names.join(' v ') || '-'),
      h('td', {}, label(pick(m, 'status') || tab),
        m.seat_count ? h('div', { class: 'muted' }, `${seats.filter((x) => x && (x.player_id || x.bot)).length} of ${count(m.seat_count, 'seat')}`) : null,
        result ? h('div', { class: 'muted' }, typeof result === 'string' ? result : result.summary || '') : null),
      h('td', { class: 'actions' }, actions),
    );
  }

  drawPicker();
  drawTabs();
  mount(
    root,
    h('div', { class: 'screen lobby' },
      h('section', { class: 'card' },
        h('h2', {}, 'New match'),
        gamePicker,
        optionsBox,
        h('div', { class: 'buttons' },
          botLevel,
          h('button', { class: 'primary', 'data-testid': 'play-bot', onclick: () => create('bot') }, 'Play the bot'),
          h('button', { 'data-testid': 'create-open', onclick: () => create(undefined) }, 'Create, wait for a player'),
          h('button', { 'data-testid': 'matchmaking', onclick: findOpponent }, 'Find an opponent'),
        ),
        ticketBox,
        status,
      ),
      h('section', { class: 'card' }, h('h2', {}, 'Matches'), tabs, list,
        h('p', { class: 'muted small' }, h('a', { href: '#/live', 'data-testid': 'to-live' }, 'Watch live matches, by game'))),
    ),
  );
  refresh();
  return {
    dispose() {
      disposed = true;
      clearTimeout(refreshTimer);
      clearTimeout(ticketTimer);
    },
  };
}

export function matchId(match) {
  return pick(match, 'match_id', 'id') || (match && match.match && pick(match.match, 'match_id', 'id'));
}
