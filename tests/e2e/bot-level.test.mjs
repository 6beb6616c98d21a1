// The bot level is chosen beside "Play the bot": `hard` is offered only for a game that has
// a hard bot (CTG, Champions), and the chosen level is what the page asks the server for.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer } from './server.mjs';
import { launch } from './browser.mjs';
import { signIn, shot, serveWebFromDisk, watchErrors } from './helpers.mjs';

let server;
let browser;

before(async () => {
  server = await startServer();
  browser = await launch();
  await serveWebFromDisk(browser.context, server.url);
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

test('the player picks the bot level, and hard only where the game has one', { timeout: 2 * 60 * 1000 }, async () => {
  const page = await browser.context.newPage();
  const errors = watchErrors(page);
  await signIn(page, server.url, 'Lata');
  const hard = page.locator('[data-testid="bot-level"] option[value="hard"]');

  await page.getByTestId('game-wicketz').click();
  assert.equal(await hard.isDisabled(), true, 'Wicketz has no hard bot');
  await page.getByTestId('game-champions').click();
  assert.equal(await hard.isDisabled(), false, 'Champions has one');
  await page.getByTestId('game-ctg').click();
  assert.equal(await hard.isDisabled(), false, 'CTG has one');
  await page.getByTestId('bot-level').selectOption('hard');
  await shot(page, 'lobby-bot-level');

  const [request, response] = await Promise.all([
    page.waitForRequest((r) => r.method() === 'POST' && r.url().endsWith('/v1/matches')),
    page.waitForResponse((r) => r.request().method() === 'POST' && r.url().endsWith('/v1/matches')),
    page.getByTestId('play-bot').click(),
  ]);
  assert.equal(request.postDataJSON().bot_level, 'hard');
  assert.equal(request.postDataJSON().opponent, 'bot');
  assert.equal(response.status(), 201, await response.text());
  await page.waitForURL(/#\/match\//);
  await page.getByTestId('turn').filter({ hasText: 'Your move' }).waitFor({ timeout: 15000 });

  // Back in the lobby on Wicketz, a chosen `hard` falls back to a level the game has.
  await page.goto(`${server.url}/#/`);
  await page.getByTestId('game-ctg').click();
  await page.getByTestId('bot-level').selectOption('hard');
  await page.getByTestId('game-wicketz').click();
  assert.equal(await page.getByTestId('bot-level').inputValue(), 'normal');
  assert.deepEqual(errors, []);
});
