// Cricket Champions screen: the scoreboard for every seat, the over in play with both sets
// of dice, re-roll selection (click dice to choose which to roll again), Xp card powers on
// stop, the Xp market and the championship cards.
//
// Commands (engine `Command`, tag "type"): roll {dice: [indices]}, stop {powers},
// buy {card}, pass.

// Every word comes from the `champions` catalogue (web/js/i18n/<lang>/champions.js) at draw
// time. Card and championship names are the ruleset's own in English (data/champions/
// ruleset.json) and the catalogue's in other languages; a card's effect is the ruleset's text
// in English and, elsewhere, written from the card's hook (its kind and numbers).

import { h, label, summary } from '../dom.js';
import { panel } from '../ui.js';
import { t, tOr, lang } from '../i18n.js';

const SHORT_FACES = ['one', 'two', 'four', 'six', 'xp', 'defence', 'wicket', 'wide', 'dot', 'save'];

/** The face as a die shows it: "1", "Xp", "Def", "W" (`champions.face.short.*`). */
export const faceText = (face) => (SHORT_FACES.includes(face) ? t(`champions.face.short.${face}`) : label(face));

/** The face's name: "Defence", "Wicket" (`champions.face.name.*`). */
export const faceName = (face) => (SHORT_FACES.includes(face) ? t(`champions.face.name.${face}`) : label(face));

/** batting / bowling as a word of the sentence. */
const roleWord = (role) => (role === 'batting' || role === 'bowling' ? t(`champions.role.${role}`) : label(role));

/** A colour of Xp card: Black, Green, Blue. */
export const colourName = (colour) => (['black', 'green', 'blue'].includes(colour) ? t(`champions.colour.${colour}`) : label(colour));

/** An Xp card's name: the ruleset's in English, the catalogue's in other languages. */
export function cardName(card) {
  if (!card) return '';
  const id = typeof card === 'string' ? card : card.id;
  const own = typeof card === 'string' ? null : card.name;
  if (lang() === 'en' && own) return own;
  return tOr(`champions.cards.${id}`, own || label(id));
}

/** A championship card's name, the same way. */
export function championshipName(card) {
  if (!card) return '';
  if (lang() === 'en' && card.name) return card.name;
  return tOr(`champions.championships.${card.id}`, card.name || label(card.id));
}

/** What a hook does, written from its kind and numbers (`champions.hook.<kind>`). */
export function hookText(hook) {
  if (!hook || !hook.kind) return '';
  const params = { ...hook };
  if (hook.face) params.face = faceName(hook.face);
  return tOr(`champions.hook.${hook.kind}`, summary(hook), params);
}

/** An Xp card's effect: the ruleset's text in English, its hook's in other languages. */
export function cardEffect(card) {
  if (!card) return '';
  if (lang() === 'en' && card.text) return card.text;
  return hookText(card.hook) || card.text || '';
}

/** What wins a championship card, from its award (`champions.award.<kind>`). */
export function awardText(award) {
  if (!award || !award.kind) return '';
  return tOr(`champions.award.${award.kind}`, summary(award), { ...award });
}

// Zero has its own message: CLDR counts 0 as "one" in Portuguese ("0 corrida").
export const runsText = (n) => (Number(n) ? t('champions.n.runs', { count: Number(n) }) : t('champions.n.noRuns'));
export const wicketsText = (n) => (Number(n) ? t('champions.n.wickets', { count: Number(n) }) : t('champions.n.noWickets'));

function playerName(ctx, seat) {
  return ctx.seatName ? ctx.seatName(seat) : t('champions.player', { n: Number(seat) + 1 });
}

const capital = (text) => `${String(text).charAt(0).toUpperCase()}${String(text).slice(1)}`;

/** Is this seat the one reading ("you")? English verbs agree with it. */
function isYou(ctx, seat, name) {
  if (ctx.seat !== null && ctx.seat !== undefined && !ctx.spectate && Number(seat) === Number(ctx.seat)) return true;
  return /^you$/i.test(String(name || ''));
}

