// Fault tolerance of the outbox: a gateway process SIGKILLed mid-send; another gateway takes its replies
// over. Nothing is lost, each conversation keeps its order, and only a send cut off by the kill repeats.
import { afterAll, describe, it } from 'vitest';
import { urlTarget } from '../../src/core/redis-target.ts';
import { outboxStreamKeyOf } from '../../src/queue/names.ts';
import { expectCleanTakeover, gatewayCrashDrill } from '../helpers/gateway-crash-drill.ts';
import { everyPartition, spaceOf } from '../helpers/key-space.ts';
import { deletePrefix, REDIS_URL, testRedis, uniquePrefix } from '../helpers/redis.ts';
import { waitFor } from '../helpers/wait.ts';

const CHATS = 10;
const PER_CHAT = 30;
const redis = testRedis();
const prefix = uniquePrefix('gateway-crash');
const drill = gatewayCrashDrill(redis, urlTarget(REDIS_URL), spaceOf(prefix), {
  chats: CHATS,
  perChat: PER_CHAT,
});

afterAll(async () => {
  for (const c of drill.children) c.kill('SIGKILL');
  await deletePrefix(redis, prefix);
  await redis.quit();
});

describe('a gateway killed mid-send', () => {
  it('loses no reply and keeps each conversation in order when another gateway takes over', async () => {
    const got = await drill.run();
    expectCleanTakeover(got, CHATS, PER_CHAT);
    await waitFor(
      async () =>
        (await everyPartition(spaceOf(prefix), (n) =>
          redis.xlen(outboxStreamKeyOf(spaceOf(prefix), 'local.test', n)),
        )) === 0,
      5000,
      'an empty outbox',
    );
    for (const c of drill.children) c.kill('SIGTERM');
  }, 60_000);
});
