// What stops with an aborted turn (delegate.md §16): agentic children stop, background tasks survive.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDelegateTasks } from '../../../src/delegation/delegate-tasks.ts';
import type { DelegateWorker } from '../../../src/queue/delegate-worker.ts';
import { type AgentHarness, createAgentHarness } from '../../helpers/agent-harness.ts';
import { startHarnessDelegateWorker } from '../../helpers/delegate-worker.ts';
import { DELEGATE_TOML, delegateCall } from './delegate-config.ts';
import { resultOf } from './helpers.ts';

// coder's agentic limit is raised so only the abort can end its child within this test.
const TOML = DELEGATE_TOML.replace('agentic_timeout_secs = 2', 'agentic_timeout_secs = 60');

let h: AgentHarness;
let worker: DelegateWorker;
beforeAll(async () => {
  h = await createAgentHarness('delegate-cancel', TOML);
  worker = startHarnessDelegateWorker(h, {
    concurrency: 2,
    shutdownGraceMs: 50,
  });
});
afterAll(async () => {
  await worker.close();
  await h.close();
});

describe('aborting a turn', () => {
  it('stops its agentic children (parallel ones too) and leaves its background task running', async () => {
    h.server.script(
      [
        { delayMs: 30_000, text: 'never' },
        { delayMs: 30_000, text: 'never' },
        { delayMs: 30_000, text: 'never' },
      ],
      {
        model: 'deep-model',
      },
    );
    h.server.script(
      [
        {
          toolCalls: [
            delegateCall('bg', { agent: 'coder', prompt: 'background', background: true }),
            delegateCall('par', { parallel: ['coder', 'coder'], prompt: 'foreground' }),
          ],
        },
      ],
      { model: 'main-model' },
    );
    const abort = new AbortController();
    const started = Date.now();
    const turn = h.turn('main', 'go', { signal: abort.signal, session: 'bg-chat' });
    await h.server.waitForRequests(4, 5000); // main + background child + two parallel children
    abort.abort();
    await expect(turn).rejects.toThrow();
    expect(Date.now() - started).toBeLessThan(10_000);

    const tasks = createDelegateTasks(h.redis, h.prefix);
    const [id] = await tasks.inFlight();
    expect(id).toBeDefined();
    const rec = await tasks.get(id!);
    expect(rec?.status).toBe('running');
    expect(resultOf(h.server, 'par')).toBeUndefined();
    // Only cancel_task stops it.
    h.server.script(
      [{ toolCalls: [delegateCall('k', { action: 'cancel_task', task_id: id })] }, { text: 'ok' }],
      {
        model: 'main-model',
      },
    );
    await h.turn('main', 'cancel it', { session: 'bg-chat' });
    expect(resultOf(h.server, 'k')).toBe(`Task '${id}' cancelled: the running task was aborted.`);
  });
});
