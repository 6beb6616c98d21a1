// Wicketz screen: the bowling indicator (the delivery spun this ball), the stroke to
// nominate, the result card that was dealt (its row for the chosen stroke highlighted),
// the field of 17 directions by 4 rings, and the scoreboard of every innings.
//
// Commands (engine `Command`, tag "type"): choose_innings {bat}, set_over {style, field,
// line}, play {stroke, wild_card}. Positions travel as "A0".."Q3".

import { h, label, summary } from '../dom.js';
import { stat, panel } from '../ui.js';
import { namedSeats } from '../words.js';
import { t, tOr } from '../i18n.js';

const LETTERS = 'ABCDEFGHIJKLMNOPQ';
const RESPECT = new Set(['good_length', 'yorker', 'bouncer', 'googly']);
const RING_R = [30, 52, 72, 91];
const RING_EDGE = [41, 62, 82, 101];

const pos = (p) => (typeof p === 'string' ? p : p ? `${LETTERS[p.letter]}${p.ring}` : '');
const angleOf = (letter) => 180 + (LETTERS.indexOf(letter) * 360) / 17;

// Names of the engine's enums, from the catalogue (an unknown value falls back to its label).
const named = (group, value) => (value === null || value === undefined ? '' : tOr(`wicketz.${group}.${value}`, label(value)));
export const deliveryName = (d) => named('delivery', d);
export const strokeName = (s) => named('stroke', s);
export const styleName = (s) => named('style', s);
export const lineName = (l) => named('line', l);
export const howName = (how) => named('how', typeof how === 'string' ? how : how && (how.kind || Object.keys(how)[0]));
const runsText = (n) => (n ? t('wicketz.runs', { count: n }) : t('wicketz.noRun'));
const joined = (bits) => bits.reduce((a, b) => t('wicketz.join', { a, b }));

// The result column of a card, printed in English on the cards: shown from the catalogue.
const CARD_TEXTS = {
  '- -': 'empty',
  'Bowled if yorker': 'bowled_if_yorker',
  'Bowled if good length': 'bowled_if_good_length',
  'Bowled if googly': 'bowled_if_googly',
  'L.B.W. if good length': 'lbw_if_good_length',
  'L.B.W. if yorker': 'lbw_if_yorker',
  'L.B.W. if googly': 'lbw_if_googly',
  '1 bye': 'one_bye',
  'Run out if occupied': 'run_out_if_occupied',
  'Played and missed': 'played_and_missed',
  'add overthrow/s': 'overthrows',
};
export const cardText = (text) => (CARD_TEXTS[text] ? t(`wicketz.cardText.${CARD_TEXTS[text]}`) : String(text ?? ''));

// The Merit ratings as the engine names them (data/wicketz/ruleset.json `merit`).
const MERITS = { Brilliant: 'brilliant', 'Very Good': 'very_good', Good: 'good', Fair: 'fair', Poor: 'poor', 'Back to the practice nets!': 'nets' };
export const meritName = (merit) => (MERITS[merit] ? t(`wicketz.merit.${MERITS[merit]}`) : String(merit ?? ''));

function point(r, deg) {
  const rad = (deg * Math.PI) / 180;
  return [r * Math.sin(rad), -r * Math.cos(rad)];
}

