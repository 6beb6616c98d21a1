// Hand Cricket's browser module, shipped from the game's own folder and served by the
// server at /js/games/hand_cricket.js, so its relative imports reach the client's helpers.
// The shape every game module has: board, decision, describe, help; plus the lobby's
// option fields, the replay's score fold and the live list's option label.
//
// Command (engine `Command`, tag "type"): show {fingers: 1-6}.

import { h } from '../dom.js';

const score = (s) => `${s.runs}/${s.wickets} (${s.balls} balls)`;

function board(view, ctx) {
  const row = (seat) => h('tr', { class: [seat === ctx.seat && 'me', seat === view.batting && 'active'], 'data-seat': String(seat) },
    h('td', {}, ctx.seatName(seat)),
    h('td', {}, seat === view.batting ? 'batting' : 'bowling'),
    h('td', { 'data-testid': `hand-score-${seat}` }, score(view.scores[seat])),
    h('td', {}, view.shown[seat] ? 'shown' : '…'));
  const last = view.last_ball;
  return h('div', { 'data-testid': 'hand-board' },
    h('table', { class: 'seats' },
      h('thead', {}, h('tr', {}, ['Player', '', 'Score', 'This ball'].map((t) => h('th', {}, t)))),
      h('tbody', {}, [0, 1].map(row))),
    view.target ? h('p', {}, `Target: ${view.target}`) : null,
    last ? h('p', { 'data-testid': 'hand-last-ball' },
      `Last ball: bat ${last.batter_fingers}, bowl ${last.bowler_fingers}: ${last.out ? 'OUT!' : `${last.runs} run${last.runs === 1 ? '' : 's'}`}`) : null);
}

function decision(view, ctx) {
  if (!ctx.pendingMine) {
    return view.my_fingers ? h('p', { class: 'muted' }, `You showed ${view.my_fingers}; waiting for the other hand.`) : null;
  }
  const role = view.batting === ctx.seat ? 'You bat: score your number unless they match it.' : 'You bowl: match their number to get them out.';
  return h('div', {}, h('p', {}, role), h('div', { class: 'buttons' },
    [1, 2, 3, 4, 5, 6].map((fingers) => h('button', {
      class: 'zone-btn', 'data-action': 'show', 'data-testid': `show-${fingers}`, disabled: ctx.busy,
      onclick: () => ctx.send({ type: 'show', fingers }),
    }, String(fingers)))));
}

function describe(event, ctx) {
  switch (event.type) {
    case 'tossed': return `${ctx.seatName(event.bats_first)} won the toss and bat first.`;
    case 'shown': return event.fingers ? `You show ${event.fingers}.` : `${ctx.seatName(event.seat)} has shown.`;
    case 'bowled': {
      const b = event.ball;
      return `Bat ${b.batter_fingers}, bowl ${b.bowler_fingers}: ${b.out ? 'OUT!' : `${b.runs} run${b.runs === 1 ? '' : 's'}`}`;
    }
    case 'innings_closed': return `Innings ${event.innings} closed at ${event.score.runs}/${event.score.wickets}.`;
    default: return null;
  }
}

const help = [
  'Each ball, both players show one to six fingers at the same time (sealed: neither sees the other first).',
  'Different numbers: the batter scores the batter\'s number. The same number: the batter is out.',
  'An innings ends when its wickets or overs run out; the second side chases the first\'s total.',
];

/** The lobby's fields for this game's options. */
function optionFields({ field, number }) {
  return [
    field('overs', number('overs', 2, 1, 10), 'per innings'),
    field('wickets', number('wickets', 2, 1, 5), 'per innings'),
  ];
}

/** How the replay moves the score: a ball is a step. */
const replay = {
  step: 'bowled',
  apply(scoreboard, event, { openInnings, bowl }) {
    if (event.type !== 'bowled') return;
    const b = event.ball;
    if (!scoreboard.innings || scoreboard.innings.length < b.innings) openInnings(scoreboard, b.batting);
    bowl(scoreboard, b.runs, true, b.out);
  },
};

const describeOptions = (options) => `${Number(options.overs) || 2} overs, ${Number(options.wickets) || 2} wickets`;

export default { board, decision, describe, help, optionFields, replay, describeOptions };
