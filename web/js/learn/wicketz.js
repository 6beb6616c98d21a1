// Learning Wicketz: the rules reference (every rule value drawn from the engine's data files:
// `ruleset`, `cards`, `printed_cards`, `outcomes` of GET /v1/games/wicketz/rules), the help
// line under each decision, and the light guided start (2 overs against the easy bot).
// Words from the `wicketzLearn` catalogue; the game's own names (deliveries, strokes, card
// results, merit) from `wicketz` through the game module, so both screens say the same.

import { h } from '../dom.js';
import { t, num, list } from '../i18n.js';
import {
  fieldPicture, deliveryName, strokeName, lineName, cardText, meritName, howName, resultText,
} from '../games/wicketz.js';

const L = (key, params) => t(`wicketzLearn.${key}`, params);
const p = (key, params) => h('p', {}, L(key, params));
const RESPECT = new Set(['good_length', 'yorker', 'bouncer', 'googly', 'bouncer_or_googly']);
const DEFENSIVE = new Set(['forward_defence', 'back_defence', 'leave']);
// The attacking strokes a good off- or leg-side line allows (rules::wicketz::strokes,
// `allowed_on_good_line`; the rulebook's "Bowling Variations" table).
const GOOD_LINE = {
  off_side: ['cut', 'square_cut', 'cover_drive', 'off_drive', 'straight_drive'],
  leg_side: ['leg_glance', 'hook', 'pull', 'on_drive', 'straight_drive'],
};
// The delivery order of the indicator and of the outcome table's columns.
const DELIVERIES = ['good_length', 'yorker', 'bouncer', 'googly', 'half_volley', 'full_toss', 'long_hop', 'no_ball'];

const segmentName = (segment) => (segment === 'bouncer_or_googly' ? t('wicketz.segment.bouncer_or_googly') : deliveryName(segment));
const cardsOf = (data) => (data && data.cards && Array.isArray(data.cards.cards) ? data.cards.cards : []);

/** A table: `head` cells, `rows` of cells; each row may carry attributes (`{ attrs, cells }`). */
function table(head, rows, attrs = {}) {
  return h('div', { class: 'wz-table-wrap' }, h('table', attrs,
    head ? h('thead', {}, h('tr', {}, head.map((cell) => h('th', { scope: 'col' }, cell)))) : null,
    h('tbody', {}, rows.map((row) => {
      const { attrs: rowAttrs = {}, cells } = Array.isArray(row) ? { cells: row } : row;
      return h('tr', rowAttrs, cells.map((cell, i) => (i === 0 ? h('th', { scope: 'row' }, cell) : h('td', {}, cell))));
    }))));
}

function matchSection() {
  return [p('match.sides'), p('match.length'), p('match.innings'), p('match.secret')];
}

function sequenceSection(rules) {
  return [
    h('ol', {},
      h('li', {}, L('sequence.setup')),
      h('li', {}, L('sequence.indicator')),
      h('li', {}, L('sequence.wide', { extras: t('wicketz.extras', { count: rules.wide_extra }) })),
      h('li', {}, L('sequence.stroke')),
      h('li', {}, L('sequence.card')),
      h('li', {}, L('sequence.over'))),
    p('sequence.who'),
  ];
}

function tossSection() {
  return [p('toss.what'), p('toss.advice')];
}

function setupSection(rules) {
  const def = rules.default_field || {};
  const fr = rules.fielding_restriction || {};
  return [
    h('h4', {}, L('setup.styleTitle')),
    p('setup.pace', { keeper: def.keeper_pace }),
    p('setup.spin', { keeper: def.keeper_spin }),
    h('h4', {}, L('setup.fieldTitle')),
    p('setup.places'),
    p('setup.why', { runs: t('wicketz.runs', { count: rules.saved_boundary_runs }) }),
    h('p', { 'data-testid': 'wz-default-field' }, L('setup.defaultField', {
      keeperPace: def.keeper_pace, keeperSpin: def.keeper_spin, bowler: def.bowler, fielders: list(def.fielders || []),
    })),
    h('h4', {}, L('setup.restrictionTitle')),
    h('p', { 'data-testid': 'wz-restriction' }, L('setup.restriction', {
      overs: fr.overs, per: fr.per_overs, max: fr.max_outside_inner,
    })),
  ];
}

