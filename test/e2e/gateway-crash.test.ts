// Fault tolerance of the outbox: a gateway process SIGKILLed mid-send; another gateway takes its replies
// over. Nothing is lost, each conversation keeps its order, and only a send cut off by the kill repeats.
import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { outboxStreamKeyOf } from '../../src/queue/names.ts';
import { createReplyOutbox } from '../../src/queue/reply-outbox.ts';
import { everyPartition, spaceOf } from '../helpers/key-space.ts';
import { deletePrefix, REDIS_URL, testRedis, uniquePrefix } from '../helpers/redis.ts';
import { waitFor } from '../helpers/wait.ts';

const CHATS = 10;
const PER_CHAT = 30;
const redis = testRedis();
const prefix = uniquePrefix('gateway-crash');
const chatKey = `${prefix}:fake-chat`;
const children: ChildProcess[] = [];

afterAll(async () => {
  for (const c of children) c.kill('SIGKILL');
  await deletePrefix(redis, prefix);
  await redis.quit();
});

function startGateway(): Promise<ChildProcess> {
  const child = spawn(process.execPath, [join(import.meta.dirname, 'fixtures', 'gateway-process.ts')], {
    env: { ...process.env, REDIS_URL, PREFIX: prefix, CHAT_KEY: chatKey, SEND_MS: '15' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(child);
  return new Promise((resolve, reject) => {
    child.on('exit', (code) => reject(new Error(`gateway exited early (${code})`)));
    child.stdout?.on('data', (d) => String(d).includes('ready') && resolve(child));
  });
}

const delivered = async () =>
  (await redis.lrange(chatKey, 0, -1)).map(
    (r) => JSON.parse(r) as { chat: string; text: string; pid: number },
  );

describe('a gateway killed mid-send', () => {
  it('loses no reply and keeps each conversation in order when another gateway takes over', async () => {
    const outbox = createReplyOutbox(redis, spaceOf(prefix));
    for (let i = 1; i <= PER_CHAT; i++) {
      for (let c = 0; c < CHATS; c++) {
        const chat = `chat-${c}`;
        await outbox.enqueue({ channel: 'local.test', chat }, { text: `m${i}` }, `${chat}-${i}`, {
          conversation: `local.test:${chat}:`,
          seq: i,
        });
      }
    }
    const a = await startGateway();
    await waitFor(async () => (await redis.llen(chatKey)) >= 100, 20_000, '100 sends');
    a.kill('SIGKILL');
    await new Promise((r) => a.once('exit', r));
    const b = await startGateway();
    await waitFor(
      async () => new Set((await delivered()).map((d) => `${d.chat}/${d.text}`)).size === CHATS * PER_CHAT,
      30_000,
      'every reply',
    );
    const got = await delivered();
    for (let c = 0; c < CHATS; c++) {
      const texts = got.filter((d) => d.chat === `chat-${c}`).map((d) => d.text);
      // A send the kill cut off before its acknowledgement is sent again, right after itself.
      const deduped = texts.filter((t, i) => t !== texts[i - 1]);
      expect(deduped).toEqual(Array.from({ length: PER_CHAT }, (_, i) => `m${i + 1}`));
      expect(texts.length - deduped.length).toBeLessThanOrEqual(1);
    }
    expect(new Set(got.map((d) => d.pid)).size).toBe(2);
    await waitFor(
      async () =>
        (await everyPartition(spaceOf(prefix), (n) =>
          redis.xlen(outboxStreamKeyOf(spaceOf(prefix), 'local.test', n)),
        )) === 0,
      5000,
      'an empty outbox',
    );
    b.kill('SIGTERM');
  }, 60_000);
});
