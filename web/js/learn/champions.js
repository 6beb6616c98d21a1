// Learning Cricket Champions: the rules reference (every number, face, card and championship
// drawn from `data.ruleset`, the engine's data/champions/ruleset.json as GET
// /v1/games/champions/rules serves it), the help line under each decision, and the light
// guided start (the coach of the tutorial match: 2 players, you and the easy bot).
//
// Words: catalogue `championsLearn` (web/js/i18n/<lang>/championsLearn.js); the names of
// faces, colours, cards and championships and a card's effect come from the game module's own
// helpers (catalogue `champions`), so the reference and the match say them the same way.

import { h } from '../dom.js';
import { t } from '../i18n.js';
import {
  faceText, faceName, colourName, cardName, championshipName, cardEffect, awardText, overScore, runsText, wicketsText,
} from '../games/champions.js';

const L = (key, params) => t(`championsLearn.${key}`, params);

/** A die face as the match draws it, with its engine face in `data-face`. */
const die = (face, kind) => h('span', { class: ['die', 'small', kind, `face-${face}`], 'data-face': face, title: faceName(face) }, faceText(face));

const p = (text) => h('p', {}, text);
const ul = (items) => h('ul', {}, items.map((item) => h('li', {}, item)));

function table(caption, heads, rows, attrs = {}) {
  return h('div', { class: 'table-scroll' }, h('table', { class: 'card-table champions-ref', ...attrs },
    caption ? h('caption', {}, caption) : null,
    h('thead', {}, h('tr', {}, heads.map((x) => h('th', {}, x)))),
    h('tbody', {}, rows)));
}

/** What one face does, from the ruleset: run sets, Xp, Defence, and the bowling faces. */
function faceMeaning(face, rules) {
  const set = (rules.run_sets || []).find((s) => s.face === face);
  if (set) return L('faces.set', { count: set.size, face: faceName(face), runs: set.runs });
  if (['xp', 'defence', 'wicket', 'wide', 'dot', 'save'].includes(face)) return L(`faces.${face}`);
  return '';
}

function diceSection(rules) {
  const dieBlock = (kind, faces) => {
    const distinct = [...new Set(faces)];
    return h('div', { class: 'champions-die', 'data-die': kind },
      h('h4', {}, L(`dice.${kind}Die`, { count: rules.dice_per_roll })),
      h('div', { class: 'dice-row', 'data-testid': `die-faces-${kind}` }, faces.map((f) => die(f, kind))),
      table(null, [L('dice.face'), L('dice.sides'), L('dice.means')], distinct.map((face) => h('tr', { 'data-face': face },
        h('td', {}, die(face, kind), faceName(face) !== faceText(face) ? ` ${faceName(face)}` : null),
        h('td', { 'data-field': 'sides' }, String(faces.filter((f) => f === face).length)),
        h('td', { 'data-field': 'means' }, faceMeaning(face, rules))))));
  };
  return [
    p(L('dice.lead', { count: rules.dice_per_roll, sides: rules.batting_die.length })),
    dieBlock('batting', rules.batting_die),
    dieBlock('bowling', rules.bowling_die),
  ];
}

function cardsSection(rules) {
  const cards = rules.xp_cards || [];
  const colours = ['black', 'green', 'blue'];
  return [
    p(L('cards.lead', { count: cards.length })),
    ul(colours.map((c) => L(`cards.colour.${c}`, { colour: colourName(c), count: cards.filter((x) => x.colour === c).length }))),
    p(L('cards.once')),
    // Two columns, so the power has room on a phone: the card (name, cost, colour), its power.
    table(L('cards.caption'), [L('cards.name'), L('cards.effect')],
      cards.map((card) => h('tr', { 'data-card': card.id, class: ['xp-row', card.colour] },
        h('td', {},
          h('strong', { 'data-field': 'name' }, cardName(card)), h('br'),
          h('small', {},
            h('span', { 'data-field': 'cost', class: 'cost' }, L('xp', { count: card.cost })), ' · ',
            h('span', { 'data-field': 'colour' }, colourName(card.colour)))),
        h('td', { 'data-field': 'effect' }, cardEffect(card)))),
      { 'data-testid': 'champions-cards-table' }),
    p(L('cards.whenLongGame')),
  ];
}

