// Chat commands on the runtime: /status and /stop answer while a turn runs, /new drops the history, authz first.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  NEW_SESSION_STARTED,
  STOP_NOTHING_RUNNING,
  STOP_REQUESTED,
  TURN_ABORTED,
} from '../../../src/channel-host/channel-messages.ts';
import { conversationId } from '../../../src/channel-host/types.ts';
import { createTaskRecords, type TaskRecord } from '../../../src/delegation/task-records.ts';
import { runningTurnsKey } from '../../../src/fleet/running-turns.ts';
import {
  createRuntimeHarness,
  echoResponder,
  type RuntimeHarness,
  runtimeToml,
} from '../../helpers/runtime-harness.ts';
import { waitFor } from '../../helpers/wait.ts';

// Only alice may talk to the agent on the local channel.
const TOML = runtimeToml('', ['alice']);

/** Longer than any test's timeout: a reply that waited for this turn would fail the test. */
const SLOW_MS = 120_000;

let h: RuntimeHarness;
beforeAll(async () => {
  h = await createRuntimeHarness('chat-commands', TOML);
});
afterAll(() => h.close());
beforeEach(() => {
  h.server.reset();
  h.local.replies.length = 0;
  h.server.respond(echoResponder((t) => (t === 'slow' ? SLOW_MS : 0)));
});

const say = (chat: string, text: string, senderId = 'alice') => h.local.inject({ chat, text, senderId });
const texts = (chat: string) => h.local.replies.filter((r) => r.to.chat === chat).map((r) => r.text);
/** The running mark is what /status and /stop read: wait for it rather than for time. */
async function startSlowTurn(chat: string) {
  await say(chat, 'slow');
  const conv = conversationId('local.test', chat);
  const key = runningTurnsKey(h.space, conv);
  await waitFor(async () => (await h.redis.hexists(key, conv)) === 1, 10_000, 'the turn running');
}
type ModelBody = { messages?: Array<{ role: string; content: unknown }> };
/** What the model was shown on request `i`, system prompt left out. */
function userTexts(i: number): string[] {
  const body = h.server.requests[i]?.body as ModelBody | undefined;
  return (body?.messages ?? []).filter((m) => m.role !== 'system').map((m) => String(m.content));
}

describe('chat commands', () => {
  it('/status answers while a slow turn runs, and /stop aborts that turn without waiting for it', async () => {
    await startSlowTurn('s1');
    expect(await say('s1', '/status')).toMatchObject({ accepted: true });
    const [status] = await h.local.waitForReplies(1, { chat: 's1', timeoutMs: 10_000 });
    expect(status?.text).toContain('Agent: main');
    expect(status?.text).toContain('Model: custom.fake (fake-model)');
    expect(status?.text).toContain('Turn: running');
    expect(status?.text).toContain('Background tasks: none');

    await say('s1', '/stop');
    await h.local.waitForReplies(3, { chat: 's1', timeoutMs: 10_000 });
    expect(texts('s1').slice(1).sort()).toEqual([STOP_REQUESTED, TURN_ABORTED].sort());

    // Idle again: /stop has nothing to stop and /status says so.
    await waitFor(
      async () =>
        (await h.redis.hexists(
          runningTurnsKey(h.space, conversationId('local.test', 's1')),
          conversationId('local.test', 's1'),
        )) === 0,
      10_000,
      'mark cleared',
    );
    await say('s1', '/stop');
    await say('s1', '/status');
    await h.local.waitForReplies(5, { chat: 's1', timeoutMs: 10_000 });
    expect(texts('s1')[3]).toBe(STOP_NOTHING_RUNNING);
    expect(texts('s1')[4]).toContain('Turn: idle');
  });

  it('/new: the next model request carries no earlier history (and before it, history is sent)', async () => {
    await say('n1', 'first');
    await say('n1', 'second');
    await h.local.waitForReplies(2, { chat: 'n1', timeoutMs: 10_000 });
    expect(userTexts(1)).toEqual(['first', 'echo: first', 'second']);

    await say('n1', '/new');
    await say('n1', 'third');
    await h.local.waitForReplies(4, { chat: 'n1', timeoutMs: 10_000 });
    expect(texts('n1').slice(2)).toEqual([NEW_SESSION_STARTED, 'echo: third']);
    expect(h.server.requests).toHaveLength(3); // /new itself asks the model nothing
    expect(userTexts(2)).toEqual(['third']);
  });

  it("/status lists the sender's running background tasks in this channel, not others'", async () => {
    const records = createTaskRecords(h.redis, h.prefix);
    const task = (id: string, sender: string, status: TaskRecord['status']): TaskRecord => ({
      task_id: id,
      kind: 'delegate',
      agent: 'researcher',
      chain: ['main'],
      mode: 'independent',
      status,
      output: null,
      error: null,
      depth: 1,
      sender,
      owner: null,
      heartbeat_at: null,
      progress: null,
      timeout_budget_secs: null,
      parent_tool_call_id: null,
      started_at: new Date(Date.now() - 5000).toISOString(),
      finished_at: null,
    });
    await records.create(task('00000000-0000-4000-8000-000000000001', 'local.test:alice', 'running'));
    await records.create(task('00000000-0000-4000-8000-000000000002', 'local.test:bob', 'running'));
    await records.create(task('00000000-0000-4000-8000-000000000003', 'local.test:alice', 'completed'));
    await say('t1', '/status');
    const [status] = await h.local.waitForReplies(1, { chat: 't1', timeoutMs: 10_000 });
    expect(status?.text).toMatch(/^Background tasks: 1 running \(researcher, \d+s\)$/m);
  });

  it("an unauthorised sender's commands do nothing", async () => {
    await startSlowTurn('u1');
    for (const cmd of ['/stop', '/status', '/new']) {
      expect(await say('u1', cmd, 'mallory')).toMatchObject({ accepted: false, reason: 'unauthorised' });
    }
    // Alice's /status is answered after mallory's commands: had they produced replies, they would be here too.
    await say('u1', '/status');
    await h.local.waitForReplies(1, { chat: 'u1', timeoutMs: 10_000 });
    expect(texts('u1')).toHaveLength(1);
    expect(texts('u1')[0]).toContain('Turn: running');
    await say('u1', '/stop');
    await h.local.waitForReplies(3, { chat: 'u1', timeoutMs: 10_000 });
    expect(texts('u1')).toContain(TURN_ABORTED);
  });
});
