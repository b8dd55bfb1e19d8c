// The outbox stream and its pump on real Redis: order, idempotency, takeover after a crash, resumable
// chunks, giving up, lost consumer groups, unreadable entries, and shutdown that leaves replies queued.
import type { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createLocalChannel, type LocalChannel } from '../../../channels/local/local-adapter.ts';
import type { OutboxWriter } from '../../../src/channel-host/types.ts';
import { createMetricsStore } from '../../../src/fleet/metrics-store.ts';
import {
  OUTBOX_GROUP,
  outboxStreamKeyOf,
  partitionOfConversation,
  replySentKey,
} from '../../../src/queue/names.ts';
import { createReplyOutbox } from '../../../src/queue/reply-outbox.ts';
import { type ReplyPump, type ReplyPumpOptions, startReplyPump } from '../../../src/queue/reply-pump.ts';
import { everyPartition, spaceOf } from '../../helpers/key-space.ts';
import { capturingLogger } from '../../helpers/providers.ts';
import { deletePrefix, REDIS_URL, testRedis, uniquePrefix } from '../../helpers/redis.ts';

let redis: Redis;
let prefix: string;
let n = 0;
const pumps: ReplyPump[] = [];

beforeAll(() => {
  redis = testRedis();
});
afterEach(async () => {
  await Promise.all(pumps.splice(0).map((p) => p.close()));
});
afterAll(async () => {
  await deletePrefix(redis, prefix);
  await redis.quit();
});

/**
 * A fresh channel (own streams) per test, its outbox writer and a pump factory. With one partition (the default)
 * `stream` is the channel's only outbox stream; `queued` counts the entries of all its partitions' streams.
 */
function channel(maxLength = 4000, partitions = 1) {
  prefix ??= uniquePrefix('reply-pump');
  const space = spaceOf(prefix, partitions);
  const local = createLocalChannel(`pump${++n}`, maxLength);
  const outbox: OutboxWriter = createReplyOutbox(redis, space);
  const log = capturingLogger();
  const pump = (consumer: string, over: Partial<ReplyPumpOptions> = {}) => {
    const p = startReplyPump({
      adapter: local,
      redis,
      redisTarget: { url: REDIS_URL },
      space,
      logger: log.logger,
      consumer,
      minIntervalMs: 0,
      timings: { keepAliveMs: 100, minIdleMs: 400, maxAttempts: 3, backoffMs: 20 },
      ...over,
    });
    pumps.push(p);
    return p;
  };
  const send = (chat: string, text: string, key: string, seq?: number) =>
    outbox.enqueue(
      { channel: local.key, chat },
      { text },
      key,
      seq === undefined ? undefined : { conversation: `${local.key}:${chat}:`, seq },
    );
  const queued = () => everyPartition(space, (p) => redis.xlen(outboxStreamKeyOf(space, local.key, p)));
  return { local, send, pump, log, space, queued, stream: outboxStreamKeyOf(space, local.key, 0) };
}

const texts = (local: LocalChannel, chat: string) =>
  local.replies.filter((r) => r.to.chat === chat).map((r) => r.text);

