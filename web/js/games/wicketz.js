// Wicketz screen: the bowling indicator (the delivery spun this ball), the stroke to
// nominate, the result card that was dealt (its row for the chosen stroke highlighted),
// the field of 17 directions by 4 rings, and the scoreboard of every innings.
//
// Commands (engine `Command`, tag "type"): choose_innings {bat}, set_over {style, field,
// line}, play {stroke, wild_card}. Positions travel as "A0".."Q3".

import { h, label, summary } from '../dom.js';
import { stat, panel } from '../ui.js';
import { count, namedSeats } from '../words.js';

const LETTERS = 'ABCDEFGHIJKLMNOPQ';
const RESPECT = new Set(['good_length', 'yorker', 'bouncer', 'googly']);
const RING_R = [30, 52, 72, 91];
const RING_EDGE = [41, 62, 82, 101];

const pos = (p) => (typeof p === 'string' ? p : p ? `${LETTERS[p.letter]}${p.ring}` : '');
const angleOf = (letter) => 180 + (LETTERS.indexOf(letter) * 360) / 17;

function point(r, deg) {
  const rad = (deg * Math.PI) / 180;
  return [r * Math.sin(rad), -r * Math.cos(rad)];
}

/** The field: every letter/ring spot, fielders as white dots, keeper and bowler marked. */
function fieldPicture(field, { onToggle, highlight } = {}) {
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
        'aria-label': onToggle && !fixed ? `Position ${code}` : undefined,
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
      if (fixed) parts.push(h('svg:text', { x, y: y + 2, 'pointer-events': 'none' }, code === keeper ? 'WK' : 'B'));
      if (highlight === code) parts.push(h('svg:circle', { cx: x, cy: y, r: 7, fill: 'none', stroke: '#ffe27a', 'stroke-width': 1.5, 'pointer-events': 'none' }));
    }
  }
  parts.push(h('svg:rect', { x: -2.5, y: -10, width: 5, height: 20, fill: '#d9c38f' }));
  return h('svg:svg', { viewBox: '-116 -116 232 232', class: 'wz-field', role: onToggle ? 'group' : 'img', 'aria-label': onToggle ? 'Wicketz field: choose your fielders\' positions' : 'Wicketz field' }, parts);
}

function innings(view) {
  return Array.isArray(view.innings) ? view.innings : [];
}

function scoreboard(view, ctx) {
  const list = innings(view);
  const current = list[list.length - 1];
  const overs = view.options ? view.options.overs : 20;
  const ov = (balls) => `${Math.floor((balls || 0) / 6)}.${(balls || 0) % 6}`;
  return h('div', { class: 'panel', 'data-testid': 'scoreboard' },
    h('h3', {}, current ? `Innings ${current.number} · ${ctx.seatName(current.batting)} batting` : 'Before the toss'),
    current ? h('div', { class: 'scoreline', 'data-testid': 'score' }, `${current.runs}/${current.wickets}`, h('small', {}, ` after ${ov(current.legal_balls)} of ${overs} overs`)) : null,
    h('div', { class: 'stat-row' },
      current ? stat('Extras', current.extras) : null,
      view.target ? stat('Target', view.target, 'target') : null,
      view.target && current ? stat('Need', Math.max(0, view.target - current.runs)) : null,
      stat('Cards left', view.cards_in_dispenser)),
    list.length > 1 || (current && current.closed)
      ? h('table', { class: 'seats' }, h('tbody', {}, list.map((i) => h('tr', {},
        h('td', {}, `Innings ${i.number}`), h('td', {}, ctx.seatName(i.batting)), h('td', {}, `${i.runs}/${i.wickets}`), h('td', {}, ov(i.legal_balls)), h('td', {}, i.merit || '')))))
      : null);
}

function battersPanel(view) {
  const current = innings(view)[innings(view).length - 1];
  if (!current) return h('p', { class: 'muted' }, 'Nobody in yet.');
  const card = (index, facing) => {
    const b = (current.batters || [])[index] || {};
    return h('div', { class: ['batter-card', facing && 'facing'] },
      h('div', { class: 'name' }, `Batter no. ${index + 1}${facing ? ' *' : ''}`),
      h('div', { class: 'line' }, `${b.runs ?? 0} (${b.balls ?? 0})`));
  };
  return h('div', { class: 'batters' }, card(current.striker, true), card(current.non_striker, false));
}

