// Shared steps of the end-to-end tests: sign in through the page, play by clicking, and
// save screenshots of each screen.
import { mkdirSync, readFileSync, existsSync } from 'node:fs';
import { join, extname } from 'node:path';
import { REPO } from './server.mjs';

export const SHOTS = join(REPO, 'test-artifacts', 'screenshots');
mkdirSync(SHOTS, { recursive: true });

export async function shot(page, name) {
  await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
}

/**
 * With E2E_WEB_DIR set, static files come from that directory instead of the binary, so the
 * client can be changed without rebuilding the server (development only; CI tests the
 * embedded files).
 */
export async function serveWebFromDisk(context, baseUrl) {
  const dir = process.env.E2E_WEB_DIR;
  if (!dir) return;
  const types = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.svg': 'image/svg+xml' };
  await context.route((url) => url.origin === baseUrl && !url.pathname.startsWith('/v1/') && url.pathname !== '/healthz', (route) => {
    const path = new URL(route.request().url()).pathname;
    const file = join(dir, path === '/' ? 'index.html' : path);
    if (!existsSync(file)) return route.fulfill({ status: 404, body: 'not found' });
    return route.fulfill({ status: 200, contentType: types[extname(file)] || 'application/octet-stream', body: readFileSync(file) });
  });
}

/** Collects page errors so a test can fail on a client exception. */
export function watchErrors(page) {
  const errors = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (msg) => { if (msg.type() === 'error' && !/WebSocket|Failed to load resource/.test(msg.text())) errors.push(msg.text()); });
  return errors;
}

export async function signIn(page, baseUrl, name) {
  await page.goto(`${baseUrl}/`);
  await page.getByTestId('name-input').fill(name);
  await page.getByTestId('name-submit').click();
  await page.getByTestId('play-bot').waitFor();
}

/** Waits until the match screen shows an action for us, or the result. */
export async function nextAction(page, timeout = 30000) {
  const action = page.locator('[data-testid=decision] [data-action]:not([disabled])');
  const result = page.getByTestId('result');
  await action.or(result).first().waitFor({ timeout });
  if (await result.count()) return null;
  return action;
}

/**
 * Plays by clicking until the match ends or `maxClicks` is reached. `choose(page, actions)`
 * may pick which action to click; by default a random one, so the test explores the UI.
 * Returns the number of clicks.
 */
export async function playByClicking(page, { maxClicks = 5000, choose, onStep, timeout = 30000 } = {}) {
  let clicks = 0;
  while (clicks < maxClicks) {
    const actions = await nextAction(page, timeout);
    if (!actions) return clicks;
    const count = await actions.count();
    if (count === 0) continue;
    const index = choose ? await choose(page, actions, count) : Math.floor(Math.random() * count);
    try {
      await actions.nth(index).click({ timeout: 2000 });
      clicks += 1;
    } catch {
      continue; // the view changed under us; look again
    }
    if (onStep) await onStep(clicks);
  }
  return clicks;
}

/**
 * The words on screen that are English although the page is in Portuguese: every visible
 * text node (and `title`, `aria-label`, `placeholder`) that reads as an English message of
 * the catalogue whose Portuguese differs (its `{placeholders}` matching anything), plus the
 * keys the page asked for that no catalogue has. `[]` when the page is all Portuguese.
 * Player and card names, numbers and codes are not messages, so they never count.
 */
export async function englishOnScreen(page) {
  return page.evaluate(async () => {
    const i18n = await import('/js/i18n.js');
    const en = i18n.catalogue('en');
    const pt = i18n.catalogue('pt-BR');
    const forms = (message) => (typeof message === 'string' ? [message] : Object.values(message));
    const ptTexts = new Set([...pt.values()].flatMap(forms));
    const patterns = [];
    for (const [key, message] of en) {
      const theirs = pt.get(key);
      for (const text of forms(message)) {
        if (ptTexts.has(text) || (theirs && forms(theirs).includes(text))) continue;
        // A message of letters only: "T10" or "{runs}/{wickets}" are the same in both.
        const words = text.replace(/\{\w+\}/g, '').match(/[A-Za-z]{3,}/g);
        if (!words) continue;
        const source = text.split(/\{\w+\}/).map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('.+');
        patterns.push({ key, re: new RegExp(`^${source}$`, 's') });
      }
    }
    // English words no Portuguese sentence uses: they catch a string that never reached a
    // catalogue at all.
    const englishWords = /\b(the|you|your|is|are|with|this|that|from|have|has|will|was|were|what|which|when|there|their|waiting|click|choose|play again)\b/i;
    // A game's own name ("Cricket: The Game") is a proper name in every language.
    const gameNames = [...en].filter(([key]) => key.startsWith('learn.games.')).map(([, name]) => name);
    const withoutGameNames = (text) => gameNames.reduce((rest, name) => rest.split(name).join(''), text);
    const seen = [];
    const check = (text, where) => {
      const trimmed = String(text || '').replace(/\s+/g, ' ').trim();
      if (!trimmed) return;
      const hit = patterns.find((p) => p.re.test(trimmed));
      if (hit) seen.push(`${where}: "${trimmed}" (${hit.key})`);
      else if (englishWords.test(withoutGameNames(trimmed))) seen.push(`${where}: "${trimmed}" (not in any catalogue)`);
    };
    const visible = (el) => el && el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden';
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const el = node.parentElement;
      if (!el || el.closest('pre, script, style, .mono, [data-no-i18n]') || !visible(el)) continue;
      check(node.textContent, el.tagName.toLowerCase());
    }
    for (const el of document.querySelectorAll('[title], [aria-label], [placeholder]')) {
      if (!visible(el)) continue;
      for (const attr of ['title', 'aria-label', 'placeholder']) if (el.hasAttribute(attr)) check(el.getAttribute(attr), `${el.tagName.toLowerCase()}[${attr}]`);
    }
    return [...seen, ...[...i18n.missingKeys].map((key) => `missing key: ${key}`)];
  });
}