/** `key.you` when the seat is the reader, else `key.other`; `name` is the seat's name. */
function said(ctx, key, seat, params = {}) {
  const name = seat === null || seat === undefined ? t('champions.nobody') : playerName(ctx, seat);
  return t(`${key}.${isYou(ctx, seat, name) ? 'you' : 'other'}`, { name, ...params });
}

/**
 * A message with some of its placeholders drawn as <strong>: the sentence stays one message
 * (word order is the language's) and the bold part is wherever that language puts it.
 */
function rich(key, params, bold) {
  const marks = {};
  const filled = { ...params };
  for (const name of bold) {
    marks[`\u0001${name}\u0001`] = params[name];
    filled[name] = `\u0001${name}\u0001`;
  }
  return t(key, filled).split(/(\u0001\w+\u0001)/).filter(Boolean).map((part) => (part in marks ? h('strong', {}, String(marks[part])) : part));
}

/** A row of dice, each titled with its face's name; clickable ones toggle kept / re-rolled. */
function diceRow(faces, { held = new Set(), onToggle, kind = '' } = {}) {
  return h('div', { class: 'dice-row' }, (faces || []).map((face, index) => {
    const text = faceText(face);
    return h(onToggle ? 'button' : 'span', {
      class: ['die', kind, held.has(index) && 'held', `face-${String(text).toLowerCase().replace(/[^a-z0-9]+/g, '-')}`, `face-${face}`],
      title: onToggle
        ? t(held.has(index) ? 'champions.dice.kept' : 'champions.dice.rerolled', { face: faceName(face) })
        : faceName(face),
      'aria-pressed': onToggle ? String(!held.has(index)) : undefined,
      dataset: { index: String(index), face: String(face) },
      onclick: onToggle ? () => onToggle(index) : undefined,
    }, text);
  }));
}

function facesRow(faces, kind, opts = {}) {
  return diceRow(faces || [], { kind, ...opts });
}

const facesLine = (faces) => (faces || []).map(faceText).join(' ');

function scoreboard(view, ctx) {
  const over = view.over;
  const active = over ? (over.batting && !over.batting.finished ? over.batsman : over.bowler) : view.buyer;
  const limit = view.rules ? view.rules.elimination_wickets : 10;
  const rows = (view.players || []).map((p, i) => {
    const points = (view.points || [])[i] || {};
    const order = (view.order || []).indexOf(p.seat);
    return h('tr', { class: [p.seat === ctx.seat && 'me', p.eliminated && 'out', p.seat === active && 'active'], 'data-seat': String(p.seat) },
      h('td', {}, capital(playerName(ctx, p.seat)), order >= 0 ? h('small', { class: 'muted' }, ` #${order + 1}`) : null),
      h('td', {}, String(p.runs)),
      h('td', {}, t('champions.board.wicketsOf', { lost: p.wickets_lost, limit })),
      h('td', {}, String(p.wickets_taken)),
      h('td', {}, String(p.xp)),
      h('td', {}, (p.cards || []).map(cardName).join(', ') || '-'),
      h('td', {}, h('strong', {}, String(points.total ?? '-')), points.championship ? h('small', { class: 'muted' }, ` ${t('champions.board.championshipPoints', { count: points.championship })}`) : null),
    );
  });
  const heads = ['player', 'runs', 'wicketsLost', 'wicketsTaken', 'xp', 'cards', 'points'];
  return h('table', { class: 'seats', 'data-testid': 'champions-scoreboard' },
    h('thead', {}, h('tr', {}, heads.map((k) => h('th', {}, t(`champions.board.col.${k}`))))),
    h('tbody', {}, rows));
}

const countOf = (faces, face) => (faces || []).filter((f) => f === face).length;

/**
 * The over as the dice stand, by the seed's scoring (champions.md section 4) before any card
 * power: a guide for the player, never the score itself (the server resolves the over).
 */
