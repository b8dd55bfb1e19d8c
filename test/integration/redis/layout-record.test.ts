// The recorded partition count (spec/config.md §15.1 `partitions`) on real Redis: written on first start, kept
// when the config agrees, rewritten (and logged) when the old partitions are empty, refused while they hold work,
// and a Redis holding work in the untagged keys of a release before partitions refused too. The refusal also
// through `baton worker`'s startup, which exits 1 with the text before it touches any queue.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createSilentLogger } from '../../../src/core/logger.ts';
import { createConversationInbox } from '../../../src/queue/conversation-inbox.ts';
import { checkKeyLayout, LayoutMismatchError, layoutRecordKey } from '../../../src/queue/layout-record.ts';
import { outboxStreamKey, recipientConversation } from '../../../src/queue/names.ts';
import { createReplyOutbox } from '../../../src/queue/reply-outbox.ts';
import { createTurnQueue } from '../../../src/queue/turn-queue.ts';
import { runRole } from '../../../src/roles/role-process.ts';
import { spaceOf } from '../../helpers/key-space.ts';
import { capturingLogger } from '../../helpers/providers.ts';
import { deletePrefix, REDIS_URL, testRedis, uniquePrefix } from '../../helpers/redis.ts';

const redis = testRedis();
const prefixes: string[] = [];
const fresh = (name: string) => {
  const prefix = uniquePrefix(`layout-${name}`);
  prefixes.push(prefix);
  return prefix;
};
const dirs: string[] = [];
afterAll(async () => {
  for (const p of prefixes) await deletePrefix(redis, p);
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
  await redis.quit();
});

/** The channels the config names (enabled or not): their outbox streams are counted. */
const CHANNELS = ['web.main'];
const silent = createSilentLogger();
const conversation = 'local.test:layout:';
const event = {
  kind: 'message' as const,
  channel: 'local.test',
  eventId: 'e1',
  chat: 'layout',
  sender: { id: 'u' },
  text: 'hello',
  isDirect: true,
  addressedToBot: true,
  receivedAt: new Date().toISOString(),
  agent: 'main',
};

/** One message accepted and kicked, and one reply queued, with the real producers of a `partitions` layout. */
async function queueWork(prefix: string, partitions: number): Promise<void> {
  const space = spaceOf(prefix, partitions);
  expect(await createConversationInbox(redis, space, silent).accept(conversation, event)).toBe('first');
  const turns = createTurnQueue({ url: REDIS_URL }, space);
  await turns.kick(conversation, 'main');
  await turns.close();
  await createReplyOutbox(redis, space).enqueue({ channel: 'web.main', chat: 'other' }, { text: 'hi' }, 'r1');
}

const refusal = async (work: Promise<unknown>): Promise<string> => {
  const err = await work.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(LayoutMismatchError);
  return (err as Error).message;
};

