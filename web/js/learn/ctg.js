// Cricket: The Game: the rules reference, the help line under each decision and the
// tutorial's coach (see js/learn.js for the contract). Every rule value the reference shows
// (card effects, decks, dice faces, catch values, express tables, skill limits) is read from
// `data` = GET /v1/games/ctg/rules (the engine's data/ctg/*.json, and `data.engine`: the
// values it holds in code, such as each format's overs and dice, the field limits and the
// over cards' rolls); each such value sits in an element with `data-rule="<path>"` (a path
// in ruleset.json, or `engine.<path>` in data.engine) so a test can hold the page to them.
// The catalogue's sentences name these values as {placeholders}, filled by `kr` with marked
// spans in the reference and by `plainRules` in the help lines and the coach.
// The words are the `ctgLearn` catalogue's (English and Brazilian Portuguese, with the
// Portuguese rulebook's cricket terms).

import { h } from '../dom.js';
import { t, num, list as listOf } from '../i18n.js';
import { loadRulesData } from '../learn.js';
import { ZONE_SHOTS } from '../games/field.js';

const TYPES = ['pace', 'spin', 'medium'];
const EFFECTS = ['howzat', 'no_ball', 'great_catch', 'inspired', 'boundary', 'quick_single', 'run_out', 'great_shot', 'play_on'];
const ASKS = ['select_squad', 'toss', 'choose_bowler', 'openers', 'next_batter', 'power_play', 'set_field', 'bowl', 'shot',
  'skills', 'quick_single', 'reroll_to_hit', 'miss', 'distance', 'reroll_bounce', 'run', 'review'];
/** The reference section that explains each decision. */
const SECTION_OF = {
  select_squad: 'sequence', toss: 'sequence', choose_bowler: 'sequence', openers: 'sequence', next_batter: 'sequence',
  power_play: 'field', set_field: 'field', bowl: 'advantage', shot: 'advantage', skills: 'cards', quick_single: 'cards',
  reroll_to_hit: 'dice', miss: 'dice', distance: 'dice', reroll_bounce: 'dice', run: 'scoring', review: 'scoring',
};

// The ruleset and the engine's own values (`data.engine`), once loaded: the coach needs an
// over card's effect and value by index, and the help lines the engine's limits.
let RULES = null;
let ENGINE = null;
function rules() {
  if (!RULES) {
    loadRulesData('ctg').then((data) => {
      RULES = data && data.ruleset;
      ENGINE = (data && data.engine) || null;
    }).catch(() => {});
  }
  return RULES;
}
rules();

const k = (key, params) => t(`ctgLearn.${key}`, params);
const signed = (n) => (n > 0 ? `+${num(n)}` : num(n));
/**
 * A rule value on the page, tagged with its path: in ruleset.json, `squads.*` in squads.json,
 * or `engine.*` in the rules answer's `engine` (the values the engine holds in code).
 */
const val = (path, text, tag = 'span') => h(tag, { 'data-rule': path }, text);

/**
 * The rule values the catalogue's sentences name, by placeholder: [path, value, plus] (the
 * page shows value + plus: the Power Play starts the over after the restricted ones). From
 * the ruleset and the engine; nothing here is typed in.
 */
function ruleValues(ruleset, engine) {
  const r = ruleset || {};
  const e = engine || {};
  const formats = e.formats || {};
  const f = (format, key) => [`engine.formats.${format}.${key}`, (formats[format] || {})[key]];
  const top = (key) => [`engine.${key}`, e[key]];
  return {
    howzatMin: top('howzat_min'),
    greatCatchMin: top('great_catch_min'),
    sixesBowledMin: top('express_sixes_bowled_min'),
    runOutFieldedMin: top('run_out_fielded_min'),
    runOutExtraMin: top('run_out_extra_run_min'),
    runOutCardMin: top('run_out_card_min'),
    addOneMax: top('pace_add_one_max_distance'),
    outfieldLimit: top('outfield_limit'),
    restrictedLimit: top('restricted_outfield_limit'),
    t10Overs: f('t10', 'overs'),
    t20Overs: f('t20', 'overs'),
    t10Sides: f('t10', 'distance_sides'),
    t20Sides: f('t20', 'distance_sides'),
    t10Restricted: f('t10', 'restricted_overs'),
    t20Restricted: f('t20', 'restricted_overs'),
    powerFrom: [...f('t10', 'restricted_overs'), 1],
    powerTo: f('t10', 'overs'),
    runOut: ['express_run_out_min', r.express_run_out_min],
    slip: ['slip_catch_min', r.slip_catch_min],
  };
}
/** How a rule value reads: numbers in the language's digits, yes / no for a format's switch. */
function ruleText(value, plus = 0) {
  if (typeof value === 'boolean') return k(value ? 'sequence.yes' : 'sequence.no');
  if (typeof value !== 'number') return '?';
  return num(value + plus);
}
/** The same values as plain text, for the help line and the coach (strings, not nodes). */
function plainRules() {
  const out = {};
  for (const [name, [, value, plus]] of Object.entries(ruleValues(RULES, ENGINE))) out[name] = ruleText(value, plus);
  return out;
}
// The values of the reference being drawn (set by sections()).
let SHOWN = ruleValues(null, null);
/**
 * A catalogue sentence with each rule value it names in its own tagged element: `kr` fills
 * the placeholders of `rules` (default: the reference's values) with marked spans, the rest
 * from `params` as `k` does.
 */
