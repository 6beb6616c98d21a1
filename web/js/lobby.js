// Name entry and the lobby: create a match (vs a person or the server bot), matchmaking,
// and the lists of open, live and finished matches (join, resume, spectate).

import { h, mount, label, pick, fill, proper } from './dom.js';
import { api, asList, savePlayer, savedPlayer } from './api.js';
import { toast, renderWho } from './ui.js';
import { GAMES, MODULES, firstGame } from './catalog.js';
import { t, tOr } from './i18n.js';
import { errorText } from './errors.js';
import { adjournedBadge } from './adjourn.js';
import { nameOfSeat, resultLine } from './words.js';

/** Opened from an invite link (#/match/<id>): the name step leads back to that match. */
const invited = () => /^#\/match\/[^/]+/.test(location.hash);

export function showNameEntry(root, done) {
  const input = h('input', {
    id: 'name',
    name: 'name',
    required: true,
    maxlength: 40,
    autocomplete: 'nickname',
    placeholder: t('common.name.placeholder'),
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
          error.textContent = errorText(err);
        }
      },
    },
    h('h1', {}, invited() ? t('common.name.titleInvited') : t('common.name.title')),
    invited() ? h('p', { 'data-testid': 'invited' }, t('common.name.invited')) : null,
    h('p', { class: 'muted' }, t('common.name.guest')),
    h('label', { for: 'name' }, t('common.name.label')),
    input,
    h('button', { type: 'submit', class: 'primary', 'data-testid': 'name-submit' }, t('common.name.submit')),
    error,
    h('p', { class: 'muted' }, t('common.name.claimedElsewhere'), ' ', h('a', { href: '#/login', 'data-testid': 'to-login' }, t('common.name.logIn'))),
  );
  mount(root, h('div', { class: 'screen center' }, form));
  input.focus();
  return {};
}

