// Seeds sessions and long histories straight into Redis (the shapes the settle step writes) for the dashboard
// tests and the bench: N indexed sessions, or one session of N messages with delegate calls among them.
import type { Redis } from 'ioredis';
import type { KeySpace } from '../../src/core/key-layout.ts';
import { historyKeys } from '../../src/session/history-store.ts';
import { sessionIndexKey, sessionIndexMember } from '../../src/session/session-index.ts';

export async function seedSessions(
  redis: Redis,
  space: KeySpace,
  n: number,
  messagesEach = 2,
): Promise<void> {
  const now = Date.now();
  for (let start = 0; start < n; start += 500) {
    // One pipeline per batch: fine on one Redis (the dashboard tests and the bench), not meant for a Cluster.
    const pipe = redis.pipeline();
    for (let i = start; i < Math.min(n, start + 500); i++) {
      const conv = `local.test:chat-${i}:`;
      const agent = i % 2 ? 'main' : 'helper';
      pipe.zadd(sessionIndexKey(space, conv), now - i * 1000, sessionIndexMember(agent, conv));
      const list = historyKeys(space, agent, conv)[0];
      for (let k = 0; k < messagesEach; k++)
        pipe.rpush(
          list,
          JSON.stringify({ role: k % 2 ? 'assistant' : 'user', content: `message ${k} of chat ${i}` }),
        );
    }
    await pipe.exec();
  }
}

/** `n` messages: user / assistant pairs, every 10th turn a delegate call with its envelope result. */
export function longHistory(n: number): string[] {
  const out: string[] = [];
  for (let i = 0; out.length < n; i++) {
    out.push(JSON.stringify({ role: 'user', content: `question **${i}**` }));
    if (i % 10 === 5) {
      const id = `call_${i}`;
      out.push(
        JSON.stringify({
          role: 'assistant',
          content: '',
          toolCalls: [{ id, name: 'delegate', arguments: { agent: 'helper', prompt: `task ${i}` } }],
        }),
      );
      out.push(
        JSON.stringify({
          role: 'tool',
          toolCallId: id,
          toolName: 'delegate',
          content: `[Agent 'helper' (custom/helper-model)]\nanswer ${i}`,
        }),
      );
    }
    out.push(JSON.stringify({ role: 'assistant', content: `answer ${i}` }));
  }
  return out.slice(0, n);
}

export async function seedHistory(
  redis: Redis,
  space: KeySpace,
  agent: string,
  sessionKey: string,
  entries: readonly string[],
): Promise<void> {
  const list = historyKeys(space, agent, sessionKey)[0];
  for (let i = 0; i < entries.length; i += 1000) await redis.rpush(list, ...entries.slice(i, i + 1000));
  await redis.zadd(sessionIndexKey(space, sessionKey), Date.now(), sessionIndexMember(agent, sessionKey));
}