function kr(key, params = {}, rules = SHOWN) {
  const marks = {};
  for (const name of Object.keys(rules)) marks[name] = `\u0001${name}\u0002`;
  const text = k(key, { ...marks, ...params });
  const parts = text.split(/\u0001(\w+)\u0002/);
  return h('span', {}, parts.map((part, i) => {
    if (i % 2 === 0) return part;
    const [path, value, plus = 0] = rules[part];
    return h('span', { 'data-rule': path, ...(plus ? { 'data-rule-plus': String(plus) } : {}) }, ruleText(value, plus));
  }));
}
const shotName = (shot) => k(`shots.${shot}`);
const typeName = (type) => k(`types.${type}`);
const effectName = (effect) => k(`effects.${effect}.name`);
function zoneOfShot(shot) {
  for (const [zone, shots] of Object.entries(ZONE_SHOTS)) if (shots.includes(shot)) return Number(zone);
  return null;
}
const zoneName = (zone) => (zone === 0 ? k('zones.bye') : ZONE_SHOTS[zone].map(shotName).join(' / '));
const para = (...lines) => lines.map((line) => h('p', {}, line));
const list = (items, tag = 'ul') => h(tag, {}, items.map((item) => h('li', {}, item)));
function table(head, rows, attrs = {}) {
  return h('div', { class: 'ctgl-table-wrap' }, h('table', attrs,
    h('thead', {}, h('tr', {}, head.map((cell) => h('th', {}, cell)))),
    h('tbody', {}, rows.map((row) => h('tr', {}, row.map((cell) => h('td', {}, cell)))))));
}
/** "1R" → "1 area, in the air"; "0G" → "0 areas, along the ground". */
function faceWords(face) {
  const areas = Number(String(face).slice(0, -1));
  const red = String(face).endsWith('R');
  if (areas === 0) return k(red ? 'dice.faceRedStay' : 'dice.faceGreenStay');
  return k(red ? 'dice.faceRed' : 'dice.faceGreen', { count: areas });
}

// ---------------------------------------------------------------- pictures

/** The field: six zones round the batter, each cut into distance areas, from the ruleset. */
function fieldFigure(ruleset, t10Areas) {
  const catchValues = ruleset.catch_values || [];
  const areas = catchValues.length;
  const red = new Set((ruleset.red_outlines || []).map((o) => `${o.zone}:${o.area}`));
  const centre = { 0: 180, 1: 240, 2: 300, 3: 0, 4: 60, 5: 120 };
  const inner = 22;
  const outer = 118;
  const band = (outer - inner) / Math.max(areas, 1);
  const pt = (r, deg) => [r * Math.sin((deg * Math.PI) / 180), -r * Math.cos((deg * Math.PI) / 180)];
  const f = (n) => n.toFixed(1);
  const wedge = (r1, r2, a1, a2) => {
    const [x1, y1] = pt(r1, a1); const [x2, y2] = pt(r2, a1); const [x3, y3] = pt(r2, a2); const [x4, y4] = pt(r1, a2);
    return `M${f(x1)} ${f(y1)} L${f(x2)} ${f(y2)} A${r2} ${r2} 0 0 1 ${f(x3)} ${f(y3)} L${f(x4)} ${f(y4)} A${r1} ${r1} 0 0 0 ${f(x1)} ${f(y1)} Z`;
  };
  const parts = [h('svg:circle', { cx: 0, cy: 0, r: outer + 6, class: 'ctgl-grass' })];
  for (let zone = 0; zone <= 5; zone += 1) {
    const zoneAreas = zone === 0 ? 2 : areas;
    for (let area = 1; area <= zoneAreas; area += 1) {
      const r1 = inner + band * (area - 1);
      const r2 = inner + band * area;
      const outfield = area > 2;
      const isRed = red.has(`${zone}:${area}`);
      const value = Number(catchValues[area - 1]) - (isRed ? 1 : 0);
      parts.push(h('svg:path', {
        d: wedge(r1, r2, centre[zone] - 30, centre[zone] + 30),
        class: ['ctgl-area', outfield ? 'out' : 'in', zone === 0 && 'bye', area > t10Areas && 't20', isRed && 'red'],
      }, h('svg:title', {}, k('field.areaTitle', { zone, area, value }))));
      const [x, y] = pt((r1 + r2) / 2, centre[zone]);
      parts.push(h('svg:text', { x: f(x), y: f(y + 3), class: 'ctgl-catch', 'data-rule': isRed ? 'red_outlines' : `catch_values.${area - 1}` }, `${value}+`));
    }
    const [lx, ly] = pt(outer + 20, centre[zone]);
    parts.push(h('svg:text', { x: f(lx), y: f(ly + 4), class: 'ctgl-zone-label' }, zone === 0 ? k('zones.byeShort') : String(zone)));
  }
  parts.push(h('svg:rect', { x: -3, y: -12, width: 6, height: 24, class: 'ctgl-pitch' }));
  return h('figure', { class: 'ctgl-figure', 'data-testid': 'ctg-field-picture' },
    h('svg:svg', { viewBox: '-150 -150 300 300', width: 300, height: 300, role: 'img', 'aria-label': k('field.pictureLabel') }, parts),
    h('figcaption', {}, k('field.caption')),
    h('ul', { class: 'ctgl-legend' },
      h('li', {}, h('i', { class: 'ctgl-key in' }), k('field.keyInfield')),
      h('li', {}, h('i', { class: 'ctgl-key out' }), k('field.keyOutfield')),
      areas > t10Areas ? h('li', {}, h('i', { class: 'ctgl-key t20' }), kr('field.keyT20', { area: areas })) : null,
      h('li', {}, h('i', { class: 'ctgl-key red' }), k('field.keyRed')),
      h('li', {}, h('i', { class: 'ctgl-key bye' }), k('field.keyBye'))));
}

