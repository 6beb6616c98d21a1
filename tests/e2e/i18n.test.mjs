// The message catalogues (web/js/i18n), in Node with no browser: English and Portuguese hold
// the same keys with the same placeholders, every key the client's code names exists, and
// every code the server can answer with (HTTP errors, socket errors, each game's refusal
// reasons, read from the Rust source) has a message in both languages.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { REPO } from './server.mjs';

const i18n = await import(join(REPO, 'web/js/i18n.js'));
const en = i18n.catalogue('en');
const pt = i18n.catalogue('pt-BR');

function filesUnder(dir, ext) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return filesUnder(path, ext);
    return path.endsWith(ext) ? [path] : [];
  });
}

/** The snake_case strings a Rust function returns, e.g. `fn reason` or `fn code`. */
function returnedCodes(file, fnName) {
  const source = readFileSync(join(REPO, file), 'utf8');
  const start = source.indexOf(`fn ${fnName}(`);
  assert.ok(start >= 0, `${file} has no fn ${fnName}`);
  const body = source.slice(start, source.indexOf('\n    }\n', start));
  return [...new Set([...body.matchAll(/=> "([a-z_]+)"/g)].map((m) => m[1]))];
}

test('English and Portuguese hold the same keys', () => {
  const onlyEn = [...en.keys()].filter((key) => !pt.has(key));
  const onlyPt = [...pt.keys()].filter((key) => !en.has(key));
  assert.deepEqual(onlyEn, [], 'keys missing from pt-BR');
  assert.deepEqual(onlyPt, [], 'keys missing from en');
});

test('a message has the same placeholders in both languages, and plurals their forms', () => {
  for (const [key, message] of en) {
    const theirs = pt.get(key);
    assert.deepEqual([...i18n.placeholders(theirs)].sort(), [...i18n.placeholders(message)].sort(), `placeholders of ${key}`);
    assert.equal(i18n.isPlural(theirs), i18n.isPlural(message), `${key} is a plural in one language only`);
    if (i18n.isPlural(message)) {
      for (const form of ['one', 'other']) {
        assert.ok(message[form] && theirs[form], `${key} needs its "${form}" form in both languages`);
      }
    }
    for (const text of [message, theirs].flatMap((m) => (typeof m === 'string' ? [m] : Object.values(m)))) {
      assert.ok(text.trim().length > 0, `${key} is empty`);
    }
  }
});

test('every key the client names in t() exists', () => {
  const missing = [];
  for (const file of filesUnder(join(REPO, 'web/js'), '.js')) {
    if (file.includes(`${join('js', 'i18n')}`)) continue;
    const source = readFileSync(file, 'utf8');
    for (const [, key] of source.matchAll(/\bt(?:Or)?\(\s*'([A-Za-z0-9_.]+)'/g)) {
      if (!en.has(key)) missing.push(`${file.slice(REPO.length + 1)}: ${key}`);
    }
  }
  assert.deepEqual(missing, []);
});

test('every error code and refusal reason the server sends has a message', () => {
  const wanted = [
    ...returnedCodes('src/error.rs', 'code').map((code) => `errors.http.${code}`),
    ...returnedCodes('src/protocol/ws.rs', 'as_str').map((code) => `errors.ws.${code}`),
    ...returnedCodes('src/rules/ctg/reject.rs', 'reason').map((code) => `errors.reason.ctg.${code}`),
    ...returnedCodes('src/rules/wicketz/errors.rs', 'reason').map((code) => `errors.reason.wicketz.${code}`),
    ...returnedCodes('src/rules/champions/errors.rs', 'reason').map((code) => `errors.reason.champions.${code}`),
  ];
  assert.ok(wanted.length > 60, `read ${wanted.length} codes from the Rust source: the scan broke`);
  const missing = wanted.filter((key) => !en.has(key) || !pt.has(key));
  assert.deepEqual(missing, []);
});

test('plurals and numbers follow the language', () => {
  // The catalogue's own plural: the same key reads "1 run" / "2 runs", "1 corrida" / "2 corridas".
  i18n.setLang('en');
  assert.equal(i18n.num(1234.5), '1,234.5');
  i18n.setLang('pt-BR');
  assert.equal(i18n.num(1234.5), '1.234,5');
  assert.equal(i18n.supported('pt-PT'), 'pt-BR');
  assert.equal(i18n.supported('fr'), null);
  i18n.setLang('en');
});
