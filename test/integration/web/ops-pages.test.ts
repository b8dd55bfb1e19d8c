// The operator pages over HTTP (real Fastify, real Redis, the real web auth): writes need the session's CSRF
// token, record text renders as text, approvals are read-only (no decide route, even for a web peer), cost
// shows the ledger, and the delegation_policy save goes through the injected editor.
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApprovalStore } from '../../../src/approval/approval-store.ts';
import type { BatonConfig } from '../../../src/config/types.ts';
import { createSilentLogger } from '../../../src/core/logger.ts';
import { createCostLedger } from '../../../src/cost/ledger.ts';
import { createDelegateTasks } from '../../../src/delegation/delegate-tasks.ts';
import { createAbortBus } from '../../../src/fleet/abort-bus.ts';
import { createOpsDeps } from '../../../src/ops-api/ops-deps.ts';
import { createOpsServer } from '../../../src/ops-api/ops-server.ts';
import { cancelledSettled } from '../../../src/tools/delegate/delegate-messages.ts';
import { CSRF_MISSING } from '../../../src/web/auth-messages.ts';
import { READ_ONLY_NOTE } from '../../../src/web/ops/ops-page-messages.ts';
import type { PolicyEditResult } from '../../../src/web/ops/ops-pages-deps.ts';
import { registerWeb } from '../../../src/web/register-web.ts';
import { createSessionStore, type StoredSession } from '../../../src/web/session-store.ts';
import { outboxEntries, spaceOf } from '../../helpers/key-space.ts';
import { deletePrefix, REDIS_URL, testRedis, uniquePrefix } from '../../helpers/redis.ts';
import { silentRunningTask } from '../../helpers/task-fixtures.ts';
import { loadTestConfig } from '../../helpers/test-config.ts';
import { webUsersToml } from '../../helpers/web-users.ts';

const SECRET = 'sk-test-ops-pages-5f2a9c71';
const prefix = uniquePrefix('ops-pages');
const redis = testRedis();
const subscriber = testRedis();
const logger = createSilentLogger();
const edits: Array<[string, string, string]> = [];
let editResult: PolicyEditResult = { ok: true };
let app: FastifyInstance;
let config: BatonConfig;
let alice: StoredSession;
let bob: StoredSession;

const TOML = `
[redis]
url = "${REDIS_URL}"
prefix = "${prefix}"

[providers.models.custom.fake]
uri = "http://127.0.0.1:9"
model = "fake"
api_key = "\${OPS_PAGES_KEY}"

[risk_profiles.default]

[risk_profiles.ops]
delegation_policy = { mode = "allow" }

[agents.main]
model_provider = "custom.fake"
risk_profile = "ops"

[agents.writer]
model_provider = "custom.fake"
risk_profile = "default"

[peer_groups.webops]
channel = "web"
agents = ["writer"]
external_peers = ["web:alice"]
${webUsersToml(['alice', 'bob'], ['alice'])}`;

beforeAll(async () => {
  const { config: loadedConfig, load: loaded } = loadTestConfig(TOML, { env: { OPS_PAGES_KEY: SECRET } });
  config = { ...loadedConfig, gateway: { ...loadedConfig.gateway, port: 0 } };
  const abortBus = createAbortBus(redis, subscriber, prefix, logger);
  app = createOpsServer({
    ...createOpsDeps({ config, redis, logger, load: loaded, abortBus }),
    web: (server, ctx) =>
      registerWeb(server, {
        ...ctx,
        opsPages: {
          configPath: '/etc/baton/baton.toml',
          applyDelegationPolicyMode: async (path, profile, mode) => {
            edits.push([path, profile, mode]);
            return editResult;
          },
        },
      }),
  });
  app.addHook('onClose', () => abortBus.close());
  const sessions = createSessionStore(redis, prefix, logger);
  alice = await sessions.create('alice', 'user');
  bob = await sessions.create('bob', 'user');
});
afterAll(async () => {
  await app.close();
  await deletePrefix(redis, prefix);
  redis.disconnect();
  subscriber.disconnect();
});