/** The Advantage scale -1..+3, bowler's side on the left. */
function advantageFigure() {
  const steps = [-1, 0, 1, 2, 3];
  return h('figure', { class: 'ctgl-figure', 'data-testid': 'ctg-advantage-picture' },
    h('div', { class: 'ctgl-scale', role: 'img', 'aria-label': k('advantage.pictureLabel') },
      steps.map((v) => h('div', { class: ['ctgl-step', v < 0 ? 'neg' : v > 0 ? 'pos' : 'zero'] },
        h('strong', {}, signed(v)),
        h('small', {}, v < 0 ? k('advantage.stepBowler', { count: -v }) : v > 0 ? k('advantage.stepBatter', { count: v }) : k('advantage.stepNeutral'))))),
    h('div', { class: 'ctgl-scale-ends' }, h('span', {}, k('advantage.bowlerSide')), h('span', {}, k('advantage.batterSide'))),
    h('figcaption', {}, k('advantage.caption')));
}

/** The two bounce dice, face by face, as the dice panel shows them: red faces in the air. */
function diceFigure(ruleset) {
  const dice = ruleset.bounce_dice || {};
  return h('figure', { class: 'ctgl-figure', 'data-testid': 'ctg-dice-picture' },
    ['red', 'green'].map((die) => h('div', { class: 'ctgl-dice-row' },
      h('span', { class: 'ctgl-dice-name' }, k(die === 'red' ? 'dice.redDie' : 'dice.greenDie')),
      (dice[die] || []).map((face, i) => h('span', {
        class: ['ctgl-die', String(face).endsWith('R') ? 'air' : 'ground', die],
        title: faceWords(face),
        'data-rule': `bounce_dice.${die}.${i}`,
      }, face)))),
    h('figcaption', {}, k('dice.pictureCaption')));
}

function pips(value) {
  return h('span', { class: 'ctgl-pips', role: 'img', 'aria-label': k('advantage.pipsLabel', { value: signed(value) }) },
    [-1, 0, 1, 2, 3].map((v) => h('i', { class: [v <= value && 'on', v < 0 && 'neg'] })));
}

// ---------------------------------------------------------------- the reference

/** T10 and T20 side by side, every value from the engine's formats. */
function formatTable(engine) {
  const formats = (engine && engine.formats) || {};
  const names = Object.keys(formats);
  const path = (format, key) => `engine.formats.${format}.${key}`;
  const cell = (key, show = (format) => val(path(format, key), ruleText(formats[format][key]))) => names.map(show);
  const switchCell = (key, yesKey, extra = () => ({})) => cell(key, (format) => (formats[format][key]
    ? kr(yesKey, {}, { yes: [path(format, key), true], ...extra(format) })
    : val(path(format, key), ruleText(false))));
  return table([k('sequence.formatRule'), ...names.map((format) => format.toUpperCase())], [
    [k('sequence.fOvers'), ...cell('overs')],
    [k('sequence.fDistance'), ...cell('distance_sides', (format) => kr('sequence.die', {}, { sides: [path(format, 'distance_sides'), formats[format].distance_sides] }))],
    [k('sequence.fAreas'), ...cell('areas')],
    [k('sequence.fBowlerCap'), ...cell('max_overs_per_bowler')],
    [kr('sequence.fRestricted'), ...cell('restricted_overs', (format) => h('span', { style: 'white-space: nowrap' },
      kr('sequence.overRange', { from: 1 }, { to: [path(format, 'restricted_overs'), formats[format].restricted_overs] })))],
    [k('sequence.fOutfield'), ...names.map(() => val('engine.outfield_limit', ruleText(engine.outfield_limit)))],
    [k('sequence.fZoneOfThree'), ...switchCell('one_zone_of_three', 'sequence.yesZone')],
    [k('sequence.fPowerPlay'), ...switchCell('has_power_play', 'sequence.powerPlayOvers', (format) => ({
      from: [path(format, 'restricted_overs'), formats[format].restricted_overs, 1], to: [path(format, 'overs'), formats[format].overs],
    }))],
    [k('sequence.fDrs'), ...switchCell('has_drs', 'sequence.yesOnce')],
  ], { 'data-testid': 'ctg-format-table' });
}