function fieldSection(rules) {
  const def = rules.default_field || {};
  const field = { keeper: def.keeper_pace, bowler: def.bowler, fielders: def.fielders || [] };
  return [
    h('figure', { class: 'wz-learn-field' },
      fieldPicture(field, { ringLabels: true }),
      h('figcaption', { class: 'muted small' }, L('field.caption', { keeper: t('wicketz.field.keeperMark'), bowler: t('wicketz.field.bowlerMark') }))),
    p('field.letters'),
    p('field.rings'),
    p('field.position'),
  ];
}

function indicatorSection(rules) {
  const segments = rules.indicator || [];
  const total = segments.reduce((sum, s) => sum + s.weight, 0);
  const rows = segments.map((s) => ({
    attrs: { 'data-segment': s.segment, 'data-testid': 'wz-indicator-row' },
    cells: [
      segmentName(s.segment),
      [h('span', { class: 'wz-weight' }, L('indicator.weight', { weight: s.weight, total })),
        h('span', { class: ['wz-bar', !RESPECT.has(s.segment) && 'loose'], style: `width: ${Math.round((s.weight / total) * 100)}%` })],
      RESPECT.has(s.segment) ? L('indicator.respect') : L('indicator.loose'),
    ],
  }));
  return [
    p('indicator.what'),
    table([L('indicator.segment'), L('indicator.chance'), L('indicator.kind')], rows, { class: 'wz-indicator' }),
    h('ul', {}, DELIVERIES.concat('wide').map((d) => h('li', {}, h('strong', {}, deliveryName(d)), ' ', L(`indicator.about.${d}`)))),
  ];
}

function strokesSection(rules) {
  const strokes = rules.strokes || [];
  const kind = (s) => (s === 'avoiding_action' ? L('strokes.avoiding') : DEFENSIVE.has(s) ? L('strokes.defensive') : L('strokes.attacking'));
  return [
    p('strokes.what'),
    table([L('strokes.stroke'), L('strokes.kind'), L('strokes.directions')], strokes.map((s) => ({
      attrs: { 'data-stroke': s.stroke, 'data-testid': 'wz-stroke-row' },
      cells: [strokeName(s.stroke), kind(s.stroke), h('span', { class: 'wz-cue' }, s.cue.split('').join(' '))],
    }))),
    p('strokes.attack'),
    p('strokes.defend'),
    p('strokes.avoid', { lives: t('wicketzLearn.lives', { count: rules.bouncer_lives }) }),
  ];
}

function cardsSection(data) {
  const rules = data.ruleset || {};
  const cards = cardsOf(data);
  const plain = cards.filter((c) => c.kind === 'plain').length;
  const windows = new Map();
  for (const c of cards) windows.set(c.window, (windows.get(c.window) || 0) + 1);
  const results = new Map();
  for (const c of cards) for (const [, text] of c.rows) if (text !== '- -') results.set(text, (results.get(text) || 0) + 1);
  const printed = (data.printed_cards && data.printed_cards.cards) || [];
  const strokes = (rules.strokes || []).map((s) => s.stroke);
  return [
    h('p', { 'data-testid': 'wz-card-count' }, L('cards.count', { count: cards.length, plain, catches: cards.length - plain })),
    p('cards.rows'),
    h('p', { 'data-testid': 'wz-counting' }, L('cards.counting')),
    h('h4', {}, L('cards.readingTitle')),
    h('ol', {},
      h('li', {}, L('cards.readResult')),
      h('li', {}, L('cards.readCode')),
      h('li', {}, L('cards.readFielder'))),
    h('h4', {}, L('cards.windowsTitle')),
    table([L('cards.window'), L('cards.means'), L('cards.howMany')], [...windows.keys()].sort((a, b) => a - b).map((w) => ({
      attrs: { 'data-window': w, 'data-testid': 'wz-window-row' },
      cells: [String(w), L(`cards.windowMeans.w${w}`, { runs: t('wicketz.runs', { count: rules.saved_boundary_runs }) }), num(windows.get(w))],
    }))),
    p('cards.star'),
    h('h4', {}, L('cards.resultsTitle')),
    table([L('cards.result'), L('cards.rowsWithIt')], [...results.entries()].sort((a, b) => b[1] - a[1]).map(([text, n]) => ({
      attrs: { 'data-result': text, 'data-testid': 'wz-result-row' },
      cells: [cardText(text), num(n)],
    }))),
    h('h4', {}, L('cards.printedTitle')),
    p('cards.printed'),
    h('div', { class: 'wz-printed' }, printed.map((card) => h('figure', { 'data-testid': 'wz-printed-card', 'data-card': card.id },
      h('figcaption', {}, L(card.kind === 'catch' ? 'cards.printedCatch' : 'cards.printedPlain', { id: card.id })),
      table([L('strokes.stroke'), L('cards.code'), L('cards.result')], strokes.filter((s) => card.rows[s]).map((s) => ({
        attrs: { 'data-stroke': s },
        cells: [strokeName(s), card.rows[s][0], cardText(card.rows[s][1])],
      })))))),
  ];
}

