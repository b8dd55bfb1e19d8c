// Background tasks belong to the conversation that started them (security review #11d): another chat of the same
// agent gets, for check_result, await_sessions and cancel_task, exactly the answers of an unknown task id.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDelegateTasks } from '../../../src/delegation/delegate-tasks.ts';
import { createRuntimeHarness, localPeers, type RuntimeHarness } from '../../helpers/runtime-harness.ts';
import { mainWithWriterToml } from '../../helpers/test-config.ts';
import { waitFor } from '../../helpers/wait.ts';
import { delegateCall } from './delegate-config.ts';
import { resultOf } from './helpers.ts';

const TOML = `${mainWithWriterToml(`\${MODEL_URI}`, { writerModel: 'fast-model' })}
${localPeers()}`;

let h: RuntimeHarness;
beforeAll(async () => {
  h = await createRuntimeHarness('task-scope', TOML);
});
afterAll(() => h?.close());

/** One turn in `chat` whose model makes these delegate calls; returns each call's model-visible result. */
async function turnIn(chat: string, calls: Array<[string, Record<string, unknown>]>): Promise<string[]> {
  const before = h.local.replies.filter((r) => r.to.chat === chat).length;
  h.server.script([{ toolCalls: calls.map(([id, a]) => delegateCall(id, a)) }, { text: 'ok' }], {
    model: 'main-model',
  });
  await h.local.inject({ chat, text: 'go' });
  await h.local.waitForReplies(before + 1, { chat, timeoutMs: 20_000 });
  return calls.map(([id]) => resultOf(h.server, id) ?? '');
}

describe('background task scope', () => {
  it('a second chat of the same agent cannot see, await or cancel the first chat’s task', async () => {
    h.server.script([{ text: 'private answer', delayMs: 60_000 }], { model: 'fast-model' });
    const [started] = await turnIn('alice', [
      ['bg', { agent: 'writer', prompt: 'secret', background: true }],
    ]);
    const id = /task_id: ([0-9a-f-]{36})/.exec(started ?? '')?.[1];
    if (!id) throw new Error(`no task id in: ${started}`);
    const unknown = '00000000-0000-4000-8000-000000000000';

    const [check, checkUnknown, awaited, cancel, cancelUnknown, listed] = await turnIn('mallory', [
      ['c1', { action: 'check_result', task_id: id }],
      ['c2', { action: 'check_result', task_id: unknown }],
      ['a1', { action: 'await_sessions', task_ids: [id], timeout_ms: 0 }],
      ['x1', { action: 'cancel_task', task_id: id }],
      ['x2', { action: 'cancel_task', task_id: unknown }],
      ['l1', { action: 'list_results' }],
    ]);
    expect(check).toBe(`Error: No result found for task_id '${id}'`);
    expect(checkUnknown).toBe(`Error: No result found for task_id '${unknown}'`);
    expect(JSON.parse(awaited!.split('\n\nError: ')[0]!)).toMatchObject({ missing: [id], results: [] });
    expect(cancel).toBe(`Error: No task found for task_id '${id}'`);
    expect(cancelUnknown).toBe(`Error: No task found for task_id '${unknown}'`);
    expect(listed).toBe('No background delegate results found.');
    const tasks = createDelegateTasks(h.redis, h.prefix);
    expect((await tasks.get(id))?.status).toBe('running');

    // The chat that started it still manages it.
    const [own, ownCancel] = await turnIn('alice', [
      ['c3', { action: 'check_result', task_id: id }],
      ['x3', { action: 'cancel_task', task_id: id }],
    ]);
    expect(JSON.parse(own!.split('\n\nError: ')[0]!)).toMatchObject({ task_id: id, status: 'running' });
    expect(ownCancel).not.toContain('No task found');
    await waitFor(async () => (await tasks.get(id))?.status === 'cancelled', 20_000, 'the task cancelled');
  });
});
