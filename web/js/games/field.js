// The CTG field as an SVG picture: six zones round the batter, each cut into distance
// areas (ceil(d/2)); fielders sit one per area. Zone 0 (Bye) is behind the stumps and only
// its infield areas exist for slips. Used both to show the field and to place fielders.

import { h, label } from '../dom.js';
import { t, tOr } from '../i18n.js';

export const ZONE_SHOTS = {
  0: ['bye'],
  1: ['leg_glance', 'hook'],
  2: ['pull', 'big_shot'],
  3: ['on_drive', 'straight_drive'],
  4: ['off_drive', 'cover_drive'],
  5: ['square_cut', 'late_cut'],
};
/** The zones' names in English (zoneName(zone) gives them in the page's language). */
export const ZONE_NAMES = {
  0: 'Bye',
  1: 'Leg Glance / Hook',
  2: 'Pull / Big Shot',
  3: 'On Drive / Straight Drive',
  4: 'Off Drive / Cover Drive',
  5: 'Square Cut / Late Cut',
};
/** A shot's name in the page's language (the names printed on the board). */
export function shotName(shot) {
  return tOr(`ctg.shot.${shot}`, label(shot));
}

/** A zone's name in the page's language: "Pull / Big shot", "Bye". */
export function zoneName(zone) {
  return (ZONE_SHOTS[zone] || []).map(shotName).join(' / ');
}

/** Compass angle (degrees clockwise from the bowler's end) of each zone's centre. */
const ZONE_CENTRE = { 0: 180, 1: 240, 2: 300, 3: 0, 4: 60, 5: 120 };
const INNER = 13;
const OUTER = 100;
/** [ASSUMED] catch values per area, shown as a hint; red-outlined areas need one less. */
const CATCH = { 1: 6, 2: 6, 3: 5, 4: 5 };
const RED_OUTLINED = new Set(['1:1', '5:1']);

export function zoneOfShot(shot) {
  const key = String(shot).toLowerCase();
  for (const [zone, shots] of Object.entries(ZONE_SHOTS)) {
    if (shots.some((s) => key === s || key.replace(/_shot$/, '') === s.replace(/_shot$/, ''))) return Number(zone);
  }
  return null;
}

function point(r, deg) {
  const rad = (deg * Math.PI) / 180;
  return [r * Math.sin(rad), -r * Math.cos(rad)];
}

function wedge(r1, r2, a1, a2) {
  const [x1, y1] = point(r1, a1);
  const [x2, y2] = point(r2, a1);
  const [x3, y3] = point(r2, a2);
  const [x4, y4] = point(r1, a2);
  const f = (n) => n.toFixed(2);
  return `M${f(x1)} ${f(y1)} L${f(x2)} ${f(y2)} A${r2} ${r2} 0 0 1 ${f(x3)} ${f(y3)} L${f(x4)} ${f(y4)} A${r1} ${r1} 0 0 0 ${f(x1)} ${f(y1)} Z`;
}

/**
 * @param opts.areas      areas per zone (3 in T10, 4 in T20)
 * @param opts.fielders   [{zone, area}] where fielders stand
 * @param opts.onToggle   (zone, area) => void; when set, areas are clickable
 * @param opts.allowed    (zone, area) => bool; areas that may take a fielder now
 * @param opts.chosenZone the zone the batter picked (highlighted)
 * @param opts.ball       {zone, distance} where the last ball went
 */
