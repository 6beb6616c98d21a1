// Competitions among friends (#/competitions, #/competitions/<id>): leagues (everyone plays
// everyone, a cricket table with net run rate) and knockouts (a bracket seeded by rating, byes
// to the top seeds). Every fixture is a match the server creates when both sides are ready.
//
//   showCompetitions(root)         the list (open to join, being played, finished) and the
//                                  create form (name, game and its options, league or
//                                  knockout, double round)
//   showCompetition(root, id)      one competition: header with the invite link, entries and
//                                  the organiser's buttons, the viewer's fixtures (Ready to
//                                  play / Waiting for X / Play now), the table or the bracket,
//                                  the fixtures by round. Read again every 2 s while the viewer
//                                  waits for the other side, every 4 s otherwise until it ends.
//   profileCompetitions(playerId)  the profile's list of the competitions a player is in
//   partOfCompetition(root, id)    "Part of <competition>" on the match screen of a fixture
//
// Nothing here is a server decision: the table's order, the points and the net run rate are
// the server's (GET /v1/competitions/{id}); the page only draws them.

import { h, mount, fill, proper } from './dom.js';
import { api, savedPlayer } from './api.js';
import { GAMES, MODULES } from './catalog.js';
import { t, num, lang } from './i18n.js';
import { errorText } from './errors.js';
import { resultLine, nameOfSeat } from './words.js';
import { toast } from './ui.js';

/** How often a competition page reads the competition again: waiting for the other side, or not. */
export const POLL_WAITING_MS = 2000;
export const POLL_MS = 4000;

/** The fewest entries a competition starts with (the server's rule, for the hint by Start). */
export const MIN_ENTRIES = { league: 3, knockout: 2 };

/** The champion's mark (a star: headless browsers and some phones lack an emoji font). */
const trophy = () => h('span', { class: 'trophy', 'aria-hidden': 'true' }, '★ ');

const gameName = (game) => (GAMES[game] && GAMES[game].name) || game;

/** "League", "League, double round", "Knockout". */
export function formatName(competition) {
  if (competition.format === 'knockout') return t('competitions.format.knockout');
  return competition.double_round ? t('competitions.format.leagueDouble') : t('competitions.format.league');
}

/** "T10, 1 over": the game's options as the game's module words them ('' when it does not). */
function optionsText(competition) {
  const module = MODULES[competition.game];
  return module && module.describeOptions ? module.describeOptions(competition.options || {}) : '';
}

/** The name of a knockout round: the final, the semi-finals, the quarter-finals, else "Round n". */
export function roundName(round, rounds, format = 'knockout') {
  if (format === 'knockout') {
    if (round === rounds) return t('competitions.page.final');
    if (round === rounds - 1) return t('competitions.page.semiFinals');
    if (round === rounds - 2) return t('competitions.page.quarterFinals');
  }
  return t('competitions.page.round', { n: round });
}

/** A net run rate as the table writes it: "+0.843", "-1.250", "0.000" ("+0,843" in Portuguese). */
export function formatNrr(value) {
  const n = value === null || value === undefined || value === '' ? NaN : Number(value);
  if (!Number.isFinite(n)) return '-';
  return num(n, { minimumFractionDigits: 3, maximumFractionDigits: 3, signDisplay: 'exceptZero' });
}

/** Is the player entered in the competition? */
export function isEntered(competition, playerId) {
  return Boolean(playerId) && (competition.entries || []).some((entry) => entry.player_id === playerId);
}

/** The fixtures a player plays in (home or away), in round order. */
export function fixturesOf(competition, playerId) {
  return (competition.fixtures || [])
    .filter((f) => playerId && (f.home === playerId || f.away === playerId))
    .sort((a, b) => a.round - b.round || a.slot - b.slot);
}

/**
 * What a player can do about one of their fixtures: `ready` (say they are ready), `waiting`
 * (they are, the other side is not), `play` (the match is on: open it), `result` (played),
 * `bye`, `unknown` (a knockout fixture whose other side is not known yet), or null (not theirs,
 * or the competition is not running).
 */
export function fixtureAction(competition, fixture, playerId) {
  if (!playerId || (fixture.home !== playerId && fixture.away !== playerId)) return null;
  if (fixture.status === 'bye') return 'bye';
  if (fixture.status === 'finished') return 'result';
  if (fixture.status === 'live') return fixture.match_id ? 'play' : 'waiting';
  if (competition.status !== 'running') return null;
  if (!fixture.home || !fixture.away) return 'unknown';
  const mine = fixture.home === playerId ? fixture.home_ready : fixture.away_ready;
  return mine ? 'waiting' : 'ready';
}

/** The other side of a player's fixture (a player id, or null when not known yet / a bye). */
export function opponentOf(fixture, playerId) {
  return fixture.home === playerId ? fixture.away : fixture.home;
}

/** The address of this competition's page (its invite link). */
export function competitionLink(id) {
  return `${location.origin}${location.pathname}#/competitions/${id}`;
}

/** Finished matches' results by match id: a result never changes, so each is read once. */
const results = new Map();
function matchInfo(matchId) {
  if (!results.has(matchId)) {
    results.set(matchId, api.getMatch(matchId).catch((err) => {
      results.delete(matchId);
      throw err;
    }));
  }
  return results.get(matchId);
}

/** Re-runs the router on the same address (after picking a name, the page comes back). */
function reroute() {
  window.dispatchEvent(new HashChangeEvent('hashchange'));
}

