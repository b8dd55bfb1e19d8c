// live.md §6 "pushed, not polled": every write the dashboard shows publishes `<topic>\n<subject>` on the one
// changes channel, in the same script or MULTI as the write (tasks, approvals, running marks, histories, settles).
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createApprovalStore } from '../../../src/approval/approval-store.ts';
import { type DashboardChange, dashboardChannel, parseChange } from '../../../src/core/dashboard-changes.ts';
import { createSilentLogger } from '../../../src/core/logger.ts';
import { createDelegateTasks } from '../../../src/delegation/delegate-tasks.ts';
import { createRunningTurns, runningTurnsKey } from '../../../src/fleet/running-turns.ts';
import { createConversationInbox } from '../../../src/queue/conversation-inbox.ts';
import { createHistoryStore, historyKeys } from '../../../src/session/history-store.ts';
import { spaceOf } from '../../helpers/key-space.ts';
import { deletePrefix, testRedis, uniquePrefix } from '../../helpers/redis.ts';
import { silentRunningTask } from '../../helpers/task-fixtures.ts';
import { newApproval } from '../approval/helpers.ts';

const redis = testRedis();
const sub = testRedis();
const prefix = uniquePrefix('dash-changes');
const logger = createSilentLogger();
let seen: DashboardChange[] = [];
beforeAll(async () => {
  sub.on('message', (_c: string, m: string) => {
    const change = parseChange(m);
    if (change) seen.push(change);
  });
  await sub.subscribe(dashboardChannel(prefix));
});
beforeEach(() => {
  seen = [];
});
afterAll(async () => {
  await deletePrefix(redis, prefix);
  redis.disconnect();
  sub.disconnect();
});

const count = (topic: string, subject: string) =>
  seen.filter((c) => c.topic === topic && c.subject === subject).length;

/** Every message published before this call has arrived (pub/sub keeps one connection's order). */
async function drained(): Promise<void> {
  const marker = randomUUID();
  await redis.publish(dashboardChannel(prefix), `tasks\n${marker}`);
  await expect.poll(() => count('tasks', marker)).toBe(1);
}

/** How many changes of `subject` were published so far. */
async function changesOf(topic: string, subject: string): Promise<number> {
  await drained();
  return count(topic, subject);
}

describe('dashboard change messages', () => {
  it('a task admitted, its progress written, and its settle each announce the task', async () => {
    const tasks = createDelegateTasks(redis, prefix, logger);
    const id = randomUUID();
    expect(await tasks.admit(silentRunningTask(id))).toBe(true);
    expect(await changesOf('tasks', id)).toBe(1);
    expect(await tasks.updateRunning(id, { progress: { iterations: 1 } })).toBe(true);
    expect(await changesOf('tasks', id)).toBe(2);
    expect(await tasks.settle(id, 'completed', { output: 'ok' })).toBe(true);
    expect(await changesOf('tasks', id)).toBe(3);
    // A late write to a settled record changes nothing, so it announces nothing.
    expect(await tasks.updateRunning(id, { progress: { iterations: 2 } })).toBe(false);
    expect(await tasks.settle(id, 'failed', {})).toBe(false);
    expect((await tasks.get(id))?.progress).toEqual({ iterations: 1 });
    expect(await changesOf('tasks', id)).toBe(3);
  });

  it('an approval created and settled each announce it', async () => {
    const store = createApprovalStore({ redis, prefix, logger });
    const rec = await store.createPendingApproval(newApproval());
    expect(await changesOf('approvals', rec.approval_id)).toBe(1);
    expect((await store.cancel(rec.approval_id)).kind).toBe('ok');
    expect(await changesOf('approvals', rec.approval_id)).toBe(2);
  });

  it("a turn's running mark, its clearing, a history append, an accepted message and a turn's settle announce the session", async () => {
    const session = 'local.test:dash:';
    const turns = createRunningTurns(redis, spaceOf(prefix), logger);
    await turns.markRunning(session, 'local.test:e1', 'w1', randomUUID());
    expect(await changesOf('sessions', session)).toBe(1);
    await turns.markDone(session, 'another-turn'); // not its mark: nothing cleared, nothing said
    await turns.markDone(session, 'local.test:e1');
    expect(await changesOf('sessions', session)).toBe(2);
    expect(await redis.hexists(runningTurnsKey(spaceOf(prefix), session), session)).toBe(0);

    await createHistoryStore(redis, spaceOf(prefix), logger).append('main', session, 't1', [
      { role: 'user', content: 'hi' },
    ]);
    expect(await changesOf('sessions', session)).toBe(3);

    const inbox = createConversationInbox(redis, spaceOf(prefix), logger);
    await inbox.accept(session, {
      kind: 'message',
      channel: 'local.test',
      eventId: 'e2',
      chat: 'dash',
      sender: { id: 'u' },
      text: 'hello',
      isDirect: true,
      addressedToBot: true,
      receivedAt: new Date().toISOString(),
      agent: 'main',
    });
    expect(await changesOf('sessions', session)).toBe(4); // a new conversation is listed from its first message
    const head = await inbox.head(session);
    if (!head) throw new Error('no head');
    await inbox.settle(session, head, {
      to: { channel: 'local.test', chat: 'dash' },
      text: 'ok',
      turnId: 'local.test:e2',
      history: { agent: 'main', sessionKey: session, messages: [{ role: 'user', content: 'hello' }] },
    });
    expect(await changesOf('sessions', session)).toBe(5);
    expect(await redis.llen(historyKeys(spaceOf(prefix), 'main', session)[0])).toBe(2);
  });

  it('reads only its own topics: any other message is no change', () => {
    expect(parseChange('tasks\nabc')).toEqual({ topic: 'tasks', subject: 'abc' });
    expect(parseChange('sessions\nweb.a:c:\nx')).toEqual({ topic: 'sessions', subject: 'web.a:c:\nx' });
    expect(parseChange('cost\nx')).toBeNull();
    expect(parseChange('')).toBeNull();
  });
});
