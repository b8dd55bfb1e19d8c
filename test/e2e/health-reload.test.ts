// `/healthz` reports the diagnostics of the config in effect: a `baton gateway` started on a file with a dropped
// section is degraded; after a good reload it is ok; a rejected reload leaves it as it was (config.md "Reload", §4).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfigText } from '../../src/config/index.ts';
import { requestDeploymentReload } from '../../src/fleet/reload-bus.ts';
import { type BatonProcess, startBaton } from '../helpers/baton-process.ts';
import { freePort } from '../helpers/free-port.ts';
import { deletePrefix, REDIS_URL, testRedis, uniquePrefix } from '../helpers/redis.ts';

const redis = testRedis();
const prefix = uniquePrefix('health-reload');
const dir = mkdtempSync(join(tmpdir(), 'baton-health-reload-'));
const path = join(dir, 'baton.toml');
let port = 0;
let gateway: BatonProcess | undefined;

const toml = (warnAt: number) => `
[redis]
url = "${REDIS_URL}"
prefix = "${prefix}"

[gateway]
host = "127.0.0.1"
port = ${port}
data_dir = "${dir}"

[risk_profiles.p]

[agents.a]
risk_profile = "p"

[cost]
warn_at_percent = ${warnAt}
`;
const BROKEN = 101;
const FIXED = 80;

const healthz = async () => {
  const res = await fetch(`http://127.0.0.1:${port}/healthz`);
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};

async function reload(): Promise<boolean | undefined> {
  const res = await requestDeploymentReload(redis, prefix);
  expect(res.acks).toHaveLength(1);
  return res.acks[0]?.ok;
}

beforeAll(async () => {
  port = await freePort();
  expect(loadConfigText(toml(BROKEN), {}).droppedSections).toEqual(['cost']);
  writeFileSync(path, toml(BROKEN));
  gateway = startBaton(['gateway', '-c', path]);
  await gateway.waitFor(/baton gateway running/);
});

afterAll(async () => {
  gateway?.kill('SIGTERM');
  await gateway?.exited;
  await deletePrefix(redis, prefix);
  await redis.quit();
  rmSync(dir, { recursive: true, force: true });
});

describe('/healthz across config reloads', () => {
  it('is degraded by the startup file, ok after a good reload, and unchanged by a rejected one', async () => {
    const started = await healthz();
    expect(started.status).toBe(503);
    expect(started.body).toMatchObject({
      status: 'degraded',
      problems: ["config section 'cost' dropped", '1 config error'],
      config_errors: ["Invalid config at 'cost.warn_at_percent': must be between 0 and 100"],
      dropped_sections: ['cost'],
    });

    writeFileSync(path, toml(FIXED));
    expect(await reload()).toBe(true);
    const fixed = await healthz();
    expect(fixed.status).toBe(200);
    expect(fixed.body.status).toBe('ok');
    for (const key of ['problems', 'config_errors', 'dropped_sections'])
      expect(fixed.body[key]).toBeUndefined();

    writeFileSync(path, toml(BROKEN));
    expect(await reload()).toBe(false);
    const rejected = await healthz();
    expect(rejected.status).toBe(200);
    expect(rejected.body).toEqual({ ...fixed.body, redis: rejected.body.redis });
  });
});