/** The options form per game. Returns {node, read()} where read() gives the options JSON. */
function optionsForm(game) {
  const fields = [];
  // `text` names the field when the game gives its own words; else the catalogue's, or the option's name.
  const field = (name, control, hint, text) => {
    fields.push({ name, control });
    return h('label', { class: 'opt' }, h('span', {}, text || tOr(`common.options.${name}`, label(name))), control, hint && h('small', { class: 'muted opt-hint' }, hint));
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
  const raw = h('textarea', { rows: 3, 'data-testid': 'opt-raw', placeholder: t('common.lobby.rawPlaceholder') });
  const node = h('div', { class: 'options' }, rows,
    h('label', { class: 'opt' }, h('span', {}, t('common.lobby.clock')), clock, h('small', { class: 'muted' }, t('common.lobby.clockHint', { max: 86400 }))),
    h('label', { class: 'opt' }, h('span', {}, t('common.lobby.grace')), grace, h('small', { class: 'muted' }, t('common.lobby.graceHint', { max: 86400 }))),
    h('details', {}, h('summary', {}, t('common.lobby.moreOptions')), raw));
  function read() {
    const options = {};
    for (const { name, control } of fields) {
      const value = control.value;
      // An empty number field is an option left to its default (CTG's `overs`: the full length).
      if (control.type === 'number' && (value === '' || value === undefined)) continue;
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
        return t('common.lobby.invalidField', { name, message: input.validationMessage });
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
          h('strong', { 'data-no-i18n': '' }, info.name),
          h('small', {}, tOr(`common.games.${id}.seats`, info.seats)),
          h('span', { class: 'muted' }, tOr(`common.games.${id}.blurb`, info.blurb)),
        ),
      ),
    );
    mount(optionsBox, form.node);
    offerLevels();
  }

  // How strongly the bot plays; `hard` only where the game has a hard bot.
  const botLevel = h('select', { id: 'bot-level', 'data-testid': 'bot-level', 'aria-label': t('common.lobby.botLevel') },
    h('option', { value: 'easy' }, t('common.lobby.botEasy')),
    h('option', { value: 'normal', selected: true }, t('common.lobby.botNormal')),
    h('option', { value: 'hard' }, t('common.lobby.botHard')));
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
      status.textContent = t('common.lobby.badJson');
      return;
    }
    try {
      const level = opponent === 'bot' ? botLevel.value : undefined;
      const match = await api.createMatch(game, options, opponent, form.clock(), level, form.grace());
      const id = matchId(match);
      location.hash = `#/match/${id}`;
    } catch (err) {
      status.textContent = errorText(err);
    }
  }

  async function findOpponent() {
    status.textContent = '';
    try {
      const options = form.read();
      ticket = await api.createTicket(game, options);
      pollTicket();
    } catch (err) {
      status.textContent = err instanceof SyntaxError ? t('common.lobby.badJson') : errorText(err);
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
        ' ', fill(t('common.lobby.waitingOpponent'), { game: proper(GAMES[game].name) }), ' ',
        h('button', {
          class: 'link',
          onclick: async () => {
            try {
              await api.cancelTicket(id);
            } catch (err) {
              toast(errorText(err), 'error');
            }
            ticket = null;
            mount(ticketBox);
          },
        }, t('common.lobby.cancel')),
      );
      ticketTimer = setTimeout(pollTicket, 1000);
    } catch (err) {
      status.textContent = errorText(err);
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
        }, t(`common.lobby.tab.${name}`)),
      ),
    );
  }

  async function refresh() {
    clearTimeout(refreshTimer);
    try {
      const matches = asList(await api.listMatches(tab));
      drawList(matches);
    } catch (err) {
      mount(list, h('p', { class: 'error' }, errorText(err)));
    }
    if (!disposed) refreshTimer = setTimeout(refresh, 4000);
  }

  function drawList(matches) {
    if (matches.length === 0) {
      mount(list, h('p', { class: 'muted' }, t(`common.lobby.none.${tab}`)));
      return;
    }
    mount(
      list,
      h('table', { class: 'matches' },
        h('thead', {}, h('tr', {}, h('th', {}, t('common.lobby.col.game')), h('th', {}, t('common.lobby.col.players')), h('th', {}, t('common.lobby.col.status')), h('th', {}, ''))),
        h('tbody', {}, matches.map((m) => matchRow(m))),
      ),
    );
  }

  function matchRow(m) {
    const id = matchId(m);
    const seats = asList(pick(m, 'seats', 'players') || []);
    const mine = seats.some((s) => s && (s.player_id === me.player_id || s === me.player_id));
    const names = seats.map((s) => (typeof s === 'string' ? s : pick(s, 'name', 'player_name') || (s && s.bot ? t('common.lobby.seatBot') : s && s.player_id ? t('common.lobby.seatPlayer') : t('common.lobby.seatOpen'))));
    const gameId = pick(m, 'game') || '?';
    const actions = [];
    if (tab === 'open') {
      actions.push(mine
        ? h('a', { class: 'button', href: `#/match/${id}`, 'data-testid': 'resume' }, t('common.lobby.open'))
        : h('button', {
            'data-testid': 'join',
            onclick: async () => {
              try {
                await api.joinMatch(id);
                location.hash = `#/match/${id}`;
              } catch (err) {
                status.textContent = errorText(err);
              }
            },
          }, t('common.lobby.join')));
    } else if (tab === 'live') {
      if (mine) actions.push(h('a', { class: 'button primary', href: `#/match/${id}`, 'data-testid': 'resume' }, t('common.lobby.resume')));
      actions.push(h('a', { class: 'button', href: `#/watch/${id}`, 'data-testid': 'spectate' }, t('common.lobby.spectate')));
    } else {
      actions.push(h('a', { class: 'button', href: `#/watch/${id}`, 'data-testid': 'view-finished' }, t('common.lobby.scorecard')));
      actions.push(h('a', { class: 'button', href: `#/replay/${id}`, 'data-testid': 'replay' }, t('common.lobby.replay')));
    }
    const result = pick(m, 'result', 'summary');
    const seatName = (seat) => nameOfSeat(seats, seat, { capital: true });
    return h('tr', { 'data-match-id': id },
      h('td', {}, h('span', { 'data-no-i18n': '' }, (GAMES[gameId] && GAMES[gameId].name) || gameId), h('br'), h('small', { class: 'muted mono' }, String(id).slice(0, 8))),
      h('td', { 'data-no-i18n': '' }, names.join(t('common.versusSep')) || '-'),
      h('td', {}, tOr(`common.status.${pick(m, 'status') || tab}`, label(pick(m, 'status') || tab)),
        adjournedBadge(m) ? [' ', adjournedBadge(m)] : null,
        m.seat_count ? h('div', { class: 'muted' }, t('common.lobby.seatsOf', { taken: seats.filter((x) => x && (x.player_id || x.bot)).length, count: m.seat_count })) : null,
        result ? h('div', { class: 'muted' }, resultLine(result, seatName)) : null),
      h('td', { class: 'actions' }, actions),
    );
  }

  drawPicker();
  drawTabs();
  mount(
    root,
    h('div', { class: 'screen lobby' },
      h('section', { class: 'card' },
        h('h2', {}, t('common.lobby.newMatch')),
        gamePicker,
        optionsBox,
        h('div', { class: 'buttons' },
          botLevel,
          h('button', { class: 'primary', 'data-testid': 'play-bot', onclick: () => create('bot') }, t('common.lobby.playBot')),
          h('button', { 'data-testid': 'create-open', onclick: () => create(undefined) }, t('common.lobby.createOpen')),
          h('button', { 'data-testid': 'matchmaking', onclick: findOpponent }, t('common.lobby.findOpponent')),
        ),
        ticketBox,
        status,
      ),
      h('section', { class: 'card' }, h('h2', {}, t('common.lobby.matches')), tabs, list,
        h('p', { class: 'muted small' }, h('a', { href: '#/live', 'data-testid': 'to-live' }, t('common.lobby.toLive'))),
        h('p', { class: 'muted small' }, h('a', { href: '#/competitions', 'data-testid': 'to-competitions' }, t('competitions.lobbyLink')))),
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
