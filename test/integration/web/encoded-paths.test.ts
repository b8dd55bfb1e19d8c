// Percent-encoded paths (security review #11b): the auth hooks decide on the path the router matches, so an
// encoded spelling of a protected path is guarded like the plain one, and an undecodable path gets a 400 (never a
// request left hanging), with and without api_token, over real HTTP.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BAD_PATH } from '../../../src/ops-api/ops-api-messages.ts';
import { createRuntimeHarness, type RuntimeHarness, runtimeToml } from '../../helpers/runtime-harness.ts';

const TOKEN = 'tok-encoded-5d2f9a17c3';
const TOML = `
[channels.web.main]
enabled = true

[peer_groups.web]
channel = "web.main"
agents = ["main"]
external_peers = ["web:local"]
`;

let guarded: RuntimeHarness;
let local: RuntimeHarness;
beforeAll(async () => {
  guarded = await createRuntimeHarness('encoded-guarded', runtimeToml(TOML), {
    platformChannels: true,
    workers: 0,
    ops: { apiToken: TOKEN },
  });
  local = await createRuntimeHarness('encoded-local', runtimeToml(TOML), {
    platformChannels: true,
    workers: 0,
    ops: {},
  });
});
afterAll(async () => {
  await guarded?.close();
  await local?.close();
});

/** A raw request target (fetch would normalise some spellings); a hang fails the test instead of stalling it. */
async function get(base: string | null, target: string, headers: Record<string, string> = {}) {
  const res = await fetch(`${base}${target}`, {
    headers: { accept: 'application/json', ...headers },
    redirect: 'manual',
    signal: AbortSignal.timeout(5000),
  });
  return { status: res.status, body: await res.text() };
}

const SPELLINGS: Record<string, string[]> = {
  '/ui/tasks': ['/%75i/tasks', '/u%69/tasks', '/ui/%74asks', '/%75%69/tasks', '/ui%2Ftasks'],
  '/chat/main': ['/%63hat/main', '/chat/%6Dain', '/chat%2Fmain'],
  '/': ['/%2F', '/%2f'],
  '/api/tasks': ['/api/%74asks', '/%61pi/tasks'],
};

describe('percent-encoded paths with api_token', () => {
  it('guards each encoded spelling like the plain path: no session or bearer, no data', async () => {
    for (const [plain, encoded] of Object.entries(SPELLINGS)) {
      const reference = await get(guarded.opsUrl, plain);
      expect(reference.status, plain).toBe(401);
      for (const target of encoded) {
        const res = await get(guarded.opsUrl, target);
        expect([400, 401, 404], `${target}: ${res.status} ${res.body}`).toContain(res.status);
      }
    }
  });

  it('answers a bearer holder on an encoded browser path (no browser session) instead of hanging', async () => {
    for (const target of [...(SPELLINGS['/ui/tasks'] ?? []), ...(SPELLINGS['/chat/main'] ?? [])]) {
      const res = await get(guarded.opsUrl, target, { authorization: `Bearer ${TOKEN}` });
      expect([400, 401, 404], `${target}: ${res.status} ${res.body}`).toContain(res.status);
    }
  });

  it('answers an undecodable path with 400, before and after auth', async () => {
    for (const target of ['/%75i/%E0%A4%A', '/api/%ZZtasks', '/chat/%C0%AF']) {
      const res = await get(guarded.opsUrl, target, { authorization: `Bearer ${TOKEN}` });
      expect(res.status, target).toBe(400);
      expect(JSON.parse(res.body)).toEqual({ error: BAD_PATH });
    }
  });
});

describe('percent-encoded paths in local mode', () => {
  it('serves or refuses each encoded spelling, never leaving it hanging', async () => {
    for (const encoded of Object.values(SPELLINGS)) {
      for (const target of encoded) {
        const res = await get(local.opsUrl, target);
        expect(res.status, `${target}: ${res.body}`).toBeLessThan(500);
      }
    }
    expect((await get(local.opsUrl, '/%75i/%E0%A4%A')).status).toBe(400);
  });
});
