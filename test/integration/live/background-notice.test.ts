// live.md §4: a background task started from a chat ends → that chat gets exactly one notice (task id, target,
// final state, elapsed time); none where the channel turned notices off, none for a task with no chat.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startDelegateReaper } from '../../../src/delegation/delegate-reaper.ts';
import { createDelegateTasks } from '../../../src/delegation/delegate-tasks.ts';
import { elapsedText } from '../../../src/live/live-messages.ts';
import { sendBackgroundNotice } from '../../../src/queue/background-notice.ts';
import type { DelegateWorker } from '../../../src/queue/delegate-worker.ts';
import { type AgentHarness, createAgentHarness } from '../../helpers/agent-harness.ts';
import { startHarnessDelegateWorker } from '../../helpers/delegate-worker.ts';
import { outboxEntries, spaceOf } from '../../helpers/key-space.ts';
import { silentRunningTask } from '../../helpers/task-fixtures.ts';
import { mainWithWriterToml } from '../../helpers/test-config.ts';
import { waitFor } from '../../helpers/wait.ts';

const TOML = `${mainWithWriterToml(`\${MODEL_URI}`, { writerModel: 'fast-model' })}
[channels.web.main]
enabled = true

[channels.web.quiet]
enabled = true
background_notices = false
`;

let h: AgentHarness;
let worker: DelegateWorker;
beforeAll(async () => {
  h = await createAgentHarness('live-notice', TOML);
  // One job at a time: a job's notice is sent before the next job starts, which the silence test relies on.
  worker = startHarnessDelegateWorker(h, { concurrency: 1 });
});
afterAll(async () => {
  await worker.close();
  await h.close();
});
beforeEach(() => h.server.reset());

const UUID = /task_id: ([0-9a-f-]{36})/;

/** Starts a background task from a turn in `session`; returns its id once the task settled. */
async function backgroundFrom(session: string): Promise<string> {
  h.server.script(
    [
      {
        toolCalls: [
          { id: 'bg', name: 'delegate', arguments: { agent: 'writer', prompt: 'work', background: true } },
        ],
      },
      { text: 'started' },
    ],
    { model: 'main-model' },
  );
  h.server.script([{ text: 'WRITER-RESULT' }], { model: 'fast-model' });
  await h.turn('main', 'go', { session });
  const started = h.server.requests.flatMap((r) => r.body.messages ?? []).find((m) => m.role === 'tool');
  const id = UUID.exec(String(started?.content))?.[1];
  if (!id) throw new Error('no task id');
  const tasks = createDelegateTasks(h.redis, h.prefix);
  await waitFor(async () => (await tasks.get(id))?.status === 'completed', 20_000, 'the task to complete');
  return id;
}

const entries = async (channel: string) =>
  (await outboxEntries(h.redis, spaceOf(h.prefix), channel)).map(([, f]) => {
    const o: Record<string, string> = {};
    for (let i = 0; i + 1 < f.length; i += 2) o[f[i]!] = f[i + 1]!;
    return o;
  });

describe('background task notices', () => {
  it('tells the chat that started the task, once, with id, target, state and elapsed time', async () => {
    const id = await backgroundFrom('web.main:chat-1:');
    await waitFor(async () => (await entries('web.main')).length > 0, 10_000, 'the notice');
    const [notice, ...rest] = await entries('web.main');
    expect(rest).toEqual([]);
    expect(JSON.parse(notice!.to!)).toEqual({ channel: 'web.main', chat: 'chat-1' });
    expect(notice!.text).toMatch(
      new RegExp(`^🔔 Background task ${id} \\(writer\\) completed after \\d+s\\. Ask me for its result\\.$`),
    );
    expect(notice!.text).not.toContain('WRITER-RESULT');

    // Whoever else settles or retries it later sends nothing more.
    const rec = await createDelegateTasks(h.redis, h.prefix).get(id);
    const deps = {
      redis: h.redis,
      space: spaceOf(h.prefix),
      config: h.services.config,
      redact: (t: string) => t,
    };
    expect(await sendBackgroundNotice(deps, rec!)).toBe(true);
    expect(await entries('web.main')).toHaveLength(1);
  });

  it('stays silent where the channel turned notices off, and for a task with no chat', async () => {
    const quiet = await backgroundFrom('web.quiet:chat-2:');
    const cli = await backgroundFrom('cli-session-3');
    // A later task's notice proves the worker finished the jobs before it, announcements included.
    await backgroundFrom('web.main:chat-4:');
    await waitFor(async () => (await entries('web.main')).length === 2, 10_000, 'the later notice');
    expect(await entries('web.quiet')).toEqual([]);
    const tasks = createDelegateTasks(h.redis, h.prefix);
    const deps = {
      redis: h.redis,
      space: spaceOf(h.prefix),
      config: h.services.config,
      redact: (t: string) => t,
    };
    expect(await sendBackgroundNotice(deps, (await tasks.get(quiet))!)).toBe(false);
    expect(await sendBackgroundNotice(deps, (await tasks.get(cli))!)).toBe(false);
  });

  it('announces a task the reaper settles (its worker died), once', async () => {
    const id = '3f1c2b9e-5d4a-4c7b-9e8f-0a1b2c3d4e5f';
    const tasks = createDelegateTasks(h.redis, h.prefix);
    await tasks.admit(silentRunningTask(id, { scope: 'web.main:chat-5:' }));
    const deps = {
      redis: h.redis,
      space: spaceOf(h.prefix),
      config: h.services.config,
      redact: (t: string) => t,
    };
    const reaper = startDelegateReaper({
      redis: h.redis,
      prefix: h.prefix,
      delegation: worker.delegation,
      logger: h.services.logger,
      onTaskSettled: async (taskId) => {
        await sendBackgroundNotice(deps, (await tasks.get(taskId))!);
      },
    });
    try {
      expect(await reaper.runOnce()).toBe(1);
      expect(await reaper.runOnce()).toBe(0);
    } finally {
      reaper.close();
    }
    const lost = (await entries('web.main')).filter((e) => e.text?.includes(id));
    expect(lost.map((e) => e.text)).toEqual([
      expect.stringMatching(
        new RegExp(
          `^🔔 Background task ${id} \\(writer\\) was lost \\(its worker stopped\\) after \\d+m \\d+s\\. `,
        ),
      ),
    ]);
  });

  it('writes elapsed time as people read it', () => {
    expect([900, 12_400, 185_000, 3_725_000].map(elapsedText)).toEqual(['1s', '12s', '3m 05s', '1h 02m']);
  });
});
