// Cricket Champions screen: the scoreboard for every seat, the over in play with both sets
// of dice, re-roll selection (click dice to choose which to roll again), Xp card powers on
// stop, the Xp market and the championship cards.
//
// Commands (engine `Command`, tag "type"): roll {dice: [indices]}, stop {powers},
// buy {card}, pass.

import { h, label, summary } from '../dom.js';
import { diceRow, panel } from '../ui.js';
import { count, does, namedSeats } from '../words.js';

const FACE_TEXT = { one: '1', two: '2', four: '4', six: '6', xp: 'Xp', defence: 'Def', wicket: 'W', wide: 'Wd', dot: '•', save: 'Save' };

const faceText = (face) => FACE_TEXT[face] ?? label(face);

function facesRow(faces, kind, opts = {}) {
  return diceRow((faces || []).map(faceText), { kind, ...opts });
}

function playerName(ctx, seat) {
  return ctx.seatName ? ctx.seatName(seat) : `player ${Number(seat) + 1}`;
}

const capital = (text) => `${text.charAt(0).toUpperCase()}${text.slice(1)}`;

function scoreboard(view, ctx) {
  const over = view.over;
  const active = over ? (over.batting && !over.batting.finished ? over.batsman : over.bowler) : view.buyer;
  const rows = (view.players || []).map((p, i) => {
    const points = (view.points || [])[i] || {};
    const order = (view.order || []).indexOf(p.seat);
    return h('tr', { class: [p.seat === ctx.seat && 'me', p.eliminated && 'out', p.seat === active && 'active'], 'data-seat': String(p.seat) },
      h('td', {}, capital(playerName(ctx, p.seat)), order >= 0 ? h('small', { class: 'muted' }, ` #${order + 1}`) : null),
      h('td', {}, String(p.runs)),
      h('td', {}, `${p.wickets_lost}/${view.rules ? view.rules.elimination_wickets : 10}`),
      h('td', {}, String(p.wickets_taken)),
      h('td', {}, String(p.xp)),
      h('td', {}, (p.cards || []).map((c) => c.name).join(', ') || '-'),
      h('td', {}, h('strong', {}, String(points.total ?? '-')), points.championship ? h('small', { class: 'muted' }, ` (${count(points.championship, 'card')})`) : null),
    );
  });
  return h('table', { class: 'seats', 'data-testid': 'champions-scoreboard' },
    h('thead', {}, h('tr', {}, ['Player', 'Runs', 'Wkts lost', 'Wkts taken', 'Xp', 'Cards', 'Points'].map((t) => h('th', {}, t)))),
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
    `As the dice stand (before card powers): ${count(runs, 'run')}, ${defence} Defence`,
    bowled ? `, ${count(wickets, 'wicket')}` : '', '.');
}

function overPanel(view, ctx) {
  const over = view.over;
  if (!over) {
    if (view.buyer !== null && view.buyer !== undefined) return h("p", {}, `At the Xp market now: ${playerName(ctx, view.buyer)}.`);
    return h('p', { class: 'muted' }, 'Between overs.');
  }
  const side = (name, seat, turn, kind) => h('div', { class: 'turn-box' },
    h('h4', {}, `${name}: ${seat === null || seat === undefined ? 'no bowler (eliminated)' : playerName(ctx, seat)}`,
      turn ? h('small', { class: 'muted' }, ` · roll ${turn.rolls_used}/${turn.roll_limit}${turn.finished ? ' · final' : ''}`) : null),
    turn && turn.faces && turn.faces.length ? facesRow(turn.faces, kind) : h('p', { class: 'muted' }, 'Not rolled yet.'),
    turn && turn.bought_defence ? h('small', {}, `+${turn.bought_defence} Defence bought`) : null);
  return h('div', { 'data-testid': 'over' },
    side('Batting', over.batsman, over.batting, 'batting'),
    side('Bowling', over.bowler, over.bowling, 'bowling'),
    preview(view, over));
}

function lastOver(view, ctx) {
  const last = view.last_over;
  if (!last) return h('p', { class: 'muted' }, 'No over finished yet.');
  const r = last.result || {};
  return h('div', { 'data-testid': 'last-over' },
    h('p', {}, `Round ${last.round}: ${capital(playerName(ctx, last.batsman))} scored `, h('strong', {}, count(r.runs ?? 0, 'run')),
      `, lost ${count(r.wickets ?? 0, 'wicket')}`,
      last.bowler !== null && last.bowler !== undefined ? ` against ${playerName(ctx, last.bowler)}` : '', '.'),
    h('p', { class: 'muted' }, `Dice runs ${r.dice_runs ?? 0}, wides ${r.wides ?? 0}, saved ${r.saved ?? 0}, bonus ${r.bonus_runs ?? 0}; Xp: batsman +${r.batsman_xp ?? 0}, bowler +${r.bowler_xp ?? 0}.`),
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
    title: buyable ? `Buy ${card.name} for ${card.cost} Xp` : card.text,
    onclick: buyable ? onBuy : undefined,
  },
  h('span', {}, h('span', { class: 'cost' }, `${card.cost} Xp`), ' · ', label(card.colour)),
  h('strong', {}, card.name),
  h('small', {}, card.text));
}