function sequenceSection(ruleset, squads, engine) {
  const squadList = (squads && squads.squads) || [];
  return [
    ...para(k('sequence.lead')),
    h('h4', {}, k('sequence.setupTitle')),
    list([
      k('sequence.setup1', { count: squadList[0] ? squadList[0].players.length : 12 }),
      k('sequence.setup2', { pitches: (ruleset.pitch_cards || []).map((p) => k(`pitch.${p.name.toLowerCase()}.name`)).join(', ') }),
      k('sequence.setup3'), k('sequence.setup4'), k('sequence.setup5'),
    ], 'ol'),
    h('h4', {}, k('sequence.overTitle')),
    list([k('sequence.over1'), k('sequence.over2'), k('sequence.over3'), k('sequence.over4')], 'ol'),
    h('h4', {}, k('sequence.ballTitle')),
    list([k('sequence.ball1'), k('sequence.ball2'), k('sequence.ball3'), k('sequence.ball4'), k('sequence.ball5'), k('sequence.ball6'), k('sequence.ball7'), k('sequence.ball8')], 'ol'),
    h('h4', {}, k('sequence.formatTitle')),
    formatTable(engine),
    ...para(k('sequence.tutorialNote')),
    h('h4', {}, k('sequence.squadsTitle')),
    ...para(k('sequence.squadsText')),
    table([k('sequence.squadCol'), k('sequence.roleCol'), k('sequence.confCol')], squadList.flatMap((squad, s) =>
      [...roleSummary(squad)].map(([role, confs], i) => [i === 0 ? val(`squads.${s}.name`, squad.name, 'strong') : '', k(`roles.${role}`), confs]))),
  ];
}

function roleSummary(squad) {
  const by = new Map();
  for (const p of squad.players || []) {
    const key = p.role === 'all_rounder' ? 'all_rounder' : p.role;
    if (!by.has(key)) by.set(key, []);
    by.get(key).push(p.captain ? k('sequence.captainConf', { value: signed(p.confidence) }) : signed(p.confidence));
  }
  return [...by].map(([role, confs]) => [role, confs.join(', ')]);
}

/**
 * A link to another section. On the page the address names it; in the dialog over a match
 * it scrolls there instead (following the address would leave the match).
 */
function sectionLink(id) {
  return h('a', {
    href: `#/rules/ctg/${id}`,
    'data-section-link': id,
    onclick: (event) => {
      const link = event.currentTarget;
      const target = link.closest('dialog') && link.closest('.reference') && link.closest('.reference').querySelector(`[data-section="${id}"]`);
      if (!target) return;
      event.preventDefault();
      target.scrollIntoView({ block: 'start' });
    },
  }, k(`sections.${id}`));
}

function decisionsSection() {
  return [
    ...para(k('decisions.lead')),
    h('dl', { class: 'ctgl-decisions' }, ASKS.flatMap((ask) => [
      h('dt', { 'data-ask': ask }, k(`asks.${ask}.name`)),
      h('dd', {}, kr(`asks.${ask}.ref`), ' ', sectionLink(SECTION_OF[ask])),
    ])),
  ];
}