export function overScore(runSets, over) {
  const bat = (over.batting && over.batting.faces) || [];
  const bowl = (over.bowling && over.bowling.faces) || [];
  let runs = (runSets || []).reduce((n, set) => n + Math.floor(countOf(bat, set.face) / set.size) * set.runs, 0);
  runs = Math.max(0, runs + countOf(bowl, 'wide') - countOf(bowl, 'save'));
  const defence = countOf(bat, 'defence') + ((over.batting && over.batting.bought_defence) || 0);
  const wickets = Math.max(0, countOf(bowl, 'wicket') - defence);
  return { runs, defence, wickets, bowled: bowl.length > 0, batted: bat.length > 0 };
}

function preview(view, over) {
  const { runs, defence, wickets, bowled, batted } = overScore(view.rules && view.rules.run_sets, over);
  if (!batted) return null;
  return h('p', { class: 'muted', 'data-testid': 'over-preview' },
    t(bowled ? 'champions.over.previewBowled' : 'champions.over.preview', { runs: runsText(runs), defence, wickets: wicketsText(wickets) }));
}

function overPanel(view, ctx) {
  const over = view.over;
  if (!over) {
    if (view.buyer !== null && view.buyer !== undefined) return h('p', {}, t('champions.over.atMarket', { name: playerName(ctx, view.buyer) }));
    return h('p', { class: 'muted' }, t('champions.over.between'));
  }
  const side = (role, seat, turn, kind) => h('div', { class: 'turn-box' },
    h('h4', {}, seat === null || seat === undefined ? t('champions.over.noBowler') : t(`champions.over.${role}`, { name: playerName(ctx, seat) }),
      turn ? h('small', { class: 'muted' }, ` · ${t(turn.finished ? 'champions.over.rollFinal' : 'champions.over.roll', { used: turn.rolls_used, limit: turn.roll_limit })}`) : null),
    turn && turn.faces && turn.faces.length ? facesRow(turn.faces, kind) : h('p', { class: 'muted' }, t('champions.over.notRolled')),
    turn && turn.bought_defence ? h('small', {}, t('champions.over.boughtDefence', { count: turn.bought_defence })) : null);
  return h('div', { 'data-testid': 'over' },
    side('batting', over.batsman, over.batting, 'batting'),
    side('bowling', over.bowler, over.bowling, 'bowling'),
    preview(view, over));
}

function lastOver(view, ctx) {
  const last = view.last_over;
  if (!last) return h('p', { class: 'muted' }, t('champions.last.none'));
  const r = last.result || {};
  const params = { round: last.round, name: capital(playerName(ctx, last.batsman)), runs: runsText(r.runs ?? 0), wickets: wicketsText(r.wickets ?? 0) };
  const bowled = last.bowler !== null && last.bowler !== undefined;
  if (bowled) params.bowler = playerName(ctx, last.bowler);
  return h('div', { 'data-testid': 'last-over' },
    h('p', {}, rich(bowled ? 'champions.last.line' : 'champions.last.lineNoBowler', params, ['runs'])),
    h('p', { class: 'muted' }, t('champions.last.detail', {
      dice: r.dice_runs ?? 0, wides: r.wides ?? 0, saved: r.saved ?? 0, bonus: r.bonus_runs ?? 0, batsmanXp: r.batsman_xp ?? 0, bowlerXp: r.bowler_xp ?? 0,
    })),
    facesRow(last.batting_faces, 'batting'),
    h('div', { style: 'height:0.4rem' }),
    facesRow(last.bowling_faces, 'bowling'));
}

