// Poison records on the runtime (issue 8 item 6): a damaged inbox event or history entry never stops a
// conversation. The next message gets its answer, in order, and the user sees a short text, never a parser error.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MESSAGE_UNREADABLE, TURN_FAILED_INTERNAL } from '../../../src/channel-host/channel-messages.ts';
import { conversationId } from '../../../src/channel-host/types.ts';
import { createSilentLogger } from '../../../src/core/logger.ts';
import { createConversationInbox } from '../../../src/queue/conversation-inbox.ts';
import { inboxKeys } from '../../../src/queue/names.ts';
import { createTurnQueue, type TurnQueue } from '../../../src/queue/turn-queue.ts';
import { historyKeys } from '../../../src/session/history-store.ts';
import { REDIS_URL } from '../../helpers/redis.ts';
import {
  createRuntimeHarness,
  echoResponder,
  type RuntimeHarness,
  runtimeToml,
} from '../../helpers/runtime-harness.ts';

let h: RuntimeHarness;
let turns: TurnQueue;
beforeAll(async () => {
  h = await createRuntimeHarness('poison', runtimeToml());
  turns = createTurnQueue({ url: REDIS_URL }, h.space);
});
afterAll(async () => {
  await turns.close();
  await h.close();
});
beforeEach(() => {
  h.server.reset();
  h.local.replies.length = 0;
});

const event = (chat: string, eventId: string, text: string, agent = 'main') => ({
  kind: 'message' as const,
  channel: 'local.test',
  eventId,
  chat,
  sender: { id: 'u' },
  text,
  isDirect: true,
  addressedToBot: true,
  receivedAt: new Date().toISOString(),
  agent,
});

/** Accepts events through the real ingest script without a drain job, so the test can damage them first. */
async function ingest(chat: string, events: ReturnType<typeof event>[]): Promise<string> {
  const inbox = createConversationInbox(h.redis, h.space, createSilentLogger());
  const conversation = conversationId('local.test', chat);
  for (const e of events) await inbox.accept(conversation, e);
  return conversation;
}

const userTexts = (i: number) =>
  (h.server.requests[i]?.body.messages ?? []).filter((m) => m.role !== 'system');

describe('poison records on the runtime', () => {
  it('answers an unreadable inbox event in its place and delivers every later reply in order', async () => {
    h.server.respond(echoResponder());
    const chat = 'inbox';
    const conversation = await ingest(chat, [
      event(chat, 'p1', 'one'),
      event(chat, 'p2', 'two'),
      event(chat, 'p3', 'three'),
      event(chat, 'p4', 'four'),
    ]);
    const key = inboxKeys(h.space).inbox(conversation);
    // p1 keeps its sequence number but no longer matches the schema; p3 is not JSON any more.
    const stored = JSON.parse((await h.redis.lindex(key, 0))!) as Record<string, unknown>;
    expect(stored.seq).toBe(1);
    await h.redis.lset(key, 0, JSON.stringify({ ...stored, text: { not: 'a string' } }));
    await h.redis.lset(key, 2, (await h.redis.lindex(key, 2))!.slice(0, 20));
    await turns.kick(conversation, 'main');

    const replies = await h.local.waitForReplies(4, { chat });
    expect(replies.map((r) => r.text)).toEqual([
      MESSAGE_UNREADABLE,
      'echo: two',
      MESSAGE_UNREADABLE,
      'echo: four',
    ]);
    // The conversation goes on: a new message through the channel is answered after them.
    await h.local.inject({ chat, text: 'five' });
    expect((await h.local.waitForReplies(5, { chat })).at(-1)?.text).toBe('echo: five');
  });

  it('skips damaged history entries and their orphaned tool calls, and the session goes on', async () => {
    h.server.respond(echoResponder());
    const chat = 'history';
    const [list] = historyKeys(h.space, 'main', conversationId('local.test', chat));
    await h.redis.rpush(
      list,
      JSON.stringify({ role: 'user', content: 'earlier' }),
      'not json {',
      JSON.stringify({
        role: 'assistant',
        content: '',
        toolCalls: [{ id: 'c1', name: 'file_read', arguments: { path: 'a' } }],
      }),
      JSON.stringify({ role: 'tool', toolCallId: 'c1', toolName: 'file_read' }), // content missing
      JSON.stringify({ role: 'tool', toolCallId: 'zz', toolName: 'shell', content: 'orphan' }),
      JSON.stringify({ role: 'assistant', content: 'earlier answer' }),
      JSON.stringify({ role: 'moderator', content: 'unknown role' }),
    );
    await h.local.inject({ chat, text: 'next' });
    const [reply] = await h.local.waitForReplies(1, { chat });
    expect(reply?.text).toBe('echo: next');
    expect(userTexts(0)).toEqual([
      { role: 'user', content: 'earlier' },
      { role: 'assistant', content: 'earlier answer' },
      { role: 'user', content: 'next' },
    ]);
    // The turn's own history was appended behind the damaged entries, and the next turn reads it.
    await h.local.inject({ chat, text: 'again' });
    await h.local.waitForReplies(2, { chat });
    expect(userTexts(1).map((m) => m.content)).toEqual([
      'earlier',
      'earlier answer',
      'next',
      'echo: next',
      'again',
    ]);
  });

  it('ignores a stored model override that names no configured provider', async () => {
    h.server.respond(echoResponder());
    const chat = 'model';
    const session = conversationId('local.test', chat);
    await h.redis.set(`${h.prefix}:session-model:main:${session}`, 'constructor');
    await h.local.inject({ chat, text: 'hi' });
    expect((await h.local.waitForReplies(1, { chat }))[0]?.text).toBe('echo: hi');
  });

  it('tells the user a short text, not the internal error, when a turn fails inside baton', async () => {
    const chat = 'internal';
    // An event for an agent this config does not have: runTurn throws an internal error.
    const conversation = await ingest(chat, [event(chat, 'g1', 'hello', 'ghost')]);
    await turns.kick(conversation);
    const [reply] = await h.local.waitForReplies(1, { chat });
    expect(reply?.text).toBe(TURN_FAILED_INTERNAL);
    expect(reply?.text).not.toContain('ghost');
  });
});