function diceSection(ruleset) {
  const bowled = ruleset.bowled_chance || {};
  const reading = bowled.bowled_paragraph || {};
  const other = bowled.missed_strike || {};
  const dieRows = (die, colour) => (ruleset.bounce_dice[die] || []).map((face, i) =>
    [num(i + 1), val(`bounce_dice.${die}.${i}`, face, 'strong'), faceWords(face)]);
  return [
    ...para(k('dice.lead')),
    h('h4', {}, k('dice.labelsTitle')),
    list([k('dice.labelPlus'), k('dice.labelFace'), k('dice.labelDie')]),
    h('h4', {}, k('dice.rollTitle')),
    ...para(k('dice.rollText')),
    list((ruleset.pitch_cards || []).map((p) => h('span', {}, h('strong', {}, k(`pitch.${p.name.toLowerCase()}.name`)), ': ',
      p.d8_first_ball_for ? k('dice.pitchD8', { type: typeName(p.d8_first_ball_for) }) : k('dice.pitchNone')))),
    h('h4', {}, k('dice.orderTitle')),
    list([k('dice.order1'), k('dice.order2'), k('dice.order3'), k('dice.order4'), k('dice.order5')], 'ol'),
    h('h4', {}, k('dice.missTitle')),
    table([k('dice.attitudeCol'), k('dice.dieCol'), k('dice.bowledOnCol')], ['aggressive', 'defensive'].map((a) => [
      k(`attitude.${a}`),
      h('span', {}, 'D', val(`bowled_chance.bowled_paragraph.${a}.sides`, num(reading[a] ? reading[a].sides : 0))),
      h('span', {}, val(`bowled_chance.bowled_paragraph.${a}.min`, num(reading[a] ? reading[a].min : 0)), '+'),
    ]), { 'data-testid': 'ctg-bowled-table' }),
    ...para(kr('dice.missText', {
      aSides: other.aggressive ? other.aggressive.sides : '', aMin: other.aggressive ? other.aggressive.min : '',
      dSides: other.defensive ? other.defensive.sides : '', dMin: other.defensive ? other.defensive.min : '',
    })),
    h('h4', {}, k('dice.distanceTitle')),
    ...para(kr('dice.distanceText')),
    h('h4', {}, k('dice.bounceTitle')),
    ...para(k('dice.bounceText')),
    diceFigure(ruleset),
    h('div', { class: 'ctgl-two' },
      h('div', {}, h('h5', {}, k('dice.redDie')), table([k('dice.faceCol'), k('dice.labelCol'), k('dice.meansCol')], dieRows('red'), { 'data-testid': 'ctg-bounce-red' })),
      h('div', {}, h('h5', {}, k('dice.greenDie')), table([k('dice.faceCol'), k('dice.labelCol'), k('dice.meansCol')], dieRows('green'), { 'data-testid': 'ctg-bounce-green' }))),
    h('h4', {}, k('dice.skillsTitle')),
    table([k('cards.skillCol'), k('cards.limitCol'), k('cards.whatCol')], [
      ['reroll_to_hit', 'innings'], ['reroll_distance', 'innings'], ['reroll_bounce', 'innings'], ['add_one_advantage', 'over'], ['roll_d8', 'over'],
    ].map(([skill, per]) => [k(`skills.${skill}.name`),
      h('span', {}, val(`skills.${skill}_per_${per}`, num(ruleset.skills[`${skill}_per_${per}`])), ' ', k(per === 'over' ? 'cards.perOver' : 'cards.perInnings', { count: ruleset.skills[`${skill}_per_${per}`] })),
      k(`skills.${skill}.text`)]), { 'data-testid': 'ctg-skills-table' }),
  ];
}

function fieldSection(ruleset, engine) {
  const catchValues = ruleset.catch_values || [];
  const t10Areas = ((engine && engine.formats && engine.formats.t10) || {}).areas ?? catchValues.length;
  return [
    ...para(k('field.lead')),
    fieldFigure(ruleset, t10Areas),
    h('h4', {}, k('field.zonesTitle')),
    table([k('field.zoneCol'), k('field.shotsCol')], [0, 1, 2, 3, 4, 5].map((z) => [num(z), zoneName(z)])),
    h('h4', {}, k('field.areasTitle')),
    table([k('field.areaCol'), k('field.distanceCol'), k('field.partCol'), k('field.catchCol')], catchValues.map((value, i) => [
      num(i + 1), k('field.distances', { from: 2 * i + 1, to: 2 * i + 2 }),
      i < 2 ? k('field.infield') : i + 1 > t10Areas ? k('field.outfieldT20') : k('field.outfield'),
      h('span', {}, val(`catch_values.${i}`, num(value)), '+'),
    ]), { 'data-testid': 'ctg-areas-table' }),
    ...para(k('field.redText', { places: (ruleset.red_outlines || []).map((o) => k('field.place', { zone: o.zone, area: o.area })).join(', ') })),
    h('h4', {}, k('field.restrictTitle')),
    list([k('field.r1'), k('field.r2'), k('field.r3'), kr('field.r4'), k('field.r5'), k('field.r6')]),
    h('h4', {}, k('field.powerTitle')),
    ...para(kr('field.powerText')),
  ];
}

function advantageSection(ruleset) {
  const patience = ruleset.patience_confidence || {};
  return [
    ...para(k('advantage.lead')),
    advantageFigure(),
    list([k('advantage.r1'), k('advantage.r2'), k('advantage.r3'), k('advantage.r4'), k('advantage.r5')]),
    h('h4', {}, k('advantage.exampleTitle')),
    ...para(k('advantage.example')),
    h('h4', {}, k('advantage.confTitle')),
    ...para(k('advantage.confText')),
    h('div', { class: 'ctgl-pips-row' }, [-1, 0, 1, 2, 3].map((v) => h('span', {}, pips(v), ' ', signed(v)))),
    list([k('advantage.c1'), k('advantage.c2'),
      h('span', {}, k('advantage.c3'),
        ' ', val('patience_confidence.aggressive', signed(patience.aggressive ?? 0), 'span'), ' / ', val('patience_confidence.defensive', signed(patience.defensive ?? 0), 'span'))]),
  ];
}