/** The field: every letter/ring spot, fielders as white dots, keeper and bowler marked. */
export function fieldPicture(field, { onToggle, highlight, ringLabels = false } = {}) {
  const fielders = new Set((field && field.fielders ? field.fielders : []).map(pos));
  const keeper = field ? pos(field.keeper) : '';
  const bowler = field ? pos(field.bowler) : '';
  const parts = [h('svg:circle', { cx: 0, cy: 0, r: 113, class: 'bg' })];
  for (const r of RING_EDGE) parts.push(h('svg:circle', { cx: 0, cy: 0, r, class: 'ring' }));
  for (const letter of LETTERS) {
    const deg = angleOf(letter);
    const [lx, ly] = point(107, deg);
    parts.push(h('svg:text', { x: lx, y: ly + 2 }, letter));
    for (let ring = 0; ring < 4; ring += 1) {
      const code = `${letter}${ring}`;
      const [x, y] = point(RING_R[ring], deg);
      const fixed = code === keeper || code === bowler;
      parts.push(h('svg:circle', {
        cx: x, cy: y, r: 4.6,
        class: ['pos', onToggle && !fixed && 'clickable'],
        'data-pos': code,
        onclick: onToggle && !fixed ? () => onToggle(code) : undefined,
        // Keyboard placing: each free position is a focusable button (Enter or Space).
        tabindex: onToggle && !fixed ? '0' : undefined,
        role: onToggle && !fixed ? 'button' : undefined,
        'aria-label': onToggle && !fixed ? t('wicketz.field.position', { code }) : undefined,
        'aria-pressed': onToggle && !fixed ? String(fielders.has(code)) : undefined,
        onkeydown: onToggle && !fixed
          ? (event) => {
              if (event.key !== 'Enter' && event.key !== ' ') return;
              event.preventDefault();
              onToggle(code);
            }
          : undefined,
      }, h('svg:title', {}, code)));
      if (fielders.has(code)) parts.push(h('svg:circle', { cx: x, cy: y, r: 3.8, class: 'fielder', 'pointer-events': 'none' }));
      if (fixed) parts.push(h('svg:text', { x, y: y + 2, 'pointer-events': 'none' }, code === keeper ? t('wicketz.field.keeperMark') : t('wicketz.field.bowlerMark')));
      if (highlight === code) parts.push(h('svg:circle', { cx: x, cy: y, r: 7, fill: 'none', stroke: '#ffe27a', 'stroke-width': 1.5, 'pointer-events': 'none' }));
    }
  }
  // The rings' numbers, between A and B (the rules reference's picture).
  if (ringLabels) {
    const deg = angleOf('A') + 180 / 17;
    RING_R.forEach((r, ring) => {
      const [x, y] = point(r, deg);
      parts.push(h('svg:text', { x, y: y + 2, class: 'ring-label', 'pointer-events': 'none' }, String(ring)));
    });
  }
  parts.push(h('svg:rect', { x: -2.5, y: -10, width: 5, height: 20, fill: '#d9c38f' }));
  return h('svg:svg', { viewBox: '-116 -116 232 232', class: 'wz-field', role: onToggle ? 'group' : 'img', 'aria-label': onToggle ? t('wicketz.field.ariaEditing') : t('wicketz.field.aria') }, parts);
}

function innings(view) {
  return Array.isArray(view.innings) ? view.innings : [];
}

// How many cards a view's card set holds (`cards_to_come`: one hex digit per four cards,
// src/rules/wicketz/card_set.rs).
export function cardsInSet(hex) {
  let count = 0;
  for (const digit of hex || '') {
    for (let bits = parseInt(digit, 16) || 0; bits; bits >>= 1) count += bits & 1;
  }
  return count;
}

/** The cards not yet dealt this cycle: from the live view's set, or the replay's count. */
function toCome(view) {
  if (view.cards_to_come) return cardsInSet(view.cards_to_come);
  return typeof view.cards_to_come_count === 'number' ? view.cards_to_come_count : null;
}

function scoreboard(view, ctx) {
  const list = innings(view);
  const current = list[list.length - 1];
  const overs = view.options ? view.options.overs : 20;
  const ov = (balls) => `${Math.floor((balls || 0) / 6)}.${(balls || 0) % 6}`;
  return h('div', { class: 'panel', 'data-testid': 'scoreboard' },
    h('h3', {}, current ? t('wicketz.scoreboard.inningsBatting', { number: current.number, name: ctx.seatName(current.batting) }) : t('wicketz.scoreboard.beforeToss')),
    current ? h('div', { class: 'scoreline', 'data-testid': 'score' }, `${current.runs}/${current.wickets}`, h('small', {}, t('wicketz.scoreboard.after', { overs: ov(current.legal_balls), total: overs }))) : null,
    h('div', { class: 'stat-row' },
      current ? stat(t('wicketz.scoreboard.extras'), current.extras) : null,
      view.target ? stat(t('wicketz.scoreboard.target'), view.target, 'target') : null,
      view.target && current ? stat(t('wicketz.scoreboard.need'), Math.max(0, view.target - current.runs)) : null,
      stat(t('wicketz.scoreboard.cardsLeft'), view.cards_in_dispenser),
      toCome(view) === null ? null : stat(t('wicketz.scoreboard.toCome'), toCome(view), 'to-come')),
    list.length > 1 || (current && current.closed)
      ? h('table', { class: 'seats' }, h('tbody', {}, list.map((i) => h('tr', {},
        h('td', {}, t('wicketz.scoreboard.innings', { number: i.number })), h('td', {}, ctx.seatName(i.batting)), h('td', {}, `${i.runs}/${i.wickets}`), h('td', {}, ov(i.legal_balls)), h('td', {}, i.merit ? meritName(i.merit) : '')))))
      : null);
}

