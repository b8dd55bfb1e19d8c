// live.md §4 in a fleet: two gateways on one Telegram bot (the polling lease lets one hold the chat) and two
// workers, one Redis prefix. A background task started from a chat ends → that chat gets exactly one notice,
// whichever worker ran it and whichever gateway holds the chat, also when the reaper settles it under a worker
// still running it.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSilentLogger } from '../../../src/core/logger.ts';
import { startDelegateReaper } from '../../../src/delegation/delegate-reaper.ts';
import { createDelegateTasks } from '../../../src/delegation/delegate-tasks.ts';
import type { TaskRecord } from '../../../src/delegation/task-records.ts';
import { leaseKey } from '../../../src/fleet/channel-lease.ts';
import { sendBackgroundNotice } from '../../../src/queue/background-notice.ts';
import { createDelegationServices, type DelegationHandle } from '../../../src/queue/delegate-queue.ts';
import { keySpaceOf } from '../../../src/queue/names.ts';
import { askedOf } from '../../helpers/model-requests.ts';
import { KEY, startTelegramFleet, type TelegramFleet } from '../../helpers/telegram-fleet.ts';
import { waitFor } from '../../helpers/wait.ts';

let f: TelegramFleet;
let jobs: DelegationHandle;
/** Let the writers answer: `release()` those of tasks asked 'now', `releaseLate()` those asked 'late'. */
let release: () => void = () => {};
let releaseLate: () => void = () => {};
beforeEach(async () => {
  f = await startTelegramFleet('notice-fleet', 'streaming = "off"\nprogress = "off"');
  jobs = createDelegationServices({
    redisTarget: f.config.redis,
    prefix: f.prefix,
    logger: createSilentLogger(),
  });
});
afterEach(async () => {
  // Also on the way out, so no worker waits for a held job at close.
  release();
  releaseLate();
  await jobs.close();
  await f.close();
});

/** Every turn starts one background task for the writer, asked what the user wrote; its answer is held. */
function backgroundTurns(): void {
  const now = new Promise<void>((r) => {
    release = r;
  });
  const late = new Promise<void>((r) => {
    releaseLate = r;
  });
  f.model.respond((req) => {
    const asked = askedOf(req);
    if (req.body.model === 'writer-model')
      return { text: 'WRITER-RESULT', until: asked.includes('late') ? late : now };
    if (req.body.messages?.at(-1)?.role === 'tool') return { text: 'started' };
    const args = { agent: 'writer', prompt: asked, background: true };
    return { toolCalls: [{ id: 'bg', name: 'delegate', arguments: args }] };
  });
}

const tasks = () => createDelegateTasks(f.redis, f.prefix);
/** The tasks `main` started, by the chat that started them (scope `telegram.home:<chat>:`). */
async function tasksOf(chats: number[]): Promise<Map<number, TaskRecord>> {
  const byChat = new Map<number, TaskRecord>();
  for (const rec of await tasks().listForAlias('main')) byChat.set(Number(rec.scope?.split(':')[1]), rec);
  expect([...byChat.keys()].sort()).toEqual([...chats].sort());
  return byChat;
}

const notices = (chat: number) =>
  f.visible(chat).flatMap((m) => m.versions.filter((v) => v.startsWith('🔔 Background task')));

/**
 * Nothing more can be announced: every task settled and its job ended (a worker announces before its job ends),
 * every turn settled, and every outbox entry was sent and acknowledged.
 */
async function allSaid(ids: string[]): Promise<void> {
  await waitFor(
    async () => {
      for (const id of ids) {
        if ((await tasks().get(id))?.status === 'running') return false;
        if ((await jobs.jobState(id)) !== 'completed') return false;
      }
      return (await f.turnsIdle()) && (await f.outboxDrained());
    },
    60_000,
    'every task settled and announced, every reply sent',
  );
}

