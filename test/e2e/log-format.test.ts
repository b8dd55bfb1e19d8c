// baton's own log lines on a terminal (issue 21 #14): `baton start` with stderr on a TTY (a real pseudo-terminal,
// through util-linux `script`) prints its log lines readably between its human lines; with stderr on a pipe, they
// stay pino JSON. The log line is the config loader's error for a dropped section, written right at startup.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type BatonProcess, startBaton, startProcess } from '../helpers/baton-process.ts';
import { CLI } from '../helpers/cli.ts';
import { freePort } from '../helpers/free-port.ts';
import { deletePrefix, testRedis, uniquePrefix } from '../helpers/redis.ts';
import { redisGatewayToml } from '../helpers/test-config.ts';

const READY = /baton gateway \+ worker running/;
const DROPPED = `Invalid config at 'agents."../../x"': agent alias must match [A-Za-z0-9_-]+`;
const redis = testRedis();
const prefix = uniquePrefix('log-format');
const dir = mkdtempSync(join(tmpdir(), 'baton-log-format-'));
const started: BatonProcess[] = [];

const hasScript = (() => {
  try {
    execFileSync('script', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

afterAll(async () => {
  for (const p of started) if (p.child.exitCode === null) stop(p, 'SIGKILL');
  await deletePrefix(redis, prefix);
  await redis.quit();
  rmSync(dir, { recursive: true, force: true });
});

/** Signals the process group (the `script` wrapper and the baton under it). */
function stop(p: BatonProcess, signal: NodeJS.Signals): void {
  try {
    process.kill(-(p.child.pid ?? 0), signal);
  } catch {
    p.kill(signal);
  }
}

async function writeConfig(name: string): Promise<string> {
  const path = join(dir, `${name}.toml`);
  writeFileSync(
    path,
    `${redisGatewayToml(prefix, await freePort(), join(dir, 'data'))}[worker]
shutdown_grace_secs = 1

[agents."../../x"]
`,
  );
  return path;
}

describe('log format', { timeout: 120_000 }, () => {
  it.skipIf(!hasScript)('on a terminal: readable log lines, no JSON', async () => {
    const config = await writeConfig('tty');
    const command = `'${process.execPath}' '${CLI}' start -c '${config}'`;
    const p = startProcess('script', ['-qfec', command, '/dev/null'], {
      env: { NO_COLOR: '1', BATON_LOG_LEVEL: 'info' },
      detached: true,
      label: 'baton start (tty)',
    });
    started.push(p);
    await p.waitFor(READY, 60_000);
    const lines = p.output().split(/\r?\n/);
    expect(lines).toContainEqual(expect.stringMatching(/^\d\d:\d\d:\d\d\.\d{3} ERROR /));
    const line = lines.find((l) => l.includes(DROPPED));
    expect(line).toMatch(new RegExp(`^\\d\\d:\\d\\d:\\d\\d\\.\\d{3} ERROR ${escapeRegExp(DROPPED)}$`));
    expect(p.output()).not.toContain('{"level":');
    stop(p, 'SIGTERM');
    expect(await p.exited).toBe(0);
  });

  it('on a pipe: pino JSON, as before', async () => {
    const config = await writeConfig('pipe');
    const p = startBaton(['start', '-c', config], { BATON_LOG_LEVEL: 'info' });
    started.push(p);
    await p.waitFor(READY, 60_000);
    const stderr = p.output().split('--- stderr ---\n')[1] ?? '';
    const records = stderr
      .split('\n')
      .filter((l) => l.trim())
      .map((l) => JSON.parse(l) as { level: number; msg: string });
    expect(records).toContainEqual(expect.objectContaining({ level: 50, msg: DROPPED }));
    p.kill('SIGTERM');
    expect(await p.exited).toBe(0);
  });
});

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