/** The name step, then back to the same page (the router decides what it shows). */
async function askName(root) {
  const { showNameEntry } = await import('./lobby.js');
  showNameEntry(root, () => reroute());
}

// ------------------------------------------------------------------------------------------
// The list and the create form.

/** The create form: name, game and the game's options (as the lobby's), kind, double round. */
function createForm(root) {
  const me = savedPlayer();
  const error = h('p', { class: 'error', role: 'alert', 'data-testid': 'comp-create-error' });
  if (!me) {
    return h('section', { class: 'card comp-create', 'data-testid': 'comp-create' },
      h('h2', {}, t('competitions.create.title')),
      h('p', {}, t('competitions.create.signIn')),
      h('div', { class: 'buttons' }, h('button', { class: 'primary', 'data-testid': 'comp-sign-in', onclick: () => askName(root) }, t('competitions.create.signInLink'))));
  }
  const games = Object.keys(GAMES);
  let game = games.includes('ctg') ? 'ctg' : games[0];
  const name = h('input', { id: 'comp-name', required: true, maxlength: 60, placeholder: t('competitions.create.namePlaceholder'), 'data-testid': 'comp-name' });
  const gamePicker = h('select', { id: 'comp-game', 'data-testid': 'comp-game' },
    games.map((id) => h('option', { value: id, selected: id === game, 'data-no-i18n': '' }, gameName(id))));
  const optionsBox = h('div', { class: 'options' });
  let fields = [];
  function drawOptions() {
    fields = [];
    const field = (fieldName, control, hint, text) => {
      fields.push({ name: fieldName, control });
      return h('label', { class: 'opt' }, h('span', {}, text || t(`common.options.${fieldName}`)), control, hint && h('small', { class: 'muted opt-hint' }, hint));
    };
    const select = (fieldName, values, chosen) =>
      h('select', { name: fieldName, 'data-testid': `opt-${fieldName}` }, values.map(([v, text]) => h('option', { value: v, selected: v === chosen }, text)));
    const number = (fieldName, value, min, max) => h('input', { type: 'number', name: fieldName, value, min, max, 'data-testid': `opt-${fieldName}` });
    const module = MODULES[game];
    mount(optionsBox, module && module.optionFields ? module.optionFields({ field, select, number }) : []);
  }
  gamePicker.addEventListener('change', () => {
    game = gamePicker.value;
    drawOptions();
  });
  drawOptions();
  const kind = (value, text) => h('label', { class: 'radio' },
    h('input', { type: 'radio', name: 'comp-kind', value, checked: value === 'league', 'data-testid': `comp-kind-${value}`, onchange: () => { double.disabled = value !== 'league'; if (double.disabled) double.checked = false; } }),
    h('span', {}, text));
  const double = h('input', { type: 'checkbox', 'data-testid': 'comp-double' });
  const roundHours = h('input', { type: 'number', id: 'comp-round-hours', min: 1, max: 720, 'data-testid': 'comp-round-hours' });
  const form = h('form', {
    class: 'card comp-create',
    'data-testid': 'comp-create',
    onsubmit: async (event) => {
      event.preventDefault();
      error.textContent = '';
      const title = name.value.trim();
      if (!title) {
        error.textContent = t('competitions.create.needName');
        name.focus();
        return;
      }
      for (const input of [...optionsBox.querySelectorAll('input[type=number]'), roundHours]) {
        if (!input.checkValidity()) {
          input.reportValidity();
          const label = input.closest('label')?.querySelector('span')?.textContent || input.name;
          error.textContent = t('common.lobby.invalidField', { name: label, message: input.validationMessage });
          return;
        }
      }
      const options = {};
      for (const { name: key, control } of fields) {
        const value = control.value;
        // An empty number field is an option left to its default (CTG's `overs`: the full length).
        if (control.type === 'number' && (value === '' || value === undefined)) continue;
        if (value === 'true' || value === 'false') options[key] = value === 'true';
        else options[key] = control.type === 'number' || /^\d+$/.test(value) ? Number(value) : value;
      }
      const format = form.querySelector('input[name=comp-kind]:checked')?.value || 'league';
      const body = { name: title, game, options, format };
      if (format === 'league') body.double_round = double.checked;
      if (roundHours.value !== '') body.round_hours = Number(roundHours.value);
      const submit = form.querySelector('button[type=submit]');
      submit.disabled = true;
      try {
        const created = await api.createCompetition(body);
        location.hash = `#/competitions/${created.competition_id}`;
      } catch (err) {
        submit.disabled = false;
        error.textContent = errorText(err);
      }
    },
  },
  h('h2', {}, t('competitions.create.title')),
  h('div', { class: 'options' },
    h('label', { class: 'opt' }, h('span', {}, t('competitions.create.name')), name),
    h('label', { class: 'opt' }, h('span', {}, t('competitions.create.game')), gamePicker)),
  optionsBox,
  h('fieldset', { class: 'comp-kind' },
    h('legend', {}, t('competitions.create.kind')),
    kind('league', t('competitions.create.league')),
    kind('knockout', t('competitions.create.knockout')),
    h('label', { class: 'check' }, double, h('span', {}, t('competitions.create.doubleRound')))),
  h('div', { class: 'options' },
    h('label', { class: 'opt' }, h('span', {}, t('competitions.create.roundHours')), roundHours, h('small', { class: 'muted opt-hint' }, t('competitions.create.roundHoursHint')))),
  h('div', { class: 'buttons' }, h('button', { type: 'submit', class: 'primary', 'data-testid': 'comp-create-submit' }, t('competitions.create.submit'))),
  error);
  return form;
}

