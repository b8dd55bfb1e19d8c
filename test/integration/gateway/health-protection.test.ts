// /healthz details and /metrics behind the bearer when api_token is set (gateway.health_detail), and failed bearer
// attempts rate limited per client address (security review #11e), over real HTTP against real Redis.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfigText } from '../../../src/config/index.ts';
import { FAILURES_ALLOWED } from '../../../src/core/failure-limiter.ts';
import { tooManyBearerFailures } from '../../../src/ops-api/ops-api-messages.ts';
import { uniquePrefix } from '../../helpers/redis.ts';
import { jsonOf, type OpsHarness, startOpsHarness } from './ops-harness.ts';

const TOKEN = 'tok-health-4b7e19c2d0';
const AUTH = { authorization: `Bearer ${TOKEN}` };
const gateway = (extra = '') => `[gateway]\nhost = "127.0.0.1"\napi_token = "${TOKEN}"\n${extra}`;

let guarded: OpsHarness;
let publicHealth: OpsHarness;
let limited: OpsHarness;
beforeAll(async () => {
  guarded = await startOpsHarness({ prefix: uniquePrefix('health-guarded'), toml: gateway() });
  publicHealth = await startOpsHarness({
    prefix: uniquePrefix('health-public'),
    toml: gateway('health_detail = "public"'),
  });
  limited = await startOpsHarness({ prefix: uniquePrefix('bearer-limit'), toml: gateway() });
});
afterAll(async () => {
  await guarded?.close();
  await publicHealth?.close();
  await limited?.close();
});

describe('health and metrics with api_token', () => {
  it('by default: /healthz says only its status without the bearer, /metrics needs the bearer', async () => {
    const bare = await guarded.get('/healthz');
    expect(bare.status).toBe(200);
    expect(await jsonOf(bare)).toEqual({ status: 'ok' });
    const wrong = await guarded.get('/healthz', { authorization: 'Bearer nope' });
    expect(await jsonOf(wrong)).toEqual({ status: 'ok' });
    const full = await jsonOf(await guarded.get('/healthz', AUTH));
    expect(full.status).toBe('ok');
    expect(Object.keys(full)).toEqual(expect.arrayContaining(['channels', 'workers']));
    expect((await guarded.get('/metrics')).status).toBe(401);
    expect((await guarded.get('/metrics', { authorization: 'Bearer nope' })).status).toBe(401);
    const metrics = await guarded.get('/metrics', AUTH);
    expect(metrics.status).toBe(200);
    expect(await metrics.text()).toContain('# TYPE');
  });

  it('health_detail = "public" keeps both open', async () => {
    const health = await jsonOf(await publicHealth.get('/healthz'));
    expect(Object.keys(health)).toEqual(expect.arrayContaining(['status', 'channels', 'workers']));
    expect((await publicHealth.get('/metrics')).status).toBe(200);
  });

  it('names the key of a bad value', () => {
    const loaded = loadConfigText('schema_version = 3\n[gateway]\nhealth_detail = "secret"\n', {});
    expect(loaded.diagnostics.map((d) => d.message)).toContain(
      `Invalid config at 'gateway.health_detail': expected one of "public", "token", found "secret"`,
    );
  });
});

describe('failed bearer attempts', () => {
  it(`answers 429 after ${FAILURES_ALLOWED} failures from one address, even to the right token`, async () => {
    for (let i = 0; i < FAILURES_ALLOWED; i++) {
      expect((await limited.get('/api/tasks', { authorization: `Bearer guess-${i}` })).status).toBe(401);
    }
    // A request without any token is not a guess: it is refused as before, and not counted.
    expect((await limited.get('/api/tasks')).status).toBe(401);
    for (const headers of [{ authorization: 'Bearer guess-x' }, AUTH]) {
      const res = await limited.get('/api/tasks', headers);
      expect(res.status).toBe(429);
      const wait = Number(res.headers.get('retry-after'));
      expect(wait).toBeGreaterThan(0);
      expect(await jsonOf(res)).toEqual({ error: tooManyBearerFailures(wait) });
    }
    // Guessing through /healthz or /metrics is counted and refused the same way.
    expect((await limited.get('/metrics', AUTH)).status).toBe(429);
    expect((await limited.get('/healthz', AUTH)).status).toBe(429);
  });
});