function battersPanel(view) {
  const current = innings(view)[innings(view).length - 1];
  if (!current) return h('p', { class: 'muted' }, t('wicketz.batters.nobody'));
  const card = (index, facing) => {
    const b = (current.batters || [])[index] || {};
    return h('div', { class: ['batter-card', facing && 'facing'] },
      h('div', { class: 'name' }, t(facing ? 'wicketz.batters.batterFacing' : 'wicketz.batters.batter', { number: index + 1 })),
      h('div', { class: 'line' }, `${b.runs ?? 0} (${b.balls ?? 0})`));
  };
  return h('div', { class: 'batters' }, card(current.striker, true), card(current.non_striker, false));
}

function indicator(view) {
  const delivery = view.delivery || (view.last_ball && view.last_ball.delivery);
  const over = view.over;
  return h('div', { class: 'indicator', 'data-testid': 'indicator' },
    h('div', { class: ['spinner-dial', delivery && !RESPECT.has(delivery) && 'loose'] }, delivery ? deliveryName(delivery) : '—'),
    h('div', {},
      delivery ? h('p', {}, RESPECT.has(delivery) ? t('wicketz.indicator.respect') : t('wicketz.indicator.loose')) : h('p', { class: 'muted' }, t('wicketz.indicator.spinsLater')),
      over ? h('p', { class: 'muted' }, t(over.line_good === false ? 'wicketz.indicator.overStrays' : over.line_good ? 'wicketz.indicator.overGood' : 'wicketz.indicator.over', {
        number: over.number + 1, style: styleName(over.style), line: lineName(over.line),
        balls: t('wicketz.balls', { count: over.legal_balls || 0 }), runs: t('wicketz.runs', { count: over.runs || 0 }),
      })) : null,
      view.wild_card ? h('p', {}, t('wicketz.indicator.wildCard', { id: view.wild_card.id, window: view.wild_card.window })) : null));
}

function resultCard(view) {
  const card = view.last_card;
  const ball = view.last_ball;
  if (!card && !ball) return h('p', { class: 'muted' }, t('wicketz.card.none'));
  const stroke = ball && ball.stroke;
  const row = card && (card.rows || []).find((r) => r.stroke === stroke);
  return h('div', { class: ['result-card', card && card.kind === 'catch' && 'catch'], 'data-testid': 'result-card' },
    card ? h('div', {}, h('strong', {}, t('wicketz.card.title', { id: card.id })), t(card.kind === 'catch' ? 'wicketz.card.catchKind' : 'wicketz.card.plainKind', { window: card.window })) : null,
    ball ? h('p', {}, stroke ? t('wicketz.card.deliveryStroke', { delivery: deliveryName(ball.delivery), stroke: strokeName(stroke) }) : deliveryName(ball.delivery)) : null,
    row ? h('p', {}, t('wicketz.card.row'), h('strong', {}, `${row.code}`), row.text && row.text !== '- -' ? t('wicketz.card.rowText', { text: cardText(row.text) }) : '') : null,
    ball ? h('p', { 'data-testid': 'ball-result' }, ballText(ball)) : null,
    ball && ball.catch ? h('p', {}, t('wicketz.card.catchSpins', { count: ball.catch.lives, spins: ball.catch.spins.map((s) => (s ? t('wicketz.card.notOut') : t('wicketz.card.out'))).join(', ') })) : null);
}

/** What the card's row meant, in words ([ASSUMED] reading of wicketz.md section 4). */
export function readingText(r) {
  const zone = r.zone ? pos(r.zone) : '';
  switch (r.kind) {
    case 'bowled': return t('wicketz.reading.bowled');
    case 'lbw': return t('wicketz.reading.lbw');
    case 'run_out': return t('wicketz.reading.run_out', { zone });
    case 'byes': return t('wicketz.byes', { count: r.runs });
    case 'played_and_missed': return t('wicketz.reading.played_and_missed');
    case 'overthrows': return t(r.occupied ? 'wicketz.reading.overthrowsOccupied' : 'wicketz.reading.overthrowsEmpty', { zone });
    case 'no_score': return t('wicketz.reading.no_score');
    case 'fielded': return t('wicketz.reading.fielded', { zone });
    case 'runs': return t('wicketz.reading.runs', { zone });
    case 'saved_boundary': return t('wicketz.reading.saved_boundary', { letter: r.letter });
    case 'four': return t('wicketz.reading.four', { letter: r.letter });
    case 'six': return t('wicketz.reading.six', { letter: r.letter });
    case 'catch_chance': return t('wicketz.reading.catch_chance', { zone });
    default: return summary(r);
  }
}