/** One competition in a list: its name (a link), game, kind, entries, champion, Join. */
function listItem(competition, me, onJoined) {
  const entered = isEntered(competition, me && me.player_id);
  const entries = competition.entries || [];
  const champion = competition.champion && entries.find((e) => e.player_id === competition.champion);
  const meta = [gameName(competition.game), formatName(competition), optionsText(competition)].filter(Boolean).join(' · ');
  const join = competition.status === 'open' && me && !entered
    ? h('button', {
        class: 'small',
        'data-testid': 'comp-list-join',
        onclick: async (event) => {
          event.currentTarget.disabled = true;
          try {
            await api.joinCompetition(competition.competition_id);
            location.hash = `#/competitions/${competition.competition_id}`;
          } catch (err) {
            toast(errorText(err), 'error');
            onJoined();
          }
        },
      }, t('competitions.list.join'))
    : null;
  return h('li', { class: 'comp-item', 'data-competition-id': competition.competition_id, 'data-testid': 'comp-item' },
    h('div', { class: 'comp-item-main' },
      h('a', { href: `#/competitions/${competition.competition_id}`, class: 'comp-item-name', 'data-no-i18n': '' }, competition.name),
      h('span', { class: 'muted' }, meta),
      h('span', { class: 'muted' }, t('competitions.list.entries', { count: entries.length }),
        entered ? [' · ', h('strong', { class: 'comp-you' }, t('competitions.list.youAreIn'))] : null),
      champion ? h('span', { 'data-testid': 'comp-item-champion' }, trophy(), fill(t('competitions.list.champion'), { name: proper(champion.name) })) : null),
    h('div', { class: 'comp-item-actions' }, join,
      h('a', { class: 'button small', href: `#/competitions/${competition.competition_id}` }, t('competitions.list.view'))));
}

export function showCompetitions(root) {
  let disposed = false;
  let timer = null;
  let all = null;
  let lastShown = null;
  const me = savedPlayer();
  let onlyMine = false;
  const lists = h('div', { class: 'comp-lists', 'data-testid': 'comp-lists', 'aria-busy': 'true' }, h('p', { class: 'muted' }, t('common.loading')));
  const error = h('p', { class: 'error', role: 'alert' });
  const mine = me
    ? h('label', { class: 'check' }, h('input', {
        type: 'checkbox',
        'data-testid': 'comp-only-mine',
        onchange: (event) => {
          onlyMine = event.currentTarget.checked;
          lastShown = null;
          draw();
        },
      }), h('span', {}, t('competitions.list.mine')))
    : null;

  function draw() {
    if (!all) return;
    const shown = onlyMine ? all.filter((c) => isEntered(c, me && me.player_id)) : all;
    const key = JSON.stringify([onlyMine, shown.map((c) => [c.competition_id, c.status, (c.entries || []).length, c.champion || null])]);
    if (key === lastShown) return;
    lastShown = key;
    mount(lists, ['open', 'running', 'finished'].map((status) => {
      const of = shown.filter((c) => c.status === status);
      return h('section', { class: 'comp-group', 'data-testid': `comp-group-${status}` },
        h('h2', {}, t(`competitions.list.${status}`), ' ', h('span', { class: 'muted' }, `(${of.length})`)),
        of.length
          ? h('ul', { class: 'comp-list' }, of.map((c) => listItem(c, me, refresh)))
          : h('p', { class: 'muted' }, t(`competitions.list.none.${status}`)));
    }));
    lists.setAttribute('aria-busy', 'false');
  }

  async function refresh() {
    clearTimeout(timer);
    if (!document.hidden) {
      try {
        const data = await api.listCompetitions();
        if (disposed) return;
        all = (data && data.competitions) || [];
        error.textContent = '';
        draw();
      } catch (err) {
        if (disposed) return;
        error.textContent = t('competitions.list.loadFailed', { reason: errorText(err) });
      }
    }
    if (!disposed) timer = setTimeout(refresh, POLL_MS * 2);
  }

  mount(root, h('div', { class: 'screen competitions' },
    createForm(root),
    h('section', { class: 'card' },
      h('h1', {}, t('competitions.list.title')),
      h('p', { class: 'muted' }, t('competitions.list.lead')),
      mine,
      error,
      lists)));
  refresh();
  return { dispose() { disposed = true; clearTimeout(timer); } };
}

// ------------------------------------------------------------------------------------------
// One competition.

