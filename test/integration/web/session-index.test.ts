// The session index on real Redis: written when a conversation's first message is accepted and with the history
// (settle and append), most recent first, expired out.
import { afterAll, describe, expect, it } from 'vitest';
import { createSilentLogger } from '../../../src/core/logger.ts';
import { createConversationInbox } from '../../../src/queue/conversation-inbox.ts';
import { createHistoryStore } from '../../../src/session/history-store.ts';
import {
  readSessionIndex,
  sessionIndexKey,
  sessionIndexMember,
  sessionLastActivity,
  sessionsNewestFirst,
} from '../../../src/session/session-index.ts';
import { readVisibleSessions } from '../../../src/web/sessions/visible-sessions.ts';
import { spaceOf } from '../../helpers/key-space.ts';
import { deletePrefix, testRedis, uniquePrefix } from '../../helpers/redis.ts';
import { seedSessions } from '../../helpers/transcript-seed.ts';

const redis = testRedis();
const prefix = uniquePrefix('session-index');
afterAll(async () => {
  await deletePrefix(redis, prefix);
  await redis.quit();
});

const event = (eventId: string) => ({
  kind: 'message' as const,
  channel: 'local.test',
  eventId,
  chat: 'c',
  sender: { id: 'u' },
  text: 'hi',
  isDirect: true,
  addressedToBot: true,
  receivedAt: new Date().toISOString(),
  agent: 'main',
});

describe('session index', () => {
  it('is written by the settle step with the history, once per turn, and only when history is written', async () => {
    const inbox = createConversationInbox(redis, spaceOf(prefix), createSilentLogger());
    const conv = 'local.test:c:';
    await inbox.accept(conv, event('e1'));
    const head = (await inbox.head(conv))!;
    const before = Date.now();
    const messages = [
      { role: 'user' as const, content: 'hi' },
      { role: 'assistant' as const, content: 'hello' },
    ];
    await inbox.settle(conv, head, {
      to: { channel: 'local.test', chat: 'c' },
      text: 'hello',
      turnId: 't1',
      history: { agent: 'main', sessionKey: conv, messages },
    });
    const at = await sessionLastActivity(redis, spaceOf(prefix), 'main', conv);
    expect(at).not.toBeNull();
    expect(at!).toBeGreaterThanOrEqual(before - 1000);
    expect(at!).toBeLessThanOrEqual(Date.now() + 1000);
    // A failed turn (no history) adds no second entry.
    await inbox.accept(conv, event('e2'));
    await inbox.settle(conv, (await inbox.head(conv))!, {
      to: { channel: 'local.test', chat: 'c' },
      text: 'failed',
      turnId: 't2',
    });
    expect(await redis.zcard(sessionIndexKey(spaceOf(prefix), conv))).toBe(1);
  });

  it('lists a conversation from its first accepted message, so one whose turn fails is listed (issue 21 #13)', async () => {
    const inbox = createConversationInbox(redis, spaceOf(prefix), createSilentLogger());
    const conv = 'local.test:failed:';
    const before = Date.now();
    expect(await inbox.accept(conv, event('f1'))).toBe('first');
    const listed = await readSessionIndex(redis, spaceOf(prefix), 0, 10);
    expect(listed.sessions.filter((s) => s.sessionKey === conv).map((s) => s.agent)).toEqual(['main']);
    // The turn fails: no history, and the conversation stays listed.
    await inbox.settle(conv, (await inbox.head(conv))!, {
      to: { channel: 'local.test', chat: 'failed' },
      text: '⚠️ No model is reachable.',
      turnId: 'f1-turn',
    });
    const at = await sessionLastActivity(redis, spaceOf(prefix), 'main', conv);
    expect(at).not.toBeNull();
    expect(at!).toBeGreaterThanOrEqual(before - 1000);
    // A platform redelivery of the same event is no new activity.
    await redis.zadd(sessionIndexKey(spaceOf(prefix), conv), 5, sessionIndexMember('main', conv));
    expect(await inbox.accept(conv, event('f1'))).toBe('duplicate');
    expect(await sessionLastActivity(redis, spaceOf(prefix), 'main', conv)).toBe(5);
    await redis.zrem(sessionIndexKey(spaceOf(prefix), conv), sessionIndexMember('main', conv));
  });

  it('is written by HistoryStore.append, pages most recent first, and drops sessions older than the history ttl', async () => {
    const store = createHistoryStore(redis, spaceOf(prefix), createSilentLogger());
    await redis.zadd(sessionIndexKey(spaceOf(prefix), 'gone'), 1000, sessionIndexMember('old', 'gone'));
    await store.append('cli', 's1', 'turn-a', [{ role: 'user', content: 'x' }]);
    await store.append('cli', 's2', 'turn-b', [{ role: 'user', content: 'y' }]);
    const page = await readSessionIndex(redis, spaceOf(prefix), 0, 2);
    expect(page.total).toBe(3); // local.test:c:, s1, s2 (the 1970 entry expired)
    expect(page.sessions.map((s) => s.sessionKey)).toHaveLength(2);
    expect(page.sessions[0]!.lastActivityMs).toBeGreaterThanOrEqual(page.sessions[1]!.lastActivityMs);
    const all = await readSessionIndex(redis, spaceOf(prefix), 0, 10);
    expect(all.sessions.map((s) => `${s.agent}/${s.sessionKey}`).sort()).toEqual(
      ['cli/s1', 'cli/s2', 'main/local.test:c:'].sort(),
    );
  });

  it('merges the partitions: pages most recent first over four indexes, and the visible list reads them in order', async () => {
    const space = spaceOf(`${prefix}-parts`, 4);
    await seedSessions(redis, space, 30, 1);
    const convs = Array.from({ length: 30 }, (_, i) => `local.test:chat-${i}:`);
    // The seeded sessions sit in every partition's index.
    expect(new Set(convs.map((c) => sessionIndexKey(space, c))).size).toBe(4);
    const first = await readSessionIndex(redis, space, 0, 10);
    const second = await readSessionIndex(redis, space, 10, 10);
    expect(first.total).toBe(30);
    // seedSessions makes chat-i the i-th most recent.
    expect([...first.sessions, ...second.sessions].map((s) => s.sessionKey)).toEqual(convs.slice(0, 20));
    const seen: string[] = [];
    for await (const s of sessionsNewestFirst(redis, space, 4)) seen.push(s.sessionKey);
    expect(seen).toEqual(convs);
    const mine = await readVisibleSessions(redis, space, 0, (agent) => agent === 'main');
    expect(mine.total).toBe(15);
    expect(mine.rows.map((r) => r.sessionKey)).toEqual(convs.filter((_, i) => i % 2 === 1));
    await deletePrefix(redis, space.prefix);
  });
});