function cardsSection(ruleset) {
  const decks = ruleset.bowling_decks || {};
  const overDecks = ruleset.over_decks || {};
  const counts = (type, effect) => (overDecks[type] ? overDecks[type].effects.filter((e) => e === effect).length : 0);
  return [
    ...para(k('cards.lead')),
    h('h4', {}, k('cards.bowlTitle')),
    ...para(k('cards.bowlText')),
    h('div', { class: 'ctgl-decks' }, TYPES.map((type) => h('div', {},
      h('h5', {}, typeName(type)),
      table([k('cards.cardCol'), k('cards.weakCol'), k('cards.zonesCol')], (decks[type] || []).map((card, i) => [
        val(`bowling_decks.${type}.${i}.name`, card.name, 'strong'),
        h('span', {}, card.shots.map((s, j) => [j ? ', ' : '', val(`bowling_decks.${type}.${i}.shots.${j}`, shotName(s))])),
        [...new Set(card.shots.map(zoneOfShot))].sort().map(num).join(', '),
      ]), { 'data-testid': `ctg-bowl-deck-${type}` })))),
    h('h4', {}, k('cards.overTitle')),
    ...para(k('cards.overText')),
    h('dl', { class: 'ctgl-effects', 'data-testid': 'ctg-effects-table' }, EFFECTS.flatMap((effect) => [
      h('dt', { 'data-effect': effect }, effectName(effect)),
      h('dd', {}, kr(`effects.${effect}.text`), ' ',
        h('span', { class: 'muted' }, k('cards.effectCounts', { pace: counts('pace', effect), spin: counts('spin', effect), medium: counts('medium', effect) }))),
    ])),
    h('h5', {}, k('cards.everyCard')),
    h('div', { class: 'ctgl-decks' }, TYPES.map((type) => h('div', {},
      h('h5', {}, typeName(type)),
      table([k('cards.numberCol'), k('cards.expressCol'), k('cards.effectCol')], ((overDecks[type] || {}).effects || []).map((effect, i) => [
        num(i + 1),
        val(`over_decks.${type}.express_values.${i}`, num(overDecks[type].express_values[i])),
        val(`over_decks.${type}.effects.${i}`, effectName(effect)),
      ]), { 'data-testid': `ctg-over-deck-${type}` })))),
    h('h4', {}, k('cards.expressTitle')),
    ...para(k('cards.expressText')),
    table([k('cards.expressCol'), k('cards.meansCol')], [1, 2, 3, 4, 5, 6, 7, 8, 9].map((v) => [num(v), kr(`express.v${v}`, {
      aggressive: signed((ruleset.patience_confidence || {}).aggressive ?? 0), defensive: signed((ruleset.patience_confidence || {}).defensive ?? 0),
    })]), { 'data-testid': 'ctg-express-table' }),
    h('h5', {}, k('cards.sevenTitle')),
    table([k('cards.d8Col'), ...TYPES.map(typeName)], [1, 2, 3, 4, 5, 6, 7, 8].map((face) => [num(face),
      ...TYPES.map((type) => val(`express_seven_tables.${type}.${face - 1}`, num(ruleset.express_seven_tables[type][face - 1])))]), { 'data-testid': 'ctg-seven-table' }),
    h('h4', {}, k('cards.pitchTitle')),
    list((ruleset.pitch_cards || []).map((p, i) => h('span', {}, val(`pitch_cards.${i}.name`, k(`pitch.${p.name.toLowerCase()}.name`), 'strong'), ': ',
      p.d8_first_ball_for ? k('dice.pitchD8', { type: typeName(p.d8_first_ball_for) }) : k('dice.pitchNone')))),
    h('h4', {}, k('cards.skillsTitle')),
    ...para(k('cards.skillsText')),
  ];
}

function scoringSection(ruleset) {
  return [
    ...para(k('scoring.lead')),
    h('h4', {}, k('scoring.runsTitle')),
    list([k('scoring.runs1'), kr('scoring.runs2'), kr('scoring.runs3'), k('scoring.runs4')]),
    h('h4', {}, k('scoring.boundaryTitle')),
    list([kr('scoring.b1'), k('scoring.b2'), k('scoring.b3'), k('scoring.b4')]),
    h('h4', {}, k('scoring.extrasTitle')),
    list([k('scoring.e1'), k('scoring.e2')]),
    h('h4', {}, k('scoring.wicketsTitle')),
    table([k('scoring.howCol'), k('scoring.whenCol')], ['clean_bowled', 'bowled', 'lbw', 'caught', 'caught_in_slips', 'run_out'].map((w) =>
      [h('strong', {}, k(`wickets.${w}.name`)), kr(`wickets.${w}.text`)])),
    h('h4', {}, k('scoring.drsTitle')),
    ...para(h('span', {}, k('scoring.drsText'), ' ', val('drs_overturn_min', num(ruleset.drs_overturn_min)), '+')),
  ];
}

function endSection() {
  return [
    ...para(k('end.lead')),
    list([kr('end.e1'), k('end.e2'), k('end.e3'), k('end.e4')]),
  ];
}

function sections(data) {
  const ruleset = (data && data.ruleset) || {};
  const squads = data && data.squads;
  const engine = (data && data.engine) || {};
  SHOWN = ruleValues(ruleset, engine);
  const body = (nodes) => h('div', { class: 'ctgl' }, nodes);
  return [
    { id: 'sequence', title: k('sections.sequence'), body: body(sequenceSection(ruleset, squads, engine)) },
    { id: 'decisions', title: k('sections.decisions'), body: body(decisionsSection()) },
    { id: 'dice', title: k('sections.dice'), body: body(diceSection(ruleset)) },
    { id: 'field', title: k('sections.field'), body: body(fieldSection(ruleset, engine)) },
    { id: 'advantage', title: k('sections.advantage'), body: body(advantageSection(ruleset)) },
    { id: 'cards', title: k('sections.cards'), body: body(cardsSection(ruleset)) },
    { id: 'scoring', title: k('sections.scoring'), body: body(scoringSection(ruleset)) },
    { id: 'end', title: k('sections.end'), body: body(endSection()) },
  ];
}