function indicator(view) {
  const delivery = view.delivery || (view.last_ball && view.last_ball.delivery);
  const over = view.over;
  return h('div', { class: 'indicator', 'data-testid': 'indicator' },
    h('div', { class: ['spinner-dial', delivery && !RESPECT.has(delivery) && 'loose'] }, delivery ? label(delivery) : '—'),
    h('div', {},
      delivery ? h('p', {}, RESPECT.has(delivery) ? 'A delivery to respect.' : 'A loose delivery: attack it!') : h('p', { class: 'muted' }, 'The indicator spins when the ball is bowled.'),
      over ? h('p', { class: 'muted' }, `Over ${over.number + 1}: ${label(over.style)}, line ${label(over.line)}${over.line_good === false ? ' (strays)' : over.line_good ? ' (good)' : ''}; ${count(over.legal_balls, 'ball')}, ${count(over.runs, 'run')}.`) : null,
      view.wild_card ? h('p', {}, `Wild card face up: card ${view.wild_card.id} (window ${view.wild_card.window}).`) : null));
}

function resultCard(view) {
  const card = view.last_card;
  const ball = view.last_ball;
  if (!card && !ball) return h('p', { class: 'muted' }, 'No card dealt yet.');
  const stroke = ball && ball.stroke;
  const row = card && (card.rows || []).find((r) => r.stroke === stroke);
  return h('div', { class: ['result-card', card && card.kind === 'catch' && 'catch'], 'data-testid': 'result-card' },
    card ? h('div', {}, h('strong', {}, `Card ${card.id}`), ` · ${card.kind === 'catch' ? 'CATCH card' : 'plain'} · window ${card.window}`) : null,
    ball ? h('p', {}, `${label(ball.delivery)}${stroke ? ` → ${label(stroke)}` : ''}`) : null,
    row ? h('p', {}, 'Row: ', h('strong', {}, `${row.code}`), row.text && row.text !== '- -' ? ` · ${row.text}` : '') : null,
    ball ? h('p', { 'data-testid': 'ball-result' }, ballText(ball)) : null,
    ball && ball.catch ? h('p', {}, `Catch spins (${ball.catch.lives} li${ball.catch.lives === 1 ? 'fe' : 'ves'}): ${ball.catch.spins.map((s) => (s ? 'not out' : 'out')).join(', ')}`) : null);
}

/** What the card's row meant, in words ([ASSUMED] reading of wicketz.md section 4). */
function readingText(r) {
  const zone = r.zone ? pos(r.zone) : '';
  switch (r.kind) {
    case 'bowled': return 'bowled';
    case 'lbw': return 'L.B.W.';
    case 'run_out': return `run out (fielder at ${zone})`;
    case 'byes': return count(r.runs, 'bye');
    case 'played_and_missed': return 'played and missed';
    case 'overthrows': return `overthrows to ${zone} (${r.occupied ? 'occupied' : 'empty'})`;
    case 'no_score': return '★ no score';
    case 'fielded': return `fielded at ${zone}`;
    case 'runs': return `into the gap at ${zone}`;
    case 'saved_boundary': return `boundary saved on line ${r.letter}`;
    case 'four': return `FOUR along line ${r.letter}`;
    case 'six': return `SIX over line ${r.letter}`;
    case 'catch_chance': return `in the air to the fielder at ${zone}`;
    default: return summary(r);
  }
}

function ballText(ball) {
  if (ball.dismissal) return `OUT! Batter no. ${ball.dismissal.batter + 1} ${label(typeof ball.dismissal.how === 'string' ? ball.dismissal.how : ball.dismissal.how.kind || Object.keys(ball.dismissal.how)[0])}.`;
  const bits = [];
  if (ball.reading) bits.push(readingText(ball.reading));
  const runs = ball.bat_runs + ball.byes;
  bits.push(runs ? count(runs, 'run') : 'no run');
  if (ball.extras) bits.push(count(ball.extras, 'extra'));
  return bits.join(' · ');
}

const oversOf = (balls) => `${Math.floor((balls || 0) / 6)}.${(balls || 0) % 6}`;

