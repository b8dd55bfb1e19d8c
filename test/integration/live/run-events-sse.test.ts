// live.md §6: GET /api/runs/:id/events streams a tree's run events as they are written, each with its sequence
// number as SSE id, and resumes after Last-Event-ID without repeating or losing an event.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSilentLogger } from '../../../src/core/logger.ts';
import { createRunEventLog } from '../../../src/live/run-event-log.ts';
import type { RunLineage } from '../../../src/run-contract/run-events.ts';
import { spaceOf } from '../../helpers/key-space.ts';
import { uniquePrefix } from '../../helpers/redis.ts';
import { readSse } from '../../helpers/sse.ts';
import { type OpsHarness, startOpsHarness } from '../gateway/ops-harness.ts';

let ops: OpsHarness;
const prefix = uniquePrefix('live-sse');
beforeAll(async () => {
  ops = await startOpsHarness({ prefix });
});
afterAll(() => ops.close());

function treeOf(root: string) {
  const log = createRunEventLog(ops.redis, spaceOf(prefix), createSilentLogger());
  const run = {
    runId: root,
    lineage: { kind: 'root', treeRootId: root, parentRunId: null, parentToolCallId: null } as RunLineage,
  };
  return {
    log,
    tool: (id: string) =>
      log.emit(run, { type: 'tool_started', tool_call_id: id, tool: 'shell', args_summary: `n: ${id}` }),
    start: () => log.emit(run, { type: 'run_started', kind: 'root', agent: 'main', session_key: 's' }),
  };
}

const callIds = (frames: { data: string }[]) =>
  frames
    .map((f) => JSON.parse(f.data) as { type: string; tool_call_id?: string })
    .map((e) => e.tool_call_id ?? e.type);

describe('GET /api/runs/:id/events', () => {
  it('sends what is stored, then each event as it is written, with its sequence number as id', async () => {
    const root = randomUUID();
    const t = treeOf(root);
    t.start();
    t.tool('a');
    await t.log.flush();
    const res = await fetch(`${ops.url}/api/runs/${root}/events`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const sse = readSse(res);
    try {
      await sse.until((f) => f.length === 2);
      t.tool('b');
      await t.log.flush();
      t.tool('c');
      await t.log.flush();
      await sse.until((f) => f.length === 4);
      expect(callIds(sse.frames)).toEqual(['run_started', 'a', 'b', 'c']);
      expect(sse.frames.map((f) => f.id)).toEqual(['1', '2', '3', '4']);
    } finally {
      sse.close();
    }
  });

  it('resumes after Last-Event-ID: nothing repeated, nothing lost', async () => {
    const root = randomUUID();
    const t = treeOf(root);
    t.start();
    t.tool('a');
    t.tool('b');
    await t.log.flush();
    const res = await fetch(`${ops.url}/api/runs/${root}/events`, { headers: { 'last-event-id': '2' } });
    const sse = readSse(res);
    try {
      await sse.until((f) => f.length === 1);
      t.tool('c');
      await t.log.flush();
      await sse.until((f) => f.length === 2);
      expect(callIds(sse.frames)).toEqual(['b', 'c']);
      expect(sse.frames.map((f) => f.id)).toEqual(['3', '4']);
    } finally {
      sse.close();
    }
  });

  it('refuses what is not a run id', async () => {
    expect((await fetch(`${ops.url}/api/runs/nope/events`)).status).toBe(400);
  });
});
