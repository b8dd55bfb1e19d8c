// Inbound → turn → outbox through real queues: ordering per conversation, parallel conversations, dedupe.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { TURN_ABORTED } from '../../../src/channel-host/channel-messages.ts';
import { ChannelRateLimitError } from '../../../src/channel-host/types.ts';
import { createSilentLogger } from '../../../src/core/logger.ts';
import { createAbortBus } from '../../../src/fleet/abort-bus.ts';
import { createRunningTurns } from '../../../src/fleet/running-turns.ts';
import { createSessionAbort } from '../../../src/fleet/session-abort.ts';
import { testRedis } from '../../helpers/redis.ts';
import {
  createRuntimeHarness,
  echoResponder,
  type RuntimeHarness,
  runtimeToml,
} from '../../helpers/runtime-harness.ts';

const TOML = runtimeToml(`
[worker]
concurrency = 8

[peer_groups.only-alice]
channel = "local.other"
agents = ["main"]
external_peers = ["alice"]
`);

let h: RuntimeHarness;
beforeAll(async () => {
  h = await createRuntimeHarness('conversations', TOML);
});
afterAll(() => h.close());
beforeEach(() => {
  h.server.reset();
  h.local.replies.length = 0;
});

describe('conversations on the runtime', () => {
  it('answers one message with exactly one reply', async () => {
    h.server.respond(echoResponder());
    expect(await h.local.inject({ chat: 'c1', text: 'hello' })).toMatchObject({ accepted: true });
    const replies = await h.local.waitForReplies(1, { chat: 'c1' });
    expect(replies.map((r) => r.text)).toEqual(['echo: hello']);
  });

  it('keeps arrival order inside each conversation while conversations run in parallel', async () => {
    h.server.respond(echoResponder((t) => (t.endsWith('-0') ? 150 : 5)));
    const chats = ['p1', 'p2', 'p3', 'p4'];
    for (let i = 0; i < 5; i++) {
      for (const chat of chats) await h.local.inject({ chat, text: `${chat}-${i}` });
    }
    for (const chat of chats) {
      const replies = await h.local.waitForReplies(5, { chat, timeoutMs: 15_000 });
      expect(replies.map((r) => r.text)).toEqual([0, 1, 2, 3, 4].map((i) => `echo: ${chat}-${i}`));
    }
    expect(h.local.replies).toHaveLength(20);
  });

  it('a message that arrives while its conversation is busy waits for the running turn', async () => {
    h.server.respond(echoResponder((t) => (t === 'slow' ? 400 : 0)));
    await h.local.inject({ chat: 'busy', text: 'slow' });
    await h.server.waitForRequests(1);
    await h.local.inject({ chat: 'busy', text: 'next' });
    await h.local.inject({ chat: 'free', text: 'other chat' });
    // the other conversation is not held up by the busy one
    await h.local.waitForReplies(1, { chat: 'free' });
    expect(h.local.replies.filter((r) => r.to.chat === 'busy')).toHaveLength(0);
    const replies = await h.local.waitForReplies(2, { chat: 'busy' });
    expect(replies.map((r) => r.text)).toEqual(['echo: slow', 'echo: next']);
    // the second turn saw the first one in its history
    const lastBusy = h.server.requests.filter((r) => JSON.stringify(r.body).includes('next')).at(-1)!;
    expect(JSON.stringify(lastBusy.body.messages)).toContain('echo: slow');
  });

  it('drops a redelivered platform event', async () => {
    h.server.respond(echoResponder());
    expect(await h.local.inject({ chat: 'd', text: 'once', eventId: 'dup-1' })).toMatchObject({
      accepted: true,
    });
    expect(await h.local.inject({ chat: 'd', text: 'once', eventId: 'dup-1' })).toEqual({
      accepted: false,
      reason: 'duplicate',
    });
    await h.local.waitForReplies(1, { chat: 'd' });
    await h.local.inject({ chat: 'd', text: 'after' });
    const replies = await h.local.waitForReplies(2, { chat: 'd' });
    expect(replies.map((r) => r.text)).toEqual(['echo: once', 'echo: after']);
  });

  it('rejects an invalid event with a reason that names the field', async () => {
    const res = await h.local.inject({ chat: '', text: 'x' });
    expect(res).toMatchObject({ accepted: false, reason: 'invalid' });
    expect(res.accepted === false && res.detail).toMatch(/^chat: /);
  });

  it('chunks a long reply to the platform limit and keeps the chunks in order', async () => {
    const long = Array.from({ length: 30 }, (_, i) => `line ${i} ${'x'.repeat(200)}`).join('\n');
    h.server.script([{ text: long }]);
    await h.local.inject({ chat: 'long', text: 'big please' });
    const parts = (await h.local.waitForReplies(2, { chat: 'long' })).map((r) => r.text);
    expect(parts.every((p) => p.length <= h.local.maxMessageLength)).toBe(true);
    expect(parts.join('\n')).toBe(long);
  });

  it('waits out a platform retry_after and delivers once', async () => {
    h.server.respond(echoResponder());
    h.local.failNextSends(1, () => new ChannelRateLimitError(300));
    await h.local.inject({ chat: 'rl', text: 'limited' });
    const replies = await h.local.waitForReplies(1, { chat: 'rl' });
    expect(replies.map((r) => r.text)).toEqual(['echo: limited']);
  });

  it('tells the user when a turn fails, without provider details', async () => {
    h.server.script([{ status: 500, body: 'db password is hunter2' }]);
    await h.local.inject({ chat: 'err', text: 'break' });
    const [reply] = await h.local.waitForReplies(1, { chat: 'err' });
    expect(reply!.text).toMatch(/^⚠️ Sorry, I could not answer: All model providers\/models failed/);
    expect(reply!.text).not.toContain('hunter2');
  });

  it('marks the running turn of a conversation for the abort API, event after event, and clears it', async () => {
    h.server.respond(echoResponder((t) => (t === 'first' || t === 'second' ? 300 : 0)));
    const running = createRunningTurns(h.redis, h.space);
    const a = await h.local.inject({ chat: 'mark', text: 'first', eventId: 'mark-1' });
    await h.local.inject({ chat: 'mark', text: 'second', eventId: 'mark-2' });
    const conversation = a.accepted ? a.conversation : '';
    await h.server.waitForRequests(1);
    expect((await running.get(conversation))?.runId).toBe('local.test:mark-1');
    await h.local.waitForReplies(1, { chat: 'mark' });
    await h.server.waitForRequests(2);
    expect((await running.get(conversation))?.runId).toBe('local.test:mark-2');
    await h.local.waitForReplies(2, { chat: 'mark' });
    expect(await running.get(conversation)).toBeNull();
  });

  it('an abort reaches the turn that is running now, also when it waited behind another', async () => {
    h.server.respond(echoResponder((t) => (t === 'long one' ? 5000 : 0)));
    const subscriber = testRedis();
    const bus = createAbortBus(h.redis, subscriber, h.prefix, createSilentLogger());
    const abort = createSessionAbort(createRunningTurns(h.redis, h.space), bus);
    try {
      const a = await h.local.inject({ chat: 'ab', text: 'first', eventId: 'ab-1' });
      await h.local.inject({ chat: 'ab', text: 'long one', eventId: 'ab-2' });
      await h.local.inject({ chat: 'ab', text: 'quick', eventId: 'ab-3' });
      const conversation = a.accepted ? a.conversation : '';
      await h.server.waitForRequests(2);
      expect(await abort(conversation)).toEqual({ aborted: true, runId: 'local.test:ab-2' });
      const replies = await h.local.waitForReplies(3, { chat: 'ab', timeoutMs: 3000 });
      expect(replies.map((r) => r.text)).toEqual(['echo: first', TURN_ABORTED, 'echo: quick']);
    } finally {
      await bus.close();
      subscriber.disconnect();
    }
  });
});