function board(view, ctx) {
  const ask = view.ask;
  const buying = ask && ask.ask === 'buy' && !ctx.spectate;
  const affordable = new Set(buying ? ask.affordable : []);
  return h('div', { class: 'board' },
    h('div', { class: 'panel' },
      h('h3', {}, `Round ${view.round} of ${view.rules ? view.rules.rounds : 5}`),
      scoreboard(view, ctx)),
    panel('Last over', lastOver(view, ctx)),
    panel(`Xp market (${view.draw_pile_size === undefined ? '?' : count(view.draw_pile_size, 'card')} in the pile)`, h('div', { class: 'market', 'data-testid': 'market' },
      (view.market || []).map((card) => xpCard(card, {
        buyable: affordable.has(card.id),
        busy: ctx.busy,
        onBuy: () => ctx.send({ type: 'buy', card: card.id }),
      })))),
    panel('Championship cards', h('div', { class: 'champ-cards' }, (view.championships || []).map((c) =>
      h('span', { class: ['champ-card', c.holders && c.holders.length && 'taken'], title: summary(c.card.award) },
        `${c.card.name} +${c.card.points}`, c.holders && c.holders.length ? ` · ${c.holders.map((s) => playerName(ctx, s)).join(', ')}` : '')))),
  );
}

/** The standings in one line: "Round 2 of 5 · You 12 (7 pts) · the bot 9 (8 pts)". */
function headline(view, ctx) {
  const points = view.points || [];
  return h('div', { class: 'headline' },
    h('span', { class: 'headline-team' }, `Round ${view.round} of ${view.rules ? view.rules.rounds : 5}`),
    h('span', { class: 'headline-seats', 'data-testid': 'headline-score' }, (view.players || []).map((p, i) =>
      h('span', { class: ['headline-seat', p.seat === ctx.seat && !ctx.spectate && 'me', p.eliminated && 'out'] },
        `${capital(playerName(ctx, p.seat))} `, h('strong', {}, String(p.runs)), `/${p.wickets_lost}`,
        h('small', { class: 'muted' }, ` ${count((points[i] || {}).total ?? 0, 'pt')}`)))));
}

/** The over in play, both sets of dice, beside the question. */
function dicePanel(view, ctx) {
  if (!view.over) return null;
  return h('section', { class: 'panel compact' }, h('h3', {}, 'The over'), overPanel(view, ctx));
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
    (finals[end.batsman] || []).forEach((face, i) => dice.push({ name: i ? '' : 'Bat', value: faceText(face), kind: 'batting' }));
    if (end.bowler !== null && end.bowler !== undefined) (finals[end.bowler] || []).forEach((face, i) => dice.push({ name: i ? '' : 'Bowl', value: faceText(face), kind: 'bowling' }));
    const kind = r.wickets ? 'out' : r.runs >= 6 ? 'six' : r.runs >= 4 ? 'four' : r.runs ? 'runs' : 'dot';
    const text = `${who(end.batsman)}: ${count(r.runs || 0, 'run')}${r.wickets ? `, ${count(r.wickets, 'wicket')}` : ''}`;
    const bits = [];
    if (end.bowler !== null && end.bowler !== undefined) bits.push(`bowled by ${playerName(ctx, end.bowler)}`);
    if (r.wides) bits.push(count(r.wides, 'wide'));
    if (r.saved) bits.push(`${count(r.saved, 'run')} saved`);
    if (r.bonus_runs) bits.push(`${count(r.bonus_runs, 'bonus run')}`);
    return { kind, text, detail: bits.join(' · '), dice, label: 'Last over' };
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
  if (ask.first_roll) {
    return h('div', {},
      h('p', {}, `You are ${ask.role}: roll your six dice (${ask.rolls_left} rolls this over).`),
      h('button', { class: 'primary', 'data-action': 'roll', disabled: ctx.busy, onclick: () => ctx.send({ type: 'roll', dice: [] }) }, 'Roll the dice'));
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
    h('p', {}, `You are ${ask.role}. ${count(ask.rolls_left, 're-roll')} left. Click the dice to re-roll (dashed) or keep (green).`),
    h('div', { 'data-testid': 'my-dice' }, diceRow(ask.faces.map(faceText), { kind, held, onToggle: ask.rolls_left > 0 ? toggle : undefined })),
    powers.length ? h('div', { class: 'powers' }, h('h4', {}, 'Card powers when you stop'), powers) : null,
    h('div', { class: 'buttons' },
      ask.rolls_left > 0
        ? h('button', { 'data-action': 'reroll', disabled: ctx.busy || reroll.size === 0, onclick: () => ctx.send({ type: 'roll', dice: [...reroll].sort((a, b) => a - b) }) }, `Re-roll ${reroll.size} ${reroll.size === 1 ? 'die' : 'dice'}`)
        : null,
      h('button', { class: 'primary', 'data-action': 'stop', disabled: ctx.busy, onclick: stop }, 'Stop: these dice are final')));
}