// ---------------------------------------------------------------- help at a decision

function askOf(view) {
  return view && view.ask && typeof view.ask === 'object' ? view.ask : null;
}

function help(view) {
  const ask = askOf(view);
  if (!ask || !SECTION_OF[ask.ask]) return null;
  const params = { ...plainRules(), ...ask };
  if (ask.ask === 'miss') {
    const tries = [];
    if (ask.options & 1) tries.push(k('asks.miss.bowled', { sides: ask.bowled_sides, min: ask.bowled_min }));
    if (ask.options & 2) tries.push(k('asks.miss.slips', { count: ask.slips, min: RULES ? RULES.slip_catch_min : '?' }));
    if (ask.options & 4) tries.push(k('asks.miss.howzat'));
    params.tries = listOf(tries, 'disjunction');
  }
  if (ask.ask === 'run') params.count = ask.safe;
  if (ask.ask === 'reroll_bounce') params.face = faceWords(`${ask.areas}${ask.red ? 'R' : 'G'}`);
  if (ask.ask === 'power_play') params.over = ask.over;
  if (ask.ask === 'set_field') params.limit = ask.rules ? ask.rules.outfield_limit : '?';
  if (ask.ask === 'skills') params.advantage = signed(ask.advantage);
  if (ask.ask === 'reroll_to_hit') params.advantage = signed(ask.advantage);
  if (ask.ask === 'shot') params.confidence = signed(ask.confidence);
  return { text: k(`asks.${ask.ask}.help`, params), section: SECTION_OF[ask.ask] };
}

// ---------------------------------------------------------------- the tutorial's coach

function overCardOf(event, ctx) {
  const view = (ctx && (ctx.view || ctx.story)) || {};
  const shown = Array.isArray(view.over_cards) ? view.over_cards.find((c) => c.slot === event.slot) : null;
  const ruleset = RULES;
  let type = null;
  if (view.squads && view.bowler !== null && view.bowler !== undefined) {
    const fielding = 1 - Number(view.batting ?? 0);
    const p = view.squads[fielding] && view.squads[fielding].players && view.squads[fielding].players[view.bowler];
    type = p ? p.bowling : null;
  }
  const deck = ruleset && type && ruleset.over_decks[type];
  if (deck) return { effect: deck.effects[event.card], express: deck.express_values[event.card] };
  if (shown) return { effect: shown.effect, express: shown.express };
  return null;
}