const cookie = (s: StoredSession) => `baton_session=${s.sessionId}`;
const get = (url: string, who = alice) => app.inject({ url, headers: { cookie: cookie(who) } });
const post = (url: string, body: unknown, who = alice, csrf: string | null = who.csrf) =>
  app.inject({
    method: 'POST',
    url,
    headers: {
      cookie: cookie(who),
      'content-type': 'application/json',
      ...(csrf !== null ? { 'x-csrf-token': csrf } : {}),
    },
    payload: JSON.stringify(body),
  });

const XSS = '<img src=x onerror="alert(1)">';

describe('background tasks', () => {
  it('refuses a cancel without the CSRF token, and the task keeps running', async () => {
    const tasks = createDelegateTasks(redis, prefix);
    const id = '0d6c4c6e-8a0e-4c51-9d5e-1a2b3c4d5e61';
    await tasks.admit(silentRunningTask(id));
    const res = await post(`/ui/tasks/${id}/cancel`, {}, alice, null);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ error: CSRF_MISSING });
    const wrong = await post(`/ui/tasks/${id}/cancel`, {}, alice, bob.csrf);
    expect(wrong.statusCode).toBe(403);
    expect((await tasks.get(id))?.status).toBe('running');

    const ok = await post(`/ui/tasks/${id}/cancel`, {});
    expect(ok.statusCode).toBe(200);
    // No BullMQ job behind this record: the cancel_task text for a job the queue no longer has.
    expect(ok.json()).toEqual({ text: cancelledSettled(id) });
    expect(await tasks.get(id)).toMatchObject({ status: 'cancelled', error: 'Cancelled by user request' });
    expect((await post(`/ui/tasks/${id}/cancel`, {})).statusCode).toBe(409);
  });

  it('shows output and error as text, cut when long, with the parent tool call id', async () => {
    const tasks = createDelegateTasks(redis, prefix);
    const done = '1d6c4c6e-8a0e-4c51-9d5e-1a2b3c4d5e62';
    const bad = '2d6c4c6e-8a0e-4c51-9d5e-1a2b3c4d5e63';
    await tasks.admit(silentRunningTask(done, { parent_tool_call_id: 'call_<b>42</b>' }));
    await tasks.settle(done, 'completed', { output: `${XSS}${'x'.repeat(2000)}` });
    await tasks.admit(silentRunningTask(bad));
    await tasks.settle(bad, 'failed', { error: `Agent 'writer' failed: ${XSS}` });
    const res = await get('/ui/tasks/fragment');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-security-policy']).toContain("script-src 'self'");
    expect(res.body).not.toContain('<img');
    expect(res.body).not.toContain('<b>42');
    expect(res.body).toContain('&lt;img src=x onerror=&quot;alert(1)&quot;&gt;');
    expect(res.body).toContain('call_&lt;b&gt;42&lt;/b&gt;');
    expect(res.body).toContain(`(${XSS.length + 2000} characters in all)`);
    expect(res.body).not.toContain('x'.repeat(700));
  });
});