describe('the recorded partition count', () => {
  it('is written on first start and kept while the config names the same count', async () => {
    const prefix = fresh('same');
    expect(await checkKeyLayout(redis, spaceOf(prefix, 4), CHANNELS, silent)).toBe('written');
    expect(await redis.hget(layoutRecordKey(prefix), 'partitions')).toBe('4');
    await queueWork(prefix, 4);
    expect(await checkKeyLayout(redis, spaceOf(prefix, 4), CHANNELS, silent)).toBe('same');
  });

  it('refuses another count while the recorded partitions hold work, naming both counts and the drain', async () => {
    const prefix = fresh('busy');
    await checkKeyLayout(redis, spaceOf(prefix, 4), CHANNELS, silent);
    await queueWork(prefix, 4);
    expect(await refusal(checkKeyLayout(redis, spaceOf(prefix, 16), CHANNELS, silent))).toBe(
      `redis.partitions is 16 in the config, but Redis prefix "${prefix}" was last run with redis.partitions = 4 ` +
        'and its queues still hold work (turn jobs queued or running: 1, conversations with waiting messages: 1, ' +
        'replies not yet sent: 1). Drain first: run the fleet with redis.partitions = 4 until /healthz shows every ' +
        'queue empty (no turn waiting or running, no reply waiting), stop every process, then start with ' +
        'redis.partitions = 16.',
    );
    expect(await redis.hget(layoutRecordKey(prefix), 'partitions')).toBe('4');
  });

  it('is rewritten, with a log line, when the recorded partitions hold no work', async () => {
    const prefix = fresh('idle');
    await checkKeyLayout(redis, spaceOf(prefix, 4), CHANNELS, silent);
    // A reply of a channel the config no longer names is still work (found by SCAN); once sent, it is not.
    const gone = { channel: 'telegram.gone', chat: '7' };
    await createReplyOutbox(redis, spaceOf(prefix, 4)).enqueue(gone, { text: 'late' }, 'g1');
    expect(await refusal(checkKeyLayout(redis, spaceOf(prefix, 2), CHANNELS, silent))).toContain(
      '(turn jobs queued or running: 0, conversations with waiting messages: 0, replies not yet sent: 1)',
    );
    const stream = outboxStreamKey(spaceOf(prefix, 4), gone.channel, recipientConversation(gone));
    await redis.xtrim(stream, 'MAXLEN', 0);
    const log = capturingLogger();
    expect(await checkKeyLayout(redis, spaceOf(prefix, 2), CHANNELS, log.logger)).toBe('rewritten');
    expect(await redis.hget(layoutRecordKey(prefix), 'partitions')).toBe('2');
    const line = JSON.parse(log.lines.join('')) as Record<string, unknown>;
    expect(line).toMatchObject({
      msg: 'redis.partitions changed and the old partitions hold no work: record rewritten',
      from: 4,
      to: 2,
    });
  });

  it('refuses a Redis whose untagged keys of a release before partitions hold work; writes one that is empty', async () => {
    const prefix = fresh('legacy');
    // The old release's names (no builder makes them any more): its turns queue, busy set and outbox stream.
    await redis.rpush(`${prefix}:turns:wait`, '1');
    await redis.sadd(`${prefix}:inbox-active`, conversation, 'local.test:other:');
    await redis.xadd(`${prefix}:outbox-web-main`, '*', 'to', '{}', 'text', 'x');
    expect(await refusal(checkKeyLayout(redis, spaceOf(prefix, 1), CHANNELS, silent))).toBe(
      `redis.partitions is 1 in the config, but Redis prefix "${prefix}" holds work in the key layout of a release ` +
        'before partitions (recorded: none; that layout is one partition, untagged keys): turn jobs queued or ' +
        'running: 1, conversations with waiting messages: 2, replies not yet sent: 1. Drain it with that release ' +
        'first: run it until /healthz shows every queue empty (no turn waiting or running, no reply waiting), stop ' +
        'every process, then start this release.',
    );
    expect(await redis.exists(layoutRecordKey(prefix))).toBe(0);

    // The release's other work (a background task still in flight) is refused too, named by its key.
    const tasks = fresh('legacy-tasks');
    await redis.sadd(`${tasks}:delegate-inflight`, 'task-1');
    expect(await refusal(checkKeyLayout(redis, spaceOf(tasks, 1), CHANNELS, silent))).toBe(
      `redis.partitions is 1 in the config, but Redis prefix "${tasks}" holds work in the key layout of a release ` +
        'before partitions (recorded: none; that layout is one partition, untagged keys): turn jobs queued or ' +
        `running: 0, conversations with waiting messages: 0, replies not yet sent: 0; also ${tasks}:delegate-inflight ` +
        '(1). Drain it with that release first: run it until /healthz shows every queue empty (no turn waiting or ' +
        'running, no reply waiting), stop every process, then start this release.',
    );

    const empty = fresh('legacy-empty');
    await redis.set(`${empty}:reply-sent:local.test:x:`, '3'); // an old mark is not work
    expect(await checkKeyLayout(redis, spaceOf(empty, 1), CHANNELS, silent)).toBe('written');
  });

  it('refuses an unreadable record, naming its key', async () => {
    const prefix = fresh('damaged');
    await redis.hset(layoutRecordKey(prefix), 'partitions', 'many');
    expect(await refusal(checkKeyLayout(redis, spaceOf(prefix, 1), CHANNELS, silent))).toBe(
      `the key layout record {${prefix}:layout} cannot be read (partitions = "many"); redis.partitions cannot be ` +
        'checked against it. Delete the key once no turn is queued and no reply waits.',
    );
  });

  it('stops `baton worker` at startup with the refusal, exit code 1', async () => {
    const prefix = fresh('cli');
    await checkKeyLayout(redis, spaceOf(prefix, 4), CHANNELS, silent);
    await queueWork(prefix, 4);
    const dir = mkdtempSync(join(tmpdir(), 'baton-layout-'));
    dirs.push(dir);
    const path = join(dir, 'baton.toml');
    writeFileSync(
      path,
      `schema_version = 3\n[risk_profiles.p]\n[agents.a]\nrisk_profile = "p"\n[channels.web.main]\nenabled = false\n` +
        `[redis]\nurl = "${REDIS_URL}"\nprefix = "${prefix}"\npartitions = 8\n`,
    );
    const err: string[] = [];
    const code = await runRole('worker', path, {
      out: () => {},
      err: (line) => err.push(line),
      env: {},
      stopSignal: new Promise<string>(() => {}),
    });
    expect(code).toBe(1);
    expect(err).toEqual([
      `error: redis.partitions is 8 in the config, but Redis prefix "${prefix}" was last run with ` +
        'redis.partitions = 4 and its queues still hold work (turn jobs queued or running: 1, conversations with ' +
        'waiting messages: 1, replies not yet sent: 1). Drain first: run the fleet with redis.partitions = 4 until ' +
        '/healthz shows every queue empty (no turn waiting or running, no reply waiting), stop every process, then ' +
        'start with redis.partitions = 8.',
    ]);
  });
});