function xpCard(card, { buyable, onBuy, busy } = {}) {
  return h(buyable ? 'button' : 'div', {
    class: ['xp-card', card.colour],
    disabled: buyable ? busy : undefined,
    'data-testid': `xp-${card.id}`,
    'data-action': buyable ? 'buy' : undefined,
    title: buyable ? t('champions.market.buyTitle', { card: cardName(card), cost: card.cost }) : cardEffect(card),
    onclick: buyable ? onBuy : undefined,
  },
  h('span', {}, h('span', { class: 'cost' }, t('champions.xpAmount', { xp: card.cost })), ' · ', colourName(card.colour)),
  h('strong', {}, cardName(card)),
  h('small', {}, cardEffect(card)));
}

function roundOf(view) {
  return t('champions.round', { round: view.round, rounds: view.rules ? view.rules.rounds : 5 });
}

function board(view, ctx) {
  const ask = view.ask;
  const buying = ask && ask.ask === 'buy' && !ctx.spectate;
  const affordable = new Set(buying ? ask.affordable : []);
  return h('div', { class: 'board' },
    h('div', { class: 'panel' },
      h('h3', {}, roundOf(view)),
      scoreboard(view, ctx)),
    panel(t('champions.last.title'), lastOver(view, ctx)),
    panel(view.draw_pile_size === undefined ? t('champions.market.titleUnknown') : t('champions.market.title', { count: view.draw_pile_size }), h('div', { class: 'market', 'data-testid': 'market' },
      (view.market || []).map((card) => xpCard(card, {
        buyable: affordable.has(card.id),
        busy: ctx.busy,
        onBuy: () => ctx.send({ type: 'buy', card: card.id }),
      })))),
    panel(t('champions.championshipsTitle'), h('div', { class: 'champ-cards' }, (view.championships || []).map((c) =>
      h('span', { class: ['champ-card', c.holders && c.holders.length && 'taken'], title: awardText(c.card.award) },
        t('champions.championship', { name: championshipName(c.card), points: c.card.points }),
        c.holders && c.holders.length ? ` · ${c.holders.map((s) => playerName(ctx, s)).join(', ')}` : '')))),
  );
}

/** The standings in one line: "Round 2 of 5 · You 12 (7 pts) · the bot 9 (8 pts)". */
function headline(view, ctx) {
  const points = view.points || [];
  return h('div', { class: 'headline' },
    h('span', { class: 'headline-team' }, roundOf(view)),
    h('span', { class: 'headline-seats', 'data-testid': 'headline-score' }, (view.players || []).map((p, i) =>
      h('span', { class: ['headline-seat', p.seat === ctx.seat && !ctx.spectate && 'me', p.eliminated && 'out'] },
        `${capital(playerName(ctx, p.seat))} `, h('strong', {}, String(p.runs)), `/${p.wickets_lost}`,
        h('small', { class: 'muted' }, ` ${t('champions.n.points', { count: (points[i] || {}).total ?? 0 })}`)))));
}

/** The over in play, both sets of dice, beside the question. */
function dicePanel(view, ctx) {
  if (!view.over) return null;
  return h('section', { class: 'panel compact' }, h('h3', {}, t('champions.over.title')), overPanel(view, ctx));
}

