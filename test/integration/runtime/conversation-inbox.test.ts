// The conversation inbox on real Redis: an unreadable head is dropped with a log line, not retried forever.
import { afterAll, describe, expect, it } from 'vitest';
import { createConversationInbox } from '../../../src/queue/conversation-inbox.ts';
import { capturingLogger } from '../../helpers/providers.ts';
import { deletePrefix, testRedis, uniquePrefix } from '../../helpers/redis.ts';

const redis = testRedis();
const prefix = uniquePrefix('inbox');
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
  it('drops unreadable events at the head and hands out the next readable one', async () => {
    const log = capturingLogger();
    const inbox = createConversationInbox(redis, prefix, log.logger);
    const conversation = 'local.test:c:';
    await redis.rpush(`${prefix}:inbox:${conversation}`, 'not json', '{"kind":"message"}');
    expect(await inbox.accept(conversation, event('e1', 'hello'))).toBe('queued');
    const head = await inbox.head(conversation);
    expect(head).toMatchObject({ eventId: 'e1', text: 'hello', seq: 1 });
    expect(log.lines.filter((l) => l.includes('unreadable inbox event dropped'))).toHaveLength(2);
    expect(await inbox.pending(conversation)).toBe(1);
  });

  it('leaves an inbox of only unreadable events empty and inactive', async () => {
    const inbox = createConversationInbox(redis, prefix, capturingLogger().logger);
    const conversation = 'local.test:d:';
    await redis.rpush(`${prefix}:inbox:${conversation}`, '[]');
    await redis.sadd(`${prefix}:inbox-active`, conversation);
    expect(await inbox.head(conversation)).toBeNull();
    expect(await inbox.pending(conversation)).toBe(0);
    expect(await inbox.activeConversations()).not.toContain(conversation);
  });
});
