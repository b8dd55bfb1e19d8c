// Background tasks across processes: another worker process runs the job; SIGKILL mid-task ends in `lost`.
import { type ChildProcess, spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDelegateReaper } from '../../../src/delegation/delegate-reaper.ts';
import { createDelegateTasks } from '../../../src/delegation/delegate-tasks.ts';
import { createDelegationServices, type DelegationHandle } from '../../../src/queue/delegate-queue.ts';
import { type AgentHarness, createAgentHarness } from '../../helpers/agent-harness.ts';
import { REDIS_URL } from '../../helpers/redis.ts';
import { DELEGATE_TOML, delegateCall } from './delegate-config.ts';
import { resultOf } from './helpers.ts';

let h: AgentHarness;
let client: DelegationHandle;
let child: ChildProcess | undefined;
let childWorkerId = '';
let configPath = '';

function startWorkerProcess(): Promise<void> {
  const proc = spawn(
    process.execPath,
    [join(import.meta.dirname, 'delegate-worker-process.ts'), configPath],
    {
      env: { ...process.env, MODEL_URI: h.server.openaiBaseUrl, DATA_DIR: h.dataDir, REDIS_URL },
      stdio: ['ignore', 'pipe', 'ignore'],
    },
  );
  child = proc;
  return new Promise((resolve, reject) => {
    proc.stdout?.on('data', (d: Buffer) => {
      const m = /ready (\S+)/.exec(String(d));
      if (m) {
        childWorkerId = m[1]!;
        resolve();
      }
    });
    proc.on('exit', (code) => reject(new Error(`worker process exited early (${code})`)));
  });
}

beforeAll(async () => {
  h = await createAgentHarness('delegate-xproc', DELEGATE_TOML);
  configPath = join(h.dataDir, 'baton.toml');
  writeFileSync(
    configPath,
    `[redis]\nprefix = "${h.prefix}"\n\n[gateway]\ndata_dir = "${h.dataDir}"\n\n${DELEGATE_TOML}`,
  );
  // This process only enqueues, awaits and checks: it runs no delegate worker of its own.
  client = createDelegationServices({
    redisTarget: { url: REDIS_URL },
    prefix: h.prefix,
    logger: h.services.logger,
  });
  h.extend({ delegation: client });
  await startWorkerProcess();
}, 20_000);
afterAll(async () => {
  child?.kill('SIGKILL');
  await client.close();
  await h.close();
});

const tasks = () => createDelegateTasks(h.redis, h.prefix);

/** `scriptChildren` replaces the fake's scripts; without it the scripts are kept (a job may still be queued). */
async function mainCalls(calls: Array<[string, Record<string, unknown>]>, scriptChildren?: () => void) {
  if (scriptChildren) {
    h.server.reset();
    scriptChildren();
  }
  h.server.script([{ toolCalls: calls.map(([id, a]) => delegateCall(id, a)) }, { text: 'ok' }], {
    model: 'main-model',
  });
  await h.turn('main', 'go', { session: 'bg-chat' });
  return calls.map(([id]) => resultOf(h.server, id) ?? ''); // call ids are unique across this file
}

describe('background delegation across processes', () => {
  it('is run by another worker process, then checked and awaited from this one', async () => {
    const [started] = await mainCalls([['b1', { agent: 'writer', prompt: 'remote', background: true }]], () =>
      h.server.script([{ text: 'done remotely' }], { model: 'fast-model' }),
    );
    const id = /task_id: (\S+)/.exec(started!)?.[1] ?? '';
    const [awaited, checked] = await mainCalls([
      ['a1', { action: 'await_sessions', task_ids: [id], timeout_ms: 25_000 }],
      ['c1', { action: 'check_result', task_id: id }],
    ]);
    expect(JSON.parse(awaited!)).toMatchObject({ status: 'complete', completed: 1, failed: [] });
    expect(JSON.parse(checked!)).toMatchObject({
      status: 'completed',
      output: "[Agent 'writer' (custom/fast-model)]\ndone remotely",
    });
    expect((await tasks().get(id))?.owner).toBe(childWorkerId);
  });

  it('ends a task whose worker was SIGKILLed mid-run as lost, never running', async () => {
    const [started] = await mainCalls([['b2', { agent: 'coder', prompt: 'slow', background: true }]], () =>
      h.server.script([{ delayMs: 60_000, text: 'never' }], { model: 'deep-model' }),
    );
    const id = /task_id: (\S+)/.exec(started!)?.[1] ?? '';
    // Wait until the remote worker owns the task and its child request is in flight, then kill it.
    const deadline = Date.now() + 10_000;
    while (!h.server.requests.some((r) => r.body.model === 'deep-model') && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 20));
    }
    expect((await tasks().get(id))?.owner).toBe(childWorkerId);
    child?.kill('SIGKILL');
    const reaper = startDelegateReaper({
      redis: h.redis,
      prefix: h.prefix,
      delegation: client,
      logger: h.services.logger,
      staleHeartbeatMs: 1000,
    });
    try {
      const until = Date.now() + 10_000;
      while ((await tasks().get(id))?.status === 'running' && Date.now() < until) {
        await reaper.runOnce();
        await new Promise((r) => setTimeout(r, 100));
      }
    } finally {
      reaper.close();
    }
    const rec = await tasks().get(id);
    expect(rec).toMatchObject({ status: 'lost', error: null });
    expect(rec?.finished_at).not.toBeNull();
    expect(await tasks().inFlight()).not.toContain(id);
    const [checked] = await mainCalls([['c2', { action: 'check_result', task_id: id }]]);
    expect(checked!.endsWith('\n\nError: background task is lost and will not complete')).toBe(true);
  }, 30_000);
});
