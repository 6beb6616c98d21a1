// Tiny DOM helpers: the client has no framework, so every screen is built from h().

/**
 * Creates an element. `attrs` keys starting with "on" become listeners, `class` and
 * `dataset` are handled, everything else is set as an attribute. Children may be strings,
 * nodes, arrays, or null/false (skipped), so conditional parts read naturally.
 */
export function h(tag, attrs = {}, ...children) {
  const svg = tag.startsWith('svg:');
  const el = svg
    ? document.createElementNS('http://www.w3.org/2000/svg', tag.slice(4))
    : document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith('on') && typeof value === 'function') {
      el.addEventListener(key.slice(2).toLowerCase(), value);
    } else if (key === 'dataset') {
      Object.assign(el.dataset, value);
    } else if (key === 'class') {
      el.setAttribute('class', Array.isArray(value) ? value.filter(Boolean).join(' ') : value);
    } else if (key === 'value' && !svg) {
      el.value = value;
    } else if (key === 'checked' || key === 'disabled' || key === 'selected') {
      el[key] = Boolean(value);
    } else {
      el.setAttribute(key, value === true ? '' : String(value));
    }
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(el, child);
    else el.append(child instanceof Node ? child : String(child));
  }
}

/** Replaces all children of `el`. */
export function mount(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

/** "square_cut" / "SquareCut" -> "Square cut": engine names become readable labels. */
export function label(name) {
  if (name === null || name === undefined) return '';
  const text = String(name)
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_-]+/g, ' ')
    .trim()
    .toLowerCase();
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** The variant name of a serde enum value: "Foo", {"Foo": {...}}, or {"kind": "foo", ...}. */
export function variant(value) {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') return value;
  if (typeof value !== 'object') return String(value);
  for (const tagKey of ['kind', 'type', 'tag', 'decision', 'phase']) {
    if (typeof value[tagKey] === 'string') return value[tagKey];
  }
  const keys = Object.keys(value);
  return keys.length === 1 ? keys[0] : null;
}

/** The payload of a serde enum value (externally tagged or internally tagged). */
export function payload(value) {
  if (!value || typeof value !== 'object') return {};
  for (const tagKey of ['kind', 'type', 'tag']) {
    if (typeof value[tagKey] === 'string') {
      if (value.content !== undefined) return value.content;
      return value;
    }
  }
  const keys = Object.keys(value);
  if (keys.length === 1 && value[keys[0]] && typeof value[keys[0]] === 'object') return value[keys[0]];
  return value;
}

/** First present field among several plausible names (engines name things differently). */
export function pick(obj, ...names) {
  if (!obj || typeof obj !== 'object') return undefined;
  for (const name of names) {
    if (obj[name] !== undefined && obj[name] !== null) return obj[name];
  }
  return undefined;
}

/**
 * A readable rendering of any JSON value: the fallback that keeps the UI useful when an
 * engine adds a field this client does not know yet.
 */
export function jsonTree(value, depth = 0) {
  if (value === null || value === undefined) return h('span', { class: 'muted' }, '-');
  if (typeof value !== 'object') return h('span', { class: 'jv' }, String(value));
  if (Array.isArray(value)) {
    if (value.length === 0) return h('span', { class: 'muted' }, '-');
    if (value.every((v) => v === null || typeof v !== 'object')) {
      return h('span', { class: 'jv' }, value.map((v) => label(v)).join(', '));
    }
    return h('ol', { class: 'jt' }, value.map((v) => h('li', {}, jsonTree(v, depth + 1))));
  }
  const entries = Object.entries(value);
  if (entries.length === 0) return h('span', { class: 'muted' }, '-');
  return h(
    'dl',
    { class: 'jt' },
    entries.map(([k, v]) => [h('dt', {}, label(k)), h('dd', {}, jsonTree(v, depth + 1))]),
  );
}

/** A one-line text summary of a JSON value (for commentary and button labels). */
export function summary(value) {
  if (value === null || value === undefined) return '';
  if (typeof value !== 'object') return label(value);
  if (Array.isArray(value)) return value.map(summary).join(', ');
  const name = variant(value);
  const body = payload(value);
  const parts = [];
  if (body && typeof body === 'object' && body !== value) {
    for (const [k, v] of Object.entries(body)) parts.push(`${label(k).toLowerCase()} ${summary(v)}`);
  } else if (body && typeof body === 'object') {
    for (const [k, v] of Object.entries(body)) {
      if (['kind', 'type', 'tag'].includes(k)) continue;
      parts.push(`${label(k).toLowerCase()} ${summary(v)}`);
    }
  }
  return name ? `${label(name)}${parts.length ? ': ' + parts.join(', ') : ''}` : parts.join(', ');
}

/**
 * A translated message whose `{placeholders}` are filled with nodes: t() leaves a placeholder
 * it was not given as it is, so `fill(t('common.board.title'), { game: proper(name) })` puts
 * the game's name in its own element inside the sentence.
 */
export function fill(text, nodes) {
  return String(text)
    .split(/(\{\w+\})/)
    .map((part) => {
      const m = part.match(/^\{(\w+)\}$/);
      return m && m[1] in nodes ? nodes[m[1]] : part;
    })
    .filter((part) => part !== '');
}

/** A proper name (a game, a player, a team): the same in every language, never translated. */
export function proper(text) {
  return h('span', { 'data-no-i18n': '' }, text);
}
