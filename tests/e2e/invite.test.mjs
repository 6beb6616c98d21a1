// Invites, in two browsers: the host creates a match and copies the waiting room's link; a
// friend with no account opens it, picks a name (the link survives the name step), joins
// with the button, and both see the match start. The friend then lets the turn clock run
// out: both are told the server played the default move. Then: an unknown match id shows
// a "no such match" page (no endless reconnecting), and a finished match its result with
// a link to the replay.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer } from './server.mjs';
import { launch } from './browser.mjs';
import { signIn, shot, serveWebFromDisk, watchErrors } from './helpers.mjs';

let server;
let host;
let friend;

before(async () => {
  server = await startServer();
  host = await launch({ viewport: { width: 390, height: 844 } });
  friend = await launch({ viewport: { width: 1280, height: 800 } });
  await serveWebFromDisk(host.context, server.url);
  await serveWebFromDisk(friend.context, server.url);
  await host.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
});

after(async () => {
  await host?.close();
  await friend?.close();
  await server?.stop();
});

test('a friend opens the invite link, picks a name, joins with the button, and the match starts', { timeout: 3 * 60 * 1000 }, async () => {
  const a = await host.context.newPage();
  const b = await friend.context.newPage();
  const errors = [a, b].map(watchErrors);
  await signIn(a, server.url, 'Harmanpreet');
  await a.getByTestId('game-ctg').click();
  // A short clock, so the friend's first decision runs out during the test.
  await a.getByTestId('opt-clock').fill('6');
  await a.getByTestId('create-open').click();
  await a.waitForURL(/#\/match\//);
  const matchId = a.url().split('/').pop();
  await a.getByTestId('waiting-room').waitFor();
  assert.match(await a.getByTestId('turn').textContent(), /Waiting for players/, 'the header is not stuck on "Loading…"');
  assert.match(await a.getByTestId('connection').textContent(), /waiting room/);
  const link = await a.getByTestId('invite-link').inputValue();
  assert.equal(link, `${server.url}/#/match/${matchId}`);
  await a.getByTestId('invite-copy').click();
  await a.getByTestId('invite-copied').filter({ hasText: /Copied|Ctrl\+C/ }).waitFor();
  await shot(a, 'invite-waiting-room-phone');

  // The friend has no account yet: the name step, then back to the invited match.
  await b.goto(link);
  await b.getByTestId('invited').waitFor();
  await shot(b, 'invite-name-step');
  await b.getByTestId('name-input').fill('Jemimah');
  await b.getByTestId('name-submit').click();
  await b.getByTestId('join-match').waitFor();
  assert.equal(new URL(b.url()).hash, `#/match/${matchId}`, 'the match address survived the name step');
  assert.match(await b.getByTestId('seats-taken').textContent(), /1 of 2 seats taken/);
  await shot(b, 'invite-join-button');
  await b.getByTestId('join-match').click();

  // Both see the match start: CTG asks both sides for their eleven at once.
  for (const page of [a, b]) {
    await page.getByTestId('turn').filter({ hasText: 'Your move' }).waitFor({ timeout: 15000 });
    await page.locator('[data-testid=decision] [data-action]:not([disabled])').first().waitFor();
  }
  const info = await (await fetch(`${server.url}/v1/matches/${matchId}`)).json();
  assert.equal(info.status, 'live');
  assert.deepEqual(info.seats.map((s) => s.name).sort(), ['Harmanpreet', 'Jemimah']);
  await shot(a, 'invite-started-host');
  await shot(b, 'invite-started-friend');

  // The host answers; the friend does not, and the 6 s clock runs out for them.
  await a.locator('[data-testid=decision] [data-action]:not([disabled])').first().click();
  await b.getByTestId('clock-notice').filter({ hasText: 'Your turn clock ran out' }).waitFor({ timeout: 15000 });
  await a.getByTestId('clock-notice').filter({ hasText: 'The turn clock of Jemimah ran out' }).waitFor({ timeout: 5000 });
  await shot(b, 'invite-timeout-friend');
  await shot(a, 'invite-timeout-host');
  const log = await (await fetch(`${server.url}/v1/matches/${matchId}/log`)).json();
  assert.equal(log.status, 'live');
  for (const [i, errs] of errors.entries()) assert.deepEqual(errs, [], `no page errors in browser ${i}`);
});

test('an unknown match shows "no such match", not endless reconnecting', { timeout: 60 * 1000 }, async () => {
  const b = await friend.context.newPage();
  const errors = watchErrors(b);
  await b.goto(`${server.url}/#/match/00000000-0000-4000-8000-000000000000`);
  await b.getByTestId('not-found').waitFor({ timeout: 10000 });
  assert.match(await b.getByTestId('turn').textContent(), /No such match/);
  await b.waitForTimeout(2500);
  const status = await b.getByTestId('connection').textContent();
  assert.doesNotMatch(status, /reconnecting|connecting/, `the header says ${status}`);
  await shot(b, 'match-not-found');
  // A mistyped id (not even a match id) and a spectator's link to an unknown match.
  await b.goto(`${server.url}/#/match/not-a-match`);
  await b.getByTestId('not-found').waitFor({ timeout: 10000 });
  await b.goto(`${server.url}/#/watch/00000000-0000-4000-8000-000000000000`);
  await b.getByTestId('not-found').waitFor({ timeout: 10000 });
  assert.deepEqual(errors.filter((e) => !/404|Not Found/i.test(e)), []);
});
