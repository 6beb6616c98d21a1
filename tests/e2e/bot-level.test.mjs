// The bot level is chosen beside "Play the bot": `hard` is offered only for a game that has
// a hard bot (all three built-in games; tests/e2e/fourth-game.test.mjs checks a game without
// one), and the chosen level is what the page asks the server for.
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

  for (const game of ['wicketz', 'champions', 'ctg']) {
    await page.getByTestId(`game-${game}`).click();
    assert.equal(await hard.isDisabled(), false, `${game} has a hard bot`);
  }
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

  assert.deepEqual(errors, []);
});
