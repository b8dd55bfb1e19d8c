// Stop signals reach baton however it is started: `npm start` / `npm run baton -- start` exec node, so a
// SIGTERM sent to the npm pid alone ends in baton's graceful shutdown, exit 0 and no process left behind.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reloadRequested, shuttingDown, stopped } from '../../src/roles/role-messages.ts';
import { type BatonProcess, startBaton, startProcess } from '../helpers/baton-process.ts';
import { freePort } from '../helpers/free-port.ts';
import { processesWith } from '../helpers/proc-scan.ts';
import { deletePrefix, testRedis, uniquePrefix } from '../helpers/redis.ts';
import { redisGatewayToml } from '../helpers/test-config.ts';
import { waitFor } from '../helpers/wait.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const GRACE_SECS = 2;
const READY = /baton gateway \+ worker running/;
const redis = testRedis();
const prefix = uniquePrefix('signals');
// The directory name is the marker: every process started for a case carries its config path in argv.
const dir = mkdtempSync(join(tmpdir(), 'baton-signals-'));
const started: BatonProcess[] = [];
let cases = 0;

beforeAll(() => {
  expect(dir).toContain('baton-signals-');
});

afterAll(async () => {
  for (const p of started) if (p.child.exitCode === null) p.kill('SIGKILL');
  for (const p of processesWith(dir)) process.kill(p.pid, 'SIGKILL');
  await deletePrefix(redis, prefix);
  await redis.quit();
  rmSync(dir, { recursive: true, force: true });
});

/** A config that needs no model and no channel: the roles start, listen and wait. */
async function writeConfig(): Promise<string> {
  const path = join(dir, `case-${++cases}.toml`);
  writeFileSync(
    path,
    `${redisGatewayToml(prefix, await freePort(), join(dir, 'data'))}[worker]
shutdown_grace_secs = ${GRACE_SECS}
`,
  );
  return path;
}

function withDeadline<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not happen within ${ms} ms`)), ms);
  });
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer));
}

function npm(args: string[]): BatonProcess {
  const p = startProcess('npm', args, { cwd: ROOT, detached: true });
  started.push(p);
  return p;
}

/** Exit 0 after the graceful lines, within the grace + 5 s, and nothing from this case still alive. */
async function expectGracefulExit(p: BatonProcess, marker: string, signal: string): Promise<void> {
  const code = await withDeadline(p.exited, (GRACE_SECS + 5) * 1000, `exit after ${signal}`);
  expect(p.output()).toContain(shuttingDown(signal, GRACE_SECS));
  expect(p.output()).toContain(stopped);
  expect(code).toBe(0);
  // npm exits after its child, so this holds at once; the short wait only covers /proc catching up.
  await waitFor(() => processesWith(marker, p.child.pid).length === 0, 2000, 'no process left');
}

describe('stop signals', () => {
  it('`npm start`: SIGTERM to the npm pid alone stops baton gracefully', async () => {
    const config = await writeConfig();
    const p = npm(['start', '--', '--config', config]);
    await p.waitFor(READY, 20_000);
    // npm forwards SIGTERM to its script's process; with `exec` that process is baton itself.
    process.kill(p.child.pid as number, 'SIGTERM');
    await expectGracefulExit(p, config, 'SIGTERM');
  }, 60_000);

  it('`npm run baton -- start`: SIGTERM to the npm pid alone stops baton gracefully', async () => {
    const config = await writeConfig();
    const p = npm(['run', 'baton', '--', 'start', '--config', config]);
    await p.waitFor(READY, 20_000);
    process.kill(p.child.pid as number, 'SIGTERM');
    await expectGracefulExit(p, config, 'SIGTERM');
  }, 60_000);

  it('Ctrl-C on `npm start` (SIGINT to the whole process group, then npm forwards it) stops gracefully', async () => {
    const config = await writeConfig();
    const p = npm(['start', '--', '--config', config]);
    await p.waitFor(READY, 20_000);
    process.kill(-(p.child.pid as number), 'SIGINT'); // what a terminal does: npm and baton both get it
    // npm re-raises a child's signal on itself; baton exits 0, so npm does too.
    await expectGracefulExit(p, config, 'SIGINT');
  }, 60_000);

  it('SIGHUP reloads the config and baton keeps running; SIGTERM then stops it', async () => {
    const config = await writeConfig();
    const p = startBaton(['start', '--config', config]);
    started.push(p);
    await p.waitFor(READY, 20_000);
    p.kill('SIGHUP');
    await p.waitFor(new RegExp(literal(reloadRequested('SIGHUP', config))), 10_000);
    expect(p.child.exitCode).toBeNull();
    p.kill('SIGTERM');
    await expectGracefulExit(p, config, 'SIGTERM');
  }, 60_000);
});

function literal(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