describe('background task notices in a fleet', () => {
  it('one notice per task, sent by the gateway that took the chat over while the tasks ran', async () => {
    const a = await f.gateway();
    const b = await f.gateway();
    await Promise.all([f.worker(), f.worker()]);
    expect(await f.redis.get(leaseKey(f.prefix, KEY))).toBe(a.role.holder);
    backgroundTurns();
    const chats = [821, 822, 823, 824];
    for (const chat of chats) f.say(chat, 'start a task now');
    await waitFor(
      () => chats.every((c) => notices(c).length === 0 && f.visible(c).length === 1),
      30_000,
      'started',
    );
    const byChat = await tasksOf(chats);

    // The chat changes hands while every task is still running.
    await f.stop(a);
    await waitFor(
      async () => (await f.redis.get(leaseKey(f.prefix, KEY))) === b.role.holder,
      10_000,
      'b holds',
    );
    const sentByB = b.writes();
    release();
    await allSaid([...byChat.values()].map((t) => t.task_id));

    for (const chat of chats) {
      const id = byChat.get(chat)!.task_id;
      expect(notices(chat)).toEqual([
        expect.stringMatching(new RegExp(`^🔔 Background task ${id} \\(writer\\) completed after \\d+s\\.`)),
      ]);
    }
    expect(b.writes() - sentByB).toBe(chats.length);
  });

  it('the reaper and the workers race to settle tasks: whoever wins, each chat gets one notice', async () => {
    await Promise.all([f.gateway(), f.gateway()]);
    await Promise.all([f.worker(), f.worker()]);
    backgroundTurns();
    // Three tasks end just as the reaper's pass judges them; the fourth's worker is surely still running it.
    const chats = [831, 832, 833, 834];
    for (const chat of chats) f.say(chat, chat === 834 ? 'start a task late' : 'start a task now');
    await waitFor(() => chats.every((c) => f.visible(c).length === 1), 30_000, 'started');
    const byChat = await tasksOf(chats);
    const ids = [...byChat.values()].map((t) => t.task_id);
    await waitFor(
      async () => (await Promise.all(ids.map((id) => tasks().get(id)))).every((t) => t?.heartbeat_at),
      30_000,
      'every task running',
    );

    // A reaper that takes any heartbeat for a dead worker's, announcing as the worker role's does.
    const announce = async (taskId: string) => {
      const deps = {
        redis: f.redis,
        space: keySpaceOf(f.config.redis),
        config: f.config,
        redact: (t: string) => t,
      };
      await sendBackgroundNotice(deps, (await tasks().get(taskId))!);
    };
    const reaper = startDelegateReaper({
      redis: f.redis,
      prefix: f.prefix,
      delegation: jobs,
      logger: createSilentLogger(),
      staleHeartbeatMs: 0,
      onTaskSettled: announce,
    });
    let reaped = 0;
    try {
      const pass = reaper.runOnce();
      release();
      reaped = await pass;
    } finally {
      reaper.close();
    }
    releaseLate();
    await allSaid(ids);

    const states = new Map<number, string>();
    for (const [chat, t] of byChat) states.set(chat, (await tasks().get(t.task_id))!.status);
    expect(states.get(834)).toBe('lost');
    expect([...states.values()].filter((s) => s === 'lost')).toHaveLength(reaped);
    for (const [chat, t] of byChat) {
      const said = states.get(chat) === 'lost' ? 'was lost \\(its worker stopped\\)' : 'completed';
      expect(notices(chat)).toEqual([
        expect.stringMatching(new RegExp(`^🔔 Background task ${t.task_id} \\(writer\\) ${said} after`)),
      ]);
    }
    // Announcing a task again, from two places at once, still makes one notice.
    await Promise.all([announce(ids[0]!), announce(ids[0]!)]);
    await waitFor(() => f.outboxDrained(), 10_000, 'the outbox drained');
    expect(notices(byChat.keys().next().value!)).toHaveLength(1);
  });
});
