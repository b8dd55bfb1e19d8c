// The conversation inbox on real Redis: an unreadable head is dropped with a log line, not retried forever.
import { afterAll, describe, expect, it } from 'vitest';
import { runningTurnsKey } from '../../../src/fleet/running-turns.ts';
import { createConversationInbox, drainJobKey } from '../../../src/queue/conversation-inbox.ts';
import { inboxKeys } from '../../../src/queue/names.ts';
import { createTurnQueue } from '../../../src/queue/turn-queue.ts';
import { spaceOf } from '../../helpers/key-space.ts';
import { capturingLogger } from '../../helpers/providers.ts';
import { deletePrefix, REDIS_URL, testRedis, uniquePrefix } from '../../helpers/redis.ts';

const redis = testRedis();
const prefix = uniquePrefix('inbox');
// Four partitions: the conversations below sit in different ones, as on a Cluster.
const space = spaceOf(prefix, 4);
const keys = inboxKeys(space);
afterAll(async () => {
  await deletePrefix(redis, prefix);
  await redis.quit();
});

const event = (eventId: string, text: string) => ({
  kind: 'message' as const,
  channel: 'local.test',
  eventId,
  chat: 'c',
  sender: { id: 'u' },
  text,
  isDirect: true,
  addressedToBot: true,
  receivedAt: new Date().toISOString(),
  agent: 'main',
});