function outcomesSection(data) {
  const outcomes = data.outcomes || { entries: [], cards: 0 };
  const cards = outcomes.cards;
  const byKey = new Map(outcomes.entries.map((e) => [`${e.stroke}:${e.delivery}`, e]));
  const strokes = ((data.ruleset && data.ruleset.strokes) || []).map((s) => s.stroke);
  const deliveries = DELIVERIES.filter((d) => outcomes.entries.some((e) => e.delivery === d));
  const grid = (cell, testid) => table([L('strokes.stroke'), ...deliveries.map(deliveryName)], strokes.map((s) => ({
    attrs: { 'data-stroke': s },
    cells: [strokeName(s), ...deliveries.map((d) => {
      const e = byKey.get(`${s}:${d}`);
      return e ? h('span', { 'data-delivery': d, 'data-testid': testid }, cell(e)) : '—';
    })],
  })), { class: 'wz-outcomes' });
  return [
    p('outcomes.what', { cards }),
    h('h4', {}, L('outcomes.outTitle', { cards })),
    grid((e) => num(e.out), 'wz-out'),
    p('outcomes.outNote'),
    h('h4', {}, L('outcomes.runsTitle')),
    grid((e) => num(e.runs / cards, { minimumFractionDigits: 2, maximumFractionDigits: 2 }), 'wz-runs'),
    p('outcomes.runsNote'),
  ];
}

function catchSection(rules) {
  const c = rules.catch_not_out || { numerator: 0, denominator: 1 };
  return [
    p('catch.what'),
    table([L('catch.batters'), L('catch.livesHead')], (rules.lives || []).map((l) => ({
      attrs: { 'data-testid': 'wz-lives-row', 'data-from': l.from_batter },
      cells: [L('catch.range', { from: l.from_batter, to: l.to_batter }), t('wicketzLearn.lives', { count: l.lives })],
    }))),
    h('p', { 'data-testid': 'wz-bouncer-lives' }, L('catch.bouncer', { lives: t('wicketzLearn.lives', { count: rules.bouncer_lives }) })),
    h('p', { 'data-testid': 'wz-catch-chance' }, L('catch.chance', { n: c.numerator, d: c.denominator })),
  ];
}

function scoringSection(rules) {
  const o = rules.overthrow_runs || {};
  return [
    p('scoring.bat'),
    h('p', { 'data-testid': 'wz-saved' }, L('scoring.saved', { runs: t('wicketz.runs', { count: rules.saved_boundary_runs }) })),
    h('p', { 'data-testid': 'wz-overthrows' }, L('scoring.overthrows', { occupied: t('wicketz.runs', { count: o.occupied }), empty: t('wicketz.runs', { count: o.empty }) })),
    p('scoring.byes'),
    h('p', { 'data-testid': 'wz-extras' }, L('scoring.extras', { wide: t('wicketz.extras', { count: rules.wide_extra }), noBall: t('wicketz.extras', { count: rules.no_ball_extra }) })),
    p('scoring.ends'),
  ];
}