function ballText(ball) {
  if (ball.dismissal) return t('wicketz.ballText.out', { number: ball.dismissal.batter + 1, how: howName(ball.dismissal.how) });
  const bits = [];
  if (ball.reading) bits.push(readingText(ball.reading));
  bits.push(runsText(ball.bat_runs + ball.byes));
  if (ball.extras) bits.push(t('wicketz.extras', { count: ball.extras }));
  return joined(bits);
}

const oversOf = (balls) => `${Math.floor((balls || 0) / 6)}.${(balls || 0) % 6}`;

/** The score in one line: "Ann 34/2 (4.3 of 20 ov) · need 40 off 93". */
function headline(view, ctx) {
  const list = innings(view);
  const current = list[list.length - 1];
  if (!current) return h('div', { class: 'headline' }, h('strong', {}, t('wicketz.headline.beforeToss')));
  const overs = view.options ? view.options.overs : 20;
  const ballsLeft = overs * 6 - (current.legal_balls || 0);
  const name = ctx.seatName(current.batting);
  return h('div', { class: 'headline' },
    h('span', { class: 'headline-team' }, t('wicketz.headline.batting', { name: `${name.charAt(0).toUpperCase()}${name.slice(1)}` })),
    h('strong', { class: 'headline-score', 'data-testid': 'headline-score' }, `${current.runs}/${current.wickets}`),
    h('span', { class: 'muted' }, t('wicketz.headline.overs', { overs: oversOf(current.legal_balls), total: overs })),
    view.target ? h('span', { class: 'headline-chase' }, t('wicketz.headline.chase', {
      runs: t('wicketz.runs', { count: Math.max(0, view.target - current.runs) }),
      balls: t('wicketz.balls', { count: ballsLeft }),
    })) : null);
}

/** The delivery the indicator spun and the card dealt for the last ball, beside the question. */
function dicePanel(view) {
  const delivery = view.delivery || (view.last_ball && view.last_ball.delivery);
  const card = view.last_card;
  if (!delivery && !card) return null;
  return h('section', { class: 'panel compact', 'data-testid': 'wz-this-ball' }, h('h3', {}, t('wicketz.thisBall.title')),
    h('div', { class: 'dice-row' },
      delivery ? h('span', { class: 'rolled', title: t('wicketz.thisBall.indicatorTitle') }, h('span', { class: 'rolled-name' }, t('wicketz.thisBall.indicator')),
        h('span', { class: ['die', 'small', 'wide-face', !RESPECT.has(delivery) && 'loose'] }, deliveryName(delivery))) : null,
      card ? h('span', { class: 'rolled', title: t('wicketz.thisBall.cardTitle', { id: card.id }) }, h('span', { class: 'rolled-name' }, card.kind === 'catch' ? t('wicketz.thisBall.lastCardCatch') : t('wicketz.thisBall.lastCard')),
        h('span', { class: 'die small' }, String(card.id))) : null),
    view.delivery ? h('p', { class: 'small' }, RESPECT.has(view.delivery) ? t('wicketz.indicator.respect') : t('wicketz.indicator.loose')) : null);
}

/** The ball banner from `ball_completed`: OUT and how, FOUR, SIX, runs, a dropped catch, extras. */
const ball = {
  ends: (event) => event.type === 'ball_completed',
  outcome(end) {
    const b = end.ball || {};
    const reading = b.reading || {};
    const runs = (b.bat_runs || 0) + (b.byes || 0);
    const dice = [];
    if (b.delivery) dice.push({ name: t('wicketz.banner.indicator'), value: deliveryName(b.delivery) });
    if (b.card !== undefined && b.card !== null) dice.push({ name: t('wicketz.banner.card'), value: b.card });
    if (b.catch) b.catch.spins.forEach((notOut, i) => dice.push({ name: t('wicketz.banner.catchSpin', { number: i + 1 }), value: notOut ? t('wicketz.banner.safe') : t('wicketz.banner.out'), kind: notOut ? 'batting' : 'bowling' }));
    const bits = [];
    if (b.stroke) bits.push(strokeName(b.stroke));
    if (reading.kind) bits.push(readingText(reading));
    let kind;
    let text;
    if (b.dismissal) {
      kind = 'out';
      text = t('wicketz.banner.outHow', { how: howName(b.dismissal.how) });
    } else if (reading.kind === 'six') {
      kind = 'six';
      text = t('wicketz.banner.six');
    } else if (reading.kind === 'four') {
      kind = 'four';
      text = t('wicketz.banner.four');
    } else if (b.catch) {
      kind = 'dropped';
      text = runs ? t('wicketz.banner.dropped', { runs: t('wicketz.runs', { count: runs }) }) : t('wicketz.banner.droppedNoRun');
    } else {
      kind = runs ? 'runs' : 'dot';
      text = runs ? t('wicketz.runs', { count: runs }) : t('wicketz.banner.noRun');
    }
    if (b.extras) {
      bits.push(t('wicketz.extras', { count: b.extras }));
      if (kind === 'dot' || kind === 'runs') kind = 'extras';
    }
    return { kind, text, detail: bits.length ? joined(bits) : '', dice, label: t('wicketz.banner.label') };
  },
};

