// An abort reaches the run it found running, not a turn of the same session begun after it: the worker begins
// a conversation's next turn (its abort registered, its mark written) in the settle of the turn before.
import { afterAll, describe, expect, it } from 'vitest';
import { createSilentLogger } from '../../../src/core/logger.ts';
import { createAbortBus } from '../../../src/fleet/abort-bus.ts';
import { createRunningTurns } from '../../../src/fleet/running-turns.ts';
import { createSessionAbort } from '../../../src/fleet/session-abort.ts';
import { deletePrefix, testRedis, uniquePrefix } from '../../helpers/redis.ts';
import { waitFor } from '../../helpers/wait.ts';

const prefix = uniquePrefix('abort-run');
const redis = testRedis();
const subscriber = testRedis();
const bus = createAbortBus(redis, subscriber, prefix, createSilentLogger());
const running = createRunningTurns(redis, { prefix, partitions: 1 }, createSilentLogger());
const abort = createSessionAbort(running, bus);

afterAll(async () => {
  await bus.close();
  await deletePrefix(redis, prefix);
  redis.disconnect();
  subscriber.disconnect();
});

describe('session abort by run', () => {
  it('stops the run the mark names and leaves the next one; an abort without a run stops both', async () => {
    const found = new AbortController();
    const next = new AbortController();
    const offFound = bus.register('session', 'conv-1', found, 'run-a');
    const offNext = bus.register('session', 'conv-1', next, 'run-b');
    await running.markRunning('conv-1', 'turn-a', 'worker-1', 'run-a');

    expect(await abort('conv-1')).toEqual({ aborted: true, runId: 'turn-a' });
    await waitFor(() => found.signal.aborted, 10_000, 'the found run aborted');
    // The same pub/sub message delivered both checks: had it named no run, `next` would be aborted by now.
    expect(next.signal.aborted).toBe(false);

    await bus.publish('session', 'conv-1');
    await waitFor(
      () => next.signal.aborted,
      10_000,
      'an abort naming no run to stop every run of the session',
    );
    offFound();
    offNext();
  });
});
