// Starts the crease binary on a free port with a fresh SQLite database, and stops it.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, existsSync, createWriteStream } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

function freePort() {
  return new Promise((ok, fail) => {
    const server = createServer();
    server.unref();
    server.on('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => ok(port));
    });
  });
}

/** The crease binary under test (CREASE_BIN, or the newest build in the target directory). */
export function binary() {
  if (process.env.CREASE_BIN) return process.env.CREASE_BIN;
  const target = process.env.CARGO_TARGET_DIR || join(REPO, 'target');
  for (const profile of ['release', 'debug']) {
    const path = join(target, profile, 'crease');
    if (existsSync(path)) return path;
  }
  throw new Error('no crease binary: run tests/e2e/run.sh (it builds one) or set CREASE_BIN');
}

/**
 * `crease` with a fourth game added from its own folder (examples/hand_cricket): the
 * binary `cargo test` builds (CREASE_EXAMPLE_BIN overrides it).
 */
export function exampleBinary() {
  if (process.env.CREASE_EXAMPLE_BIN) return process.env.CREASE_EXAMPLE_BIN;
  const path = join(process.env.CARGO_TARGET_DIR || join(REPO, 'target'), 'debug', 'examples', 'hand_cricket');
  if (existsSync(path)) return path;
  throw new Error('no hand_cricket example: run tests/e2e/run.sh (it builds one) or set CREASE_EXAMPLE_BIN');
}

/**
 * The server the tests talk to: the one run.sh started (E2E_SERVER_URL), or a fresh one
 * started here (resolves once /healthz answers; `stop()` ends it and removes its files).
 * With `bin`, always a fresh server of that binary.
 */
export async function startServer({ turnClockSecs = 60, bin = null } = {}) {
  if (process.env.E2E_SERVER_URL && !bin) return { url: process.env.E2E_SERVER_URL, async stop() {} };
  const dir = mkdtempSync(join(tmpdir(), 'crease-e2e-'));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const log = createWriteStream(join(dir, 'server.log'));
  const child = spawn(bin || binary(), ['serve', '--bind', `127.0.0.1:${port}`, '--turn-clock-secs', String(turnClockSecs)], {
    env: { ...process.env, DATABASE_URL: `sqlite://${join(dir, 'e2e.db')}`, RUST_LOG: process.env.RUST_LOG || 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.pipe(log);
  child.stderr.pipe(log);
  let exited = null;
  child.on('exit', (code) => { exited = code; });
  const deadline = Date.now() + 30000;
  for (;;) {
    if (exited !== null) throw new Error(`crease exited with ${exited} before serving; see ${join(dir, 'server.log')}`);
    try {
      const response = await fetch(`${url}/healthz`);
      if (response.ok) break;
    } catch {
      /* not up yet */
    }
    if (Date.now() > deadline) throw new Error('crease did not answer /healthz within 30 s');
    await new Promise((r) => setTimeout(r, 150));
  }
  return {
    url,
    dir,
    async stop() {
      if (exited === null) {
        child.kill('SIGTERM');
        await new Promise((r) => {
          const timer = setTimeout(() => { child.kill('SIGKILL'); r(); }, 10000);
          child.on('exit', () => { clearTimeout(timer); r(); });
        });
      }
      if (!process.env.E2E_KEEP) rmSync(dir, { recursive: true, force: true });
    },
  };
}