function wildSection(rules) {
  return [
    h('p', { 'data-testid': 'wz-wild' }, L('wild.when', { runs: t('wicketz.runs', { count: rules.wild_card_max_over_runs }) })),
    p('wild.use'),
  ];
}

function variationsSection(rules) {
  const spin = rules.line_pre_spin_good || { numerator: 0, denominator: 1 };
  return [
    p('variations.lines', { wicket: lineName('wicket'), off: lineName('off_side'), leg: lineName('leg_side') }),
    h('p', { 'data-testid': 'wz-line-spin' }, L('variations.spin', { n: spin.numerator, d: spin.denominator })),
    p('variations.off', { strokes: list(GOOD_LINE.off_side.map(strokeName)) }),
    p('variations.leg', { strokes: list(GOOD_LINE.leg_side.map(strokeName)) }),
    p('variations.defence'),
  ];
}

function endSection(rules) {
  const merit = rules.merit || { ratings: [], per_overs: 40 };
  return [
    p('end.innings'),
    p('end.chase'),
    p('end.result'),
    p('end.two'),
    h('h4', {}, L('end.meritTitle')),
    p('end.merit', { per: merit.per_overs }),
    table([L('end.runs'), L('end.rating')], [
      ...merit.ratings.map((r) => ({ attrs: { 'data-testid': 'wz-merit-row', 'data-rating': r.rating }, cells: [L('end.atLeast', { runs: r.min_runs }), meritName(r.rating)] })),
      { attrs: { 'data-testid': 'wz-merit-row', 'data-rating': merit.below }, cells: [L('end.below', { runs: merit.ratings.length ? merit.ratings[merit.ratings.length - 1].min_runs : 0 }), meritName(merit.below)] },
    ]),
  ];
}

/** The reference, in reading order. */
function sections(data) {
  const d = data || {};
  const rules = d.ruleset || {};
  const section = (id, body) => ({ id, title: L(`titles.${id.replace(/-(\w)/g, (w, c) => c.toUpperCase())}`), body: h('div', { class: 'wz-learn' }, body) });
  return [
    section('match', matchSection()),
    section('sequence', sequenceSection(rules)),
    section('toss', tossSection()),
    section('over-setup', setupSection(rules)),
    section('field', fieldSection(rules)),
    section('indicator', indicatorSection(rules)),
    section('strokes', strokesSection(rules)),
    section('cards', cardsSection(d)),
    section('outcomes', outcomesSection(d)),
    section('catch', catchSection(rules)),
    section('scoring', scoringSection(rules)),
    section('wild-card', wildSection(rules)),
    section('variations', variationsSection(rules)),
    section('end', endSection(rules)),
  ];
}

/** The help line under a decision: what the options do and risk, and where the rule is. */
function help(view) {
  const ask = view && view.ask;
  if (!ask) return null;
  switch (ask.decision) {
    case 'choose_innings':
      return { text: L('help.toss'), section: 'toss' };
    case 'set_over':
      return ask.max_outside_inner !== null && ask.max_outside_inner !== undefined
        ? { text: L('help.setOverRestricted', { count: ask.max_outside_inner }), section: 'over-setup' }
        : { text: L('help.setOver'), section: 'over-setup' };
    case 'play': {
      const delivery = deliveryName(ask.delivery);
      if (ask.wild_card) return { text: L('help.playWild', { id: ask.wild_card.id, window: ask.wild_card.window }), section: 'wild-card' };
      const over = view.over;
      if (over && over.line && over.line !== 'wicket' && over.line_good && GOOD_LINE[over.line]) {
        return { text: L('help.playLine', { line: lineName(over.line), strokes: list(GOOD_LINE[over.line].map(strokeName)) }), section: 'variations' };
      }
      if (ask.delivery === 'bouncer') return { text: L('help.playBouncer'), section: 'strokes' };
      if (ask.delivery === 'no_ball') return { text: L('help.playNoBall'), section: 'scoring' };
      if (RESPECT.has(ask.delivery)) return { text: L('help.playRespect', { delivery }), section: 'outcomes' };
      return { text: L('help.playLoose', { delivery }), section: 'outcomes' };
    }
    default:
      return null;
  }
}