describe('approvals', () => {
  const store = createApprovalStore({ redis, prefix, logger });
  const ask = () =>
    store.createPendingApproval({
      tool: 'file_write',
      args: { path: '<script>alert(1)</script>', content: 'hi' },
      agent: 'writer',
      caller: 'main',
      runId: 'run-1',
      rootRunId: 'run-0',
      channel: 'local.test',
      destination: { chat: 'ops-room' },
      routePrompt: true,
      waitMs: 60_000,
    });

  it('shows the card with its arguments as text, read-only: no decide button; not to a user of no group', async () => {
    const rec = await ask();
    expect((await get('/ui/approvals/fragment', bob)).body).not.toContain(rec.approval_id);
    for (const who of [alice]) {
      const res = await get('/ui/approvals/fragment', who);
      expect(res.body).not.toContain('<script>');
      expect(res.body).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
      expect(res.body).toContain('main → writer');
      expect(res.body).toContain(rec.approval_id);
      expect(res.body).toContain(READ_ONLY_NOTE);
      expect(res.body).not.toContain('/decide');
      expect(res.body).not.toContain('data-post');
    }
  });

  it('a POST to the former decide route changes nothing, even from a web peer of the agent (approvals.md §5)', async () => {
    const rec = await ask();
    for (const answer of ['approve', 'deny']) {
      const res = await post(`/ui/approvals/${rec.approval_id}/decide`, { answer });
      expect(res.statusCode).toBe(404);
    }
    expect(await store.get(rec.approval_id)).toMatchObject({ status: 'pending', decided_by: null });
    const entries = await outboxEntries(redis, spaceOf(prefix), 'local.test');
    expect(entries.map(([, f]) => f[f.indexOf('approval') + 1])).not.toContain(
      JSON.stringify({ op: 'edit', approvalId: rec.approval_id }),
    );
  });

  it('names the operator in the audit by username and id, with the channel', async () => {
    const rec = await ask();
    await store.decide(rec.approval_id, 'deny', {
      channel: 'slack.ops',
      user: 'UAPPROVER1',
      name: 'realops',
    });
    const audit = await get('/ui/approvals/fragment');
    expect(audit.body).toContain('realops (UAPPROVER1) · slack.ops');
  });
});

describe('cost', () => {
  it("shows today's and this month's shared spend and each agent's own against the limits", async () => {
    const ledger = createCostLedger(redis, prefix, logger);
    await ledger.record({ alias: 'writer', ancestors: ['main'], microUsd: 1_230_000, perAgent: true });
    const res = await get('/ui/cost/fragment');
    expect(res.body).toMatch(/data-period="day">.*\$1\.23<\/td><td>\$10\.00/s);
    expect(res.body).toMatch(/data-period="month">.*\$1\.23<\/td><td>\$100\.00/s);
    expect(res.body).toMatch(/data-agent="writer"><td>writer<\/td><td class="num" data-field="own">\$1\.23/);
    expect(res.body).toMatch(/data-agent="main">.*data-field="own">\$0\.00<\/td>\s*<td class="num">\$1\.23/s);
  });
});

describe('config', () => {
  it('shows the loaded config with secrets redacted and a mode selector per risk profile', async () => {
    const res = await get('/ui/config');
    expect(res.statusCode).toBe(200);
    expect(res.body).not.toContain(SECRET);
    expect(res.body).toContain('[redacted]');
    expect(res.body).toContain('Risk profiles → ops');
    expect(res.body).toMatch(/<option value="allow" selected>allow<\/option>/);
    expect(res.body).toContain('action="/ui/config/risk-profiles/default/delegation-policy"');
  });

  it('saves through the config editor, and shows its diagnostics verbatim when it refuses', async () => {
    const url = '/ui/config/risk-profiles/default/delegation-policy';
    expect((await post(url, { mode: 'allow' }, alice, null)).statusCode).toBe(403);
    expect((await post(url, { mode: 'sometimes' })).statusCode).toBe(400);
    expect(
      (await post('/ui/config/risk-profiles/nope/delegation-policy', { mode: 'allow' })).statusCode,
    ).toBe(404);
    expect(edits).toEqual([]);
    const ok = await post(url, { mode: 'allow' });
    expect(ok.json()).toEqual({
      text: 'Saved: risk_profiles.default.delegation_policy.mode = "allow".',
    });
    expect(edits).toEqual([['/etc/baton/baton.toml', 'default', 'allow']]);
    const diag = "Invalid config at 'risk_profiles.default.delegation_policy.mode': <bad>";
    editResult = { ok: false, diagnostics: [diag] };
    const refused = await post(url, { mode: 'forbidden' });
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toEqual({ error: diag, diagnostics: [diag] });
  });
});
