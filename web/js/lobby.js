// Name entry and the lobby: create a match (vs a person or the server bot), matchmaking,
// and the lists of open, live and finished matches (join, resume, spectate).

import { h, mount, label, pick } from './dom.js';
import { api, asList, savePlayer, savedPlayer } from './api.js';
import { toast, renderWho } from './ui.js';

export const GAMES = {
  ctg: { name: 'Cricket: The Game', seats: '2 players', blurb: 'Hidden bowl card against a chosen zone, over cards, dice.', hardBot: true },
  wicketz: { name: 'Wicketz', seats: '2 players', blurb: 'Bowling indicator, nominated stroke, result cards.' },
  champions: { name: 'Cricket Champions', seats: '2-5 players', blurb: 'Batting and bowling dice with re-rolls, Xp market.', hardBot: true },
};

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
    h('h1', {}, 'Pick a name to play'),
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
  let rows = [];
  if (game === 'ctg') {
    rows = [
      field('format', select('format', [['t10', 'T10 (10 overs)'], ['t20', 'T20 (20 overs)']], 't10')),
      field('tie', select('tie', [['tie', 'Equal totals are a tie'], ['chaser_loses', 'Chasing side must pass the target']], 'tie')),
      field('bowled_chance_margin', select('bowled_chance_margin', [['3', 'Miss by 3+: bowled chance'], ['4', 'Miss by 4+: bowled chance']], '3')),
    ];
  } else if (game === 'wicketz') {
    rows = [
      field('overs', number('overs', 20, 1, 50), 'per innings'),
      field('innings_per_side', select('innings_per_side', [['1', 'One innings each'], ['2', 'Two innings each']], '1')),
      field('bowling_variations', select('bowling_variations', [['false', 'Off'], ['true', 'On: the bowler declares a line']], 'false'), 'advanced'),
      field('wild_card', select('wild_card', [['false', 'Off'], ['true', 'On: wild card after a quiet over']], 'false'), 'advanced'),
    ];
  } else if (game === 'champions') {
    rows = [field('players', number('players', 3, 2, 5), '2 to 5 seats; with the bot, every other seat is a bot')];
  }
  const clock = h('input', { type: 'number', min: 5, max: 3600, value: 60, 'data-testid': 'opt-clock' });
  const raw = h('textarea', { rows: 3, 'data-testid': 'opt-raw', placeholder: '{} (optional: extra options as JSON, merged over the fields above)' });
  const node = h('div', { class: 'options' }, rows,
    h('label', { class: 'opt' }, h('span', {}, 'Turn clock'), clock, h('small', { class: 'muted' }, 'seconds per decision; then the server plays a default move')),
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
  return { node, read, clock: () => Number(clock.value) || undefined };
}

export function showLobby(root) {
  let game = 'ctg';
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
    try {
      options = form.read();
    } catch (err) {
      status.textContent = `The extra options are not valid JSON: ${err.message}`;
      return;
    }
    try {
      const level = opponent === 'bot' ? botLevel.value : undefined;
      const match = await api.createMatch(game, options, opponent, form.clock(), level);
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
        m.seat_count ? h('div', { class: 'muted' }, `${seats.filter((x) => x && (x.player_id || x.bot)).length} of ${m.seat_count} seats`) : null,
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
