// live.md §6: GET /api/sessions/:id/tree/events streams the run events of a session's recent turns and of each new
// turn as it starts; the SSE id holds the reader's position in every turn, so a reconnect with Last-Event-ID
// resumes without repeating or losing an event, whichever turns moved meanwhile.
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
const prefix = uniquePrefix('live-session-sse');
beforeAll(async () => {
  ops = await startOpsHarness({ prefix });
});
afterAll(() => ops.close());

const log = () => createRunEventLog(ops.redis, spaceOf(prefix), createSilentLogger());

function turn(session: string) {
  const root = randomUUID();
  const run = {
    runId: root,
    lineage: { kind: 'root', treeRootId: root, parentRunId: null, parentToolCallId: null } as RunLineage,
  };
  const events = log();
  return {
    root,
    start: () => events.emit(run, { type: 'run_started', kind: 'root', agent: 'main', session_key: session }),
    tool: (id: string) =>
      events.emit(run, { type: 'tool_started', tool_call_id: id, tool: 'shell', args_summary: `n: ${id}` }),
    flush: () => events.flush(),
  };
}

type Frame = { id?: string; data: string };
const seen = (frames: Frame[]) =>
  frames.map((f) => {
    const e = JSON.parse(f.data) as { type: string; tool_call_id?: string };
    return e.tool_call_id ?? e.type;
  });
const url = (session: string) => `${ops.url}/api/sessions/${encodeURIComponent(session)}/tree/events`;

describe('GET /api/sessions/:id/tree/events', () => {
  it("sends the recent turns' stored events, then new ones, and a new turn's from its start", async () => {
    const session = 'web.main:sse-1:';
    const a = turn(session);
    a.start();
    a.tool('a1');
    await a.flush();
    const res = await fetch(url(session));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const sse = readSse(res);
    try {
      await sse.until((f) => f.length === 2);
      a.tool('a2');
      await a.flush();
      const b = turn(session);
      b.start();
      b.tool('b1');
      await b.flush();
      await sse.until((f) => f.length === 5);
      expect(seen(sse.frames)).toEqual(['run_started', 'a1', 'a2', 'run_started', 'b1']);
      expect(sse.frames.at(-1)?.id).toBe(`${a.root}:3,${b.root}:2`);
      // Another session's turn is not in this stream.
      const other = turn('web.main:sse-other:');
      other.start();
      await other.flush();
      b.tool('b2');
      await b.flush();
      await sse.until((f) => f.length === 6);
      expect(seen(sse.frames).at(-1)).toBe('b2');
    } finally {
      sse.close();
    }
  });

  it('resumes after Last-Event-ID in every turn: nothing repeated, nothing lost', async () => {
    const session = 'web.main:sse-2:';
    const a = turn(session);
    const b = turn(session);
    a.start();
    a.tool('a1');
    b.start();
    await a.flush();
    // The reader had a's first event only; meanwhile both turns moved on and a third began.
    a.tool('a2');
    b.tool('b1');
    const c = turn(session);
    c.start();
    await a.flush();
    const res = await fetch(url(session), { headers: { 'last-event-id': `${a.root}:1,${b.root}:1` } });
    const sse = readSse(res);
    try {
      await sse.until((f) => f.length === 4);
      expect(seen(sse.frames).sort()).toEqual(['a1', 'a2', 'b1', 'run_started'].sort());
      expect(seen(sse.frames).filter((x) => x === 'run_started')).toHaveLength(1);
      const cursor = new Map(
        (sse.frames.at(-1)?.id ?? '').split(',').map((p) => p.split(':') as [string, string]),
      );
      expect(Object.fromEntries(cursor)).toEqual({ [a.root]: '3', [b.root]: '2', [c.root]: '1' });
    } finally {
      sse.close();
    }
  });

  it('reads an unreadable Last-Event-ID as nothing read: the whole of each turn', async () => {
    const session = 'web.main:sse-3:';
    const a = turn(session);
    a.start();
    a.tool('a1');
    await a.flush();
    const res = await fetch(url(session), { headers: { 'last-event-id': 'garbage,../x:1' } });
    const sse = readSse(res);
    try {
      await sse.until((f) => f.length === 2);
      expect(seen(sse.frames)).toEqual(['run_started', 'a1']);
    } finally {
      sse.close();
    }
  });
});