function scoringSection(rules) {
  const sets = rules.run_sets || [];
  // The seed's worked example (champions.md section 4), scored by the match screen's own
  // preview from the ruleset's run sets.
  const example = {
    batting: { faces: ['one', 'two', 'four', 'two', 'defence', 'two'], bought_defence: 0 },
    bowling: { faces: ['wicket', 'wide', 'xp', 'save', 'wicket', 'dot'] },
  };
  const score = overScore(sets, example);
  return [
    p(L('scoring.lead')),
    table(L('scoring.setsCaption'), [L('scoring.face'), L('scoring.setOf'), L('scoring.runs')], sets.map((s) => h('tr', { 'data-set': s.face },
      h('td', {}, die(s.face, 'batting')),
      h('td', { 'data-field': 'size' }, String(s.size)),
      h('td', { 'data-field': 'runs' }, String(s.runs)))), { 'data-testid': 'champions-run-sets' }),
    ul([L('scoring.leftover'), L('scoring.wides'), L('scoring.saves'), L('scoring.wickets', { limit: rules.elimination_wickets }), L('scoring.xp')]),
    h('h4', {}, L('scoring.exampleTitle')),
    h('div', { class: 'dice-row' }, example.batting.faces.map((f) => die(f, 'batting'))),
    h('div', { class: 'dice-row' }, example.bowling.faces.map((f) => die(f, 'bowling'))),
    p(L('scoring.example', { runs: runsText(score.runs), wickets: wicketsText(score.wickets), defence: score.defence })),
    p(L('scoring.order')),
  ];
}

function championshipsSection(rules) {
  const cards = rules.championship_cards || [];
  return [
    p(L('championships.lead', { count: cards.length })),
    table(null, [L('championships.name'), L('championships.points'), L('championships.wonBy')], cards.map((c) => h('tr', { 'data-championship': c.id },
      h('td', { 'data-field': 'name' }, h('strong', {}, championshipName(c))),
      h('td', { 'data-field': 'points' }, `+${c.points}`),
      h('td', { 'data-field': 'award' }, awardText(c.award)))), { 'data-testid': 'champions-championships-table' }),
    p(L(rules.cap_minimum > 0 ? 'championships.capsMinimum' : 'championships.caps', { count: rules.cap_minimum })),
  ];
}

export function sections(data) {
  const rules = (data && data.ruleset) || {};
  const rounds = rules.rounds;
  return [
    { id: 'overview', title: L('overview.title'), body: h('div', {},
      p(L('overview.lead', { rounds })),
      ul([
        L('overview.start', { count: rules.start_xp }),
        L('overview.market', { count: (rules.xp_cards || []).length, market: rules.market_size }),
        L('overview.championships', { count: (rules.championship_cards || []).length }),
        L('overview.public'),
      ])) },
    { id: 'round', title: L('round.title'), body: h('div', {},
      p(L('round.lead', { rounds })),
      h('ol', {}, [L('round.order'), L('round.overs', { offset: rules.stadium_bowler_offset }), L('round.buy')].map((x) => h('li', {}, x))),
      p(L('round.stadium'))) },
    { id: 'dice', title: L('dice.title'), body: h('div', {}, diceSection(rules)) },
    { id: 'rolling', title: L('rolling.title'), body: h('div', {},
      p(L('rolling.lead', { count: rules.rolls_per_turn, dice: rules.dice_per_roll })),
      ul([L('rolling.first'), L('rolling.reroll', { count: rules.rolls_per_turn - 1 }), L('rolling.stop'), L('rolling.bowler'), L('rolling.powers')])) },
    { id: 'scoring', title: L('scoring.title'), body: h('div', {}, scoringSection(rules)) },
    { id: 'cards', title: L('cards.title'), body: h('div', {}, cardsSection(rules)) },
    { id: 'market', title: L('market.title'), body: h('div', {},
      p(L('market.lead', { count: rules.market_size })),
      ul([L('market.buy'), L('market.replace'), L('market.permanent'), L('market.worth', { count: rules.xp_per_point })])) },
    { id: 'championships', title: L('championships.title'), body: h('div', {}, championshipsSection(rules)) },
    { id: 'elimination', title: L('elimination.title'), body: h('div', {},
      p(L('elimination.lead', { count: rules.elimination_wickets })),
      ul([L('elimination.lastOver', { count: rules.last_over_rolls }), L('elimination.after'), L('elimination.end', { count: rules.min_active_players })])) },
    { id: 'end', title: L('end.title'), body: h('div', {},
      p(L('end.lead', { rounds })),
      ul([L('end.runs'), L('end.wickets'), L('end.cards'), L('end.xp', { count: rules.xp_per_point })]),
      p(L('end.winner'))) },
  ];
}

/** Counts of faces on a set of dice. */
const countOf = (faces, face) => (faces || []).filter((f) => f === face).length;