/** Why the ball just played ended as it did, from its `ball_completed` event. */
function whyBall(outcome, events) {
  const end = [...(events || [])].reverse().find((e) => e && e.type === 'ball_completed');
  if (!end || !end.ball) return null;
  const b = end.ball;
  const r = b.reading || {};
  const zone = r.zone ? (typeof r.zone === 'string' ? r.zone : `${'ABCDEFGHIJKLMNOPQ'[r.zone.letter]}${r.zone.ring}`) : '';
  const params = {
    stroke: b.stroke ? strokeName(b.stroke) : '', card: b.card, delivery: deliveryName(b.delivery), zone, letter: r.letter,
    runs: (b.bat_runs || 0) + (b.byes || 0) ? t('wicketz.runs', { count: (b.bat_runs || 0) + (b.byes || 0) }) : t('wicketz.noRun'),
    extras: t('wicketz.extras', { count: b.extras || 0 }),
  };
  if (!b.stroke) return L('ball.wide', params);
  const sentences = [];
  if (b.wild_card) sentences.push(L('ball.wildCard', params));
  if (b.dismissal) {
    const how = b.dismissal.how && (typeof b.dismissal.how === 'string' ? b.dismissal.how : b.dismissal.how.kind);
    if (how === 'caught') sentences.push(L('ball.caught', { ...params, lives: t('wicketzLearn.lives', { count: b.catch ? b.catch.lives : 1 }) }));
    else if (how === 'run_out') sentences.push(L('ball.runOut', params));
    else if (how === 'lbw') sentences.push(L('ball.lbw', params));
    else if (how === 'bowled') sentences.push(L('ball.bowled', params));
    else sentences.push(L('ball.out', { ...params, how: howName(b.dismissal.how) }));
  } else if (b.catch) {
    sentences.push(L('ball.dropped', params));
  } else {
    const key = {
      runs: 'ball.runs', fielded: 'ball.fielded', four: 'ball.four', saved_boundary: 'ball.saved', six: 'ball.six',
      byes: 'ball.byes', played_and_missed: 'ball.missed', no_score: 'ball.noScore',
      overthrows: r.occupied ? 'ball.overthrowsOccupied' : 'ball.overthrowsEmpty',
    }[r.kind];
    if (key) sentences.push(L(key, params));
  }
  if (b.delivery === 'no_ball') sentences.push(b.extras ? L('ball.noBallExtra', params) : L('ball.noBall', params));
  return sentences.join(' ') || null;
}

const tutorial = {
  intro() {
    return [L('tutorial.intro1'), L('tutorial.intro2'), L('tutorial.intro3')];
  },
  ask(view) {
    const ask = view && view.ask;
    if (!ask) return null;
    switch (ask.decision) {
      case 'choose_innings': return { key: 'choose_innings', text: L('tutorial.toss', { bat: t('wicketz.toss.bat'), bowl: t('wicketz.toss.bowl') }) };
      case 'set_over': return { key: 'set_over', text: L('tutorial.setOver', { button: t('wicketz.setOver.bowl') }) };
      // Shown until the next kind of decision, so it names no delivery (the next ball's differs).
      case 'play': return { key: 'play', text: L('tutorial.play') };
      default: return null;
    }
  },
  ball: (outcome, events) => whyBall(outcome, events),
  end(view, ctx) {
    const outcome = view && view.outcome;
    const seatName = (ctx && ctx.seatName) || ((seat) => String(seat));
    const result = outcome ? resultText(outcome.summary, seatName) : '';
    return result ? L('tutorial.end', { result }) : L('tutorial.endNoResult');
  },
};

export default { sections, help, tutorial };