/** The banner after each over (Champions has no balls): runs, wickets and the final dice. */
const ball = {
  ends: (event) => event.type === 'over_resolved',
  outcome(end, events, ctx) {
    const r = end.result || {};
    const who = (seat) => capital(playerName(ctx, seat));
    const finals = {};
    for (const e of events) if (e.type === 'turn_ended' || e.type === 'dice_rolled') finals[e.seat] = e.faces;
    const dice = [];
    // The label on the first die of each set only: "Bat 1 2 Xp …  Bowl W • …".
    (finals[end.batsman] || []).forEach((face, i) => dice.push({ name: i ? '' : t('champions.banner.bat'), value: faceText(face), kind: 'batting' }));
    if (end.bowler !== null && end.bowler !== undefined) (finals[end.bowler] || []).forEach((face, i) => dice.push({ name: i ? '' : t('champions.banner.bowl'), value: faceText(face), kind: 'bowling' }));
    const kind = r.wickets ? 'out' : r.runs >= 6 ? 'six' : r.runs >= 4 ? 'four' : r.runs ? 'runs' : 'dot';
    const text = r.wickets
      ? t('champions.banner.textWickets', { name: who(end.batsman), runs: runsText(r.runs || 0), wickets: wicketsText(r.wickets) })
      : t('champions.banner.text', { name: who(end.batsman), runs: runsText(r.runs || 0) });
    const bits = [];
    if (end.bowler !== null && end.bowler !== undefined) bits.push(t('champions.banner.bowledBy', { name: playerName(ctx, end.bowler) }));
    if (r.wides) bits.push(t('champions.banner.wides', { count: r.wides }));
    if (r.saved) bits.push(t('champions.banner.saved', { count: r.saved }));
    if (r.bonus_runs) bits.push(t('champions.banner.bonus', { count: r.bonus_runs }));
    return { kind, text, detail: bits.join(' · '), dice, label: t('champions.banner.label') };
  },
};

/** The re-roll selection survives redraws of the same roll, and resets on a new roll. */
function selection(ctx, ask) {
  const key = JSON.stringify([ask.role, ask.rolls_left, ask.faces]);
  if (ctx.ui.champKey !== key) {
    ctx.ui.champKey = key;
    ctx.ui.reroll = new Set();
    ctx.ui.powers = {};
  }
  return ctx.ui.reroll;
}

function diceDecision(ask, ctx) {
  const kind = ask.role === 'batting' ? 'batting' : 'bowling';
  const role = kind;
  if (ask.first_roll) {
    return h('div', {},
      h('p', {}, t(`champions.decision.first.${role}`, { count: ask.rolls_left })),
      h('button', { class: 'primary', 'data-action': 'roll', disabled: ctx.busy, onclick: () => ctx.send({ type: 'roll', dice: [] }) }, t('champions.decision.roll')));
  }
  const reroll = selection(ctx, ask);
  // The dice row marks kept dice as "held"; clicking a die moves it in or out of the re-roll.
  const held = new Set(ask.faces.map((_, i) => i).filter((i) => !reroll.has(i)));
  const toggle = (i) => {
    if (reroll.has(i)) reroll.delete(i);
    else reroll.add(i);
    ctx.redraw();
  };
  const powers = (ask.powers || []).map((p) => powerControl(p, ask, ctx));
  const stop = () => {
    const uses = [];
    for (const p of ask.powers || []) {
      const chosen = ctx.ui.powers[p.card];
      if (chosen === undefined || chosen === '' || chosen === null) continue;
      if (p.hook.kind === 'set_die') uses.push({ kind: 'set_die', card: p.card, die: Number(chosen) });
      else if (p.hook.kind === 'buy_defence' && Number(chosen) > 0) uses.push({ kind: 'buy_defence', card: p.card, times: Number(chosen) });
    }
    ctx.send({ type: 'stop', powers: uses });
  };
  return h('div', {},
    h('p', {}, t(ask.rolls_left > 0 ? `champions.decision.reroll.${role}` : `champions.decision.last.${role}`, { count: ask.rolls_left })),
    h('div', { 'data-testid': 'my-dice' }, diceRow(ask.faces, { kind, held, onToggle: ask.rolls_left > 0 ? toggle : undefined })),
    powers.length ? h('div', { class: 'powers' }, h('h4', {}, t('champions.decision.powers')), powers) : null,
    h('div', { class: 'buttons' },
      ask.rolls_left > 0
        ? h('button', { 'data-action': 'reroll', disabled: ctx.busy || reroll.size === 0, onclick: () => ctx.send({ type: 'roll', dice: [...reroll].sort((a, b) => a - b) }) }, (reroll.size ? t('champions.decision.rerollButton', { count: reroll.size }) : t('champions.decision.rerollNone')))
        : null,
      h('button', { class: 'primary', 'data-action': 'stop', disabled: ctx.busy, onclick: stop }, t('champions.decision.stop'))));
}

