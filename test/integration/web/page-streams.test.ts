// The dashboard's pushed pages over real HTTP (real Fastify with the real web auth, real Redis): each page's
// stream sends its fragment at once and again when a record it shows changes, coalesced, escaped and with known
// secrets redacted; without a signed-in session it answers 401; asked without text/event-stream it answers once.
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApprovalStore } from '../../../src/approval/approval-store.ts';
import { createSilentLogger } from '../../../src/core/logger.ts';
import { REDACTED } from '../../../src/core/redact.ts';
import { createDelegateTasks } from '../../../src/delegation/delegate-tasks.ts';
import { createAbortBus } from '../../../src/fleet/abort-bus.ts';
import { createRunningTurns } from '../../../src/fleet/running-turns.ts';
import { createRunEventLog } from '../../../src/live/run-event-log.ts';
import { createOpsDeps } from '../../../src/ops-api/ops-deps.ts';
import { createOpsServer } from '../../../src/ops-api/ops-server.ts';
import type { RunLineage } from '../../../src/run-contract/run-events.ts';
import { createHistoryStore } from '../../../src/session/history-store.ts';
import { registerWeb } from '../../../src/web/register-web.ts';
import { createSessionStore, type StoredSession } from '../../../src/web/session-store.ts';
import { transcriptUrl } from '../../../src/web/sessions/session-url.ts';
import { spaceOf } from '../../helpers/key-space.ts';
import { deletePrefix, REDIS_URL, testRedis, uniquePrefix } from '../../helpers/redis.ts';
import { readSse, type SseReader } from '../../helpers/sse.ts';
import { silentRunningTask } from '../../helpers/task-fixtures.ts';
import { loadTestConfig } from '../../helpers/test-config.ts';
import { webUsersToml } from '../../helpers/web-users.ts';
import { newApproval } from '../approval/helpers.ts';

const SECRET = 'sk-test-page-streams-8c1d4e';
const XSS = '<img src=x onerror="alert(1)">';
const prefix = uniquePrefix('page-streams');
const redis = testRedis();
const subscriber = testRedis();
const logger = createSilentLogger();
let app: FastifyInstance;
let base: string;
let alice: StoredSession;

beforeAll(async () => {
  const { config: loaded, load } = loadTestConfig(
    `
[redis]
url = "${REDIS_URL}"
prefix = "${prefix}"

[gateway]
api_token = "page-streams-token"

[providers.models.custom.fake]
uri = "http://127.0.0.1:9"
model = "fake"
api_key = "\${PAGE_STREAMS_KEY}"

[risk_profiles.default]

[agents.main]
model_provider = "custom.fake"
risk_profile = "default"
${webUsersToml(['alice'], ['alice'])}`,
    { env: { PAGE_STREAMS_KEY: SECRET } },
  );
  const config = { ...loaded, gateway: { ...loaded.gateway, port: 0 } };
  const abortBus = createAbortBus(redis, subscriber, prefix, logger);
  app = createOpsServer({ ...createOpsDeps({ config, redis, logger, load, abortBus }), web: registerWeb });
  app.addHook('onClose', () => abortBus.close());
  await app.listen({ host: '127.0.0.1', port: 0 });
  base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  alice = await createSessionStore(redis, prefix, logger).create('alice', 'user');
});
afterAll(async () => {
  await app.close();
  await deletePrefix(redis, prefix);
  redis.disconnect();
  subscriber.disconnect();
});

type Frame = { html: string; running?: string[] };
const frames = (sse: SseReader) => sse.frames.map((f) => JSON.parse(f.data) as Frame);
const last = (sse: SseReader) => frames(sse).at(-1);

async function stream(path: string, signedIn = true): Promise<Response> {
  return fetch(`${base}${path}`, {
    headers: {
      accept: 'text/event-stream',
      ...(signedIn ? { cookie: `baton_session=${alice.sessionId}` } : {}),
    },
  });
}

async function follow(path: string, test: (sse: SseReader) => Promise<void>): Promise<void> {
  const res = await stream(path);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
  const sse = readSse(res);
  try {
    await sse.until((f) => f.length >= 1);
    await test(sse);
  } finally {
    sse.close();
  }
}