/** One or two lines under the question: what the options do and risk, and the section. */
export function help(view) {
  const ask = view && view.ask;
  if (!ask) return null;
  const rules = view.rules || {};
  if (ask.ask === 'buy') {
    const last = rules.rounds && view.round >= rules.rounds;
    return { text: L(last ? 'help.buyLast' : 'help.buy', { xp: ask.xp, count: rules.xp_per_point ?? 3 }), section: 'market' };
  }
  if (ask.ask !== 'dice') return null;
  const role = ask.role === 'bowling' ? 'bowling' : 'batting';
  if (ask.first_roll && ask.rolls_left <= 1) {
    // A last over (the bowler was eliminated): one roll, no bowling dice.
    return { text: L('help.lastOver'), section: 'elimination' };
  }
  if (ask.first_roll) {
    return { text: L(`help.first.${role}`, { count: Math.max(0, ask.rolls_left - 1) }), section: role === 'batting' ? 'rolling' : 'dice' };
  }
  const powers = (ask.powers || []).length;
  if (ask.rolls_left === 0) {
    return { text: L(powers ? 'help.stopPowers' : 'help.stop'), section: powers ? 'cards' : 'rolling' };
  }
  if (role === 'bowling' && view.over) {
    const now = overScore(rules.run_sets, { batting: view.over.batting, bowling: { faces: [] } });
    return { text: L('help.reroll.bowling', { runs: runsText(now.runs), defence: now.defence }), section: 'scoring' };
  }
  return { text: L('help.reroll.batting'), section: 'scoring' };
}

/** The coach's key for a decision: its kind, once per match. */
function askKey(ask) {
  if (ask.ask === 'buy') return 'buy';
  const role = ask.role === 'bowling' ? 'bowling' : 'batting';
  if (ask.first_roll) return `first-${role}`;
  if ((ask.powers || []).length) return 'powers';
  if (ask.rolls_left === 0) return 'stop';
  return `reroll-${role}`;
}

const tutorial = {
  intro() {
    return [L('tutorial.intro.what'), L('tutorial.intro.coach'), L('tutorial.intro.same')];
  },
  ask(view) {
    const ask = view && view.ask;
    if (!ask) return null;
    const key = askKey(ask);
    return { key, text: L(`tutorial.ask.${key}`) };
  },
  ball(outcome, events, ctx) {
    const end = [...(events || [])].reverse().find((e) => e.type === 'over_resolved');
    if (!end) return null;
    const r = end.result || {};
    const finals = {};
    const bought = {};
    for (const e of events) {
      if (e.type === 'turn_ended' || e.type === 'dice_rolled') finals[e.role] = e.faces;
      if (e.type === 'turn_ended') bought[e.role] = e.bought_defence || 0;
    }
    const name = ctx && ctx.seatName ? ctx.seatName(end.batsman) : '';
    const mine = ctx && !ctx.spectate && ctx.seat !== null && ctx.seat !== undefined && Number(ctx.seat) === Number(end.batsman);
    const diceRuns = r.dice_runs || 0;
    const lines = [diceRuns
      ? (mine ? L('tutorial.ball.runsYou', { count: diceRuns }) : L('tutorial.ball.runs', { name, count: diceRuns }))
      : (mine ? L('tutorial.ball.noRunsYou') : L('tutorial.ball.noRuns', { name }))];
    if (r.wides) lines.push(L('tutorial.ball.wides', { count: r.wides }));
    if (r.saved) lines.push(L('tutorial.ball.saved', { count: r.saved }));
    if (r.bonus_runs) lines.push(L('tutorial.ball.bonus', { count: r.bonus_runs }));
    if (end.bowler === null || end.bowler === undefined) {
      lines.push(L('tutorial.ball.noBowler'));
    } else {
      const attack = countOf(finals.bowling, 'wicket');
      const defence = countOf(finals.batting, 'defence') + (bought.batting || 0);
      if (!attack) lines.push(L('tutorial.ball.noWicket'));
      else if (!r.wickets) lines.push(L('tutorial.ball.blocked', { attack, defence }));
      else lines.push(L('tutorial.ball.wickets', { attack, defence, count: r.wickets }));
    }
    lines.push(L('tutorial.ball.total', { runs: runsText(r.runs || 0), batsmanXp: r.batsman_xp || 0, bowlerXp: r.bowler_xp || 0 }));
    return lines.join(' ');
  },
  end(view, ctx) {
    const seat = ctx && ctx.seat !== null && ctx.seat !== undefined ? ctx.seat : 0;
    const points = ((view && view.points) || [])[seat];
    const won = view && view.outcome && view.outcome.placings && view.outcome.placings[seat] === 1;
    const lines = [L(won ? 'tutorial.end.won' : 'tutorial.end.lost')];
    if (points) lines.push(L('tutorial.end.points', { runs: points.runs, wickets: points.wickets, cards: points.championship, xp: points.unused_xp, total: points.total }));
    lines.push(L('tutorial.end.next'));
    return lines.join(' ');
  },
};

export default { sections, help, tutorial };