describe('outbox stream and reply pump', () => {
  it('sends many conversations in parallel, each in order, and empties the stream', async () => {
    const c = channel();
    c.pump('g1');
    for (let i = 1; i <= 20; i++) {
      for (let k = 0; k < 15; k++) await c.send(`chat${k}`, `m${i}`, `k${k}-${i}`, i);
    }
    await c.local.waitForReplies(300, { timeoutMs: 10_000 });
    for (let k = 0; k < 15; k++) {
      expect(texts(c.local, `chat${k}`)).toEqual(Array.from({ length: 20 }, (_, i) => `m${i + 1}`));
    }
    await expect.poll(() => redis.xlen(c.stream)).toBe(0);
  });

  it('reads every partition of the channel: 15 conversations over 4 partitions, each in order, once', async () => {
    const c = channel(4000, 4);
    c.pump('g1');
    for (let i = 1; i <= 10; i++) {
      for (let k = 0; k < 15; k++) await c.send(`pchat${k}`, `m${i}`, `pk${k}-${i}`, i);
    }
    await c.local.waitForReplies(150, { timeoutMs: 10_000 });
    for (let k = 0; k < 15; k++) {
      expect(texts(c.local, `pchat${k}`)).toEqual(Array.from({ length: 10 }, (_, i) => `m${i + 1}`));
    }
    // The conversations really are spread: more than one partition's stream was used.
    const used = new Set(
      Array.from({ length: 15 }, (_, k) => replySentKey(c.space, `${c.local.key}:pchat${k}:`).slice(0, 30)),
    );
    expect(used.size).toBeGreaterThan(1);
    await expect.poll(() => c.queued()).toBe(0);
    expect(c.local.replies).toHaveLength(150);
  });

  it('queues a reply once per idempotency key', async () => {
    const c = channel();
    await c.send('a', 'once', 'same-key');
    await c.send('a', 'once', 'same-key');
    await c.send('a', 'then', 'other-key');
    c.pump('g1');
    await c.local.waitForReplies(2, { chat: 'a' });
    await new Promise((r) => setTimeout(r, 200));
    expect(texts(c.local, 'a')).toEqual(['once', 'then']);
  });

  it('holds a reply until the one before it in the conversation has left', async () => {
    const c = channel();
    c.pump('g1');
    await c.send('o', 'second', 'o-2', 2);
    await new Promise((r) => setTimeout(r, 300));
    expect(texts(c.local, 'o')).toEqual([]);
    await c.send('o', 'first', 'o-1', 1);
    await c.local.waitForReplies(2, { chat: 'o' });
    expect(texts(c.local, 'o')).toEqual(['first', 'second']);
  });

  it("takes over a crashed gateway's replies and sends only the chunks it had not sent", async () => {
    const c = channel(10);
    await redis.xgroup('CREATE', c.stream, OUTBOX_GROUP, '0', 'MKSTREAM');
    await c.send('x', 'aaaaaaaaa bbbbbbbbb ccccccccc', 'x-1', 1);
    await c.send('x', 'after', 'x-2', 2);
    // A gateway that read both entries, sent the first chunk of the first, and died.
    const read = (await redis.xreadgroup(
      'GROUP',
      OUTBOX_GROUP,
      'dead',
      'COUNT',
      10,
      'STREAMS',
      c.stream,
      '>',
    )) as [string, [string, string[]][]][];
    const firstId = read[0]![1][0]![0];
    await redis.set(`${c.stream}:progress:${firstId}`, 1);
    c.pump('g2');
    await c.local.waitForReplies(3, { chat: 'x', timeoutMs: 5000 });
    expect(texts(c.local, 'x')).toEqual(['bbbbbbbbb', 'ccccccccc', 'after']);
    await expect.poll(() => redis.xlen(c.stream)).toBe(0);
    expect(await redis.exists(`${c.stream}:progress:${firstId}`)).toBe(0);
  });

  it("takes a crashed gateway's replies back from every partition's stream, ids alike across streams", async () => {
    const c = channel(10, 4);
    const chats = Array.from({ length: 8 }, (_, k) => `px${k}`);
    const streams = [0, 1, 2, 3].map((n) => outboxStreamKeyOf(c.space, c.local.key, n));
    for (const s of streams) await redis.xgroup('CREATE', s, OUTBOX_GROUP, '0', 'MKSTREAM');
    // The same stream ids in every partition (1-0, 2-0, …): entries are told apart by their partition, not their id.
    const next = new Map<string, number>();
    for (const chat of chats) {
      const conv = `${c.local.key}:${chat}:`;
      const stream = outboxStreamKeyOf(c.space, c.local.key, partitionOfConversation(c.space, conv));
      for (const seq of [1, 2]) {
        const id = (next.get(stream) ?? 0) + 1;
        next.set(stream, id);
        const to = JSON.stringify({ channel: c.local.key, chat });
        await redis.xadd(
          stream,
          `${id}-0`,
          'to',
          to,
          'text',
          `${chat} r${seq}`,
          'conv',
          conv,
          'seq',
          String(seq),
        );
      }
    }
    expect(next.size).toBeGreaterThan(1);
    // A gateway that read everything and died without sending any of it.
    for (const s of streams)
      await redis.xreadgroup('GROUP', OUTBOX_GROUP, 'dead', 'COUNT', 100, 'STREAMS', s, '>');
    await new Promise((r) => setTimeout(r, 450));
    c.pump('g2');
    await c.local.waitForReplies(16, { timeoutMs: 5000 });
    for (const chat of chats) expect(texts(c.local, chat)).toEqual([`${chat} r1`, `${chat} r2`]);
    await expect.poll(() => c.queued()).toBe(0);
    expect(c.local.replies).toHaveLength(16);
  });

  it("takes a crashed gateway's whole backlog back in one pass, in order", async () => {
    const c = channel();
    await redis.xgroup('CREATE', c.stream, OUTBOX_GROUP, '0', 'MKSTREAM');
    for (let i = 1; i <= 300; i++) await c.send('bl', `r${i}`, `bl-${i}`, i);
    await redis.xreadgroup('GROUP', OUTBOX_GROUP, 'dead', 'COUNT', 300, 'STREAMS', c.stream, '>');
    await new Promise((r) => setTimeout(r, 250));
    // The first keep-alive tick (1.5 s) must bring back all 300, not one batch of them, before the second.
    c.pump('g2', { timings: { keepAliveMs: 1500, minIdleMs: 200, maxAttempts: 3, backoffMs: 20 } });
    const replies = await c.local.waitForReplies(300, { chat: 'bl', timeoutMs: 2900 });
    expect(replies.map((r) => r.text)).toEqual(Array.from({ length: 300 }, (_, i) => `r${i + 1}`));
  });

  it('keeps the replies a live gateway is still working on', async () => {
    const c = channel();
    c.local.failNextSends(1, () => new Error('platform hiccup'));
    // Keep-alive every 50 ms against a 600 ms idle limit: only a stalled process would lose the reply.
    c.pump('g1', { timings: { keepAliveMs: 50, minIdleMs: 600, maxAttempts: 2, backoffMs: 1200 } });
    await c.send('k', 'slow', 'k-1', 1);
    // While g1 waits out its backoff, a second gateway must not take the reply over.
    c.pump('g2', { timings: { keepAliveMs: 50, minIdleMs: 600, maxAttempts: 2, backoffMs: 1200 } });
    await c.local.waitForReplies(1, { chat: 'k', timeoutMs: 5000 });
    await new Promise((r) => setTimeout(r, 300));
    expect(texts(c.local, 'k')).toEqual(['slow']);
  });

  it('gives up after its last attempt and lets the next reply of the conversation leave', async () => {
    const c = channel();
    c.local.failNextSends(3, () => new Error('platform down'));
    const metrics = createMetricsStore(redis, `${prefix}-m${n}`, c.log.logger);
    c.pump('g1', { metrics });
    await c.send('f', 'doomed', 'f-1', 1);
    await c.send('f', 'next', 'f-2', 2);
    await c.local.waitForReplies(1, { chat: 'f', timeoutMs: 5000 });
    expect(texts(c.local, 'f')).toEqual(['next']);
    const lines = c.log.lines.join('');
    expect(lines.match(/outbox send failed/g)).toHaveLength(3);
    expect(lines).toContain('reply dropped after its last attempt');
    const series = (outcome: string) =>
      `baton_outbox_sends_total{channel="${c.local.key}",outcome="${outcome}"}`;
    const rendered = async () => {
      await metrics.flush();
      return metrics.render();
    };
    // The reply reaches the chat a moment before its send is counted.
    await expect.poll(rendered).toContain(`${series('sent')} 1`);
    expect(await rendered()).toContain(`${series('failed')} 3`);
    expect(await rendered()).toContain(`${series('dropped')} 1`);
  });

  it('recreates a consumer group that Redis lost and keeps sending', async () => {
    const c = channel();
    c.pump('g1');
    await c.send('l', 'before', 'l-1');
    await c.local.waitForReplies(1, { chat: 'l' });
    await redis.del(c.stream);
    await c.send('l', 'after', 'l-2');
    await c.local.waitForReplies(2, { chat: 'l', timeoutMs: 5000 });
    expect(texts(c.local, 'l')).toEqual(['before', 'after']);
  });

  it('drops an unreadable entry with a log line and sends what follows, also in its conversation', async () => {
    const c = channel();
    await redis.xadd(c.stream, '*', 'to', '{"nope":1}', 'text', 'x');
    await redis.xadd(c.stream, '*', 'to', 'not json', 'text', 'x', 'conv', `${c.local.key}:u:`, 'seq', '1');
    await c.send('u', 'readable', 'u-2', 2);
    c.pump('g1');
    await c.local.waitForReplies(1, { chat: 'u' });
    await expect.poll(() => c.log.lines.join('')).toContain('unreadable outbox entry dropped');
  });

  it('drops an unreadable entry only in its turn: the reply before it still leaves, then the one after', async () => {
    const c = channel();
    const conv = `${c.local.key}:t:`;
    // Read in one batch, the unreadable reply 2 ahead of reply 1 in the stream.
    await redis.xadd(c.stream, '*', 'to', 'not json', 'text', 'x', 'conv', conv, 'seq', '2');
    await c.send('t', 'first', 't-1', 1);
    await c.send('t', 'third', 't-3', 3);
    c.pump('g1');
    await c.local.waitForReplies(2, { chat: 't', timeoutMs: 5000 });
    expect(texts(c.local, 't')).toEqual(['first', 'third']);
    await expect.poll(() => redis.xlen(c.stream)).toBe(0);
    expect(await redis.get(replySentKey(c.space, conv))).toBe('3');
  });

  it('acks an entry whose conversation or sequence cannot be read without touching any mark', async () => {
    const c = channel();
    const conv = `${c.local.key}:v:`;
    await redis.set(replySentKey(c.space, conv), '1');
    await redis.xadd(c.stream, '*', 'to', 'not json', 'conv', conv, 'seq', 'nine');
    await redis.xadd(
      c.stream,
      '*',
      'to',
      JSON.stringify({ channel: c.local.key, chat: 'v' }),
      'conv',
      conv,
      'seq',
      '5',
    );
    await c.send('v', 'second', 'v-2', 2);
    c.pump('g1');
    await c.local.waitForReplies(1, { chat: 'v' });
    await expect.poll(() => redis.xlen(c.stream)).toBe(1); // seq 5 (no text) waits for 3 and 4
    expect(c.log.lines.join('').match(/unreadable outbox entry dropped/g)).toHaveLength(1);
    expect(await redis.get(replySentKey(c.space, conv))).toBe('2');
    expect(texts(c.local, 'v')).toEqual(['second']);
  });

  it('sends a reclaimed reply whole when its progress record is unreadable', async () => {
    const c = channel(10);
    await redis.xgroup('CREATE', c.stream, OUTBOX_GROUP, '0', 'MKSTREAM');
    await c.send('pr', 'aaaaaaaaa bbbbbbbbb', 'pr-1', 1);
    const read = (await redis.xreadgroup('GROUP', OUTBOX_GROUP, 'dead', 'STREAMS', c.stream, '>')) as [
      string,
      [string, string[]][],
    ][];
    await redis.set(`${c.stream}:progress:${read[0]![1][0]![0]}`, 'one');
    c.pump('g2');
    await c.local.waitForReplies(2, { chat: 'pr', timeoutMs: 5000 });
    expect(texts(c.local, 'pr')).toEqual(['aaaaaaaaa', 'bbbbbbbbb']);
    expect(c.log.lines.join('')).toContain('unreadable reply progress skipped');
  });

  it('sends the next reply when the last-sent mark is unreadable, and writes a readable mark again', async () => {
    const c = channel();
    const conv = `${c.local.key}:dm:`;
    await redis.set(replySentKey(c.space, conv), 'seven');
    await c.send('dm', 'eight', 'dm-8', 8);
    await c.send('dm-other', 'elsewhere', 'dmo-1', 1);
    c.pump('g1');
    await c.local.waitForReplies(1, { chat: 'dm' });
    await expect.poll(() => redis.get(replySentKey(c.space, conv))).toBe('8');
    expect(c.log.lines.join('')).toContain('unreadable last-sent mark');
    await c.local.waitForReplies(1, { chat: 'dm-other' });
  });

  it('leaves unsent replies queued at shutdown for the next gateway', async () => {
    const c = channel();
    c.local.failNextSends(1, () => new Error('platform down'));
    const first = c.pump('g1', {
      timings: { keepAliveMs: 100, minIdleMs: 300, maxAttempts: 5, backoffMs: 5000 },
    });
    await c.send('s', 'kept', 's-1', 1);
    await expect.poll(() => c.log.lines.join('')).toContain('outbox send failed');
    await first.close();
    expect(await redis.xlen(c.stream)).toBe(1);
    c.pump('g2');
    await c.local.waitForReplies(1, { chat: 's', timeoutMs: 5000 });
    expect(texts(c.local, 's')).toEqual(['kept']);
  });

  it('forgets the consumers of stopped gateways once they hold nothing', async () => {
    const c = channel();
    await redis.xgroup('CREATE', c.stream, OUTBOX_GROUP, '0', 'MKSTREAM');
    await c.send('p', 'held', 'p-1');
    // A stopped gateway that still holds an entry, and one that holds nothing.
    await redis.xreadgroup('GROUP', OUTBOX_GROUP, 'old-holding', 'COUNT', 1, 'STREAMS', c.stream, '>');
    await redis.xgroup('CREATECONSUMER', c.stream, OUTBOX_GROUP, 'old-empty');
    await new Promise((r) => setTimeout(r, 60));
    c.pump('g1', {
      timings: {
        keepAliveMs: 50,
        minIdleMs: 60_000,
        pruneEveryMs: 0,
        pruneIdleMs: 50,
        maxAttempts: 3,
        backoffMs: 20,
      },
    });
    const names = async () =>
      ((await redis.xinfo('CONSUMERS', c.stream, OUTBOX_GROUP)) as unknown[][])
        .map((r) => String(r[1]))
        .sort();
    // (g1 itself shows up only once it has read an entry.)
    await expect.poll(names, { timeout: 3000 }).not.toContain('old-empty');
    expect(await names()).toContain('old-holding');
  });
});