function board(view, ctx) {
  const ask = view.ask;
  const editing = ask && ask.decision === 'set_over' && !ctx.spectate && ctx.ui.wzField;
  const highlight = view.last_ball && view.last_ball.reading && view.last_ball.reading.zone ? pos(view.last_ball.reading.zone) : null;
  return h('div', { class: 'ctg-top' },
    h('div', { class: 'panel' },
      h('h3', {}, editing ? t('wicketz.field.editing') : t('wicketz.field.title')),
      fieldPicture(editing ? ctx.ui.wzField : view.field, { onToggle: editing ? ctx.ui.onToggleWz : undefined, highlight }),
      editing ? h('p', { class: 'placing-status' }, ctx.ui.wzStatus || '') : null),
    h('div', { class: 'board' },
      scoreboard(view, ctx),
      panel(t('wicketz.panels.indicator'), indicator(view)),
      panel(t('wicketz.panels.crease'), battersPanel(view)),
      panel(t('wicketz.panels.card'), resultCard(view))));
}

function setOverDecision(view, ask, ctx) {
  const key = `${ask.over}:${innings(view).length}`;
  if (ctx.ui.wzKey !== key) {
    ctx.ui.wzKey = key;
    ctx.ui.wzField = JSON.parse(JSON.stringify(ask.suggested_field));
    ctx.ui.wzStyle = ctx.ui.wzStyle || ask.styles[0];
    ctx.ui.wzLine = ask.lines[0];
  }
  const field = ctx.ui.wzField;
  const outside = field.fielders.filter((p) => Number(pos(p)[1]) >= 2).length;
  const problems = [];
  if (field.fielders.length !== 9) problems.push(t('wicketz.setOver.placed', { count: field.fielders.length }));
  if (ask.max_outside_inner !== null && ask.max_outside_inner !== undefined && outside > ask.max_outside_inner) problems.push(t('wicketz.setOver.outside', { count: outside, max: ask.max_outside_inner }));
  ctx.ui.wzStatus = problems.length ? t('wicketz.setOver.notLegal', { problems: problems.join('; ') }) : t('wicketz.setOver.legal');
  ctx.ui.onToggleWz = (code) => {
    const at = field.fielders.map(pos).indexOf(code);
    if (at >= 0) field.fielders.splice(at, 1);
    else field.fielders.push(code);
    ctx.redraw();
  };
  const choice = (key, values, name) => h('div', { class: 'buttons' }, values.map((v) =>
    h('button', { class: ctx.ui[key] === v && 'selected', onclick: () => { ctx.ui[key] = v; ctx.redraw(); } }, name(v))));
  const select = (name, values, current, set) => h('label', { class: 'opt' }, h('span', {}, name),
    h('select', { onchange: (e) => { set(e.target.value); ctx.redraw(); } }, values.map((v) => h('option', { value: pos(v), selected: pos(v) === pos(current) }, pos(v)))));
  return h('div', {},
    h('p', {}, t(ask.lines.length > 1 ? 'wicketz.setOver.promptLine' : 'wicketz.setOver.prompt', { number: ask.over + 1 })),
    choice('wzStyle', ask.styles, styleName),
    ask.lines.length > 1 ? choice('wzLine', ask.lines, lineName) : null,
    select(t('wicketz.setOver.keeper'), ask.keeper_positions, field.keeper, (v) => { field.keeper = v; }),
    select(t('wicketz.setOver.bowler'), ask.bowler_positions, field.bowler, (v) => { field.bowler = v; }),
    h('p', { class: problems.length ? 'error' : 'muted' }, ctx.ui.wzStatus),
    h('div', { class: 'buttons' },
      h('button', { class: 'primary', 'data-action': 'set-over', disabled: ctx.busy, onclick: () => ctx.send({
        type: 'set_over',
        style: ctx.ui.wzStyle,
        field: { keeper: pos(field.keeper), bowler: pos(field.bowler), fielders: field.fielders.map(pos) },
        line: ctx.ui.wzLine,
      }) }, t('wicketz.setOver.bowl')),
      h('button', { onclick: () => { ctx.ui.wzKey = null; ctx.redraw(); } }, t('wicketz.setOver.reset'))));
}