/** Why the ball ended as it did, from that ball's events (the last is `ball_ended`). */
function ballWhy(outcome, events, ctx) {
  const end = events.find((e) => e.type === 'ball_ended');
  const b = (end && end.ball) || {};
  let advantage = 0;
  let delivered = null;
  let card = null;
  let distance = null;
  let bounce = null;
  let shot = null;
  let quick = null;
  let miss = null;
  let run = null;
  const rolls = [];
  let explainedOut = false;
  for (const e of events) {
    switch (e.type) {
      case 'revealed': advantage = e.advantage; shot = e.shot; break;
      case 'skill_played': advantage = e.advantage; break;
      case 'over_card_revealed': card = overCardOf(e, ctx); break;
      case 'delivered': delivered = { ...e }; break;
      case 'to_hit_rerolled': if (delivered) { delivered.bat = e.bat; delivered.rerolled = true; } break;
      case 'distance': distance = e; break;
      case 'bounce': bounce = e; break;
      case 'quick_single': quick = e.taken; break;
      case 'miss_chosen': miss = e.option; break;
      case 'run_decided': run = e.attempt; break;
      case 'roll': rolls.push(e); break;
      default:
    }
  }
  const lines = [];
  if (b.express) {
    lines.push(k('coach.ball.express', { value: card ? card.express : '?' }));
    if (card) lines.push(k(`express.v${card.express}`, {
      ...plainRules(),
      aggressive: signed(RULES ? RULES.patience_confidence.aggressive : -1),
      defensive: signed(RULES ? RULES.patience_confidence.defensive : 1),
    }));
    return lines.join(' ');
  }
  if (card && card.effect && card.effect !== 'play_on') lines.push(k('coach.ball.card', { effect: effectName(card.effect) }));
  if (quick) {
    lines.push(k('coach.ball.quickSingle'));
    return lines.join(' ');
  }
  if (delivered) {
    const bat = delivered.bat + Math.max(advantage, 0);
    const bowl = delivered.bowl + Math.max(-advantage, 0);
    lines.push(k('coach.ball.dice', {
      bowl: delivered.bowl, bowlSides: delivered.bowl_sides, bat: delivered.bat, batSides: delivered.bat_sides,
      advantage: signed(advantage), bowlTotal: bowl, batTotal: bat,
    }));
    if (delivered.rerolled) lines.push(k('coach.ball.rerolled'));
    const clean = delivered.bowl === delivered.bowl_sides && delivered.bat === 1;
    const natural = delivered.bowl === 1 && delivered.bat >= 6;
    if (clean && b.wicket === 'clean_bowled') lines.push(k('coach.ball.clean'));
    else if (natural && b.boundary) lines.push(k(b.boundary === 6 ? 'coach.ball.naturalSix' : 'coach.ball.naturalFour'));
    else if (delivered.bat === delivered.bowl) lines.push(k('coach.ball.blockFaces'));
    else if (bat === bowl) lines.push(k('coach.ball.block'));
    else if (bat < bowl) {
      const margin = bowl - bat;
      if (!miss && !rolls.some((r) => ['bowled_chance', 'slip_catch', 'howzat'].includes(r.roll_for))) lines.push(k('coach.ball.smallMiss', { margin }));
      else {
        const roll = rolls.find((r) => ['bowled_chance', 'slip_catch', 'howzat'].includes(r.roll_for));
        const how = roll ? roll.roll_for : miss === 'slips' ? 'slip_catch' : miss === 'howzat' ? 'howzat' : 'bowled_chance';
        lines.push(k(`coach.ball.miss.${how}`, { margin, face: roll ? roll.face : '?', sides: roll ? roll.sides : '?' }));
        lines.push(b.wicket ? k('coach.ball.out', { how: k(`wickets.${b.wicket}.name`) }) : k('coach.ball.survived'));
        if (b.wicket) explainedOut = true;
      }
    } else {
      const margin = bat - bowl;
      lines.push(k('coach.ball.struck', { margin, zone: shot ? shot.zone : '?' }));
      const byCard = card && (card.effect === 'great_shot' || card.effect === 'boundary') && !distance;
      if (byCard) lines.push(k(`coach.ball.${card.effect === 'great_shot' ? 'greatShot' : 'boundaryCard'}`, { count: b.runs }));
      if (distance) {
        const attitude = shot ? shot.attitude : 'defensive';
        const faces = RULES ? RULES.bounce_dice[attitude === 'aggressive' ? 'red' : 'green'] : null;
        const face = bounce && faces ? faces[bounce.face - 1] : null;
        lines.push(k('coach.ball.distance', {
          distance: distance.distance,
          bounce: face ? faceWords(face) : '?',
          label: face || '?',
        }));
        if (distance.added_one) lines.push(k('coach.ball.addedOne'));
        if (distance.rerolled || (bounce && bounce.rerolled)) lines.push(k('coach.ball.rerolledFlight'));
        if (face && !b.boundary && b.wicket !== 'caught') {
          const total = distance.distance + Number(String(face).slice(0, -1));
          const area = Math.ceil(total / 2);
          lines.push(k('coach.ball.stopped', { total, area, part: k(area <= 2 ? 'field.infield' : 'field.outfield') }));
        }
      }
      const catchRoll = rolls.find((r) => r.roll_for === 'catch');
      if (catchRoll) lines.push(k(b.wicket === 'caught' ? 'coach.ball.caught' : 'coach.ball.dropped', { face: catchRoll.face }));
      if (b.wicket === 'run_out') lines.push(k('coach.ball.runOut', { face: (rolls.find((r) => r.roll_for === 'run_out') || {}).face ?? '?' }));
      else if (b.boundary === 6) lines.push(k('coach.ball.six'));
      else if (b.boundary === 4) lines.push(k('coach.ball.four'));
      else if (!b.wicket && !byCard) lines.push(k(run ? 'coach.ball.ranExtra' : 'coach.ball.ran', { count: b.runs }));
    }
  }
  if (b.wicket === 'lbw' && !explainedOut) lines.push(k('coach.ball.lbw'));
  if (b.extras) lines.push(k('coach.ball.noBall', { count: b.extras }));
  if (b.boundary && !lines.length) lines.push(k('coach.ball.four'));
  return lines.length ? lines.join(' ') : null;
}

const tutorial = {
  intro() {
    rules();
    return [k('tutorial.intro1'), k('tutorial.intro2'), k('tutorial.intro3')];
  },
  ask(view) {
    rules();
    const ask = askOf(view);
    if (!ask || !SECTION_OF[ask.ask]) return null;
    return { key: ask.ask, text: k(`asks.${ask.ask}.coach`, plainRules()) };
  },
  ball(outcome, events, ctx) {
    return ballWhy(outcome, Array.isArray(events) ? events : [], ctx);
  },
  end(view, ctx) {
    const winner = view && view.winner;
    const seat = ctx && ctx.seat !== undefined && ctx.seat !== null ? Number(ctx.seat) : null;
    let key = 'tutorial.endTie';
    if (winner !== null && winner !== undefined && winner !== 'null') key = seat !== null && Number(winner) === seat ? 'tutorial.endWon' : 'tutorial.endLost';
    if (winner === undefined) key = 'tutorial.endOver';
    return `${k(key)} ${k('tutorial.end', plainRules())}`;
  },
};

export default { sections, help, tutorial };