describe('conversation inbox', () => {
  it('an event into an empty inbox needs a kick, unless the drain job that emptied it still exists', async () => {
    const inbox = createConversationInbox(redis, space, capturingLogger().logger);
    const turns = createTurnQueue({ url: REDIS_URL }, space);
    try {
      const conversation = 'local.test:kick:';
      expect(await inbox.needsKick(conversation)).toBe('idle'); // nothing waits
      expect(await inbox.accept(conversation, event('k1', 'one'))).toBe('first');
      await turns.kick(conversation, 'main'); // its drain job, waiting: no worker runs here
      const head = await inbox.head(conversation);
      await inbox.settle(conversation, head!, {
        to: { channel: 'local.test', chat: 'kick' },
        text: 'ok',
        turnId: 'k1',
      });
      // The inbox is empty again, but the job is still there (finishing): its completion re-kicks.
      expect(await inbox.accept(conversation, event('k2', 'two'))).toBe('queued');
      await redis.del(drainJobKey(space, conversation));
      // The job is gone: its completion owes the kick, naming the head's agent; the mark is taken once.
      expect(await inbox.needsKick(conversation, true)).toEqual({ agent: 'main' });
      expect(await redis.exists(keys.kickOwed(conversation))).toBe(0);
      // Any other finish (a failed job, one that yielded) kicks whatever waits without a job.
      expect(await inbox.needsKick(conversation)).toEqual({ agent: 'main' });
      await redis.lpush(keys.inbox(conversation), 'not json');
      expect(await inbox.needsKick(conversation)).toEqual({ agent: undefined });
    } finally {
      await turns.close();
    }
  });

  it('a job that drained its inbox leaves an event accepted as first to the gateway kick', async () => {
    const inbox = createConversationInbox(redis, space, capturingLogger().logger);
    const conversation = 'local.test:owed:';
    // Accepted after the job that drained the inbox was removed: `first`, the gateway kicks, no mark.
    expect(await inbox.accept(conversation, event('o1', 'one'))).toBe('first');
    expect(await redis.exists(keys.kickOwed(conversation))).toBe(0);
    expect(await inbox.needsKick(conversation, true)).toBeNull();
    expect(await inbox.needsKick(conversation)).toEqual({ agent: 'main' });
  });

  it('an event accepted while the drain job finishes marks the kick owed until that job takes it', async () => {
    const inbox = createConversationInbox(redis, space, capturingLogger().logger);
    const turns = createTurnQueue({ url: REDIS_URL }, space);
    try {
      const conversation = 'local.test:owed2:';
      await turns.kick(conversation, 'main');
      expect(await inbox.accept(conversation, event('p1', 'one'))).toBe('queued');
      expect(await redis.ttl(keys.kickOwed(conversation))).toBeGreaterThan(0);
      // The job still exists: it reaches the event itself, and the mark is spent either way.
      expect(await inbox.needsKick(conversation, true)).toBeNull();
      expect(await redis.exists(keys.kickOwed(conversation))).toBe(0);
    } finally {
      await turns.close();
    }
  });

  it('drops unreadable events at the head and hands out the next readable one', async () => {
    const log = capturingLogger();
    const inbox = createConversationInbox(redis, space, log.logger);
    const conversation = 'local.test:c:';
    await redis.rpush(keys.inbox(conversation), 'not json', '{"kind":"message"}');
    expect(await inbox.accept(conversation, event('e1', 'hello'))).toBe('queued');
    const head = await inbox.head(conversation);
    expect(head).toMatchObject({ eventId: 'e1', text: 'hello', seq: 1 });
    expect(log.lines.filter((l) => l.includes('unreadable inbox event dropped'))).toHaveLength(2);
    expect(await inbox.pending(conversation)).toBe(1);
  });

  it('leaves an inbox of only unreadable events empty and inactive', async () => {
    const inbox = createConversationInbox(redis, space, capturingLogger().logger);
    const conversation = 'local.test:d:';
    await redis.rpush(keys.inbox(conversation), '[]');
    await redis.sadd(keys.active(conversation), conversation);
    expect(await inbox.head(conversation)).toBeNull();
    expect(await inbox.pending(conversation)).toBe(0);
    expect(await inbox.activeConversations()).not.toContain(conversation);
  });

  it('stores an event the Lua JSON codec could not read, and numbers the next one without a gap', async () => {
    const inbox = createConversationInbox(redis, space, capturingLogger().logger);
    const conversation = 'local.test:s:';
    // JSON.stringify writes a lone surrogate as \ud800, which Lua's cjson refuses (the host makes text
    // well-formed first; the inbox must not depend on it).
    expect(await inbox.accept(conversation, event('s1', 'bad \ud800'))).toBe('first');
    expect(await inbox.accept(conversation, event('s2', 'next'))).toBe('queued');
    expect(await inbox.accept(conversation, event('s1', 'bad \ud800'))).toBe('duplicate');
    const stored = await redis.lrange(keys.inbox(conversation), 0, -1);
    expect(stored.map((raw) => JSON.parse(raw) as { eventId: string; seq: number })).toMatchObject([
      { eventId: 's1', seq: 1, text: 'bad \ud800' },
      { eventId: 's2', seq: 2 },
    ]);
    // Settling it removes it (the settle script matched heads by decoding them with cjson).
    const head = await inbox.head(conversation);
    if (!head) throw new Error('no head');
    const to = { channel: 'local.test', chat: 's' };
    const next = await inbox.settle(conversation, head, { to, text: 'ok', turnId: 'local.test:s1' });
    expect(next).toMatchObject({ eventId: 's2', seq: 2 });
  });

  it('a settle that begins the next turn marks its head running and reads its history', async () => {
    const inbox = createConversationInbox(redis, space, capturingLogger().logger);
    const conversation = 'local.test:b:';
    const to = { channel: 'local.test', chat: 'b' };
    await inbox.accept(conversation, event('b1', 'one'));
    await inbox.accept(conversation, event('b2', 'two'));
    await inbox.accept(conversation, { ...event('b3', 'three'), agent: 'other' });
    const next = { runId: 'run-2', workerId: 'w-1', agent: 'main', historyLimit: 1 };
    const first = (await inbox.head(conversation))!;
    const messages = [
      { role: 'user' as const, content: 'one' },
      { role: 'assistant' as const, content: 'ok one' },
    ];
    const history = { agent: 'main', sessionKey: conversation, messages };
    const a = await inbox.settleAndBegin(
      conversation,
      first,
      { to, text: 'a', turnId: 'local.test:b1', history },
      next,
    );
    expect(a.next).toMatchObject({ eventId: 'b2' });
    // The window starts at a user message: the one entry read (the assistant's) leaves none.
    expect(a.begun).toEqual({ turnId: 'local.test:b2', history: [] });
    expect(a.left).toBe(2);
    const mark = JSON.parse((await redis.hget(runningTurnsKey(space, conversation), conversation))!);
    expect(mark).toEqual({ runId: 'local.test:b2', workerId: 'w-1', rootRunId: 'run-2' });
    // The next head is another agent's: marked, its history left to the turn.
    const b = await inbox.settleAndBegin(
      conversation,
      a.next!,
      { to, text: 'b', turnId: 'local.test:b2' },
      {
        ...next,
        runId: 'run-3',
        historyLimit: 50,
      },
    );
    expect(b.next).toMatchObject({ eventId: 'b3', agent: 'other' });
    expect(b.begun).toEqual({ turnId: 'local.test:b3' });
    // The last: nothing to begin, and the settle clears the mark it set for this turn.
    const c = await inbox.settleAndBegin(
      conversation,
      b.next!,
      { to, text: 'c', turnId: 'local.test:b3' },
      next,
    );
    expect(c).toEqual({ next: null, left: 0 });
    expect(await redis.hget(runningTurnsKey(space, conversation), conversation)).toBeNull();
  });

  it('a drain job begins with the head, its running mark and its history in one script', async () => {
    const inbox = createConversationInbox(redis, space, capturingLogger().logger);
    const conversation = 'local.test:d:';
    const next = { runId: 'run-1', workerId: 'w-1', agent: 'main', historyLimit: 50 };
    expect(await inbox.begin(conversation, next)).toEqual({ next: null, left: 0 });
    await inbox.accept(conversation, event('d1', 'one'));
    const res = await inbox.begin(conversation, next);
    expect(res.next).toMatchObject({ eventId: 'd1', seq: 1 });
    expect(res.begun).toEqual({ turnId: 'local.test:d1', history: [] });
    expect(res.left).toBe(1);
    const mark = JSON.parse((await redis.hget(runningTurnsKey(space, conversation), conversation))!);
    expect(mark).toEqual({ runId: 'local.test:d1', workerId: 'w-1', rootRunId: 'run-1' });
    // Another agent's job: marked all the same, the history left to the turn.
    expect((await inbox.begin(conversation, { ...next, agent: 'other' })).begun).toEqual({
      turnId: 'local.test:d1',
    });
  });

  it('refuses an event on a damaged inbox key before numbering it', async () => {
    const inbox = createConversationInbox(redis, space, capturingLogger().logger);
    const conversation = 'local.test:w:';
    await redis.set(keys.inbox(conversation), 'not a list');
    await expect(inbox.accept(conversation, event('w1', 'x'))).rejects.toThrow(/wrong types/);
    expect(await redis.get(keys.seq(conversation))).toBeNull();
    expect(await redis.exists(keys.dedupe(conversation, 'local.test', 'w1'))).toBe(0);
  });
});