/** The score in one line: "Ann 34/2 (4.3 of 20 ov) · need 40 off 93". */
function headline(view, ctx) {
  const list = innings(view);
  const current = list[list.length - 1];
  if (!current) return h('div', { class: 'headline' }, h('strong', {}, 'Before the toss'));
  const overs = view.options ? view.options.overs : 20;
  const ballsLeft = overs * 6 - (current.legal_balls || 0);
  const name = ctx.seatName(current.batting);
  return h('div', { class: 'headline' },
    h('span', { class: 'headline-team' }, `${name.charAt(0).toUpperCase()}${name.slice(1)} batting`),
    h('strong', { class: 'headline-score', 'data-testid': 'headline-score' }, `${current.runs}/${current.wickets}`),
    h('span', { class: 'muted' }, `${oversOf(current.legal_balls)} of ${overs} ov`),
    view.target ? h('span', { class: 'headline-chase' }, `need ${count(Math.max(0, view.target - current.runs), 'run')} off ${count(ballsLeft, 'ball')}`) : null);
}

/** The delivery the indicator spun and the card dealt for the last ball, beside the question. */
function dicePanel(view) {
  const delivery = view.delivery || (view.last_ball && view.last_ball.delivery);
  const card = view.last_card;
  if (!delivery && !card) return null;
  return h('section', { class: 'panel compact', 'data-testid': 'wz-this-ball' }, h('h3', {}, 'This ball'),
    h('div', { class: 'dice-row' },
      delivery ? h('span', { class: 'rolled', title: 'The bowling indicator' }, h('span', { class: 'rolled-name' }, 'Indicator'),
        h('span', { class: ['die', 'small', 'wide-face', !RESPECT.has(delivery) && 'loose'] }, label(delivery))) : null,
      card ? h('span', { class: 'rolled', title: `Result card ${card.id}` }, h('span', { class: 'rolled-name' }, card.kind === 'catch' ? 'Last card (CATCH)' : 'Last card'),
        h('span', { class: 'die small' }, String(card.id))) : null),
    view.delivery ? h('p', { class: 'small' }, RESPECT.has(view.delivery) ? 'A delivery to respect.' : 'A loose delivery: attack it!') : null);
}

/** The ball banner from `ball_completed`: OUT and how, FOUR, SIX, runs, a dropped catch, extras. */
const ball = {
  ends: (event) => event.type === 'ball_completed',
  outcome(end) {
    const b = end.ball || {};
    const reading = b.reading || {};
    const runs = (b.bat_runs || 0) + (b.byes || 0);
    const dice = [];
    if (b.delivery) dice.push({ name: 'Indicator', value: label(b.delivery) });
    if (b.card !== undefined && b.card !== null) dice.push({ name: 'Card', value: b.card });
    if (b.catch) b.catch.spins.forEach((notOut, i) => dice.push({ name: `Catch spin ${i + 1}`, value: notOut ? 'safe' : 'out', kind: notOut ? 'batting' : 'bowling' }));
    const bits = [];
    if (b.stroke) bits.push(label(b.stroke));
    if (reading.kind) bits.push(readingText(reading));
    let kind;
    let text;
    if (b.dismissal) {
      const how = typeof b.dismissal.how === 'string' ? b.dismissal.how : b.dismissal.how.kind || Object.keys(b.dismissal.how)[0];
      kind = 'out';
      text = `OUT! ${label(how)}`;
    } else if (reading.kind === 'six') {
      kind = 'six';
      text = 'SIX!';
    } else if (reading.kind === 'four') {
      kind = 'four';
      text = 'FOUR!';
    } else if (b.catch) {
      kind = 'dropped';
      text = `Dropped! ${runs ? count(runs, 'run') : 'no run'}`;
    } else {
      kind = runs ? 'runs' : 'dot';
      text = runs ? count(runs, 'run') : 'No run';
    }
    if (b.extras) {
      bits.push(count(b.extras, 'extra'));
      if (kind === 'dot' || kind === 'runs') kind = 'extras';
    }
    return { kind, text, detail: bits.join(' · '), dice, label: 'Last ball' };
  },
};

