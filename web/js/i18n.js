// Every word the client shows comes from a message catalogue, never from string
// concatenation: `t('lobby.create')`, `t('ctg.runs', { count: 4 })`. The catalogues are
// plain ES modules under `js/i18n/<language>/<namespace>.js` (no fetch before the first
// paint, and the Node unit tests import them as they are); `js/i18n/index.js` lists them.
//
// A message is a string with `{name}` placeholders, or a plural object whose keys are CLDR
// plural categories (`one`, `other`, ...) chosen by `Intl.PluralRules` for `params.count`.
// Numbers in params are written with `Intl.NumberFormat`, so "1.234" in Portuguese.
// The language follows the browser (`navigator.languages`), can be switched in the header
// and is remembered in localStorage (`crease.lang`).

import { CATALOGUES } from './i18n/index.js';

export const LANGUAGES = [
  { code: 'en', name: 'English' },
  { code: 'pt-BR', name: 'Português' },
];

const STORAGE_KEY = 'crease.lang';
const PLURAL_CATEGORIES = new Set(['zero', 'one', 'two', 'few', 'many', 'other']);

/** `{ en: Map(key -> message), 'pt-BR': ... }`: each catalogue flattened to dotted keys. */
const FLAT = Object.fromEntries(
  Object.entries(CATALOGUES).map(([code, namespaces]) => [code, flatten(namespaces)]),
);

/** Keys asked for that no catalogue has, so the browser tests can fail on them. */
export const missingKeys = new Set();

const listeners = new Set();
let current = detect();

/** True for `{one: ..., other: ...}`: a plural message, not a nested namespace. */
export function isPlural(value) {
  return (
    value !== null &&
    typeof value === 'object' &&
    !Array.isArray(value) &&
    'other' in value &&
    Object.keys(value).every((key) => PLURAL_CATEGORIES.has(key))
  );
}

/** A catalogue's nested objects as one map of dotted keys to messages. */
export function flatten(tree, prefix = '', into = new Map()) {
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string' || isPlural(value)) into.set(path, value);
    else if (value && typeof value === 'object') flatten(value, path, into);
  }
  return into;
}

/** The catalogue of a language as a map of dotted keys (for tests and tools). */
export function catalogue(code) {
  return FLAT[code];
}

/** The supported language closest to a BCP 47 tag, or null: any `pt-*` reads pt-BR. */
export function supported(tag) {
  if (!tag) return null;
  const wanted = String(tag).toLowerCase();
  const exact = LANGUAGES.find((l) => l.code.toLowerCase() === wanted);
  if (exact) return exact.code;
  const base = wanted.split('-')[0];
  const close = LANGUAGES.find((l) => l.code.toLowerCase().split('-')[0] === base);
  return close ? close.code : null;
}

function stored() {
  try {
    return globalThis.localStorage ? globalThis.localStorage.getItem(STORAGE_KEY) : null;
  } catch {
    return null;
  }
}

function detect() {
  const saved = supported(stored());
  if (saved) return saved;
  const nav = globalThis.navigator;
  for (const tag of (nav && (nav.languages || [nav.language])) || []) {
    const code = supported(tag);
    if (code) return code;
  }
  return 'en';
}

/** The language on screen, as a BCP 47 tag (`en`, `pt-BR`). */
export function lang() {
  return current;
}

/** Switches the language, remembers it, and tells the listeners (the router redraws). */
export function setLang(code) {
  const next = supported(code) || 'en';
  try {
    globalThis.localStorage && globalThis.localStorage.setItem(STORAGE_KEY, next);
  } catch {
    // A private window may refuse storage: the switch still holds for this page.
  }
  if (next === current) return;
  current = next;
  if (globalThis.document) globalThis.document.documentElement.lang = next;
  for (const listener of listeners) listener(next);
}

/** Calls `listener(code)` after every language switch; returns the unsubscribe. */
export function onLangChange(listener) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** True when the catalogue of the language on screen (or English) has the key. */
export function has(key) {
  return FLAT[current].has(key) || FLAT.en.has(key);
}

/** A number written the way the language writes it ("1,234.5" / "1.234,5"). */
export function num(value, options) {
  const n = Number(value);
  if (!Number.isFinite(n)) return String(value);
  return new Intl.NumberFormat(current, options).format(n);
}

/** "Ann, Bob and you" / "Ann, Bob e você". */
export function list(items, type = 'conjunction') {
  const words = items.map(String);
  return Intl.ListFormat ? new Intl.ListFormat(current, { type }).format(words) : words.join(', ');
}

/**
 * The message of `key` in the language on screen, with `{name}` filled from `params`.
 * A plural message picks its form for `params.count`. A key no catalogue has is returned as
 * it is (and kept in `missingKeys`), so a gap shows as a key, never as a blank.
 */
export function t(key, params = {}) {
  let message = FLAT[current].get(key);
  if (message === undefined) message = FLAT.en.get(key);
  if (message === undefined) {
    missingKeys.add(key);
    return key;
  }
  if (isPlural(message)) {
    const count = Number(params.count) || 0;
    // An explicit `zero` form wins for 0 (ICU's `=0`): CLDR puts Portuguese 0 with "one"
    // ("0 corrida"), where a sentence wants "nenhuma corrida".
    const category = count === 0 && message.zero ? 'zero' : new Intl.PluralRules(current).select(count);
    message = message[category] ?? message.other;
  }
  return message.replace(/\{(\w+)\}/g, (whole, name) => {
    if (!(name in params)) return whole;
    const value = params[name];
    return typeof value === 'number' ? num(value) : String(value ?? '');
  });
}

/** `t` when the key exists, else `fallback` (for codes a newer server may send). */
export function tOr(key, fallback, params = {}) {
  return has(key) ? t(key, params) : fallback;
}

/** The placeholders a message uses (`{name}`), for the catalogue tests. */
export function placeholders(message) {
  const texts = isPlural(message) ? Object.values(message) : [message];
  const names = new Set();
  for (const text of texts) for (const [, name] of String(text).matchAll(/\{(\w+)\}/g)) names.add(name);
  return names;
}

if (globalThis.document) globalThis.document.documentElement.lang = current;