describe('pushed dashboard pages', () => {
  it('answer 401 without a signed-in session, and once as JSON when not asked for a stream', async () => {
    for (const path of ['/ui/tasks/stream', '/ui/sessions/stream', `${transcriptUrl('main', 'x:y:')}/stream`])
      expect((await stream(path, false)).status).toBe(401);
    const once = await fetch(`${base}/ui/tasks/stream`, {
      headers: { cookie: `baton_session=${alice.sessionId}` },
    });
    expect(once.status).toBe(200);
    expect(((await once.json()) as Frame).html).toContain('class="muted"');
  });

  it('tasks: a new task, its progress and its end each push the fragment, escaped and redacted', async () => {
    const tasks = createDelegateTasks(redis, prefix, logger);
    const id = randomUUID();
    await follow('/ui/tasks/stream', async (sse) => {
      expect(last(sse)?.html).not.toContain(id);
      await tasks.admit(silentRunningTask(id, { parent_tool_call_id: `call_${XSS}` }));
      await sse.until(() => last(sse)?.html.includes(id) === true);
      expect(last(sse)?.html).toContain('data-status="running"');
      expect(last(sse)?.html).not.toContain('<img');
      expect(last(sse)?.html).toContain('call_&lt;img');
      await tasks.settle(id, 'completed', { output: `the key is ${SECRET}` });
      await sse.until(() => last(sse)?.html.includes('data-status="completed"') === true);
      expect(sse.frames.map((f) => f.data).join('')).not.toContain(SECRET);
      expect(last(sse)?.html).toContain(`the key is ${REDACTED}`);
    });
  });

  it('coalesces a burst of changes into a few frames', async () => {
    const tasks = createDelegateTasks(redis, prefix, logger);
    const id = randomUUID();
    await tasks.admit(silentRunningTask(id));
    await follow('/ui/tasks/stream', async (sse) => {
      const before = sse.frames.length;
      for (let i = 1; i <= 40; i++) await tasks.updateRunning(id, { progress: { iterations: i } });
      await sse.until(() => /data-field="iterations">40</.test(last(sse)?.html ?? ''));
      expect(sse.frames.length - before).toBeLessThanOrEqual(4);
    });
  });

  it('approvals: a new pending approval pushes its card', async () => {
    await follow('/ui/approvals/stream', async (sse) => {
      const store = createApprovalStore({ redis, prefix, logger });
      const rec = await store.createPendingApproval(newApproval({ args: { command: XSS } }));
      await sse.until(() => last(sse)?.html.includes(rec.approval_id) === true);
      expect(last(sse)?.html).not.toContain('<img');
    });
  });

  it('sessions list: a new session pushes the list', async () => {
    await follow('/ui/sessions/stream', async (sse) => {
      await createHistoryStore(redis, spaceOf(prefix), logger).append(
        'main',
        'local.test:fresh-chat:',
        't1',
        [{ role: 'user', content: 'hi' }],
      );
      await sse.until(() => last(sse)?.html.includes('fresh-chat') === true);
    });
  });

  it("session page: the turn's tree and its running state follow its events and its running mark", async () => {
    const session = 'local.test:tree-chat:';
    const root = randomUUID();
    const run = {
      runId: root,
      lineage: { kind: 'root', treeRootId: root, parentRunId: null, parentToolCallId: null } as RunLineage,
    };
    const events = createRunEventLog(redis, spaceOf(prefix), logger);
    const marks = createRunningTurns(redis, spaceOf(prefix), logger);
    await follow(`${transcriptUrl('main', session)}/stream`, async (sse) => {
      expect(last(sse)).toEqual({ html: expect.stringContaining('No turn'), running: [] });
      await marks.markRunning(session, 'local.test:e1', 'w1', root);
      events.emit(run, { type: 'run_started', kind: 'root', agent: 'main', session_key: session });
      events.emit(run, {
        type: 'tool_started',
        tool_call_id: 'c1',
        tool: 'shell',
        args_summary: `command: ${XSS}`,
      });
      await events.flush();
      await sse.until(() => last(sse)?.html.includes(`data-run="${root}"`) === true);
      await sse.until(() => last(sse)?.running?.[0] === session);
      expect(last(sse)?.html).toContain('data-state="running"');
      expect(last(sse)?.html).not.toContain('<img');
      expect(last(sse)?.html).toContain('command: &lt;img');
      events.emit(run, {
        type: 'tool_finished',
        tool_call_id: 'c1',
        tool: 'shell',
        success: true,
        duration_ms: 5,
      });
      events.emit(run, { type: 'run_finished', state: 'completed' });
      await events.flush();
      await marks.markDone(session, 'local.test:e1');
      await sse.until(
        () => last(sse)?.running?.length === 0 && last(sse)?.html.includes('data-state="completed"') === true,
      );
      expect(last(sse)?.html).toContain('data-state="succeeded"');
    });
  });
});