/** A sentence with one word in bold: `marked` holds \u0000 where `word` goes. */
function emphasised(marked, word) {
  const [before, after = ''] = marked.split('\u0000');
  return [before, h('strong', {}, word), after];
}

function playDecision(ask, ctx) {
  if (ctx.ui.wild === undefined) ctx.ui.wild = false;
  const attacking = ask.legal_strokes.filter((s) => !['forward_defence', 'back_defence', 'leave', 'avoiding_action'].includes(s));
  const defensive = ask.legal_strokes.filter((s) => !attacking.includes(s));
  const button = (s) => h('button', { class: 'zone-btn', 'data-action': 'stroke', 'data-testid': `stroke-${s}`, disabled: ctx.busy,
    onclick: () => ctx.send({ type: 'play', stroke: s, wild_card: Boolean(ctx.ui.wild) }) }, strokeName(s));
  return h('div', {},
    h('p', {}, emphasised(t('wicketz.play.prompt', { delivery: '\u0000', number: ask.batter_number }), deliveryName(ask.delivery))),
    h('h4', {}, t('wicketz.play.attacking')), h('div', { class: 'strokes' }, attacking.map(button)),
    h('h4', {}, t('wicketz.play.defensive')), h('div', { class: 'strokes' }, defensive.map(button)),
    ask.wild_card ? h('label', {}, h('input', { type: 'checkbox', checked: ctx.ui.wild, onchange: (e) => { ctx.ui.wild = e.target.checked; } }), t('wicketz.play.wildCard', { id: ask.wild_card.id, window: ask.wild_card.window })) : null);
}

function decision(view, ctx) {
  const ask = view.ask;
  if (!ask || ask.decision !== 'set_over') {
    ctx.ui.wzField = null;
    ctx.ui.onToggleWz = null;
  }
  if (!ask) return null;
  switch (ask.decision) {
    case 'choose_innings':
      return h('div', {}, h('p', {}, t('wicketz.toss.prompt')), h('div', { class: 'buttons' },
        h('button', { class: 'primary', 'data-action': 'choose', 'data-testid': 'choose-bat', disabled: ctx.busy, onclick: () => ctx.send({ type: 'choose_innings', bat: true }) }, t('wicketz.toss.bat')),
        h('button', { 'data-action': 'choose', 'data-testid': 'choose-bowl', disabled: ctx.busy, onclick: () => ctx.send({ type: 'choose_innings', bat: false }) }, t('wicketz.toss.bowl'))));
    case 'set_over': return setOverDecision(view, ask, ctx);
    case 'play': return playDecision(ask, ctx);
    default: return null;
  }
}

/**
 * The engine's result line ("Seat 1 won by 12 runs (40 to 28)", "Match tied at 30 runs
 * each"; rules::wicketz::decide::outcome_of) in the language on screen, with the seat's name.
 */
export function resultText(summaryText, seatName) {
  const text = String(summaryText || '');
  let m = text.match(/^Match tied at (\d+) runs? each$/);
  if (m) return t('wicketz.describe.tied', { count: Number(m[1]) });
  m = text.match(/^Seat (\d+) won by (an innings and )?(\d+) (run|wicket)s? \((\d+) to (\d+)\)$/);
  if (m) {
    const name = seatName(Number(m[1]));
    const params = { name: `${name.charAt(0).toUpperCase()}${name.slice(1)}`, count: Number(m[3]), won: Number(m[5]), lost: Number(m[6]) };
    if (m[4] === 'wicket') return t('wicketz.describe.wonByWickets', params);
    return t(m[2] ? 'wicketz.describe.wonByInnings' : 'wicketz.describe.wonByRuns', params);
  }
  return namedSeats(text, seatName);
}