/** The card a power belongs to, from the seat's own cards in the view. */
function ownCard(ctx, id) {
  const view = ctx.view || {};
  for (const p of view.players || []) for (const c of p.cards || []) if (c.id === id) return c;
  return id;
}

function powerControl(power, ask, ctx) {
  const hook = power.hook || {};
  const name = cardName(ownCard(ctx, power.card));
  if (hook.kind === 'set_die') {
    return h('label', { class: 'opt' }, h('span', {}, t('champions.power.setDie', { card: name, face: faceName(hook.face) })),
      h('select', { onchange: (e) => { ctx.ui.powers[power.card] = e.target.value; } },
        h('option', { value: '' }, t('champions.power.notUsed')),
        ask.faces.map((f, i) => h('option', { value: String(i), selected: String(ctx.ui.powers[power.card]) === String(i) }, t('champions.power.die', { n: i + 1, face: faceText(f) })))));
  }
  if (hook.kind === 'buy_defence') {
    return h('label', { class: 'opt' }, h('span', {}, t('champions.power.buyDefence', { card: name, xp: hook.xp_per_defence })),
      h('input', { type: 'number', min: 0, max: power.max_times ?? 0, value: ctx.ui.powers[power.card] ?? 0, oninput: (e) => { ctx.ui.powers[power.card] = e.target.value; } }));
  }
  return h('p', { class: 'muted' }, t('champions.power.other', { card: name, effect: hookText(hook) }));
}

function decision(view, ctx) {
  const ask = view.ask;
  if (!ask) return null;
  if (ask.ask === 'dice') return diceDecision(ask, { ...ctx, view: ctx.view || view });
  if (ask.ask === 'buy') {
    const cards = new Map((view.market || []).map((c) => [c.id, c]));
    return h('div', {},
      h('p', {}, t('champions.decision.buy', { xp: ask.xp })),
      h('div', { class: 'buttons' },
        ask.affordable.map((id) => h('button', { 'data-action': 'buy', disabled: ctx.busy, onclick: () => ctx.send({ type: 'buy', card: id }) },
          t('champions.decision.buyCard', { card: cardName(cards.get(id) || id), cost: cards.get(id)?.cost ?? '?' }))),
        h('button', { class: 'primary', 'data-action': 'pass', disabled: ctx.busy, onclick: () => ctx.send({ type: 'pass' }) }, t('champions.decision.pass'))));
  }
  return null;
}

/** A card by id, with its definition when the state or view holds one. */
function cardById(ctx, id) {
  const state = ctx.story || ctx.view || {};
  if (state.defs && state.defs[id]) return state.defs[id];
  for (const c of state.market || []) if (c.id === id) return c;
  for (const p of state.players || []) for (const c of p.cards || []) if (c.id === id) return c;
  return id;
}

function championshipById(ctx, id) {
  const state = ctx.story || ctx.view || {};
  const found = (state.championships || []).find((c) => c.card && c.card.id === id);
  return found ? found.card : { id };
}

function matchEnded(event, ctx) {
  const placings = event.placings || [];
  const winners = placings.map((p, seat) => (p === 1 ? seat : null)).filter((s) => s !== null);
  if (!winners.length) return t('champions.event.matchOver');
  const best = ((event.points || [])[winners[0]] || {}).total ?? 0;
  if (winners.length > 1) {
    return t('champions.event.matchShared', { names: winners.map((s) => playerName(ctx, s)).join(', '), count: best });
  }
  return said(ctx, 'champions.event.matchWon', winners[0], { count: best });
}

