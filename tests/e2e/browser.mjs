// Launches Debian's Chromium headless through playwright-core (no browser download).
import { chromium } from 'playwright-core';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';

/**
 * Starts a browser with an empty profile (`viewport` sizes the page, e.g. a phone's;
 * `locale` is the browser's language);
 * close() also removes the profile directory.
 */
export async function launch({ viewport = { width: 1400, height: 1000 }, locale = 'en-US' } = {}) {
  const profile = mkdtempSync(join(tmpdir(), 'crease-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    viewport,
    // The page's language follows navigator.languages (js/i18n.js): `pt-BR` tests the
    // Portuguese client as a Brazilian browser opens it, with nothing switched by hand.
    locale,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      // Pages served from disk by E2E_WEB_DIR (development only) have no local address, so
      // Chromium's local-network checks would block their socket to 127.0.0.1.
      ...(process.env.E2E_WEB_DIR ? ['--disable-features=LocalNetworkAccessChecks,BlockInsecurePrivateNetworkRequests'] : []),
    ],
  });
  return {
    context,
    async close() {
      await context.close().catch(() => {});
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