function describe(event, ctx) {
  switch (event.type) {
    case 'dispenser_shuffled': return t('wicketz.describe.shuffled');
    case 'toss_won': return t('wicketz.describe.tossWon', { name: ctx.seatName(event.seat) });
    case 'innings_chosen': return t('wicketz.describe.battingFirst', { name: ctx.seatName(event.batting_first) });
    case 'innings_opened': return t('wicketz.describe.inningsOpened', { number: event.number, name: ctx.seatName(event.batting) });
    case 'over_started': return t('wicketz.describe.overStarted', { number: event.number + 1, style: styleName(event.style), line: lineName(event.line) });
    case 'line_spun': return event.good ? t('wicketz.describe.lineGood') : t('wicketz.describe.lineStrays');
    case 'wild_card_drawn': return t('wicketz.describe.wildCard', { card: event.card });
    case 'delivered': return t('wicketz.describe.delivered', { delivery: deliveryName(event.delivery) });
    case 'card_dealt': return null;
    case 'ball_completed': return event.ball.stroke ? t('wicketz.describe.ball', { stroke: strokeName(event.ball.stroke), text: ballText(event.ball) }) : ballText(event.ball);
    case 'over_completed': return t('wicketz.describe.overCompleted', { number: event.number + 1, runs: t('wicketz.runs', { count: event.runs }) });
    case 'innings_closed': return t('wicketz.describe.inningsClosed', { number: event.number, runs: event.runs, wickets: event.wickets, merit: meritName(event.merit) });
    case 'match_finished': return t('wicketz.describe.matchOver', { result: resultText(event.outcome.summary, ctx.seatName) });
    default: return summary(event);
  }
}


/** Rules in brief, for the How to play panel. */
const HELP_KEYS = ['sides', 'ball', 'card', 'respect'];

/** The lobby's fields for Wicketz's options. */
function optionFields({ field, select, number }) {
  return [
    // The engine takes 1 to 100 overs (rules::wicketz MAX_OVERS).
    field('overs', number('overs', 20, 1, 100), t('wicketz.options.oversHint')),
    field('innings_per_side', select('innings_per_side', [['1', t('wicketz.options.oneInnings')], ['2', t('wicketz.options.twoInnings')]], '1')),
    field('bowling_variations', select('bowling_variations', [['false', t('wicketz.options.off')], ['true', t('wicketz.options.variationsOn')]], 'false'), t('wicketz.options.advanced')),
    field('wild_card', select('wild_card', [['false', t('wicketz.options.off')], ['true', t('wicketz.options.wildOn')]], 'false'), t('wicketz.options.advanced')),
  ];
}

/**
 * The match as it stands after each event, folded from the events alone and shaped like the
 * engine's view, so the replay draws it with `board`, `headline` and `dicePanel` (the field
 * of each over, the score of each innings, the batters, the indicator, the last ball). From
 * `base` it takes only the options. The result card's rows come from the game's card data
 * (`reference`, which the replay reads from GET /v1/games/wicketz/rules): an event carries a
 * dealt card's id only; with them the fold also counts the cards still to come.
 */
// Every card's face by id, shaped like a view's `last_card`. Kept beside the fold, not in
// it, so the replay's copy of the state at each ball stays one card, not the deck.
const faces = new Map();

/** Reads the cards' faces from the game's data files (`{ cards, ruleset }`). */
export function learnCardFaces(data) {
  const strokes = ((data && data.ruleset && data.ruleset.strokes) || []).map((s) => s.stroke);
  const cards = data && data.cards && Array.isArray(data.cards.cards) ? data.cards.cards : [];
  for (const card of cards) {
    const rows = (card.rows || []).map(([code, text], i) => ({ stroke: strokes[i], code, text }));
    faces.set(card.id, { id: card.id, kind: card.kind, window: card.window, rows });
  }
  return faces.size;
}

/**
 * Counts the cards as a player at the table does, and as the live view's `cards_to_come` is
 * made (src/rules/wicketz/state.rs): the cards dealt since the last shuffle, with those out of
 * the box this over (a shuffle leaves them out). `cards_to_come_count` is what the next deal
 * comes from. Both counts need the deck's size, so they stay unset without the card data.
 */