function describe(event, ctx) {
  const who = (seat) => (seat === null || seat === undefined ? t('champions.nobody') : playerName(ctx, seat));
  switch (event.type) {
    case 'deck_shuffled': return t('champions.event.shuffled', { count: event.market.length });
    case 'round_started': return t('champions.event.round', { round: event.round, order: event.order.map(who).join(', ') });
    case 'over_started': {
      const batYou = isYou(ctx, event.batsman, who(event.batsman));
      if (event.bowler === null || event.bowler === undefined) return t(batYou ? 'champions.event.overNoBowler.you' : 'champions.event.overNoBowler.other', { batsman: who(event.batsman) });
      const bowlYou = isYou(ctx, event.bowler, who(event.bowler));
      const key = batYou ? 'batYou' : bowlYou ? 'bowlYou' : 'other';
      return t(`champions.event.over.${key}`, { batsman: who(event.batsman), bowler: who(event.bowler) });
    }
    case 'dice_rolled': return said(ctx, 'champions.event.rolled', event.seat, { role: roleWord(event.role), roll: event.roll, faces: facesLine(event.faces) });
    case 'turn_ended': return event.powers.length
      ? said(ctx, 'champions.event.stoppedPowers', event.seat, { faces: facesLine(event.faces), cards: event.powers.map((p) => cardName(cardById(ctx, p.card))).join(', ') })
      : said(ctx, 'champions.event.stopped', event.seat, { faces: facesLine(event.faces) });
    case 'over_resolved': return t('champions.event.resolved', { name: who(event.batsman), runs: runsText(event.result.runs), wickets: wicketsText(event.result.wickets) });
    case 'championship_won': return said(ctx, 'champions.event.championship', event.seat, { card: championshipName(championshipById(ctx, event.card)) });
    case 'player_eliminated': return said(ctx, 'champions.event.eliminated', event.seat);
    case 'buy_turn': return null;
    case 'card_bought': return said(ctx, 'champions.event.bought', event.seat, { card: cardName(cardById(ctx, event.card)), cost: event.cost });
    case 'passed': return said(ctx, 'champions.event.passed', event.seat);
    case 'match_ended': return matchEnded(event, ctx);
    default: return summary(event);
  }
}

/** Rules in brief, for the How to play panel (read at draw time, in the language on screen). */
const champions = {
  board, decision, describe, optionFields, headline, dicePanel, ball,
  get help() {
    return ['round', 'batting', 'bowling', 'market'].map((k) => t(`champions.howTo.${k}`));
  },
};

/** The lobby's fields for Champions' options. */
function optionFields({ field, number }) {
  return [field('players', number('players', 3, 2, 5), t('champions.options.playersHint'))];
}

/** How the replay moves the score: Champions has no balls, so an over is a step. */
const replay = {
  step: 'over_resolved',
  apply(score, event) {
    if (event.type !== 'over_resolved') return;
    score.seats ||= {};
    const line = (score.seats[event.batsman] ||= { runs: 0, wickets: 0 });
    line.runs += event.result.runs;
    if (event.bowler !== null && event.bowler !== undefined) {
      const bowler = (score.seats[event.bowler] ||= { runs: 0, wickets: 0 });
      bowler.wickets += event.result.wickets;
    }
  },
};

/**
 * The match as it stands after each event, folded from the events alone and shaped like the
 * engine's view, so the replay draws it with `board` and `headline`: the players' runs,
 * wickets, Xp and cards, the round and order, the last over with its dice, the market and
 * the championship cards' holders. From `base` it takes only what never changes: the rules,
 * the seats, the card definitions (by id, from the market and hands it shows) and the
 * championship cards. Points come with the match's end.
 */
const START_XP = 2;

