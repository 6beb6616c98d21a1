// Accounts in two browsers: a guest claims its account with a password in one, logs in to
// it from the other (after a wrong password is refused), and logging out everywhere from
// the second ends the first browser's session too.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer } from './server.mjs';
import { launch } from './browser.mjs';
import { signIn, shot, serveWebFromDisk, watchErrors } from './helpers.mjs';

let server;
let phone;
let laptop;

before(async () => {
  server = await startServer();
  phone = await launch();
  laptop = await launch();
  await serveWebFromDisk(phone.context, server.url);
  await serveWebFromDisk(laptop.context, server.url);
});

after(async () => {
  await phone?.close();
  await laptop?.close();
  await server?.stop();
});

const savedAccount = (page) => page.evaluate(() => JSON.parse(localStorage.getItem('crease.player') || 'null'));

test('claim an account in one browser, log in to it from another, log out everywhere', { timeout: 2 * 60 * 1000 }, async () => {
  const first = await phone.context.newPage();
  const second = await laptop.context.newPage();
  const errors = [first, second].map(watchErrors);
  const username = `maya_${Date.now().toString(36)}`;
  const password = 'a long passphrase';

  await signIn(first, server.url, 'Maya');
  const guest = await savedAccount(first);
  await first.getByTestId('nav-account').click();
  await first.getByTestId('claim-username').fill(username.toUpperCase());
  await first.getByTestId('claim-password').fill(password);
  await first.getByTestId('claim-password-again').fill('a different one');
  await first.getByTestId('claim-submit').click();
  assert.match(await first.getByTestId('claim-error').textContent(), /differ/, 'mistyped passwords are caught before sending');
  await first.getByTestId('claim-password-again').fill(password);
  await first.getByTestId('claim-submit').click();
  await first.getByTestId('account-username').filter({ hasText: username }).waitFor();
  await shot(first, 'account-claimed');

  // The other browser knows nothing but the login name and the password.
  await second.goto(`${server.url}/#/login`);
  await second.getByTestId('login-username').fill(username);
  await second.getByTestId('login-password').fill('not the password');
  await second.getByTestId('login-submit').click();
  await second.getByTestId('login-error').filter({ hasText: /wrong password/ }).waitFor();
  await shot(second, 'login-refused');
  await second.getByTestId('login-password').fill(password);
  await second.getByTestId('login-password').press('Enter');
  await second.getByTestId('play-bot').waitFor();
  const session = await savedAccount(second);
  assert.equal(session.player_id, guest.player_id, 'the same player on the second device');
  assert.notEqual(session.token, guest.token, 'with a token of its own');
  assert.equal(await second.getByTestId('player-name').textContent(), 'Maya');
  await shot(second, 'login-other-device');

  // Log out everywhere from the second device: the first device's token stops working and
  // its page falls back to the name entry.
  await second.getByTestId('nav-account').click();
  await second.getByTestId('log-out-everywhere').click();
  await second.getByTestId('name-input').waitFor();
  await first.reload();
  await first.getByTestId('name-input').waitFor({ timeout: 10000 });
  assert.equal(await savedAccount(first), null, 'the revoked session is forgotten');
  await shot(first, 'logged-out-everywhere');
  assert.deepEqual(errors.flat(), [], 'no client errors');
});