export function fieldPicture(opts) {
  const areas = opts.areas || 3;
  const band = (OUTER - INNER) / areas;
  const occupied = new Set((opts.fielders || []).map((f) => `${f.zone}:${f.area}`));
  const parts = [];
  parts.push(h('svg:circle', { cx: 0, cy: 0, r: OUTER + 22, class: 'grass' }));
  parts.push(h('svg:circle', { cx: 0, cy: 0, r: OUTER + 4, class: 'rope' }));
  for (let zone = 0; zone <= 5; zone += 1) {
    const centre = ZONE_CENTRE[zone];
    const a1 = centre - 30;
    const a2 = centre + 30;
    const zoneAreas = zone === 0 ? 2 : areas;
    for (let area = 1; area <= zoneAreas; area += 1) {
      const r1 = INNER + band * (area - 1);
      const r2 = INNER + band * area;
      const key = `${zone}:${area}`;
      const clickable = Boolean(opts.onToggle) && (occupied.has(key) || !opts.allowed || opts.allowed(zone, area));
      const catchValue = (CATCH[area] ?? 5) - (RED_OUTLINED.has(key) ? 1 : 0);
      parts.push(
        h('svg:path', {
          d: wedge(r1, r2, a1, a2),
          class: [
            'area',
            area <= 2 ? 'infield' : 'outfield',
            zone === 0 && 'bye',
            RED_OUTLINED.has(key) && 'red-outline',
            opts.chosenZone === zone && 'chosen',
            clickable && 'clickable',
            occupied.has(key) && 'occupied',
          ],
          dataset: { zone: String(zone), area: String(area) },
          'data-testid': `area-${zone}-${area}`,
          onclick: clickable ? () => opts.onToggle(zone, area) : undefined,
          // Placing fielders works from the keyboard too: each area is a focusable button.
          tabindex: clickable ? '0' : undefined,
          role: clickable ? 'button' : undefined,
          'aria-pressed': clickable ? String(occupied.has(key)) : undefined,
          onkeydown: clickable
            ? (event) => {
                if (event.key !== 'Enter' && event.key !== ' ') return;
                event.preventDefault();
                opts.onToggle(zone, area);
              }
            : undefined,
        }, h('svg:title', {}, t(area <= 2 ? 'ctg.field.area' : 'ctg.field.areaOut', { zone: zoneName(zone), area, catch: catchValue }))),
      );
      const [cx, cy] = point((r1 + r2) / 2, centre);
      if (occupied.has(key)) {
        parts.push(h('svg:circle', { cx, cy, r: 4.2, class: 'fielder', 'pointer-events': 'none' }));
      } else {
        parts.push(h('svg:text', { x: cx, y: cy + 1.6, class: 'catch-hint', 'pointer-events': 'none' }, t('ctg.field.catchHint', { catch: catchValue })));
      }
    }
    const [lx, ly] = point(OUTER + 13, centre);
    const lines = zone === 0 ? [t('ctg.field.zoneBye')] : [t('ctg.field.zoneLabel', { zone, shot: shotName(ZONE_SHOTS[zone][0]) }), shotName(ZONE_SHOTS[zone][1])];
    parts.push(h('svg:text', { x: lx, y: ly - (lines.length - 1) * 3, class: ['zone-label', opts.chosenZone === zone && 'chosen'] },
      lines.map((line, i) => h('svg:tspan', { x: lx, dy: i === 0 ? 0 : 6.5 }, line))));
  }
  parts.push(h('svg:circle', { cx: 0, cy: 0, r: INNER + band * 2, class: 'circle-30' }));
  parts.push(h('svg:rect', { x: -2.5, y: -INNER + 1, width: 5, height: 2 * INNER - 2, class: 'pitch' }));
  parts.push(h('svg:circle', { cx: 0, cy: 5, r: 2.4, class: 'batter' }));
  if (opts.ball && opts.ball.zone !== undefined && opts.ball.distance) {
    const r = Math.min(OUTER + 2, INNER + (band / 2) * opts.ball.distance - band / 4);
    const [bx, by] = point(r, ZONE_CENTRE[opts.ball.zone] ?? 0);
    parts.push(h('svg:circle', { cx: bx, cy: by, r: 2.6, class: 'ball' }));
  }
  const placing = Boolean(opts.onToggle);
  return h('svg:svg', { viewBox: '-128 -128 256 256', class: 'field', role: placing ? 'group' : 'img', 'aria-label': placing ? t('ctg.field.ariaPlacing') : t('ctg.field.aria') }, parts);
}

/** The engine sends the field as a bitmask: bit zone*4 + area-1 per occupied area. */
export function spotsFromMask(mask) {
  const spots = [];
  for (let bit = 0; bit < 24; bit += 1) {
    if (Number(mask) & (1 << bit)) spots.push({ zone: Math.floor(bit / 4), area: (bit % 4) + 1 });
  }
  return spots;
}

export function maskFromSpots(spots) {
  return spots.reduce((mask, s) => mask | (1 << (s.zone * 4 + s.area - 1)), 0) >>> 0;
}

/** Reads a field in any of the shapes an engine might send: mask, [{zone, area}], [[z, a]]. */
export function readField(value) {
  if (value === null || value === undefined) return [];
  if (typeof value === 'number') return spotsFromMask(value);
  if (Array.isArray(value)) {
    return value.map((v) => (Array.isArray(v) ? { zone: v[0], area: v[1] } : { zone: v.zone, area: v.area }));
  }
  if (typeof value === 'object' && (value.mask !== undefined || value.field !== undefined)) return readField(value.mask ?? value.field);
  return [];
}

/**
 * Client-side check of a planned field, so the player sees the problem before sending. The
 * server decides; these are the rules of ctg.md section 1 and 2.
 */
export function fieldProblems(spots, { total = 9, outfieldLimit = 5, slipsAllowed = true, oneZoneOfThree = false } = {}) {
  const problems = [];
  if (spots.length !== total) problems.push(t('ctg.field.placed', { placed: spots.length, total }));
  const outfield = spots.filter((s) => s.area > 2).length;
  if (outfield > outfieldLimit) problems.push(t('ctg.field.outfield', { count: outfield, limit: outfieldLimit }));
  const perZone = [0, 0, 0, 0, 0, 0];
  for (const s of spots) perZone[s.zone] += 1;
  if (!slipsAllowed && perZone[0] > 0) problems.push(t('ctg.field.slipsPace'));
  if (perZone[0] > 2) problems.push(t('ctg.field.slipsMax'));
  const crowded = perZone.slice(1).filter((n) => n > 2);
  if (crowded.some((n) => n > 3) || crowded.length > (oneZoneOfThree ? 1 : 0)) {
    problems.push(oneZoneOfThree ? t('ctg.field.perZoneThree') : t('ctg.field.perZone'));
  }
  return problems;
}