const story = {
  init(base) {
    const defs = {};
    const remember = (card) => { if (card && card.id) defs[card.id] = card; };
    (base.market || []).forEach(remember);
    (base.players || []).forEach((p) => (p.cards || []).forEach(remember));
    return {
      rules: base.rules,
      defs,
      round: 0,
      order: [],
      players: (base.players || []).map((p) => ({ seat: p.seat, runs: 0, wickets_lost: 0, wickets_taken: 0, xp: 0, cards: [], eliminated: false })),
      points: [],
      over: null,
      last_over: null,
      market: [],
      draw_pile_size: undefined,
      championships: (base.championships || []).map((c) => ({ card: c.card, holders: [] })),
    };
  },
  apply(v, event) {
    const player = (seat) => v.players.find((p) => p.seat === seat);
    const card = (id) => v.defs[id] || { id, name: cardName(id), cost: '?', colour: '', text: '' };
    switch (event.type) {
      case 'deck_shuffled':
        // Everyone starts with the ruleset's Xp (data/champions/ruleset.json: start_xp).
        for (const p of v.players) p.xp = START_XP;
        v.market = (event.market || []).map(card);
        v.draw_pile_size = event.draw_pile ? event.draw_pile.size : undefined;
        break;
      case 'round_started': v.round = event.round; v.order = event.order || []; break;
      case 'over_started':
        v.over = {
          index: event.index,
          batsman: event.batsman,
          bowler: event.bowler ?? null,
          batting: { faces: [], rolls_used: 0, roll_limit: event.batting_rolls, finished: false, bought_defence: 0 },
          bowling: { faces: [], rolls_used: 0, roll_limit: event.bowling_rolls, finished: false, bought_defence: 0 },
        };
        break;
      case 'dice_rolled':
      case 'turn_ended': {
        const turn = v.over && v.over[event.role];
        if (turn) {
          if (event.type === 'dice_rolled') {
            // A roll names the dice it rolled (a re-roll only some): the others stay.
            const faces = [...turn.faces];
            (event.dice || []).forEach((die, i) => { faces[die] = event.faces[i]; });
            turn.faces = faces.map((f) => f ?? 'dot');
            turn.rolls_used = event.roll;
          } else {
            turn.faces = event.faces || [];
            turn.finished = true;
            turn.bought_defence = event.bought_defence || 0;
          }
        }
        if (event.type === 'turn_ended' && event.xp_spent && player(event.seat)) player(event.seat).xp = Math.max(0, player(event.seat).xp - event.xp_spent);
        break;
      }
      case 'over_resolved': {
        const r = event.result || {};
        const bat = player(event.batsman);
        const bowl = event.bowler == null ? null : player(event.bowler);
        if (bat) {
          bat.runs += r.runs || 0;
          bat.wickets_lost += r.wickets || 0;
          bat.xp += r.batsman_xp || 0;
        }
        if (bowl) {
          bowl.wickets_taken += r.wickets || 0;
          bowl.xp += r.bowler_xp || 0;
        }
        v.last_over = {
          round: v.round,
          batsman: event.batsman,
          bowler: event.bowler ?? null,
          result: r,
          batting_faces: v.over ? v.over.batting.faces : [],
          bowling_faces: v.over ? v.over.bowling.faces : [],
        };
        v.over = null;
        break;
      }
      case 'championship_won': {
        const c = v.championships.find((x) => x.card && x.card.id === event.card);
        if (c) c.holders.push(event.seat);
        break;
      }
      case 'player_eliminated': if (player(event.seat)) player(event.seat).eliminated = true; break;
      case 'card_bought': {
        const p = player(event.seat);
        if (p) {
          p.cards.push(card(event.card));
          p.xp = Math.max(0, p.xp - (event.cost || 0));
        }
        const at = v.market.findIndex((c) => c.id === event.card);
        if (at >= 0) {
          if (event.replacement) v.market.splice(at, 1, card(event.replacement));
          else v.market.splice(at, 1);
        }
        if (event.replacement && typeof v.draw_pile_size === 'number') v.draw_pile_size -= 1;
        break;
      }
      case 'match_ended': v.points = event.points || []; break;
      default:
    }
    return v;
  },
};

/** The live list's format label: "3 players". */
const describeOptions = (options) => t('champions.options.players', { count: Number(options && options.players) || 2 });

champions.story = story;
champions.replay = replay;
champions.describeOptions = describeOptions;

export default champions;