export function showCompetition(root, id) {
  let disposed = false;
  let timer = null;
  let comp = null;
  let lastJson = null;
  // Fixtures whose player (this browser) said they were ready: when one goes live, its match opens.
  const waitingFor = new Set();
  // Bumped by every answer of an action: a read that started before it is out of date.
  let version = 0;
  const controls = { bots: 1, level: 'normal' };
  const box = h('div', { class: 'screen competition', 'data-testid': 'competition' }, h('p', { class: 'muted' }, t('common.loading')));
  const error = h('p', { class: 'error', role: 'alert', 'data-testid': 'comp-error' });
  mount(root, box);

  const me = () => savedPlayer();
  const myId = () => (me() ? me().player_id : null);

  function entryName(playerId) {
    const entry = comp && (comp.entries || []).find((e) => e.player_id === playerId);
    return entry ? entry.name : null;
  }

  /** A player's name, "(you)" for this browser's, "to be decided" when not known yet. */
  function nameNode(playerId, { you = true } = {}) {
    if (!playerId) return h('span', { class: 'muted tbd' }, t('competitions.page.tbd'));
    const name = entryName(playerId) || playerId.slice(0, 8);
    if (you && playerId === myId()) return h('span', { class: 'name' }, fill(t('competitions.page.you'), { name: proper(name) }));
    return h('span', { class: 'name', 'data-no-i18n': '' }, name);
  }

  async function act(button, call) {
    if (button) button.disabled = true;
    error.textContent = '';
    try {
      const next = await call();
      version += 1;
      if (next && next.competition_id) comp = next;
      lastJson = null;
      draw();
      return next;
    } catch (err) {
      if (button) button.disabled = false;
      error.textContent = errorText(err);
      return null;
    } finally {
      schedule();
    }
  }

  function header() {
    const creator = entryName(comp.created_by);
    const champion = comp.champion ? entryName(comp.champion) || comp.champion : null;
    const meta = [
      h('span', { 'data-no-i18n': '' }, gameName(comp.game)),
      formatName(comp),
      optionsText(comp),
      comp.rounds ? t('competitions.page.rounds', { count: comp.rounds }) : '',
    ].filter(Boolean);
    const link = competitionLink(comp.competition_id);
    const copied = h('span', { class: 'muted', role: 'status', 'data-testid': 'comp-copied' });
    const linkBox = h('input', { class: 'invite-link mono', readonly: true, value: link, 'data-testid': 'comp-invite-link', 'aria-label': t('competitions.page.invite'), onfocus: (e) => e.target.select() });
    const copy = async () => {
      try {
        await navigator.clipboard.writeText(link);
        copied.textContent = t('competitions.page.copied');
      } catch {
        linkBox.select();
        copied.textContent = t('competitions.page.copyByHand');
      }
    };
    return h('section', { class: 'card comp-header' },
      h('p', { class: 'small' }, h('a', { href: '#/competitions', 'data-testid': 'comp-back' }, t('competitions.page.back'))),
      h('div', { class: 'comp-title' },
        h('h1', { 'data-testid': 'comp-name', 'data-no-i18n': '' }, comp.name),
        h('span', { class: ['comp-status', `comp-status-${comp.status}`], 'data-testid': 'comp-status', 'data-status': comp.status }, t(`competitions.status.${comp.status}`))),
      h('p', { class: 'comp-meta muted', 'data-testid': 'comp-meta' }, meta.flatMap((part, i) => (i ? [' · ', part] : [part]))),
      creator ? h('p', { class: 'muted small' }, fill(t('competitions.page.created'), { name: proper(creator) })) : null,
      champion ? h('p', { class: 'comp-champion', 'data-testid': 'comp-champion', 'data-player-id': comp.champion }, trophy(), fill(t('competitions.page.champion'), { name: proper(champion) })) : null,
      comp.status === 'open'
        ? h('div', { class: 'invite comp-invite' },
            h('label', { class: 'small muted' }, t('competitions.page.inviteLead')),
            linkBox,
            h('div', { class: 'buttons' }, h('button', { 'data-testid': 'comp-copy', onclick: copy }, t('competitions.page.copy')), copied))
        : null,
    );
  }

  function entriesPanel() {
    const player = me();
    const mine = myId();
    const entered = isEntered(comp, mine);
    const creator = mine && comp.created_by === mine;
    // Seeds and ratings come with the start: before it, the entries in the order they came.
    const seeded = (comp.entries || []).some((e) => typeof e.seed === 'number');
    const rated = (comp.entries || []).some((e) => typeof e.rating === 'number');
    const entries = seeded ? [...comp.entries].sort((a, b) => (a.seed ?? 0) - (b.seed ?? 0)) : [...(comp.entries || [])];
    const actions = [];
    if (comp.status === 'open') {
      if (!player) {
        actions.push(h('button', { class: 'primary', 'data-testid': 'comp-pick-name', onclick: () => askName(root) }, t('competitions.page.pickName')));
      } else if (!entered) {
        actions.push(h('button', { class: 'primary', 'data-testid': 'comp-join', onclick: (e) => act(e.currentTarget, () => api.joinCompetition(id)) }, t('competitions.page.join')));
      } else if (!creator) {
        actions.push(h('button', { 'data-testid': 'comp-leave', onclick: (e) => act(e.currentTarget, () => api.leaveCompetition(id)) }, t('competitions.page.leave')));
      }
    }
    let organiser = null;
    if (comp.status === 'open' && creator) {
      const levels = (GAMES[comp.game] && GAMES[comp.game].levels && GAMES[comp.game].levels.length) ? GAMES[comp.game].levels : ['easy', 'normal', 'hard'];
      if (!levels.includes(controls.level)) controls.level = levels.includes('normal') ? 'normal' : levels[0];
      const count = h('input', { type: 'number', min: 1, max: 15, value: controls.bots, id: 'comp-bot-count', 'data-testid': 'comp-bot-count', onchange: (e) => { controls.bots = Number(e.currentTarget.value) || 1; } });
      const level = h('select', { id: 'comp-bot-level', 'data-testid': 'comp-bot-level', onchange: (e) => { controls.level = e.currentTarget.value; } },
        levels.map((l) => h('option', { value: l, selected: l === controls.level }, t(`common.lobby.bot${l.charAt(0).toUpperCase()}${l.slice(1)}`))));
      const need = MIN_ENTRIES[comp.format] || 2;
      const enough = entries.length >= need;
      organiser = h('div', { class: 'comp-organiser' },
        h('div', { class: 'comp-bots' },
          h('label', { for: 'comp-bot-count' }, t('competitions.page.botCount')), count,
          h('label', { for: 'comp-bot-level', class: 'sr-only' }, t('competitions.page.botLevel')), level,
          h('button', {
            'data-testid': 'comp-add-bots',
            onclick: (e) => {
              if (!count.checkValidity()) {
                count.reportValidity();
                return;
              }
              controls.bots = Number(count.value) || 1;
              act(e.currentTarget, () => api.addCompetitionBots(id, controls.bots, controls.level));
            },
          }, t('competitions.page.addBots'))),
        h('div', { class: 'buttons' },
          h('button', { class: 'primary', 'data-testid': 'comp-start', disabled: !enough, onclick: (e) => act(e.currentTarget, () => api.startCompetition(id)) }, t('competitions.page.start'))),
        enough ? null : h('p', { class: 'muted small', 'data-testid': 'comp-need' }, t(comp.format === 'knockout' ? 'competitions.page.needKnockout' : 'competitions.page.needLeague')));
    } else if (comp.status === 'open' && entered) {
      const creatorName = entryName(comp.created_by);
      if (creatorName) actions.push(h('p', { class: 'muted' }, fill(t('competitions.page.waitingStart'), { name: proper(creatorName) })));
    }
    return h('section', { class: 'card comp-entries', 'data-testid': 'comp-entries' },
      h('h2', {}, t('competitions.page.entries'), ' ', h('span', { class: 'muted' }, `(${entries.length})`)),
      entries.length === 0
        ? h('p', { class: 'muted' }, t('competitions.page.noEntries'))
        : h('div', { class: 'table-scroll' }, h('table', { class: 'board-table comp-entries-table' },
            h('thead', {}, h('tr', {},
              seeded ? h('th', { scope: 'col', class: 'num' }, t('competitions.page.seed')) : null,
              h('th', { scope: 'col' }, t('competitions.page.player')),
              rated ? h('th', { scope: 'col', class: 'num' }, t('competitions.page.rating')) : null)),
            h('tbody', {}, entries.map((entry) => h('tr', { 'data-player-id': entry.player_id, 'data-testid': 'comp-entry', class: entry.player_id === mine ? 'mine' : null },
              seeded ? h('td', { class: 'num' }, entry.seed ?? '') : null,
              h('th', { scope: 'row' },
                entry.bot ? proper(entry.name) : h('a', { href: `#/players/${entry.player_id}` }, nameNode(entry.player_id)),
                entry.bot ? h('span', { class: 'tag' }, t('competitions.page.bot')) : null,
                entry.player_id === comp.created_by ? h('span', { class: 'tag' }, t('competitions.page.organiser')) : null),
              rated ? h('td', { class: 'num' }, typeof entry.rating === 'number' ? String(Math.round(entry.rating)) : '-') : null))))),
      actions.length ? h('div', { class: 'buttons' }, actions) : null,
      organiser);
  }

  /** A finished fixture's result in the language on screen, from its match's Outcome. */
  function resultNode(fixture) {
    // A fixture decided with no match (a round's clock ran out) is a walkover.
    const fallback = fixture.winner
      ? fill(t(fixture.match_id ? 'common.result.won' : 'competitions.page.walkover'), { name: nameNode(fixture.winner, { you: false }) })
      : t('competitions.page.noWinner');
    const cell = h('span', { class: 'comp-result', 'data-testid': 'fixture-result' }, fallback);
    if (fixture.match_id) {
      matchInfo(fixture.match_id).then((info) => {
        if (!info || !info.result) return;
        const seats = info.seats || [];
        // A bot's seat may carry no player id: it is the fixture's side no seat names.
        const unnamed = [fixture.home, fixture.away].filter((p) => p && !seats.some((x) => x && x.player_id === p));
        const seatName = (seat) => {
          const entry = seats.find((x) => x && Number(x.seat) === Number(seat));
          let playerId = entry && entry.player_id;
          if (!playerId && unnamed.length === 1) playerId = unnamed[0];
          else if (!playerId && unnamed.length === 2) playerId = unnamed[Number(seat)] || null;
          return (playerId && entryName(playerId)) || nameOfSeat(seats, seat, { capital: true });
        };
        cell.replaceChildren(resultLine(info.result, seatName));
      }).catch(() => {});
    }
    return cell;
  }

  /** The links of a fixture's match: watch it live, or its replay once played. */
  function matchLinks(fixture) {
    if (!fixture.match_id) return null;
    if (fixture.status === 'live') return h('a', { class: 'button small', href: `#/watch/${fixture.match_id}`, 'data-testid': 'fixture-watch' }, t('competitions.page.watch'));
    if (fixture.status === 'finished') return h('a', { class: 'button small', href: `#/replay/${fixture.match_id}`, 'data-testid': 'fixture-replay' }, t('competitions.page.replay'));
    return null;
  }

  /** "Play by <time>" for a fixture whose round has a clock (a competition with `round_hours`). */
  function deadlineNode(fixture) {
    const at = fixture.deadline ? new Date(fixture.deadline) : null;
    if (!at || Number.isNaN(at.getTime())) return null;
    return h('span', { class: 'muted small', 'data-testid': 'fixture-deadline' }, t('competitions.page.playBy', { time: at.toLocaleString(lang(), { dateStyle: 'medium', timeStyle: 'short' }) }));
  }

  /** What the viewer can do about a fixture of theirs. */
  function actionNode(fixture) {
    const mine = myId();
    const action = fixtureAction(comp, fixture, mine);
    const other = opponentOf(fixture, mine);
    switch (action) {
      case 'ready': {
        const otherReady = fixture.home === mine ? fixture.away_ready : fixture.home_ready;
        return [
          deadlineNode(fixture),
          h('button', {
            class: 'primary',
            'data-testid': 'fixture-ready',
            onclick: async (e) => {
              waitingFor.add(fixture.fixture_id);
              const button = e.currentTarget;
              button.disabled = true;
              error.textContent = '';
              try {
                const next = await api.readyFixture(id, fixture.fixture_id);
                version += 1;
                if (next && next.match_id && next.status === 'live') {
                  location.hash = `#/match/${next.match_id}`;
                  return;
                }
                if (next && next.competition_id) {
                  // A server that answers with the whole competition: take it as it is.
                  comp = next;
                  if (openStartedMatch()) return;
                } else if (next && next.fixture_id !== undefined) {
                  const list = comp.fixtures || [];
                  const at = list.findIndex((f) => f.fixture_id === fixture.fixture_id);
                  if (at >= 0) list[at] = { ...list[at], ...next };
                }
                lastJson = null;
                draw();
              } catch (err) {
                waitingFor.delete(fixture.fixture_id);
                button.disabled = false;
                error.textContent = errorText(err);
              }
              schedule();
            },
          }, t('competitions.page.ready')),
          otherReady && other ? h('span', { class: 'muted', 'data-testid': 'fixture-other-ready' }, fill(t('competitions.page.opponentReady'), { name: nameNode(other) })) : null,
        ];
      }
      case 'waiting':
        return [deadlineNode(fixture), h('span', { class: 'comp-waiting', role: 'status', 'data-testid': 'fixture-waiting' }, h('span', { class: 'spinner' }), ' ',
          fill(t('competitions.page.waitingFor'), { name: nameNode(other) }))];
      case 'play':
        return h('a', { class: 'button primary', href: `#/match/${fixture.match_id}`, 'data-testid': 'fixture-play' }, t('competitions.page.playNow'));
      case 'result':
        return [resultNode(fixture), matchLinks(fixture)];
      case 'unknown':
        return h('span', { class: 'muted' }, t('competitions.page.tbd'));
      default:
        return null;
    }
  }

  function fixtureLine(fixture, { withAction = false } = {}) {
    const bye = fixture.status === 'bye';
    const mine = myId() && (fixture.home === myId() || fixture.away === myId());
    const sides = bye
      ? fill(t('competitions.page.byeLine'), { name: nameNode(fixture.home || fixture.away) })
      : [h('span', { class: ['side', fixture.winner && fixture.winner === fixture.home && 'winner'] }, nameNode(fixture.home)),
        h('span', { class: 'muted' }, t('common.versusSep')),
        h('span', { class: ['side', fixture.winner && fixture.winner === fixture.away && 'winner'] }, nameNode(fixture.away))];
    let tail;
    if (withAction) tail = actionNode(fixture);
    else if (bye) tail = null;
    else if (fixture.status === 'finished') tail = [resultNode(fixture), matchLinks(fixture)];
    else tail = [h('span', { class: 'muted' }, t(`competitions.page.fixtureStatus.${fixture.status}`)), matchLinks(fixture)];
    return h('li', {
      class: ['comp-fixture', `fixture-${fixture.status}`, mine && 'mine'],
      'data-fixture-id': fixture.fixture_id,
      'data-status': fixture.status,
      'data-testid': withAction ? 'my-fixture' : 'fixture',
    },
    h('span', { class: 'comp-fixture-sides' }, withAction ? h('span', { class: 'muted round-tag' }, roundName(fixture.round, comp.rounds, comp.format)) : null, sides),
    h('span', { class: 'comp-fixture-tail' }, tail));
  }

  function myFixturesPanel() {
    const mine = myId();
    if (!mine || comp.status === 'open' || !isEntered(comp, mine)) return null;
    const list = fixturesOf(comp, mine);
    const toPlay = list.filter((f) => ['waiting', 'ready', 'live'].includes(f.status));
    const played = list.filter((f) => !toPlay.includes(f));
    return h('section', { class: 'card comp-mine', 'data-testid': 'comp-my-fixtures' },
      h('h2', {}, t('competitions.page.yourFixtures')),
      toPlay.length === 0 && comp.status !== 'finished' ? h('p', { class: 'muted' }, t('competitions.page.allPlayed')) : null,
      h('ul', { class: 'comp-fixtures' }, [...toPlay, ...played].map((f) => fixtureLine(f, { withAction: true }))));
  }

  function standingsPanel() {
    const rows = comp.standings || [];
    const cricket = comp.game !== 'champions';
    const cols = [
      ['played', 'played'], ['won', 'won'], ['lost', 'lost'], ['tied', 'tied'], ['no_result', 'noResult'], ['points', 'points'],
    ];
    const head = (key, cls) => h('th', { scope: 'col', class: cls }, h('abbr', { title: t(`competitions.table.title.${key}`) }, t(`competitions.table.${key}`)));
    return h('section', { class: 'card comp-standings', 'data-testid': 'comp-standings' },
      h('h2', {}, t('competitions.page.standings')),
      rows.length === 0
        ? h('p', { class: 'muted' }, t('competitions.table.empty'))
        : h('div', { class: 'table-scroll' }, h('table', { class: 'board-table standings', 'data-testid': 'standings' },
            h('thead', {}, h('tr', {},
              head('pos', 'num'),
              h('th', { scope: 'col' }, t('competitions.table.player')),
              cols.map(([, key]) => head(key, ['num', key === 'points' && 'pts'])),
              cricket ? [head('nrr', 'num'), head('for', 'num wide'), head('against', 'num wide')] : null)),
            h('tbody', {}, rows.map((row) => h('tr', {
              'data-testid': 'standing-row',
              'data-player-id': row.player_id,
              class: [row.player_id === myId() && 'mine', comp.champion && row.player_id === comp.champion && 'champion'],
            },
            h('td', { class: 'num', 'data-col': 'position' }, row.position),
            h('th', { scope: 'row', 'data-col': 'name' }, row.player_id === comp.champion ? trophy() : null, nameNode(row.player_id, { you: false })),
            cols.map(([field, key]) => h('td', { class: ['num', key === 'points' && 'pts'], 'data-col': field }, row[field])),
            cricket ? [
              h('td', { class: 'num', 'data-col': 'net_run_rate', 'data-value': row.net_run_rate }, formatNrr(row.net_run_rate)),
              h('td', { class: 'num wide', 'data-col': 'for' }, `${row.runs_for}/${row.overs_faced}`),
              h('td', { class: 'num wide', 'data-col': 'against' }, `${row.runs_against}/${row.overs_bowled}`),
            ] : null))))),
      rows.length ? h('p', { class: 'muted small comp-key' }, t('competitions.table.key')) : null);
  }

  function roundsOf() {
    const byRound = new Map();
    for (const f of [...(comp.fixtures || [])].sort((a, b) => a.round - b.round || a.slot - b.slot)) {
      if (!byRound.has(f.round)) byRound.set(f.round, []);
      byRound.get(f.round).push(f);
    }
    return byRound;
  }

  function fixturesPanel() {
    const byRound = roundsOf();
    if (byRound.size === 0) return null;
    return h('section', { class: 'card comp-rounds', 'data-testid': 'comp-fixtures' },
      h('h2', {}, t('competitions.page.fixtures')),
      [...byRound].map(([round, list]) => h('section', { class: 'comp-round', 'data-round': round },
        h('h3', {}, roundName(round, comp.rounds, comp.format)),
        h('ul', { class: 'comp-fixtures' }, list.map((f) => fixtureLine(f))))));
  }

  /** A knockout's bracket: the rounds as columns (stacked on a phone), byes shown. */
  function bracketPanel() {
    const byRound = roundsOf();
    const rounds = comp.rounds || Math.max(0, ...byRound.keys());
    if (byRound.size === 0) return null;
    const side = (fixture, playerId, which) => {
      const won = fixture.winner && fixture.winner === playerId;
      // A tie or no result in a knockout: the higher seed goes through (`advances`).
      const through = !fixture.winner && fixture.status === 'finished' && playerId && fixture.advances === playerId;
      const bye = fixture.status === 'bye' && !playerId;
      return h('div', {
        class: ['bracket-side', won && 'winner', playerId && playerId === myId() && 'mine', bye && 'bye'],
        'data-testid': `bracket-${which}`,
        'data-player-id': playerId || undefined,
      },
      bye ? h('span', { class: 'muted' }, t('competitions.page.bye')) : nameNode(playerId),
      won ? h('span', { class: 'won-mark', 'aria-hidden': 'true' }, '✓') : null,
      through ? h('span', { class: 'muted small', 'data-testid': 'bracket-through' }, t('competitions.page.throughOnSeed')) : null);
    };
    const columns = [];
    for (let round = 1; round <= rounds; round += 1) {
      const list = byRound.get(round) || [];
      columns.push(h('section', { class: 'bracket-round', 'data-round': round, 'data-testid': 'bracket-round' },
        h('h3', {}, roundName(round, rounds, 'knockout')),
        h('div', { class: 'bracket-matches' }, list.map((fixture) => h('div', {
          class: ['bracket-match', `fixture-${fixture.status}`],
          'data-fixture-id': fixture.fixture_id,
          'data-status': fixture.status,
          'data-testid': 'bracket-match',
        },
        side(fixture, fixture.home, 'home'),
        side(fixture, fixture.away, 'away'),
        h('div', { class: 'bracket-foot small' },
          fixture.status === 'bye'
            ? h('span', { class: 'muted', 'data-testid': 'bracket-bye' }, t('competitions.page.byeThrough'))
            : fixture.status === 'finished'
              ? [resultNode(fixture), ' ', matchLinks(fixture)]
              : [h('span', { class: 'muted' }, t(`competitions.page.fixtureStatus.${fixture.status}`)), ' ', matchLinks(fixture)]))))));
    }
    return h('section', { class: 'card comp-bracket', 'data-testid': 'comp-bracket' },
      h('h2', {}, t('competitions.page.bracket')),
      h('div', { class: 'bracket', style: `--rounds: ${rounds}` }, columns));
  }

  function draw() {
    if (!comp || disposed) return;
    const focused = document.activeElement && box.contains(document.activeElement) ? document.activeElement.getAttribute('data-testid') : null;
    // While open the entries (and the organiser's buttons) are all there is; then the
    // viewer's fixtures, the table or bracket and the rounds come first.
    mount(box,
      header(),
      error,
      comp.status === 'open' ? entriesPanel() : [
        myFixturesPanel(),
        comp.format === 'knockout' ? bracketPanel() : standingsPanel(),
        comp.format === 'knockout' ? null : fixturesPanel(),
        entriesPanel(),
      ]);
    if (focused) {
      const again = box.querySelector(`[data-testid="${CSS.escape(focused)}"]`);
      if (again && !again.disabled) again.focus();
    }
  }

  /** Opens the match of a fixture this browser said it was ready for, once the server starts it. */
  function openStartedMatch() {
    for (const fixture of fixturesOf(comp, myId())) {
      if (waitingFor.has(fixture.fixture_id) && fixture.status === 'live' && fixture.match_id) {
        waitingFor.delete(fixture.fixture_id);
        location.hash = `#/match/${fixture.match_id}`;
        return true;
      }
    }
    return false;
  }

  /** Is this browser's player waiting for the other side of a fixture? */
  function waiting() {
    return comp && fixturesOf(comp, myId()).some((f) => fixtureAction(comp, f, myId()) === 'waiting');
  }

  function schedule() {
    clearTimeout(timer);
    if (disposed || !comp || comp.status === 'finished') return;
    timer = setTimeout(load, waiting() ? POLL_WAITING_MS : POLL_MS);
  }

  async function load() {
    clearTimeout(timer);
    if (document.hidden && comp) {
      schedule();
      return;
    }
    try {
      const before = version;
      const next = await api.getCompetition(id);
      if (disposed) return;
      if (before !== version) {
        // An action answered while this read was on its way: its answer is newer.
        schedule();
        return;
      }
      comp = next;
      // A fixture already waiting when the page opened counts as this browser's too.
      for (const f of fixturesOf(comp, myId())) if (fixtureAction(comp, f, myId()) === 'waiting' && f.status !== 'live') waitingFor.add(f.fixture_id);
      if (openStartedMatch()) return;
      const json = JSON.stringify(next);
      if (json !== lastJson) {
        lastJson = json;
        draw();
      }
    } catch (err) {
      if (disposed) return;
      if (!comp && (err.status === 404 || err.status === 400 || err.code === 'not_found')) {
        mount(box, h('section', { class: 'card', 'data-testid': 'comp-not-found' },
          h('h1', {}, t('competitions.page.notFound')),
          h('p', {}, fill(t('competitions.page.notFoundLead'), { id: h('span', { class: 'mono' }, String(id)) })),
          h('p', {}, h('a', { href: '#/competitions' }, t('competitions.page.back')))));
        return;
      }
      if (!comp) mount(box, error);
      error.textContent = t('competitions.page.refreshFailed', { reason: errorText(err) });
    }
    schedule();
  }

  const onVisible = () => { if (!document.hidden) load(); };
  document.addEventListener('visibilitychange', onVisible);
  load();
  return {
    dispose() {
      disposed = true;
      clearTimeout(timer);
      document.removeEventListener('visibilitychange', onVisible);
    },
  };
}

