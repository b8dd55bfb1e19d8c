// live.md §6 "recent turns": the run-event flush that writes a root or cron run's first event also files the turn
// in its session's bounded index (newest RECENT_TURNS kept) and announces the session; children are not turns.
// Whatever the index holds is checked on read: a bad entry is logged and skipped.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSilentLogger } from '../../../src/core/logger.ts';
import { createRunEventLog, RECENT_TURNS, runEventKeys } from '../../../src/live/run-event-log.ts';
import { readRecentTurns, sessionsWithNewTurns } from '../../../src/live/session-turns.ts';
import type { RunKind, RunLineage } from '../../../src/run-contract/run-events.ts';
import { spaceOf } from '../../helpers/key-space.ts';
import { capturingLogger } from '../../helpers/providers.ts';
import { deletePrefix, testRedis, uniquePrefix } from '../../helpers/redis.ts';
import { waitFor } from '../../helpers/wait.ts';

const redis = testRedis();
const sub = testRedis();
const prefix = uniquePrefix('live-turns');
const space = spaceOf(prefix);
const keys = runEventKeys(space);
const announced: string[] = [];
beforeAll(async () => {
  sub.on('message', (_c: string, m: string) =>
    announced.push(...sessionsWithNewTurns(m, _c, createSilentLogger())),
  );
  await sub.subscribe(keys.turnsChannel);
});
afterAll(async () => {
  await deletePrefix(redis, prefix);
  redis.disconnect();
  sub.disconnect();
});

const log = createRunEventLog(redis, space, createSilentLogger());

function start(
  kind: RunKind,
  session: string,
  root: string = randomUUID(),
  parent: string | null = null,
): string {
  const runId = parent ? randomUUID() : root;
  const lineage: RunLineage = {
    kind,
    treeRootId: root,
    parentRunId: parent,
    parentToolCallId: parent && 'c1',
  };
  log.emit({ runId, lineage }, { type: 'run_started', kind, agent: 'main', session_key: session });
  return runId;
}

/** Start times order the index: the next turn starts in a later millisecond. */
async function nextMillisecond(): Promise<void> {
  const now = Date.now();
  await waitFor(() => Date.now() > now, 1000, 'the next millisecond', 1);
}

describe('the recent-turns index', () => {
  it('files root and cron runs under their session, newest first, and announces the session', async () => {
    const session = 'local.test:chat-1:';
    const first = start('root', session);
    await log.flush();
    await nextMillisecond();
    const second = start('root', session);
    // A subagent's and a delegated child's start in the same flush are not turns of any session.
    start('subagent', `subagent-${randomUUID()}`, second, second);
    start('delegate', session, second, second);
    const cron = start('cron', 'cron-x');
    await log.flush();

    const turns = await readRecentTurns(redis, space, session, createSilentLogger());
    expect(turns.map((t) => t.rootRunId)).toEqual([second, first]);
    expect(turns[0]!.startedAt).toBeGreaterThanOrEqual(turns[1]!.startedAt);
    expect(
      (await readRecentTurns(redis, space, 'cron-x', createSilentLogger())).map((t) => t.rootRunId),
    ).toEqual([cron]);
    await expect.poll(() => announced.filter((s) => s === session).length).toBe(2);
    expect(announced.some((s) => s.startsWith('subagent-'))).toBe(false);
  });

  it(`keeps only the newest ${RECENT_TURNS} turns of a session`, async () => {
    const session = 'local.test:busy:';
    const roots: string[] = [];
    for (let i = 0; i < RECENT_TURNS + 3; i++) {
      roots.push(start('root', session));
      await log.flush();
      await nextMillisecond();
    }
    expect(await redis.zcard(keys.turns(session))).toBe(RECENT_TURNS);
    const turns = await readRecentTurns(redis, space, session, createSilentLogger());
    expect(turns.map((t) => t.rootRunId)).toEqual(roots.slice(3).reverse());
  });

  it('skips and logs an entry that is not a run id or has no usable start time', async () => {
    const session = 'local.test:damaged:';
    const good = start('root', session);
    await log.flush();
    await redis.zadd(keys.turns(session), String(Date.now() + 5), 'not-a-run-id');
    await redis.zadd(keys.turns(session), 'inf', randomUUID());
    const { logger, lines } = capturingLogger();
    const turns = await readRecentTurns(redis, space, session, logger);
    expect(turns.map((t) => t.rootRunId)).toEqual([good]);
    expect(lines.filter((l) => l.includes('unreadable recent-turn entry skipped'))).toHaveLength(2);
  });

  it('reads no session out of a new-turn message that is not a JSON list of keys (logged)', () => {
    const { logger, lines } = capturingLogger();
    expect(sessionsWithNewTurns('{"a":1}', keys.turnsChannel, logger)).toEqual([]);
    expect(sessionsWithNewTurns('["a:b:"]', keys.turnsChannel, logger)).toEqual(['a:b:']);
    expect(lines.filter((l) => l.includes('unreadable new-turn message skipped'))).toHaveLength(1);
  });
});