function countCards(v, event) {
  switch (event.type) {
    case 'dispenser_shuffled': v.dealt = [...v.out_this_over]; break;
    case 'card_dealt':
    case 'wild_card_drawn':
      v.dealt.push(event.card);
      v.out_this_over.push(event.card);
      break;
    case 'over_completed':
    case 'innings_closed': v.out_this_over = []; break;
    default: return;
  }
  if (faces.size === 0) return;
  // In the box: the deck less this over's cards, as the view's `cards_in_dispenser`.
  v.cards_in_dispenser = faces.size - v.out_this_over.length;
  const fresh = faces.size - v.dealt.length;
  v.cards_to_come_count = fresh > 0 ? fresh : v.cards_in_dispenser;
}

const story = {
  reference: learnCardFaces,
  init(base) {
    return { options: base.options || { overs: 20 }, innings: [], target: null, over: null, delivery: null, last_ball: null, last_card: null, field: null, dealt: [], out_this_over: [], cards_to_come_count: null };
  },
  apply(v, event) {
    countCards(v, event);
    const current = v.innings[v.innings.length - 1];
    switch (event.type) {
      case 'innings_opened': {
        const first = v.innings[0];
        v.innings.push({ number: event.number, batting: event.batting, runs: 0, wickets: 0, legal_balls: 0, extras: 0, striker: 0, non_striker: 1, batters: [], closed: false });
        // One innings each: the side batting second chases the first's total.
        if (Number(v.options.innings_per_side || 1) === 1 && v.innings.length === 2 && first) v.target = first.runs + 1;
        v.over = null;
        v.delivery = null;
        v.last_ball = null;
        v.last_card = null;
        break;
      }
      case 'over_started':
        v.over = { number: event.number, style: event.style, line: event.line, line_good: null, legal_balls: 0, runs: 0 };
        v.field = event.field;
        v.delivery = null;
        break;
      case 'line_spun': if (v.over) v.over.line_good = event.good; break;
      case 'delivered': v.delivery = event.delivery; break;
      case 'card_dealt': v.last_card = null; break;
      case 'ball_completed': {
        const b = event.ball || {};
        v.last_ball = b;
        // The card this ball was read from (none for a wide), as the live view shows it.
        v.last_card = (b.card && faces.get(b.card)) || null;
        v.delivery = null;
        if (!current) break;
        const runs = (b.bat_runs || 0) + (b.byes || 0) + (b.extras || 0);
        current.runs += runs;
        current.extras += (b.byes || 0) + (b.extras || 0);
        if (b.legal) current.legal_balls += 1;
        if (typeof b.striker === 'number') {
          if (b.striker !== current.striker) {
            if (b.striker === current.non_striker) current.non_striker = current.striker;
            current.striker = b.striker;
          }
          const row = (current.batters[b.striker] ||= { runs: 0, balls: 0 });
          row.runs += b.bat_runs || 0;
          if (b.legal) row.balls += 1;
        }
        if (b.dismissal) {
          current.wickets += 1;
          // The next batter in the order takes the place of the one out.
          const next = Math.max(current.striker, current.non_striker) + 1;
          if (b.dismissal.batter === current.non_striker) current.non_striker = next;
          else current.striker = next;
        }
        if (v.over) {
          v.over.runs += runs;
          if (b.legal) v.over.legal_balls += 1;
        }
        break;
      }
      case 'innings_closed':
        if (current) Object.assign(current, { closed: true, runs: event.runs, wickets: event.wickets, legal_balls: event.legal_balls, merit: event.merit });
        v.over = null;
        break;
      default:
    }
    return v;
  },
};

/** How the replay moves the score: a ball is a step. */
const replay = {
  step: 'ball_completed',
  apply(score, event, { openInnings, bowl }) {
    if (event.type === 'innings_opened') openInnings(score, event.batting);
    if (event.type === 'ball_completed') {
      const ball = event.ball;
      bowl(score, ball.bat_runs + ball.byes + ball.extras, ball.legal, Boolean(ball.dismissal));
    }
  },
};

/** The live list's format label: "20 overs a side", "1 over a side, two innings each". */
function describeOptions(options = {}) {
  const o = options || {};
  const overs = Number(o.overs) || 20;
  return t(Number(o.innings_per_side) === 2 ? 'wicketz.options.formatTwo' : 'wicketz.options.format', { count: overs });
}

export default {
  board, decision, describe, story, optionFields, replay, describeOptions, headline, dicePanel, ball,
  // The engine's result line ("Seat 1 won by 12 runs (40 to 28)") in the language on screen.
  resultText,
  // Read at draw time, so the panel follows the language on screen.
  get help() { return HELP_KEYS.map((key) => t(`wicketz.help.${key}`)); },
};