function board(view, ctx) {
  const ask = view.ask;
  const editing = ask && ask.decision === 'set_over' && !ctx.spectate && ctx.ui.wzField;
  const highlight = view.last_ball && view.last_ball.reading && view.last_ball.reading.zone ? pos(view.last_ball.reading.zone) : null;
  return h('div', { class: 'ctg-top' },
    h('div', { class: 'panel' },
      h('h3', {}, editing ? 'Move your fielders: click a spot to add or remove one' : 'The field'),
      fieldPicture(editing ? ctx.ui.wzField : view.field, { onToggle: editing ? ctx.ui.onToggleWz : undefined, highlight }),
      editing ? h('p', { class: 'placing-status' }, ctx.ui.wzStatus || '') : null),
    h('div', { class: 'board' },
      scoreboard(view, ctx),
      panel('Bowling indicator', indicator(view)),
      panel('At the crease', battersPanel(view)),
      panel('Result card', resultCard(view))));
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
  if (field.fielders.length !== 9) problems.push(`${field.fielders.length} of 9 fielders placed`);
  if (ask.max_outside_inner !== null && ask.max_outside_inner !== undefined && outside > ask.max_outside_inner) problems.push(`${outside} outside rings 0-1 (at most ${ask.max_outside_inner})`);
  ctx.ui.wzStatus = problems.length ? `Not legal yet: ${problems.join('; ')}` : 'Legal field.';
  ctx.ui.onToggleWz = (code) => {
    const at = field.fielders.map(pos).indexOf(code);
    if (at >= 0) field.fielders.splice(at, 1);
    else field.fielders.push(code);
    ctx.redraw();
  };
  const choice = (key, values) => h('div', { class: 'buttons' }, values.map((v) =>
    h('button', { class: ctx.ui[key] === v && 'selected', onclick: () => { ctx.ui[key] = v; ctx.redraw(); } }, label(v))));
  const select = (name, values, current, set) => h('label', { class: 'opt' }, h('span', {}, name),
    h('select', { onchange: (e) => { set(e.target.value); ctx.redraw(); } }, values.map((v) => h('option', { value: pos(v), selected: pos(v) === pos(current) }, pos(v)))));
  return h('div', {},
    h('p', {}, `Set up over ${ask.over + 1}: pace or spin${ask.lines.length > 1 ? ', the line' : ''}, and the field.`),
    choice('wzStyle', ask.styles),
    ask.lines.length > 1 ? choice('wzLine', ask.lines) : null,
    select('Keeper', ask.keeper_positions, field.keeper, (v) => { field.keeper = v; }),
    select('Bowler', ask.bowler_positions, field.bowler, (v) => { field.bowler = v; }),
    h('p', { class: problems.length ? 'error' : 'muted' }, ctx.ui.wzStatus),
    h('div', { class: 'buttons' },
      h('button', { class: 'primary', 'data-action': 'set-over', disabled: ctx.busy, onclick: () => ctx.send({
        type: 'set_over',
        style: ctx.ui.wzStyle,
        field: { keeper: pos(field.keeper), bowler: pos(field.bowler), fielders: field.fielders.map(pos) },
        line: ctx.ui.wzLine,
      }) }, 'Bowl the over'),
      h('button', { onclick: () => { ctx.ui.wzKey = null; ctx.redraw(); } }, 'Reset field')));
}

function playDecision(ask, ctx) {
  if (ctx.ui.wild === undefined) ctx.ui.wild = false;
  const attacking = ask.legal_strokes.filter((s) => !['forward_defence', 'back_defence', 'leave', 'avoiding_action'].includes(s));
  const defensive = ask.legal_strokes.filter((s) => !attacking.includes(s));
  const button = (s) => h('button', { class: 'zone-btn', 'data-action': 'stroke', 'data-testid': `stroke-${s}`, disabled: ctx.busy,
    onclick: () => ctx.send({ type: 'play', stroke: s, wild_card: Boolean(ctx.ui.wild) }) }, label(s));
  return h('div', {},
    h('p', {}, 'The delivery is ', h('strong', {}, label(ask.delivery)), `. Batter no. ${ask.batter_number} on strike: nominate a stroke.`),
    h('h4', {}, 'Attacking'), h('div', { class: 'strokes' }, attacking.map(button)),
    h('h4', {}, 'Defensive'), h('div', { class: 'strokes' }, defensive.map(button)),
    ask.wild_card ? h('label', {}, h('input', { type: 'checkbox', checked: ctx.ui.wild, onchange: (e) => { ctx.ui.wild = e.target.checked; } }), ` Use the wild card (card ${ask.wild_card.id}, window ${ask.wild_card.window})`) : null);
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
      return h('div', {}, h('p', {}, 'You won the toss! Bat or bowl first?'), h('div', { class: 'buttons' },
        h('button', { class: 'primary', 'data-action': 'choose', disabled: ctx.busy, onclick: () => ctx.send({ type: 'choose_innings', bat: true }) }, 'Bat'),
        h('button', { 'data-action': 'choose', disabled: ctx.busy, onclick: () => ctx.send({ type: 'choose_innings', bat: false }) }, 'Bowl')));
    case 'set_over': return setOverDecision(view, ask, ctx);
    case 'play': return playDecision(ask, ctx);
    default: return null;
  }
}