function powerControl(power, ask, ctx) {
  const hook = power.hook || {};
  if (hook.kind === 'set_die') {
    return h('label', { class: 'opt' }, h('span', {}, `${label(power.card)}: set a die to ${faceText(hook.face)}`),
      h('select', { onchange: (e) => { ctx.ui.powers[power.card] = e.target.value; } },
        h('option', { value: '' }, 'not used'),
        ask.faces.map((f, i) => h('option', { value: String(i), selected: String(ctx.ui.powers[power.card]) === String(i) }, `die ${i + 1} (${faceText(f)})`))));
  }
  if (hook.kind === 'buy_defence') {
    return h('label', { class: 'opt' }, h('span', {}, `${label(power.card)}: ${hook.xp_per_defence} Xp per Defence`),
      h('input', { type: 'number', min: 0, max: power.max_times ?? 0, value: ctx.ui.powers[power.card] ?? 0, oninput: (e) => { ctx.ui.powers[power.card] = e.target.value; } }));
  }
  return h('p', { class: 'muted' }, `${label(power.card)}: ${summary(hook)}`);
}

function decision(view, ctx) {
  const ask = view.ask;
  if (!ask) return null;
  if (ask.ask === 'dice') return diceDecision(ask, ctx);
  if (ask.ask === 'buy') {
    const names = new Map((view.market || []).map((c) => [c.id, c]));
    return h('div', {},
      h('p', {}, `Your turn at the market: you have ${ask.xp} Xp. Click a card in the market to buy it, or pass.`),
      h('div', { class: 'buttons' },
        ask.affordable.map((id) => h('button', { 'data-action': 'buy', disabled: ctx.busy, onclick: () => ctx.send({ type: 'buy', card: id }) }, `Buy ${names.get(id)?.name ?? label(id)} (${names.get(id)?.cost ?? '?'} Xp)`)),
        h('button', { class: 'primary', 'data-action': 'pass', disabled: ctx.busy, onclick: () => ctx.send({ type: 'pass' }) }, 'Pass')));
  }
  return null;
}

function describe(event, ctx) {
  const who = (seat) => (seat === null || seat === undefined ? 'nobody' : playerName(ctx, seat));
  switch (event.type) {
    case 'deck_shuffled': return `The Xp cards are shuffled; ${event.market.length} go to the market.`;
    case 'round_started': return `Round ${event.round} begins. Order: ${event.order.map(who).join(', ')}.`;
    case 'over_started': return `${does(who(event.batsman), 'bats', 'bat')}, ${event.bowler == null ? 'no bowler' : does(who(event.bowler), 'bowls', 'bowl')}.`;
    case 'dice_rolled': return `${does(who(event.seat), 'rolls', 'roll')} (${event.role}, roll ${event.roll}): ${event.faces.map(faceText).join(' ')}`;
    case 'turn_ended': return `${does(who(event.seat), 'stops', 'stop')} with ${event.faces.map(faceText).join(' ')}${event.powers.length ? ` using ${event.powers.map((p) => label(p.card)).join(', ')}` : ''}.`;
    case 'over_resolved': return `Over: ${who(event.batsman)} +${count(event.result.runs, 'run')}, ${count(event.result.wickets, 'wicket')}.`;
    case 'championship_won': return `${does(who(event.seat), 'wins', 'win')} the championship card ${label(event.card)}!`;
    case 'player_eliminated': return `${does(who(event.seat), 'is', 'are')} all out and eliminated.`;
    case 'buy_turn': return null;
    case 'card_bought': return `${does(who(event.seat), 'buys', 'buy')} ${label(event.card)} for ${event.cost} Xp.`;
    case 'passed': return `${does(who(event.seat), 'passes', 'pass')} at the market.`;
    case 'match_ended': return `Match over: ${namedSeats(event.summary, (seat) => playerName(ctx, seat))}`;
    default: return summary(event);
  }
}


/** Rules in brief, for the How to play panel. */
const help = [
  'Each round every player bats one over and bowls one over.',
  'Batting: roll six dice up to three times, keeping any you like. 1 = a run, a pair of 2s = 2, three 4s = 4, four 6s = 6. Xp faces earn Xp.',
  'Bowling: roll against the batter\'s final dice. Wicket faces take wickets (minus Defence), Save removes a run, Wide gives one.',
  'Spend Xp on market cards between overs. After five rounds: 1 point per run and per wicket, card points, 1 per 3 unused Xp.',
];

/** The lobby's fields for Champions' options. */
function optionFields({ field, number }) {
  return [field('players', number('players', 3, 2, 5), '2 to 5 seats; with the bot, every other seat is a bot')];
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
    const card = (id) => v.defs[id] || { id, name: label(id), cost: '?', colour: '', text: '' };
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
const describeOptions = (options) => count(Number(options && options.players) || 2, 'player');

export default { board, decision, describe, story, help, optionFields, replay, describeOptions, headline, dicePanel, ball };
