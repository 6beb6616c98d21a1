// "Your move" when the tab is in the background: the title and favicon change while a
// decision waits; the browser notification is off by default, asked for once when the
// player turns it on, and then raised when a decision arrives while the tab is hidden.
// (Headless Chromium shows no notifications and its tab is never hidden: the page gets a
// recording stand-in for the Notification API and a switchable document.hidden.)
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer } from './server.mjs';
import { launch } from './browser.mjs';
import { signIn, shot, serveWebFromDisk, watchErrors } from './helpers.mjs';

let server;
let browser;

before(async () => {
  server = await startServer();
  browser = await launch({ viewport: { width: 390, height: 844 } });
  await serveWebFromDisk(browser.context, server.url);
  await browser.context.addInitScript(() => {
    window.__notes = [];
    window.__asked = 0;
    window.__hidden = false;
    class FakeNotification {
      constructor(title, options) { window.__notes.push({ title, body: options && options.body }); }
      close() {}
      static requestPermission() {
        window.__asked += 1;
        FakeNotification.permission = 'granted';
        return Promise.resolve('granted');
      }
    }
    FakeNotification.permission = 'default';
    window.Notification = FakeNotification;
    Object.defineProperty(document, 'hidden', { get: () => window.__hidden, configurable: true });
    // A recording stand-in for the Web Audio API: each tone started is counted.
    window.__tones = 0;
    class FakeAudio {
      constructor() { this.currentTime = 0; this.state = 'running'; this.destination = {}; }
      resume() { return Promise.resolve(); }
      createGain() { const param = { setValueAtTime() {}, exponentialRampToValueAtTime() {} }; return { gain: param, connect: (x) => x }; }
      createOscillator() { return { frequency: {}, connect: (x) => x, start() { window.__tones += 1; }, stop() {} }; }
    }
    window.AudioContext = FakeAudio;
  });
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

const action = (page) => page.locator('[data-testid=decision] [data-action]:not([disabled])');

/** Clicks one action and waits for the next question (a new view with our seat asked again). */
async function answerOnce(page) {
  const seq = await page.evaluate(() => window.crease.screen.state.viewSeq);
  await action(page).first().click();
  await page.waitForFunction((before) => {
    const s = window.crease.screen.state;
    return s.viewSeq > before && s.pendingSeats.includes(s.seat) && !s.busy;
  }, seq, { timeout: 15000 });
}

test('the title, the favicon and (when turned on) a notification say it is your move', { timeout: 2 * 60 * 1000 }, async () => {
  const page = await browser.context.newPage();
  const errors = watchErrors(page);
  await signIn(page, server.url, 'Deepti');
  assert.doesNotMatch(await page.title(), /Your move/);
  await page.getByTestId('play-bot').click();
  await page.waitForURL(/#\/match\//);
  await action(page).first().waitFor({ timeout: 30000 });
  assert.match(await page.title(), /^● Your move · /);
  assert.match(await page.locator('link[rel=icon]').getAttribute('href'), /^data:image\/svg\+xml/);

  // Off by default: a hidden tab gets no notification, and nothing was asked.
  assert.equal(await page.getByTestId('notify-toggle').isChecked(), false);
  await page.evaluate(() => { window.__hidden = true; });
  await answerOnce(page);
  assert.equal(await page.evaluate(() => window.__notes.length), 0, 'no notification while the switch is off');
  assert.equal(await page.evaluate(() => window.__asked), 0, 'no permission asked before the switch');

  // Turned on: asked once; then each new decision in a hidden tab notifies.
  await page.evaluate(() => { window.__hidden = false; });
  await page.getByTestId('notify-toggle').check();
  await page.waitForFunction(() => localStorage.getItem('crease.notify') === 'on');
  assert.equal(await page.evaluate(() => window.__asked), 1);
  await page.evaluate(() => { window.__hidden = true; });
  for (let i = 0; i < 5 && (await page.evaluate(() => window.__notes.length)) === 0; i += 1) await answerOnce(page);
  const notes = await page.evaluate(() => window.__notes);
  assert.ok(notes.length >= 1, 'a notification when a decision waits in a hidden tab');
  assert.equal(notes[0].title, 'Your move');
  await shot(page, 'turn-title-phone');

  // Back to the lobby: the title and icon are the usual ones again.
  await page.goto(`${server.url}/#/`);
  await page.getByTestId('play-bot').waitFor();
  assert.doesNotMatch(await page.title(), /Your move/);
  assert.equal(await page.locator('link[rel=icon]').getAttribute('href'), '/favicon.svg');
  assert.equal(await page.evaluate(() => window.__asked), 1, 'permission was asked once only');
  assert.deepEqual(errors, []);
});

test('the turn sound is off by default, plays on a new decision once turned on, and is remembered', { timeout: 2 * 60 * 1000 }, async () => {
  const page = await browser.context.newPage();
  const errors = watchErrors(page);
  await page.goto(`${server.url}/#/`);
  await page.getByTestId('play-bot').click();
  await page.waitForURL(/#\/match\//);
  await action(page).first().waitFor({ timeout: 30000 });
  assert.equal(await page.getByTestId('sound-toggle').isChecked(), false, 'off by default');
  await answerOnce(page);
  await answerOnce(page);
  assert.equal(await page.evaluate(() => window.__tones), 0, 'no sound while the switch is off');

  await page.getByTestId('sound-toggle').check();
  await page.waitForFunction(() => localStorage.getItem('crease.sound') === 'on');
  const sample = await page.evaluate(() => window.__tones);
  assert.ok(sample > 0, 'turning it on plays it once');
  for (let i = 0; i < 8 && (await page.evaluate(() => window.__tones)) === sample; i += 1) await answerOnce(page);
  assert.ok((await page.evaluate(() => window.__tones)) > sample, 'a new decision plays the sound');

  await page.reload();
  await action(page).first().waitFor({ timeout: 30000 });
  assert.equal(await page.getByTestId('sound-toggle').isChecked(), true, 'remembered across a reload');
  await shot(page, 'turn-sound-phone');
  await page.evaluate(() => localStorage.setItem('crease.sound', 'off'));
  assert.deepEqual(errors, []);
});

test('the lobby\'s fields take the server\'s ranges: a 2-hour clock, a disconnect grace, 100 Wicketz overs', { timeout: 60 * 1000 }, async () => {
  const page = await browser.context.newPage();
  await page.goto(`${server.url}/#/`);
  await page.getByTestId('play-bot').waitFor();
  await page.getByTestId('game-wicketz').click();
  await page.getByTestId('opt-overs').fill('101');
  await page.getByTestId('play-bot').click();
  assert.match(await page.getByTestId('lobby-error').textContent(), /Overs/, 'more than 100 overs is refused before it is sent');
  await page.getByTestId('opt-overs').fill('100');
  await page.getByTestId('opt-clock').fill('7200');
  await page.getByTestId('opt-grace').fill('30');
  await page.getByTestId('play-bot').click();
  await page.waitForURL(/#\/match\//);
  const info = await (await fetch(`${server.url}/v1/matches/${page.url().split('/').pop()}`)).json();
  assert.equal(info.options.overs, 100);
  assert.equal(info.turn_clock_ms, 7200 * 1000, 'a clock above an hour, as the server allows');
  assert.equal(info.disconnect_grace_ms, 30 * 1000, 'the disconnect grace from the lobby');
});