function describe(event, ctx) {
  switch (event.type) {
    case 'dispenser_shuffled': return 'The result cards are shuffled into the dispenser.';
    case 'toss_won': return `${ctx.seatName(event.seat)} won the toss.`;
    case 'innings_chosen': return `${ctx.seatName(event.batting_first)} will bat first.`;
    case 'innings_opened': return `Innings ${event.number}: ${ctx.seatName(event.batting)} bat.`;
    case 'over_started': return `Over ${event.number + 1}: ${label(event.style)}, line ${label(event.line)}.`;
    case 'line_spun': return event.good ? 'The line is good (red).' : 'The line strays (black).';
    case 'wild_card_drawn': return `A wild card is drawn face up: card ${event.card}.`;
    case 'delivered': return `Indicator: ${label(event.delivery)}.`;
    case 'card_dealt': return null;
    case 'ball_completed': return `${event.ball.stroke ? label(event.ball.stroke) + ': ' : ''}${ballText(event.ball)}`;
    case 'over_completed': return `End of over ${event.number + 1}: ${count(event.runs, 'run')}.`;
    case 'innings_closed': return `Innings ${event.number} closed at ${event.runs}/${event.wickets}. Merit: ${event.merit}.`;
    case 'match_finished': return `Match over: ${namedSeats(event.outcome.summary, ctx.seatName)}`;
    default: return summary(event);
  }
}


/** Rules in brief, for the How to play panel. */
const help = [
  'The bowling side picks pace or spin and sets the field before each over.',
  'Each ball the indicator spins a delivery; the batter sees it and nominates one of twelve strokes.',
  'A result card is dealt: the stroke\'s row says where the ball went; a fielder there stops the runs, and on a CATCH card may catch it.',
  'Respect good lengths, yorkers and bouncers/googlies; attack the loose balls.',
];

/** The lobby's fields for Wicketz's options. */
function optionFields({ field, select, number }) {
  return [
    // The engine takes 1 to 100 overs (rules::wicketz MAX_OVERS).
    field('overs', number('overs', 20, 1, 100), 'per innings (1 to 100)'),
    field('innings_per_side', select('innings_per_side', [['1', 'One innings each'], ['2', 'Two innings each']], '1')),
    field('bowling_variations', select('bowling_variations', [['false', 'Off'], ['true', 'On: the bowler declares a line']], 'false'), 'advanced'),
    field('wild_card', select('wild_card', [['false', 'Off'], ['true', 'On: wild card after a quiet over']], 'false'), 'advanced'),
  ];
}

/**
 * The match as it stands after each event, folded from the events alone and shaped like the
 * engine's view, so the replay draws it with `board`, `headline` and `dicePanel` (the field
 * of each over, the score of each innings, the batters, the indicator, the last ball). From
 * `base` it takes only the options. What no event carries (the result card's rows, the cards
 * left in the dispenser) is left out.
 */
const story = {
  init(base) {
    return { options: base.options || { overs: 20 }, innings: [], target: null, over: null, delivery: null, last_ball: null, last_card: null, field: null };
  },
  apply(v, event) {
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
  const innings = Number(o.innings_per_side) === 2 ? ', two innings each' : '';
  return `${count(overs, 'over')} a side${innings}`;
}

export default { board, decision, describe, story, help, optionFields, replay, describeOptions, headline, dicePanel, ball };
