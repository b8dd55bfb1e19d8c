// A message to a conversation its worker left idle: the gateway sends the drain job right behind the ingest,
// on the same connection, so Redis stores the event before the job exists, and no second kick follows.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { conversationId } from '../../../src/channel-host/types.ts';
import { conversationJobId } from '../../../src/queue/conversation-inbox.ts';
import { createIdleHints, type IdleHints } from '../../../src/queue/idle-hints.ts';
import { type ReplyGateProxy, startReplyGateProxy } from '../../helpers/reply-gate-proxy.ts';
import {
  createRuntimeHarness,
  echoResponder,
  type RuntimeHarness,
  runtimeToml,
} from '../../helpers/runtime-harness.ts';
import { waitFor } from '../../helpers/wait.ts';

const noted: string[] = [];
const inner = createIdleHints();
const hints: IdleHints = {
  noteIdle(conversation) {
    inner.noteIdle(conversation);
    noted.push(conversation);
  },
  takeIdle: (conversation) => inner.takeIdle(conversation),
};

let h: RuntimeHarness;
let proxy: ReplyGateProxy;
beforeAll(async () => {
  proxy = await startReplyGateProxy();
  h = await createRuntimeHarness('idle-kick', runtimeToml(''), { idleHints: hints, redisUrl: proxy.url });
  h.server.respond(echoResponder());
});
afterAll(async () => {
  await h.close();
  await proxy.close();
});

/** `duplicated` events of the turns queue for a job id (a kick that met the job already there). */
async function duplicatedEvents(jobId: string): Promise<number> {
  const events = await h.redis.xrange(`{${h.prefix}:p0}:turns:events`, '-', '+');
  return events.filter(([, f]) => f[1] === 'duplicated' && f.includes(jobId)).length;
}

describe('the early kick of an idle conversation', () => {
  it('stores the event, then adds its drain job, from one connection, and answers', async () => {
    const conversation = conversationId('local.test', 'idle');
    await h.local.inject({ chat: 'idle', text: 'one' });
    await h.local.waitForReplies(1, { chat: 'idle' });
    await waitFor(() => noted.includes(conversation), 5000, 'the worker to note the conversation idle');

    // Redis's replies held: the drain job's add reaches Redis before the ingest's reply could reach the gateway.
    proxy.hold();
    const accepted = h.local.inject({ chat: 'idle', text: 'two' });
    const wait = `{${h.prefix}:p0}:turns:wait`;
    const add = `$${wait.length}\r\n${wait}\r\n$${wait.length + 2}\r\n{${h.prefix}:p0}:turns:paused\r\n`; // BullMQ's add: KEYS wait, paused
    try {
      await waitFor(() => proxy.sentSinceHold().includes(add), 5000, 'the add while the replies are held');
      expect(proxy.sentSinceHold().indexOf(add)).toBeGreaterThan(proxy.sentSinceHold().indexOf('"two"'));
    } finally {
      proxy.release();
    }
    expect(await accepted).toMatchObject({ accepted: true });
    await h.local.waitForReplies(2, { chat: 'idle' });
    expect(h.local.replies.filter((r) => r.to.chat === 'idle').map((r) => r.text)).toEqual([
      'echo: one',
      'echo: two',
    ]);
    // The host did not kick again: the job id saw one add (BullMQ drops a second as a duplicate, and says so).
    expect(await duplicatedEvents(conversationJobId(conversation))).toBe(0);
  });

  it('answers as before when the ingest script is no longer cached (the kick then ran first)', async () => {
    const conversation = conversationId('local.test', 'flushed');
    await h.local.inject({ chat: 'flushed', text: 'one' });
    await h.local.waitForReplies(1, { chat: 'flushed' });
    await waitFor(() => noted.includes(conversation), 5000, 'the worker to note the conversation idle');
    await h.redis.script('FLUSH');
    await h.local.inject({ chat: 'flushed', text: 'two' });
    const replies = await h.local.waitForReplies(2, { chat: 'flushed', timeoutMs: 5000 });
    expect(replies.map((r) => r.text)).toEqual(['echo: one', 'echo: two']);
  });
});