// ------------------------------------------------------------------------------------------
// Links from other screens.

/** The profile's section: the competitions the player is in (the list, filtered here). */
export function profileCompetitions(playerId) {
  const box = h('div', { 'data-testid': 'profile-competitions' }, h('p', { class: 'muted' }, t('common.loading')));
  api.listCompetitions().then((data) => {
    const mine = ((data && data.competitions) || []).filter((c) => isEntered(c, playerId));
    mount(box, mine.length === 0
      ? h('p', { class: 'muted' }, t('competitions.profile.none'))
      : h('ul', { class: 'comp-list' }, mine.map((c) => {
          const champion = c.champion === playerId;
          return h('li', { class: 'comp-item', 'data-competition-id': c.competition_id },
            h('div', { class: 'comp-item-main' },
              h('a', { href: `#/competitions/${c.competition_id}`, class: 'comp-item-name', 'data-no-i18n': '' }, c.name),
              h('span', { class: 'muted' }, [gameName(c.game), formatName(c), t(`competitions.status.${c.status}`)].join(' · ')),
              champion ? h('span', {}, trophy(), fill(t('competitions.list.champion'), { name: proper((c.entries || []).find((e) => e.player_id === playerId)?.name || '') })) : null));
        })));
  }).catch((err) => {
    mount(box, h('p', { class: 'error' }, errorText(err)));
  });
  return box;
}

/**
 * "Part of <competition>" at the top of a match's screen when the match is a fixture
 * (`GET /v1/matches/{id}` names its `competition_id`). The match screen itself is untouched:
 * the line goes above it once both reads answer, if the screen is still on show.
 */
export function partOfCompetition(root, matchId) {
  const screen = root.querySelector('.screen.match');
  if (!screen || !matchId || String(matchId).startsWith('mock-')) return;
  api.getMatch(matchId).then(async (info) => {
    if (!info || !info.competition_id || !screen.isConnected) return;
    const competition = await api.getCompetition(info.competition_id);
    if (!screen.isConnected) return;
    screen.prepend(h('p', { class: 'part-of', 'data-testid': 'part-of' },
      fill(t('competitions.partOf'), {
        name: h('a', { href: `#/competitions/${competition.competition_id}`, 'data-testid': 'part-of-link', 'data-no-i18n': '' }, competition.name),
      })));
  }).catch(() => {});
}
