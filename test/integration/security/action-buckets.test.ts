// Action buckets against real Redis: limit, window, unique members, TTL, a two-process race, tool charging.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { actionBucketKey, createActionBuckets } from '../../../src/security/action-buckets.ts';
import { createFileWriteTool } from '../../../src/tools/builtin/file-write.ts';
import { buildRunContext } from '../../helpers/run-context.ts';
import { configFromToml } from '../../helpers/test-config.ts';

const prefix = `baton-test-buckets-${randomUUID()}`;
let redis: Redis;

beforeAll(() => {
  redis = new Redis({ host: '127.0.0.1', port: 6379 });
});

afterAll(async () => {
  const keys = await redis.keys(`${prefix}:*`);
  if (keys.length) await redis.del(...keys);
  redis.disconnect();
});

const HOUR = 3_600_000;

describe('action buckets', () => {
  it('records up to the limit, then refuses; isExhausted agrees', async () => {
    const b = createActionBuckets(redis, prefix);
    const results = [];
    for (let i = 0; i < 4; i++) results.push(await b.tryRecord('main', 'telegram.home:1', 3));
    expect(results).toEqual([true, true, true, false]);
    expect(await b.isExhausted('main', 'telegram.home:1', 3)).toBe(true);
    expect(await b.isExhausted('main', 'telegram.home:1', 4)).toBe(false);
    expect(await redis.zcard(actionBucketKey(prefix, 'main', 'telegram.home:1'))).toBe(3);
  });

  it('keeps one bucket per owner and sender: a subagent run charges its parent bucket', async () => {
    const b = createActionBuckets(redis, prefix);
    expect(await b.tryRecord('main', 'cron:daily', 1)).toBe(true);
    // The child run uses the same owner and sender, so it sees the parent's action.
    expect(await b.tryRecord('main', 'cron:daily', 1)).toBe(false);
    expect(await b.tryRecord('main', 'cron:other', 1)).toBe(true);
    expect(await b.tryRecord('helper', 'cron:daily', 1)).toBe(true);
  });

  it('always refuses with limit 0', async () => {
    const b = createActionBuckets(redis, prefix);
    expect(await b.tryRecord('zero', 's', 0)).toBe(false);
    expect(await b.isExhausted('zero', 's', 0)).toBe(true);
    expect(await redis.exists(b.keyOf('zero', 's'))).toBe(0);
  });

  it('slides: entries older than an hour stop counting', async () => {
    const b = createActionBuckets(redis, prefix);
    const t0 = 1_900_000_000_000;
    expect(await b.tryRecord('win', 's', 2, t0)).toBe(true);
    expect(await b.tryRecord('win', 's', 2, t0 + 1000)).toBe(true);
    expect(await b.tryRecord('win', 's', 2, t0 + HOUR - 1)).toBe(false);
    expect(await b.isExhausted('win', 's', 2, t0 + HOUR)).toBe(true);
    expect(await b.tryRecord('win', 's', 2, t0 + HOUR + 1)).toBe(true);
    expect(await redis.zcard(b.keyOf('win', 's'))).toBe(2);
  });

  it('stores distinct members for actions in the same millisecond, with a TTL just over an hour', async () => {
    const b = createActionBuckets(redis, prefix);
    const now = Date.now();
    for (let i = 0; i < 5; i++) expect(await b.tryRecord('same', 's', 10, now)).toBe(true);
    expect(await redis.zcard(b.keyOf('same', 's'))).toBe(5);
    const ttl = await redis.pttl(b.keyOf('same', 's'));
    expect(ttl).toBeGreaterThan(HOUR);
    expect(ttl).toBeLessThanOrEqual(HOUR + 120_000);
  });

  it('holds the limit exactly under concurrency from two processes', async () => {
    const worker = fileURLToPath(new URL('./bucket-worker.ts', import.meta.url));
    const runWorker = () =>
      new Promise<number>((resolve, reject) => {
        const child = spawn(process.execPath, [worker, prefix, 'race', 'api:s1', '25', '40'], {
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        let out = '';
        let err = '';
        child.stdout.on('data', (c: Buffer) => {
          out += c.toString();
        });
        child.stderr.on('data', (c: Buffer) => {
          err += c.toString();
        });
        child.on('error', reject);
        child.on('close', (code) => {
          if (code !== 0) return reject(new Error(`worker exited ${code}: ${err}`));
          resolve((JSON.parse(out) as { ok: number }).ok);
        });
      });
    const [a, b] = await Promise.all([runWorker(), runWorker()]);
    expect(a + b).toBe(25);
    expect(await redis.zcard(actionBucketKey(prefix, 'race', 'api:s1'))).toBe(25);
  });
});

describe('acting tools charge the shared bucket', () => {
  it('a subagent run with the same owner and sender sees the parent actions', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'baton-bucket-tool-'));
    try {
      const config = configFromToml(
        `
[risk_profiles.default]
[runtime_profiles.tight]
max_actions_per_hour = 2

[agents.main]
risk_profile = "default"
runtime_profile = "tight"
`,
        { dataDir },
      );
      const buckets = createActionBuckets(redis, prefix);
      const parent = buildRunContext({ config, agentAlias: 'main', buckets, sender: 'telegram.home:42' });
      const child = { ...parent, runId: 'child', isSubagent: true, sessionKey: 'subagent-child' };
      const tool = createFileWriteTool();
      const write = (run: typeof parent, path: string) =>
        tool.execute({ path, content: 'x' }, { run, toolCallId: path, signal: run.signal });
      expect((await write(parent, 'a.txt')).success).toBe(true);
      expect((await write(child, 'b.txt')).success).toBe(true);
      expect((await write(child, 'c.txt')).error).toBe('Rate limit exceeded: action budget exhausted');
      expect((await write(parent, 'd.txt')).error).toBe('Rate limit exceeded: action budget exhausted');
      expect(await buckets.isExhausted('main', 'telegram.home:42', 2)).toBe(true);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
